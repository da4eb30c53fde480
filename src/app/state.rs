//! What the studio keeps between runs (eframe persistence). The views are part of it: each
//! view serialises the part of itself that is kept (its prefs or form) and nothing else, so
//! the kept state *is* the views' state — nothing is copied in or out. Runtime resources
//! (textures, sessions, running matches) live in the views' runtime fields, never kept.
//! Each view sits behind a box: inline they made the state 74 KB, and deserialising it took
//! 1.5 MiB of a debug build's stack (a test thread has 2 MiB, a Windows main thread 1 MiB).

use super::arena::ArenaTab;
use super::editor::EditorView;
#[cfg(not(target_arch = "wasm32"))]
use super::library::LibraryView;
use super::model::{Theme, View};
use super::play::PlayView;
#[cfg(not(target_arch = "wasm32"))]
use super::versions::VersionsView;
use super::viewer::Viewer;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The storage key of the state.
pub const KEY: &str = "terminal-studio-settings";
/// Most recent files remembered.
pub const MAX_RECENT: usize = 10;

#[derive(Serialize, Deserialize)]
#[serde(default)]
pub struct State {
    pub theme: Theme,
    pub recent_files: Vec<PathBuf>,
    /// A preset slug or a path to a `game-configs.json`.
    pub ruleset: String,
    /// The view shown (the studio reopens where it was left).
    pub view: View,
    pub editor: Box<EditorView>,
    /// The Debugger and Replays views.
    pub viewer: Box<Viewer>,
    pub arena: Box<ArenaTab>,
    /// The replay library: its folder, "me" and filter are kept; the games are read again.
    #[cfg(not(target_arch = "wasm32"))]
    pub library: Box<LibraryView>,
    /// The Versions view: the algo, its opponents and the verdicts are kept.
    #[cfg(not(target_arch = "wasm32"))]
    pub versions: Box<VersionsView>,
    /// Live matches are not kept.
    #[serde(skip)]
    pub play: Box<PlayView>,
}

impl Default for State {
    fn default() -> Self {
        State {
            theme: Theme::default(),
            recent_files: Vec::new(),
            ruleset: terminal_core::engine::presets::DEFAULT_PRESET.to_string(),
            view: View::default(),
            editor: Box::default(),
            viewer: Box::default(),
            arena: Box::default(),
            #[cfg(not(target_arch = "wasm32"))]
            library: Box::default(),
            #[cfg(not(target_arch = "wasm32"))]
            versions: Box::default(),
            play: Box::default(),
        }
    }
}

impl State {
    /// Moves `path` to the front of the recent files.
    pub fn remember(&mut self, path: &std::path::Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.recent_files.retain(|p| p != &path);
        self.recent_files.insert(0, path);
        self.recent_files.truncate(MAX_RECENT);
    }

    /// The state kept as JSON (what eframe writes at exit).
    pub fn to_json(&self) -> serde_json::Result<String> {
        serde_json::to_string(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_are_unique_and_bounded() {
        let mut s = State::default();
        for i in 0..15 {
            s.remember(std::path::Path::new(&format!("/nonexistent/{i}.json")));
        }
        s.remember(std::path::Path::new("/nonexistent/3.json"));
        assert_eq!(s.recent_files.len(), MAX_RECENT);
        assert_eq!(s.recent_files[0], std::path::PathBuf::from("/nonexistent/3.json"));
        let json = s.to_json().expect("serializes");
        let back: State = serde_json::from_str(&json).expect("parses");
        assert_eq!(back.recent_files, s.recent_files);
        assert_eq!(back.to_json().expect("serializes"), json, "kept as it was read");
        // Old or partial settings fall back to defaults field by field.
        let partial: State = serde_json::from_str(r#"{"theme":"Light"}"#).expect("parses");
        assert_eq!(partial.theme, Theme::Light);
        assert_eq!(partial.ruleset, "base-s6");
    }
}
