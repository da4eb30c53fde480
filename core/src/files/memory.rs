//! Files kept in memory, by path: the file system of the browser build, where a page has no
//! disk. The page puts in what the user gives it (a dropped or picked replay, a fetched
//! link, the layouts kept in its storage); the studio's writes land here too and are handed
//! to a hook (the page keeps them in its storage, or offers them as a download).
//!
//! Compiled everywhere (its tests run on the desktop); only the browser build reads from it.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// Called after each write with the file's path and bytes.
pub type WriteHook = Box<dyn Fn(&Path, &[u8]) + Send>;

static FILES: Mutex<BTreeMap<PathBuf, Arc<[u8]>>> = Mutex::new(BTreeMap::new());
static HOOK: Mutex<Option<WriteHook>> = Mutex::new(None);

/// The files, even after a panic elsewhere held the lock (the map itself stays whole).
fn files() -> MutexGuard<'static, BTreeMap<PathBuf, Arc<[u8]>>> {
    FILES.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Adds (or replaces) a file the user gave, without telling the write hook.
pub fn put(path: &Path, bytes: impl Into<Arc<[u8]>>) {
    files().insert(path.to_path_buf(), bytes.into());
}

/// Replaces a file as the studio writes it, then tells the hook.
pub fn write(path: &Path, bytes: &[u8]) {
    put(path, bytes);
    let hook = HOOK.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(hook) = hook.as_ref() {
        hook(path, bytes);
    }
}

/// Sets what is told of every write (replacing the hook set before).
pub fn set_write_hook(hook: WriteHook) {
    *HOOK.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(hook);
}

/// Removes a file; true if it was there.
pub fn remove(path: &Path) -> bool {
    files().remove(path).is_some()
}

/// A file's bytes (shared, not copied).
pub fn read(path: &Path) -> io::Result<Arc<[u8]>> {
    files().get(path).cloned().ok_or_else(|| {
        io::Error::new(io::ErrorKind::NotFound, format!("{}: no such file in this page", path.display()))
    })
}

/// Whether a file lies under `path`.
pub fn is_dir(path: &Path) -> bool {
    files().range(path.to_path_buf()..).take_while(|(p, _)| p.starts_with(path)).any(|(p, _)| p != path)
}

/// The files and folders directly under `dir`.
pub fn list_dir(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = Vec::new();
    for (p, _) in files().range(dir.to_path_buf()..).take_while(|(p, _)| p.starts_with(dir)) {
        let Ok(rest) = p.strip_prefix(dir) else { continue };
        if let Some(first) = rest.components().next() {
            let child = dir.join(first);
            if out.last() != Some(&child) {
                out.push(child);
            }
        }
    }
    if out.is_empty() {
        return Err(io::Error::new(io::ErrorKind::NotFound, format!("{}: no such folder in this page", dir.display())));
    }
    Ok(out)
}

/// Every file, by path, with its size in bytes.
pub fn list_all() -> Vec<(PathBuf, usize)> {
    files().iter().map(|(p, b)| (p.clone(), b.len())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_put_read_listed_and_written_through_the_hook() {
        let root = Path::new("/memory-test");
        put(&root.join("replays/a.replay"), b"A".to_vec());
        put(&root.join("replays/deep/b.replay"), b"B".to_vec());
        assert_eq!(&*read(&root.join("replays/a.replay")).expect("read"), b"A");
        assert!(read(&root.join("replays/none.replay")).is_err());
        assert!(is_dir(&root.join("replays")) && is_dir(&root.join("replays/deep")));
        assert!(!is_dir(&root.join("replays/a.replay")) && !is_dir(&root.join("other")));
        let listed = list_dir(&root.join("replays")).expect("listed");
        assert_eq!(listed, vec![root.join("replays/a.replay"), root.join("replays/deep")]);
        assert!(list_dir(&root.join("none")).is_err());

        let seen = Arc::new(Mutex::new(Vec::new()));
        let into = Arc::clone(&seen);
        set_write_hook(Box::new(move |p, b| into.lock().expect("lock").push((p.to_path_buf(), b.len()))));
        write(&root.join("layouts/x.json"), b"{}");
        assert_eq!(*seen.lock().expect("lock"), vec![(root.join("layouts/x.json"), 2)]);
        assert!(remove(&root.join("layouts/x.json")) && !remove(&root.join("layouts/x.json")));
    }
}
