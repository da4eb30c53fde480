//! Integration tests of the runner: real matches between the test algos of `tests/algos/`,
//! replayed and verified exactly; start scripts, events, presets and refused configs. Each
//! misbehaviour's official treatment: runner_misbehaviour.rs; stderr: runner_stderr.rs.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};
use terminal_core::engine::config::Config;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::engine::presets::preset;
use terminal_core::replay::read_replay;
use terminal_core::runner::{MatchEvent, MatchSpec, ReplayTarget, SeatSpec, run_match_blocking, start_match};

#[path = "../../tests/common/corpus.rs"]
mod corpus;
#[path = "../../tests/common/matches.rs"]
mod matches;
#[path = "../../tests/common/processes.rs"]
mod processes;
use corpus::algo;
use matches::{action_frame0, assert_exact, base_config, reads_test_algos, replay_of, run, spec};
use processes::assert_no_leftovers;

#[test]
fn builder_vs_random_is_verified_exact() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = spec("py-builder", "py-random", dir.path());
    s.seed = Some(7);
    let r = run(s);
    assert_exact(&r.replay_path);
    let replay = replay_of(&r);
    let end = replay.end_frame().and_then(|f| f.end_stats.clone()).expect("end stats");
    assert_eq!(end.players[0].name, "py-builder");
    assert_eq!(end.players[1].name, "py-random");
    assert_eq!(end.winner, r.winner);
    assert!(r.players.iter().all(|p| !p.crashed && p.hard_timeouts.is_empty()));
    let turns_played = if r.turns == 100 { 100 } else { r.turns + 1 };
    assert_eq!(r.overhead.turns as i32, turns_played);
    // Per-turn compute times are recorded in the stats.
    let total: i64 = r.players[0].turn_times_ms.iter().sum();
    assert_eq!(total, end.players[0].total_computation_time);
}

#[test]
fn idle_vs_idle_plays_100_turns() {
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run(spec("py-idle", "py-idle", dir.path()));
    assert_eq!(r.turns, 100);
    assert_eq!(r.frames, 100);
    assert_eq!([r.players[0].final_hp, r.players[1].final_hp], [30.0, 30.0]);
    assert_exact(&r.replay_path);
    // Non-empty lines = frames + 1 (config); turn frames, action frames and the end frame.
    assert_eq!(replay_of(&r).frames.len(), 201);
    // No structure left on the board: 0.0, not the -0.0 of a sum of nothing.
    let text = std::fs::read_to_string(&r.replay_path).expect("replay text");
    assert!(text.contains("\"stationary_resource_left_on_board\":0.0"), "{}", &text[text.len() - 900..]);
    assert!(!text.contains("-0.0"));
    assert!(r.overhead.mean_us() < 1000.0, "runner overhead {:?}", r.overhead);
}

#[test]
fn mirrored_builders_see_their_own_view() {
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run(spec("py-builder", "py-builder", dir.path()));
    let replay = replay_of(&r);
    // After turn 0 both built the same layout in their own view: player 2's structures
    // are the 180° rotation of player 1's.
    let f = &replay.frames[action_frame0(&replay, 0)];
    let tiles =
        |p: Player| -> BTreeSet<Tile> { f.real_units(p).filter(|(t, _)| *t < 3).map(|(_, u)| u.tile).collect() };
    let p1 = tiles(Player::One);
    assert!(!p1.is_empty());
    let rotated: BTreeSet<Tile> = p1.iter().map(|t| t.rotated()).collect();
    assert_eq!(tiles(Player::Two), rotated);
    assert!(r.rejected.is_empty(), "{:?}", r.rejected);
    assert_exact(&r.replay_path);
}

#[test]
fn a_start_script_path_works_too() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = spec("py-idle", "py-idle", dir.path());
    s.seats[0] = SeatSpec::Algo(algo("py-idle").join("run.sh"));
    s.replay = ReplayTarget::File(dir.path().join("x.replay"));
    let r = run(s.clone());
    assert_eq!(r.players[0].name, "py-idle");
    assert_eq!(r.replay_path, dir.path().join("x.replay"));
    assert_exact(&r.replay_path);
    // An existing replay file is never overwritten.
    assert!(run_match_blocking(s).is_err());
}

#[test]
fn a_rust_algo_folder_works() {
    corpus::rust_scout_binary();
    let out = tempfile::tempdir().expect("tempdir");
    let r = run(spec("rust-scout", "py-idle", out.path()));
    assert_eq!(r.players[0].name, "rust-scout");
    assert!(!r.players[0].crashed);
    assert_eq!(r.winner, 1);
    assert_exact(&r.replay_path);
}

#[test]
fn start_match_streams_events_and_can_be_cancelled() {
    let dir = tempfile::tempdir().expect("tempdir");
    let handle = start_match(spec("py-idle", "py-builder", dir.path()));
    let mut frames = 0;
    let mut started = false;
    // Per turn sent, the seats whose replies were read after it, in order.
    let mut waits: Vec<(i32, Vec<u8>)> = Vec::new();
    let result = loop {
        match handle.events.recv_timeout(Duration::from_secs(30)) {
            Ok(MatchEvent::Started { names, .. }) => {
                assert_eq!(names, ["py-idle".to_string(), "py-builder".to_string()]);
                started = true;
            }
            Ok(MatchEvent::Frame { .. }) => frames += 1,
            Ok(MatchEvent::TurnSent { turn, limits, .. }) => {
                assert_eq!(limits.max_ms, Some(35_000), "the limits in force travel with the wait");
                waits.push((turn, Vec::new()));
            }
            Ok(MatchEvent::Replied { turn, player, .. }) => match waits.last_mut() {
                Some((t, seats)) if *t == turn => seats.push(player.number()),
                _ => panic!("a reply to turn {turn} with no wait for it"),
            },
            Ok(MatchEvent::Log { .. }) => {}
            Ok(MatchEvent::Finished(r)) => break r,
            Ok(MatchEvent::Failed(e)) => panic!("match failed: {e}"),
            Err(e) => panic!("no event: {e}"),
        }
    };
    assert!(started && frames > 0);
    assert_eq!(waits.len(), usize::try_from(result.turns).unwrap_or(0) + 1, "one wait per turn: {waits:?}");
    for (i, (turn, seats)) in waits.iter().enumerate() {
        assert_eq!((*turn, seats.as_slice()), (i32::try_from(i).unwrap_or(-1), &[1u8, 2][..]), "both seats replied");
    }
    assert_no_leftovers(&result);
    assert_exact(&result.replay_path);

    // py-hang never answers turn 1; with the default 35 s hard limit only cancel ends it.
    let handle = start_match(spec("py-hang", "py-idle", dir.path()));
    let t0 = Instant::now();
    loop {
        match handle.events.recv_timeout(Duration::from_secs(30)) {
            Ok(MatchEvent::Frame { summary, .. }) if summary.turn == 1 => break,
            Ok(MatchEvent::Failed(e)) => panic!("match failed: {e}"),
            Ok(_) => {}
            Err(e) => panic!("no event: {e}"),
        }
    }
    handle.cancel();
    let cancelled = handle.wait();
    assert!(matches!(cancelled, Err(terminal_core::runner::RunnerError::Cancelled)));
    assert!(t0.elapsed() < Duration::from_secs(10));
}

/// A start script names its interpreter in its `#!` line: a `run.sh` written in Python
/// runs with Python, also when it is not executable; the log says which interpreter ran it.
#[cfg(unix)]
#[test]
fn a_start_script_runs_with_the_interpreter_its_first_line_names() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run(spec("py-run-sh-in-python", "py-idle", dir.path()));
    assert!(!r.players[0].crashed, "{:?}", r.players[0]);
    assert_eq!(r.turns, 100);
    let log = std::fs::read_to_string(r.match_log.as_ref().expect("log")).expect("read log");
    assert!(
        log.lines().any(|l| l.contains("p1: started") && l.contains("#! line names /usr/bin/env python3")),
        "{log}"
    );
    // The same script without the exec bit: run with the interpreter it names; and a
    // script without a #! line: bash.
    let not_executable = dir.path().join("python-run-sh-not-executable");
    std::fs::create_dir(&not_executable).expect("folder");
    let here = format!("here = {:?}", algo("py-run-sh-in-python").display().to_string());
    let text = std::fs::read_to_string(algo("py-run-sh-in-python").join("run.sh")).expect("run.sh");
    let text = text.replace("here = os.path.dirname(os.path.abspath(__file__))", &here);
    std::fs::write(not_executable.join("run.sh"), text).expect("write run.sh");
    std::fs::set_permissions(not_executable.join("run.sh"), std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let no_shebang = dir.path().join("run-sh-without-shebang");
    std::fs::create_dir(&no_shebang).expect("folder");
    let text = format!("exec python3 -u {:?}\n", algo("py-idle").join("algo.py").display().to_string());
    std::fs::write(no_shebang.join("run.sh"), text).expect("write run.sh");
    let mut s = spec("py-idle", "py-idle", dir.path());
    s.seats = [SeatSpec::Algo(not_executable), SeatSpec::Algo(no_shebang)];
    reads_test_algos(&mut s);
    let r = run(s);
    assert!(r.players.iter().all(|p| !p.crashed), "{:?}", r.players);
    let log = std::fs::read_to_string(r.match_log.as_ref().expect("log")).expect("read log");
    assert!(log.lines().any(|l| l.contains("p1: started") && l.contains("run with /usr/bin/env python3")), "{log}");
    assert!(log.lines().any(|l| l.contains("p2: started") && l.contains("run with bash (no #! line)")), "{log}");
}

/// What the 2022 algos of the real `compat-mode-4` replays were sent: the config line those
/// replays carry, which is the one we send, byte for byte — 7 unit entries, none at index 7,
/// where a 2022 kit reads its upgrade at start-up (it cannot start on it). What followed, in
/// both replays: no unit placed in 100 turns, neither player flagged crashed, and both
/// players' turns timed alike (2–16 ms each, within 1 ms of each other, whatever the algo):
/// no algo answered, and the engine, waiting for ever, read their closed stdout as empty
/// replies (docs/runner.md).
#[test]
fn the_2022_algos_under_compat_mode_4_were_sent_the_legacy_config_line() {
    let ours = preset("compat-mode-4").expect("compat-mode-4 preset").to_line();
    let mut files = terminal_core::verify::collect_replays(&[corpus::replay("compat-mode-4")]);
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    for f in files {
        let mut text = String::new();
        let file = std::fs::File::open(&f).expect("replay");
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(file), &mut text).expect("gzip text");
        let config_line = text.lines().find(|l| !l.trim().is_empty()).expect("config line");
        assert_eq!(config_line, ours, "{}", f.display());
        let config: serde_json::Value = serde_json::from_str(config_line).expect("JSON");
        assert_eq!(config["unitInformation"].as_array().map(Vec::len), Some(7));
        assert_eq!(config["timingAndReplay"]["waitForever"], serde_json::Value::from(true));
        let replay = read_replay(&f).expect("replay");
        assert!(replay.frames.iter().all(|fr| fr.events.spawn.is_empty()), "{}: a unit was placed", f.display());
        let end = replay.end_frame().and_then(|fr| fr.end_stats.clone()).expect("end stats");
        assert_eq!(end.turns, 100);
        assert!(end.players.iter().all(|p| !p.crashed && p.time_damage_taken == 0));
        for t in 0..100 {
            let fr = &replay.frames[action_frame0(&replay, t)];
            let [a, b] = [fr.stats[0].time_ms, fr.stats[1].time_ms];
            assert!((2..=16).contains(&a) && (2..=16).contains(&b) && (a - b).abs() <= 1, "turn {t}: {a} and {b} ms");
        }
    }
}

/// A config asking for rules the engine does not know (a `mechanics` value no replay shows,
/// players in different compatibility modes) is refused before anything starts, with the
/// keys named: a game under other rules is never played silently.
#[test]
fn configs_with_rules_the_engine_does_not_simulate_are_refused() {
    let shared = corpus::replays().join("../configs");
    let mut raw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(shared.join("legacy-2018.json")).expect("legacy config"))
            .expect("JSON");
    raw["mechanics"]["meleeMultiplier"] = serde_json::Value::from(0.5);
    raw["mechanics"]["newRule"] = serde_json::Value::from(1);
    let melee = Config::from_value(raw).expect("patched config");
    let err = melee.check_simulated().expect_err("melee damage is not simulated");
    assert!(err.keys.iter().any(|k| k.starts_with("mechanics.meleeMultiplier")), "{err}");
    assert!(err.keys.iter().any(|k| k == "mechanics.newRule"), "{err}");
    let mut raw = base_config().raw.clone();
    raw["seasonCompatibilityModeP1"] = serde_json::Value::from(4);
    let mixed = Config::from_value(raw).expect("patched config");
    assert_eq!(
        mixed.check_simulated().expect_err("one player in mode 4").keys,
        vec!["seasonCompatibilityModeP1 = 4 with a current-format config".to_string()]
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = MatchSpec::new(algo("py-idle"), algo("py-idle"), Arc::new(melee));
    s.replay = ReplayTarget::Dir(dir.path().to_path_buf());
    match run_match_blocking(s) {
        Err(terminal_core::runner::RunnerError::Config(m)) => assert!(m.contains("mechanics.meleeMultiplier"), "{m}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0, "no replay was written");
    for preset in terminal_core::engine::presets::PRESETS {
        let c = terminal_core::engine::presets::preset(preset.0).expect("preset");
        assert!(c.check_simulated().is_ok(), "{} is simulated", preset.0);
    }
}

/// Under each 2018–2019 preset two of our algos play a whole match; the replay is written in
/// the 2018–2019 format and re-verifies frame for frame.
#[test]
fn matches_under_the_2018_2019_presets_reverify_exactly() {
    for slug in ["legacy-2018", "legacy-2019-s3", "legacy-2019-cmu", "compat-mode-4"] {
        let config = Arc::new(preset(slug).expect("legacy preset"));
        let dir = tempfile::tempdir().expect("tempdir");
        let mut s = MatchSpec::new(algo("py-builder"), algo("py-random"), config);
        s.replay = ReplayTarget::Dir(dir.path().to_path_buf());
        let r = run(s);
        let replay = read_replay(&r.replay_path).expect("readable");
        assert!(replay.legacy, "{slug}: written in the 2018–2019 format");
        assert!(replay.frames.len() > 50, "{slug}: a real game ({} frames)", replay.frames.len());
        assert_exact(&r.replay_path);
    }
}
