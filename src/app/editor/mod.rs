//! The map editor: the layout being edited, its history and analysis (runtime state), and
//! the panels that show them. UI code returns [`Command`]s; [`Editor::apply_edit`] and friends
//! change the state.

pub mod canvas;
pub mod export_png;
pub mod history;
pub mod lab;
mod lab_board;
pub mod lab_compare;
pub mod lab_panel;
pub mod lab_planner;
pub mod lab_state;
pub mod panels;
mod status_bar;
pub mod view;

pub use view::{EditorPrefs, EditorView};

use super::model::{Edit, Tool};
use history::History;
use std::path::PathBuf;
use terminal_core::engine::config::Config;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::layout::analysis::Analysis;
use terminal_core::layout::files::{LayoutFileError, ReplayImport};
use terminal_core::layout::threat::{self, PathThreat};
use terminal_core::layout::{EditOutcome, Kind, Layout};

/// The editor's runtime state.
pub struct Editor {
    pub layout: Layout,
    pub history: History,
    /// The file the layout was opened from or last saved to.
    pub path: Option<PathBuf>,
    /// Unsaved changes since the last save/open.
    pub dirty: bool,
    /// Counts the layouts put in the editor (open, new, import): results computed for one
    /// layout are not shown for the next.
    pub generation: u64,
    pub tool: Tool,
    pub player: Player,
    pub config: Config,
    /// Recomputed whenever the layout or the config changes.
    pub analysis: Analysis,
    /// An open replay-import dialog.
    pub import: Option<ReplayImport>,
    /// Where the autosave goes (None: autosave off, as in some tests).
    pub autosave_path: Option<PathBuf>,
    /// The threat along the hovered edge tile's path, with that tile (`None` inside: the tile
    /// is blocked). Kept until the hovered tile or the layout changes: it runs the engine.
    threat: Option<(Tile, Option<PathThreat>)>,
}

impl Default for Editor {
    /// An empty layout under the default ruleset, autosave off.
    fn default() -> Self {
        Editor::new(crate::app::default_config(), None)
    }
}

impl Editor {
    pub fn new(config: Config, autosave_path: Option<PathBuf>) -> Editor {
        let layout = Layout::default();
        let analysis = Analysis::compute(&layout, &config);
        Editor {
            layout,
            history: History::default(),
            path: None,
            dirty: false,
            generation: 0,
            tool: Tool::Place(Kind::Wall),
            player: Player::One,
            config,
            analysis,
            import: None,
            autosave_path,
            threat: None,
        }
    }

    /// Replaces the layout (open, new, import); clears the history.
    pub fn set_layout(&mut self, layout: Layout, path: Option<PathBuf>) {
        self.layout = layout;
        self.history.clear();
        self.path = path;
        self.dirty = false;
        self.generation += 1;
        self.refresh();
    }

    pub fn set_config(&mut self, config: Config) {
        self.config = config;
        self.refresh();
    }

    /// Recomputes the analysis (coverage, shields, all 56 edge paths).
    pub fn refresh(&mut self) {
        self.analysis = Analysis::compute(&self.layout, &self.config);
        self.threat = None;
    }

    /// Brings the threat up to date with the hovered tile (nothing unless it is an edge tile).
    pub fn update_threat(&mut self, hovered: Option<Tile>) {
        let tile = hovered.filter(|t| crate::app::board::threat::is_edge_tile(*t));
        if self.threat.as_ref().map(|(t, _)| *t) == tile {
            return;
        }
        let config = std::sync::Arc::new(self.config.clone());
        self.threat = tile.map(|t| (t, threat::from_layout(&self.layout, &config, t)));
    }

    /// The threat along the path from `tile`, if it is the hovered edge tile and free.
    pub fn threat_from(&self, tile: Tile) -> Option<&PathThreat> {
        self.threat.as_ref().filter(|(t, _)| *t == tile).and_then(|(_, threat)| threat.as_ref())
    }

    /// Applies one edit for the active player. Callers wrap edits in `begin`/`end`.
    pub fn apply_edit(&mut self, edit: Edit) -> EditOutcome {
        let outcome = edit.apply_to(&mut self.layout, self.player);
        if outcome == EditOutcome::Changed {
            self.dirty = true;
            self.refresh();
        }
        outcome
    }

    pub fn begin(&mut self) {
        self.history.begin(&self.layout);
    }

    /// Ends an edit; autosaves if it changed anything. Returns an autosave error, if any.
    pub fn end(&mut self) -> Result<(), LayoutFileError> {
        if self.history.commit(&self.layout) {
            return self.autosave();
        }
        Ok(())
    }

    /// Undoes one step; `Ok(false)` when there is nothing to undo. An error is the autosave's
    /// (the undo itself is done).
    pub fn undo(&mut self) -> Result<bool, LayoutFileError> {
        let done = self.history.undo(&mut self.layout);
        self.after_history_step(done)
    }

    /// Redoes one step, as [`Editor::undo`].
    pub fn redo(&mut self) -> Result<bool, LayoutFileError> {
        let done = self.history.redo(&mut self.layout);
        self.after_history_step(done)
    }

    fn after_history_step(&mut self, done: bool) -> Result<bool, LayoutFileError> {
        if done {
            self.dirty = true;
            self.refresh();
            self.autosave()?;
        }
        Ok(done)
    }

    pub fn autosave(&self) -> Result<(), LayoutFileError> {
        match &self.autosave_path {
            Some(p) => terminal_core::layout::files::save_layout(p, &self.layout),
            None => Ok(()),
        }
    }

    /// The window title: file name and an unsaved-changes mark.
    pub fn title(&self) -> String {
        let name = self
            .path
            .as_ref()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "untitled".into());
        format!("{}{name} — Terminal Studio", if self.dirty { "● " } else { "" })
    }
}
