//! Season compatibility mode 4: a current-format config whose players both ask for mode 4 is
//! played with the 2018–2019 protocol and rules, after the rewrite the official engine makes
//! (the config line of the real `compat-mode-4` replays).

use std::sync::Arc;
use terminal_core::engine::config::Config;
use terminal_core::engine::presets::preset;
use terminal_core::replay::read_replay;
use terminal_core::runner::{MatchSpec, ReplayTarget, run_match_blocking};
use terminal_core::verify::{Status, verify_file};

#[path = "../../tests/common/corpus.rs"]
mod corpus;
use corpus::{algo, first_of};

/// A current-format config with the numbers the real mode-4 replays show (a 2020 season-5
/// ruleset: Destructor c6 dmg16 r3.5, hit radius 0.01), both players in mode 4, and the
/// timing and debug blocks of those replays (the rewrite passes them through).
fn mode_4_config() -> serde_json::Value {
    let recorded = read_replay(&first_of("compat-mode-4")).expect("compat-mode-4 replay");
    let mut raw = preset("base-s6").expect("base-s6").raw.clone();
    let units = raw["unitInformation"].as_array_mut().expect("units");
    for u in units.iter_mut().take(6) {
        u["getHitRadius"] = 0.01.into();
    }
    units[1]["shieldRange"] = 3.5.into();
    units[2]["cost1"] = 6.0.into();
    units[2]["attackDamageWalker"] = 16.0.into();
    units[2]["attackRange"] = 3.5.into();
    units[4]["speed"] = 0.5.into();
    // The same numbers as base-s6, written as the 2020-on configs write them (5.0, not 5).
    raw["resources"] = preset("live-2022").expect("live-2022").raw["resources"].clone();
    raw["timingAndReplay"] = recorded.config.raw["timingAndReplay"].clone();
    raw["debug"] = recorded.config.raw["debug"].clone();
    raw["seasonCompatibilityModeP1"] = 4.into();
    raw["seasonCompatibilityModeP2"] = 4.into();
    raw
}

#[test]
fn mode_4_rewrites_the_config_as_the_official_engine_does() {
    let recorded = read_replay(&first_of("compat-mode-4")).expect("compat-mode-4 replay");
    let config = Config::from_value(mode_4_config()).expect("mode-4 config");
    assert!(config.legacy, "mode 4 plays the 2018–2019 rules");
    assert_eq!(config.to_line(), recorded.config.to_line(), "the config line algos and replays get");
    assert_eq!(config.check_simulated(), Ok(()));
}

/// The algos get the 2018–2019 config and frames (3-element `turnInfo`, 7 unit lists), the
/// replay is written in that format and re-verifies exactly.
#[test]
fn a_mode_4_match_is_played_in_the_legacy_protocol() {
    let config = Arc::new(Config::from_value(mode_4_config()).expect("mode-4 config"));
    let dir = tempfile::tempdir().expect("tempdir");
    let mut spec = MatchSpec::new(algo("py-builder"), algo("py-random"), config);
    spec.replay = ReplayTarget::Dir(dir.path().to_path_buf());
    let result = run_match_blocking(spec).expect("match runs");
    let text = std::fs::read_to_string(&result.replay_path).expect("replay text");
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let config_line = lines.next().expect("config line");
    assert!(config_line.contains("\"stability\"") && !config_line.contains("seasonCompatibilityMode"));
    let first_frame: serde_json::Value = serde_json::from_str(lines.next().expect("a frame")).expect("JSON");
    assert_eq!(first_frame["turnInfo"].as_array().map(Vec::len), Some(3));
    assert_eq!(first_frame["p1Units"].as_array().map(Vec::len), Some(7));
    let replay = read_replay(&result.replay_path).expect("readable");
    assert!(replay.legacy);
    assert!(replay.frames.iter().any(|f| !f.events.spawn.is_empty()), "our algos read the legacy keys and build");
    let report = verify_file(&result.replay_path);
    assert_eq!(report.status, Status::Exact, "{report:?}");
}
