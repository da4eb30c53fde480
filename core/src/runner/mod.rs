//! The runner: plays two real algo folders through our engine, as a drop-in for
//! the official local engine (docs/protocol.md). A library API first — [`start_match`] with
//! events and cancellation, [`run_match_blocking`] for the command line.
//!
//! Files: `spec` (what to run, limits, replay naming), `process` (algo processes and
//! their pipes), `os` (what differs between Unix and Windows: pipes, process trees), `progress` (how far an algo has read: start-up output, stderr turns),
//! `lines` (bounded line reading), `reply` (the two reply lines and the
//! clock), `view` (player 2's flipped view), `stderr` and `annotations` (stderr capture),
//! `match_log`, `seat` (one player), `session` (the match loop), `events`, `result`,
//! `handle`.

mod annotations;
mod events;
pub mod ghost;
mod handle;
pub mod human;
mod lines;
mod match_log;
mod os;
mod process;
mod progress;
mod reply;
mod result;
mod seat;
pub mod seat_spec;
mod session;
mod spec;
mod stderr;
pub mod view;

pub use annotations::DRAW_PREFIX;
pub use events::{FrameSummary, MatchEvent};
pub use ghost::{Ghost, GhostError, RecordedTurn};
pub use handle::{EVENT_CAPACITY, MatchHandle, run_match_blocking, start_match};
pub use human::{HumanSeat, HumanTurn};
pub use process::{AlgoLocation, LocateError, locate};
pub use result::{LineIssue, MatchResult, Overhead, PlayerResult, RejectedCommand, RunnerError};
pub use seat::FAILED_TO_LOAD;
pub use seat_spec::{GHOST_PREFIX, SeatSpec};
pub use spec::{DEFAULT_STDERR_CAP, MatchSpec, ReplayTarget, TimeLimits, sibling};
pub use stderr::StderrSummary;
