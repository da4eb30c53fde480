//! The command line: clap subcommands, each a thin shell over the library.

mod bench_cmd;
mod bench_paths_cmd;
mod match_cmd;
mod show_cmd;
mod verify_cmd;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "terminal-studio",
    version,
    args_conflicts_with_subcommands = true,
    about = "A fast native workbench for Terminal (Correlation One)"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// A layout (or replay) file to open in the studio window.
    pub file: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Re-simulate real replays frame by frame and report fidelity.
    Verify {
        /// Replay files or folders (searched recursively for *.replay and *.replay.gz).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// One JSON object per replay, then a summary object.
        #[arg(long)]
        json: bool,
        /// Worker threads (default: number of cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Print only diverged replays and the summary.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Play a match between two algos (folders holding run.sh, or start scripts).
    Match {
        algo1: PathBuf,
        algo2: PathBuf,
        /// A preset name or a game-configs.json file.
        #[arg(long)]
        config: Option<String>,
        /// The replay file to write (must not exist).
        #[arg(long, conflicts_with = "out")]
        replay: Option<PathBuf>,
        /// Folder for the replay (unique file name); default ./replays.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Seed exported to both algos (TERMINAL_STUDIO_SEED, ALGO_SEED).
        #[arg(long)]
        seed: Option<u64>,
        /// Soft time limit per turn in ms (overrides waitTimeBotSoft).
        #[arg(long)]
        soft_ms: Option<u64>,
        /// Hard time limit per turn in ms (overrides waitTimeBotMax).
        #[arg(long)]
        max_ms: Option<u64>,
        /// Start-up allowance in ms taken off turn 0's time (default waitTimeStartGame).
        #[arg(long)]
        startup_ms: Option<u64>,
        /// Echo the algos' stderr and the runner's messages live.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Open the studio window (the default when no subcommand is given).
    Gui {
        /// A layout (or replay) file to open.
        file: Option<PathBuf>,
    },
    /// Measure the time to recompute all 56 edge paths of a layout (the editor's per-edit cost).
    BenchPaths {
        /// A layout file (default: an empty board).
        layout: Option<PathBuf>,
        /// Repetitions.
        #[arg(long, default_value_t = 2000)]
        iterations: usize,
    },
    /// Measure engine speed re-simulating a replay's turns.
    Bench {
        replay: PathBuf,
        /// Seconds to run.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Run exactly this many rounds instead (for instruction counting).
        #[arg(long)]
        rounds: Option<u64>,
    },
    /// Print a replay frame as a text board (units as characters, legend, stats, events).
    Show {
        replay: PathBuf,
        #[arg(long)]
        turn: i32,
        /// Frame within the turn: 0 = turn frame, k = action frame k − 1.
        #[arg(long, default_value_t = 0)]
        frame: usize,
    },
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Verify { paths, json, jobs, quiet }) => verify_cmd::run(&paths, json, jobs, quiet),
        Some(Command::Bench { replay, seconds, rounds }) => bench_cmd::run(&replay, seconds, rounds),
        Some(Command::Show { replay, turn, frame }) => show_cmd::run(&replay, turn, frame),
        Some(Command::Match { algo1, algo2, config, replay, out, seed, soft_ms, max_ms, startup_ms, verbose }) => {
            match_cmd::run(match_cmd::MatchArgs {
                algo1,
                algo2,
                config,
                replay,
                out,
                seed,
                soft_ms,
                max_ms,
                startup_ms,
                verbose,
            })
        }
        Some(Command::BenchPaths { layout, iterations }) => bench_paths_cmd::run(layout.as_deref(), iterations),
        Some(Command::Gui { file }) => crate::app::run(file),
        None => crate::app::run(cli.file),
    }
}
