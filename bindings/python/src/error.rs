//! What can go wrong between Python and the engine, and the Python exception each becomes.

use pyo3::exceptions::PyValueError;
use pyo3::{PyErr, create_exception};
use terminal_core::engine::config::{ConfigError, UnsimulatedRules};
use terminal_core::engine::snapshot::SnapshotError;
use terminal_core::verify::rebuild::RebuildError;

create_exception!(
    _engine,
    UnsupportedRules,
    PyValueError,
    "The config asks for rules the engine does not simulate (yet): a game under them would be played with other rules."
);

#[derive(Debug, thiserror::Error)]
pub enum BindingError {
    #[error("{what} is not valid JSON: {source}")]
    Json { what: &'static str, source: serde_json::Error },
    #[error("config: {0}")]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Unsimulated(#[from] UnsimulatedRules),
    #[error("frame: field `{field}`: {message}")]
    Frame { field: String, message: String },
    #[error(
        "frame: a state is built from a turn frame (turnInfo[0] = 0), not phase {phase}: other frames do not show how far each mobile unit has walked"
    )]
    NotATurnFrame { phase: i64 },
    #[error("frame: {0}")]
    Rebuild(#[from] RebuildError),
    #[error("commands: {0}")]
    Commands(String),
    #[error("commands[{entry}]: {problem}")]
    Command { entry: usize, problem: EntryError },
    #[error("player must be 1 (the algo, at the bottom) or 2 (the opponent), got {0}")]
    Player(i64),
    #[error("seat must be 1 or 2, got {0}")]
    Seat(i64),
    #[error("commands are accepted in the deploy phase only; this state is at action frame {0}")]
    NotDeployPhase(i32),
    #[error("({x}, {y}) is not a tile of player {player}'s edges")]
    NotAnEdge { x: i32, y: i32, player: u8 },
    #[error("({x}, {y}) holds a structure: no unit can be deployed there")]
    EdgeOccupied { x: i32, y: i32 },
    #[error("candidates[{candidate}]: {message}")]
    Candidate { candidate: usize, message: String },
    #[error("candidates[{candidate}]: unknown key {key} (build, deploy, opponent_build, opponent_deploy)")]
    CandidateKey { candidate: usize, key: String },
    #[error("pickled state: format {found}, this module reads format {expected}")]
    PickleFormat { found: u32, expected: u32 },
    #[error("pickled state: {0}")]
    Snapshot(#[from] SnapshotError),
    #[error("the match is over: no more turns to play")]
    MatchOver,
    #[error("replay {path}: {source}")]
    ReplayWrite { path: String, source: std::io::Error },
    #[error("unit type {0} does not exist (0–5 are units, 6 is removal, 7 is upgrade)")]
    UnitType(i64),
    #[error("best_attacks: {0}")]
    Planner(String),
}

impl From<BindingError> for PyErr {
    fn from(e: BindingError) -> PyErr {
        match e {
            BindingError::Unsimulated(_) => UnsupportedRules::new_err(e.to_string()),
            _ => PyValueError::new_err(e.to_string()),
        }
    }
}

/// What is wrong with one `[shorthand, x, y]` entry.
#[derive(Debug, thiserror::Error)]
pub enum EntryError {
    #[error("expected [shorthand, x, y], found {0}")]
    Shape(String),
    #[error("field {field}: {message}")]
    Field { field: usize, message: String },
    #[error("unknown shorthand {0:?}")]
    UnknownShorthand(String),
    #[error("unit type {0} out of range 0–7")]
    UnitType(String),
    #[error("the shorthand must be a string or a unit type number, found {0}")]
    ShorthandType(String),
    #[error("{name} must be a number, found {found}")]
    Coordinate { name: &'static str, found: String },
}
