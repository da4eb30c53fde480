//! `terminal-studio show` against real replays: characters at known tiles.

use std::path::Path;
use std::process::Command;
use terminal_core::engine::config::{TURRET, WALL};
use terminal_core::engine::{Player, Tile};
use terminal_core::replay::read_replay;
use terminal_core::session::board_text::tile_cells;

use crate::common::corpus::replay as corpus;

const REPLAY: &str = "live-2022/Acceleraizer__c1terminal-algo__99.replay.gz";

/// The character printed at a tile: board row for y starts at line 1 + (27 − y), column 4 + 2x.
fn char_at(out: &str, t: Tile) -> char {
    let line = out.lines().nth(1 + (27 - t.y) as usize).unwrap_or("");
    line.chars().nth(4 + 2 * t.x as usize).unwrap_or(' ')
}

fn show(path: &Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .arg("show")
        .arg(path)
        .args(args)
        .output()
        .expect("run terminal-studio");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn show_prints_structures_where_the_replay_has_them() {
    let path = corpus(REPLAY);
    let replay = read_replay(&path).expect("replay");
    let start = replay.turn_starts()[30];
    let f = &replay.frames[start];
    let (ok, out, err) = show(&path, &["--turn", "30"]);
    assert!(ok, "{err}");
    let wall = f.units_of(Player::One)[WALL].first().expect("a P1 wall");
    assert_eq!(char_at(&out, wall.tile), 'W');
    let turret = f.units_of(Player::Two)[TURRET].first().expect("a P2 turret");
    assert_eq!(char_at(&out, turret.tile), 't');
    // Off-board corner and an empty tile.
    assert_eq!(char_at(&out, Tile::new(0, 0)), ' ');
    assert!(out.contains("legend:"));
    assert!(out.contains("turn 30 turn frame"));
    assert!(out.contains(&format!("P1  HP {:.1}", f.stats[0].hp)));
    assert_eq!(tile_cells(f).get(&wall.tile).map(|c| c[0]), Some('W'));
}

#[test]
fn show_prints_mobile_stacks_and_events_of_an_action_frame() {
    let path = corpus(REPLAY);
    let replay = read_replay(&path).expect("replay");
    // The first action frame with a P1 mobile unit on the board.
    let (k, f) = replay
        .frames
        .iter()
        .enumerate()
        .find(|(_, f)| {
            f.turn_info.action_frame == 2 && f.units_of(Player::One).iter().skip(3).take(3).any(|l| !l.is_empty())
        })
        .expect("an action frame with mobiles");
    let turn = f.turn_info.turn;
    let frame_in_turn = k - replay.turn_starts()[turn as usize];
    let (ok, out, err) = show(&path, &["--turn", &turn.to_string(), "--frame", &frame_in_turn.to_string()]);
    assert!(ok, "{err}");
    let (t, u) = f.real_units(Player::One).find(|(t, _)| *t >= 3).expect("mobile");
    let letter = ['P', 'D', 'I'][t - 3];
    assert_eq!(char_at(&out, u.tile), letter);
    assert!(out.contains("action frame 2"));
    assert!(out.contains("moves:"));
}

#[test]
fn show_reads_legacy_replays_and_rejects_bad_turns() {
    let path = corpus("legacy-2018/tim-zwart__Terminal_Algos__74v73.replay.gz");
    let (ok, out, err) = show(&path, &["--turn", "10"]);
    assert!(ok, "{err}");
    assert!(out.contains("turn 10 turn frame"));
    let (ok, _, err) = show(&path, &["--turn", "9999"]);
    assert!(!ok);
    assert!(err.contains("no turn 9999"));
}

/// `terminal-studio verify … | head -1`: the reader closes the pipe early; the command must end
/// quietly (the shell's SIGPIPE status), not panic with "failed printing to stdout".
#[test]
fn closed_stdout_pipe_ends_the_command_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .arg("verify")
        // The whole corpus: hundreds of lines still to print when the pipe closes.
        .arg(corpus(""))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn terminal-studio");
    let stdout = child.stdout.take().expect("stdout");
    let mut first = String::new();
    BufReader::new(stdout).read_line(&mut first).expect("first line");
    // The reader is dropped here: the pipe is closed while verify still has lines to print.
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(first.contains(".replay"), "first line: {first}");
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    assert_eq!(out.status.code(), Some(141), "stderr: {stderr}");
}
