//! Watching an algo's folder for changes: the files a version keeps, polled by name, size and
//! modification time (cheap enough every half second, and the same on every platform), with
//! a change taken only once the folder has stopped changing.

use super::error::VersionsError;
use super::store::kept_files;
use std::path::{Path, PathBuf};

/// How often a watcher looks.
pub const POLL: std::time::Duration = std::time::Duration::from_millis(500);

/// What the folder looked like at the last poll.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Fingerprint(Vec<(String, u64, Option<std::time::SystemTime>)>);

fn fingerprint(folder: &Path) -> Result<Fingerprint, VersionsError> {
    let mut out = Vec::new();
    for (name, path) in kept_files(folder)? {
        let meta = std::fs::metadata(&path).map_err(VersionsError::io(&path))?;
        out.push((name, meta.len(), meta.modified().ok()));
    }
    Ok(Fingerprint(out))
}

/// A folder watched between polls.
#[derive(Debug)]
pub struct FolderWatch {
    folder: PathBuf,
    /// The state last reported as settled.
    settled: Fingerprint,
    /// A state seen once since, waiting to be seen again unchanged.
    pending: Option<Fingerprint>,
}

impl FolderWatch {
    pub fn new(folder: &Path) -> Result<FolderWatch, VersionsError> {
        Ok(FolderWatch { folder: folder.to_path_buf(), settled: fingerprint(folder)?, pending: None })
    }

    /// One poll: true when the folder differs from the last settled state and looked the same
    /// at the poll before (an editor's save of several files is one change, not several).
    pub fn poll(&mut self) -> Result<bool, VersionsError> {
        let now = fingerprint(&self.folder)?;
        if now == self.settled {
            self.pending = None;
            return Ok(false);
        }
        if self.pending.as_ref() == Some(&now) {
            self.settled = now;
            self.pending = None;
            return Ok(true);
        }
        self.pending = Some(now);
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_reported_once_it_has_settled_and_caches_are_ignored() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("algo.py"), "a").expect("write");
        let mut watch = FolderWatch::new(dir.path()).expect("watch");
        assert!(!watch.poll().expect("poll"));
        std::fs::write(dir.path().join("run.log"), "log").expect("write");
        assert!(!watch.poll().expect("poll") && !watch.poll().expect("poll"), "a log is not a change");
        std::fs::write(dir.path().join("algo.py"), "bb").expect("write");
        assert!(!watch.poll().expect("poll"), "seen once: not yet settled");
        assert!(watch.poll().expect("poll"), "seen twice: a change");
        assert!(!watch.poll().expect("poll"), "reported once");
    }
}
