//! Indexing a folder on a worker thread: progress and the loaded library come back over a
//! channel, so the window stays live while hundreds of replays are read.

use crossbeam_channel::{Receiver, Sender};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use terminal_core::library::{Library, LibraryError, LibraryIndex, UpdateReport};

/// What the worker sends.
pub enum IndexEvent {
    /// Files read of those to read.
    Progress(usize, usize),
    /// Something the player should know that does not stop the job (a damaged index moved
    /// aside and rebuilt).
    Notice(String),
    Done(Result<(Library, UpdateReport, PathBuf), LibraryError>),
}

/// A running indexing job.
pub struct IndexJob {
    pub folder: PathBuf,
    pub events: Receiver<IndexEvent>,
    pub cancel: Arc<AtomicBool>,
    pub progress: (usize, usize),
    /// The notices the job sent, shown with its end.
    pub notices: Vec<String>,
    pub started: std::time::Instant,
}

impl IndexJob {
    /// Starts indexing `folder` into `db` (None: the default place in `data_dir`). `wake`
    /// repaints the window when something arrives.
    pub fn start(folder: &Path, db: Option<PathBuf>, data_dir: &Path, wake: Option<egui::Context>) -> IndexJob {
        let (tx, rx) = crossbeam_channel::bounded(64);
        let cancel = Arc::new(AtomicBool::new(false));
        let db = db.unwrap_or_else(|| LibraryIndex::default_db_path(data_dir, folder));
        let (folder_owned, stop) = (folder.to_path_buf(), Arc::clone(&cancel));
        let worker_tx = tx.clone();
        let spawned = std::thread::Builder::new().name("library-index".into()).spawn(move || {
            let result = index(&folder_owned, &db, &worker_tx, &stop, wake.as_ref());
            let _ = worker_tx.send(IndexEvent::Done(result));
            if let Some(w) = &wake {
                w.request_repaint();
            }
        });
        if let Err(source) = spawned {
            let _ = tx.send(IndexEvent::Done(Err(LibraryError::Io { path: folder.to_path_buf(), source })));
        }
        IndexJob {
            folder: folder.to_path_buf(),
            events: rx,
            cancel,
            progress: (0, 0),
            notices: Vec::new(),
            started: std::time::Instant::now(),
        }
    }

    /// "n of N replays, 0m06s left", the time left from the pace so far (once a replay is
    /// read, and a tenth of a second of work gives a pace worth saying).
    pub fn progress_text(&self) -> String {
        let (done, total) = self.progress;
        if total == 0 {
            return "listing the folder…".into();
        }
        let mut text = format!("{done} of {total} replays");
        let elapsed = self.started.elapsed();
        if done > 0 && done < total && elapsed.as_secs_f64() > 0.1 {
            let left = elapsed.mul_f64((total - done) as f64 / done as f64);
            text.push_str(&format!(", {} left", crate::app::time_text::duration(left)));
        }
        text
    }

    pub fn stop(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

fn index(
    folder: &Path,
    db: &Path,
    tx: &Sender<IndexEvent>,
    cancel: &AtomicBool,
    wake: Option<&egui::Context>,
) -> Result<(Library, UpdateReport, PathBuf), LibraryError> {
    let mut index = LibraryIndex::open(db, folder)?;
    if let Some(moved) = index.moved_aside_message() {
        // Sent blocking: the channel has room, and the notice must not be dropped.
        let _ = tx.send(IndexEvent::Notice(capitalised(&moved)));
    }
    let report = index.update(
        &|done, total| {
            // Progress is best effort: a full channel drops a step, never blocks the readers.
            if tx.try_send(IndexEvent::Progress(done, total)).is_ok()
                && let Some(w) = wake
            {
                w.request_repaint();
            }
        },
        cancel,
    )?;
    let library = Library::load(&index)?;
    Ok((library, report, db.to_path_buf()))
}

/// `text` with its first letter in upper case, as the status line's messages start.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
