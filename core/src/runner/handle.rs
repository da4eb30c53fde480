//! Starting matches: on a background thread with events and cancellation (GUI, arena),
//! inline (the caller steps it: the browser, which has no threads; tests), or blocking
//! (command line).

use super::cancel::cancelled;
use super::events::{EventSink, MatchEvent};
use super::result::{MatchResult, RunnerError};
use super::seat_spec::SeatSpec;
use super::session::{self, MatchRun, Step, Wait};
use super::spec::MatchSpec;
use crate::panics::{Panicked, catch_panic};
use crossbeam_channel::{Receiver, Sender};
use std::sync::Mutex;
use std::thread::JoinHandle;

/// Capacity of the event channel (frame and log events beyond it are dropped), unless every
/// frame is asked for: then the channel is unbounded, as a live view must see every frame and
/// the match must never wait for it.
pub(crate) const EVENT_CAPACITY: usize = 1024;

/// A match running on its own thread, or inline. Dropping the handle cancels the match.
pub struct MatchHandle {
    /// Progress events; ends with `Finished` or `Failed`.
    pub events: Receiver<MatchEvent>,
    cancel: Mutex<Option<Sender<()>>>,
    thread: Option<JoinHandle<Result<MatchResult, RunnerError>>>,
    /// A match played inline: it moves only when [`MatchHandle::advance`] is called.
    inline: Option<Mutex<InlineMatch>>,
}

/// A match played on the caller's thread, a step at a time.
struct InlineMatch {
    /// The match under way (`None` once it has ended).
    run: Option<MatchRun>,
    sink: EventSink,
    cancel: Receiver<()>,
    /// What the match is doing, for a panic's report.
    doing: String,
    /// How it ended, until `wait` takes it.
    ended: Option<Result<MatchResult, RunnerError>>,
}

impl InlineMatch {
    /// Plays on as `wait` says; the end (or a failure, or a panic) is the last event.
    fn step(&mut self, wait: Wait) {
        let Some(run) = self.run.take() else { return };
        let cancel = &self.cancel;
        match caught(&self.doing, catch_panic(|| run.advance(cancel, wait))) {
            Ok(Step::Waiting(run) | Step::Played(run)) => self.run = Some(run),
            Ok(Step::Over(result)) => self.end(Ok(*result)),
            Err(e) => self.end(Err(e)),
        }
    }

    fn end(&mut self, outcome: Result<MatchResult, RunnerError>) {
        send_end(&self.sink, &outcome);
        self.ended = Some(outcome);
    }
}

/// A match's outcome, its panic (if it panicked) reported as a `RunnerError` naming `doing`.
fn caught<T>(doing: &str, r: Result<Result<T, RunnerError>, Panicked>) -> Result<T, RunnerError> {
    r.unwrap_or_else(|Panicked { message }| Err(RunnerError::Panicked { doing: doing.to_string(), message }))
}

/// The last event of a match: `Finished` with its result, or `Failed`.
fn send_end(sink: &EventSink, outcome: &Result<MatchResult, RunnerError>) {
    match outcome {
        Ok(res) => sink.send(MatchEvent::Finished(Box::new(res.clone()))),
        Err(e) => sink.send(MatchEvent::Failed(e.clone())),
    }
}

impl MatchHandle {
    /// Stops the match as soon as possible: the algos are killed, the replay keeps the
    /// frames written so far, and the match ends with `Failed(Cancelled)`.
    pub fn cancel(&self) {
        if let Ok(mut guard) = self.cancel.lock() {
            guard.take();
        }
    }

    /// Plays an inline match on: at most one turn, and not past a person's turn not yet
    /// ended (an algo's reply is waited for). A match on its own thread plays by itself:
    /// this does nothing for it.
    pub fn advance(&self) {
        if let Some(inline) = &self.inline
            && let Ok(mut inline) = inline.lock()
        {
            inline.step(Wait::ForNoPerson);
        }
    }

    /// Whether the match is played inline ([`MatchHandle::advance`] moves it).
    pub fn is_inline(&self) -> bool {
        self.inline.is_some()
    }

    /// Waits for the end of the match, discarding the events not yet received.
    pub fn wait(mut self) -> Result<MatchResult, RunnerError> {
        if let Some(inline) = self.inline.take() {
            let mut inline = inline.into_inner().map_err(|_| RunnerError::Internal("the inline match broke".into()))?;
            inline.step(Wait::Block);
            return inline.ended.take().unwrap_or_else(|| Err(RunnerError::Internal("the match did not end".into())));
        }
        for _ in self.events.iter() {}
        match self.thread.take() {
            Some(t) => t.join().map_err(|_| RunnerError::Internal("the match thread panicked".into()))?,
            None => Err(RunnerError::Internal("the match thread could not be started".into())),
        }
    }
}

impl MatchHandle {
    /// Waits for the end of the match, cancelling it the first time `stop` is ready (a
    /// message or a disconnect); `on_stop` sees that message. The events are discarded.
    pub fn wait_unless<T>(
        self,
        stop: &Receiver<T>,
        on_stop: impl FnOnce(Option<T>),
    ) -> Result<MatchResult, RunnerError> {
        if self.inline.is_some() {
            // Played here, a turn at a time, the stop looked at between turns.
            let mut on_stop = Some(on_stop);
            loop {
                if let Some(f) = on_stop.take_if(|_| cancelled(stop)) {
                    f(None);
                    self.cancel();
                }
                self.advance();
                match self.events.try_iter().last() {
                    Some(MatchEvent::Finished(r)) => return Ok(*r),
                    Some(MatchEvent::Failed(e)) => return Err(e),
                    _ => {}
                }
            }
        }
        let mut stop = stop.clone();
        let mut on_stop = Some(on_stop);
        loop {
            crossbeam_channel::select! {
                recv(self.events) -> ev => match ev {
                    Ok(MatchEvent::Finished(r)) => return Ok(*r),
                    Ok(MatchEvent::Failed(e)) => return Err(e),
                    Ok(_) => {}
                    Err(_) => return self.wait(),
                },
                recv(stop) -> msg => {
                    if let Some(f) = on_stop.take() {
                        f(msg.ok());
                    }
                    self.cancel();
                    stop = crossbeam_channel::never();
                }
            }
        }
    }
}

impl Drop for MatchHandle {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Starts a match on its own thread.
pub fn start_match(spec: MatchSpec) -> MatchHandle {
    // A page has no threads: its matches play inline, as the studio steps them.
    if cfg!(target_arch = "wasm32") {
        return start_match_inline(spec);
    }
    let doing = format!("playing {}", describe_seats(&spec));
    let capacity = (!spec.every_frame_event).then_some(EVENT_CAPACITY);
    start_on_thread(doing, capacity, move |sink, cancel| session::run(&spec, sink, cancel))
}

/// Starts a match played inline: the seats are started and `Started` sent now; the match
/// moves only when [`MatchHandle::advance`] is called (or `wait`). Every event is kept
/// until read (the caller reads between steps, so nothing waits on it).
pub fn start_match_inline(spec: MatchSpec) -> MatchHandle {
    let doing = format!("playing {}", describe_seats(&spec));
    let (tx, rx) = crossbeam_channel::unbounded();
    let (cancel_tx, cancel_rx) = crossbeam_channel::bounded::<()>(1);
    let sink = EventSink::new(tx);
    let mut inline = InlineMatch { run: None, sink: sink.clone(), cancel: cancel_rx, doing, ended: None };
    match caught(&inline.doing, catch_panic(|| MatchRun::start(&spec, sink))) {
        Ok(run) => inline.run = Some(run),
        Err(e) => inline.end(Err(e)),
    }
    MatchHandle { events: rx, cancel: Mutex::new(Some(cancel_tx)), thread: None, inline: Some(Mutex::new(inline)) }
}

/// "A against B", from the seats of a match.
fn describe_seats(spec: &MatchSpec) -> String {
    let [a, b] = spec.seats.each_ref().map(|s| match s {
        SeatSpec::Algo(path) => path.display().to_string(),
        SeatSpec::Ghost(g) => g.describe(),
        SeatSpec::Human(_) => "a person".to_string(),
    });
    format!("{a} against {b}")
}

/// Runs `run` on the match thread; its result (or its panic, as `RunnerError::Panicked`
/// naming `doing`) is the last event.
fn start_on_thread(
    doing: String,
    capacity: Option<usize>,
    run: impl FnOnce(&EventSink, &Receiver<()>) -> Result<MatchResult, RunnerError> + Send + 'static,
) -> MatchHandle {
    let (tx, rx) = match capacity {
        Some(n) => crossbeam_channel::bounded(n),
        None => crossbeam_channel::unbounded(),
    };
    let (cancel_tx, cancel_rx) = crossbeam_channel::bounded::<()>(1);
    let sink = EventSink::new(tx);
    let fallback = sink.clone();
    let thread = std::thread::Builder::new().name("terminal-match".into()).spawn(move || {
        let r = caught(&doing, catch_panic(|| run(&sink, &cancel_rx)));
        send_end(&sink, &r);
        r
    });
    let thread = match thread {
        Ok(t) => Some(t),
        Err(e) => {
            fallback.send(MatchEvent::Failed(RunnerError::Internal(format!("cannot start the match thread: {e}"))));
            None
        }
    };
    drop(fallback);
    MatchHandle { events: rx, cancel: Mutex::new(Some(cancel_tx)), thread, inline: None }
}

/// Runs a match on the calling thread (no events).
pub fn run_match_blocking(spec: MatchSpec) -> Result<MatchResult, RunnerError> {
    let (_keep, cancel_rx) = crossbeam_channel::bounded::<()>(1);
    run_match_until(&spec, &cancel_rx)
}

/// Runs a match on the calling thread (no events) until it ends, or until `cancel` is ready
/// (a message, or its sender dropped): then `Err(RunnerError::Cancelled)`. For a caller that
/// already is a thread of its own (an arena's worker), so that a match needs no second one.
pub fn run_match_until(spec: &MatchSpec, cancel: &Receiver<()>) -> Result<MatchResult, RunnerError> {
    session::run(spec, &EventSink::none(), cancel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_on_the_match_thread_ends_the_match_with_what_it_was_doing() {
        let handle =
            start_on_thread("playing a test".into(), Some(EVENT_CAPACITY), |_, _| panic!("the match broke on purpose"));
        let last = handle.events.iter().last();
        let is_wanted = |e: &RunnerError| {
            matches!(e, RunnerError::Panicked { doing, message }
                if doing == "playing a test" && message == "the match broke on purpose")
        };
        match last {
            Some(MatchEvent::Failed(e)) => {
                assert!(is_wanted(&e), "{e:?}");
                assert_eq!(
                    e.to_string(),
                    "the match stopped on a bug while playing a test: the match broke on purpose"
                );
            }
            other => panic!("expected Failed(Panicked), got {other:?}"),
        }
        let again =
            start_on_thread("playing a test".into(), Some(EVENT_CAPACITY), |_, _| panic!("the match broke on purpose"));
        let e = again.wait().map(|_| ()).expect_err("the match failed");
        assert!(is_wanted(&e), "{e:?}");
    }
}
