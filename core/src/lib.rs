//! The core of Terminal Studio, with no UI: a clean-room engine for Correlation One's
//! Terminal, the replay reader/writer, the fidelity verifier, the algo runner, the arena,
//! debugging sessions, the layout model and the side-by-side frame comparison. The studio
//! (GUI and CLI) and the Python module build on it.

pub mod arena;
pub mod engine;
pub mod files;
pub mod heap;
pub mod layout;
#[cfg(feature = "library")]
pub mod library;
pub mod panics;
pub(crate) mod parallel;
pub mod planner;
pub mod replay;
pub mod runner;
pub mod session;
pub mod side_by_side;
#[cfg(feature = "library")]
pub mod sqlite_file;
pub mod suggest;
pub mod verify;
#[cfg(feature = "library")]
pub mod versions;

#[cfg(test)]
mod test_prerequisites;
