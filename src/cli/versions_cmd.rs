//! `terminal-studio versions save|list ALGO`: immutable copies of an algo folder, named by
//! the hash of their content, kept in the studio's data folder.

use super::error::{CliError, Outcome};
use std::path::{Path, PathBuf};
use terminal_core::versions::{Version, VersionStore};

#[derive(clap::Args, Debug)]
pub struct VersionsArgs {
    #[command(subcommand)]
    pub action: VersionsAction,
}

#[derive(clap::Subcommand, Debug)]
pub enum VersionsAction {
    /// Keep a runnable copy of the algo folder as it is now (caches, logs and replays left
    /// out); an unchanged folder is not saved twice.
    Save {
        algo: PathBuf,
        /// A name for the version (e.g. "before the new funnel").
        #[arg(long, value_name = "TEXT")]
        label: Option<String>,
    },
    /// The saved versions of the algo, oldest first: hash, date, label.
    List {
        algo: PathBuf,
        /// One JSON object per version.
        #[arg(long)]
        json: bool,
    },
}

/// The versions kept in the studio's data folder.
pub fn store() -> VersionStore {
    VersionStore::in_data_dir(&crate::app::paths::data_dir())
}

pub fn run(args: &VersionsArgs) -> Result<Outcome, CliError> {
    match &args.action {
        VersionsAction::Save { algo, label } => save(algo, label.as_deref()),
        VersionsAction::List { algo, json } => list(algo, *json),
    }
}

/// One version in a line: hash, date, files, label.
pub fn version_line(v: &Version) -> String {
    format!(
        "{}  {}  {:>4} files {:>9} bytes  {}",
        v.short(),
        v.saved_at_text(),
        v.files,
        v.bytes,
        v.label.as_deref().unwrap_or("-")
    )
}

fn save(algo: &Path, label: Option<&str>) -> Result<Outcome, CliError> {
    let saved = store().save(algo, label)?;
    let v = &saved.version;
    if saved.created {
        out!(
            "saved {} as version {} ({} files, {} bytes) in {}",
            algo.display(),
            v.name(),
            v.files,
            v.bytes,
            v.path.display()
        );
    } else {
        out!("unchanged: {} is version {}, saved {}; nothing saved", algo.display(), v.name(), v.saved_at_text());
    }
    Ok(Outcome::Done)
}

fn list(algo: &Path, json: bool) -> Result<Outcome, CliError> {
    let versions = store().list(algo)?;
    if json {
        for v in &versions {
            out!("{}", serde_json::to_string(v)?);
        }
        return Ok(Outcome::Done);
    }
    if versions.is_empty() {
        out!("{}: no saved version (save one with `terminal-studio versions save {}`)", algo.display(), algo.display());
    }
    for v in &versions {
        out!("{}", version_line(v));
    }
    Ok(Outcome::Done)
}
