//! The command line: clap subcommands, each a thin shell over the library.

/// `println!` for command output that may be piped into `head` or `less`: a closed pipe ends
/// the process quietly with the shell's SIGPIPE status (141) instead of panicking. Rust keeps
/// SIGPIPE ignored on purpose (the runner writes to algo pipes that may close), so stdout
/// errors are handled here.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout().lock(), $($arg)*).is_err() {
            std::process::exit(141);
        }
    }};
}

mod arena_cmd;
mod bench_cmd;
mod bench_paths_cmd;
mod error;
mod limits;
mod match_cmd;
mod show_cmd;
mod signals;
mod stress_cmd;
mod verify_cmd;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use terminal_core::arena::ghosts::GhostChoice;

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
        /// Play each replay's two players as ghosts against each other through the runner
        /// and compare the new replay with the recorded one, frame by frame.
        #[arg(long)]
        ghosts: bool,
    },
    /// Play a match: each seat an algo (a folder holding run.sh, or a start script) or a
    /// ghost, `ghost:REPLAY[:1|2]`, the commands player 1 or 2 of a recorded replay issued.
    Match {
        seat1: String,
        seat2: String,
        /// A preset name or a game-configs.json file (default: a ghost's replay config, else
        /// base-s6).
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
        #[command(flatten)]
        limits: limits::TimeLimitArgs,
        /// Echo the algos' stderr and the runner's messages live.
        #[arg(long, short)]
        verbose: bool,
        /// Append the result as one JSON line (the arena's results.jsonl record) to this file.
        #[arg(long)]
        result_json: Option<PathBuf>,
        /// The job id written in that record (arena plans set it; default `<algo1>__<algo2>__g0`).
        #[arg(long)]
        job_id: Option<String>,
    },
    /// Play many matches among algos (round-robin, or a gauntlet with --vs), in parallel,
    /// with results appended as each match ends and a statistics summary.
    Arena {
        /// Algo folders (or start scripts); with --merge, result files or folders.
        algos: Vec<PathBuf>,
        /// Games per pairing (rounded up to even: seats swapped equally).
        #[arg(long, default_value_t = 10)]
        games: u32,
        /// Matches at once (default: the number of cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// A preset name or a game-configs.json file.
        #[arg(long)]
        config: Option<String>,
        /// Output folder (default ./arena).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Gauntlet: every algo plays this baseline (instead of a round-robin).
        #[arg(long, value_name = "BASELINE")]
        vs: Option<PathBuf>,
        /// Gauntlet against ghosts: the one algo plays a recorded player of every replay in
        /// DIR (the ghost keeps its seat; one game each) under each replay's own ruleset
        /// unless --config is given, and is compared with the recorded player it replaces.
        #[arg(long, value_name = "DIR", conflicts_with_all = ["vs", "plan", "merge", "sprt"])]
        vs_ghosts: Option<PathBuf>,
        /// With --vs-ghosts: the ghost is player N of every replay (default 2).
        #[arg(long, value_name = "N", requires = "vs_ghosts", conflicts_with = "opponent_of", value_parser = clap::value_parser!(u8).range(1..=2))]
        seat: Option<u8>,
        /// With --vs-ghosts: the ghost is, in each replay, the opponent of the player NAME
        /// (a player's own ladder replays: the algo takes NAME's seat).
        #[arg(long, value_name = "NAME", requires = "vs_ghosts")]
        opponent_of: Option<String>,
        /// Continue the arena in --out, skipping the matches already in results.jsonl.
        #[arg(long)]
        resume: bool,
        /// Stop early when the SPRT decides (two algos): `--sprt` (0,100,0.05,0.05) or
        /// `--sprt=ELO0,ELO1,ALPHA,BETA`.
        #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "", value_name = "ELO0,ELO1,ALPHA,BETA")]
        sprt: Option<String>,
        /// Seed of the first pair of games (games 2k and 2k+1 get seed + k).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        limits: limits::TimeLimitArgs,
        /// Write the arena as a job list (OUT/plan.txt and stdout): one `match` line per game.
        #[arg(long, conflicts_with_all = ["merge", "resume"])]
        plan: bool,
        /// Combine result files (*.jsonl under the given folders) into one summary.
        #[arg(long)]
        merge: bool,
    },
    /// Open the studio window (the default when no subcommand is given).
    Gui {
        /// A layout (or replay) file to open.
        file: Option<PathBuf>,
    },
    /// Open a replay in the studio's viewer / debugger.
    View {
        /// A `.replay` or `.replay.gz` file.
        file: PathBuf,
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
    /// Run a base layout against every recorded attack of real replays (the layout lab);
    /// exit 1 if it lost HP to any, 2 on bad input.
    Stress(stress_cmd::StressArgs),
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
        Some(Command::Verify { paths, json, jobs, quiet, ghosts }) => {
            verify_cmd::run(&paths, json, jobs, quiet, ghosts)
        }
        Some(Command::Bench { replay, seconds, rounds }) => bench_cmd::run(&replay, seconds, rounds),
        Some(Command::Show { replay, turn, frame }) => show_cmd::run(&replay, turn, frame),
        Some(Command::Match { seat1, seat2, config, replay, out, seed, limits, verbose, result_json, job_id }) => {
            match_cmd::run(match_cmd::MatchArgs {
                seats: [seat1, seat2],
                config,
                replay,
                out,
                seed,
                limits,
                verbose,
                result_json,
                job_id,
            })
        }
        Some(Command::Arena {
            algos,
            games,
            jobs,
            config,
            out,
            vs,
            vs_ghosts,
            seat,
            opponent_of,
            resume,
            sprt,
            seed,
            limits,
            plan,
            merge,
        }) => {
            let ghost_choice = match (seat, opponent_of) {
                (_, Some(name)) => GhostChoice::OpponentOf(name),
                (Some(1), None) => GhostChoice::Seat(terminal_core::engine::geometry::Player::One),
                _ => GhostChoice::Seat(terminal_core::engine::geometry::Player::Two),
            };
            arena_cmd::run(arena_cmd::ArenaArgs {
                algos,
                games,
                jobs,
                config,
                out,
                vs,
                vs_ghosts: vs_ghosts.map(|d| (d, ghost_choice)),
                resume,
                sprt,
                seed,
                limits,
                plan,
                merge,
            })
        }
        Some(Command::Stress(args)) => stress_cmd::run(args),
        Some(Command::BenchPaths { layout, iterations }) => bench_paths_cmd::run(layout.as_deref(), iterations),
        Some(Command::Gui { file }) => crate::app::run(file),
        Some(Command::View { file }) => crate::app::run(Some(file)),
        None => crate::app::run(cli.file),
    }
}
