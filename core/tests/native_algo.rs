//! A compiled algo (tests/algos/rust-scout) played through the runner on every platform:
//! on Unix from a `run.sh` and as the start script itself, on Windows (under Wine in CI)
//! as `run.exe` and through `run.bat`. The same checks everywhere: a verified-exact replay,
//! a hung algo skipped at the hard limit, the whole process tree (a grandchild
//! included) gone when the match ends, and a start script that exits at once crashing at
//! turn 0.
//!
//! The binary: on Unix built here with cargo; on Windows the cross-built `rust-scout.exe`
//! named by `RUST_SCOUT_EXE` (.ci/run sets it). Without it the tests fail, naming it.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use terminal_core::engine::config::Config;
use terminal_core::engine::presets::preset;
use terminal_core::runner::{MatchResult, MatchSpec, ReplayTarget, SeatSpec, run_match_blocking};
use terminal_core::verify::{Status, verify_file};

#[path = "../../tests/common/corpus.rs"]
mod corpus;

#[cfg(unix)]
fn scout_binary() -> PathBuf {
    corpus::rust_scout_binary()
}

#[cfg(windows)]
fn scout_binary() -> PathBuf {
    let exe = std::env::var_os("RUST_SCOUT_EXE")
        .map(PathBuf::from)
        .expect("RUST_SCOUT_EXE must name the Windows build of tests/algos/rust-scout (.ci/run builds it)");
    assert!(exe.is_file(), "RUST_SCOUT_EXE={} is not a file", exe.display());
    exe
}

/// An algo folder running the binary with `env` set: `run.sh` on Unix; on Windows
/// `run.exe` (a copy) without env, else `run.bat`.
fn algo_folder(root: &Path, name: &str, env: &[(&str, &str)]) -> PathBuf {
    let bin = scout_binary();
    let folder = root.join(name);
    std::fs::create_dir_all(&folder).expect("algo folder");
    if cfg!(windows) && env.is_empty() {
        std::fs::copy(&bin, folder.join("run.exe")).expect("run.exe");
    } else if cfg!(windows) {
        let sets: String = env.iter().map(|(k, v)| format!("set {k}={v}\r\n")).collect();
        std::fs::write(folder.join("run.bat"), format!("@echo off\r\n{sets}\"{}\"\r\n", bin.display()))
            .expect("run.bat");
    } else {
        let sets: String = env.iter().map(|(k, v)| format!("export {k}='{v}'\n")).collect();
        std::fs::write(folder.join("run.sh"), format!("#!/usr/bin/env bash\n{sets}exec '{}'\n", bin.display()))
            .expect("run.sh");
    }
    folder
}

fn base_config() -> Arc<Config> {
    Arc::new(preset("base-s6").expect("base-s6 preset"))
}

fn spec_of(a: PathBuf, b: PathBuf, config: Arc<Config>, out: &Path, max_ms: Option<u64>) -> MatchSpec {
    let mut s = MatchSpec::new(SeatSpec::Algo(a), SeatSpec::Algo(b), config);
    // The algo folders made here run the binary where it was built: under confinement
    // they may read (and run) it there.
    if let Some(built) = scout_binary().parent() {
        s.confine.extra_read.push(built.to_path_buf());
    }
    s.replay = ReplayTarget::Dir(out.to_path_buf());
    s.max_ms = max_ms;
    s.soft_ms = max_ms.map(|_| 0);
    s
}

fn play(a: PathBuf, b: PathBuf, config: Arc<Config>, out: &Path, max_ms: Option<u64>) -> MatchResult {
    run_match_blocking(spec_of(a, b, config, out, max_ms)).expect("match runs")
}

fn assert_exact(path: &Path) {
    let report = verify_file(path);
    assert_eq!(report.status, Status::Exact, "{report:?}");
    assert!(report.frames_total > 0);
}

#[test]
fn two_compiled_algos_play_a_verified_exact_match() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = algo_folder(dir.path(), "scout-a", &[]);
    // The second seat through the other kind of start: the binary itself on Unix, a batch
    // file on Windows.
    let b =
        if cfg!(windows) { algo_folder(dir.path(), "scout-b", &[("RUST_SCOUT_UNUSED", "1")]) } else { scout_binary() };
    let r = play(a, b, base_config(), dir.path(), None);
    assert_eq!(r.players[0].name, "scout-a");
    for p in &r.players {
        assert!(!p.crashed, "{} crashed: {p:?}", p.name);
        assert!(p.hard_timeouts.is_empty(), "{} timed out", p.name);
    }
    assert!(r.turns > 1 && [1, 2].contains(&r.winner), "{} turns, winner {}", r.turns, r.winner);
    assert_exact(&r.replay_path);
}

#[test]
fn a_hung_compiled_algo_is_skipped_at_the_hard_limit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hung = algo_folder(dir.path(), "scout-hangs", &[("RUST_SCOUT_HANG_TURN", "1")]);
    let fine = algo_folder(dir.path(), "scout-fine", &[]);
    let started = Instant::now();
    let r = play(hung, fine, base_config(), dir.path(), Some(1000));
    let p = &r.players[0];
    // From turn 1 on every turn hits the hard limit: skipped (no scouts), 1 HP each, until
    // the other side's scouts end the game.
    let expected: Vec<i32> = (1..=r.turns).collect();
    assert!(!expected.is_empty() && p.hard_timeouts == expected, "{} turns: {p:?}", r.turns);
    assert_eq!(p.time_penalties.len(), expected.len(), "{p:?}");
    assert!(!p.crashed && p.final_hp <= 0.0, "{p:?}");
    assert_eq!(r.winner, 2);
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    assert_exact(&r.replay_path);
}

#[test]
fn the_whole_process_tree_is_gone_when_the_match_ends() {
    let dir = tempfile::tempdir().expect("tempdir");
    // In the algo's own folder, which it may write here: confined, it may write nowhere
    // else the test can see.
    let heartbeat = dir.path().join("scout-with-child").join("heartbeat.txt");
    let beat = heartbeat.to_string_lossy().into_owned();
    let a = algo_folder(dir.path(), "scout-with-child", &[("RUST_SCOUT_CHILD", &beat)]);
    let b = algo_folder(dir.path(), "scout-b", &[]);
    let mut s = spec_of(a, b, base_config(), dir.path(), None);
    s.confine.algo_folder_writable = true;
    let r = run_match_blocking(s).expect("match runs");
    assert!(r.turns >= 1);
    let size = || std::fs::metadata(&heartbeat).map_or(0, |m| m.len());
    // The grandchild beats every 50 ms while alive; killing is asynchronous: wait, within a
    // deadline, for the heartbeat to stay still for twelve beats.
    let deadline = Instant::now() + Duration::from_secs(10);
    let (mut last, mut still_since) = (size(), Instant::now());
    while still_since.elapsed() < Duration::from_millis(600) {
        assert!(Instant::now() < deadline, "the grandchild is still alive after the match");
        std::thread::sleep(Duration::from_millis(20));
        if size() != last {
            (last, still_since) = (size(), Instant::now());
        }
    }
    assert!(last > 0, "the grandchild never ran: {} is empty", heartbeat.display());
}

/// A start script that ends at once (a missing interpreter, a typo) is an algo that
/// crashed at turn 0, named by its folder: not one that failed to load. On Windows its
/// process may be gone before it can be put in its Job Object.
#[test]
fn a_start_script_that_exits_at_once_crashes_at_turn_0() {
    let dir = tempfile::tempdir().expect("tempdir");
    let quits = dir.path().join("quits");
    std::fs::create_dir_all(&quits).expect("algo folder");
    if cfg!(windows) {
        std::fs::write(quits.join("run.bat"), "@exit /b 3\r\n").expect("run.bat");
    } else {
        std::fs::write(quits.join("run.sh"), "#!/usr/bin/env bash\nexit 3\n").expect("run.sh");
    }
    let fine = algo_folder(dir.path(), "scout-fine", &[]);
    let r = play(quits, fine, base_config(), dir.path(), None);
    let p = &r.players[0];
    assert_eq!(p.name, "quits", "{p:?}");
    assert!(p.load_error.is_none(), "{p:?}");
    assert!(p.crashed && p.crash_turn == Some(0), "{p:?}");
    assert_eq!(r.winner, 2);
    assert_exact(&r.replay_path);
}
