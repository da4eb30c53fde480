//! `terminal-studio bench`: turns/s and frames/s re-simulating a replay's turns.

use super::error::{CliError, Outcome};
use std::path::PathBuf;
use terminal_core::replay::read_replay;
use terminal_core::verify::bench::Resimulation;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    pub replay: PathBuf,
    /// Seconds to run.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
    /// Run exactly this many rounds instead (for instruction counting).
    #[arg(long)]
    pub rounds: Option<u64>,
}

pub fn run(args: &BenchArgs) -> Result<Outcome, CliError> {
    let path = &args.replay;
    let replay = read_replay(path)?;
    let mut resimulation =
        Resimulation::new(&replay).map_err(|source| CliError::Rebuild { path: path.clone(), source })?;
    out!("{}: {} turns; running for {:.1}s on one thread", path.display(), resimulation.turns(), args.seconds);
    let started = std::time::Instant::now();
    let (mut total_turns, mut total_frames) = (0u64, 0u64);
    let mut rounds = 0u64;
    while args.rounds.map_or(started.elapsed().as_secs_f64() < args.seconds, |n| rounds < n) {
        let (t, f) = resimulation.round();
        total_turns += t;
        total_frames += f;
        rounds += 1;
    }
    let secs = started.elapsed().as_secs_f64();
    out!("rounds: {rounds} turns: {total_turns} frames: {total_frames} seconds: {secs:.3}");
    out!("turns/s: {:.0} frames/s: {:.0}", total_turns as f64 / secs, total_frames as f64 / secs);
    Ok(Outcome::Done)
}
