//! The request loop's state machine, shared by the worker thread and the inline session.

use super::companions::{self, Companions};
use super::debug::{TurnDebug, simulate_turn};
use super::history::History;
use super::protocol::{Event, FrameView, Request, SessionError, WhatIfSource};
use super::summary::summarize;
use super::whatif::{self, WhatIfError, WhatIfSpec, WhatIfTry};
use crate::engine::frame::Phase;
use crate::engine::frame_check::check_frame;
use crate::panics::{Panicked, catch_panic};
use crate::replay::read_replay;
use crate::verify::game_at_turn_frame;
use std::path::Path;

#[derive(Default)]
pub(crate) struct Worker {
    pub history: Option<History>,
    pub companions: Companions,
    /// (position in `history.turns`, frame within the turn).
    pub cursor: (usize, usize),
    /// The debugger data of one turn: (position, frames the turn had when simulated; a live
    /// turn still growing is simulated again), data.
    pub turn_debug: Option<((usize, usize), TurnDebug)>,
    pub tries: Vec<WhatIfTry>,
    /// The try being watched (index in `tries`) and the frame shown in it.
    pub watching: Option<(usize, usize)>,
}

impl Worker {
    /// Handles one request like `handle`, but a panic in it becomes an `Event::Error`
    /// naming the request and the panic's message, and the worker carries on.
    pub(crate) fn handle_reporting_panics(&mut self, request: Request, emit: &mut dyn FnMut(Event)) -> bool {
        let doing = request.describe();
        match catch_panic(|| self.handle(request, emit)) {
            Ok(go_on) => go_on,
            Err(Panicked { message }) => {
                // The turn's debugger data may be half-built.
                self.turn_debug = None;
                emit(Event::Error(SessionError::WorkerPanicked { doing, message }));
                true
            }
        }
    }

    /// Handles one request; returns false on `Shutdown`.
    pub fn handle(&mut self, request: Request, emit: &mut dyn FnMut(Event)) -> bool {
        match request {
            Request::Shutdown => return false,
            #[cfg(any(test, feature = "panic-for-test"))]
            Request::PanicForTest(message) => panic!("{message}"),
            Request::LoadReplay(path) => self.load(&path, emit),
            Request::LoadTurn { turn } => self.seek_turn(turn, 0, emit),
            Request::Seek { turn, frame } => self.seek_turn(turn, frame, emit),
            Request::WatchTry { index, frame } => self.show_try(index, frame, emit),
            Request::Step | Request::StepBack | Request::RunToEndOfTurn if self.watching.is_some() => {
                let (index, frame) = self.watching.unwrap_or_default();
                let frame = match request {
                    Request::Step => frame + 1,
                    Request::StepBack => frame.saturating_sub(1),
                    _ => usize::MAX,
                };
                self.show_try(index, frame, emit);
            }
            Request::Step => self.step(true, emit),
            Request::StepBack => self.step(false, emit),
            Request::RunToEndOfTurn => {
                let (pos, _) = self.cursor;
                self.show(pos, usize::MAX, emit);
            }
            Request::StartLive { config, source, names } => {
                self.companions = companions::load(&source);
                self.history = Some(History::live(config, source, names));
                self.turn_debug = None;
                self.tries.clear();
                self.watching = None;
                self.cursor = (0, 0);
            }
            Request::AppendFrames(frames) => match self.history.as_mut().filter(|h| h.live_names.is_some()) {
                Some(h) => {
                    let mut new_turn = false;
                    for f in frames {
                        // A frame that lies is left out: the viewer and the debugger's rebuild
                        // index the board by its tiles.
                        if let Err(error) = check_frame(&h.config, &f) {
                            let (file, index) = (h.replay.source.clone(), h.replay.frames.len());
                            emit(Event::Error(SessionError::InvalidLiveFrame { file, index, error }));
                            continue;
                        }
                        new_turn |= f.turn_info.phase != Phase::Action;
                        h.push(f);
                    }
                    // The algos' stderr and annotations grow beside the replay as it is written:
                    // read again as each turn begins.
                    if new_turn {
                        self.companions = companions::load(&h.replay.source);
                    }
                    emit(Event::LiveUpdate(Box::new(summarize(h))));
                }
                None => emit(Event::Error(SessionError::NotLive)),
            },
            Request::RunWhatIf { source, spec, label } => match self.what_if(source, &spec, &label) {
                Ok(t) => {
                    self.tries.push(t.clone());
                    emit(Event::WhatIfResult(Box::new(t)));
                }
                Err(e) => emit(Event::Error(e.into())),
            },
        }
        true
    }

    fn load(&mut self, path: &Path, emit: &mut dyn FnMut(Event)) {
        emit(Event::Progress { what: format!("reading {}", path.display()), done: 0, total: 3 });
        let replay = match read_replay(path) {
            Ok(r) => r,
            Err(e) => return emit(Event::Error(e.into())),
        };
        emit(Event::Progress { what: "indexing frames".into(), done: 1, total: 3 });
        let history = History::new(replay);
        if history.turns.is_empty() {
            return emit(Event::Error(SessionError::NoTurnFrames(path.to_path_buf())));
        }
        emit(Event::Progress { what: "reading companion files".into(), done: 2, total: 3 });
        self.companions = companions::load(path);
        self.turn_debug = None;
        self.tries.clear();
        self.watching = None;
        emit(Event::ReplayLoaded(Box::new(summarize(&history))));
        self.history = Some(history);
        emit(Event::Progress { what: "loaded".into(), done: 3, total: 3 });
        self.show(0, 0, emit);
    }

    fn seek_turn(&mut self, turn: i32, frame: usize, emit: &mut dyn FnMut(Event)) {
        let Some(h) = &self.history else { return emit(Event::Error(SessionError::NoReplay)) };
        match h.turn_position(turn) {
            Some(pos) => self.show(pos, frame, emit),
            None => emit(Event::Error(SessionError::NoSuchTurn(turn))),
        }
    }

    fn step(&mut self, forward: bool, emit: &mut dyn FnMut(Event)) {
        let Some(h) = &self.history else { return emit(Event::Error(SessionError::NoReplay)) };
        let (pos, frame) = self.cursor;
        let len = h.turns.get(pos).map_or(1, |t| t.len);
        let (pos, frame) = match (forward, frame) {
            (true, f) if f + 1 < len => (pos, f + 1),
            (true, _) if pos + 1 < h.turns.len() => (pos + 1, 0),
            (true, f) => (pos, f),
            (false, 0) if pos > 0 => (pos - 1, usize::MAX),
            (false, f) => (pos, f.saturating_sub(1)),
        };
        self.show(pos, frame, emit);
    }

    /// Emits frame `frame` (clamped) of the turn at `pos` and moves the cursor there.
    fn show(&mut self, pos: usize, frame: usize, emit: &mut dyn FnMut(Event)) {
        let Some(h) = &self.history else { return };
        let Some(span) = h.turns.get(pos).copied() else { return };
        let frame = frame.min(span.len - 1);
        if self.turn_debug.as_ref().is_none_or(|(key, _)| *key != (pos, span.len)) {
            self.turn_debug = Some(((pos, span.len), simulate_turn(h, pos)));
        }
        let debug = self.turn_debug.as_ref().and_then(|(_, d)| d.frames.get(frame)).cloned().unwrap_or_default();
        let played = self.turn_debug.as_ref().map(|(_, d)| std::sync::Arc::clone(&d.played)).unwrap_or_default();
        let index = span.start + frame;
        let Some(f) = h.frame(index) else { return };
        self.cursor = (pos, frame);
        self.watching = None;
        let view = FrameView {
            index,
            frame_in_turn: frame,
            frames_in_turn: span.len,
            frame: f.clone(),
            debug,
            watching: None,
            played,
        };
        emit(Event::Frame { turn: span.turn, frame, view: Box::new(view) });
    }

    /// Emits frame `frame` (clamped) of the try at `index` and watches that try.
    fn show_try(&mut self, index: usize, frame: usize, emit: &mut dyn FnMut(Event)) {
        let Some(t) = self.tries.get(index) else {
            return emit(Event::Error(SessionError::NoSuchTry(index)));
        };
        let Some(last) = t.frames.len().checked_sub(1) else {
            return emit(Event::Error(SessionError::TryWithoutFrames(t.label.clone())));
        };
        let frame = frame.min(last);
        let view = FrameView {
            index: frame,
            frame_in_turn: frame,
            frames_in_turn: t.frames.len(),
            frame: t.frames[frame].clone(),
            debug: t.debug.get(frame).cloned().unwrap_or_default(),
            watching: Some(index),
            played: Default::default(),
        };
        self.watching = Some((index, frame));
        emit(Event::Frame { turn: t.turn, frame, view: Box::new(view) });
    }

    fn what_if(&self, source: WhatIfSource, spec: &WhatIfSpec, label: &str) -> Result<WhatIfTry, WhatIfError> {
        let from_replay = |pos: usize| -> Result<WhatIfTry, WhatIfError> {
            let h = self.history.as_ref().ok_or(WhatIfError::NoReplay)?;
            let span = h.turns.get(pos).ok_or(WhatIfError::NoSuchTurn(pos as i32))?;
            let (game, mut inputs) = game_at_turn_frame(&h.replay, &h.config, span.start, &h.max_ids, None)?;
            inputs.early_2020 |= h.early_2020;
            whatif::run(&game, Some(&inputs), spec, label)
        };
        match source {
            // The turn on screen: a watched try's, else the replay's.
            WhatIfSource::CurrentTurn => match self.watching.and_then(|(i, _)| self.tries.get(i)) {
                Some(t) => self.what_if(WhatIfSource::ReplayTurn(t.turn), spec, label),
                None => from_replay(self.cursor.0),
            },
            WhatIfSource::ReplayTurn(turn) => {
                let h = self.history.as_ref().ok_or(WhatIfError::NoReplay)?;
                from_replay(h.turn_position(turn).ok_or(WhatIfError::NoSuchTurn(turn))?)
            }
            WhatIfSource::Layout(game) => whatif::run(&game, None, spec, label),
        }
    }
}
