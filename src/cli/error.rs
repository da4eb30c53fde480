//! Errors of the command line and the exit status of every command.
//!
//! One convention for all commands: 0 the command did what was asked; 1 it ran and found a
//! difference or a failure (a diverged replay, a match or an arena that could not finish); 2
//! the input or the usage is wrong (a missing file, an unknown preset, flags that do not go
//! together, and clap's own errors). Two statuses come from the shell's conventions: 130 when
//! a signal interrupted the command, 141 when the reader of its output went away.

use std::path::PathBuf;
use std::process::ExitCode;
use terminal_core::arena::{ArenaError, ArenaSpecError};
use terminal_core::engine::config::{ConfigLoadError, UnsimulatedRules};
use terminal_core::layout::files::LayoutFileError;
use terminal_core::library::LibraryError;
use terminal_core::replay::ReplayError;
use terminal_core::runner::{GhostError, LocateError, RunnerError};
use terminal_core::verify::rebuild::RebuildError;
use terminal_core::versions::VersionsError;

/// Done: the command did what was asked.
pub const EXIT_DONE: u8 = 0;
/// The command ran and found a difference or a failure.
pub const EXIT_FOUND: u8 = 1;
/// Bad input or usage (clap exits with it too).
pub const EXIT_USAGE: u8 = 2;
/// A signal (Ctrl+C, SIGTERM, SIGHUP) interrupted the command: 128 + SIGINT.
pub const EXIT_INTERRUPTED: u8 = 130;
/// The reader of stdout closed the pipe: 128 + SIGPIPE, what a shell shows for it.
pub const EXIT_CLOSED_PIPE: u8 = 141;

/// How a command that ran ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Done,
    /// It ran and found a difference or a failure (already reported).
    Found,
    Interrupted,
}

impl From<Outcome> for ExitCode {
    fn from(o: Outcome) -> ExitCode {
        ExitCode::from(match o {
            Outcome::Done => EXIT_DONE,
            Outcome::Found => EXIT_FOUND,
            Outcome::Interrupted => EXIT_INTERRUPTED,
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Stress(#[from] super::stress_cmd::StressInputError),
    #[error("{}: {source}", path.display())]
    Plan { path: PathBuf, source: terminal_core::planner::PlanError },
    #[error(transparent)]
    ArenaSettings(#[from] ArenaSpecError),
    #[error("{}", arena_text(.0))]
    Arena(#[from] ArenaError),
    #[error(transparent)]
    Config(#[from] ConfigLoadError),
    #[error(transparent)]
    Unsimulated(#[from] UnsimulatedRules),
    #[error(transparent)]
    Algo(#[from] LocateError),
    #[error(transparent)]
    Ghost(#[from] GhostError),
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("{}: {source}", path.display())]
    Rebuild { path: PathBuf, source: RebuildError },
    #[error(transparent)]
    Layout(#[from] LayoutFileError),
    #[error("{}: no turn {turn} (turns 0–{last})", path.display())]
    NoSuchTurn { path: PathBuf, turn: i32, last: i32 },
    #[error("{}: turn {turn} has frames 0–{last}", path.display())]
    NoSuchFrame { path: PathBuf, turn: i32, last: usize },
    #[error("no replay files (*.replay, *.replay.gz) under {}", list(paths))]
    NoReplays { paths: Vec<PathBuf> },
    /// The match could not be played (its algos' misbehaviour is a result, not this).
    #[error(transparent)]
    Match(#[from] RunnerError),
    #[error("cannot serialise a result record: {0}")]
    Record(#[from] serde_json::Error),
    /// Writing an output (or making its folder) failed while the command ran.
    #[error("cannot {doing} {}: {source}", path.display())]
    Write { doing: &'static str, path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    Library(terminal_core::library::LibraryError),
    #[error(transparent)]
    Versions(#[from] VersionsError),
    #[error(transparent)]
    Sync(#[from] terminal_core::library::sync::SyncError),
    /// The arguments do not make sense together; the text says which.
    #[error("{0}")]
    Usage(&'static str),
}

impl CliError {
    /// Tags a failed write with what was being written and where.
    pub fn write(doing: &'static str, path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> CliError {
        let path = path.into();
        move |source| CliError::Write { doing, path, source }
    }

    /// [`EXIT_FOUND`] for a failure while running, [`EXIT_USAGE`] for input or usage.
    pub fn exit_status(&self) -> u8 {
        match self {
            CliError::Match(_) | CliError::Record(_) | CliError::Write { .. } => EXIT_FOUND,
            CliError::Stress(super::stress_cmd::StressInputError::Run(_)) => EXIT_FOUND,
            CliError::Stress(super::stress_cmd::StressInputError::Plan(terminal_core::planner::PlanError::Run(_))) => {
                EXIT_FOUND
            }
            CliError::Stress(_) => EXIT_USAGE,
            CliError::Plan { source: terminal_core::planner::PlanError::Run(_), .. } => EXIT_FOUND,
            CliError::Plan { .. } => EXIT_USAGE,
            CliError::Library(e) => match e {
                LibraryError::NotAFolder { .. } | LibraryError::NewerSchema { .. } => EXIT_USAGE,
                LibraryError::Sqlite { .. } | LibraryError::Io { .. } | LibraryError::Attacks(_) => EXIT_FOUND,
            },
            CliError::Versions(e) => versions_status(e),
            CliError::Sync(e) => sync_status(e),
            CliError::Arena(e) => match e {
                ArenaError::NotFound(_) | ArenaError::Plan(_) | ArenaError::ResultsPresent { .. } => EXIT_USAGE,
                ArenaError::Io { .. } | ArenaError::Record(_) | ArenaError::Thread { .. } | ArenaError::Panicked(_) => {
                    EXIT_FOUND
                }
            },
            CliError::ArenaSettings(_)
            | CliError::Config(_)
            | CliError::Unsimulated(_)
            | CliError::Algo(_)
            | CliError::Ghost(_)
            | CliError::Replay(_)
            | CliError::Rebuild { .. }
            | CliError::Layout(_)
            | CliError::NoSuchTurn { .. }
            | CliError::NoSuchFrame { .. }
            | CliError::NoReplays { .. }
            | CliError::Usage(_) => EXIT_USAGE,
        }
    }
}

/// Bad input (a missing folder, an unknown version, a ruleset or ghosts that cannot be used)
/// against a failure while running (files, the cache, the games).
fn versions_status(e: &VersionsError) -> u8 {
    match e {
        VersionsError::NotAFolder(_)
        | VersionsError::NoSuchVersion { .. }
        | VersionsError::AmbiguousVersion { .. }
        | VersionsError::NoBase { .. }
        | VersionsError::FirstVersion { .. }
        | VersionsError::Ruleset(_)
        | VersionsError::Unsimulated(_)
        | VersionsError::Ghosts(_)
        | VersionsError::NoPlayableGhosts(_)
        | VersionsError::Algo(_)
        | VersionsError::Sprt(_) => EXIT_USAGE,
        VersionsError::Io { .. }
        | VersionsError::List { .. }
        | VersionsError::Cache { .. }
        | VersionsError::CachedRecord { .. }
        | VersionsError::Replay { .. }
        | VersionsError::Arena(_)
        | VersionsError::Thread(_)
        | VersionsError::Panicked(_) => EXIT_FOUND,
    }
}

fn list(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}

/// The arena's words, with the flags that resume a run or choose another folder.
fn arena_text(e: &ArenaError) -> String {
    match e {
        ArenaError::ResultsPresent { results, count } => format!(
            "{} already holds {count} results: pass --resume to continue that arena, or choose another --out",
            results.display()
        ),
        other => other.to_string(),
    }
}

/// An unknown user, algo or match, or an argument that names none, is bad input; anything
/// else (the site failing, a full disk) is a failure of the run.
fn sync_status(e: &terminal_core::library::sync::SyncError) -> u8 {
    use terminal_core::library::sync::SyncError;
    match e {
        SyncError::NotFound { .. } | SyncError::NotAMatch(_) => EXIT_USAGE,
        SyncError::Cancelled => EXIT_INTERRUPTED,
        _ => EXIT_FOUND,
    }
}
