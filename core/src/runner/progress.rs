//! How far an algo has read its input, as far as the runner can see it, and what follows
//! from it: which stdout lines are start-up output.
//!
//! An algo reads its stdin through its own buffer, so the runner cannot see which frame it
//! is working on. It can see how many bytes are still in the pipe (`FIONREAD`, which Linux
//! answers on the pipe's write end too), and be woken when the algo reads from it (inotify
//! `IN_ACCESS` on the pipe). The stdin writer thread (`process.rs`) therefore holds turn
//! 0's frame until the algo has read the config line, and records how far the algo's
//! stdout had got just before delivering the frame: stdout bytes written before then
//! cannot answer it (nothing but the config line had been sent), so they are start-up
//! output.

use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// An inotify instance that becomes readable whenever the algo reads from the pipe whose
/// write end is `stdin`; `None` where inotify is not available.
pub fn read_watch(stdin: BorrowedFd<'_>) -> Option<OwnedFd> {
    use rustix::fs::inotify;
    let fd = inotify::init(inotify::CreateFlags::CLOEXEC | inotify::CreateFlags::NONBLOCK).ok()?;
    let path = format!("/proc/self/fd/{}", stdin.as_raw_fd());
    inotify::add_watch(&fd, path, inotify::WatchFlags::ACCESS).ok()?;
    Some(fd)
}

/// Discards the events of a `read_watch`: they only wake the waiter, which then looks at
/// the pipe itself.
pub fn drain_watch(watch: &OwnedFd) {
    let mut events = [0u8; 4096];
    while matches!(rustix::io::read(watch, &mut events), Ok(n) if n > 0) {}
}

/// Waits until one of `fds` is readable (or at its end) or `timeout` passes; returns which
/// are. A failed wait reports all of them ready (the caller then looks for itself).
pub fn wait_readable<const N: usize>(fds: [BorrowedFd<'_>; N], timeout: Duration) -> [bool; N] {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let ts = Timespec {
        tv_sec: i64::try_from(timeout.as_secs()).unwrap_or(i64::MAX),
        tv_nsec: i64::from(timeout.subsec_nanos()),
    };
    let mut polled = fds.map(|fd| PollFd::from_borrowed_fd(fd, PollFlags::IN));
    match poll(&mut polled, Some(&ts)) {
        Ok(_) => polled.map(|p| p.revents().intersects(PollFlags::IN | PollFlags::HUP | PollFlags::ERR)),
        Err(_) => [true; N],
    }
}

#[derive(Debug)]
pub struct Progress {
    /// Stdout lines starting before this position were written before turn 0's frame
    /// reached the algo; `u64::MAX` while it has not (every line so far is start-up).
    startup_end: AtomicU64,
    /// Bytes taken from the algo's stdout pipe by the reader thread.
    pub stdout_read: Arc<AtomicU64>,
}

impl Default for Progress {
    fn default() -> Self {
        Progress { startup_end: AtomicU64::new(u64::MAX), stdout_read: Arc::default() }
    }
}

impl Progress {
    /// Whether a stdout line starting at `offset` was written before turn 0's frame was
    /// delivered. Called after the line was read, so a position not yet recorded means
    /// the frame had not been delivered when the line was already written.
    pub fn is_startup_output(&self, offset: u64) -> bool {
        offset < self.startup_end.load(Ordering::SeqCst)
    }

    /// Records the stdout position reached before turn 0's frame is delivered; must be
    /// called before the frame is written.
    pub fn set_startup_end(&self, position: u64) {
        self.startup_end.store(position, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_up_output_until_turn_0_is_delivered() {
        let p = Progress::default();
        assert!(p.is_startup_output(1 << 40));
        p.set_startup_end(120);
        assert!(p.is_startup_output(119));
        assert!(!p.is_startup_output(120));
    }
}
