//! Layout files on disk: atomic save, load, and layouts taken from a replay's turns.

use super::{Layout, LayoutError};
use crate::files::write_atomic;
use crate::replay::{Replay, ReplayError, read_replay};
use std::path::{Path, PathBuf};

/// Why a layout file could not be read or written; every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum LayoutFileError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: {source}", path.display())]
    Invalid { path: PathBuf, source: LayoutError },
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("{}: the replay has no frames", .0.display())]
    EmptyReplay(PathBuf),
}

pub fn save_layout(path: &Path, layout: &Layout) -> Result<(), LayoutFileError> {
    let text = layout.to_json().map_err(|source| LayoutFileError::Invalid { path: path.to_path_buf(), source })?;
    write_atomic(path, text.as_bytes()).map_err(|source| LayoutFileError::Io { path: path.to_path_buf(), source })
}

pub fn load_layout(path: &Path) -> Result<Layout, LayoutFileError> {
    let text = crate::files::read_to_string(path)
        .map_err(|source| LayoutFileError::Io { path: path.to_path_buf(), source })?;
    Layout::from_json(&text).map_err(|source| LayoutFileError::Invalid { path: path.to_path_buf(), source })
}

/// A replay opened for import: its turns and the frame index that starts each.
pub struct ReplayImport {
    pub replay: Replay,
    pub turn_starts: Vec<usize>,
    pub chosen_turn: usize,
}

impl ReplayImport {
    pub fn open(path: &Path) -> Result<ReplayImport, LayoutFileError> {
        let replay = read_replay(path)?;
        let mut turn_starts = replay.turn_starts();
        if turn_starts.is_empty() && !replay.frames.is_empty() {
            turn_starts.push(0);
        }
        if turn_starts.is_empty() {
            return Err(LayoutFileError::EmptyReplay(path.to_path_buf()));
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
    use super::super::Kind;
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
        let names: Vec<_> = std::fs::read_dir(dir.path()).expect("read dir").filter_map(|e| e.ok()).collect();
        assert_eq!(names.len(), 1, "no temp file left behind");
        let missing = dir.path().join("missing.json");
        assert!(matches!(load_layout(&missing), Err(LayoutFileError::Io { path, .. }) if path == missing));
        std::fs::write(&path, "{").expect("write");
        let err = load_layout(&path).expect_err("truncated JSON");
        assert!(matches!(err, LayoutFileError::Invalid { source: LayoutError::NotALayout(_), .. }));
        assert!(err.to_string().starts_with(&path.display().to_string()), "{err}");
    }
}
