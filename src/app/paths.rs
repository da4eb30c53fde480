//! Where the studio keeps its own files (the editor's autosave, the arena's and Play's
//! output), and how paths are offered and named in messages.

use std::path::{Path, PathBuf};

/// The name eframe stores the settings under; the data folder is named after it too.
pub const APP_ID: &str = "terminal-studio";

/// Names another data folder: tests use a temporary one, and a player may keep the studio's
/// files (library indexes, saved versions, their games) on another disk.
pub const DATA_DIR_VAR: &str = "TERMINAL_STUDIO_DATA_DIR";

/// The studio's data folder: [`DATA_DIR_VAR`] when set, else on Linux
/// `~/.local/share/terminal-studio`, on Windows under `%APPDATA%`, on macOS under
/// `Application Support`, or one in the temp folder when the platform has none; in the
/// browser, `/browser/data` among the page's files.
pub fn data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(DATA_DIR_VAR).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    #[cfg(not(target_arch = "wasm32"))]
    return eframe::storage_dir(APP_ID).unwrap_or_else(|| std::env::temp_dir().join(APP_ID));
    #[cfg(target_arch = "wasm32")]
    return Path::new(BROWSER_ROOT).join("data");
}

/// In the browser, where the page's files live (in memory: `terminal_core::files::memory`).
pub const BROWSER_ROOT: &str = "/browser";

/// In the browser, where the replays the user gives the page go (dropped, picked, linked):
/// the Layout lab's folder there.
pub fn browser_replays_dir() -> PathBuf {
    Path::new(BROWSER_ROOT).join("replays")
}

/// Where the editor's autosave lives.
pub fn autosave_path() -> PathBuf {
    data_dir().join("autosave.layout.json")
}

/// Where Play writes its matches' replays.
pub fn matches_dir() -> PathBuf {
    data_dir().join("matches")
}

/// Where the matches opened from the website by id or watch link are kept (`view`).
pub fn site_matches_dir() -> PathBuf {
    data_dir().join("site-matches")
}

/// Where an arena writes when no output folder is given.
pub fn arena_dir() -> PathBuf {
    data_dir().join("arena")
}

/// `layouts/` when run from a folder that has one, else the working folder.
pub fn layouts_dir() -> PathBuf {
    if cfg!(target_arch = "wasm32") {
        return Path::new(BROWSER_ROOT).join("layouts");
    }
    let here = PathBuf::from("layouts");
    if here.is_dir() { here } else { std::env::current_dir().unwrap_or_default() }
}

/// A file's name for messages (the full path is in the recent-files menu).
pub fn display_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| path.display().to_string())
}
