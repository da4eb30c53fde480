//! Linux: finding every process an algo started, also those that left its process group
//! (`setsid`, `setpgid`) and those reparented when their parent died. Each algo process is
//! started with a mark in its environment, which everything it starts inherits; at the end
//! a sweep of `/proc` kills every process carrying the mark (only this user's processes
//! can be read, and only they can be killed). A descendant that clears its environment
//! escapes the mark; the process group still catches it unless it also left the group.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable carrying the mark.
pub(crate) const TREE_MARK_VAR: &str = "TERMINAL_STUDIO_ALGO_TREE";

/// Sweeps until one finds nothing new (a process may fork while the first one runs).
const MAX_SWEEPS: usize = 4;

static NEXT_MARK: AtomicU64 = AtomicU64::new(0);

/// A mark unique to one algo process tree of this runner.
pub(crate) fn new_mark() -> String {
    format!("{}-{}", std::process::id(), NEXT_MARK.fetch_add(1, Ordering::Relaxed))
}

/// SIGKILL to every process whose environment holds `TREE_MARK_VAR=mark`; returns the
/// process ids killed.
pub(crate) fn kill_marked(mark: &str) -> BTreeSet<i32> {
    let entry = format!("{TREE_MARK_VAR}={mark}\0");
    let me = std::process::id();
    let mut killed = BTreeSet::new();
    for _ in 0..MAX_SWEEPS {
        let found = marked_processes(entry.as_bytes(), me);
        let new: Vec<i32> = found.into_iter().filter(|p| !killed.contains(p)).collect();
        if new.is_empty() {
            break;
        }
        for pid in new {
            let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGKILL);
            killed.insert(pid);
        }
    }
    killed
}

/// Processes (other than this one) whose environment holds `entry` (`VAR=value\0`).
fn marked_processes(entry: &[u8], me: u32) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    let mut out = Vec::new();
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else { continue };
        if u32::try_from(pid).is_ok_and(|p| p == me) {
            continue;
        }
        // Another user's process (or one gone meanwhile) cannot be read: not ours.
        let Ok(environ) = std::fs::read(e.path().join("environ")) else { continue };
        if holds_entry(&environ, entry) {
            out.push(pid);
        }
    }
    out
}

/// Whether a NUL-separated environment block holds `entry` (which ends with its NUL) as a
/// whole entry.
fn holds_entry(environ: &[u8], entry: &[u8]) -> bool {
    environ.starts_with(entry) || environ.windows(entry.len() + 1).any(|w| w[0] == 0 && &w[1..] == entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_whole_entry_matches() {
        let e = b"TERMINAL_STUDIO_ALGO_TREE=12-3\0";
        assert!(holds_entry(b"A=1\0TERMINAL_STUDIO_ALGO_TREE=12-3\0B=2\0", e));
        assert!(holds_entry(b"TERMINAL_STUDIO_ALGO_TREE=12-3\0", e));
        assert!(!holds_entry(b"TERMINAL_STUDIO_ALGO_TREE=12-33\0", e));
        assert!(!holds_entry(b"XTERMINAL_STUDIO_ALGO_TREE=12-3\0", e));
    }

    #[test]
    fn a_marked_process_is_killed_and_others_are_not() {
        let mark = new_mark();
        let mut marked =
            std::process::Command::new("sleep").arg("60").env(TREE_MARK_VAR, &mark).spawn().expect("sleep runs");
        let mut other = std::process::Command::new("sleep").arg("60").spawn().expect("sleep runs");
        // A process only just started can be missed while the machine is busy (its
        // environment not readable yet); at the end of a match the algo has run for long.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        let mut killed = kill_marked(&mark);
        while !killed.contains(&(marked.id() as i32)) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(10));
            killed = kill_marked(&mark);
        }
        assert!(killed.contains(&(marked.id() as i32)), "{killed:?}");
        assert!(!killed.contains(&(other.id() as i32)));
        assert!(!marked.wait().expect("wait").success());
        let _ = other.kill();
        let _ = other.wait();
    }
}
