//! Unix: pipes are file descriptors (FIONREAD, poll, inotify on Linux), an algo runs in a
//! process group of its own, killed with `killpg`; on Linux also whatever left the group
//! (`linux_sweep.rs`).

#[cfg(target_os = "linux")]
#[path = "linux_sweep.rs"]
mod linux_sweep;

use super::StartCommand;
use std::io;
use std::os::fd::AsRawFd;
use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;

pub use std::os::fd::AsFd as AsPipe;
/// An owned pipe end (or a watch that becomes readable).
pub type Pipe = std::os::fd::OwnedFd;
pub type PipeRef<'a> = std::os::fd::BorrowedFd<'a>;

pub(crate) fn as_pipe<P: AsPipe + ?Sized>(p: &P) -> PipeRef<'_> {
    p.as_fd()
}

/// Bytes waiting in a pipe (Linux answers on the write end too).
pub(crate) fn unread(p: PipeRef<'_>) -> io::Result<u64> {
    rustix::io::ioctl_fionread(p).map_err(io::Error::from)
}

/// Waits until one of `pipes` is readable (or at its end) or `timeout` passes; returns
/// which are. A failed wait reports all of them ready (the caller then looks for itself).
pub(crate) fn wait_readable<const N: usize>(pipes: [PipeRef<'_>; N], timeout: Duration) -> [bool; N] {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let ts = Timespec {
        tv_sec: i64::try_from(timeout.as_secs()).unwrap_or(i64::MAX),
        tv_nsec: i64::from(timeout.subsec_nanos()),
    };
    let mut polled = pipes.map(|fd| PollFd::from_borrowed_fd(fd, PollFlags::IN));
    match poll(&mut polled, Some(&ts)) {
        Ok(_) => polled.map(|p| p.revents().intersects(PollFlags::IN | PollFlags::HUP | PollFlags::ERR)),
        Err(_) => [true; N],
    }
}

/// The reading end of the pipe whose write end is `stdin` is closed (the algo exited, or
/// closed its stdin).
pub(crate) fn reader_gone(stdin: PipeRef<'_>) -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let mut fds = [PollFd::new(&stdin, PollFlags::OUT)];
    let zero = Timespec { tv_sec: 0, tv_nsec: 0 };
    matches!(poll(&mut fds, Some(&zero)), Ok(1)) && fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP)
}

/// An inotify instance that becomes readable whenever the algo reads from the pipe whose
/// write end is `stdin`; `None` where inotify is not available (then the waiters poll).
#[cfg(target_os = "linux")]
pub(crate) fn read_watch(stdin: PipeRef<'_>) -> Option<Pipe> {
    use rustix::fs::inotify;
    let fd = inotify::init(inotify::CreateFlags::CLOEXEC | inotify::CreateFlags::NONBLOCK).ok()?;
    let path = format!("/proc/self/fd/{}", stdin.as_raw_fd());
    inotify::add_watch(&fd, path, inotify::WatchFlags::ACCESS).ok()?;
    Some(fd)
}

/// Other Unix systems have no inotify: the waiters poll.
#[cfg(not(target_os = "linux"))]
pub(crate) fn read_watch(_stdin: PipeRef<'_>) -> Option<Pipe> {
    None
}

/// Discards the events of a `read_watch`: they only wake the waiter, which then looks at
/// the pipe itself.
pub(crate) fn drain_watch(watch: &Pipe) {
    let mut events = [0u8; 4096];
    while matches!(rustix::io::read(watch, &mut events), Ok(n) if n > 0) {}
}

/// The algo's whole process tree: its process group and, on Linux, every process carrying
/// its mark (`linux_sweep.rs`), wherever it went.
#[derive(Debug)]
pub struct ProcessTree {
    pgid: u32,
    #[cfg(target_os = "linux")]
    mark: String,
    /// The mark has been swept: nothing carrying it is left, and nothing can start again.
    #[cfg(target_os = "linux")]
    swept: std::sync::atomic::AtomicBool,
}

/// What `ProcessTree::prepare` gave the command, for `ProcessTree::of`.
pub struct TreeMark {
    #[cfg(target_os = "linux")]
    mark: String,
}

impl ProcessTree {
    /// Makes the command start a process group of its own, so that everything it starts
    /// can be killed with it, and (Linux) marks it for the sweep.
    pub fn prepare(cmd: &mut Command) -> TreeMark {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
        TreeMark {
            #[cfg(target_os = "linux")]
            mark: {
                let mark = linux_sweep::new_mark();
                cmd.env(linux_sweep::TREE_MARK_VAR, &mark);
                mark
            },
        }
    }

    /// The tree of a child started from a prepared command.
    #[cfg_attr(not(target_os = "linux"), allow(unused_variables))]
    pub fn of(child: &Child, mark: TreeMark) -> io::Result<ProcessTree> {
        Ok(ProcessTree {
            pgid: child.id(),
            #[cfg(target_os = "linux")]
            mark: mark.mark,
            #[cfg(target_os = "linux")]
            swept: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// SIGKILL to the whole group (errors, e.g. no such group any more, are ignored) and,
    /// the first time, to every process carrying the mark.
    pub fn kill(&self) {
        if let Ok(raw) = i32::try_from(self.pgid)
            && raw > 1
        {
            let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(raw), nix::sys::signal::Signal::SIGKILL);
        }
        #[cfg(target_os = "linux")]
        if !self.swept.swap(true, std::sync::atomic::Ordering::SeqCst) {
            linux_sweep::kill_marked(&self.mark);
        }
    }
}

/// A script's full path, links resolved.
pub(crate) fn full_path(p: &Path) -> io::Result<std::path::PathBuf> {
    p.canonicalize()
}

/// The start scripts looked for in an algo folder, in order.
pub(crate) const START_SCRIPTS: &[&str] = &["run.sh"];

/// The command that runs a start script, and how it runs it (for the log). A script names
/// its interpreter in its `#!` line: executable, it is run directly (the system honours
/// the line); otherwise its interpreter is run on it. Without a `#!` line a `.sh` script
/// (or one that is not executable) goes through bash, and another executable (a
/// program) is run directly.
pub(crate) fn start_command(script: &Path) -> StartCommand {
    let executable = is_executable(script);
    match super::super::shebang::read(script) {
        Some(sb) if executable => StartCommand {
            command: Command::new(script),
            how: format!("run directly: its #! line names {}", sb.describe()),
        },
        Some(sb) => {
            let mut c = Command::new(&sb.program);
            c.args(&sb.arg).arg(script);
            StartCommand {
                command: c,
                how: format!("run with {} (its #! line; the file is not executable)", sb.describe()),
            }
        }
        None if executable && script.extension().is_none_or(|e| e != "sh") => {
            StartCommand { command: Command::new(script), how: "run directly (an executable without a #! line)".into() }
        }
        None => {
            let mut c = Command::new("bash");
            c.arg(script);
            StartCommand { command: c, how: "run with bash (no #! line)".into() }
        }
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().map(|m| m.permissions().mode() & 0o111 != 0).unwrap_or(false)
}

/// CPU time used so far by the calling thread (`None` if the system cannot say).
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd", target_os = "openbsd"))]
pub(crate) fn thread_cpu_time() -> Option<Duration> {
    use nix::sys::resource::{UsageWho, getrusage};
    let u = getrusage(UsageWho::RUSAGE_THREAD).ok()?;
    let us = |t: nix::sys::time::TimeVal| t.tv_sec() * 1_000_000 + t.tv_usec();
    u64::try_from(us(u.user_time()) + us(u.system_time())).ok().map(Duration::from_micros)
}

/// Where the system has no per-thread usage (macOS), the thread's clock.
#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd", target_os = "openbsd")))]
pub(crate) fn thread_cpu_time() -> Option<Duration> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    u64::try_from(t.tv_sec).ok().map(|s| Duration::from_secs(s) + Duration::from_nanos(t.tv_nsec as u64))
}
