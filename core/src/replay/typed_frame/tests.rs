use super::super::parse::parse_frame;
use super::parse_frame_line;
use crate::replay::maybe_gunzip;
use serde_json::Value;
use std::path::Path;

/// The frame `parse_frame` builds from the line, `None` where it refuses it.
fn slow(line: &str) -> Option<crate::engine::frame::Frame> {
    let v: Value = serde_json::from_str(line).ok()?;
    parse_frame(&v).ok()
}

/// Every line the typed reader accepts gives the frame `parse_frame` gives.
fn agrees(line: &str) -> bool {
    parse_frame_line(line).is_none_or(|(fast, _)| Some(fast) == slow(line))
}

#[test]
fn real_replays_of_every_ruleset_read_as_parse_frame_reads_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/replays");
    let rulesets = std::fs::read_dir(&root).unwrap_or_else(|e| panic!("{}: {e}", root.display()));
    let (mut lines, mut typed) = (0, 0);
    for ruleset in rulesets.flatten().filter(|e| e.path().is_dir()) {
        let mut files: Vec<_> = std::fs::read_dir(ruleset.path()).expect("ruleset folder").flatten().collect();
        files.sort_by_key(|e| e.path());
        for file in files.iter().take(3) {
            let bytes = std::fs::read(file.path()).expect("replay file");
            let data = maybe_gunzip(&bytes).expect("gzip");
            for line in String::from_utf8_lossy(&data).lines().filter(|l| l.contains("\"turnInfo\"")) {
                lines += 1;
                let line = line.trim();
                assert!(agrees(line), "{}: {}", file.path().display(), &line[..line.len().min(200)]);
                typed += usize::from(parse_frame_line(line).is_some());
            }
        }
    }
    assert!(lines > 5_000, "only {lines} frame lines read");
    // The 2018 files hold a few odd lines; every other line takes the fast way.
    assert!(typed * 100 >= lines * 99, "{typed} of {lines} lines read typed");
}

#[test]
fn odd_lines_are_left_to_parse_frame_or_read_the_same() {
    let frame = r#"{"turnInfo":[1,3,7,90],"p1Stats":[30,4.5,2,12],"p2Stats":[29.0,1,0.5,3],
        "p1Units":[[[3,12,60.0,"17"],[4,11,60,18,"extra"]],[],[],[],[],[],[],[]],"p2Units":[[],[],[],[],[],[],[],[]],
        "events":{"death":[[[3,12],0,"17",1,true]],"breach":[[[13,0],1.0,3,"20",2]],"move":[[[1,1],[1,2],[0,0],3,"4",1]],
        "spawn":null,"selfDestruct":[[[5,5],[[5,6],[6,6]],12.0,3,9,1]]},"endStats":{"winner":2,"player1":{"crashed":"yes","name":7},"extra":{}}}"#;
    let (fast, _) = parse_frame_line(frame).expect("the usual shape reads typed");
    assert_eq!(Some(fast), slow(frame));
    let variants = [
        frame.replace(r#""p2Stats":[29.0,1,0.5,3]"#, r#""p2Stats":null"#),
        frame.replace(r#""p2Stats":[29.0,1,0.5,3]"#, r#""p2Stats":[29]"#),
        frame.replace(r#""p2Stats":[29.0,1,0.5,3]"#, r#""p2Stats":["29"]"#),
        frame.replace("[1,3,7,90]", "[1,3]"),
        frame.replace("[1,3,7,90]", "[1.0,3,7]"),
        frame.replace("[1,3,7,90]", "[4,3,7,90]"),
        frame.replace(r#""17"],"#, r#"-17],"#),
        frame.replace(r#""17"],"#, r#"17.5],"#),
        frame.replace(r#""20",2]"#, r#""20",3]"#),
        frame.replace(r#"0,"17",1,true]"#, r#"0,"17",1]"#),
        frame.replace(r#""events":{"#, r#""events":{"death":[],"#),
        frame.replace(r#""winner":2"#, r#""winner":null"#),
        frame.replace(r#""player1":{"#, r#""player1":null,"x":{"#),
        frame.replace(r#""endStats":{"#, r#""endStats":5,"y":{"#),
        frame.replace(r#""events":{"#, r#""events":[],"z":{"#),
    ];
    for v in &variants {
        assert!(serde_json::from_str::<Value>(v).is_ok(), "{v}");
        assert!(agrees(v), "{v}");
    }
    let four = frame.replace(r#"0,"17",1,true]"#, r#"0,"17",1]"#);
    assert_eq!(parse_frame_line(&four).map(|(_, no_flag)| no_flag), Some(true), "a death without its flag is told");
}
