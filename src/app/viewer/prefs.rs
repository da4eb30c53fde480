//! What the Replays and Debugger views keep between runs (with the studio's settings): the
//! overlays, the playback speed, the event log's filter, the plotted metric and which side
//! panels are open. The rest of the viewer is runtime state.

use super::{DebugOverlays, EventKind, SPEEDS, Viewer};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewerPrefs {
    pub overlays: DebugOverlays,
    pub speed: f32,
    /// The event kinds the log shows.
    pub log_kinds: Vec<EventKind>,
    pub log_players: [bool; 2],
    pub plot_metric: usize,
    pub left_panel: bool,
    pub right_panel: bool,
}

impl Default for ViewerPrefs {
    fn default() -> Self {
        ViewerPrefs {
            overlays: DebugOverlays::default(),
            speed: 1.0,
            log_kinds: EventKind::ALL.to_vec(),
            log_players: [true, true],
            plot_metric: 0,
            left_panel: true,
            right_panel: true,
        }
    }
}

impl Viewer {
    pub fn prefs(&self) -> ViewerPrefs {
        // In the order of `EventKind::ALL`, so that equal filters serialise equally.
        let log_kinds = EventKind::ALL.into_iter().filter(|k| self.log_filter.contains(k)).collect();
        ViewerPrefs {
            overlays: self.overlays,
            speed: self.speed,
            log_kinds,
            log_players: self.log_players,
            plot_metric: self.plot_metric,
            left_panel: self.left_panel,
            right_panel: self.right_panel,
        }
    }

    /// Takes kept preferences; a value the viewer does not offer (a hand-edited speed, a
    /// metric from a later version) falls back to its default.
    pub fn set_prefs(&mut self, p: ViewerPrefs) {
        let default = ViewerPrefs::default();
        self.overlays = p.overlays;
        self.speed = if SPEEDS.contains(&p.speed) { p.speed } else { default.speed };
        self.log_filter = p.log_kinds.into_iter().collect();
        self.log_players = p.log_players;
        self.plot_metric = if p.plot_metric < super::panels::PLOT_METRICS.len() { p.plot_metric } else { 0 };
        self.left_panel = p.left_panel;
        self.right_panel = p.right_panel;
    }
}
