//! `verify`, `show` and `bench` on a replay that parses but lies (a unit at tile (40, 40) in
//! a turn frame's structure list): a clear error naming the frame and the tile, exit 1 or 2,
//! never a panic.

use std::path::Path;
use std::process::Command;

use crate::common::lying::write_lying_replay;

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
