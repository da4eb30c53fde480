//! The editor's tools and edits.

use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::layout::{EditOutcome, Kind, Layout};

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

impl Edit {
    /// Applies the edit to `layout` for `player`: the one place an edit changes a layout.
    pub fn apply_to(self, layout: &mut Layout, player: Player) -> EditOutcome {
        match self {
            Edit::Place(t, k) => layout.place(player, t, k),
            Edit::Upgrade(t) => layout.upgrade(player, t),
            Edit::ToggleRemove(t) => layout.toggle_remove(player, t),
            Edit::SetRemove(t, v) => layout.set_remove(player, t, v),
            Edit::Erase(t) => layout.erase(player, t),
            Edit::MirrorX => layout.mirror_x(player),
            Edit::CopyToOpponent => layout.copy_to_opponent(player),
            Edit::Clear => layout.clear(player),
        }
    }
}
