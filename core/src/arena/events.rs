//! What an arena reports while it runs, and how it ended.

use super::record::MatchRecord;
use super::sprt::SprtDecision;
use super::stats::Summary;
use std::path::PathBuf;
use std::time::Duration;

/// Events of a running arena, in order: `Started`, then per match `MatchStarted`,
/// `MatchFinished` and `Progress`, possibly `Warning`s and `SprtStop`, and last `Summary`.
#[derive(Debug, Clone)]
pub enum ArenaEvent {
    /// `total` games in the plan, `already_done` of them found in results.jsonl (resume).
    Started {
        total: usize,
        already_done: usize,
        workers: usize,
    },
    MatchStarted {
        job_id: String,
        worker: usize,
    },
    /// A match ended and its line is on disk.
    MatchFinished(Box<MatchRecord>),
    /// `done` counts resumed matches too; `eta` from this run's throughput.
    Progress {
        done: usize,
        total: usize,
        eta: Option<Duration>,
    },
    /// The SPRT decided: no new matches are started (those in flight finish).
    SprtStop {
        decision: SprtDecision,
        llr: f64,
    },
    Warning(String),
    /// The final statistics; the last event.
    Summary(Box<ArenaOutcome>),
}

/// Why the arena stopped.
#[derive(Debug, Clone, PartialEq)]
pub enum StopReason {
    Completed,
    Cancelled,
    Sprt(SprtDecision),
    /// Results could not be written (the matches in flight were cancelled).
    Error(String),
}

/// The SPRT's state for a two-algo arena, from the first algo's side.
#[derive(Debug, Clone, PartialEq)]
pub struct SprtStatus {
    pub first: String,
    pub second: String,
    pub wins: u32,
    pub losses: u32,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub decision: SprtDecision,
}

/// How an arena ended, with its statistics over every recorded match (resumed included).
#[derive(Debug, Clone)]
pub struct ArenaOutcome {
    pub stop: StopReason,
    pub summary: Summary,
    pub records: Vec<MatchRecord>,
    pub planned: usize,
    /// Matches played by this run (not counting resumed ones).
    pub played_now: usize,
    pub elapsed: Duration,
    pub sprt: Option<SprtStatus>,
    pub results_path: PathBuf,
    pub csv_paths: Vec<PathBuf>,
}
