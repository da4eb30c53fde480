//! The arena: many matches among algos, in parallel, with results on disk as
//! each match ends and statistics a careful player can trust.
//!
//! Files: `builder` (a user's settings checked into an `ArenaSpec`), `plan` (which games,
//! seats, seeds), `record` (one match as a JSON line), `files` (append + fsync, read back,
//! atomic writes), `pool` (worker threads, the collector, cancel / pause, resume), `events`
//! (what the GUI receives), `stats` (Wilson, per-algo and per-pairing tallies, Bradley–Terry
//! Elo with bootstrap: every figure a report shows, worked out once), `sprt` (the early
//! stop; `pentanomial` the same test over game pairs, and the Elo of pairs), `report` (CSV and text table), `jobfile` (the command lines of a plan run
//! elsewhere), `merge` (result files combined), `ghosts` (a gauntlet against recorded
//! players).

pub mod builder;
pub mod error;
pub mod events;
pub mod files;
pub mod ghosts;
pub mod jobfile;
pub mod merge;
pub mod pentanomial;
pub mod plan;
pub mod pool;
pub mod record;
pub mod report;
pub mod sprt;
pub mod stats;

pub use builder::{ArenaBuilder, ArenaSpecError, BuiltArena, Opponents};
pub use error::{ArenaError, PlanError, SprtParseError};
pub use events::{ArenaEvent, ArenaOutcome, SprtStatus, StopReason};
pub use pentanomial::{EloEstimate, PairCounts};
pub use plan::{Entrant, Format, Job, Plan};
pub use pool::{ArenaHandle, ArenaSpec, RESULTS_FILE, default_jobs, run_arena, start_arena};
pub use record::{MatchRecord, RecordHead, SeatRecord, algo_label};
pub use sprt::{SprtDecision, SprtParams};
pub use stats::{Summary, summarize};
