//! What can go wrong with saved versions and their comparison; every error names its file.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum VersionsError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: not a folder (an algo to save is a folder)", .0.display())]
    NotAFolder(PathBuf),
    #[error("{}:{line}: not a list of versions: {message}", path.display())]
    List { path: PathBuf, line: usize, message: String },
    #[error("{}: no saved version is named {name:?} (a label, or the start of a hash)", algo.display())]
    NoSuchVersion { algo: PathBuf, name: String },
    #[error("{name:?} starts the hash of {count} versions: give more of it")]
    AmbiguousVersion { name: String, count: usize },
    #[error("{}: no saved version differs from the folder as it is: save one first, or name a base", algo.display())]
    NoBase { algo: PathBuf },
    /// Not a failure: the algo's first version was just saved (or is the only one), so a
    /// comparison with the previous one has nothing to compare with yet.
    #[error(
        "{}: saved as its first version ({version}); there is no earlier version to compare it with yet. \
         Change the algo and compare again to compare the change with this version (or name another \
         base: a saved version or an algo folder)",
        algo.display()
    )]
    FirstVersion { algo: PathBuf, version: String },
    #[error("{}: the result cache: {source}", db.display())]
    Cache { db: PathBuf, source: rusqlite::Error },
    #[error("{}: a cached result: {message}", db.display())]
    CachedRecord { db: PathBuf, message: String },
    #[error("{}: {message}", path.display())]
    Replay { path: PathBuf, message: String },
    #[error("ruleset: {0}")]
    Ruleset(#[from] crate::engine::config::ConfigLoadError),
    #[error(transparent)]
    Unsimulated(#[from] crate::engine::config::UnsimulatedRules),
    #[error("replays for the ghosts: {0}")]
    Ghosts(#[source] crate::arena::ArenaError),
    #[error("no replay of {0} can be played by a ghost")]
    NoPlayableGhosts(String),
    #[error(transparent)]
    Algo(#[from] crate::runner::LocateError),
    #[error(transparent)]
    Arena(#[from] crate::arena::ArenaError),
    #[error("SPRT setting: {0}")]
    Sprt(#[from] crate::arena::SprtParseError),
    #[error("cannot start the comparison's thread: {0}")]
    Thread(#[source] std::io::Error),
    #[error("the comparison stopped on a bug: {0}")]
    Panicked(String),
}

impl VersionsError {
    /// Whether this is the first version's save rather than a failure.
    pub fn is_first_version(&self) -> bool {
        matches!(self, VersionsError::FirstVersion { .. })
    }

    /// Tags an I/O error with the file it concerns.
    pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> VersionsError {
        let path = path.into();
        move |source| VersionsError::Io { path, source }
    }
}
