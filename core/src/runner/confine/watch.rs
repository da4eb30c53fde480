//! Linux: the seat's process count, watched; and its descendants, killed at the end.
//!
//! The algo's top process is made the reaper of its orphans (`limits.rs`): a process that
//! leaves the group (`setsid`), clears its environment (so the end-of-match sweep's mark is
//! gone) and loses its parent is handed to the algo's top process instead of to init, so
//! it stays in the top process's tree for as long as the top process lives. The watch
//! counts that tree every `STEP` and kills it past the limit; at the end of the match the
//! tree's descendants are killed before the top process is asked to exit. A descendant
//! whose top process has already died (a crashed algo) went to init and is only found by
//! the group kill and the mark.

use super::{HitSlot, RuleHit};
use crossbeam_channel::{Sender, bounded};
use std::collections::BTreeSet;
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the process count is looked at.
pub(crate) const STEP: Duration = Duration::from_millis(100);
/// Kill rounds at the end: a process may fork while one runs.
const ROUNDS: usize = 4;

/// The running watch; dropping it stops it.
#[derive(Debug)]
pub struct Watch {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Watch {
    /// Watches the tree of `top`: more than `max` processes records the rule in `hit` and
    /// calls `kill` (which kills the whole tree), once.
    pub fn start(top: u32, max: u32, hit: HitSlot, kill: impl Fn() + Send + 'static) -> Watch {
        let (tx, rx) = bounded::<()>(0);
        let thread = std::thread::Builder::new()
            .name(format!("algo-{top}-watch"))
            .spawn(move || {
                // The channel disconnects when the watch is dropped.
                while let Err(crossbeam_channel::RecvTimeoutError::Timeout) = rx.recv_timeout(STEP) {
                    let n = 1 + descendants(top).len();
                    if n > max as usize {
                        if let Ok(mut slot) = hit.lock() {
                            slot.get_or_insert(RuleHit::Processes { limit: max, seen: n });
                        }
                        kill();
                        return;
                    }
                    if !std::path::Path::new(&format!("/proc/{top}")).exists() {
                        return;
                    }
                }
            })
            .ok();
        Watch { stop: Some(tx), thread }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// SIGKILL to every descendant of `top` (not `top`); returns how many of them had left
/// `top`'s process group (processes meant to outlive the algo).
pub(crate) fn kill_descendants(top: u32) -> usize {
    let mut killed = BTreeSet::new();
    let mut left_group = 0;
    for _ in 0..ROUNDS {
        let new: Vec<u32> = descendants(top).into_iter().filter(|p| !killed.contains(p)).collect();
        if new.is_empty() {
            break;
        }
        for pid in new {
            left_group += usize::from(group_of(pid).is_some_and(|g| g != top));
            if let Ok(raw) = i32::try_from(pid) {
                let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(raw), nix::sys::signal::Signal::SIGKILL);
            }
            killed.insert(pid);
        }
    }
    left_group
}

/// The process group of `pid`.
fn group_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat[stat.rfind(')')? + 1..].split_whitespace().nth(2)?.parse().ok()
}

/// The living descendants of `top`, through each thread's `children` list (the cost is the
/// tree's size, not the machine's), or a look at every process's parent where the kernel
/// has no such lists.
fn descendants(top: u32) -> Vec<u32> {
    if !std::path::Path::new(&format!("/proc/{top}/task/{top}/children")).exists() {
        return descendants_by_parent(top);
    }
    let mut out = Vec::new();
    let mut queue = vec![top];
    while let Some(pid) = queue.pop() {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { continue };
        for t in tasks.flatten() {
            let Ok(text) = std::fs::read_to_string(t.path().join("children")) else { continue };
            for child in text.split_whitespace().filter_map(|c| c.parse::<u32>().ok()) {
                if child != top && !out.contains(&child) && !is_zombie(child) {
                    out.push(child);
                    queue.push(child);
                }
            }
        }
    }
    out
}

fn descendants_by_parent(top: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    let mut parents = Vec::new();
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else { continue };
        if let Some((state, ppid)) = state_and_parent(&stat)
            && state != "Z"
        {
            parents.push((pid, ppid));
        }
    }
    let mut out: Vec<u32> = Vec::new();
    let mut grew = true;
    while grew {
        grew = false;
        for &(pid, ppid) in &parents {
            if (ppid == top || out.contains(&ppid)) && !out.contains(&pid) && pid != top {
                out.push(pid);
                grew = true;
            }
        }
    }
    out
}

/// The state letter and parent of a `/proc/<pid>/stat` line.
fn state_and_parent(stat: &str) -> Option<(&str, u32)> {
    let mut rest = stat[stat.rfind(')')? + 1..].split_whitespace();
    let state = rest.next()?;
    Some((state, rest.next()?.parse().ok()?))
}

fn is_zombie(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .is_some_and(|s| state_and_parent(&s).is_some_and(|(state, _)| state == "Z"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_gives_its_state_and_parent() {
        assert_eq!(state_and_parent("12 (a b) c) S 7 12 12 0"), Some(("S", 7)));
        assert_eq!(state_and_parent("nothing"), None);
    }

    #[test]
    fn a_child_and_a_grandchild_are_found_and_killed() {
        use std::os::unix::process::CommandExt;
        // A group of its own, as an algo's top process has.
        let mut sh = std::process::Command::new("sh")
            .args(["-c", "sleep 60 & sleep 60 & wait"])
            .process_group(0)
            .spawn()
            .expect("sh runs");
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while descendants(sh.id()).len() < 2 && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(descendants(sh.id()).len(), 2);
        assert_eq!(descendants_by_parent(sh.id()).len(), 2);
        assert_eq!(kill_descendants(sh.id()), 0, "both stayed in sh's group");
        assert!(sh.wait().expect("sh ends").success(), "sh's wait returns once both are killed");
    }
}
