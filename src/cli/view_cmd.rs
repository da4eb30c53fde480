//! `terminal-studio view REPLAY`: a replay file opens in the studio as it is; a match of the
//! game's website, named by its id or its watch link, is downloaded into the studio's cache
//! first (once: a match already there is not asked for again).

use super::error::CliError;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use terminal_core::library::sync::{self, RequestPolicy, SyncOptions};

#[derive(clap::Args, Debug)]
pub struct ViewArgs {
    /// A `.replay` or `.replay.gz` file, or a match of the website: its id or watch link
    /// (https://terminal.c1games.com/watch/ID).
    pub replay: String,
    /// The website's API (for a match id or link).
    #[arg(long, value_name = "URL", default_value = sync::DEFAULT_API)]
    pub api: String,
    /// Seconds the download may take before it is tried again.
    #[arg(long, value_name = "S", default_value_t = 30.0)]
    pub timeout: f64,
    /// Download the match into the cache and print its path; open no window.
    #[arg(long)]
    pub download_only: bool,
}

impl ViewArgs {
    /// A file to open as it is: one that exists, or is named like a replay or a layout.
    pub fn is_local_file(&self) -> bool {
        super::opens_in_studio(Path::new(&self.replay))
    }
}

/// The replay to open: the file named, or the website's match downloaded into the cache
/// (its path printed with `--download-only`).
pub fn fetch(args: &ViewArgs) -> Result<Option<PathBuf>, CliError> {
    if args.is_local_file() {
        return Ok(Some(PathBuf::from(&args.replay)));
    }
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        return Err(CliError::Usage("--timeout: seconds, more than 0"));
    }
    let match_id = sync::match_id_of(&args.replay)?;
    let options = SyncOptions {
        api: args.api.clone(),
        requests: RequestPolicy { timeout: Duration::from_secs_f64(args.timeout), ..RequestPolicy::default() },
        ..SyncOptions::default()
    };
    let cache = crate::app::paths::site_matches_dir();
    let path = sync::fetch_match(&cache, match_id, &options, &AtomicBool::new(false))?;
    eprintln!("match {match_id}: {}", path.display());
    if args.download_only {
        out!("{}", path.display());
    }
    Ok(Some(path))
}
