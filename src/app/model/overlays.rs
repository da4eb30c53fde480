//! Which overlays the editor's board and the Debugger's board draw.

use serde::{Deserialize, Serialize};

/// The editor's overlays.
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

/// The Debugger's overlays.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DebugOverlays {
    pub paths: bool,
    pub moved_from: bool,
    pub attacks: bool,
    pub shields: bool,
    pub markers: bool,
    pub annotations: bool,
}

impl DebugOverlays {
    /// The label shown only when the replay's algos annotated it.
    pub const ANNOTATIONS: &'static str = "Algo annotations";

    /// Every toggle and its label, in the order the Debugger lists them: a new overlay is its
    /// field, its default and its row here (and its drawing).
    pub fn toggles(&mut self) -> [(&'static str, &mut bool); 6] {
        [
            ("Unit paths", &mut self.paths),
            ("Moved-from tiles", &mut self.moved_from),
            ("Attack lines", &mut self.attacks),
            ("Shield events", &mut self.shields),
            ("Deaths / breaches / blasts", &mut self.markers),
            (Self::ANNOTATIONS, &mut self.annotations),
        ]
    }
}

impl Default for DebugOverlays {
    fn default() -> Self {
        DebugOverlays { paths: true, moved_from: true, attacks: true, shields: true, markers: true, annotations: true }
    }
}
