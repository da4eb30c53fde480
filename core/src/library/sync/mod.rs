//! A player's ladder games fetched from the game's website into a replay folder: their algos
//! (`user/{id}/algos`), each algo's matches (`algo/{id}/matches`), and every replay not yet in
//! the folder (`replayexpanded/{id}`), kept as `<match id>.replay.gz` beside the website's
//! facts of each match (`facts`). Incremental (a replay present is never asked for again) and
//! polite (`client`: a rate, a timeout, retries). Desktop only: the browser build has no
//! sockets of its own.
//!
//! Indexing the new games is the caller's (as `library` does it): the index lives where the
//! studio keeps its data.

mod api;
mod client;
mod error;
mod rate;
mod replay;

pub use api::{DEFAULT_API, ListedAlgo};
pub use client::RequestPolicy;
pub use error::SyncError;
pub use replay::{check_replay, match_id_of};

use super::facts;
use super::site::{SiteMatch, replay_file_name};
use client::Client;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Whose games to fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyncWho {
    /// Every algo of a user (by the site's user id).
    User(String),
    /// These algos (by the site's algo ids).
    Algos(Vec<u64>),
}

/// How to sync.
#[derive(Debug, Clone)]
pub struct SyncOptions {
    /// The API's address (`DEFAULT_API` unless asked otherwise).
    pub api: String,
    pub requests: RequestPolicy,
    /// Downloads at once (the rate still bounds them all together).
    pub workers: usize,
    /// Replays that fail one after the other (each after its retries) before the sync stops.
    pub stop_after_failures: usize,
}

impl Default for SyncOptions {
    fn default() -> SyncOptions {
        SyncOptions { api: DEFAULT_API.into(), requests: RequestPolicy::default(), workers: 4, stop_after_failures: 5 }
    }
}

/// What a sync says while it runs.
#[derive(Debug, Clone, PartialEq)]
pub enum SyncEvent {
    /// The user's algos were listed.
    Algos(Vec<ListedAlgo>),
    /// One algo's matches were listed.
    Matches { algo: u64, matches: usize },
    /// The replays to download, and those already in the folder.
    ToDownload { missing: usize, present: usize },
    /// A replay was kept (`done` of `total` tried so far).
    Downloaded { match_id: u64, done: usize, total: usize },
    /// Something failed and was skipped: its one line.
    Failed { message: String },
}

/// What a sync did.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct SyncReport {
    pub algos: Vec<u64>,
    /// Distinct matches listed.
    pub matches: usize,
    /// Replays already in the folder (not asked for).
    pub present: usize,
    pub downloaded: usize,
    /// Each failure's one line (a listing, or a replay: neither kept).
    pub failures: Vec<String>,
    /// Why the downloads stopped early, if they did.
    pub stopped: Option<String>,
}

/// Fetches `who`'s matches into `dir`: the facts file first, then the missing replays.
pub fn sync(
    dir: &Path,
    who: &SyncWho,
    options: &SyncOptions,
    on_event: &(dyn Fn(SyncEvent) + Sync),
    cancel: &AtomicBool,
) -> Result<SyncReport, SyncError> {
    let client = Client::new(options.requests.clone());
    let api = options.api.as_str();
    let algos = match who {
        SyncWho::Algos(ids) => ids.clone(),
        SyncWho::User(user) => {
            let url = api::user_algos_url(api, user);
            let algos = api::read_algos(&url, &client.get(&url, &format!("user {user}"), cancel)?)?;
            on_event(SyncEvent::Algos(algos.clone()));
            algos.iter().map(|a| a.id).collect()
        }
    };
    let mut report = SyncReport { algos, ..SyncReport::default() };
    let listed = list_matches(&client, api, &report.algos.clone(), &mut report, on_event, cancel)?;
    report.matches = listed.len();
    keep_facts(dir, &listed)?;
    let missing: Vec<u64> = listed.keys().copied().filter(|id| !dir.join(replay_file_name(*id)).is_file()).collect();
    report.present = listed.len() - missing.len();
    on_event(SyncEvent::ToDownload { missing: missing.len(), present: report.present });
    download_all(&client, dir, &missing, options, &mut report, on_event, cancel);
    if cancel.load(Ordering::Relaxed) {
        report.stopped.get_or_insert_with(|| "stopped".into());
    }
    Ok(report)
}

/// Every algo's matches by match id; an algo whose list fails is named and skipped.
fn list_matches(
    client: &Client,
    api: &str,
    algos: &[u64],
    report: &mut SyncReport,
    on_event: &(dyn Fn(SyncEvent) + Sync),
    cancel: &AtomicBool,
) -> Result<BTreeMap<u64, SiteMatch>, SyncError> {
    let mut listed = BTreeMap::new();
    for &algo in algos {
        let url = api::algo_matches_url(api, algo);
        let matches = client.get(&url, &format!("algo {algo}"), cancel).and_then(|b| api::read_matches(&url, &b, algo));
        match matches {
            Ok(matches) => {
                on_event(SyncEvent::Matches { algo, matches: matches.len() });
                for m in matches {
                    // A match between two of my algos is listed twice: the first list keeps it.
                    listed.entry(m.id).or_insert(m);
                }
            }
            Err(SyncError::Cancelled) => return Err(SyncError::Cancelled),
            Err(e) => {
                on_event(SyncEvent::Failed { message: e.to_string() });
                report.failures.push(e.to_string());
            }
        }
    }
    Ok(listed)
}

/// Adds the listed matches' facts to the folder's facts file (facts already there are kept,
/// refreshed by the newer listing).
fn keep_facts(dir: &Path, listed: &BTreeMap<u64, SiteMatch>) -> Result<(), SyncError> {
    let write_error = |source| SyncError::Write { path: facts::facts_path(dir), source };
    std::fs::create_dir_all(dir).map_err(write_error)?;
    let (mut kept, unreadable) = facts::read_facts(dir);
    // Rewriting the file would drop the lines it could not read: the player's data.
    if let Some(bad) = unreadable.into_iter().next() {
        return Err(SyncError::DamagedFacts { file: dir.join(bad.file).display().to_string(), error: bad.error });
    }
    if listed.iter().all(|(id, m)| kept.get(id) == Some(m)) {
        return Ok(());
    }
    kept.extend(listed.iter().map(|(id, m)| (*id, m.clone())));
    facts::write_facts(dir, &kept).map_err(write_error)
}

/// Downloads `missing` on `options.workers` threads; stops after too many failures in a row.
fn download_all(
    client: &Client,
    dir: &Path,
    missing: &[u64],
    options: &SyncOptions,
    report: &mut SyncReport,
    on_event: &(dyn Fn(SyncEvent) + Sync),
    cancel: &AtomicBool,
) {
    let next = AtomicUsize::new(0);
    let (done, downloaded, failures_in_a_row) = (AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0));
    let stop = AtomicBool::new(false);
    let failures = Mutex::new(Vec::new());
    let stopped = Mutex::new(None);
    let worker = || {
        while !stop.load(Ordering::Relaxed) && !cancel.load(Ordering::Relaxed) {
            let Some(&match_id) = missing.get(next.fetch_add(1, Ordering::Relaxed)) else { return };
            let result = download(client, &options.api, dir, match_id, cancel);
            let done = done.fetch_add(1, Ordering::Relaxed) + 1;
            match result {
                Ok(_) => {
                    failures_in_a_row.store(0, Ordering::Relaxed);
                    downloaded.fetch_add(1, Ordering::Relaxed);
                    on_event(SyncEvent::Downloaded { match_id, done, total: missing.len() });
                }
                Err(SyncError::Cancelled) => return,
                Err(e) => {
                    let message = e.to_string();
                    on_event(SyncEvent::Failed { message: message.clone() });
                    lock(&failures).push(message.clone());
                    let in_a_row = failures_in_a_row.fetch_add(1, Ordering::Relaxed) + 1;
                    // A full disk fails every next write too: stop at the first.
                    if in_a_row >= options.stop_after_failures.max(1) || matches!(e, SyncError::Write { .. }) {
                        stop.store(true, Ordering::Relaxed);
                        lock(&stopped)
                            .get_or_insert(format!("stopped after {in_a_row} failures in a row; the last: {message}"));
                    }
                }
            }
        }
    };
    std::thread::scope(|s| {
        for _ in 0..options.workers.clamp(1, missing.len().max(1)) {
            s.spawn(worker);
        }
    });
    report.downloaded = downloaded.into_inner();
    report.failures.extend(lock(&failures).drain(..));
    report.stopped = lock(&stopped).take();
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A poisoned lock only means a worker panicked while pushing a line: the lines stand.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One replay, checked and kept in `dir` as `<match id>.replay.gz`.
fn download(client: &Client, api: &str, dir: &Path, match_id: u64, cancel: &AtomicBool) -> Result<PathBuf, SyncError> {
    let url = api::replay_url(api, match_id);
    let body = client.get(&url, &format!("match {match_id}"), cancel)?;
    replay::keep_replay(&url, &body, &dir.join(replay_file_name(match_id)))
}

/// One match (a `view` of its id or watch link): its replay downloaded into `cache` unless it
/// is there already; its path.
pub fn fetch_match(
    cache: &Path,
    match_id: u64,
    options: &SyncOptions,
    cancel: &AtomicBool,
) -> Result<PathBuf, SyncError> {
    let path = cache.join(replay_file_name(match_id));
    if path.is_file() {
        return Ok(path);
    }
    download(&Client::new(options.requests.clone()), &options.api, cache, match_id, cancel)
}
