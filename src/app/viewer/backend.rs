//! The session behind the viewer: a worker thread (inline in tests), the requests sent to it
//! and the events it answers with.

use super::{MARKER_FRAMES, Viewer};
use std::time::Instant;
use terminal_core::session::{Event, Request, Session, SessionHandle};

pub(super) enum Backend {
    Thread(SessionHandle),
    Inline(Box<Session>),
}

impl Viewer {
    pub(super) fn ensure_backend(&mut self, ctx: Option<&egui::Context>) {
        if self.backend.is_some() {
            return;
        }
        if self.inline || ctx.is_none() {
            self.backend = Some(Backend::Inline(Box::new(Session::inline())));
            return;
        }
        let ctx = ctx.cloned().expect("checked");
        match SessionHandle::spawn(Box::new(move || ctx.request_repaint())) {
            Ok(h) => self.backend = Some(Backend::Thread(h)),
            Err(e) => {
                self.message = format!("could not start the simulation thread ({e}); running inline");
                self.backend = Some(Backend::Inline(Box::new(Session::inline())));
            }
        }
    }

    /// Sends a request; inline sessions answer at once.
    pub fn request(&mut self, r: Request) {
        let events = match self.backend.as_mut() {
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
        let events = match &self.backend {
            Some(Backend::Thread(h)) => h.drain(),
            _ => Vec::new(),
        };
        for e in events {
            self.handle(e);
        }
    }

    pub(super) fn handle(&mut self, e: Event) {
        match e {
            Event::ReplayLoaded(s) => {
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
                self.summary = Some(*s);
                // Measurement hook: TERMINAL_STUDIO_AUTOPLAY="SPEED[@TURN[:FRAME]]" plays at once (SPEED 0: holds the frame) and
                // prints frame rates to stderr every second.
                if let Ok(spec) = std::env::var("TERMINAL_STUDIO_AUTOPLAY") {
                    let (speed, turn) = spec.split_once('@').unwrap_or((&spec, ""));
                    self.speed = speed.parse().unwrap_or(16.0);
                    let (turn, frame) = turn.split_once(':').unwrap_or((turn, "0"));
                    self.autoplay_at = turn.parse().ok().map(|t| (t, frame.parse().unwrap_or(0)));
                    self.stats_every = Some(Instant::now());
                }
            }
            Event::Frame { turn, view, .. } => {
                self.pending_steps = self.pending_steps.saturating_sub(1);
                self.frames_received += 1;
                if self.open_seconds.is_none()
                    && let Some(t) = self.opened_at
                {
                    self.open_seconds = Some(t.elapsed().as_secs_f64());
                }
                let index = view.index;
                let contiguous =
                    self.current.as_ref().is_some_and(|(_, v)| v.index + 1 == index && v.watching == view.watching);
                if !contiguous {
                    self.recent_markers.clear();
                }
                self.recent_markers.retain(|(i, _)| *i + MARKER_FRAMES > index && *i < index);
                if !view.debug.markers.is_empty() {
                    self.recent_markers.push((index, view.debug.markers.clone()));
                }
                let last = match view.watching {
                    Some(_) => view.frame_in_turn + 1 >= view.frames_in_turn,
                    None => self.summary.as_ref().is_some_and(|s| index + 1 >= s.frames),
                };
                if last {
                    self.playing = false;
                }
                self.current = Some((turn, *view));
                if self.pending_whatif_turn == Some(turn) && self.frame_in_turn() == Some(0) {
                    self.pending_whatif_turn = None;
                    self.start_replay_whatif();
                }
            }
            Event::WhatIfResult(t) => {
                self.message = format!(
                    "Try {} ({}) done: {} action frames",
                    self.tries.len() + 1,
                    t.label,
                    t.summary.action_frames
                );
                self.tries.push(*t);
                // The newest try is B of the next comparison.
                self.compare_pick[1] = self.tries.len() - 1;
            }
            Event::LiveUpdate(s) => self.on_live_update(*s),
            Event::Progress { .. } => {}
            Event::Error(e) => {
                self.pending_steps = 0;
                self.message = format!("Error: {e}");
            }
        }
    }
}
