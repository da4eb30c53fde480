//! `terminal-studio match`: a thin shell over the runner.

use crate::engine::presets::{DEFAULT_PRESET, load_config};
use crate::runner::{MatchSpec, ReplayTarget, run_match_blocking};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

pub struct MatchArgs {
    pub algo1: PathBuf,
    pub algo2: PathBuf,
    pub config: Option<String>,
    pub replay: Option<PathBuf>,
    pub out: Option<PathBuf>,
    pub seed: Option<u64>,
    pub soft_ms: Option<u64>,
    pub max_ms: Option<u64>,
    pub startup_ms: Option<u64>,
    pub verbose: bool,
}

pub fn run(args: MatchArgs) -> ExitCode {
    let config = match load_config(args.config.as_deref().unwrap_or(DEFAULT_PRESET)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut spec = MatchSpec::new(args.algo1, args.algo2, Arc::new(config));
    spec.replay = match (args.replay, args.out) {
        (Some(path), _) => ReplayTarget::File(path),
        (None, Some(dir)) => ReplayTarget::Dir(dir),
        (None, None) => ReplayTarget::Dir(PathBuf::from("replays")),
    };
    spec.seed = args.seed;
    spec.soft_ms = args.soft_ms;
    spec.max_ms = args.max_ms;
    spec.startup_ms = args.startup_ms;
    spec.verbose = args.verbose;
    match run_match_blocking(spec) {
        Ok(result) => {
            println!("{}", result.summary());
            println!("replay: {}", result.replay_path.display());
            if args.verbose {
                let o = result.overhead;
                eprintln!(
                    "runner overhead: {:.0} µs/turn wall mean, {} µs max; {:.0} µs/turn CPU; {} turns",
                    o.mean_us(),
                    o.max_turn_us,
                    o.cpu_mean_us(),
                    o.turns
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
