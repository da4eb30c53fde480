//! The two ways to drive the worker: `SessionHandle` (a named thread, bounded channels,
//! never blocking the caller) and `Session::inline()` (synchronous, for tests and tools).

use super::protocol::{Event, Request};
use super::whatif::WhatIfTry;
use super::worker::Worker;
use crossbeam_channel::{Receiver, Sender, TrySendError, bounded};
use std::thread::JoinHandle;

/// Requests waiting for the worker at most (a full queue makes `send` fail, not block).
pub(crate) const REQUEST_QUEUE: usize = 64;
/// Events waiting for the UI at most (the worker waits when the UI falls behind).
pub(crate) const EVENT_QUEUE: usize = 1024;

/// Called after every event the worker sends (e.g. `ctx.request_repaint()`).
pub type Repaint = Box<dyn Fn() + Send>;

/// The UI's end of a worker thread.
pub struct SessionHandle {
    requests: Sender<Request>,
    events: Receiver<Event>,
    thread: Option<JoinHandle<()>>,
}

impl SessionHandle {
    /// Starts the worker on a thread named `terminal-sim`.
    pub fn spawn(repaint: Repaint) -> std::io::Result<SessionHandle> {
        let (req_tx, req_rx) = bounded::<Request>(REQUEST_QUEUE);
        let (ev_tx, ev_rx) = bounded::<Event>(EVENT_QUEUE);
        let thread = std::thread::Builder::new().name("terminal-sim".into()).spawn(move || {
            let mut worker = Worker::default();
            let mut emit = |e: Event| {
                if ev_tx.send(e).is_ok() {
                    repaint();
                }
            };
            while let Ok(request) = req_rx.recv() {
                if !worker.handle_reporting_panics(request, &mut emit) {
                    break;
                }
            }
        })?;
        Ok(SessionHandle { requests: req_tx, events: ev_rx, thread: Some(thread) })
    }

    /// Queues a request without blocking; gives it back if the queue is full or the worker gone.
    pub fn send(&self, request: Request) -> Result<(), Request> {
        self.requests.try_send(request).map_err(|e| match e {
            TrySendError::Full(r) | TrySendError::Disconnected(r) => r,
        })
    }

    /// The next event, if one is waiting.
    pub fn try_recv(&self) -> Option<Event> {
        self.events.try_recv().ok()
    }

    /// Every event waiting now.
    pub fn drain(&self) -> Vec<Event> {
        std::iter::from_fn(|| self.try_recv()).collect()
    }

    /// True while the worker thread runs.
    pub fn is_running(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }

    /// Asks the worker to stop and waits for it (call when the app closes).
    pub fn shutdown(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        // The worker may be blocked on a full event queue: empty it while waiting.
        let Some(t) = self.thread.take() else { return };
        while let Err(TrySendError::Full(_)) = self.requests.try_send(Request::Shutdown) {
            while self.events.try_recv().is_ok() {}
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        {
            while !t.is_finished() {
                while self.events.try_recv().is_ok() {}
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            let _ = t.join();
        }
    }
}

impl Drop for SessionHandle {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The same worker run synchronously on the caller's thread.
pub struct Session {
    worker: Worker,
}

impl Session {
    pub fn inline() -> Session {
        Session { worker: Worker::default() }
    }

    /// Handles one request and returns the events it produced (a panic in it comes out as
    /// `SessionError::WorkerPanicked`, as from the thread).
    pub fn request(&mut self, request: Request) -> Vec<Event> {
        let mut out = Vec::new();
        self.worker.handle_reporting_panics(request, &mut |e| out.push(e));
        out
    }

    /// The what-if tries run so far.
    pub fn tries(&self) -> &[WhatIfTry] {
        &self.worker.tries
    }

    /// The loaded replay's frame history.
    pub fn history(&self) -> Option<&super::history::History> {
        self.worker.history.as_ref()
    }

    pub fn companions(&self) -> &super::companions::Companions {
        &self.worker.companions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::SessionError;
    use std::time::{Duration, Instant};

    /// The first error event from the worker, waiting at most a minute.
    fn next_error(session: &SessionHandle) -> SessionError {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(Event::Error(e)) = session.try_recv() {
                return e;
            }
            assert!(Instant::now() < deadline, "no error event from the worker");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn a_panic_on_the_worker_thread_is_reported_and_the_worker_goes_on() {
        let session = SessionHandle::spawn(Box::new(|| {})).expect("the worker thread");
        assert!(session.send(Request::PanicForTest("broken on purpose".into())).is_ok());
        let e = next_error(&session);
        assert_eq!(
            e,
            SessionError::WorkerPanicked {
                doing: "a test of the panic report".into(),
                message: "broken on purpose".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "the simulation stopped on a bug while a test of the panic report: broken on purpose"
        );
        // Still answering.
        assert!(session.send(Request::LoadTurn { turn: 3 }).is_ok());
        assert_eq!(next_error(&session), SessionError::NoReplay);
        assert!(session.is_running());
        session.shutdown();
    }

    #[test]
    fn a_panic_in_the_inline_session_comes_out_as_the_same_event() {
        let mut session = Session::inline();
        let events = session.request(Request::PanicForTest("inline on purpose".into()));
        assert!(
            matches!(events.as_slice(), [Event::Error(SessionError::WorkerPanicked { message, .. })] if message == "inline on purpose"),
            "{events:?}"
        );
    }
}
