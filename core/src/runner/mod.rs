//! The runner: plays two real algo folders through our engine, as a drop-in for
//! the official local engine (docs/protocol.md). A library API first — [`start_match`] with
//! events and cancellation, [`run_match_blocking`] for the command line.
//!
//! Files: `spec` (what to run, limits, replay naming), `locate` (an algo's start script),
//! `process` (algo processes and their pipes), `os` (what differs between Unix and Windows: pipes, process trees), `progress` (how far an algo has read: start-up output, stderr turns),
//! `shebang` (a start script's `#!` line), `lines` (bounded line reading), `reply` (the two reply lines and the
//! clock), `view` (player 2's flipped view), `stderr`, `stderr_keep` (head and tail under the cap) and `annotations` (stderr capture),
//! `match_log`, `seat` (one player), `match_setup` (a match's start), `session` (the match loop), `events`, `result`,
//! `handle`; `in_process` (a match whose two seats the caller drives, no process);
//! `confine` (limits and rules on the algos' processes).

mod annotations;
mod cancel;
mod confine;
mod events;
pub mod ghost;
mod handle;
pub mod human;
mod in_process;
mod lines;
mod locate;
mod match_end;
mod match_log;
mod match_setup;
mod os;
mod process;
mod progress;
mod reply;
mod result;
mod seat;
pub mod seat_spec;
mod session;
#[cfg(unix)]
mod shebang;
mod spec;
mod stderr;
mod stderr_keep;
pub mod view;

/// Whether algos (programs) can be started here: not in a web page, which has no processes.
/// Ghosts and people at the studio play everywhere.
pub const CAN_START_ALGOS: bool = !cfg!(target_arch = "wasm32");

pub use confine::{Confinement, RuleHit};
pub use events::{FrameSummary, MatchEvent};
pub(crate) use ghost::GHOST_PREFIX;
pub use ghost::{Ghost, GhostError, RecordedTurn};
pub use handle::{MatchHandle, run_match_blocking, run_match_until, start_match, start_match_inline};
pub use human::{HumanSeat, HumanTurn};
pub use in_process::{InProcessMatch, SeatReply};
pub use locate::{AlgoLocation, LocateError, check_algo_arg, locate};
pub use result::{LineIssue, MatchResult, Overhead, PlayerResult, RejectedCommand, RunnerError};
pub use seat::FAILED_TO_LOAD;
pub use seat_spec::SeatSpec;
pub(crate) use spec::names_in_replay_path;
pub use spec::{MatchSpec, ReplayTarget, TimeLimits, sibling};
pub use stderr::StderrSummary;
