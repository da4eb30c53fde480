//! The editor's tools and edits.

use terminal_core::engine::geometry::Tile;
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
