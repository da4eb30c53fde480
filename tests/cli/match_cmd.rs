//! `terminal-studio match` on the command line: its summary and replay, its exit codes, and
//! its algos stopped when it is stopped.

use crate::common::corpus::algo;
use crate::common::processes::{assert_no_leftovers, children_of};
use std::path::Path;
use std::time::{Duration, Instant};
use terminal_core::replay::read_replay;
use terminal_core::runner::MatchResult;
use terminal_core::verify::{Status, compare_replays, verify_file};

fn assert_exact(path: &Path) {
    let report = verify_file(path);
    assert_eq!(report.status, Status::Exact, "{report:?}");
    assert_eq!(report.frames_exact, report.frames_total);
}

#[test]
fn the_match_command_prints_a_summary_and_the_replay_path() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .arg("match")
        .arg(algo("py-idle"))
        .arg(algo("py-crash"))
        .args(["--config", "special-2025", "--seed", "3", "--out"])
        .arg(dir.path())
        .env("CRASH_TURN", "0")
        .output()
        .expect("binary runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    let summary = lines.next().unwrap_or_default();
    assert!(summary.starts_with("winner: p1 (py-idle)"), "{summary}");
    assert!(summary.contains("p2: crashed at turn 0"), "{summary}");
    let path = lines.next().and_then(|l| l.strip_prefix("replay: ")).expect("replay line");
    assert_exact(Path::new(path));
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .args(["match", "a", "b", "--config", "no-such-preset"])
        .output()
        .expect("binary runs");
    assert!(!bad.status.success());
}

/// Confined by default: a write outside the algo's folder is refused and named in the
/// summary; `--no-confine` lets it through (Linux: Landlock).
#[cfg(target_os = "linux")]
#[test]
fn algos_are_confined_unless_no_confine_is_given() {
    let dir = tempfile::tempdir().expect("tempdir");
    let target = dir.path().join("outside.txt");
    let play = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
            .arg("match")
            .arg(algo("py-hostile-write"))
            .arg(algo("py-idle"))
            .args(extra)
            .arg("--out")
            .arg(dir.path())
            .env("HOSTILE_TARGET", &target)
            .env("HOSTILE_REPORT", dir.path().join("report.txt"))
            .output()
            .expect("binary runs")
    };
    let confined = play(&[]);
    let summary = String::from_utf8_lossy(&confined.stdout).lines().next().unwrap_or_default().to_string();
    assert!(summary.contains("p1: crashed at turn 1, confinement: denied write to"), "{summary}");
    assert!(!target.exists());
    let free = play(&["--no-confine"]);
    let summary = String::from_utf8_lossy(&free.stdout).lines().next().unwrap_or_default().to_string();
    assert!(!summary.contains("crashed"), "{summary}");
    assert!(target.is_file());
}

#[test]
fn the_match_command_stops_its_algos_on_sigterm() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .arg("match")
        .arg(algo("py-hang"))
        .arg(algo("py-idle"))
        .arg("--out")
        .arg(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("binary runs");
    // Wait until both algos run (py-hang then hangs at turn 1 for the default 35 s).
    let deadline = Instant::now() + Duration::from_secs(10);
    let algos = loop {
        let c = children_of(child.id());
        if c.len() == 2 {
            break c;
        }
        assert!(Instant::now() < deadline, "algos did not start");
        std::thread::sleep(Duration::from_millis(20));
    };
    // Then until turn 0 is played: the match log is written out at the end of each turn.
    let turn_0_logged = || {
        let entries = std::fs::read_dir(dir.path()).into_iter().flatten().flatten();
        entries
            .into_iter()
            .any(|e| e.file_name().to_string_lossy().ends_with(".match.log") && e.metadata().is_ok_and(|m| m.len() > 0))
    };
    while !turn_0_logged() {
        assert!(Instant::now() < deadline, "turn 0 was not played");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).expect("pid"));
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).expect("kill");
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(130));
    let r = MatchResult {
        players: [
            terminal_core::runner::PlayerResult { pid: Some(algos[0]), ..Default::default() },
            terminal_core::runner::PlayerResult { pid: Some(algos[1]), ..Default::default() },
        ],
        ..Default::default()
    };
    assert_no_leftovers(&r);
}

/// `match ghost:R:1 ghost:R:2`, with no `--config`, plays R's own ruleset and writes R again.
#[test]
fn ghosts_on_the_command_line_replay_a_recorded_match() {
    let recorded = crate::common::corpus::first_of("special-2025");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .arg("match")
        .arg(format!("ghost:{}:1", recorded.display()))
        .arg(format!("ghost:{}:2", recorded.display()))
        .arg("--out")
        .arg(dir.path())
        .output()
        .expect("binary runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let path = text.lines().find_map(|l| l.strip_prefix("replay: ")).expect("replay line");
    let (a, b) = (read_replay(&recorded).expect("recorded"), read_replay(Path::new(path)).expect("played"));
    let m = compare_replays(&a.frames, &b.frames);
    assert!(m.is_exact(), "{m:?}");
}

/// A seat that is neither an algo nor a ghost stops the command before anything starts.
#[test]
fn a_typo_in_an_algo_path_is_an_error_not_a_lost_match() {
    let dir = tempfile::tempdir().expect("tempdir");
    let typo = dir.path().join("py-idel");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .arg("match")
        .arg(algo("py-idle"))
        .arg(&typo)
        .arg("--out")
        .arg(dir.path().join("replays"))
        .output()
        .expect("binary runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&typo.display().to_string()), "the path is named: {err}");
    assert!(!dir.path().join("replays").exists(), "no match was started");
    let ghost = std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .args(["match", "ghost:/no/such.replay:1"])
        .arg(algo("py-idle"))
        .output()
        .expect("binary runs");
    assert_eq!(ghost.status.code(), Some(2), "{ghost:?}");
    assert!(String::from_utf8_lossy(&ghost.stderr).contains("/no/such.replay"));
}

/// An algo folder without a start script is played as the official engine plays it: the
/// player fails to load (`FailedToLoad`, crashed at turn 0) and the replay is written; the
/// command warns why.
#[test]
fn an_algo_folder_without_run_sh_fails_to_load_in_a_written_replay() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .arg("match")
        .arg(algo("no-start-script"))
        .arg(algo("py-idle"))
        .arg("--out")
        .arg(dir.path())
        .output()
        .expect("binary runs");
    assert!(out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no run.sh") && err.contains("FailedToLoad"), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("winner: p2 (py-idle)"), "{text}");
    let path = text.lines().find_map(|l| l.strip_prefix("replay: ")).expect("replay line");
    let replay = read_replay(Path::new(path)).expect("replay");
    let end = replay.end_frame().expect("end frame");
    assert_eq!(end.turn_info.turn, 0);
    let stats = end.end_stats.as_ref().expect("end stats");
    assert_eq!(stats.players[0].name, "FailedToLoad");
    assert!(stats.players[0].crashed && !stats.players[1].crashed);
    assert_eq!(end.stats[0].hp, -1.0);
    assert_exact(Path::new(path));
}

/// `match` refuses, with exit 2 and the keys named, a 2018–2019 config asking for a rule no
/// real replay shows (melee damage); the same config without it is played.
#[test]
fn a_config_with_an_unknown_legacy_rule_is_refused_naming_its_keys() {
    let dir = tempfile::tempdir().expect("tempdir");
    let shared = crate::common::corpus::replays().join("../configs/legacy-2019-s3.json");
    let mut raw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(shared).expect("config")).expect("JSON");
    raw["mechanics"]["meleeMultiplier"] = serde_json::Value::from(0.5);
    let config = dir.path().join("melee.json");
    std::fs::write(&config, raw.to_string()).expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .arg("match")
        .arg(algo("py-idle"))
        .arg(algo("py-idle"))
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(dir.path())
        .output()
        .expect("binary runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("mechanics.meleeMultiplier") && err.contains("not simulate"), "{err}");
}

/// A confined algo that imports a module of its parent folder crashes with Python's bare
/// `ModuleNotFoundError`: the summary and the match log say that confinement refused it,
/// which folders an algo may read and how to allow it; with `--no-confine` it plays.
#[cfg(target_os = "linux")]
#[test]
fn a_module_refused_by_confinement_is_explained() {
    let dir = tempfile::tempdir().expect("tempdir");
    let play = |extra: &[&str], out: &Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
            .arg("match")
            .arg(algo("py-parent-import/algo"))
            .arg(algo("py-idle"))
            .args(extra)
            .arg("--out")
            .arg(out)
            .output()
            .expect("binary runs")
    };
    let confined_dir = dir.path().join("confined");
    let confined = play(&[], &confined_dir);
    let summary = String::from_utf8_lossy(&confined.stdout).lines().next().unwrap_or_default().to_string();
    assert!(summary.contains("p1: crashed"), "{summary}");
    for needed in [
        "confinement: module \"shared_moves\" not found",
        "shared_moves.py is outside the folders it may read",
        "may read only its own folder",
        "--no-confine",
        "the official engine ships only the algo's folder",
    ] {
        assert!(summary.contains(needed), "the summary does not say {needed:?}: {summary}");
    }
    let logs: Vec<String> = walk(&confined_dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "log" || e == "txt"))
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    assert!(
        logs.iter().any(|l| l.contains("confinement: module \"shared_moves\" not found") && l.contains("--no-confine")),
        "no log of the match says that confinement refused the module: {} logs",
        logs.len()
    );
    let free = play(&["--no-confine"], &dir.path().join("free"));
    let summary = String::from_utf8_lossy(&free.stdout).lines().next().unwrap_or_default().to_string();
    assert!(!summary.contains("crashed") && !summary.contains("confinement"), "{summary}");
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
