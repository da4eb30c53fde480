//! The August 2018 engine build and crashed algos (docs/fidelity.md, "The August 2018
//! build"): the 2018 starter kit's five local runs. In four of them both algos crashed at
//! once and the game was played out to turn 100 with both players at 30 HP; those four are
//! not in `../shared`, so the game is rebuilt here from the numbers its frames hold, under
//! the config line of the kit's fifth run, which is.

use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use terminal_core::engine::Game;
use terminal_core::engine::geometry::Player;
use terminal_core::engine::mechanics::LegacyBuild;
use terminal_core::replay::{read_replay, read_replay_bytes};
use terminal_core::verify::{ReplayReport, Status, turn_inputs, verify_replay};

#[path = "../../tests/common/corpus.rs"]
mod corpus;

const KIT_RUN: &str =
    "legacy-2018/correlation-one__C1GamesStarterKit__p1-28-08-2018-18-09-17-1535494157672--1103111128.replay.gz";
const SEASON_2018: &str = "legacy-2018/tim-zwart__Terminal_Algos__75v74.replay.gz";

/// The first line of a replay of `../shared/replays` that holds the config, as written.
fn config_line(rel: &str) -> String {
    let path = corpus::replay(rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match text.lines().find(|l| l.contains("unitInformation")) {
        Some(line) => line.to_string(),
        None => panic!("{}: no config line", path.display()),
    }
}

/// Bits at the start of each turn 0–100 of the crashed runs, as their frames show them: the
/// first twenty turns as read, then every ten turns the pattern of turns 20–29 plus 3.
fn bits(turn: usize) -> f64 {
    const FIRST: [f64; 20] = [
        5.0, 8.3, 10.5, 12.0, 13.0, 13.7, 14.1, 14.4, 14.6, 14.7, 15.8, 16.5, 17.0, 17.3, 17.5, 17.7, 17.8, 17.9, 17.9,
        17.9,
    ];
    const DECADE: [f64; 10] = [18.9, 19.6, 20.1, 20.4, 20.6, 20.7, 20.8, 20.9, 20.9, 20.9];
    if turn < 20 { FIRST[turn] } else { ((DECADE[turn % 10] + 3.0 * (turn / 10 - 2) as f64) * 10.0).round() / 10.0 }
}

/// The run `p1-28-08-2018-17-47-52-…` of the kit: both algos crashed at turn 0 (8 ms and
/// 1 ms of computation, in no frame), nobody placed anything, 30 HP each at turn 100,
/// player 2 the winner.
fn both_crashed_run() -> String {
    let empty = "[[],[],[],[],[],[],[]]";
    let events = r#"{"selfDestruct":[],"breach":[],"damage":[],"shield":[],"move":[],"spawn":[],"death":[],"attack":[],"melee":[]}"#;
    let stats = |turn: usize| format!("[30.0,{:.1},{:.1},0]", 25.0 + 4.0 * turn as f64, bits(turn));
    let mut lines = vec![String::new(), config_line(KIT_RUN), String::new()];
    for turn in 0..100 {
        for info in [format!("[0,{turn},-1]"), format!("[1,{turn},0]")] {
            let s = stats(turn);
            lines.push(format!(
                r#"{{"p2Units":{empty},"turnInfo":{info},"p1Stats":{s},"p1Units":{empty},"p2Stats":{s},"events":{events}}}"#
            ));
        }
    }
    let player = |ms: u32| {
        format!(
            r#"{{"stationary_resource_spent":0.0,"dynamic_resource_spoiled":922.1,"crashed":true,"dynamic_resource_destroyed":0.0,"dynamic_resource_spent":0.0,"stationary_resource_left_on_board":0.0,"points_scored":0.0,"total_computation_time":{ms}}}"#
        )
    };
    let end = format!(
        r#"{{"duration":3786,"winner":2,"player1":{},"frames":100,"player2":{},"turns":100}}"#,
        player(8),
        player(1)
    );
    let s = stats(100);
    lines.push(format!(
        r#"{{"p2Units":{empty},"turnInfo":[2,100,0],"p1Stats":{s},"endStats":{end},"p1Units":{empty},"p2Stats":{s},"events":{events}}}"#
    ));
    lines.join("\n") + "\n"
}

#[test]
fn the_august_2018_build_is_recognised_by_its_config_without_a_start_game_limit() {
    let build = |rel: &str| {
        // The config line and the turn-0 frame only: no death event to go by.
        let text = format!(
            "{}\n{}\n",
            config_line(rel),
            r#"{"turnInfo":[0,0,-1],"p1Stats":[30.0,25.0,5.0,0],"p2Stats":[30.0,25.0,5.0,0],"p1Units":[[],[],[],[],[],[],[]],"p2Units":[[],[],[],[],[],[],[]],"events":{}}"#
        );
        let r = read_replay_bytes(Path::new(rel), text.as_bytes()).unwrap_or_else(|e| panic!("{rel}: {e}"));
        r.config.mechanics.map(|m| m.build)
    };
    assert_eq!(build(KIT_RUN), Some(LegacyBuild::August2018));
    assert_eq!(build(SEASON_2018), Some(LegacyBuild::Season));
}

#[test]
fn a_crash_costs_no_health_in_the_august_2018_build() {
    for (rel, hp_after) in [(KIT_RUN, 30.0), (SEASON_2018, -1.0)] {
        let replay = read_replay(&corpus::replay(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let mut game = Game::new(Arc::new(replay.config));
        game.crash(Player::One);
        assert_eq!(game.player(Player::One).stats.hp, hp_after, "{rel}");
        assert!(game.player(Player::One).crashed, "{rel}: the crash is still recorded");
        assert_eq!(game.player(Player::Two).stats.hp, 30.0, "{rel}");
    }
}

#[test]
fn computation_time_no_frame_records_is_counted_at_the_last_turn() {
    // The kit's fifth run: endStats counts 172 ms and 171 ms, its frames say 0 every turn.
    let replay = read_replay(&corpus::replay(KIT_RUN)).expect("the kit's run reads");
    let last_turn = *replay.turn_starts().last().expect("turn frames");
    let game = Game::new(Arc::new(replay.config.clone()));
    assert_eq!(turn_inputs(&replay, &game, last_turn).unrecorded_ms, [172, 171]);
    let first_turn = replay.turn_starts()[0];
    assert_eq!(turn_inputs(&replay, &game, first_turn).unrecorded_ms, [0, 0], "only at the last turn");
}

#[test]
fn a_run_where_both_algos_crashed_at_once_reverifies_exactly() {
    let text = both_crashed_run();
    let path = Path::new("p1-28-08-2018-17-47-52-1535492872519-2134726387.replay");
    let replay = read_replay_bytes(path, text.as_bytes()).expect("the rebuilt run reads");
    assert_eq!(replay.frames.len(), 201);
    let mut report = ReplayReport::new(path);
    verify_replay(&replay, &mut report);
    assert_eq!(report.status, Status::Exact, "{:?}", report.first_divergence);
    assert_eq!(report.frames_exact, 201);
}
