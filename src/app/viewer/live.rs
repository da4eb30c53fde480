//! Following a live match: its frames are appended to the session as they arrive, and the
//! board follows the newest one until the user steps or seeks (then the view stays where
//! they are while the match goes on); End, or Follow, catches up again.

use super::Viewer;
use std::path::PathBuf;
use std::sync::Arc;
use terminal_core::engine::Config;
use terminal_core::engine::frame::Frame;
use terminal_core::session::Request;
use terminal_core::session::companions::Companions;
use terminal_core::session::summary::ReplaySummary;

impl Viewer {
    /// Starts showing a live match whose replay is being written to `source`.
    pub fn start_live(
        &mut self,
        config: Arc<Config>,
        source: PathBuf,
        names: [String; 2],
        ctx: Option<&egui::Context>,
    ) {
        self.reset_for(&source, ctx);
        self.shown.companions = Companions::default();
        self.shown.live = true;
        self.shown.follow_live = true;
        self.message = format!("Live: {} vs {}", names[0], names[1]);
        self.request(Request::StartLive { config, source, names });
    }

    /// The next frames of the live match.
    pub fn append_live(&mut self, frames: Vec<Frame>) {
        if self.shown.live && !frames.is_empty() {
            self.request(Request::AppendFrames(frames));
        }
    }

    /// The match ended: the view keeps its frames and becomes an ordinary replay view.
    pub fn end_live(&mut self) {
        self.shown.live = false;
    }

    /// Follow the newest frame (or stop following).
    pub fn set_follow_live(&mut self, follow: bool) {
        self.shown.follow_live = follow;
        if follow {
            self.show_newest();
        }
    }

    pub(super) fn on_live_update(&mut self, s: ReplaySummary) {
        self.shown.summary = Some(s);
        if self.shown.follow_live {
            self.show_newest();
        }
    }

    fn show_newest(&mut self) {
        if let Some(turn) = self.shown.summary.as_ref().and_then(|s| s.turns.last()).map(|t| t.turn) {
            self.request(Request::Seek { turn, frame: usize::MAX });
        }
    }
}
