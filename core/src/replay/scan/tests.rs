//! The scanner against `parse_frame` on real and hand-made lines.

use super::super::parse::parse_frame;
use super::super::typed_frame::parse_frame_line;
use super::Scanner;
use crate::engine::frame::{Frame, Phase};
use crate::replay::maybe_gunzip;
use proptest::prelude::*;
use serde_json::Value;
use std::path::Path;

/// The frame `parse_frame` builds from the line, `None` where it refuses it.
fn slow(line: &str) -> Option<Frame> {
    let v: Value = serde_json::from_str(line).ok()?;
    parse_frame(&v).ok()
}

/// The frame a summary keeps of a full one.
fn summary_of(mut frame: Frame) -> Frame {
    if frame.turn_info.phase == Phase::Action {
        frame.units = frame.units.map(|lists| vec![Vec::new(); lists.len()]);
    }
    frame
}

/// Every line the scanner accepts gives the frame `parse_frame` gives, and the death flag
/// the typed reader gives; a summary, the same frame without its action units.
fn agrees(line: &str) -> bool {
    agrees_after(&mut Scanner::default(), line)
}

/// As `agrees`, with a scanner that keeps the lists of the lines it read before.
fn agrees_after<'a>(scanner: &mut Scanner<'a>, line: &'a str) -> bool {
    let full = scanner.frame(line, false);
    let full_agrees = full.as_ref().is_none_or(|(fast, flag)| {
        Some(fast) == slow(line).as_ref() && parse_frame_line(line).is_none_or(|(_, typed_flag)| typed_flag == *flag)
    });
    // A summary does not read the unit lists of action frames: a bad unit there is missed.
    let summary_agrees = scanner.frame(line, true).is_none_or(|(fast, _)| match slow(line) {
        Some(frame) => fast == summary_of(frame),
        None => fast.turn_info.phase == Phase::Action,
    });
    full_agrees && summary_agrees
}

fn real_frame_lines(per_ruleset: usize) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/replays");
    let rulesets = std::fs::read_dir(&root).unwrap_or_else(|e| panic!("{}: {e}", root.display()));
    let mut lines = Vec::new();
    for ruleset in rulesets.flatten().filter(|e| e.path().is_dir()) {
        let mut files: Vec<_> = std::fs::read_dir(ruleset.path()).expect("ruleset folder").flatten().collect();
        files.sort_by_key(|e| e.path());
        for file in files.iter().take(per_ruleset) {
            let bytes = std::fs::read(file.path()).expect("replay file");
            let data = maybe_gunzip(&bytes).expect("gzip");
            for line in String::from_utf8_lossy(&data).lines().filter(|l| l.contains("\"turnInfo\"")) {
                lines.push((file.path().display().to_string(), line.trim().to_string()));
            }
        }
    }
    lines
}

#[test]
fn real_replays_of_every_ruleset_scan_as_parse_frame_reads_them() {
    let lines = real_frame_lines(3);
    let mut scanned = 0;
    // One scanner per file, as the reader keeps it: lists seen in earlier frames are copied.
    let mut kept = (String::new(), Scanner::default());
    for (file, line) in &lines {
        assert!(agrees(line), "{file}: {}", &line[..line.len().min(200)]);
        if kept.0 != *file {
            kept = (file.clone(), Scanner::default());
        }
        let fast = kept.1.frame(line, false);
        if let Some((frame, _)) = &fast {
            assert_eq!(Some(frame), slow(line).as_ref(), "{file}: a kept scanner: {}", &line[..line.len().min(200)]);
        }
        scanned += usize::from(fast.is_some());
    }
    assert!(lines.len() > 5_000, "only {} frame lines read", lines.len());
    // The end frames (`endStats`) and a few odd 2018 lines go the typed way.
    assert!(scanned * 100 >= lines.len() * 97, "{scanned} of {} lines scanned", lines.len());
}

const FRAME: &str = r#"{"p2Units":[[[19,15,120.0,"27"]],[],[[27,14,75.5,"19"],[0,14,0.06,"20"]],[],[],[],[],[]],"turnInfo":[1,4,0,78],"p1Stats":[40.0,0.0,26.06,240],"p1Units":[[[2,12,60.0,"17"]],[],[],[[24,11,15.0,"32"]],[],[],[[2,12,1.0,"17"]],[]],"p2Stats":[39.0,0.0,0.0,5],"events":{"selfDestruct":[[[4,13],[[4,14],[5,14]],40.0,5,"99",1]],"breach":[[[3,17],1.0,3,"74",1]],"damage":[[[2,16],20.0,4,"33",2]],"shield":[[[4,9],[1,12],7.6000004,1,"120","138",1]],"move":[[[24,10],[24,11],[0,0],3,"32",1]],"spawn":[[[1,13],7,"27",1]],"death":[[[2,16],4,"33",2,false]],"attack":[[[1,13],[2,16],20.0,2,"27","33",1]],"melee":[[[1,1],[1,2],3.5,3,"8",2]]}}"#;

/// Changes to `FRAME`: each line made is scanned as `parse_frame` reads it, or left to it.
const SWAPS: &[(&str, &str)] = &[
    (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":null"#),
    (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[39]"#),
    (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[39.0,0.0,0.0,5.5]"#),
    (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[39.0,0.0,0.0,5,6]"#),
    (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[3.9e1,0.0,0.0,5]"#),
    (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[039.0,0.0,0.0,5]"#),
    (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[-0,-0.0,-1.25,-0]"#),
    (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[39.,0.0,0.0,5]"#),
    (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[+39,0.0,0.0,5]"#),
    (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[0.1234567890123456789,0.0,0.0,5]"#),
    (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[123456789012345,0.30000000000000004,0.0,5]"#),
    (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[39.0,0.0,0.0,99999999999999999999]"#),
    (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats" : [ 39.0 , 0.0,0.0 ,5 ] "#),
    ("[1,4,0,78]", "[1,4,0]"),
    ("[1,4,0,78]", "[1,4]"),
    ("[1,4,0,78]", "[1.0,4,0,78]"),
    ("[1,4,0,78]", "[3,4,0,78]"),
    ("[1,4,0,78]", "[1,4,0,78,]"),
    ("[1,4,0,78]", "[1,4,0,78,9]"),
    ("[1,4,0,78]", "[1,4,0,4294967296]"),
    (r#""17"]],[]"#, r#"17]],[]"#),
    (r#""17"]],[]"#, r#"-17]],[]"#),
    (r#""17"]],[]"#, r#"17.5]],[]"#),
    (r#""17"]],[]"#, r#""+17"]],[]"#),
    (r#""17"]],[]"#, r#"" 17"]],[]"#),
    (r#""17"]],[]"#, r#""017"]],[]"#),
    (r#""17"]],[]"#, r#""4294967296"]],[]"#),
    (r#""17"]],[]"#, r#"4294967296]],[]"#),
    (r#""17"]],[]"#, r#""17","x"]],[]"#),
    (r#""17"]],[]"#, r#""1\u0037"]],[]"#),
    (r#"[[2,12,60.0,"17"]]"#, r#"[[2,12,60.0]]"#),
    (r#"[[2,12,60.0,"17"]]"#, r#"[[2,12,60.0,"17"],]"#),
    (r#"[[2,12,60.0,"17"]]"#, r#"[[2, 12, 60 ,"17"] ]"#),
    (r#"[[2,12,60.0,"17"]]"#, r#"[null]"#),
    ("[19,15,120.0", "[19,15,1.0E2"),
    ("[19,15,120.0", "[19.5,15,120.0"),
    ("[19,15,120.0", "[-19,-15,-120.0"),
    (r#""74",1]"#, r#""74",3]"#),
    (r#""74",1]"#, r#""74",0]"#),
    (r#"[[2,16],4,"33",2,false]"#, r#"[[2,16],4,"33",2]"#),
    (r#"[[2,16],4,"33",2,false]"#, r#"[[2,16],4,"33",2,true]"#),
    (r#"[[2,16],4,"33",2,false]"#, r#"[[2,16],4,"33",2,1]"#),
    (r#"[[2,16],4,"33",2,false]"#, r#"[[2,16],4,"33",2,false,0]"#),
    (r#"[[2,16],4,"33",2,false]"#, r#"[[2,16],9,"33",2,false]"#),
    (r#"[24,11],[0,0],3"#, r#"[24,11],null,3"#),
    (r#"[24,11],[0,0],3"#, r#"[24,11],[0,0,1],3"#),
    (r#"[[4,14],[5,14]]"#, r#"[]"#),
    (r#"[[4,14],[5,14]]"#, r#"[[4,14,1]]"#),
    (r#""spawn":[[[1,13],7,"27",1]]"#, r#""spawn":null"#),
    (r#""spawn":[[[1,13],7,"27",1]]"#, r#""spawn":[]"#),
    (r#""spawn":[[[1,13],7,"27",1]]"#, r#""spawn":{}"#),
    (r#""spawn":[[[1,13],7,"27",1]]"#, r#""spawn":[[[1,13],7,"27",1],"#),
    (r#""melee":"#, r#""melee":[],"melee":"#),
    (r#""melee":"#, r#""other":[],"melee":"#),
    (r#""melee":"#, r#""me\u006cee":"#),
    (r#""events":{"#, r#""events":null,"x":{"#),
    (r#""events":{"#, r#""events":{},"x":{"#),
    (r#""events":{"#, r#""events":[],"x":{"#),
    (r#""turnInfo":"#, r#""turnInfo":[1,1,1,1],"turnInfo":"#),
    (r#""turnInfo":"#, r#""endStats":{"winner":1},"turnInfo":"#),
    (r#""turnInfo":"#, r#""unknown":1,"turnInfo":"#),
    (r#""turnInfo":[1,4,0,78],"#, ""),
    (r#""p1Units":"#, r#""p1Units":[],"x":"#),
    (r#""p1Units":"#, r#""p1Units":null,"x":"#),
    (r#""p2Units":"#, r#""p2Units":[[],[],[],[],[],[],[],[],[]],"x":"#),
    (r#""p2Units":[[[19,15,120.0,"27"]]"#, r#""p2Units":[[[19,15,120.0,"2]7"]]"#),
    (r#""p2Units":[[[19,15,120.0,"27"]]"#, r#""p2Units":[[[19,15,{},"27"]]"#),
    ("}}", "}} x"),
    ("}}", "}}  \t"),
    ("}}", "},}"),
    ("}}", "}"),
];

#[test]
fn the_usual_shape_is_scanned_and_odd_lines_are_left_to_the_others_or_read_the_same() {
    let (fast, flag) = Scanner::default().frame(FRAME, false).expect("the usual shape is scanned");
    assert_eq!(Some(fast), slow(FRAME));
    assert!(!flag);
    let (summary, _) = Scanner::default().frame(FRAME, true).expect("the usual shape is scanned");
    assert_eq!(summary.units.each_ref().map(Vec::len), [8, 8], "as many lists, empty");
    assert!(summary.units.iter().flatten().all(Vec::is_empty));
    let turn_frame = FRAME.replace("[1,4,0,78]", "[0,4,-1,78]");
    assert_eq!(Scanner::default().frame(&turn_frame, true).map(|f| f.0), slow(&turn_frame), "turn frames keep units");
    for (from, to) in SWAPS {
        assert!(FRAME.contains(from), "{from}");
        for line in [FRAME.replacen(from, to, 1), turn_frame.replacen(from, to, 1)] {
            assert!(agrees(&line), "{line}");
        }
    }
}

/// Bytes a mutation puts in: JSON's punctuation, words and numbers of every kind.
const PIECES: &[&str] = &[
    "",
    "0",
    "1",
    "-",
    ".",
    "e",
    "E5",
    "\"",
    "[",
    "]",
    ",",
    " ",
    "\n",
    "null",
    "true",
    "false",
    "{",
    "}",
    ":",
    "\\",
    "9999999999",
    "00",
    "+",
    "x",
    "[]",
    "[0,0]",
    "1.5",
    "-0",
    "\"7\"",
    "0.1",
    "\u{e9}",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// A line with a few bytes changed, cut or added is scanned as `parse_frame` reads it,
    /// or left to it.
    #[test]
    fn mutated_lines_are_scanned_as_parse_frame_reads_them(
        edits in proptest::collection::vec((0usize..2000, 0usize..4, 0usize..PIECES.len()), 1..4),
        turn_frame in any::<bool>(),
    ) {
        let mut line = if turn_frame { FRAME.replace("[1,4,0,78]", "[0,4,-1,78]") } else { FRAME.to_string() };
        for (at, cut, piece) in edits {
            let mut at = at % (line.len() + 1);
            while !line.is_char_boundary(at) {
                at -= 1;
            }
            let mut end = (at + cut).min(line.len());
            while !line.is_char_boundary(end) {
                end += 1;
            }
            line.replace_range(at..end, PIECES[piece]);
        }
        prop_assert!(agrees(&line), "{}", line);
        // After the line it was made from, whose lists the scanner keeps.
        let mut primed = Scanner::default();
        prop_assert!(primed.frame(FRAME, false).is_some() && primed.frame(FRAME, true).is_some());
        prop_assert!(agrees_after(&mut primed, &line), "after FRAME: {}", line);
    }

    /// Numbers of every size and form read as serde_json reads them.
    #[test]
    fn numbers_are_read_as_serde_json_reads_them(
        whole in "-?(0|[1-9][0-9]{0,20})",
        fraction in proptest::option::of("[0-9]{1,20}"),
        exponent in proptest::option::of("[eE][+-]?[0-9]{1,3}"),
    ) {
        let number = format!("{whole}{}{}", fraction.map(|f| format!(".{f}")).unwrap_or_default(), exponent.unwrap_or_default());
        let line = FRAME
            .replacen("60.0", &number, 1)
            .replacen("[39.0,", &format!("[{number},"), 1)
            .replacen("[1,13],[2,16],20.0", &format!("[1,13],[2,16],{number}"), 1);
        prop_assert!(agrees(&line), "{}", line);
        let id = FRAME.replacen(r#""17"]],[]"#, &format!("{number}]],[]"), 1);
        prop_assert!(agrees(&id), "{}", id);
        let tile = FRAME.replacen("[19,15,", &format!("[{number},15,"), 1);
        prop_assert!(agrees(&tile), "{}", tile);
    }
}
