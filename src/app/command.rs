//! Everything the UI can ask for. Panels return commands; the app applies them after the
//! frame's UI is built, so no panel mutates state another panel is still reading.

use super::settings::Theme;
use std::path::PathBuf;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::layout::Kind;

/// The editor's current tool (what a left click on the board does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Place(Kind),
    Upgrade,
    /// Toggle the marked-for-removal flag.
    Remove,
    Erase,
}

/// Why the upgrade tool does nothing under a 2018–2019 ruleset.
pub const NO_UPGRADES: &str = "The 2018–2019 rules have no upgrades";

impl Tool {
    pub fn label(self) -> &'static str {
        self.label_for(false)
    }

    /// The label in a ruleset's era (`Kind::label_for`).
    pub fn label_for(self, legacy: bool) -> &'static str {
        match self {
            Tool::Place(k) => k.label_for(legacy),
            Tool::Upgrade => "Upgrade",
            Tool::Remove => "Mark removal",
            Tool::Erase => "Erase",
        }
    }
}

/// One edit of the layout, by the active player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Edit {
    Place(Tile, Kind),
    Upgrade(Tile),
    ToggleRemove(Tile),
    SetRemove(Tile, bool),
    Erase(Tile),
    MirrorX,
    CopyToOpponent,
    Clear,
}

#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Start a stroke: the edits until `EndStroke` form one undo step.
    BeginStroke,
    Edit(Edit),
    EndStroke,
    Undo,
    Redo,
    /// Rename the layout (an edit: wrap in BeginStroke/EndStroke like the others).
    Rename(String),
    SetTool(Tool),
    SetPlayer(Player),
    SwitchPlayer,
    New,
    OpenDialog,
    Open(PathBuf),
    Save,
    SaveAsDialog,
    SaveTo(PathBuf),
    ExportPythonDialog,
    ExportPython(PathBuf),
    ExportPngDialog,
    ExportPng(PathBuf),
    ImportReplayDialog,
    ImportReplay(PathBuf),
    ImportReplayTurn(usize),
    CloseImport,
    SetRuleset(String),
    RulesetDialog,
    SetTheme(Theme),
    ToggleHelp,
    ResetView,
    CopyPythonToClipboard,
    /// Switch the studio's view (top-bar tabs).
    SetView(super::top_bar::View),
    /// Open a replay (a finished arena match) in the replay viewer.
    OpenReplay(PathBuf),
    OpenReplayDialog,
    /// Follow a replay file while a match writes it (the Play view).
    WatchReplay(PathBuf),
    /// Hide a replay's result until its last turn is shown (a setting).
    SetHideWinner(bool),
    /// Two replays side by side (the Arena tab's comparison view).
    CompareDialog,
    Compare(PathBuf, PathBuf),
    /// Open the editor's layout in the Debugger's what-if (a turn without a replay).
    SimulateLayout,
}
