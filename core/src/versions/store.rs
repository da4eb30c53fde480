//! Saved versions of an algo: immutable, runnable copies of its folder, each named by the
//! hash of its content, kept in the studio's data folder (never in the algo's own folder).
//!
//! Layout under the store's root: one folder per algo (its folder name and a hash of its full
//! path), holding `versions.json` (the list, oldest first) and one folder per version named by
//! the first 16 hex digits of its hash.

use super::error::VersionsError;
use crate::files::write_atomic;
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Folders a saved copy leaves out: caches, version control, build output, recorded games.
const SKIPPED_FOLDERS: [&str; 4] = ["__pycache__", ".git", "target", "replays"];
/// File name endings a saved copy leaves out: compiled Python, logs, replays.
const SKIPPED_ENDINGS: [&str; 4] = [".pyc", ".log", ".replay", ".replay.gz"];
/// The list of an algo's versions, in its folder of the store.
const LIST_FILE: &str = "versions.json";
/// Hex digits of the hash that name a version's folder and that a user types.
pub const SHORT_HASH: usize = 16;

/// One saved version of an algo.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Version {
    /// BLAKE3 of the files kept (names, executable bits, contents), 64 hex digits.
    pub hash: String,
    pub label: Option<String>,
    /// Unix time (ms) it was saved.
    pub saved_at_ms: u64,
    pub files: usize,
    pub bytes: u64,
    /// The runnable copy.
    pub path: PathBuf,
}

impl Version {
    pub fn short(&self) -> &str {
        &self.hash[..SHORT_HASH.min(self.hash.len())]
    }

    /// `label (hash)` or the hash alone, for messages.
    pub fn name(&self) -> String {
        match &self.label {
            Some(l) => format!("{l} ({})", self.short()),
            None => self.short().to_string(),
        }
    }

    /// The date saved, UTC, as `YYYY-MM-DD HH:MM`.
    pub fn saved_at_text(&self) -> String {
        utc_text(self.saved_at_ms)
    }
}

/// What saving a folder did.
#[derive(Debug, Clone, PartialEq)]
pub struct Saved {
    pub version: Version,
    /// False when a version with this content was already saved: nothing was written.
    pub created: bool,
}

/// The content of a folder as a version would keep it.
#[derive(Debug, Clone, PartialEq)]
pub struct FolderContent {
    pub hash: String,
    /// Paths relative to the folder, `/`-separated, sorted.
    pub files: Vec<String>,
    pub bytes: u64,
}

/// Where versions are kept.
#[derive(Debug, Clone)]
pub struct VersionStore {
    root: PathBuf,
}

impl VersionStore {
    /// The store in the studio's data folder.
    pub fn in_data_dir(data_dir: &Path) -> VersionStore {
        VersionStore { root: data_dir.join("versions") }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The algo's folder in the store: its folder name and a hash of its full path.
    pub fn algo_dir(&self, algo: &Path) -> PathBuf {
        let full = std::fs::canonicalize(algo).unwrap_or_else(|_| algo.to_path_buf());
        let name: String = full
            .file_name()
            .map(|n| {
                n.to_string_lossy().chars().map(|c| if c.is_alphanumeric() || c == '-' { c } else { '_' }).collect()
            })
            .unwrap_or_else(|| "algo".into());
        let path_hash = blake3::hash(full.to_string_lossy().as_bytes()).to_hex();
        self.root.join("algos").join(format!("{name}-{}", &path_hash[..8]))
    }

    /// The saved versions of `algo`, oldest first (none saved: empty).
    pub fn list(&self, algo: &Path) -> Result<Vec<Version>, VersionsError> {
        let file = self.algo_dir(algo).join(LIST_FILE);
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => return Err(VersionsError::Io { path: file, source }),
        };
        serde_json::from_str(&text).map_err(|e| VersionsError::List {
            path: file,
            line: e.line(),
            message: e.to_string(),
        })
    }

    /// Saves `algo` as a version unless one with the same content is already saved (then it
    /// is returned as it was, label and date unchanged). The copy is made in a temporary
    /// folder and renamed into place, so a version folder is never half written.
    pub fn save(&self, algo: &Path, label: Option<&str>) -> Result<Saved, VersionsError> {
        if !algo.is_dir() {
            return Err(VersionsError::NotAFolder(algo.to_path_buf()));
        }
        let content = folder_content(algo)?;
        let mut list = self.list(algo)?;
        if let Some(v) = list.iter().find(|v| v.hash == content.hash) {
            return Ok(Saved { version: v.clone(), created: false });
        }
        let dir = self.algo_dir(algo);
        let target = dir.join(&content.hash[..SHORT_HASH]);
        if !target.is_dir() {
            copy_folder(algo, &content.files, &dir, &target)?;
        }
        let version = Version {
            hash: content.hash,
            label: label.map(str::to_string).filter(|l| !l.trim().is_empty()),
            saved_at_ms: now_ms(),
            files: content.files.len(),
            bytes: content.bytes,
            path: target,
        };
        list.push(version.clone());
        let file = dir.join(LIST_FILE);
        let text = serde_json::to_string_pretty(&list).map_err(|e| VersionsError::List {
            path: file.clone(),
            line: 0,
            message: e.to_string(),
        })?;
        write_atomic(&file, text.as_bytes()).map_err(VersionsError::io(&file))?;
        Ok(Saved { version, created: true })
    }

    /// The saved version of `algo` a user names: a label, or the start of a hash (at least 4
    /// hex digits, naming one version only).
    pub fn find(&self, algo: &Path, name: &str) -> Result<Version, VersionsError> {
        let list = self.list(algo)?;
        if let Some(v) = list.iter().rev().find(|v| v.label.as_deref() == Some(name)) {
            return Ok(v.clone());
        }
        let prefix = name.to_ascii_lowercase();
        let matching: Vec<&Version> = if prefix.len() >= 4 && prefix.chars().all(|c| c.is_ascii_hexdigit()) {
            list.iter().filter(|v| v.hash.starts_with(&prefix)).collect()
        } else {
            Vec::new()
        };
        match matching[..] {
            [one] => Ok(one.clone()),
            [] => Err(VersionsError::NoSuchVersion { algo: algo.to_path_buf(), name: name.to_string() }),
            _ => Err(VersionsError::AmbiguousVersion { name: name.to_string(), count: matching.len() }),
        }
    }
}

/// Whether a saved copy leaves this file or folder out (by its name).
pub fn is_skipped(name: &str, is_dir: bool) -> bool {
    if is_dir { SKIPPED_FOLDERS.contains(&name) } else { SKIPPED_ENDINGS.iter().any(|e| name.ends_with(e)) }
}

/// The files of `folder` a version keeps (symbolic links followed), sorted by path.
pub(crate) fn kept_files(folder: &Path) -> Result<Vec<(String, PathBuf)>, VersionsError> {
    let mut files = Vec::new();
    let walk = walkdir::WalkDir::new(folder).follow_links(true).sort_by_file_name().into_iter();
    let entries =
        walk.filter_entry(|e| e.depth() == 0 || !is_skipped(&e.file_name().to_string_lossy(), e.file_type().is_dir()));
    for entry in entries {
        let entry = entry.map_err(|e| {
            let path = e.path().unwrap_or(folder).to_path_buf();
            VersionsError::Io { path, source: e.into() }
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry.path().strip_prefix(folder).unwrap_or(entry.path());
        let name = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
        files.push((name, entry.path().to_path_buf()));
    }
    files.sort();
    Ok(files)
}

/// The hash of what a version of `folder` would keep: each file's relative path, whether it
/// is executable and its bytes, in path order.
pub fn folder_content(folder: &Path) -> Result<FolderContent, VersionsError> {
    let mut hasher = blake3::Hasher::new();
    let mut names = Vec::new();
    let mut bytes = 0u64;
    let mut buf = vec![0u8; 64 * 1024];
    for (name, path) in kept_files(folder)? {
        let mut f = std::fs::File::open(&path).map_err(VersionsError::io(&path))?;
        let meta = f.metadata().map_err(VersionsError::io(&path))?;
        hasher.update(name.as_bytes());
        hasher.update(&[0, u8::from(is_executable(&meta))]);
        hasher.update(&meta.len().to_le_bytes());
        loop {
            let n = f.read(&mut buf).map_err(VersionsError::io(&path))?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
        }
        bytes += meta.len();
        names.push(name);
    }
    Ok(FolderContent { hash: hasher.finalize().to_hex().to_string(), files: names, bytes })
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &std::fs::Metadata) -> bool {
    false
}

/// Copies the kept files into a temporary folder of `dir`, makes them read-only (the folder
/// stays writable: an algo may still write its caches and logs beside them), then renames it
/// to `target`. A copy that another process finished first is kept.
fn copy_folder(algo: &Path, files: &[String], dir: &Path, target: &Path) -> Result<(), VersionsError> {
    let tmp = dir.join(format!(".saving-{}-{}", std::process::id(), now_ms()));
    let copy = || -> Result<(), VersionsError> {
        for name in files {
            let (from, to) = (algo.join(name), tmp.join(name));
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(VersionsError::io(parent))?;
            }
            std::fs::copy(&from, &to).map_err(VersionsError::io(&from))?;
            let mut perms = std::fs::metadata(&to).map_err(VersionsError::io(&to))?.permissions();
            perms.set_readonly(true);
            std::fs::set_permissions(&to, perms).map_err(VersionsError::io(&to))?;
        }
        Ok(())
    };
    let done = copy().and_then(|()| match std::fs::rename(&tmp, target) {
        Ok(()) => Ok(()),
        Err(_) if target.is_dir() => Ok(()),
        Err(source) => Err(VersionsError::Io { path: target.to_path_buf(), source }),
    });
    if tmp.exists() {
        let _ = remove_copy(&tmp);
    }
    done
}

/// Removes a folder whose files were made read-only.
fn remove_copy(dir: &Path) -> std::io::Result<()> {
    for entry in walkdir::WalkDir::new(dir).into_iter().flatten() {
        if entry.file_type().is_file() {
            let mut perms = entry.metadata()?.permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perms.set_readonly(false);
            std::fs::set_permissions(entry.path(), perms)?;
        }
    }
    std::fs::remove_dir_all(dir)
}

pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// Unix time in ms as a UTC `YYYY-MM-DD HH:MM` (the civil calendar from days since 1970).
pub fn utc_text(ms: u64) -> String {
    let secs = ms / 1000;
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let (h, m) = ((secs % 86_400) / 3600, (secs % 3600) / 60);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {h:02}:{m:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    #[test]
    fn caches_logs_and_replays_do_not_change_the_hash_and_are_not_copied() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let algo = tmp.path().join("my-algo");
        write(&algo.join("algo.py"), "print('hi')\n");
        write(&algo.join("lib/util.py"), "X = 1\n");
        let store = VersionStore::in_data_dir(&tmp.path().join("data"));
        let first = store.save(&algo, Some("first")).expect("saved");
        assert!(first.created);
        for junk in [
            "__pycache__/algo.cpython-313.pyc",
            "lib/x.pyc",
            "err.log",
            "replays/a.replay",
            "g.replay.gz",
            ".git/HEAD",
            "target/x",
        ] {
            write(&algo.join(junk), "junk");
        }
        let again = store.save(&algo, Some("second")).expect("saved");
        assert!(!again.created, "the same content is not saved twice");
        assert_eq!(again.version, first.version, "label and date unchanged");
        assert_eq!(kept_files(&first.version.path).expect("files").len(), 2);
        assert!(first.version.path.join("lib/util.py").is_file());
        assert!(!first.version.path.starts_with(&algo), "never inside the algo's folder");

        write(&algo.join("lib/util.py"), "X = 2\n");
        let changed = store.save(&algo, None).expect("saved");
        assert!(changed.created && changed.version.hash != first.version.hash);
        let list = store.list(&algo).expect("list");
        assert_eq!(list.iter().map(|v| v.label.clone()).collect::<Vec<_>>(), [Some("first".to_string()), None]);
        assert_eq!(store.find(&algo, "first").expect("by label"), first.version);
        assert_eq!(store.find(&algo, &changed.version.hash[..6]).expect("by hash"), changed.version);
        assert!(matches!(store.find(&algo, "nope"), Err(VersionsError::NoSuchVersion { .. })));
        assert!(std::fs::metadata(first.version.path.join("algo.py")).expect("meta").permissions().readonly());
    }

    #[test]
    fn dates_read_as_the_calendar_does() {
        assert_eq!(utc_text(0), "1970-01-01 00:00");
        // 2024-02-29 12:34 UTC.
        assert_eq!(utc_text(1_709_210_040_000), "2024-02-29 12:34");
    }
}
