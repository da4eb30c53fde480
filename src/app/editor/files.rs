//! Layout files on disk: atomic save (temp file + rename), load, autosave, replay import.

use super::layout::Layout;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically: a temp file in the same folder, flushed, then renamed
/// over the target, so a crash never leaves a half-written file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "layout".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: {e}", path.display())
    })
}

pub fn save_layout(path: &Path, layout: &Layout) -> Result<(), String> {
    write_atomic(path, layout.to_json().as_bytes())
}

pub fn load_layout(path: &Path) -> Result<Layout, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Layout::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Where the autosave lives: the app's data folder, or the temp folder as a fallback.
pub fn autosave_path() -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("terminal-studio").join("autosave.layout.json")
}

/// Writes the autosave (creating its folder).
pub fn autosave(path: &Path, layout: &Layout) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    save_layout(path, layout)
}

/// A replay opened for import: its turns and the frame index that starts each.
pub struct ReplayImport {
    pub replay: crate::replay::Replay,
    pub turn_starts: Vec<usize>,
    pub chosen_turn: usize,
}

impl ReplayImport {
    pub fn open(path: &Path) -> Result<ReplayImport, String> {
        let replay = crate::replay::read_replay(path).map_err(|e| e.to_string())?;
        let mut turn_starts = replay.turn_starts();
        if turn_starts.is_empty() && !replay.frames.is_empty() {
            turn_starts.push(0);
        }
        if turn_starts.is_empty() {
            return Err(format!("{}: the replay has no frames", path.display()));
        }
        Ok(ReplayImport { replay, turn_starts, chosen_turn: 0 })
    }

    /// The layout standing at the start of turn number `i` (index into `turn_starts`).
    pub fn layout_at(&self, i: usize) -> Option<Layout> {
        let frame = self.replay.frames.get(*self.turn_starts.get(i)?)?;
        let name = format!("{} turn {}", self.replay.file_name(), frame.turn_info.turn);
        Some(Layout::from_frame(frame, &self.replay.config, name))
    }
}

#[cfg(test)]
mod tests {
    use super::super::layout::Kind;
    use super::*;
    use crate::engine::geometry::{Player, Tile};

    #[test]
    fn atomic_save_and_load() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("a.json");
        let mut l = Layout::default();
        l.place(Player::One, Tile::new(13, 0), Kind::Wall);
        save_layout(&path, &l).expect("save");
        assert_eq!(load_layout(&path).expect("load"), l);
        // No temp file left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path()).expect("read dir").filter_map(|e| e.ok()).collect();
        assert_eq!(names.len(), 1);
        assert!(load_layout(&dir.path().join("missing.json")).is_err());
    }
}
