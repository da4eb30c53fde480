//! The command line: clap subcommands, each a thin shell over the library. Every command
//! states its arguments once, as a `clap::Args` struct in its own file, and returns an
//! [`Outcome`] or a [`CliError`]; [`run`] turns both into the one exit-status convention
//! written in `error.rs`.

/// `println!` for command output that may be piped into `head` or `less`: a closed pipe ends
/// the process quietly with the shell's SIGPIPE status (141) instead of panicking. Rust keeps
/// SIGPIPE ignored on purpose (the runner writes to algo pipes that may close), so stdout
/// errors are handled here.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout().lock(), $($arg)*).is_err() {
            std::process::exit(i32::from($crate::cli::error::EXIT_CLOSED_PIPE));
        }
    }};
}

// One module per line, in order, so that a new command is a one-line addition here.
mod arena_cmd;
mod attack_cmd;
mod bench_cmd;
mod bench_paths_cmd;
mod bench_read_cmd;
mod confine_args;
pub mod error;
mod index_folder;
mod library_cmd;
mod library_sync_cmd;
mod limits;
mod match_cmd;
mod regress_cmd;
mod show_cmd;
mod signals;
mod stress_cmd;
mod verify_cmd;
mod versions_cmd;
mod view_cmd;

pub use error::{CliError, Outcome};

use clap::{CommandFactory, Parser, Subcommand};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What the program is: the first line of its help.
const ABOUT: &str = "A fast native workbench for Terminal (Correlation One)";

#[derive(Parser, Debug)]
#[command(
    name = "terminal-studio",
    version,
    args_conflicts_with_subcommands = true,
    about = ABOUT,
    after_help = "Exit status: 0 done; 1 ran and found a difference or a failure; 2 bad input or usage; \
                  130 interrupted by a signal."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// A layout (.json) or replay (.replay, .replay.gz) file to open in the studio window.
    pub file: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Re-simulate real replays frame by frame and report fidelity.
    Verify(verify_cmd::VerifyArgs),
    /// Play a match: each seat an algo (a folder holding run.sh, or a start script) or a
    /// ghost, `ghost:REPLAY[:1|2]`, the commands player 1 or 2 of a recorded replay issued.
    Match(match_cmd::MatchArgs),
    /// Play many matches among algos (round-robin, or a gauntlet with --vs), in parallel,
    /// with results appended as each match ends and a statistics summary.
    Arena(arena_cmd::ArenaArgs),
    /// Open the studio window (the default when no subcommand is given).
    Gui(OpenArgs),
    /// Open a replay in the studio's viewer / debugger: a file, or a match of the game's
    /// website by its id or watch link (downloaded into the studio's cache first).
    View(view_cmd::ViewArgs),
    /// Measure the time to recompute all 56 edge paths of a layout (the editor's per-edit cost).
    BenchPaths(bench_paths_cmd::BenchPathsArgs),
    /// Measure engine speed re-simulating a replay's turns.
    Bench(bench_cmd::BenchArgs),
    /// Measure how fast replays are read on one thread, beside Python's gzip + json.loads
    /// of the same files and beside inflating alone.
    BenchRead(bench_read_cmd::BenchReadArgs),
    /// Print a replay frame as a text board (units as characters, legend, stats, events).
    Show(show_cmd::ShowArgs),
    /// Test a base layout against every recorded attack of real replays (the layout lab);
    /// with --suggest, the changes that most reduce the HP it loses within an SP budget.
    Stress(stress_cmd::StressArgs),
    /// Where and what to send against the base in front of a player (the attack planner):
    /// a replay's turn (--turn T --seat S) or a layout (--mp X), best deploys first.
    Attack(attack_cmd::AttackArgs),
    /// Index a folder of replays (incrementally, into SQLite) and sum it up from one player's
    /// side: every game, results by opponent, where the opponents breached.
    Library(library_cmd::LibraryArgs),
    /// Save an algo folder as a version (an immutable copy named by its content's hash), or
    /// list its saved versions.
    Versions(versions_cmd::VersionsArgs),
    /// Compare an algo with a saved version of it: head to head (game pairs, stopped by an
    /// SPRT) and against the same ghosts and algos, with the games whose result flipped and
    /// the first turn the two versions played differently.
    Regress(regress_cmd::RegressArgs),
}

#[derive(clap::Args, Debug)]
pub struct OpenArgs {
    /// A layout (or replay) file to open.
    pub file: Option<PathBuf>,
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Invocation {
    /// The studio window, opening this file if given.
    Studio(Option<PathBuf>),
    /// A command without a window.
    Run(Box<Command>),
}

/// Reads the command line. A lone argument that is not a subcommand opens the studio only
/// when it names a file the studio opens (or any existing file); otherwise it is a mistyped
/// subcommand, and the error is clap's, with its suggestion (`mach`: did you mean `match`?).
pub fn parse_from<I, T>(args: I) -> Result<Invocation, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli =
        Cli::try_parse_from(&args).map_err(|e| if mistyped_subcommand(&args) { subcommand_error(&args) } else { e })?;
    match (cli.command, cli.file) {
        (Some(Command::Gui(OpenArgs { file })), _) | (None, file @ None) => Ok(Invocation::Studio(file)),
        (Some(Command::View(view)), _) if view.is_local_file() => Ok(Invocation::Studio(Some(view.replay.into()))),
        (Some(command), _) => Ok(Invocation::Run(Box::new(command))),
        (None, Some(file)) if opens_in_studio(&file) => Ok(Invocation::Studio(Some(file))),
        (None, Some(_)) => Err(subcommand_error(&args)),
    }
}

/// The first argument is a word that is neither an option, a subcommand (clap's own `help`
/// included), nor a file to open.
fn mistyped_subcommand(args: &[OsString]) -> bool {
    let Some(word) = args.get(1).map(|w| w.to_string_lossy()) else { return false };
    let mut cli = Cli::command();
    // Built, the command has the `help` subcommand clap adds; unbuilt, `help` looks mistyped.
    cli.build();
    !word.starts_with('-') && cli.find_subcommand(&*word).is_none() && !opens_in_studio(Path::new(&*word))
}

/// A layout, a replay, or any file that exists (the studio says what it makes of it).
fn opens_in_studio(file: &Path) -> bool {
    let name = file.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    [".json", ".replay", ".replay.gz"].iter().any(|ext| name.ends_with(ext)) || file.is_file()
}

// The command line without the file to open: what a lone word that is not a file must be.
// (A doc comment here would be the `about` of its help, printed first.)
#[derive(Parser, Debug)]
#[command(name = "terminal-studio", about = ABOUT)]
struct SubcommandOnly {
    #[command(subcommand)]
    _command: Command,
}

/// Clap's error for the same arguments read as a subcommand, with its suggestion.
fn subcommand_error(args: &[OsString]) -> clap::Error {
    match SubcommandOnly::try_parse_from(args) {
        Err(e) => e,
        // Not reached: `parse_from` asks only when the word is not a subcommand.
        Ok(_) => Cli::command().error(clap::error::ErrorKind::InvalidSubcommand, "not a file to open"),
    }
}

impl Command {
    /// Runs the command (the window ones open the studio).
    pub fn run(self) -> Result<Outcome, CliError> {
        match self {
            Command::Verify(args) => verify_cmd::run(&args),
            Command::Match(args) => match_cmd::run(&args),
            Command::Arena(args) => arena_cmd::run(&args),
            Command::BenchPaths(args) => bench_paths_cmd::run(&args),
            Command::Bench(args) => bench_cmd::run(&args),
            Command::BenchRead(args) => bench_read_cmd::run(&args),
            Command::Show(args) => show_cmd::run(&args),
            Command::Stress(args) => stress_cmd::run(&args),
            Command::Attack(args) => attack_cmd::run(&args),
            Command::Library(args) => match &args.action {
                Some(library_cmd::LibraryAction::Sync(sync)) => library_sync_cmd::run(sync),
                None => library_cmd::run(&args),
            },
            Command::Versions(args) => versions_cmd::run(&args),
            Command::Regress(args) => regress_cmd::run(&args),
            Command::Gui(OpenArgs { file }) => Ok(open_studio(file)),
            Command::View(view) => match view_cmd::fetch(&view)? {
                Some(file) if !view.download_only => Ok(open_studio(Some(file))),
                _ => Ok(Outcome::Done),
            },
        }
    }
}

/// The studio window; a window that cannot open is a failure (the studio said why).
fn open_studio(file: Option<PathBuf>) -> Outcome {
    if crate::app::run(file) == ExitCode::SUCCESS { Outcome::Done } else { Outcome::Found }
}

/// The program: parse, run, and exit with the status of [`error`]'s convention.
pub fn run() -> ExitCode {
    let invocation = match parse_from(std::env::args_os()) {
        Ok(i) => i,
        // Help and version print to stdout and exit 0; errors print to stderr and exit 2.
        Err(e) => e.exit(),
    };
    let result = match invocation {
        Invocation::Studio(file) => Ok(open_studio(file)),
        Invocation::Run(command) => command.run(),
    };
    match result {
        Ok(outcome) => outcome.into(),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_status())
        }
    }
}
