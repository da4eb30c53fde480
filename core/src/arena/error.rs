//! What can stop an arena from starting or its files from being read and written.

pub(crate) use crate::panics::panic_text;
use std::path::PathBuf;

/// An arena error the caller can match; every file error names the file.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: no such file or folder", .0.display())]
    NotFound(PathBuf),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error(
        "{} already holds {count} results: resume to continue that arena, or choose another output folder",
        results.display()
    )]
    ResultsPresent { results: PathBuf, count: usize },
    #[error("cannot serialise a result record: {0}")]
    Record(#[from] serde_json::Error),
    #[error("cannot start the arena's {what} thread: {source}")]
    Thread { what: &'static str, source: std::io::Error },
    #[error("the arena thread panicked: {0}")]
    Panicked(String),
}

impl ArenaError {
    /// Tags an I/O error with the file it concerns.
    pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> ArenaError {
        let path = path.into();
        move |source| ArenaError::Io { path, source }
    }
}

/// Why a set of algos cannot make an arena plan.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanError {
    #[error("an arena needs at least two algos")]
    TooFewAlgos,
    #[error("two algos are both named {0:?} (the folder name); rename or copy one folder")]
    DuplicateName(String),
    #[error("algo name {0:?} contains \"__\" (reserved for job ids)")]
    ReservedName(String),
    #[error("the baseline is not among the algos")]
    NoBaseline,
    #[error("a gauntlet against ghosts is planned from its replays (Plan::vs_ghosts)")]
    GhostsNeedTheirPlan,
}

/// Why an SPRT setting (`elo0,elo1,alpha,beta`) was refused; the UI names its own field.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtParseError {
    #[error("{0:?}: expected elo0,elo1,alpha,beta (numbers)")]
    NotNumbers(String),
    #[error("{0:?}: expected four numbers elo0,elo1,alpha,beta")]
    WrongCount(String),
    #[error("alpha and beta must be in (0, 0.5)")]
    AlphaBeta,
    #[error("elo1 must be greater than elo0")]
    EloOrder,
}
