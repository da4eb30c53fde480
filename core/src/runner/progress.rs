//! How far an algo has read its input, as far as the runner can see it, and the two
//! things that follow from it: which stdout lines are start-up output, and under which
//! turn each stderr line belongs.
//!
//! An algo reads its stdin through its own buffer, so the runner cannot see which frame it
//! is working on. It can see how many bytes are still in the pipe (`FIONREAD`, which Linux
//! answers on the pipe's write end too), and be woken when the algo reads from it (inotify
//! `IN_ACCESS` on the pipe). The stdin writer thread (`process.rs`) therefore holds each
//! turn frame until the algo has read everything sent before it (the config line, or the
//! previous turn's action frames). A line reader reads more only when its buffer holds no
//! complete line, so the algo reaches the held turn frame only after it has finished with
//! every earlier line, and the first byte of the turn frame leaving the pipe is the moment
//! it moves on to that turn.
//!
//! * Start-up output: a stdout line written, newline included, before turn 0's frame was
//!   delivered cannot answer it. The writer records how far stdout had got just before
//!   delivering it. A line begun before and ended after (a banner printed without a
//!   newline, then the reply) is one line to a reader of lines: a reply line.
//! * Stderr: the stderr thread watches for the algo starting each delivered turn frame and
//!   records how far stderr had got at that moment. The writer sends a turn frame's first
//!   byte alone and the rest only once that is recorded: until then the algo holds an
//!   unfinished line and cannot act on the turn, so the record is exact whenever it is
//!   taken. A line that starts after the recorded
//!   position of turn T was written after the algo started reading turn T's frame; a line
//!   that starts before it stays with the turn before, whose frames the algo was still
//!   working through (docs/runner.md gives the limits).

use super::os::{Pipe, unread};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How much of a stdout line is start-up output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartUpPart {
    /// None of it: written after turn 0's frame was delivered, a reply line.
    None,
    /// All of it, newline included: start-up output.
    Whole,
    /// Its first bytes, written without a newline before turn 0's frame was delivered (a
    /// banner printed with no line end); its newline came later, so it is a reply line
    /// that begins with them, as a reader of lines sees it.
    Prefix(u64),
}

#[derive(Debug)]
pub struct Progress {
    /// The runner can see the algo's reading (`FIONREAD` works here); without it, start-up
    /// output is not told apart and stderr is filed by the turn the runner last sent.
    observing: AtomicBool,
    /// Stdout lines starting before this position were written before turn 0's frame
    /// reached the algo; `u64::MAX` while it has not (every line so far is start-up).
    startup_end: AtomicU64,
    /// Bytes taken from the algo's stdout pipe by the reader thread.
    pub stdout_read: Arc<AtomicU64>,
    /// Bytes written to the algo's stdin pipe (updated after each flush).
    stdin_written: AtomicU64,
    /// A copy of the stdin pipe's write end, to count the unread bytes; the writer thread
    /// drops it when it ends, so that the algo still sees the end of its input.
    stdin: Mutex<Option<Pipe>>,
    /// An inotify instance watching the stdin pipe for reads, for the stderr thread.
    inotify: Mutex<Option<Pipe>>,
    /// Delivered turn frames the algo has not been seen to start: `(turn, stdin position of
    /// the frame's first byte)`.
    pending: Mutex<Vec<(i32, u64)>>,
    /// `(turn, stderr position)` for every turn the algo was seen to start, in order; the
    /// position is at least the number of stderr bytes it had written at that moment.
    started: Mutex<Vec<(i32, u64)>>,
    /// Signalled whenever a turn is seen started (the stdin writer waits for it).
    started_signal: Condvar,
    /// The stderr thread is watching for turns started, woken by the algo's reads (it ends
    /// with the algo's stderr).
    stderr_watching: AtomicBool,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            observing: AtomicBool::new(false),
            startup_end: AtomicU64::new(u64::MAX),
            stdout_read: Arc::default(),
            stdin_written: AtomicU64::new(0),
            stdin: Mutex::new(None),
            inotify: Mutex::new(None),
            pending: Mutex::new(Vec::new()),
            started: Mutex::new(Vec::new()),
            started_signal: Condvar::new(),
            stderr_watching: AtomicBool::new(false),
        }
    }
}

impl Progress {
    /// Starts looking into the stdin pipe through `stdin` (a copy of its write end), woken
    /// by `inotify` if given.
    pub(crate) fn observe_through(&self, stdin: Pipe, inotify: Option<Pipe>) {
        if let (Ok(mut s), Ok(mut i)) = (self.stdin.lock(), self.inotify.lock()) {
            *s = Some(stdin);
            *i = inotify;
            self.observing.store(true, Ordering::SeqCst);
        }
    }

    pub(crate) fn observing(&self) -> bool {
        self.observing.load(Ordering::SeqCst)
    }

    /// Stops looking (the pipe cannot be looked into, or the writer has ended).
    pub(crate) fn stop_observing(&self) {
        self.observing.store(false, Ordering::SeqCst);
        self.release_stdin();
    }

    /// Drops the copy of the stdin pipe's write end.
    pub(crate) fn release_stdin(&self) {
        if let Ok(mut s) = self.stdin.lock() {
            *s = None;
        }
    }

    pub(crate) fn take_inotify(&self) -> Option<Pipe> {
        self.inotify.lock().ok().and_then(|mut i| i.take())
    }

    /// How much of the stdout line at stream positions `start..end` (its newline included)
    /// was written before turn 0's frame was delivered. Called after the line was read, so a
    /// position not yet recorded means the frame had not been delivered when the whole line
    /// was already written.
    pub(crate) fn startup_part(&self, start: u64, end: u64) -> StartUpPart {
        let startup_end = self.startup_end.load(Ordering::SeqCst);
        if end <= startup_end {
            StartUpPart::Whole
        } else if start < startup_end {
            StartUpPart::Prefix(startup_end - start)
        } else {
            StartUpPart::None
        }
    }

    /// Records the stdout position reached before turn 0's frame is delivered; must be
    /// called before the frame is written.
    pub(crate) fn set_startup_end(&self, position: u64) {
        self.startup_end.store(position, Ordering::SeqCst);
    }

    /// Turn `turn`'s frame is about to be written at stdin position `start`.
    pub(crate) fn delivering(&self, turn: i32, start: u64) {
        if let Ok(mut p) = self.pending.lock() {
            p.push((turn, start));
        }
    }

    /// Bytes written to the stdin pipe so far (all flushed).
    pub(crate) fn set_stdin_written(&self, written: u64) {
        self.stdin_written.store(written, Ordering::SeqCst);
    }

    pub(crate) fn has_pending(&self) -> bool {
        self.observing() && self.pending.lock().is_ok_and(|p| !p.is_empty())
    }

    /// Records the delivered turn frames the algo has started reading; `stderr_position`
    /// gives, when called, at least the number of bytes it has written to stderr.
    pub(crate) fn observe(&self, stderr_position: impl FnOnce() -> u64) {
        let Ok(mut pending) = self.pending.lock() else { return };
        if pending.is_empty() {
            return;
        }
        // What was written, then what is left: a lower bound of what the algo has read.
        let written = self.stdin_written.load(Ordering::SeqCst);
        let unread = {
            let Ok(stdin) = self.stdin.lock() else { return };
            let Some(pipe) = stdin.as_ref() else { return };
            let Ok(unread) = unread(super::os::as_pipe(pipe)) else { return };
            unread
        };
        let consumed = written.saturating_sub(unread);
        let n = pending.iter().take_while(|&&(_, start)| consumed > start).count();
        if n == 0 {
            return;
        }
        let position = stderr_position();
        for (turn, _) in pending.drain(..n) {
            self.turn_started(turn, position);
        }
    }

    /// The algo was seen to start reading turn `turn`'s frame when it had written at most
    /// `stderr_position` bytes to stderr.
    pub(crate) fn turn_started(&self, turn: i32, stderr_position: u64) {
        if let Ok(mut v) = self.started.lock() {
            // Positions are upper bounds taken one after the other; keep them ordered.
            let pos = v.last().map_or(stderr_position, |&(_, p)| p.max(stderr_position));
            v.push((turn, pos));
        }
        self.started_signal.notify_all();
    }

    /// The stderr thread watches for turns started, woken by the algo's reads: a turn
    /// frame's writer may wait for it (without the wake-up it would wait for the thread's
    /// polling).
    pub(crate) fn stderr_watching_on_reads(&self) {
        self.stderr_watching.store(true, Ordering::SeqCst);
    }

    /// The stderr thread has ended: nothing will be seen started any more.
    pub(crate) fn stderr_done(&self) {
        self.stderr_watching.store(false, Ordering::SeqCst);
        self.started_signal.notify_all();
    }

    /// Waits until turn `turn` has been seen started; false (at once) if the stderr thread
    /// is not watching, or as soon as `keep_waiting` says to stop (asked every `step`).
    pub(crate) fn wait_started(&self, turn: i32, step: Duration, keep_waiting: impl Fn() -> bool) -> bool {
        let Ok(mut v) = self.started.lock() else { return false };
        loop {
            if v.last().is_some_and(|&(t, _)| t >= turn) {
                return true;
            }
            if !self.stderr_watching.load(Ordering::SeqCst) || !keep_waiting() {
                return false;
            }
            v = match self.started_signal.wait_timeout(v, step) {
                Ok((guard, _)) => guard,
                Err(_) => return false,
            };
        }
    }

    /// The turn a stderr line starting at `offset` belongs to: the last turn the algo was
    /// seen to start before the line's first byte was written (0 before any: start-up
    /// output counts as turn 0, as its time does).
    pub(crate) fn turn_at(&self, offset: u64) -> i32 {
        let Ok(v) = self.started.lock() else { return 0 };
        let n = v.partition_point(|&(_, p)| p <= offset);
        if n == 0 { 0 } else { v[n - 1].0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_belong_to_the_last_turn_started_before_them() {
        let p = Progress::default();
        assert_eq!(p.turn_at(0), 0);
        p.turn_started(0, 10);
        p.turn_started(1, 50);
        // An estimate below the previous one is raised to keep the order.
        p.turn_started(2, 40);
        assert_eq!(p.turn_at(9), 0);
        assert_eq!(p.turn_at(10), 0);
        assert_eq!(p.turn_at(49), 0);
        assert_eq!(p.turn_at(50), 2);
        assert_eq!(p.turn_at(u64::MAX), 2);
    }

    #[test]
    fn start_up_output_until_turn_0_is_delivered() {
        let p = Progress::default();
        assert_eq!(p.startup_part(0, 1 << 40), StartUpPart::Whole);
        p.set_startup_end(120);
        assert_eq!(p.startup_part(100, 120), StartUpPart::Whole);
        assert_eq!(p.startup_part(120, 130), StartUpPart::None);
    }

    /// A banner without a newline, then the turn-0 reply: one line, begun before the
    /// frame and ended after it — a reply line whose first bytes are the banner.
    #[test]
    fn a_line_ended_after_turn_0_was_delivered_is_a_reply() {
        let p = Progress::default();
        p.set_startup_end(10);
        assert_eq!(p.startup_part(0, 30), StartUpPart::Prefix(10));
        assert_eq!(p.startup_part(9, 11), StartUpPart::Prefix(1));
    }

    /// A turn frame counts as started once its first byte has left the pipe (seen through
    /// the write end, which Linux can look into).
    #[cfg(target_os = "linux")]
    #[test]
    fn a_turn_starts_when_its_first_byte_is_read() {
        use std::io::{Read, Write};
        let (mut r, w) = std::io::pipe().expect("pipe");
        let mut w = std::fs::File::from(Pipe::from(w));
        let p = Progress::default();
        p.observe_through(w.try_clone().expect("dup").into(), None);
        w.write_all(b"config\n").expect("write");
        p.set_stdin_written(7);
        p.delivering(0, 7);
        w.write_all(b"frame0\n").expect("write");
        p.set_stdin_written(14);
        let mut buf = [0u8; 7];
        r.read_exact(&mut buf).expect("read");
        p.observe(|| 100);
        assert!(p.has_pending());
        r.read_exact(&mut buf[..1]).expect("read");
        p.observe(|| 200);
        assert!(!p.has_pending());
        assert_eq!((p.turn_at(199), p.turn_at(200)), (0, 0));
        assert_eq!(p.started.lock().expect("lock").as_slice(), &[(0, 200)]);
    }
}
