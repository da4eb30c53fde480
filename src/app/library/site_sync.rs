//! `library sync` from the Library view: the website's matches fetched into the folder on a
//! worker thread, its progress and failures coming back over a channel; the view indexes the
//! folder when it is done.

use crossbeam_channel::Receiver;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use terminal_core::library::sync::{self, SyncError, SyncEvent, SyncOptions, SyncReport, SyncWho};

/// What the worker sends.
pub enum SyncJobEvent {
    Progress(SyncEvent),
    Done(Result<SyncReport, SyncError>),
}

/// A running sync.
pub struct SyncJob {
    pub events: Receiver<SyncJobEvent>,
    pub cancel: Arc<AtomicBool>,
    /// Replays downloaded (or failed) of those to download.
    pub progress: (usize, usize),
    /// The last thing it said.
    pub status: String,
    pub failures: usize,
}

/// Whose games the view's fields name: the user id if typed, else the algo ids (numbers
/// separated by spaces or commas); an error line when neither is usable.
pub fn who(user: &str, algos: &str) -> Result<SyncWho, String> {
    if !user.trim().is_empty() {
        return Ok(SyncWho::User(user.trim().to_string()));
    }
    let ids: Result<Vec<u64>, _> = algos.split([' ', ',']).filter(|s| !s.trim().is_empty()).map(str::parse).collect();
    match ids {
        Ok(ids) if !ids.is_empty() => Ok(SyncWho::Algos(ids)),
        Ok(_) => Err("Type your user id, or your algo ids, to sync from the website".into()),
        Err(_) => Err(format!("Algo ids: numbers separated by spaces or commas, not {algos:?}")),
    }
}

impl SyncJob {
    /// Starts syncing `who` into `folder` from `api`; `wake` repaints the window when
    /// something arrives.
    pub fn start(folder: &Path, who: SyncWho, api: String, wake: Option<egui::Context>) -> SyncJob {
        let (tx, rx) = crossbeam_channel::unbounded();
        let cancel = Arc::new(AtomicBool::new(false));
        let (folder, stop) = (folder.to_path_buf(), Arc::clone(&cancel));
        let worker_tx = tx.clone();
        let spawned = std::thread::Builder::new().name("library-sync".into()).spawn(move || {
            let options = SyncOptions { api, ..SyncOptions::default() };
            let on_event = |e: SyncEvent| {
                let _ = worker_tx.send(SyncJobEvent::Progress(e));
                if let Some(w) = &wake {
                    w.request_repaint();
                }
            };
            let result = sync::sync(&folder, &who, &options, &on_event, &stop);
            let _ = worker_tx.send(SyncJobEvent::Done(result));
            if let Some(w) = &wake {
                w.request_repaint();
            }
        });
        if let Err(e) = spawned {
            let message = format!("cannot start the sync's thread: {e}");
            let error = SyncError::Write { path: PathBuf::from("."), source: std::io::Error::other(message) };
            let _ = tx.send(SyncJobEvent::Done(Err(error)));
        }
        SyncJob { events: rx, cancel, progress: (0, 0), status: "Listing the matches…".into(), failures: 0 }
    }

    pub fn stop(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Notes a progress event.
    pub fn note(&mut self, event: SyncEvent) {
        match event {
            SyncEvent::Algos(algos) => self.status = format!("{} algos; listing their matches…", algos.len()),
            SyncEvent::Matches { algo, matches } => self.status = format!("algo {algo}: {matches} matches"),
            SyncEvent::ToDownload { missing, present } => {
                self.progress = (0, missing);
                self.status = format!("{missing} replays to download ({present} already in the folder)");
            }
            SyncEvent::Downloaded { done, total, .. } => self.progress = (done, total),
            SyncEvent::Failed { message } => {
                self.failures += 1;
                self.status = format!("failed: {message}");
            }
        }
    }
}

/// The line the view shows when a sync ends.
pub fn summary(result: &Result<SyncReport, SyncError>) -> String {
    match result {
        Ok(r) => {
            let mut line = format!(
                "Synced: {} matches listed, {} replays downloaded, {} already here, {} failed",
                r.matches,
                r.downloaded,
                r.present,
                r.failures.len()
            );
            if let Some(last) = r.failures.last() {
                line.push_str(&format!(" (the last: {last})"));
            }
            if let Some(why) = &r.stopped {
                line.push_str(&format!("; {why}"));
            }
            line
        }
        Err(e) => format!("Sync: {e}"),
    }
}
