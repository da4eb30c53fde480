//! What to run: the match specification, time limits and replay naming.

use super::confine::Confinement;
use super::seat_spec::SeatSpec;
use crate::engine::config::{Config, ConfigError};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where the replay goes.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplayTarget {
    /// A folder; the file gets a unique name (`<algo1>-vs-<algo2>-<ms>-<pid>-<n>.replay`).
    Dir(PathBuf),
    /// This exact file (it must not exist yet).
    File(PathBuf),
}

/// Default stderr bytes kept per algo.
pub(crate) const DEFAULT_STDERR_CAP: u64 = 1 << 20;

/// A match to run.
#[derive(Debug, Clone)]
pub struct MatchSpec {
    /// Who plays player 1 and player 2: algo folders (holding `run.sh`) or start scripts,
    /// ghosts of recorded replays, or people at the studio.
    pub seats: [SeatSpec; 2],
    pub config: Arc<Config>,
    pub replay: ReplayTarget,
    /// Exported to both algos as `TERMINAL_STUDIO_SEED` and, unless `env` sets it,
    /// `ALGO_SEED`. The engine itself is deterministic.
    pub seed: Option<u64>,
    /// Overrides of `waitTimeBotSoft` / `waitTimeBotMax` (ms). They are written into the
    /// config (so the algos, the replay and the verifier all see the limits in force); over
    /// a config with `waitForever` they win: it is written as `false`.
    pub soft_ms: Option<u64>,
    pub max_ms: Option<u64>,
    /// Start-up allowance (ms) subtracted from turn 0's time; default `waitTimeStartGame`.
    pub startup_ms: Option<u64>,
    /// Stderr bytes kept per algo.
    pub stderr_cap: u64,
    /// Echo algo stderr and runner messages to our stderr.
    pub verbose: bool,
    /// Extra environment for both algo processes.
    pub env: Vec<(String, String)>,
    /// `fsync` the replay when the match ends (default). The arena turns it off: an fsync
    /// costs about as much as a whole match of fast algos, and its result line (synced)
    /// is what a resume relies on.
    pub sync_replay: bool,
    /// Every frame reaches the event receiver (a live view rebuilds the match from them): the
    /// events queue without bound, so the match never waits for the view. Off, frame events
    /// beyond the channel's capacity are dropped and a slow receiver never stalls the match.
    pub every_frame_event: bool,
    /// How the algos are confined (on by default; docs/runner.md, Confinement).
    pub confine: Confinement,
}

impl MatchSpec {
    pub fn new(seat1: impl Into<SeatSpec>, seat2: impl Into<SeatSpec>, config: Arc<Config>) -> MatchSpec {
        MatchSpec {
            seats: [seat1.into(), seat2.into()],
            config,
            replay: ReplayTarget::Dir(PathBuf::from("replays")),
            seed: None,
            soft_ms: None,
            max_ms: None,
            startup_ms: None,
            stderr_cap: DEFAULT_STDERR_CAP,
            verbose: false,
            env: Vec::new(),
            sync_replay: true,
            every_frame_event: false,
            confine: Confinement::default(),
        }
    }
}

/// Time limits in force for a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeLimits {
    pub soft_ms: u64,
    /// `None` with `waitForever`.
    pub max_ms: Option<u64>,
    pub startup_ms: u64,
}

/// The config with the spec's time-limit overrides written into `timingAndReplay`. A
/// limit asked for wins over the config's `waitForever`, which would disable it: it is
/// set to `false` (`overrides_wait_forever` tells the log).
pub(crate) fn effective_config(spec: &MatchSpec) -> Result<Arc<Config>, ConfigError> {
    if spec.soft_ms.is_none() && spec.max_ms.is_none() {
        return Ok(Arc::clone(&spec.config));
    }
    let mut raw = spec.config.raw.clone();
    let Some(root) = raw.as_object_mut() else {
        return Err(ConfigError { field: String::new(), message: "the config is not a JSON object".into() });
    };
    let timing = root.entry("timingAndReplay").or_insert_with(|| Value::Object(Map::new()));
    let Some(timing) = timing.as_object_mut() else {
        return Err(ConfigError { field: "timingAndReplay".into(), message: "not an object".into() });
    };
    if let Some(v) = spec.soft_ms {
        timing.insert("waitTimeBotSoft".into(), Value::from(v));
    }
    if let Some(v) = spec.max_ms {
        timing.insert("waitTimeBotMax".into(), Value::from(v));
    }
    if overrides_wait_forever(spec) {
        timing.insert("waitForever".into(), Value::from(false));
    }
    Config::from_value(raw).map(Arc::new)
}

/// The spec asks for a time limit over a config whose `waitForever` would disable it.
pub(crate) fn overrides_wait_forever(spec: &MatchSpec) -> bool {
    spec.config.timing.wait_forever && (spec.soft_ms.is_some() || spec.max_ms.is_some())
}

pub(crate) fn time_limits(spec: &MatchSpec, config: &Config) -> TimeLimits {
    let t = &config.timing;
    TimeLimits {
        soft_ms: t.soft_ms,
        max_ms: (!t.wait_forever).then_some(t.max_ms),
        startup_ms: spec.startup_ms.unwrap_or(t.start_game_ms),
    }
}

fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' { c } else { '_' })
        .collect();
    if s.is_empty() { "algo".into() } else { s }
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A replay file name unique across threads and processes (the file is then created with
/// `create_new`, so a clash is detected rather than overwritten).
pub(crate) fn unique_replay_path(dir: &Path, name1: &str, name2: &str) -> PathBuf {
    let ms = web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    // A page has no process id (std's panics there); its matches are told apart by the rest.
    let pid = if cfg!(target_arch = "wasm32") { 0 } else { std::process::id() };
    dir.join(format!("{}-vs-{}-{ms}-{pid}-{n}.replay", sanitize(name1), sanitize(name2)))
}

/// The seat names a replay's file name was made from (`unique_replay_path`), for a replay that
/// has no end frame to name its players: a stopped or crashed match.
pub(crate) fn names_in_replay_path(path: &Path) -> Option<[String; 2]> {
    let file = path.file_name()?.to_str()?;
    let stem = file.strip_suffix(".gz").unwrap_or(file).strip_suffix(".replay")?;
    let (first, rest) = stem.split_once("-vs-")?;
    // `<name2>-<ms>-<pid>-<n>`: the three numbers come off the end.
    let mut parts = rest.rsplitn(4, '-');
    let numbers: Vec<&str> = parts.by_ref().take(3).collect();
    let second = parts.next()?;
    let all_digits = |s: &&str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (numbers.len() == 3 && numbers.iter().all(all_digits) && !first.is_empty() && !second.is_empty())
        .then(|| [first.to_string(), second.to_string()])
}

/// A file beside the replay: `<replay file name><suffix>`.
pub fn sibling(replay: &Path, suffix: &str) -> PathBuf {
    let mut s = replay.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_file_name_gives_back_the_seat_names_it_was_made_from() {
        let dir = Path::new("matches");
        let made = unique_replay_path(dir, "You", "py-builder-vs-x");
        assert_eq!(names_in_replay_path(&made), Some(["You".to_string(), "py-builder-vs-x".to_string()]));
        let gz = PathBuf::from(format!("{}.gz", made.display()));
        assert_eq!(names_in_replay_path(&gz).map(|n| n[0].clone()), Some("You".to_string()));
        assert_eq!(names_in_replay_path(Path::new("a-vs-b.replay")), None, "no numbers: not one of ours");
        assert_eq!(names_in_replay_path(Path::new("73v54.replay")), None);
    }

    #[test]
    fn overrides_are_written_into_the_config() {
        let Some(c) = crate::engine::presets::preset("base-s6") else { panic!("preset") };
        let mut spec = MatchSpec::new(PathBuf::from("a"), PathBuf::from("b"), Arc::new(c));
        spec.soft_ms = Some(1000);
        spec.max_ms = Some(1500);
        let eff = effective_config(&spec).expect("config");
        assert_eq!(eff.timing.soft_ms, 1000);
        assert_eq!(eff.timing.max_ms, 1500);
        assert!(eff.to_line().contains("\"waitTimeBotSoft\":1000"));
    }

    /// `compat-mode-4` sets `waitForever`: a hard limit asked for on the command line must
    /// be in force, not silently ignored.
    #[test]
    fn a_limit_asked_for_wins_over_wait_forever() {
        let Some(c) = crate::engine::presets::preset("compat-mode-4") else { panic!("preset compat-mode-4") };
        assert!(c.timing.wait_forever, "the preset sets waitForever");
        let mut spec = MatchSpec::new(PathBuf::from("a"), PathBuf::from("b"), Arc::new(c));
        assert_eq!(time_limits(&spec, &effective_config(&spec).expect("config")).max_ms, None);
        spec.max_ms = Some(700);
        assert!(overrides_wait_forever(&spec));
        let eff = effective_config(&spec).expect("config");
        assert!(!eff.timing.wait_forever);
        assert!(eff.to_line().contains("\"waitForever\":false"));
        assert_eq!(time_limits(&spec, &eff).max_ms, Some(700));
    }

    #[test]
    fn names_are_unique_and_safe() {
        let a = unique_replay_path(Path::new("r"), "my algo", "b/c");
        let b = unique_replay_path(Path::new("r"), "my algo", "b/c");
        assert_ne!(a, b);
        assert_eq!(a.parent(), Some(Path::new("r")));
        let name = a.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        assert!(name.starts_with("my_algo-vs-b_c-"), "{name}");
    }
}
