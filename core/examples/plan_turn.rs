//! The attack planner's full search of one turn, as `terminal-studio attack REPLAY --turn T
//! --seat S --jobs 1` runs it (the search and the options table), with the core alone: a
//! binary with the engine's symbols to profile the planner's jobs under callgrind.
//!
//! `cargo run -p terminal-core --release --example plan_turn -- REPLAY TURN SEAT`

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use terminal_core::engine::Player;
use terminal_core::planner::{PlanBoard, PlanRequest, options, plan};
use terminal_core::replay::read_replay;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, turn, seat] = args.as_slice() else {
        eprintln!("usage: plan_turn REPLAY TURN SEAT");
        std::process::exit(2);
    };
    let path = PathBuf::from(path);
    let turn: i32 = turn.parse().unwrap_or_else(|e| panic!("TURN: {e}"));
    let attacker = match seat.as_str() {
        "1" => Player::One,
        "2" => Player::Two,
        _ => panic!("SEAT: 1 or 2"),
    };
    let replay = read_replay(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let board = PlanBoard::from_replay(&replay, turn, attacker).unwrap_or_else(|e| panic!("{e}"));
    let request = PlanRequest { jobs: 1, ..PlanRequest::default() };
    let cancel = AtomicBool::new(false);
    let result = plan(&board, &request, &|_| {}, &cancel).unwrap_or_else(|e| panic!("{e}"));
    let rows = options(&board, &result, 10, 1, &cancel).unwrap_or_else(|e| panic!("{e}"));
    println!("{} candidates, {} options", result.top(usize::MAX).len(), rows.len());
}
