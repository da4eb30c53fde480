//! Playback and navigation: play/pause at a speed, stepping by frame and by turn, seeking,
//! Home/End, and the keys that do them.

use super::{Viewer, ViewerAction};
use crate::app::command::UiCommand;
use terminal_core::session::Request;
use terminal_core::side_by_side::SideBySide;
use web_time::Instant;

/// Playback speeds offered.
pub const SPEEDS: [f32; 7] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0];
/// Frames per second at 1×.
pub const BASE_FPS: f64 = 8.0;

/// The viewer's action for a command of the table, if it is one of the viewer's.
pub fn action_for(command: UiCommand) -> Option<ViewerAction> {
    Some(match command {
        UiCommand::NextTurn => ViewerAction::StepTurn { forward: true },
        UiCommand::PreviousTurn => ViewerAction::StepTurn { forward: false },
        UiCommand::NextFrame => ViewerAction::Step { forward: true },
        UiCommand::PreviousFrame => ViewerAction::Step { forward: false },
        UiCommand::PlayPause => ViewerAction::TogglePlay,
        UiCommand::FirstTurn => ViewerAction::Home,
        UiCommand::LastFrame => ViewerAction::End,
        UiCommand::FitBoard => ViewerAction::FitBoard,
        UiCommand::ToggleSidePanels => ViewerAction::ToggleSidePanels,
        _ => return None,
    })
}

impl Viewer {
    /// "Turn T, frame F/N" as shown in the timeline.
    pub fn position_label(&self) -> String {
        if let Some(c) = &self.whatif.compare {
            return format!("Turn {} · frame {}/{}", c.model.turn, c.model.frame, c.model.max_frame());
        }
        match &self.shown.current {
            Some((t, v)) => format!("Turn {t} · frame {}/{}", v.frame_in_turn, v.frames_in_turn.saturating_sub(1)),
            None => "No replay".into(),
        }
    }

    /// Shows frame `frame` of `turn`: within the watched try if it is of that turn, else of
    /// the replay (which ends watching).
    pub fn seek(&mut self, turn: i32, frame: usize) {
        let at = i32::try_from(frame).unwrap_or(i32::MAX);
        if self.navigate_compare(|m| m.seek(turn, at)) {
            return;
        }
        match self.watching() {
            Some(index) if self.whatif.tries.get(index).is_some_and(|t| t.turn == turn) => {
                self.request(Request::WatchTry { index, frame })
            }
            _ => self.request(Request::Seek { turn, frame }),
        }
    }

    /// Leaves the watched try for the replay's turn frame of the same turn.
    pub fn back_to_replay(&mut self) {
        let Some(turn) = self.turn() else { return };
        self.playback.playing = false;
        self.request(Request::Seek { turn, frame: 0 });
    }

    pub fn step(&mut self, forward: bool) {
        if self.navigate_compare(|m| m.step_frame(forward)) {
            return;
        }
        self.session.pending_steps += 1;
        self.request(if forward { Request::Step } else { Request::StepBack });
    }

    /// Moves to the next (or previous) turn's turn frame.
    pub fn step_turn(&mut self, forward: bool) {
        if self.navigate_compare(|m| m.step_turn(forward)) {
            return;
        }
        let (Some(s), Some(t)) = (&self.shown.summary, self.turn()) else { return };
        let pos = s.turns.iter().position(|x| x.turn == t).unwrap_or(0);
        let next = if forward { (pos + 1).min(s.turns.len() - 1) } else { pos.saturating_sub(1) };
        let turn = s.turns[next].turn;
        self.seek(turn, 0);
    }

    pub fn home(&mut self) {
        if self.navigate_compare(|m| m.seek(m.min_turn(), 0)) {
            return;
        }
        if let Some(index) = self.watching() {
            return self.request(Request::WatchTry { index, frame: 0 });
        }
        if let Some(t) = self.shown.summary.as_ref().and_then(|s| s.turns.first()).map(|t| t.turn) {
            self.seek(t, 0);
        }
    }

    pub fn end(&mut self) {
        if self.navigate_compare(|m| m.seek(m.max_turn(), i32::MAX)) {
            return;
        }
        if let Some(index) = self.watching() {
            return self.request(Request::WatchTry { index, frame: usize::MAX });
        }
        if let Some(t) = self.shown.summary.as_ref().and_then(|s| s.turns.last()).map(|t| t.turn) {
            self.seek(t, usize::MAX);
        }
    }

    /// While two tries are side by side, the timeline and the keys move the comparison: moves
    /// it with `to` and returns true (playback stops where it cannot move on).
    fn navigate_compare(&mut self, to: impl FnOnce(&mut SideBySide)) -> bool {
        let Some(c) = self.whatif.compare.as_mut() else { return false };
        let before = (c.model.turn, c.model.frame);
        to(&mut c.model);
        if (c.model.turn, c.model.frame) == before {
            self.playback.playing = false;
        }
        true
    }

    pub fn toggle_play(&mut self) {
        self.playback.playing = !self.playback.playing;
        self.playback.last_tick = None;
        self.playback.play_accum = 0.0;
    }

    /// Advances playback by the time since the last call.
    pub(super) fn tick(&mut self, ctx: &egui::Context) {
        if !self.playback.playing {
            self.playback.last_tick = None;
            return;
        }
        let now = Instant::now();
        let dt = self.playback.last_tick.map_or(0.0, |t| now.duration_since(t).as_secs_f64()).min(0.25);
        self.playback.last_tick = Some(now);
        self.playback.play_accum += dt * BASE_FPS * self.prefs.speed as f64;
        while self.playback.play_accum >= 1.0 && self.session.pending_steps < 48 {
            self.playback.play_accum -= 1.0;
            self.step(true);
        }
        self.playback.play_accum = self.playback.play_accum.min(48.0);
        ctx.request_repaint();
    }

    /// Counts UI frames and runs the measurement hook (`TERMINAL_STUDIO_AUTOPLAY`, read when a
    /// replay loads): plays from the frame it names and prints frame rates every second.
    pub(super) fn measure(&mut self, ctx: &egui::Context) {
        if self.shown.current.is_some() {
            self.stats.ui_frames += 1;
        }
        if let Some((turn, frame)) = self.playback.autoplay_at.take() {
            self.seek(turn, frame);
            // Speed 0 holds the frame (screenshots).
            self.playback.playing = self.prefs.speed > 0.0;
        }
        if let Some(t) = self.stats.every
            && t.elapsed().as_secs_f64() >= 1.0
        {
            let dt = t.elapsed().as_secs_f64();
            eprintln!(
                "viewer: {:.1} UI frames/s, {:.1} replay frames/s ({}); opened in {:.3} s; {}",
                (self.stats.ui_frames - self.stats.base.0) as f64 / dt,
                (self.stats.frames_received - self.stats.base.1) as f64 / dt,
                self.position_label(),
                self.stats.open_seconds.unwrap_or(0.0),
                // Linux's resident size; elsewhere the figure is left out.
                std::fs::read_to_string("/proc/self/status")
                    .ok()
                    .and_then(|s| s
                        .lines()
                        .find(|l| l.starts_with("VmRSS"))
                        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")))
                    .unwrap_or_default()
            );
            self.stats.base = (self.stats.ui_frames, self.stats.frames_received);
            self.stats.every = Some(Instant::now());
            ctx.request_repaint();
        }
        if self.stats.every.is_some() {
            ctx.request_repaint();
        }
    }
}
