//! Which rule a confined algo broke, for the one line the match log and the summary give
//! it. The process watch knows (it stopped the algo), and so does a Windows Job Object (its
//! messages say what it refused: `SeatPlan::seen_hit`); the kernel's signals say it for the
//! CPU and file-size limits of a program that does not catch them. For the rest the only
//! witness is what the algo said last on stderr — Python's `PermissionError`,
//! `MemoryError`, `OSError: [Errno 27] File too large` — so those are heuristics: an algo
//! that hides its errors, or prints a misleading one, is named wrongly or not at all.

use super::bytes;
use std::path::{Path, PathBuf};

/// A rule a confined algo broke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleHit {
    /// Seen by the watch: it killed the tree.
    Processes { limit: u32, seen: usize },
    /// Said by the Job Object (Windows): it refused new processes past the limit.
    ProcessesRefused { limit: u32, refused: usize },
    /// From `MemoryError` or its kin on stderr, or said by the Job Object (Windows).
    Memory { limit: u64 },
    /// SIGXFSZ, or `File too large` on stderr.
    FileSize { limit: u64 },
    /// `Too many open files` on stderr.
    OpenFiles { limit: u64 },
    /// SIGXCPU (the kernel's SIGKILL at the hard end follows it 5 s later; a program that
    /// ignores SIGXCPU is not named).
    Cpu { seconds: u64 },
    /// A write (or creation) in a folder it may only read, or the creation of a file
    /// anywhere outside its folders.
    DeniedWrite(String),
    /// Access to a file outside every folder it may read.
    DeniedAccess(String),
    /// A module or file it did not find, that is there outside every folder it may read
    /// (Python's `ModuleNotFoundError` for a module of a parent folder, `FileNotFoundError`):
    /// what it looked for, and where that is.
    OutsideRead { what: String, path: String },
    /// A refused operation without a path next to `connect`, `bind` or `socket`.
    DeniedNetwork,
    /// Processes it started that had left its process group, still running at the end:
    /// ended with the match (Linux).
    LeftGroup { count: usize },
}

impl std::fmt::Display for RuleHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RuleHit::Processes { limit, seen } => write!(f, "process limit {limit} reached ({seen} processes)"),
            RuleHit::ProcessesRefused { limit, refused: 1 } => {
                write!(f, "process limit {limit} reached: a new process was refused")
            }
            RuleHit::ProcessesRefused { limit, refused } => {
                write!(f, "process limit {limit} reached: {refused} new processes were refused")
            }
            RuleHit::Memory { limit } => write!(f, "memory limit {} reached", bytes(*limit)),
            RuleHit::FileSize { limit } => write!(f, "file size limit {} reached", bytes(*limit)),
            RuleHit::OpenFiles { limit } => write!(f, "open files limit {limit} reached"),
            RuleHit::Cpu { seconds } => write!(f, "CPU time limit {seconds} s reached"),
            RuleHit::DeniedWrite(p) => write!(f, "denied write to {p}"),
            RuleHit::DeniedAccess(p) => write!(f, "denied access to {p} (outside the folders it may read); {ALLOW}"),
            RuleHit::OutsideRead { what, path } => {
                write!(
                    f,
                    "{what} not found: {path} is outside the folders it may read, so confinement refused it; {ALLOW}"
                )
            }
            RuleHit::DeniedNetwork => write!(f, "denied a network connection (TCP connect or bind)"),
            RuleHit::LeftGroup { count } => {
                write!(f, "{count} process(es) it started outside its process group ended with the match")
            }
        }
    }
}

/// What a refused read says after its path: which folders an algo may read, and how to let
/// it read more.
const ALLOW: &str = "a confined algo may read only its own folder, its temp folder, the system's folders and its \
    interpreter's (docs/runner.md, Confinement); to allow more, run it with --no-confine (or untick \
    \"Confine algos\" in the studio), but the official engine ships only the algo's folder: copy what it needs \
    into it";

/// What the diagnosis needs to know of the seat's confinement.
pub struct Seen<'a> {
    pub memory: u64,
    pub file_size: u64,
    pub open_files: u64,
    pub cpu_seconds: Option<u64>,
    pub algo_dir: &'a Path,
    pub read: &'a [PathBuf],
    pub write: &'a [PathBuf],
    /// The algo's exit status as the runner shows it (`signal: 25 (SIGXFSZ)`).
    pub exit_status: Option<&'a str>,
    /// Its last stderr lines, oldest first.
    pub stderr_tail: &'a [String],
}

/// The rule the algo most likely broke, if its end shows one.
pub(crate) fn diagnose(s: &Seen<'_>) -> Option<RuleHit> {
    let status = s.exit_status.unwrap_or("");
    if status.contains("SIGXFSZ") {
        return Some(RuleHit::FileSize { limit: s.file_size });
    }
    if let Some(seconds) = s.cpu_seconds
        && status.contains("SIGXCPU")
    {
        return Some(RuleHit::Cpu { seconds });
    }
    // The error that ended it is the last one it wrote.
    for line in s.stderr_tail.iter().rev() {
        if let Some(hit) = from_line(s, line) {
            return Some(hit);
        }
    }
    None
}

fn from_line(s: &Seen<'_>, line: &str) -> Option<RuleHit> {
    const MEMORY: &[&str] = &["MemoryError", "Cannot allocate memory", "std::bad_alloc", "memory allocation of"];
    if MEMORY.iter().any(|m| line.contains(m)) {
        return Some(RuleHit::Memory { limit: s.memory });
    }
    if line.contains("File too large") {
        return Some(RuleHit::FileSize { limit: s.file_size });
    }
    if line.contains("Too many open files") {
        return Some(RuleHit::OpenFiles { limit: s.open_files });
    }
    if let Some(hit) = missing_outside(s, line) {
        return Some(hit);
    }
    if !line.contains("Permission denied") && !line.contains("Operation not permitted") {
        return None;
    }
    match denied_path(line) {
        Some(path) => classify(s, &path),
        None if s.stderr_tail.iter().any(|l| ["connect", "bind(", "socket"].iter().any(|w| l.contains(w))) => {
            Some(RuleHit::DeniedNetwork)
        }
        None => None,
    }
}

/// A module or file the algo did not find that is there, outside every folder it may read.
fn missing_outside(s: &Seen<'_>, line: &str) -> Option<RuleHit> {
    if let Some((_, rest)) = line.split_once("No module named ") {
        let module = rest.trim().trim_matches(|c| c == '\'' || c == '"');
        let top = module.split('.').next().filter(|m| !m.is_empty())?;
        // Where Python would have found it: the algo's folder's parents (a shared module
        // beside the algos, a `sys.path` entry of `..`).
        let found = s
            .algo_dir
            .ancestors()
            .skip(1)
            .find_map(|dir| [dir.join(format!("{top}.py")), dir.join(top)].into_iter().find(|p| p.exists()))?;
        return outside(s, &found)
            .then(|| RuleHit::OutsideRead { what: format!("module {module:?}"), path: home_short(&found) });
    }
    let (_, rest) = line.split_once("No such file or directory: ")?;
    let p = Path::new(rest.trim().trim_matches(|c| c == '\'' || c == '"'));
    let full = if p.is_absolute() { p.to_path_buf() } else { s.algo_dir.join(p) };
    (full.exists() && outside(s, &full))
        .then(|| RuleHit::OutsideRead { what: format!("file {}", p.display()), path: home_short(&full) })
}

/// Whether `path` is outside every folder the algo may read or write.
fn outside(s: &Seen<'_>, path: &Path) -> bool {
    let full = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    !s.read.iter().chain(s.write).any(|r| full.starts_with(r))
}

/// The path a refusal names: Python's `…: 'path'`, or a shell's `path: Permission denied`.
fn denied_path(line: &str) -> Option<String> {
    if let Some((_, rest)) = line.split_once("Permission denied: ") {
        let p = rest.trim().trim_matches(|c| c == '\'' || c == '"');
        return (!p.is_empty()).then(|| p.to_string());
    }
    let before = line.split(": Permission denied").next()?;
    let p = before.rsplit(": ").next()?.trim();
    (p.starts_with('/') || p.starts_with('.')).then(|| p.to_string())
}

/// Whether a refused path was a write in a readable folder or outside all of them.
fn classify(s: &Seen<'_>, path: &str) -> Option<RuleHit> {
    let p = Path::new(path);
    let full = if p.is_absolute() { p.to_path_buf() } else { s.algo_dir.join(p) };
    let full = full.canonicalize().unwrap_or(full);
    if s.write.iter().any(|w| full.starts_with(w)) {
        // Its own folders: a plain permission problem, not confinement.
        return None;
    }
    let shown = home_short(&full);
    // Landlock refuses on opening, after the lookup: a refused path that is not there was
    // being created, a write.
    if !full.exists() || s.read.iter().any(|r| full.starts_with(r)) {
        Some(RuleHit::DeniedWrite(shown))
    } else {
        Some(RuleHit::DeniedAccess(shown))
    }
}

/// `~/…` for a path in the runner's home folder.
fn home_short(p: &Path) -> String {
    match std::env::var_os("HOME").map(PathBuf::from).and_then(|h| p.strip_prefix(h).ok().map(Path::to_path_buf)) {
        Some(rest) => format!("~/{}", rest.display()),
        None => p.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen<'a>(tail: &'a [String], status: Option<&'a str>, read: &'a [PathBuf], write: &'a [PathBuf]) -> Seen<'a> {
        Seen {
            memory: 2 << 30,
            file_size: 64 << 20,
            open_files: 1024,
            cpu_seconds: Some(100),
            algo_dir: Path::new("/algos/a"),
            read,
            write,
            exit_status: status,
            stderr_tail: tail,
        }
    }

    #[test]
    fn python_errors_name_their_rules() {
        let read = [PathBuf::from("/usr"), PathBuf::from("/algos/a")];
        let write = [PathBuf::from("/tmp/seat")];
        let tail = |l: &str| vec!["Traceback (most recent call last):".to_string(), l.to_string()];
        let d = |t: Vec<String>| diagnose(&seen(&t, Some("exit status: 1"), &read, &write)).map(|h| h.to_string());
        assert_eq!(d(tail("MemoryError")), Some("memory limit 2 GiB reached".into()));
        assert_eq!(d(tail("OSError: [Errno 27] File too large")), Some("file size limit 64 MiB reached".into()));
        assert_eq!(
            d(tail("PermissionError: [Errno 13] Permission denied: '/usr/x'")),
            Some("denied write to /usr/x".into())
        );
        assert_eq!(
            d(tail("PermissionError: [Errno 13] Permission denied: '/srv/secret'")),
            Some("denied write to /srv/secret".into()),
            "a file that is not there was being created"
        );
        #[cfg(unix)]
        assert_eq!(
            d(tail("PermissionError: [Errno 13] Permission denied: '/'")),
            Some(format!("denied access to / (outside the folders it may read); {ALLOW}"))
        );
        assert_eq!(d(tail("PermissionError: [Errno 13] Permission denied: '/tmp/seat/f'")), None);
        let net =
            vec!["    s.connect((host, port))".to_string(), "PermissionError: [Errno 13] Permission denied".into()];
        assert_eq!(d(net), Some("denied a network connection (TCP connect or bind)".into()));
        assert_eq!(d(tail("ValueError: nothing to do with rules")), None);
    }

    #[test]
    fn a_module_or_file_outside_the_folders_it_may_read_is_named() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path().canonicalize().expect("canonical");
        let algo = root.join("algos").join("mine");
        std::fs::create_dir_all(&algo).expect("algo folder");
        std::fs::write(root.join("algos").join("shared.py"), "X = 1\n").expect("shared module");
        std::fs::write(root.join("data.txt"), "1\n").expect("a file outside");
        let read = [algo.clone()];
        let d = |line: String| {
            let tail = [line];
            let mut s = seen(&tail, Some("exit status: 1"), &read, &[]);
            s.algo_dir = &algo;
            diagnose(&s).map(|h| h.to_string())
        };
        let said = d("ModuleNotFoundError: No module named 'shared'".into()).unwrap_or_default();
        assert!(said.starts_with("module \"shared\" not found: "), "{said}");
        assert!(
            said.contains("shared.py is outside the folders it may read") && said.contains("--no-confine"),
            "{said}"
        );
        let path = root.join("data.txt").display().to_string();
        let said = d(format!("FileNotFoundError: [Errno 2] No such file or directory: '{path}'"));
        assert!(said.is_some_and(|t| t.contains("data.txt is outside") && t.contains("official engine")));
        // Not there at all, or inside what it may read: not confinement.
        let gone = d("ModuleNotFoundError: No module named 'nowhere'".into());
        assert_eq!(gone, None);
        let missing = root.join("missing.txt").display().to_string();
        let gone = d(format!("FileNotFoundError: [Errno 2] No such file or directory: '{missing}'"));
        assert_eq!(gone, None);
    }

    #[test]
    fn signals_name_their_limits() {
        let none: [PathBuf; 0] = [];
        let d = |status| diagnose(&seen(&[], Some(status), &none, &none)).map(|h| h.to_string());
        assert_eq!(d("signal: 25 (SIGXFSZ)"), Some("file size limit 64 MiB reached".into()));
        assert_eq!(d("signal: 24 (SIGXCPU)"), Some("CPU time limit 100 s reached".into()));
        assert_eq!(d("exit status: 3"), None);
    }

    #[test]
    fn refused_processes_are_counted_in_words() {
        let one = RuleHit::ProcessesRefused { limit: 8, refused: 1 };
        assert_eq!(one.to_string(), "process limit 8 reached: a new process was refused");
        let three = RuleHit::ProcessesRefused { limit: 8, refused: 3 };
        assert_eq!(three.to_string(), "process limit 8 reached: 3 new processes were refused");
    }

    #[test]
    fn a_shell_names_the_path_before_its_refusal() {
        assert_eq!(denied_path("run.sh: line 3: /home/u/x: Permission denied"), Some("/home/u/x".into()));
        assert_eq!(denied_path("PermissionError: [Errno 13] Permission denied"), None);
    }
}
