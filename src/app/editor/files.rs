//! Where the studio keeps its own files: the editor's autosave and the arena's default output.

use std::path::PathBuf;
use terminal_core::layout::Layout;
use terminal_core::layout::files::{LayoutFileError, save_layout};

/// The name eframe stores the settings under; the data folder is named after it too.
pub const APP_ID: &str = "terminal-studio";

/// The studio's data folder (on Linux `~/.local/share/terminal-studio`, on Windows under
/// `%APPDATA%`, on macOS under `Application Support`), or one in the temp folder when the
/// platform has none.
pub fn data_dir() -> PathBuf {
    eframe::storage_dir(APP_ID).unwrap_or_else(|| std::env::temp_dir().join(APP_ID))
}

/// Where the editor's autosave lives.
pub fn autosave_path() -> PathBuf {
    data_dir().join("autosave.layout.json")
}

/// Writes the autosave (creating its folder).
pub fn autosave(path: &std::path::Path, layout: &Layout) -> Result<(), LayoutFileError> {
    save_layout(path, layout)
}
