//! Matches between the test algos of `tests/algos/` for the runner's tests: the spec, the
//! run (no process left behind), and the replay read back. The core's runner tests include
//! this file by path; each uses part of it.
#![allow(dead_code)]

use super::corpus::algo;
use super::processes::assert_no_leftovers;
use std::path::Path;
use std::sync::Arc;
use terminal_core::engine::config::Config;
use terminal_core::engine::frame::Phase;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::engine::presets::preset;
use terminal_core::replay::{Replay, read_replay};
use terminal_core::runner::{MatchResult, MatchSpec, ReplayTarget, run_match_blocking};
use terminal_core::verify::{Status, verify_file};

pub fn base_config() -> Arc<Config> {
    Arc::new(preset("base-s6").expect("base-s6 preset"))
}

/// base-s6 with another starting HP (short games for the time-limit tests).
pub fn config_with_hp(hp: f64) -> Arc<Config> {
    let mut raw = base_config().raw.clone();
    raw["resources"]["startingHP"] = serde_json::Value::from(hp);
    Arc::new(Config::from_value(raw).expect("patched config"))
}

pub fn spec(a: &str, b: &str, dir: &Path) -> MatchSpec {
    let mut s = MatchSpec::new(algo(a), algo(b), base_config());
    s.replay = ReplayTarget::Dir(dir.to_path_buf());
    s
}

/// A test's own algo folder whose start script runs an algo of `tests/algos` by its path:
/// under confinement it may read that folder too.
pub fn reads_test_algos(s: &mut MatchSpec) {
    let algos = algo("py-idle").parent().expect("tests/algos").to_path_buf();
    s.confine.extra_read.push(algos);
}

pub fn run(spec: MatchSpec) -> MatchResult {
    let r = run_match_blocking(spec).expect("match runs");
    assert_no_leftovers(&r);
    r
}

pub fn assert_exact(path: &Path) {
    let report = verify_file(path);
    assert_eq!(report.status, Status::Exact, "{report:?}");
    assert_eq!(report.frames_exact, report.frames_total);
    assert!(report.frames_total > 0);
}

pub fn replay_of(r: &MatchResult) -> Replay {
    read_replay(&r.replay_path).expect("replay readable")
}

/// Index of turn `turn`'s action frame 0 in the replay's frames.
pub fn action_frame0(replay: &Replay, turn: i32) -> usize {
    replay
        .frames
        .iter()
        .position(|f| f.turn_info.phase == Phase::Action && f.turn_info.turn == turn && f.turn_info.action_frame == 0)
        .expect("action frame 0 of the turn")
}

/// Player 1's spawn events of action frame 0, turn by turn: what it built and deployed.
pub fn p1_spawns_by_turn(r: &MatchResult) -> Vec<Vec<(u8, Tile)>> {
    let replay = replay_of(r);
    let last = if r.turns == 100 { 99 } else { r.turns };
    (0..=last)
        .map(|t| {
            let f = &replay.frames[action_frame0(&replay, t)];
            f.events.spawn.iter().filter(|s| s.owner == Player::One).map(|s| (s.unit_type, s.tile)).collect()
        })
        .collect()
}
