//! Integration tests of the runner: real matches between the test algos of `tests/algos/`,
//! asserting the official treatment of every misbehaviour (docs/protocol.md).

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use terminal_core::engine::config::Config;
use terminal_core::engine::frame::Phase;
use terminal_core::engine::game::Rejection;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::engine::presets::preset;
use terminal_core::replay::{Replay, read_replay};
use terminal_core::runner::{
    FAILED_TO_LOAD, MatchEvent, MatchResult, MatchSpec, ReplayTarget, SeatSpec, run_match_blocking, start_match,
};
use terminal_core::verify::{Status, verify_file};

#[path = "../../tests/common/corpus.rs"]
mod corpus;
#[path = "../../tests/common/processes.rs"]
mod processes;
use corpus::algo;
use processes::assert_no_leftovers;

fn base_config() -> Arc<Config> {
    Arc::new(preset("base-s6").expect("base-s6 preset"))
}

/// base-s6 with another starting HP (short games for the time-limit tests).
fn config_with_hp(hp: f64) -> Arc<Config> {
    let mut raw = base_config().raw.clone();
    raw["resources"]["startingHP"] = serde_json::Value::from(hp);
    Arc::new(Config::from_value(raw).expect("patched config"))
}

fn spec(a: &str, b: &str, dir: &Path) -> MatchSpec {
    let mut s = MatchSpec::new(algo(a), algo(b), base_config());
    s.replay = ReplayTarget::Dir(dir.to_path_buf());
    s
}

/// A test's own algo folder whose start script runs an algo of `tests/algos` by its path:
/// under confinement it may read that folder too.
fn reads_test_algos(s: &mut MatchSpec) {
    let algos = algo("py-idle").parent().expect("tests/algos").to_path_buf();
    s.confine.extra_read.push(algos);
}

fn run(spec: MatchSpec) -> MatchResult {
    let r = run_match_blocking(spec).expect("match runs");
    assert_no_leftovers(&r);
    r
}

fn assert_exact(path: &Path) {
    let report = verify_file(path);
    assert_eq!(report.status, Status::Exact, "{report:?}");
    assert_eq!(report.frames_exact, report.frames_total);
    assert!(report.frames_total > 0);
}

fn replay_of(r: &MatchResult) -> Replay {
    read_replay(&r.replay_path).expect("replay readable")
}

/// Index of turn `turn`'s action frame 0 in the replay's frames.
fn action_frame0(replay: &Replay, turn: i32) -> usize {
    replay
        .frames
        .iter()
        .position(|f| f.turn_info.phase == Phase::Action && f.turn_info.turn == turn && f.turn_info.action_frame == 0)
        .expect("action frame 0 of the turn")
}

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

/// Player 1's spawn events of action frame 0, turn by turn: what it built and deployed.
fn p1_spawns_by_turn(r: &MatchResult) -> Vec<Vec<(u8, Tile)>> {
    let replay = replay_of(r);
    let last = if r.turns == 100 { 99 } else { r.turns };
    (0..=last)
        .map(|t| {
            let f = &replay.frames[action_frame0(&replay, t)];
            f.events.spawn.iter().filter(|s| s.owner == Player::One).map(|s| (s.unit_type, s.tile)).collect()
        })
        .collect()
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
fn a_stderr_flood_is_capped_in_the_log() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = spec("py-stderr-flood", "py-idle", dir.path());
    s.env.push(("STDERR_MB".into(), "5".into()));
    s.env.push(("FLOOD_TURNS".into(), "2".into()));
    let cap = s.stderr_cap;
    let r = run(s);
    assert_eq!(r.turns, 100);
    let p = &r.players[0];
    let log = p.stderr_log.as_ref().expect("stderr log");
    let size = std::fs::metadata(log).expect("log file").len();
    // Turn markers (one line per turn, again over the tail) and the notes are not counted
    // against the cap.
    assert!(size <= cap + 600 + 2 * 20 * 100, "log is {size} bytes");
    assert!(size >= cap / 2);
    assert!(p.stderr_bytes >= 5 << 20);
    assert!(p.stderr_dropped_bytes >= (4 << 20), "{p:?}");
    let text = std::fs::read_to_string(log).expect("log text");
    assert!(text.contains("bytes of stderr dropped"), "{}", &text[text.len().saturating_sub(3000)..]);
    // The tail: the last turn's line is kept.
    assert!(text.trim_end().ends_with(&"y".repeat(100)), "{}", &text[text.len().saturating_sub(300)..]);
    // Every turn keeps its marker after the cap is reached.
    assert!((0..100).all(|t| text.contains(&format!("--- turn {t} ---\n"))));
    assert_exact(&r.replay_path);
}

/// Over the cap the log keeps its head and its tail: a crash's traceback, written last, is
/// kept after a 100 MB line and megabytes of flood, and the log says exactly what is missing.
#[test]
fn the_stderr_cap_keeps_the_head_and_the_tail() {
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run(spec("py-stderr-crash", "py-idle", dir.path()));
    let p = &r.players[0];
    assert_eq!((p.crashed, p.crash_turn), (true, Some(2)), "{p:?}");
    let log = p.stderr_log.as_ref().expect("stderr log");
    let text = std::fs::read_to_string(log).expect("log text");
    let tail = &text[text.len().saturating_sub(2000)..];
    assert!(text.contains("Traceback (most recent call last)"), "{tail}");
    assert!(
        tail.trim_end().ends_with("RuntimeError: py-stderr-crash: the end of the log is what a player needs"),
        "{tail}"
    );
    // The long line: its first 64 KiB, and how much of it is missing.
    let long = 100_000_000 - 65_536;
    assert!(text.contains(&format!("z [terminal-studio: {long} more bytes of this line dropped]")), "{}", &text[..300]);
    // What fell between head and tail: 3 MB of 100-byte flood lines, less what the cap keeps.
    let gap = text.lines().find(|l| l.contains("bytes of stderr dropped (")).unwrap_or_else(|| panic!("{tail}"));
    let dropped_lines: u64 = gap
        .split(" bytes of stderr dropped (")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{gap}"));
    assert!(gap.contains("of turn 1)"), "{gap}");
    assert!(dropped_lines > 20_000 && dropped_lines < 30_000, "{gap}");
    assert_eq!(p.stderr_dropped_bytes, long + dropped_lines * 100, "{gap}");
    assert!(p.stderr_bytes > 103_000_000);
    // The traceback is under turn 2, after a marker repeated for the tail.
    let last_marker = text.rfind("--- turn 2 ---").expect("turn 2 marker");
    assert!(text[last_marker..].contains("Traceback"));
    assert_exact(&r.replay_path);
}

#[test]
fn draw_annotations_are_recorded_per_turn() {
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run(spec("py-idle", "py-annotate", dir.path()));
    let path = r.annotations_path.as_ref().expect("annotations file");
    let text = std::fs::read_to_string(path).expect("annotations");
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).expect("json line")).collect();
    assert_eq!(lines.len() as u64, r.players[1].annotations);
    assert!(!lines.is_empty());
    assert!(lines.iter().all(|l| l["player"] == 2 && l["draw"]["kind"].is_string()));
    assert!(lines.iter().any(|l| l["turn"] == 0));
    let log = std::fs::read_to_string(r.players[1].stderr_log.as_ref().expect("log")).expect("log");
    assert!(log.contains("plain debug line") && !log.contains("#draw"));
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
    // Default allowance (waitTimeStartGame, 3 s): the 2.2 s start-up costs nothing.
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

/// A stderr log split at its `--- turn N ---` markers: `(turn, lines)` in file order.
fn stderr_sections(text: &str) -> Vec<(i32, Vec<String>)> {
    let mut sections: Vec<(i32, Vec<String>)> = Vec::new();
    for line in text.lines() {
        let marker = line.strip_prefix("--- turn ").and_then(|l| l.strip_suffix(" ---"));
        match (marker.and_then(|m| m.parse().ok()), sections.last_mut()) {
            (Some(turn), _) => sections.push((turn, Vec::new())),
            (None, Some((_, lines))) => lines.push(line.to_string()),
            (None, None) => panic!("a line before the first marker: {line}"),
        }
    }
    sections
}

/// What py-stderr-turns writes in turn `t`.
fn stderr_turn_lines(t: i32) -> Vec<String> {
    let mut lines = Vec::new();
    if t % 3 != 2 {
        lines.push(format!("turn {t}: thinking"));
    }
    if t % 3 == 0 {
        lines.push(format!("turn {t}: after the reply, action frame 0"));
    }
    lines
}

/// Each stderr line is under the marker of the turn whose frames the algo was reading when
/// it wrote it: a line written after its reply, during the action frames, stays with that
/// turn (the runner has long sent the next turn frame by then), and a turn without any
/// line still has its marker.
#[test]
fn stderr_lines_are_filed_under_the_turn_the_algo_was_playing() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Its thinking line comes right after it parsed the turn frame, before the runner can
    // have looked (the turn frame's rest is sent once the runner has seen it start the
    // turn, so the filing does not depend on when the runner looks); several matches, as a
    // look that came late was what filed such a line a turn early.
    for (opponent, seed) in [("py-builder", 1), ("py-random", 2), ("py-random", 3), ("py-idle", 4)] {
        let mut s = spec("py-stderr-turns", opponent, dir.path());
        s.env.push(("THINK_MS".into(), "0".into()));
        s.seed = Some(seed);
        let r = run(s);
        let last = if r.turns == 100 { 99 } else { r.turns };
        assert!(last >= 2, "{} turns", r.turns);
        let text = std::fs::read_to_string(r.players[0].stderr_log.as_ref().expect("stderr log")).expect("log");
        let want: Vec<(i32, Vec<String>)> = (0..=last).map(|t| (t, stderr_turn_lines(t))).collect();
        assert_eq!(stderr_sections(&text), want, "against {opponent}: {text}");
        assert_exact(&r.replay_path);
    }
}

/// The stderr log is written as the algo writes, not in blocks at the end: while the match
/// waits for player 2 (hung at turn 1), player 1's log already holds its turns 0 and 1.
#[test]
fn the_stderr_log_is_current_while_the_match_runs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = spec("py-stderr-turns", "py-hang", dir.path());
    s.env.push(("THINK_MS".into(), "10".into()));
    let handle = start_match(s);
    let mut log_path = None;
    loop {
        match handle.events.recv_timeout(Duration::from_secs(30)) {
            Ok(MatchEvent::Started { replay_path, .. }) => {
                log_path = Some(terminal_core::runner::sibling(&replay_path, ".p1.stderr.log"));
            }
            Ok(MatchEvent::Frame { summary, .. }) if summary.turn == 1 => break,
            Ok(MatchEvent::Finished(_)) => panic!("the match ended"),
            Ok(MatchEvent::Failed(e)) => panic!("match failed: {e}"),
            Ok(_) => {}
            Err(e) => panic!("no event: {e}"),
        }
    }
    let log_path = log_path.expect("a Started event");
    let want =
        "--- turn 0 ---\nturn 0: thinking\nturn 0: after the reply, action frame 0\n--- turn 1 ---\nturn 1: thinking\n";
    // Player 1 answers turn 1 in a few ms; its lines must be in the file within a second.
    let t0 = Instant::now();
    let mut text = String::new();
    while t0.elapsed() < Duration::from_secs(1) {
        text = std::fs::read_to_string(&log_path).unwrap_or_default();
        if text == want {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(text, want);
    // Still running: py-hang holds turn 1 until the 35 s hard limit.
    while let Ok(event) = handle.events.try_recv() {
        assert!(!matches!(event, MatchEvent::Finished(_) | MatchEvent::Failed(_)));
    }
    handle.cancel();
    assert!(matches!(handle.wait(), Err(terminal_core::runner::RunnerError::Cancelled)));
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
