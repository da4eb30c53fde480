//! Following a live match: its frames are appended to the session as they arrive, and the
//! board works through them at the live pace (1×, 2×, 4× of the Debugger's playback, or each
//! as it comes) until the user steps or seeks; then the view stays where they are while the
//! match goes on, and End, or Follow, catches up again. The match never waits for the board:
//! the frames not shown yet queue in the session.

use super::{BASE_FPS, Viewer};
use crate::app::model::LivePace;
use std::path::PathBuf;
use std::sync::Arc;
use terminal_core::engine::Config;
use terminal_core::engine::frame::Frame;
use terminal_core::session::Request;
use terminal_core::session::companions::Companions;
use terminal_core::session::summary::ReplaySummary;

/// Steps asked of the session and not answered yet, at most (a threaded session answers a
/// frame later; more would overshoot a pause).
const MAX_PENDING_STEPS: usize = 8;

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
        self.playback.live_clock = None;
        self.playback.live_accum = 0.0;
        self.message = format!("Live: {} vs {}", names[0], names[1]);
        self.request(Request::StartLive { config, source, names });
    }

    /// The next frames of the live match.
    pub fn append_live(&mut self, frames: Vec<Frame>) {
        if self.shown.live && !frames.is_empty() {
            // Counted before the request: an inline session answers within it.
            self.session.pending_appends += 1;
            self.request(Request::AppendFrames(frames));
        }
    }

    /// The match ended: the view keeps its frames and becomes an ordinary replay view (the
    /// frames still queued are shown at the pace, as before).
    pub fn end_live(&mut self) {
        self.shown.live = false;
    }

    /// Follow the newest frame at the live pace (or stop following).
    pub fn set_follow_live(&mut self, follow: bool) {
        self.shown.follow_live = follow;
        self.playback.live_clock = None;
        if follow && self.prefs.live_pace == LivePace::AsItComes {
            self.show_newest();
        }
    }

    pub fn live_pace(&self) -> LivePace {
        self.prefs.live_pace
    }

    pub fn set_live_pace(&mut self, pace: LivePace) {
        self.prefs.live_pace = pace;
        self.playback.live_accum = 0.0;
    }

    /// Frames of the match that arrived and are not shown yet (0 when the board is at the
    /// newest frame).
    pub fn frames_queued(&self) -> usize {
        // The newest frame the board can show: the last turn's last (an end frame is the
        // result, not a frame of the board).
        let newest = self.shown.summary.as_ref().and_then(|s| s.turns.last()).map(|t| t.start + t.frames);
        let Some(newest) = newest else { return 0 };
        match &self.shown.current {
            Some((_, v)) if v.watching.is_some() => 0,
            Some((_, v)) => newest.saturating_sub(v.index + 1),
            None => newest,
        }
    }

    /// Frames of the match the board has still to show: queued, or sent to the session and
    /// not yet in its summary.
    pub fn frames_to_show(&self) -> bool {
        self.frames_queued() > 0 || self.session.pending_appends > 0
    }

    /// The board shows the newest frame there is, and no step is on its way.
    pub fn caught_up(&self) -> bool {
        self.shown.current.is_some() && !self.frames_to_show() && self.session.pending_steps == 0
    }

    /// The live match has its end frame: its result is known.
    fn decided(&self) -> bool {
        self.shown.summary.as_ref().is_some_and(|s| s.winner.is_some())
    }

    pub(super) fn on_live_update(&mut self, s: ReplaySummary) {
        self.session.pending_appends = self.session.pending_appends.saturating_sub(1);
        let first_turn = s.turns.first().map(|t| t.turn);
        let last_turn = s.turns.last().map(|t| t.turn);
        let nothing_shown = self.shown.current.is_none();
        let newly_decided = s.winner.is_some() && !self.decided();
        self.shown.summary = Some(s);
        if nothing_shown {
            // The first frame arrived: show it; the pace takes it from there. (An update with
            // no frame yet shows nothing.)
            if let Some(turn) = first_turn {
                self.request(Request::Seek { turn, frame: 0 });
            }
        } else if self.shown.follow_live && self.prefs.live_pace == LivePace::AsItComes {
            match last_turn {
                // How the match was decided is shown, not jumped over: its last turn plays.
                Some(turn) if newly_decided => self.request(Request::Seek { turn, frame: 0 }),
                _ => self.show_newest(),
            }
        }
    }

    /// Advances a followed match by the time since the last UI frame at the live pace, never
    /// past the newest frame. The clock is egui's, so tests step it as they run.
    pub(super) fn tick_live(&mut self, ctx: &egui::Context) {
        if !self.shown.follow_live || self.shown.summary.is_none() {
            self.playback.live_clock = None;
            return;
        }
        if !self.shown.live && !self.frames_to_show() && self.session.pending_steps == 0 {
            // The match is over and every frame of it was shown.
            self.shown.follow_live = false;
            return;
        }
        let speed = match self.prefs.live_pace.speed() {
            Some(speed) => speed,
            None if self.decided() => self.prefs.live_pace.last_turn_speed(),
            None => {
                if self.frames_queued() > 0 && self.session.pending_steps == 0 {
                    self.show_newest();
                }
                return;
            }
        };
        let now = ctx.input(|i| i.time);
        let dt = self.playback.live_clock.map_or(0.0, |t| (now - t).clamp(0.0, 0.25));
        self.playback.live_clock = Some(now);
        let queued = self.frames_queued().saturating_sub(self.session.pending_steps);
        if queued == 0 {
            // Waiting for the match: time spent waiting is not banked for a burst later.
            self.playback.live_accum = 0.0;
        } else {
            self.playback.live_accum += dt * BASE_FPS * speed;
            let mut left = queued;
            while self.playback.live_accum >= 1.0 && left > 0 && self.session.pending_steps < MAX_PENDING_STEPS {
                self.playback.live_accum -= 1.0;
                left -= 1;
                self.step(true);
            }
            self.playback.live_accum = self.playback.live_accum.min(2.0);
        }
        if self.frames_queued() > 0 {
            // Frames to show: the next UI frame comes at once (new frames wake the window
            // through the view that feeds them).
            ctx.request_repaint();
        }
    }

    fn show_newest(&mut self) {
        if let Some(turn) = self.shown.summary.as_ref().and_then(|s| s.turns.last()).map(|t| t.turn) {
            self.request(Request::Seek { turn, frame: usize::MAX });
        }
    }
}
