//! A real replay made to lie: it parses, then one of its frames says what cannot be (a
//! unit at tile (40, 40)). Every entry point must refuse it with a clear error.

use super::corpus::replay as corpus;
use std::path::{Path, PathBuf};
use terminal_core::replay::reader::maybe_gunzip;

const REPLAY: &str = "live-2022/Acceleraizer__c1terminal-algo__1003.replay.gz";

/// A copy of the replay with a wall of player 1 at (40, 40) in turn 1's turn frame, and
/// the line it is on.
pub fn write_lying_replay(dir: &Path) -> (PathBuf, usize) {
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
