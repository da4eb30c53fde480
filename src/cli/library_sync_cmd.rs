//! `terminal-studio library sync DIR (--user ID | --algo ID…)`: a player's ladder games
//! fetched from the game's website (`terminal_core::library::sync`), then indexed as
//! `library` indexes a folder. Progress and each failure's one line go to stderr.

use super::error::{CliError, Outcome};
use super::index_folder::{index_folder, index_line};
use super::signals::catch_stop_signals;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use terminal_core::library::sync::{self, RequestPolicy, SyncEvent, SyncOptions, SyncReport, SyncWho};

#[derive(clap::Args, Debug)]
pub struct SyncArgs {
    /// The folder the replays go to (made if missing); `<match id>.replay.gz` each, and the
    /// website's facts of every match in `site-matches.jsonl`.
    pub dir: PathBuf,
    /// Every algo of this user (the site's user id).
    #[arg(long, value_name = "ID", conflicts_with = "algo", required_unless_present = "algo")]
    pub user: Option<String>,
    /// This algo (the site's algo id); repeat for more.
    #[arg(long, value_name = "ID", num_args = 1..)]
    pub algo: Vec<u64>,
    /// The website's API.
    #[arg(long, value_name = "URL", default_value = sync::DEFAULT_API)]
    pub api: String,
    /// Requests a second at most (0: no limit). The site is a free public service.
    #[arg(long, value_name = "R", default_value_t = 2.0)]
    pub rate: f64,
    /// Seconds one request may take before it is tried again.
    #[arg(long, value_name = "S", default_value_t = 30.0)]
    pub timeout: f64,
    /// Tries of one request (on 429, 5xx, a timeout or a broken connection) before it is
    /// named and skipped.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub attempts: u32,
    /// The index file (default: one per folder in the studio's data folder).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// One JSON object on stdout: what the sync and the index did.
    #[arg(long)]
    pub json: bool,
}

impl SyncArgs {
    fn options(&self) -> Result<SyncOptions, CliError> {
        if !(self.rate.is_finite() && self.rate >= 0.0) {
            return Err(CliError::Usage("--rate: requests a second, 0 or more"));
        }
        if !(self.timeout.is_finite() && self.timeout > 0.0) {
            return Err(CliError::Usage("--timeout: seconds, more than 0"));
        }
        let requests = RequestPolicy {
            rate: self.rate,
            timeout: Duration::from_secs_f64(self.timeout),
            attempts: self.attempts.max(1),
            ..RequestPolicy::default()
        };
        Ok(SyncOptions { api: self.api.clone(), requests, ..SyncOptions::default() })
    }

    fn who(&self) -> SyncWho {
        match &self.user {
            Some(user) => SyncWho::User(user.clone()),
            None => SyncWho::Algos(self.algo.clone()),
        }
    }
}

pub fn run(args: &SyncArgs) -> Result<Outcome, CliError> {
    let options = args.options()?;
    let bar = super::stress_cmd::progress_bar(0, "replays downloaded");
    // A hidden bar (stderr not a terminal) prints nothing: the lines go to stderr as they are.
    let say = |line: String| if bar.is_hidden() { eprintln!("{line}") } else { bar.println(line) };
    let on_event = |event: SyncEvent| match event {
        SyncEvent::Algos(algos) => {
            let names: Vec<String> = algos.iter().map(|a| format!("{} ({})", a.name, a.id)).collect();
            say(format!("{} algos: {}", algos.len(), names.join(", ")));
        }
        SyncEvent::Matches { algo, matches } => say(format!("algo {algo}: {matches} matches listed")),
        SyncEvent::ToDownload { missing, present } => {
            say(format!("{missing} replays to download ({present} already in the folder)"));
            bar.set_length(missing as u64);
        }
        SyncEvent::Downloaded { done, .. } => bar.set_position(done as u64),
        SyncEvent::Failed { message } => say(format!("failed: {message}")),
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let signals = catch_stop_signals();
    if let Some(s) = &signals {
        // Ctrl+C stops the downloads, not the command: what arrived is then indexed.
        let (received, stop) = (s.received.clone(), Arc::clone(&cancel));
        let watcher = std::thread::Builder::new().name("sync-stop".into()).spawn(move || {
            if let Ok(sig) = received.recv() {
                eprintln!("signal {sig}: stopping the sync; the replays that arrived are kept and indexed");
                stop.store(true, Ordering::Relaxed);
            }
        });
        if let Err(e) = watcher {
            eprintln!("Ctrl+C ends the sync at once (no thread to catch it: {e})");
        }
    }
    let synced = sync::sync(&args.dir, &args.who(), &options, &on_event, &cancel);
    drop(signals);
    bar.finish_and_clear();
    let report = synced?;
    eprintln!("{}", summary_line(&report));
    // The games that did arrive are indexed even when some failed: nothing fetched is lost.
    let (index, indexed, seconds) = index_folder(&args.dir, args.db.as_deref())?;
    eprintln!("{}", index_line(&args.dir, &index, &indexed, seconds));
    if args.json {
        let json = serde_json::json!({ "sync": report, "index": indexed });
        out!("{json}");
    }
    Ok(if report.failures.is_empty() && report.stopped.is_none() { Outcome::Done } else { Outcome::Found })
}

fn summary_line(report: &SyncReport) -> String {
    let mut line = format!(
        "{} matches listed: {} replays downloaded, {} already in the folder, {} failed",
        report.matches,
        report.downloaded,
        report.present,
        report.failures.len()
    );
    if let Some(why) = &report.stopped {
        line.push_str(&format!("; {why}"));
    }
    line
}
