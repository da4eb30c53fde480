//! The threat along the path from the hovered edge tile on the shown frame's board: run by
//! the engine once per (frame, tile), kept while the pointer stays.

use super::Viewer;
use terminal_core::engine::geometry::Tile;
use terminal_core::layout::threat::{self, PathThreat};

/// The threat computed for one tile of one shown frame (`None` inside: a blocked tile).
pub struct HoverThreat {
    /// The shown frame: its index, and the try it belongs to.
    frame: (usize, Option<usize>),
    tile: Tile,
    threat: Option<PathThreat>,
}

impl Viewer {
    /// Brings the threat up to date with the hovered tile and the shown frame (nothing
    /// unless an edge tile of a replay's or a try's frame is hovered).
    pub(super) fn update_threat(&mut self) {
        let shown = self.shown.current.as_ref().filter(|_| self.whatif.board_whatif.is_none());
        let Some((_, v)) = shown else {
            self.board.threat = None;
            return;
        };
        let Some(tile) = self.board.hovered.filter(|t| crate::app::board::threat::is_edge_tile(*t)) else {
            self.board.threat = None;
            return;
        };
        let frame = (v.index, v.watching);
        if self.board.threat.as_ref().is_some_and(|h| h.frame == frame && h.tile == tile) {
            return;
        }
        // A watched try has its own ruleset (a layout's try has no replay behind it).
        let config =
            v.watching.and_then(|i| self.whatif.tries.get(i)).map(|t| t.config.clone()).or_else(|| self.ruleset());
        let threat = config.and_then(|config| threat::from_frame(&v.frame, &config, tile));
        self.board.threat = Some(HoverThreat { frame, tile, threat });
    }

    /// The threat along the path from the hovered tile, if it is a free edge tile.
    pub fn hovered_threat(&self) -> Option<&PathThreat> {
        let h = self.board.threat.as_ref()?;
        let (_, v) = self.shown.current.as_ref()?;
        let current = h.frame == (v.index, v.watching) && Some(h.tile) == self.board.hovered;
        h.threat.as_ref().filter(|_| current)
    }
}
