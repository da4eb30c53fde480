//! `terminal-studio bench`: turns/s and frames/s re-simulating a replay's turns.

use std::path::Path;
use std::process::ExitCode;
use terminal_core::replay::read_replay;
use terminal_core::verify::bench::{prepare_turns, simulate_turns};

pub fn run(path: &Path, seconds: f64, rounds_wanted: Option<u64>) -> ExitCode {
    let replay = match read_replay(path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let turns = match prepare_turns(&replay) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    println!("{}: {} turns; running for {seconds:.1}s on one thread", path.display(), turns.len());
    let started = std::time::Instant::now();
    let (mut total_turns, mut total_frames) = (0u64, 0u64);
    let mut rounds = 0u64;
    while rounds_wanted.map_or(started.elapsed().as_secs_f64() < seconds, |n| rounds < n) {
        let (t, f) = simulate_turns(&turns);
        total_turns += t;
        total_frames += f;
        rounds += 1;
    }
    let secs = started.elapsed().as_secs_f64();
    println!("rounds: {rounds} turns: {total_turns} frames: {total_frames} seconds: {secs:.3}");
    println!("turns/s: {:.0} frames/s: {:.0}", total_turns as f64 / secs, total_frames as f64 / secs);
    ExitCode::SUCCESS
}
