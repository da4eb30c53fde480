//! Settings persisted between runs (eframe persistence): theme, recent files, ruleset,
//! overlay toggles, board view, the view shown and each view's own choices. Runtime resources (textures, the open layout, caches) live
//! elsewhere and are never persisted.

use super::arena::ArenaForm;
use super::board::BoardView;
use super::top_bar::View;
use super::viewer::ViewerPrefs;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The storage key of the settings.
pub const KEY: &str = "terminal-studio-settings";
/// Most recent files remembered.
pub const MAX_RECENT: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Theme {
    Dark,
    Light,
}

impl Theme {
    pub fn is_dark(self) -> bool {
        self == Theme::Dark
    }

    pub fn toggled(self) -> Theme {
        match self {
            Theme::Dark => Theme::Light,
            Theme::Light => Theme::Dark,
        }
    }
}

/// Which overlays the board shows.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Overlays {
    /// Turret coverage heat map (how many turrets reach each tile).
    pub coverage: bool,
    /// Support shield ranges and the shield a unit would get.
    pub shields: bool,
    /// The path from the hovered edge tile.
    pub hover_path: bool,
    /// Paths from every edge tile.
    pub all_paths: bool,
    /// Both players' coverage and shields instead of the active player's only.
    pub both_players: bool,
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays { coverage: true, shields: false, hover_path: true, all_paths: false, both_players: false }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub theme: Theme,
    pub recent_files: Vec<PathBuf>,
    /// A preset slug or a path to a `game-configs.json`.
    pub ruleset: String,
    pub overlays: Overlays,
    pub board_view: BoardView,
    /// Keep a replay's result hidden until its last turn is shown (watch it unspoiled).
    pub hide_winner: bool,
    /// The view shown (the studio reopens where it was left).
    pub view: View,
    pub viewer: ViewerPrefs,
    pub arena: ArenaForm,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            theme: Theme::Dark,
            recent_files: Vec::new(),
            ruleset: terminal_core::engine::presets::DEFAULT_PRESET.to_string(),
            overlays: Overlays::default(),
            board_view: BoardView::default(),
            hide_winner: false,
            view: View::Editor,
            viewer: ViewerPrefs::default(),
            arena: ArenaForm::default(),
        }
    }
}

impl Settings {
    /// Moves `path` to the front of the recent files.
    pub fn remember(&mut self, path: &std::path::Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.recent_files.retain(|p| p != &path);
        self.recent_files.insert(0, path);
        self.recent_files.truncate(MAX_RECENT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_are_unique_and_bounded() {
        let mut s = Settings::default();
        for i in 0..15 {
            s.remember(std::path::Path::new(&format!("/nonexistent/{i}.json")));
        }
        s.remember(std::path::Path::new("/nonexistent/3.json"));
        assert_eq!(s.recent_files.len(), MAX_RECENT);
        assert_eq!(s.recent_files[0], std::path::PathBuf::from("/nonexistent/3.json"));
        let json = serde_json::to_string(&s).expect("serializes");
        let back: Settings = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, s);
        // Old or partial settings fall back to defaults field by field.
        let partial: Settings = serde_json::from_str(r#"{"theme":"Light"}"#).expect("parses");
        assert_eq!(partial.theme, Theme::Light);
        assert_eq!(partial.ruleset, "base-s6");
    }
}
