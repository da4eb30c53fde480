//! Errors of the command line: the core's errors, worded with the flags a user typed.

use std::path::PathBuf;
use terminal_core::arena::{ArenaError, PlanError, SprtParseError};
use terminal_core::engine::config::{ConfigLoadError, UnsimulatedRules};
use terminal_core::runner::{GhostError, LocateError};

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("{}", arena_text(.0))]
    Arena(#[from] ArenaError),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error(transparent)]
    Config(#[from] ConfigLoadError),
    #[error(transparent)]
    Unsimulated(#[from] UnsimulatedRules),
    #[error(transparent)]
    Algo(#[from] LocateError),
    #[error(transparent)]
    Ghost(#[from] GhostError),
    #[error("--sprt: {0}")]
    Sprt(#[from] SprtParseError),
    #[error("cannot serialise a result record: {0}")]
    Record(#[from] serde_json::Error),
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    /// The arguments do not make sense together; the text says which.
    #[error("{0}")]
    Usage(&'static str),
}

impl CliError {
    pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> CliError {
        let path = path.into();
        move |source| CliError::Io { path, source }
    }
}

/// The arena's words, with the flag that resumes a run where the GUI has a checkbox.
fn arena_text(e: &ArenaError) -> String {
    match e {
        ArenaError::ResultsPresent { results, count } => format!(
            "{} already holds {count} results: pass --resume to continue that arena, or choose another --out",
            results.display()
        ),
        other => other.to_string(),
    }
}
