//! File helpers every part shares: reading and atomic writes, recognising replay files by
//! name. Every file the core reads or writes on the user's word goes through here, so that
//! where there is no file system (the browser) the files live in memory
//! ([`memory`]) and everything that names a file by its path works unchanged.

pub mod memory;

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Whether files live in memory ([`memory`]) rather than on disk: in the browser.
pub const IN_MEMORY: bool = cfg!(target_arch = "wasm32");

/// A whole file's bytes.
pub fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    if IN_MEMORY {
        return memory::read(path).map(|b| b.to_vec());
    }
    std::fs::read(path)
}

/// A whole text file.
pub fn read_to_string(path: &Path) -> std::io::Result<String> {
    if IN_MEMORY {
        let bytes = memory::read(path)?;
        return String::from_utf8(bytes.to_vec())
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()));
    }
    std::fs::read_to_string(path)
}

/// A file to read as a stream (in memory: its bytes, shared).
pub fn open_read(path: &Path) -> std::io::Result<Box<dyn std::io::Read + Send>> {
    if IN_MEMORY {
        return Ok(Box::new(std::io::Cursor::new(memory::read(path)?)));
    }
    Ok(Box::new(File::open(path)?))
}

/// Whether a file is there.
pub fn is_file(path: &Path) -> bool {
    if IN_MEMORY { memory::read(path).is_ok() } else { path.is_file() }
}

/// Whether a folder is there (in memory: a folder holds at least one file).
pub fn is_dir(path: &Path) -> bool {
    if IN_MEMORY { memory::is_dir(path) } else { path.is_dir() }
}

/// What a folder holds, files and folders, in no particular order.
pub fn list_dir(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if IN_MEMORY {
        return memory::list_dir(path);
    }
    std::fs::read_dir(path)?.map(|e| e.map(|e| e.path())).collect()
}

/// Writes a whole file atomically: a temporary file beside it, fsynced, renamed over the
/// target, then the folder fsynced, so a crash leaves either the old file or the new one,
/// never half of one. Creates the folder if needed. In memory, the file is replaced whole
/// and the write hook told ([`memory::set_write_hook`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if IN_MEMORY {
        memory::write(path, bytes);
        return Ok(());
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "file".into());
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        // Directories cannot be opened for syncing on every platform; the rename stands anyway.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    };
    write().inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Moves a damaged file aside, to `<name>.damaged-<unix seconds>` beside it (a number added
/// if that is taken), so a fresh one can take its place and the old one is kept for a look.
pub fn move_aside(path: &Path) -> std::io::Result<PathBuf> {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let name = path.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let mut to = path.with_file_name(format!("{name}.damaged-{secs}"));
    let mut k = 1;
    while to.exists() {
        to = path.with_file_name(format!("{name}.damaged-{secs}-{k}"));
        k += 1;
    }
    std::fs::rename(path, &to)?;
    Ok(to)
}

/// Whether a path names a replay file (`.replay`, or gzipped `.replay.gz`), by its name only.
pub fn is_replay(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
    name.ends_with(".replay") || name.ends_with(".replay.gz")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_the_file_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("sub").join("a.txt");
        write_atomic(&path, b"one").expect("first write");
        write_atomic(&path, b"two").expect("second write");
        assert_eq!(std::fs::read(&path).expect("read"), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.path().join("sub")).expect("read dir").collect();
        assert_eq!(names.len(), 1, "only the target remains");
    }

    #[test]
    fn a_failed_write_names_the_problem_and_keeps_the_old_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        // A folder where the file should be: the rename fails.
        let path = dir.path().join("taken");
        std::fs::create_dir_all(path.join("inner")).expect("mkdir");
        assert!(write_atomic(&path, b"x").is_err());
        assert!(path.join("inner").is_dir());
        assert_eq!(std::fs::read_dir(dir.path()).expect("read dir").count(), 1, "temp file removed");
    }

    #[test]
    fn replay_names() {
        assert!(is_replay(Path::new("a/b/X.replay")));
        assert!(is_replay(Path::new("X.REPLAY.GZ")));
        assert!(!is_replay(Path::new("replay.gz/x.json")));
        assert!(!is_replay(Path::new("x.replay.json")));
    }
}
