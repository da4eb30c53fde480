//! `verify`, `show` and `bench` on a replay that parses but lies (a unit at tile (40, 40) in
//! a turn frame's structure list): a clear error naming the frame and the tile, exit 1 or 2,
//! never a panic.

use std::path::{Path, PathBuf};
use std::process::Command;
use terminal_core::replay::reader::maybe_gunzip;

mod common;
use common::corpus::replay as corpus;

const REPLAY: &str = "live-2022/Acceleraizer__c1terminal-algo__1003.replay.gz";

/// A copy of the replay with a wall of player 1 at (40, 40) in turn 1's turn frame, and
/// the line it is on.
fn write_lying_replay(dir: &Path) -> (PathBuf, usize) {
    let bytes = std::fs::read(corpus(REPLAY)).expect("the real replay");
    let text = String::from_utf8(maybe_gunzip(&bytes).expect("gzip").into_owned()).expect("UTF-8");
    let mut line_of_frame = None;
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let Ok(mut v) = serde_json::from_str::<serde_json::Value>(line) else { return line.to_string() };
            let turn_frame_1 = v.get("turnInfo").and_then(|t| t.as_array()).is_some_and(|t| {
                t.first().and_then(|p| p.as_i64()) == Some(0) && t.get(1).and_then(|n| n.as_i64()) == Some(1)
            });
            if !turn_frame_1 || line_of_frame.is_some() {
                return line.to_string();
            }
            line_of_frame = Some(i + 1);
            let walls = v.pointer_mut("/p1Units/0").and_then(|w| w.as_array_mut()).expect("p1Units[0]");
            walls.push(serde_json::json!([40, 40, 60.0, "123456"]));
            v.to_string()
        })
        .collect();
    let path = dir.join("unit-at-40-40.replay");
    std::fs::write(&path, lines.join("\n") + "\n").expect("the mutated replay written");
    (path, line_of_frame.expect("turn 1's turn frame in the replay"))
}

fn run(args: &[&str], path: &Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .arg(args[0])
        .arg(path)
        .args(&args[1..])
        .output()
        .expect("run terminal-studio");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

#[test]
fn verify_show_and_bench_name_the_frame_and_the_tile_of_a_unit_off_the_board() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (path, line) = write_lying_replay(dir.path());
    for args in [&["verify"][..], &["show", "--turn", "1"], &["bench", "--rounds", "1"]] {
        let (code, text) = run(args, &path);
        assert!(matches!(code, Some(1 | 2)), "{args:?}: exit code {code:?}\n{text}");
        assert!(!text.contains("panicked"), "{args:?}: a panic\n{text}");
        for words in ["turn 1, turn frame", "tile [40,40] is off the board", "p1Units[0]["] {
            assert!(text.contains(words), "{args:?}: no {words:?} in\n{text}");
        }
        assert!(text.contains(&format!("unit-at-40-40.replay:{line}")), "{args:?}: no line {line} in\n{text}");
    }
}
