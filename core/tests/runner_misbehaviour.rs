//! The runner's official treatment of every misbehaviour (docs/protocol.md): crashes, hangs,
//! garbage, start-up output, illegal commands, slow turns and the time limits in force.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};
use terminal_core::engine::config::Config;
use terminal_core::engine::game::Rejection;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::engine::presets::preset;
use terminal_core::runner::{FAILED_TO_LOAD, MatchSpec, ReplayTarget, SeatSpec};

#[path = "../../tests/common/corpus.rs"]
mod corpus;
#[path = "../../tests/common/matches.rs"]
mod matches;
#[path = "../../tests/common/processes.rs"]
mod processes;
use corpus::algo;
use matches::{
    action_frame0, assert_exact, base_config, config_with_hp, p1_spawns_by_turn, reads_test_algos, replay_of, run, spec,
};

#[test]
fn crash_costs_starting_hp_plus_one_and_ends_the_game() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = spec("py-crash", "py-idle", dir.path());
    s.env.push(("CRASH_TURN".into(), "2".into()));
    let r = run(s);
    let p = &r.players[0];
    assert!(p.crashed);
    assert_eq!(p.crash_turn, Some(2));
    assert_eq!(p.final_hp, 30.0 - 31.0);
    assert_eq!(r.turns, 2);
    assert_eq!(r.winner, 2);
    let replay = replay_of(&r);
    let end = replay.end_frame().expect("end frame");
    assert_eq!(end.turn_info.turn, 2);
    let stats = end.end_stats.as_ref().expect("end stats");
    assert!(stats.players[0].crashed && !stats.players[1].crashed);
    // The game ends right after the crash turn's action frame 0.
    let last_action = &replay.frames[replay.frames.len() - 2];
    assert_eq!((last_action.turn_info.turn, last_action.turn_info.action_frame), (2, 0));
    let log = std::fs::read_to_string(r.match_log.as_ref().expect("match log")).expect("log");
    assert!(log.contains("crashed"), "{log}");
    assert_exact(&r.replay_path);
}

#[test]
fn an_algo_that_cannot_start_plays_as_failed_to_load() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = spec("py-idle", "py-idle", dir.path());
    s.seats[1] = SeatSpec::Algo(dir.path().join("no-such-algo"));
    let r = run(s);
    let p = &r.players[1];
    assert_eq!(p.name, FAILED_TO_LOAD);
    assert!(p.crashed && p.load_error.is_some());
    assert_eq!(p.final_hp, -1.0);
    assert_eq!((r.turns, r.winner), (0, 1));
    let replay = replay_of(&r);
    let stats = replay.end_frame().and_then(|f| f.end_stats.clone()).expect("end stats");
    assert_eq!(stats.players[1].name, FAILED_TO_LOAD);
    assert_eq!(stats.players[0].points_scored, 31.0);
    assert_exact(&r.replay_path);
}

#[test]
fn a_hung_algo_has_its_turns_skipped_and_penalised() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = spec("py-hang", "py-idle", dir.path());
    s.config = config_with_hp(3.0);
    s.soft_ms = Some(0);
    s.max_ms = Some(1000);
    let started = Instant::now();
    let r = run(s);
    let p = &r.players[0];
    // Turns 1, 2, 3 time out at the hard limit: skipped, 1 HP each (floor(1000/1000)).
    assert_eq!(p.hard_timeouts, vec![1, 2, 3]);
    assert_eq!(p.time_penalties, vec![(1, 1), (2, 1), (3, 1)]);
    assert_eq!(p.time_damage_taken, 3);
    assert!(p.final_hp <= 0.0);
    assert!(!p.crashed && !p.timeout_death);
    assert_eq!((r.turns, r.winner), (3, 2));
    assert!(started.elapsed() < Duration::from_secs(15));
    let replay = replay_of(&r);
    for turn in 1..=3 {
        let f = &replay.frames[action_frame0(&replay, turn)];
        assert!(f.stats[0].time_ms >= 1000);
        assert!(f.events.spawn.iter().all(|s| s.owner == Player::Two));
    }
    assert_exact(&r.replay_path);
}

#[test]
fn garbage_lines_are_ignored_and_the_game_goes_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run(spec("py-garbage", "py-idle", dir.path()));
    assert_eq!(r.turns, 100);
    assert!(!r.players[0].crashed);
    let issues = r.line_issues.iter().filter(|i| i.player == Player::One).count();
    assert!(issues >= 100, "{issues} line issues");
    // Its answers are consumed as its replies from turn 0 on, both lines of every turn:
    // garbage written after reading a frame is never start-up output, whatever it looks like.
    for turn in 0..100 {
        for line in [0, 1] {
            assert!(
                r.line_issues.iter().any(|i| i.player == Player::One && i.turn == turn && i.line == line),
                "no issue for line {line} of turn {turn}: {:?}",
                r.line_issues
            );
        }
    }
    assert_eq!(r.players[0].startup_lines, 0);
    let log = std::fs::read_to_string(r.match_log.as_ref().expect("match log")).expect("log");
    assert!(!log.contains("start-up output"), "{log}");
    assert!(r.rejected.is_empty());
    assert_exact(&r.replay_path);
}

/// Lines a library prints to stdout while the algo starts (before it has read anything) are
/// start-up output: logged, never its turn-0 reply, so its replies are not shifted. Even
/// lines that would be valid replies (`BANNER=json`): what counts is that they were written
/// before turn 0's frame reached the algo.
#[test]
fn start_up_output_is_not_taken_as_a_reply() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut reference = spec("py-builder", "py-idle", dir.path());
    reference.seed = Some(3);
    let reference = run(reference);
    let want = p1_spawns_by_turn(&reference);
    assert!(!want[0].is_empty(), "the builder builds at turn 0");
    for (banner, first_line) in [("pygame", "pygame 2.5.2 (SDL 2.28.3"), ("json", "[[\"FF\", 0, 13]")] {
        let mut s = spec("py-banner", "py-idle", dir.path());
        s.seed = Some(3);
        s.env.push(("BANNER".into(), banner.into()));
        let r = run(s);
        let p = &r.players[0];
        assert_eq!(p.startup_lines, 2, "{banner}");
        assert!(r.line_issues.iter().all(|i| i.player != Player::One), "{banner}: {:?}", r.line_issues);
        assert_eq!((r.turns, r.winner), (reference.turns, reference.winner), "{banner}");
        // Turn 0's structures appear at turn 0, and every later turn matches the builder's.
        assert_eq!(p1_spawns_by_turn(&r), want, "{banner}");
        let log = std::fs::read_to_string(r.match_log.as_ref().expect("match log")).expect("log");
        assert_eq!(log.matches("start-up output").count(), 2, "{log}");
        assert!(log.lines().any(|l| l.contains("p1: start-up output") && l.contains(first_line)), "{log}");
        assert_exact(&r.replay_path);
    }
}

/// A banner printed without a newline (`printf 'Loading...'` in `run.sh`) is glued to the
/// turn-0 build line: to a reader of lines that is one line, ended after turn 0's frame, so
/// it is the build line — unreadable as a whole (docs/protocol.md, Reading the reply), and the game goes on: no timeout, no
/// crash, the deploy line and every later turn read as usual.
#[test]
fn a_banner_without_a_newline_costs_only_the_line_it_is_glued_to() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut reference = spec("py-builder", "py-idle", dir.path());
    reference.seed = Some(3);
    let reference = run(reference);
    let mut s = spec("py-banner-no-newline", "py-idle", dir.path());
    s.seed = Some(3);
    let r = run(s);
    let p = &r.players[0];
    assert!(!p.crashed && p.hard_timeouts.is_empty() && p.time_penalties.is_empty(), "{p:?}");
    assert_eq!(p.startup_lines, 0);
    assert!(r.turns >= 2 && r.winner == 1, "the builder's scouts still win: {}", r.summary());
    let p1_issues: Vec<_> = r.line_issues.iter().filter(|i| i.player == Player::One).collect();
    assert!(!p1_issues.is_empty() && p1_issues.iter().all(|i| (i.turn, i.line) == (0, 0)), "{p1_issues:?}");
    // Turn 0: the build line is lost, the deploy line (its scouts) is played.
    let want = p1_spawns_by_turn(&reference);
    let got = p1_spawns_by_turn(&r);
    let mobiles = |v: &[(u8, Tile)]| v.iter().filter(|(t, _)| (3..=5).contains(t)).copied().collect::<Vec<_>>();
    assert!(got[0].iter().all(|(t, _)| (3..=5).contains(t)), "no structure at turn 0: {:?}", got[0]);
    assert!(!got[0].is_empty());
    assert_eq!(mobiles(&got[0]), mobiles(&want[0]));
    // Turn 1 builds what turn 0 would have.
    assert!(got[1].iter().any(|(t, _)| *t < 3), "{:?}", got[1]);
    let log = std::fs::read_to_string(r.match_log.as_ref().expect("match log")).expect("log");
    assert!(
        log.lines().any(|l| l.contains("p1: start-up output on stdout without a newline") && l.ends_with("Loading...")),
        "{log}"
    );
    assert!(!log.contains("no answer within the hard limit"), "{log}");
    assert_exact(&r.replay_path);
}

#[test]
fn stray_stdout_lines_shift_the_commands() {
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run(spec("py-stray", "py-idle", dir.path()));
    assert!(!r.players[0].crashed);
    assert!(r.turns >= 2);
    // Turn 0 is answered properly; at turn 1 the queued stray lines of turn 0's action
    // frames are taken as the reply (docs/protocol.md, Reading the reply).
    let turn1: Vec<_> = r.line_issues.iter().filter(|i| i.player == Player::One && i.turn == 1).collect();
    assert_eq!(turn1.len(), 2, "{:?}", r.line_issues);
    assert!(r.line_issues.iter().all(|i| i.turn > 0));
    let replay = replay_of(&r);
    let f1 = &replay.frames[action_frame0(&replay, 1)];
    assert!(f1.events.spawn.iter().all(|s| s.owner != Player::One));
    assert_exact(&r.replay_path);
}

#[test]
fn illegal_commands_are_rejected_and_logged_legal_ones_applied() {
    let dir = tempfile::tempdir().expect("tempdir");
    // As player 2, so its own-view commands go through the rotation.
    let r = run(spec("py-idle", "py-illegal", dir.path()));
    let reasons: BTreeSet<String> =
        r.rejected.iter().filter(|c| c.player == Player::Two).map(|c| format!("{:?}", c.reason)).collect();
    for want in [
        Rejection::OffBoard,
        Rejection::EnemyHalf,
        Rejection::Occupied,
        Rejection::NotAnEdge,
        Rejection::CannotAfford,
        Rejection::NoOwnStructure,
    ] {
        assert!(reasons.contains(&format!("{want:?}")), "{want:?} not in {reasons:?}");
    }
    // Rejections are reported in the player's own view.
    assert!(
        r.rejected
            .iter()
            .any(|c| c.turn == 0 && c.command.tile == Tile::new(13, 14) && c.reason == Rejection::EnemyHalf)
    );
    assert!(r.line_issues.iter().any(|i| i.message.contains("unknown shorthand")));
    // The legal wall at its own (13, 0) stands at the true (14, 27).
    let replay = replay_of(&r);
    let f = &replay.frames[action_frame0(&replay, 0)];
    assert!(f.events.spawn.iter().any(|s| s.owner == Player::Two && s.unit_type == 0 && s.tile == Tile::new(14, 27)));
    let log = std::fs::read_to_string(r.match_log.as_ref().expect("match log")).expect("log");
    assert!(log.contains("rejected"), "{log}");
    assert_exact(&r.replay_path);
}

#[test]
fn a_slow_turn_costs_one_hp_per_whole_second_over_the_soft_limit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = spec("py-slow", "py-idle", dir.path());
    s.env.push(("SLOW_SECONDS".into(), "2.5".into()));
    s.soft_ms = Some(1000);
    let r = run(s);
    let replay = replay_of(&r);
    let i = action_frame0(&replay, 1);
    let t = replay.frames[i].stats[0].time_ms;
    assert!(t >= 2500, "turn 1 took {t} ms");
    let expected = (t - 1000) / 1000;
    assert!(expected >= 1);
    let p = &r.players[0];
    assert_eq!(p.time_penalties, vec![(1, expected)]);
    assert_eq!(p.time_damage_taken, expected);
    // Shown from action frame 0 on; the turn frame still has the old HP.
    let before = replay.frames[i - 1].stats[0].hp;
    assert_eq!(replay.frames[i].stats[0].hp, before - expected as f32);
    let stats = replay.end_frame().and_then(|f| f.end_stats.clone()).expect("end stats");
    assert_eq!(stats.players[0].time_damage_taken, expected);
    assert_exact(&r.replay_path);
}

#[test]
fn a_crash_is_seen_even_when_a_child_keeps_stdout_open() {
    let dir = tempfile::tempdir().expect("tempdir");
    let folder = dir.path().join("crash-with-child");
    std::fs::create_dir(&folder).expect("folder");
    let script = format!(
        "#!/usr/bin/env bash\nsleep 600 &\nexec python3 -u \"{}\"\n",
        algo("py-crash").join("algo.py").display()
    );
    std::fs::write(folder.join("run.sh"), script).expect("run.sh");
    let mut s = spec("py-idle", "py-idle", dir.path());
    s.seats[1] = SeatSpec::Algo(folder);
    reads_test_algos(&mut s);
    s.env.push(("CRASH_TURN".into(), "1".into()));
    s.max_ms = Some(20_000);
    let t0 = Instant::now();
    let r = run(s);
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    let p = &r.players[1];
    assert_eq!(p.name, "crash-with-child");
    assert!(p.crashed && p.hard_timeouts.is_empty());
    assert_eq!(p.crash_turn, Some(1));
    assert_eq!((r.turns, r.winner), (1, 1));
    assert_exact(&r.replay_path);
}

#[test]
fn start_up_time_is_covered_by_the_start_up_allowance() {
    let dir = tempfile::tempdir().expect("tempdir");
    let folder = dir.path().join("slow-start");
    std::fs::create_dir(&folder).expect("folder");
    let script =
        format!("#!/usr/bin/env bash\nsleep 2.2\nexec python3 -u \"{}\"\n", algo("py-idle").join("algo.py").display());
    std::fs::write(folder.join("run.sh"), script).expect("run.sh");
    let mut s = spec("py-idle", "py-idle", dir.path());
    s.seats[0] = SeatSpec::Algo(folder);
    reads_test_algos(&mut s);
    s.soft_ms = Some(1000);
    // An allowance of 8 s covers the 2.2 s start-up with Python's own start-up on top, even on
    // a loaded machine (the config's default, waitTimeStartGame, is 3 s: under two builds a
    // Python start of over 0.8 s made this test fail).
    s.startup_ms = Some(8000);
    let r = run(s.clone());
    let p = &r.players[0];
    assert!(p.turn0_raw_ms.is_some_and(|t| t >= 2200), "{p:?}");
    assert_eq!(p.turn_times_ms.first(), Some(&0));
    assert_eq!(p.time_damage_taken, 0);
    assert_exact(&r.replay_path);
    // Without an allowance turn 0 is charged in full: floor((t − 1000) / 1000) ≥ 1 HP.
    s.startup_ms = Some(0);
    let r = run(s);
    let p = &r.players[0];
    let t = p.turn_times_ms.first().copied().unwrap_or(0);
    assert!(t >= 2200);
    assert_eq!(p.time_penalties, vec![(0, (t - 1000) / 1000)]);
    assert_exact(&r.replay_path);
}

/// With `waitForever` the log says that no limit is in force (not the config's 4000 ms soft
/// limit), and a slow turn costs no HP.
#[test]
fn wait_forever_is_announced_and_in_force() {
    let mut raw = base_config().raw.clone();
    raw["timingAndReplay"]["waitForever"] = serde_json::Value::from(true);
    raw["timingAndReplay"]["waitTimeBotSoft"] = serde_json::Value::from(300);
    let config = Arc::new(Config::from_value(raw).expect("patched config"));
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = MatchSpec::new(algo("py-slow"), algo("py-idle"), config);
    s.replay = ReplayTarget::Dir(dir.path().to_path_buf());
    s.env.push(("SLOW_SECONDS".into(), "0.8".into()));
    let r = run(s);
    let log = std::fs::read_to_string(r.match_log.as_ref().expect("log")).expect("read log");
    let head = log.lines().next().unwrap_or_default();
    assert!(head.contains("no time limits (waitForever"), "{head}");
    assert!(!head.contains("soft limit 300"), "{head}");
    assert_eq!(r.players[0].time_damage_taken, 0, "py-slow took over 300 ms but waitForever is set");
    assert!(r.players[0].turn_times_ms.iter().any(|&t| t > 300), "py-slow was slow: {:?}", r.players[0].turn_times_ms);
}

/// `compat-mode-4` sets `waitForever`; a hard limit asked for wins over it (written as
/// `waitForever: false` in the config the algos and the replay get), so an algo that hangs
/// has its turns skipped instead of holding the match for ever.
#[test]
fn a_hard_limit_asked_for_wins_over_wait_forever() {
    let compat = preset("compat-mode-4").expect("compat-mode-4 preset");
    assert!(compat.timing.wait_forever, "the preset sets waitForever");
    let mut raw = compat.raw.clone();
    raw["resources"]["startingHP"] = serde_json::Value::from(2.0);
    let config = Arc::new(Config::from_value(raw).expect("patched config"));
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = MatchSpec::new(algo("py-hang"), algo("py-idle"), config);
    s.replay = ReplayTarget::Dir(dir.path().to_path_buf());
    s.soft_ms = Some(0);
    s.max_ms = Some(1000);
    let started = Instant::now();
    let r = run(s);
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    let p = &r.players[0];
    assert_eq!(p.hard_timeouts, vec![1, 2]);
    assert_eq!((r.turns, r.winner), (2, 2));
    let log = std::fs::read_to_string(r.match_log.as_ref().expect("log")).expect("read log");
    let head = log.lines().next().unwrap_or_default();
    assert!(head.contains("hard limit 1000 ms") && head.contains("override the config's waitForever"), "{head}");
    let replay = replay_of(&r);
    assert!(!replay.config.timing.wait_forever, "the replay records the limit in force");
    assert_exact(&r.replay_path);
}

/// A child started in a session of its own (`setsid`) leaves the algo's process group;
/// it must end with the match all the same.
#[cfg(target_os = "linux")]
#[test]
fn a_child_in_a_session_of_its_own_ends_with_the_match() {
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run(spec("sh-setsid-child", "py-idle", dir.path()));
    assert_eq!(r.turns, 100);
    // Read beside the replay: while the child holds the stderr pipe, the result has no log.
    let log = std::fs::read_to_string(format!("{}.p1.stderr.log", r.replay_path.display())).expect("stderr log");
    let pid: u32 = log
        .lines()
        .find_map(|l| l.strip_prefix("sh-setsid-child: child pid "))
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("the algo names its child's pid on stderr: {log}"));
    let alive = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| !stat.contains(") Z ") && stat.contains("(sleep)"))
    };
    let deadline = Instant::now() + Duration::from_secs(3);
    while alive() {
        assert!(Instant::now() < deadline, "the setsid child {pid} outlived the match");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Under `compat-mode-4` (`waitForever`), algos that cannot start on its config (they need an
/// 8th unit entry) are not charged a crash: their closed stdout is read as empty replies and
/// the game is played out to turn 100, nothing placed, neither crashed — as in the real
/// replays. Without `waitForever` the same algo crashes at turn 0.
#[test]
fn under_wait_forever_a_dead_algo_is_played_out_with_empty_replies() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = Arc::new(preset("compat-mode-4").expect("compat-mode-4 preset"));
    let mut s = MatchSpec::new(algo("py-needs-eight-units"), algo("py-needs-eight-units"), config);
    s.replay = ReplayTarget::Dir(dir.path().to_path_buf());
    let r = run(s);
    assert_eq!(r.turns, 100, "{}", r.summary());
    assert!(r.players.iter().all(|p| !p.crashed && p.silent_from_turn == Some(0)), "{:?}", r.players);
    let replay = replay_of(&r);
    assert!(replay.frames.iter().all(|f| f.events.spawn.is_empty()));
    let end = replay.end_frame().and_then(|f| f.end_stats.clone()).expect("end stats");
    assert!(end.players.iter().all(|p| !p.crashed));
    let log = std::fs::read_to_string(r.match_log.as_ref().expect("log")).expect("read log");
    assert!(log.contains("with waitForever no crash is charged"), "{log}");
    assert_exact(&r.replay_path);
    // With a limit asked for, waitForever is off: the same algo crashes at turn 0.
    let config = Arc::new(preset("compat-mode-4").expect("compat-mode-4 preset"));
    let mut s = MatchSpec::new(algo("py-needs-eight-units"), algo("py-idle"), config);
    s.replay = ReplayTarget::Dir(dir.path().to_path_buf());
    s.max_ms = Some(5000);
    let r = run(s);
    assert_eq!((r.turns, r.players[0].crashed, r.players[0].crash_turn), (0, true, Some(0)), "{}", r.summary());
}
