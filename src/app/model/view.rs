//! The studio's views, as tabs of the top bar.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum View {
    #[default]
    Editor,
    Debugger,
    Replays,
    Arena,
    Play,
    Library,
    Versions,
}

impl View {
    pub const ALL: [View; 7] =
        [View::Editor, View::Debugger, View::Replays, View::Arena, View::Play, View::Library, View::Versions];

    pub fn label(self) -> &'static str {
        match self {
            View::Editor => "Editor",
            View::Debugger => "Debugger",
            View::Replays => "Replays",
            View::Arena => "Arena",
            View::Play => "Play",
            View::Library => "Library",
            View::Versions => "Versions",
        }
    }

    /// The views that show a replay on the viewer's board.
    pub fn shows_replay(self) -> bool {
        matches!(self, View::Debugger | View::Replays)
    }
}
