//! A folder's index brought up to date, with a progress bar on stderr: what `library` and
//! `library sync` both do before they answer.

use super::error::CliError;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use terminal_core::library::{LibraryIndex, UpdateReport};

/// The index of `dir` (kept in `db`, else at the default place), updated; and the seconds
/// it took.
pub(super) fn index_folder(dir: &Path, db: Option<&Path>) -> Result<(LibraryIndex, UpdateReport, f64), CliError> {
    let db = db.map_or_else(|| LibraryIndex::default_db_path(&crate::app::paths::data_dir(), dir), Path::to_path_buf);
    let started = Instant::now();
    let mut index = LibraryIndex::open(&db, dir)?;
    if let Some(moved) = index.moved_aside_message() {
        eprintln!("terminal-studio: {moved}");
    }
    let bar = super::stress_cmd::progress_bar(0, "replays read");
    let report = index.update(
        &|done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        },
        &AtomicBool::new(false),
    )?;
    bar.finish_and_clear();
    Ok((index, report, started.elapsed().as_secs_f64()))
}

/// The line saying what the index did.
pub(super) fn index_line(dir: &Path, index: &LibraryIndex, report: &UpdateReport, seconds: f64) -> String {
    format!(
        "{}: {} replays, index {} ({} read, {} changed, {} touched, {} removed, {} damaged; {seconds:.2} s)",
        dir.display(),
        report.files,
        index.db_path().display(),
        report.added,
        report.changed,
        report.touched,
        report.removed,
        report.damaged,
    )
}
