//! The October 2018 local engine build (docs/fidelity.md, "2018 replays beyond
//! `../shared`"): two runs of 23 October 2018 (`PecanPI/C1TerminalAlgos`, `replays/`), in
//! which both algos crashed at turn 0. Like the August 2018 build its config has no
//! `waitTimeStartGame`, but its frames record computation time, and a crash costs
//! `startingHP + 1` and earns the opponent the breach reward once: both players end at
//! −1 HP and 26 SP, the game over at turn 0. Neither run is in `../shared`; the first is
//! rebuilt here from its lines (3,454 characters, every frame empty).

use std::path::Path;
use std::sync::Arc;
use terminal_core::engine::Game;
use terminal_core::engine::geometry::Player;
use terminal_core::engine::mechanics::LegacyBuild;
use terminal_core::replay::read_replay_bytes;
use terminal_core::verify::{ReplayReport, Status, verify_replay};

const RUN: &str = "p1-23-10-2018-14-43-23-1540327403609--2114567454.replay";

/// The run's config line, as written (numbers as floats, no start-of-game time limit).
const CONFIG: &str = concat!(
    r#"{"debug":{"printMapString":false,"printTStrings":false,"printActStrings":false,"printHitStrings":false,"#,
    r#""printPlayerInputStrings":true,"printBotErrors":true,"printPlayerGetHitStrings":false},"#,
    r#""unitInformation":[{"damage":0.0,"cost":1.0,"getHitRadius":0.51,"display":"Filter","range":0.0,"shorthand":"FF","stability":60.0},"#,
    r#"{"damage":0.0,"cost":4.0,"getHitRadius":0.51,"shieldAmount":10.0,"display":"Encryptor","range":3.0,"shorthand":"EF","stability":30.0},"#,
    r#"{"damage":4.0,"cost":3.0,"getHitRadius":0.51,"display":"Destructor","range":3.0,"shorthand":"DF","stability":75.0},"#,
    r#"{"damageI":1.0,"damageToPlayer":1.0,"cost":1.0,"getHitRadius":0.51,"damageF":1.0,"display":"Ping","range":3.0,"shorthand":"PI","stability":15.0,"speed":0.5},"#,
    r#"{"damageI":3.0,"damageToPlayer":1.0,"cost":3.0,"getHitRadius":0.51,"damageF":3.0,"display":"EMP","range":5.0,"shorthand":"EI","stability":5.0,"speed":0.25},"#,
    r#"{"damageI":10.0,"damageToPlayer":1.0,"cost":1.0,"getHitRadius":0.51,"damageF":0.0,"display":"Scrambler","range":3.0,"shorthand":"SI","stability":40.0,"speed":0.25},"#,
    r#"{"display":"Remove","shorthand":"RM"}],"#,
    r#""timingAndReplay":{"waitTimeBotMax":35000.0,"playWaitTimeBotMax":40000.0,"waitTimeManual":1820000.0,"waitForever":false,"#,
    r#""waitTimeBotSoft":5000.0,"playWaitTimeBotSoft":10000.0,"replaySave":1.0,"playReplaySave":0.0,"storeBotTimes":true},"#,
    r#""resources":{"turnIntervalForBitCapSchedule":10.0,"turnIntervalForBitSchedule":10.0,"bitRampBitCapGrowthRate":5.0,"#,
    r#""roundStartBitRamp":10.0,"bitGrowthRate":1.0,"startingHP":30.0,"maxBits":999999.0,"bitsPerRound":5.0,"coresPerRound":4.0,"#,
    r#""coresForPlayerDamage":1.0,"startingBits":5.0,"bitDecayPerRound":0.33333,"startingCores":25.0},"#,
    r#""mechanics":{"basePlayerHealthDamage":1.0,"damageGrowthBasedOnY":0.0,"bitsCanStackOnDeployment":true,"destroyOwnUnitRefund":0.5,"#,
    r#""destroyOwnUnitsEnabled":true,"stepsRequiredSelfDestruct":5.0,"selfDestructRadius":1.5,"shieldDecayPerFrame":0.15,"#,
    r#""meleeMultiplier":0.0,"destroyOwnUnitDelay":1.0,"rerouteMidRound":true,"firewallBuildTime":0.0}}"#
);

/// The run's frames: the turn-0 frame, action frame 0 (7 ms and 0 ms recorded, both at −1 HP
/// and 26 SP) and the end frame (player 2, the faster, the winner).
fn run(p1_ms: u32, p2_ms: u32) -> String {
    let empty = "[[],[],[],[],[],[],[]]";
    let events = r#"{"selfDestruct":[],"breach":[],"damage":[],"shield":[],"move":[],"spawn":[],"death":[],"attack":[],"melee":[]}"#;
    let frame = |info: &str, s1: &str, s2: &str, end: &str| {
        format!(
            r#"{{"p2Units":{empty},"turnInfo":{info},"p1Stats":{s1}{end},"p1Units":{empty},"p2Stats":{s2},"events":{events}}}"#
        )
    };
    let player = |ms: u32| {
        format!(
            r#"{{"stationary_resource_spent":0.0,"dynamic_resource_spoiled":0.0,"crashed":true,"name":"FailedToLoad","dynamic_resource_destroyed":0.0,"time_damage_taken":0,"dynamic_resource_spent":0.0,"stationary_resource_left_on_board":0.0,"timeout_death":false,"points_scored":31.0,"total_computation_time":{ms}}}"#
        )
    };
    let end = format!(
        r#","endStats":{{"duration":3385,"winner":2,"player1":{},"frames":1,"player2":{},"turns":0}}"#,
        player(p1_ms),
        player(p2_ms)
    );
    let lines = [
        String::new(),
        CONFIG.to_string(),
        String::new(),
        frame("[0,0,-1]", "[30.0,25.0,5.0,0]", "[30.0,25.0,5.0,0]", ""),
        frame("[1,0,0]", &format!("[-1.0,26.0,5.0,{p1_ms}]"), &format!("[-1.0,26.0,5.0,{p2_ms}]"), ""),
        frame("[2,0,0]", "[-1.0,26.0,5.0,0]", "[-1.0,26.0,5.0,0]", &end),
    ];
    lines.join("\n") + "\n"
}

#[test]
fn the_rebuilt_run_has_the_length_of_the_original() {
    assert_eq!(run(7, 0).len(), 3454);
}

#[test]
fn the_october_2018_build_is_told_from_the_august_build_by_its_recorded_times() {
    let build = |text: &str| {
        let replay = read_replay_bytes(Path::new(RUN), text.as_bytes()).unwrap_or_else(|e| panic!("{RUN}: {e}"));
        replay.config.mechanics.map(|m| m.build)
    };
    assert_eq!(build(&run(7, 0)), Some(LegacyBuild::October2018));
    // The same config with no time in any frame, as the August build writes its frames.
    assert_eq!(build(&run(0, 0)), Some(LegacyBuild::August2018));
}

#[test]
fn a_crash_in_the_october_2018_build_earns_the_opponent_the_breach_reward() {
    let replay = read_replay_bytes(Path::new(RUN), run(7, 0).as_bytes()).expect("the rebuilt run reads");
    let mut game = Game::new(Arc::new(replay.config));
    game.crash(Player::One);
    assert_eq!(game.player(Player::One).stats.hp, -1.0);
    assert_eq!(game.player(Player::One).stats.sp, 25.0, "the crashed player earns nothing");
    assert_eq!(game.player(Player::Two).stats.hp, 30.0);
    assert_eq!(game.player(Player::Two).stats.sp, 26.0, "one breach reward, not one per HP lost");
}

#[test]
fn a_run_where_both_algos_crashed_at_turn_0_reverifies_exactly() {
    let replay = read_replay_bytes(Path::new(RUN), run(7, 0).as_bytes()).expect("the rebuilt run reads");
    assert_eq!(replay.frames.len(), 3);
    let mut report = ReplayReport::new(Path::new(RUN));
    verify_replay(&replay, &mut report);
    assert_eq!(report.status, Status::Exact, "{:?}", report.first_divergence);
    assert_eq!(report.frames_exact, 3);
}
