//! What an update of the index finds on disk and what it did: shared by the folder walk
//! (`index`) and the rows it writes (`store`).

use super::record::GameRecord;

/// What an update did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct UpdateReport {
    /// Replay files under the root.
    pub files: usize,
    /// Read for the first time.
    pub added: usize,
    /// Read again: their content changed.
    pub changed: usize,
    /// Touched (new mtime, same size and content): not read again.
    pub touched: usize,
    /// Gone from the folder: dropped from the index.
    pub removed: usize,
    /// Could not be read (listed with their errors).
    pub damaged: usize,
    /// Stopped by the cancel flag before every file was read.
    pub cancelled: bool,
}

/// A file's identity on disk: when it changes, the file is looked at again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stamp {
    pub size: i64,
    pub mtime_ns: i64,
}

impl Stamp {
    pub fn of(meta: &std::fs::Metadata) -> Stamp {
        let since_epoch = meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
        Stamp { size: meta.len() as i64, mtime_ns: since_epoch.map_or(0, |d| d.as_nanos() as i64) }
    }
}

/// What a worker found in a file that needed reading.
pub(super) struct FileRead {
    pub path: String,
    pub stamp: Stamp,
    pub crc32: u32,
    /// `None`: the same bytes as indexed (a touched file), not read again.
    pub game: Option<Result<GameRecord, String>>,
}
