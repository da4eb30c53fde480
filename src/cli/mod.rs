//! The command line: clap subcommands, each a thin shell over the library.

mod bench_cmd;
mod bench_paths_cmd;
mod verify_cmd;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "terminal-studio", version, args_conflicts_with_subcommands = true, about = "A fast native workbench for Terminal (Correlation One)")]
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
    },
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Verify { paths, json, jobs, quiet }) => verify_cmd::run(&paths, json, jobs, quiet),
        Some(Command::Bench { replay, seconds }) => bench_cmd::run(&replay, seconds),
        Some(Command::BenchPaths { layout, iterations }) => bench_paths_cmd::run(layout.as_deref(), iterations),
        Some(Command::Gui { file }) => crate::app::run(file),
        None => crate::app::run(cli.file),
    }
}
