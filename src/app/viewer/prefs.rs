//! What the Replays and Debugger views keep between runs: the overlays, the playback speed,
//! the event log's filter, the plotted metric, which side panels are open and the live pace.

use super::SPEEDS;
use crate::app::model::{DebugOverlays, EventKind, LivePace, PlotMetric};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewerPrefs {
    pub overlays: DebugOverlays,
    pub speed: f32,
    /// The event kinds the log shows.
    pub log_kinds: BTreeSet<EventKind>,
    pub log_players: [bool; 2],
    pub plot_metric: PlotMetric,
    pub left_panel: bool,
    pub right_panel: bool,
    /// Keep a replay's result hidden until its last turn is shown (watch it unspoiled).
    pub hide_winner: bool,
    /// How fast live matches are shown.
    pub live_pace: LivePace,
}

impl Default for ViewerPrefs {
    fn default() -> Self {
        ViewerPrefs {
            overlays: DebugOverlays::default(),
            speed: 1.0,
            log_kinds: EventKind::ALL.into_iter().collect(),
            log_players: [true, true],
            plot_metric: PlotMetric::default(),
            left_panel: true,
            right_panel: true,
            hide_winner: false,
            live_pace: LivePace::default(),
        }
    }
}

impl ViewerPrefs {
    /// A kept value the viewer does not offer (a hand-edited speed) falls back to its default.
    pub fn settled(mut self) -> ViewerPrefs {
        if !SPEEDS.contains(&self.speed) {
            self.speed = ViewerPrefs::default().speed;
        }
        self
    }
}
