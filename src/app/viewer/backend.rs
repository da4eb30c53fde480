//! The session behind the viewer: a worker thread (inline in tests), the requests sent to it
//! and the events it answers with.

use super::Viewer;
use crate::app::board::frame_draw::MARKER_FRAMES;
use terminal_core::session::summary::ReplaySummary;
use terminal_core::session::{Event, FrameView, Request, Session, SessionHandle};
use web_time::Instant;

pub(super) enum Backend {
    Thread(SessionHandle),
    Inline(Box<Session>),
}

impl Viewer {
    pub(super) fn ensure_backend(&mut self, ctx: Option<&egui::Context>) {
        if self.session.backend.is_some() {
            return;
        }
        // The browser has no threads: its session answers inline.
        if self.session.inline || ctx.is_none() || cfg!(target_arch = "wasm32") {
            self.session.backend = Some(Backend::Inline(Box::new(Session::inline())));
            return;
        }
        let ctx = ctx.cloned().expect("checked");
        match SessionHandle::spawn(Box::new(move || ctx.request_repaint())) {
            Ok(h) => self.session.backend = Some(Backend::Thread(h)),
            Err(e) => {
                self.message = format!("could not start the simulation thread ({e}); running inline");
                self.session.backend = Some(Backend::Inline(Box::new(Session::inline())));
            }
        }
    }

    /// Sends a request; inline sessions answer at once.
    pub fn request(&mut self, r: Request) {
        let events = match self.session.backend.as_mut() {
            None => return,
            Some(Backend::Inline(s)) => s.request(r),
            Some(Backend::Thread(h)) => {
                if h.send(r).is_err() {
                    self.message = "the simulation is busy".into();
                }
                Vec::new()
            }
        };
        for e in events {
            self.handle(e);
        }
    }

    /// Reads every waiting event (thread backend).
    pub fn poll(&mut self) {
        let events = match &self.session.backend {
            Some(Backend::Thread(h)) => h.drain(),
            _ => Vec::new(),
        };
        for e in events {
            self.handle(e);
        }
        self.poll_plan();
    }

    pub(super) fn handle(&mut self, e: Event) {
        match e {
            Event::ReplayLoaded(s) => self.on_loaded(*s),
            Event::Frame { turn, view, .. } => self.on_frame(turn, *view),
            Event::WhatIfResult(t) => {
                self.message = format!(
                    "Try {} ({}) done: {} action frames",
                    self.whatif.tries.len() + 1,
                    t.label,
                    t.summary.action_frames
                );
                self.whatif.tries.push(*t);
                // The newest try is B of the next comparison.
                self.whatif.compare_pick[1] = self.whatif.tries.len() - 1;
                if std::mem::take(&mut self.whatif.watch_next_try) {
                    self.watch_try(self.whatif.tries.len() - 1);
                }
                self.compare_planned_try();
            }
            Event::LiveUpdate(s) => self.on_live_update(*s),
            Event::Progress { .. } => {}
            Event::Error(e) => {
                self.session.pending_steps = 0;
                self.session.pending_appends = 0;
                if !self.open_failed(&e.to_string()) {
                    self.message = format!("Error: {e}");
                }
            }
        }
    }

    fn on_loaded(&mut self, s: ReplaySummary) {
        self.take_opened();
        self.planner.reset();
        self.message = format!(
            "{}: {} vs {}, {} turns, {} frames{}{}",
            s.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            s.names[0],
            s.names[1],
            s.turns.len(),
            s.frames,
            if s.legacy { " (2018–2019 rules)" } else { "" },
            match s.truncated_at {
                Some(line) => format!(
                    " — truncated: the file is cut short at line {line} (a match stopped while writing it); \
                     the frames before it are shown"
                ),
                None => String::new(),
            }
        );
        self.shown.summary = Some(s);
        // Measurement hook: TERMINAL_STUDIO_AUTOPLAY="SPEED[@TURN[:FRAME]]" plays at once (SPEED 0: holds the frame) and
        // prints frame rates to stderr every second.
        if let Ok(spec) = std::env::var("TERMINAL_STUDIO_AUTOPLAY") {
            let (speed, turn) = spec.split_once('@').unwrap_or((&spec, ""));
            self.prefs.speed = speed.parse().unwrap_or(16.0);
            let (turn, frame) = turn.split_once(':').unwrap_or((turn, "0"));
            self.playback.autoplay_at = turn.parse().ok().map(|t| (t, frame.parse().unwrap_or(0)));
            self.stats.every = Some(Instant::now());
        }
    }

    fn on_frame(&mut self, turn: i32, view: FrameView) {
        self.session.pending_steps = self.session.pending_steps.saturating_sub(1);
        self.stats.frames_received += 1;
        if self.stats.open_seconds.is_none()
            && let Some(t) = self.stats.opened_at
        {
            self.stats.open_seconds = Some(t.elapsed().as_secs_f64());
        }
        let index = view.index;
        let contiguous =
            self.shown.current.as_ref().is_some_and(|(_, v)| v.index + 1 == index && v.watching == view.watching);
        if !contiguous {
            self.board.recent_markers.clear();
        }
        self.board.recent_markers.retain(|(i, _)| *i + MARKER_FRAMES > index && *i < index);
        if !view.debug.markers.is_empty() {
            self.board.recent_markers.push((index, view.debug.markers.clone()));
        }
        let last = match view.watching {
            Some(_) => view.frame_in_turn + 1 >= view.frames_in_turn,
            None => self.shown.summary.as_ref().is_some_and(|s| index + 1 >= s.frames),
        };
        if last {
            self.playback.playing = false;
        }
        self.shown.current = Some((turn, view));
        if self.whatif.pending_whatif_turn == Some(turn) && self.frame_in_turn() == Some(0) {
            self.whatif.pending_whatif_turn = None;
            match self.whatif.pending_attack.take() {
                Some((attacker, attack)) => self.run_attack_try(attacker, attack),
                None => self.start_replay_whatif(),
            }
        }
    }
}
