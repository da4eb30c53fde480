//! Robustness: the replay, config and command parsers never panic, whatever the bytes.

use proptest::prelude::*;
use std::path::Path;
use terminal_core::engine::Config;
use terminal_core::engine::commands::parse_line;
use terminal_core::engine::presets::preset;
use terminal_core::replay::read_replay_bytes;

const CONFIG: &str = include_str!("../configs/special-2025.json");
const FRAME: &str = r#"{"p2Units":[[],[],[[25,15,75.0,"35"]],[],[],[],[],[]],"turnInfo":[1,4,0,78],"p1Stats":[40.0,0.0,0.0,240],"p1Units":[[[2,12,60.0,"17"]],[],[],[[24,11,15.0,"32"]],[],[],[],[]],"p2Stats":[39.0,0.0,0.0,5],"events":{"selfDestruct":[[[4,13],[[4,14]],40.0,5,"99",1]],"breach":[[[3,17],1.0,3,"74",1]],"damage":[[[2,16],20.0,4,"33",2]],"shield":[[[4,9],[1,12],7.6000004,1,"120","138",1]],"move":[[[24,10],[24,11],[0,0],3,"32",1]],"spawn":[[[1,13],7,"27",1]],"death":[[[2,16],4,"33",2,false]],"attack":[[[1,13],[2,16],20.0,2,"27","33",1]],"melee":[]}}"#;

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn replay_reader_never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = read_replay_bytes(Path::new("fuzz"), &bytes);
    }

    #[test]
    fn replay_reader_never_panics_on_mutated_replays(pos in 0usize..2000, byte in any::<u8>(), cut in 0usize..2100) {
        let mut text = format!("\n{CONFIG}\n\n{FRAME}\n").into_bytes();
        let p = pos % text.len();
        text[p] = byte;
        text.truncate(cut.max(1).min(text.len()));
        let _ = read_replay_bytes(Path::new("fuzz"), &text);
    }

    #[test]
    fn config_parser_never_panics(s in "\\PC{0,600}") {
        let _ = Config::from_json_str(&s);
    }

    #[test]
    fn config_parser_never_panics_on_mutated_configs(pos in 0usize..5000, byte in 32u8..127) {
        let mut text = CONFIG.as_bytes().to_vec();
        let p = pos % text.len();
        text[p] = byte;
        if let Ok(s) = String::from_utf8(text) {
            let _ = Config::from_json_str(&s);
        }
    }

    #[test]
    fn command_lines_never_panic(s in "\\PC{0,300}") {
        let config = preset("base-s6").expect("preset");
        let _ = parse_line(&config, &s);
    }
}
