//! Unix: the resource limits, set in the child between `fork` and `exec` so the start
//! script and everything it starts inherit them (an unprivileged process can lower its
//! limits, never raise them); on Linux also the Landlock rules put in force there, and the
//! child made the reaper of its orphans (`watch.rs`).
//!
//! `RLIMIT_NPROC` counts every process and thread of the *user*, not of the seat: on Linux
//! it is set to what the user runs now plus a margin, a backstop against a fork bomb that
//! outruns the watch, not a per-seat count (that is the watch's job); root is exempt from
//! it in the kernel, so it is not set then. Elsewhere it is not set.

use super::SeatPlan;
use nix::sys::resource::{Resource, getrlimit, setrlimit};
use std::os::unix::process::CommandExt;

/// Processes and threads the user may start beyond what runs when the seat starts.
#[cfg(target_os = "linux")]
const NPROC_MARGIN: u64 = 512;
/// Seconds between the CPU limit's SIGXCPU and the kernel's SIGKILL.
const CPU_GRACE: u64 = 5;

#[cfg(target_os = "linux")]
type Rules = Option<landlock::RulesetCreated>;
#[cfg(not(target_os = "linux"))]
type Rules = Option<()>;

/// The memory rlimit: writable memory on Linux (`policy.rs` says why), the address space
/// elsewhere (macOS does not enforce either).
#[cfg(any(target_os = "linux", target_os = "android"))]
const MEMORY: Resource = Resource::RLIMIT_DATA;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const MEMORY: Resource = Resource::RLIMIT_AS;

/// `(resource, soft, hard)` for the seat, each no higher than the hard limit in force.
fn wanted(plan: &SeatPlan) -> Vec<(Resource, u64, u64)> {
    let p = &plan.policy;
    let mut out = vec![
        (MEMORY, p.memory, p.memory),
        (Resource::RLIMIT_NOFILE, p.open_files, p.open_files),
        (Resource::RLIMIT_FSIZE, p.file_size, p.file_size),
        // No core files: a crashing algo would write its whole memory into its folder.
        (Resource::RLIMIT_CORE, 0, 0),
    ];
    if let Some(cpu) = plan.cpu_seconds {
        out.push((Resource::RLIMIT_CPU, cpu, cpu + CPU_GRACE));
    }
    #[cfg(target_os = "linux")]
    if let Some(n) = nproc() {
        out.push((Resource::RLIMIT_NPROC, n, n));
    }
    out.into_iter()
        .map(|(r, soft, hard)| {
            let in_force = getrlimit(r).map_or(u64::MAX, |(_, h)| h);
            (r, soft.min(in_force), hard.min(in_force))
        })
        .collect()
}

/// Installs the limits (and the rules) in the command's child.
pub fn install(plan: &SeatPlan, cmd: &mut std::process::Command, rules: Rules) {
    let limits = wanted(plan);
    let mut rules = Some(rules);
    // SAFETY: between fork and exec the closure only makes system calls (setrlimit, prctl,
    // landlock_restrict_self); it allocates only to report a failure.
    unsafe {
        cmd.pre_exec(move || {
            for &(r, soft, hard) in &limits {
                setrlimit(r, soft, hard).map_err(std::io::Error::from)?;
            }
            #[cfg(target_os = "linux")]
            {
                // SAFETY: a plain prctl on the calling process.
                if nix::libc::prctl(nix::libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if let Some(Some(ruleset)) = rules.take() {
                    ruleset
                        .restrict_self()
                        .map_err(|e| std::io::Error::other(format!("landlock could not be put in force: {e}")))?;
                }
            }
            #[cfg(not(target_os = "linux"))]
            let _ = rules.take();
            Ok(())
        });
    }
}

/// The `RLIMIT_NPROC` to set: what the user runs now plus a margin; `None` for root (exempt).
#[cfg(target_os = "linux")]
fn nproc() -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    let uid = own_uid()?;
    if uid == 0 {
        return None;
    }
    let mut tasks = 0u64;
    for e in std::fs::read_dir("/proc").ok()?.flatten() {
        let owned = e.metadata().is_ok_and(|m| m.uid() == uid);
        if owned && e.file_name().to_str().is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit())) {
            tasks += std::fs::read_dir(e.path().join("task")).map_or(1, |t| t.count() as u64);
        }
    }
    Some(tasks + NPROC_MARGIN)
}

/// This process's user id (the owner of its `/proc` entry).
#[cfg(target_os = "linux")]
fn own_uid() -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").ok().map(|m| m.uid())
}

/// What `RLIMIT_NPROC` does here, for the log.
pub(crate) fn nproc_note() -> String {
    #[cfg(target_os = "linux")]
    return if own_uid() == Some(0) {
        "; RLIMIT_NPROC not set: root is exempt from it".into()
    } else {
        format!("; RLIMIT_NPROC: the user's processes now + {NPROC_MARGIN}, a per-user backstop")
    };
    #[cfg(not(target_os = "linux"))]
    "; RLIMIT_NPROC not set: it counts all of the user's processes".into()
}
