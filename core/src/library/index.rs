//! Keeping the index in step with a folder of replays: a new or changed file (size, mtime,
//! CRC-32) is read once, a deleted one drops out, a damaged one is listed with its error.
//! Files are read on worker threads and written in batches, each batch one transaction, so a
//! run that is killed leaves every batch before it in the database and the next run goes on.

use super::record::GameRecord;
use super::schema::{self, SchemaState};
use super::update::{FileRead, Stamp, UpdateReport};
use super::{LibraryError, store};
use crate::parallel::parallel_map;
use crate::sqlite_file::MovedAside;
use rusqlite::Connection;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// Files read per transaction.
const BATCH: usize = 64;

/// The index of one folder of replays, in its database.
pub struct LibraryIndex {
    pub(super) conn: Connection,
    pub(super) db: PathBuf,
    pub(super) root: PathBuf,
    pub schema: SchemaState,
    /// The damaged file this index replaced (moved aside), when opening found one.
    pub moved_aside: Option<MovedAside>,
}

impl LibraryIndex {
    /// Opens the index of `root` kept in `db` (made if missing; rebuilt if an older studio
    /// made it). A damaged file (not a database, truncated) is moved aside and a new index
    /// started, which the next `update` fills from the replays (`moved_aside` says so).
    pub fn open(db: &Path, root: &Path) -> Result<LibraryIndex, LibraryError> {
        if !root.is_dir() {
            return Err(LibraryError::NotAFolder { path: root.to_path_buf() });
        }
        let io_error = |source| LibraryError::Io { path: db.to_path_buf(), source };
        let ((conn, schema), moved_aside) =
            crate::sqlite_file::open_replacing_damaged(db, schema::open, LibraryError::damage, io_error)?;
        Ok(LibraryIndex { conn, db: db.to_path_buf(), root: root.to_path_buf(), schema, moved_aside })
    }

    /// The one line that says a damaged index was moved aside and is rebuilt, if it was.
    pub fn moved_aside_message(&self) -> Option<String> {
        self.moved_aside.as_ref().map(|m| {
            format!(
                "the library index {} was damaged ({}): moved aside to {}; rebuilding it from the replays",
                m.from.display(),
                m.why,
                m.to.display()
            )
        })
    }

    /// Where the index of `root` lives by default: in the studio's data folder, named after
    /// the folder and a hash of its full path, so the replay folder itself is left untouched.
    pub fn default_db_path(data_dir: &Path, root: &Path) -> PathBuf {
        let full = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let name: String = full
            .file_name()
            .map(|n| n.to_string_lossy().chars().map(|c| if c.is_alphanumeric() { c } else { '-' }).collect())
            .unwrap_or_else(|| "root".into());
        let hash = crc32fast::hash(full.to_string_lossy().as_bytes());
        data_dir.join("library").join(format!("{name}-{hash:08x}.sqlite"))
    }

    pub fn db_path(&self) -> &Path {
        &self.db
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Brings the index in step with the folder. `progress(done, to_read)` after each file
    /// read; `cancel` stops after the batch being written.
    pub fn update(
        &mut self,
        progress: &(dyn Fn(usize, usize) + Sync),
        cancel: &AtomicBool,
    ) -> Result<UpdateReport, LibraryError> {
        let on_disk = self.files_on_disk()?;
        let known = store::known_files(&self.conn, &self.db)?;
        let mut report = UpdateReport { files: on_disk.len(), ..UpdateReport::default() };
        let gone: Vec<i64> = known.iter().filter(|(path, _)| !on_disk.contains_key(*path)).map(|(_, k)| k.id).collect();
        report.removed = gone.len();
        store::remove_files(&mut self.conn, &self.db, &gone)?;
        let to_read: Vec<(&String, &Stamp)> =
            on_disk.iter().filter(|(path, stamp)| known.get(*path).is_none_or(|k| k.stamp != **stamp)).collect();
        let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
        let mut done = 0;
        for batch in to_read.chunks(BATCH) {
            if cancel.load(std::sync::atomic::Ordering::Relaxed) {
                report.cancelled = true;
                break;
            }
            let (base, total) = (done, to_read.len());
            let reads = parallel_map(batch.len(), jobs, cancel, &|d, _| progress(base + d, total), |k, _: &mut ()| {
                let (path, stamp) = batch[k];
                let indexed = known.get(path).map(|k| (k.stamp.size, k.crc32));
                read_file(&self.root, path, *stamp, indexed)
            });
            done += batch.len();
            let reads: Vec<FileRead> = reads.into_iter().flatten().collect();
            report.cancelled |= reads.len() < batch.len();
            store::write_batch(&mut self.conn, &self.db, &known, &reads, &mut report)?;
        }
        progress(to_read.len(), to_read.len());
        Ok(report)
    }

    /// Every replay file under the root: its path relative to the root (with `/`), and stamp.
    fn files_on_disk(&self) -> Result<HashMap<String, Stamp>, LibraryError> {
        let mut out = HashMap::new();
        for file in crate::verify::collect_replays(std::slice::from_ref(&self.root)) {
            let meta = std::fs::metadata(&file).map_err(|source| LibraryError::Io { path: file.clone(), source })?;
            out.insert(relative_name(&self.root, &file), Stamp::of(&meta));
        }
        Ok(out)
    }
}

/// `file`'s path under `root`, with `/` between the parts whatever the platform: the name the
/// index keeps, the same on every machine the folder is copied to.
pub(super) fn relative_name(root: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(root).unwrap_or(file);
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// Reads one file: its CRC, and its game or the reason it has none; a file with the size and
/// CRC it was `indexed` with is not parsed again.
fn read_file(root: &Path, rel: &str, stamp: Stamp, indexed: Option<(i64, u32)>) -> FileRead {
    let path = root.join(rel);
    let (crc32, game) = match std::fs::read(&path) {
        Err(e) => (0, Some(Err(format!("{}: {e}", path.display())))),
        Ok(bytes) => {
            let crc = crc32fast::hash(&bytes);
            let game = (indexed != Some((stamp.size, crc))).then(|| {
                crate::replay::read_replay_bytes_with(&path, &bytes, crate::replay::Detail::Summary)
                    .map(|replay| GameRecord::of_replay(&replay))
                    .map_err(|e| e.to_string())
            });
            (crc, game)
        }
    };
    FileRead { path: rel.to_string(), stamp, crc32, game }
}
