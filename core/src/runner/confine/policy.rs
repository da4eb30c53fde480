//! What confinement is asked for: on or off, the limits, and what the algo may write. The
//! defaults, each with its reason (docs/runner.md, Confinement).

use std::path::PathBuf;

/// Memory per process: 2 GiB. A Python algo of the starter kit uses well under 100 MiB and
/// a simulating one a few hundred; 2 GiB leaves room for numpy and friends while an
/// allocation without end stops long before the machine swaps. On Linux it is
/// `RLIMIT_DATA` (writable private memory), not `RLIMIT_AS`: a JVM or Go runtime reserves
/// far more address space than it ever uses, and would not start under an address-space
/// limit of this size.
pub(crate) const DEFAULT_MEMORY: u64 = 2 << 30;
/// Processes of one seat at a time: 64. An algo is one process, a start script and its
/// interpreter two or three, a multiprocessing pool one per core; 64 is generous and stops
/// a fork bomb before it hurts.
pub(crate) const DEFAULT_MAX_PROCESSES: u32 = 64;
/// Open files per process: 1024, the usual default soft limit, which some systems raise
/// to hundreds of thousands.
pub(crate) const DEFAULT_OPEN_FILES: u64 = 1024;
/// Largest file an algo may write: 64 MiB (its stderr goes to the runner, not to a file,
/// so this only bounds files it writes itself, such as a log in its temp folder).
pub(crate) const DEFAULT_FILE_SIZE: u64 = 64 << 20;

/// A file in the folder that holds an algo saying that the algos in that folder share
/// files (this project's `tests/algos/lib`): a confined algo directly in it may read the
/// whole folder, never write it.
#[cfg(unix)]
pub(crate) const SHARED_MARKER: &str = ".algos-share-this-folder";

/// How a seat's algo is confined. `Default` is confinement on, with the defaults above.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confinement {
    /// Off (`--no-confine`, the studio's "Confine algos" setting): the algo runs as the
    /// user, with nothing below enforced.
    pub enabled: bool,
    /// The algo may write its own folder (a cache, a learned table). Off by default: a
    /// downloaded algo then cannot rewrite itself or plant files for the next run.
    pub algo_folder_writable: bool,
    /// Bytes of memory per process.
    pub memory: u64,
    /// Processes of the seat at a time.
    pub max_processes: u32,
    /// Open files per process.
    pub open_files: u64,
    /// Largest file written, in bytes.
    pub file_size: u64,
    /// Folders the algo may also read (a compiled algo's binary kept elsewhere, a data
    /// set): never written.
    pub extra_read: Vec<PathBuf>,
}

impl Default for Confinement {
    fn default() -> Confinement {
        Confinement {
            enabled: true,
            algo_folder_writable: false,
            memory: DEFAULT_MEMORY,
            max_processes: DEFAULT_MAX_PROCESSES,
            open_files: DEFAULT_OPEN_FILES,
            file_size: DEFAULT_FILE_SIZE,
            extra_read: Vec::new(),
        }
    }
}

impl Confinement {
    /// No confinement at all.
    pub fn off() -> Confinement {
        Confinement { enabled: false, ..Confinement::default() }
    }

    /// CPU seconds per process for a match whose turns may each take up to `max_ms` (after a
    /// start-up allowance of `startup_ms`): twice the longest the match can last, so a
    /// single-threaded algo never reaches it and a runaway one (a thread spinning after
    /// the match thinks it idle) is stopped. `None` without a hard limit (`waitForever`).
    pub(crate) fn cpu_seconds(max_ms: Option<u64>, startup_ms: u64, turns: u64) -> Option<u64> {
        let max_ms = max_ms?;
        let longest = max_ms.saturating_mul(turns + 1).saturating_add(startup_ms);
        Some((longest.saturating_mul(2) / 1000).max(10))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_is_twice_the_longest_match_and_none_without_a_limit() {
        assert_eq!(Confinement::cpu_seconds(None, 3000, 100), None);
        // 101 turns of 5 s plus 3 s of start-up, doubled.
        assert_eq!(Confinement::cpu_seconds(Some(5000), 3000, 100), Some(1016));
        assert_eq!(Confinement::cpu_seconds(Some(1), 0, 1), Some(10), "never below 10 s");
    }
}
