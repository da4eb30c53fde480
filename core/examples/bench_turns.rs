//! The engine's instruction-count measure with the core alone (no studio build needed):
//! reads a replay, prepares its turns and simulates them `ROUNDS` times, as
//! `terminal-studio bench --rounds N` does. Under callgrind, the difference of two runs
//! (N and 0 rounds) divided by N × turns is the engine's cost of a turn.
//!
//! `cargo run -p terminal-core --release --example bench_turns -- REPLAY ROUNDS`

use std::path::PathBuf;
use terminal_core::replay::read_replay;
use terminal_core::verify::bench::Resimulation;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(rounds)) = (args.next(), args.next()) else {
        eprintln!("usage: bench_turns REPLAY ROUNDS");
        std::process::exit(2);
    };
    let path = PathBuf::from(path);
    let rounds: u64 = rounds.parse().unwrap_or_else(|e| panic!("ROUNDS: {e}"));
    let replay = read_replay(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut resimulation = Resimulation::new(&replay).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
    let (mut total_turns, mut total_frames) = (0u64, 0u64);
    for _ in 0..rounds {
        let (t, f) = resimulation.round();
        total_turns += t;
        total_frames += f;
    }
    println!(
        "{}: {} turns prepared; simulated {total_turns} turns, {total_frames} frames",
        path.display(),
        resimulation.turns()
    );
}
