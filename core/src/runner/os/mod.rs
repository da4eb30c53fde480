//! What running an algo needs from the operating system, behind one interface: the pipes
//! (how many bytes wait in one, waiting until one is readable, being woken by the algo's
//! reads), the process tree (started as one unit, killed as one unit), the start command
//! for a script, and the calling thread's CPU time.
//!
//! Unix (Linux, macOS, the BSDs) and Windows each have a file; the runner's logic above
//! them is the same. Where Windows cannot see something Unix can (the fill level of a
//! pipe's write end), the runner falls back as it does on any system that cannot
//! (docs/runner.md).

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::*;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
mod windows_job_events;
#[cfg(windows)]
pub use windows::*;

#[cfg(not(any(unix, windows)))]
mod none;
#[cfg(not(any(unix, windows)))]
pub use none::*;

/// The command that starts an algo's script, and how it runs it, in words (the match log
/// says it: which interpreter ran the script).
#[derive(Debug)]
pub struct StartCommand {
    pub command: std::process::Command,
    pub how: String,
}
