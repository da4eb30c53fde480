//! A confined seat's own temp folder: the one place (besides, if allowed, its own folder)
//! its algo may write. Made fresh for the seat, readable by this user only, removed with
//! all it holds when the seat is done.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

static NEXT: AtomicU64 = AtomicU64::new(0);

#[derive(Debug)]
pub struct SeatTemp {
    path: PathBuf,
}

impl SeatTemp {
    /// A new folder in the system's temp folder, under a name no other seat of any runner
    /// uses (created exclusively: an existing name is skipped, never reused).
    pub fn create() -> std::io::Result<SeatTemp> {
        let base = std::env::temp_dir();
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let mut last = None;
        for _ in 0..16 {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = base.join(format!("terminal-studio-seat-{}-{n}-{nanos}", std::process::id()));
            match create_private(&path) {
                Ok(()) => return Ok(SeatTemp { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| std::io::Error::other("no free temp folder name")))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(unix)]
fn create_private(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().mode(0o700).create(path)
}

#[cfg(not(unix))]
fn create_private(path: &Path) -> std::io::Result<()> {
    std::fs::create_dir(path)
}

impl Drop for SeatTemp {
    fn drop(&mut self) {
        // Links inside are removed, never followed.
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
