//! What a match produces: the result, per-player records and the runner's errors.

use crate::engine::commands::Command;
use crate::engine::game::Rejection;
use crate::engine::geometry::Player;
use std::path::PathBuf;
use std::sync::Arc;

/// A command the engine refused (docs/protocol.md, Applying commands). `command` is in the player's own view.
#[derive(Debug, Clone, PartialEq)]
pub struct RejectedCommand {
    pub turn: i32,
    pub player: Player,
    pub command: Command,
    pub reason: Rejection,
}

/// A reply line (or one of its entries) that could not be read as commands (docs/protocol.md, Reading the reply).
#[derive(Debug, Clone, PartialEq)]
pub struct LineIssue {
    pub turn: i32,
    pub player: Player,
    /// 0 = build line, 1 = deploy line.
    pub line: u8,
    pub message: String,
}

/// One player's side of a finished match.
#[derive(Debug, Clone, Default)]
pub struct PlayerResult {
    /// The name in `endStats` (the algo folder's name, or `FailedToLoad`).
    pub name: String,
    pub algo_path: PathBuf,
    /// Why the algo could not be started, if it could not.
    pub load_error: Option<String>,
    /// Process (and process group) id of the algo while it ran.
    pub pid: Option<u32>,
    /// How its start script was run: which interpreter (its `#!` line, or bash).
    pub launch: Option<String>,
    pub final_hp: f32,
    /// This player's units that reached the other side (breaches scored).
    pub breaches: u32,
    pub crashed: bool,
    /// The turn at which the crash (dead process or failed start) was charged.
    pub crash_turn: Option<i32>,
    pub timeout_death: bool,
    /// With `waitForever`, the turn from which the algo, its process ended, was read as
    /// giving empty replies (no crash is charged then).
    pub silent_from_turn: Option<i32>,
    /// Turns at which the hard limit was hit (the turn was skipped).
    pub hard_timeouts: Vec<i32>,
    /// `(turn, HP lost)` for every soft-limit penalty.
    pub time_penalties: Vec<(i32, i64)>,
    pub time_damage_taken: i64,
    pub total_computation_time: i64,
    /// The time charged for each turn, in ms (the `timeMs` of that turn's action frames).
    pub turn_times_ms: Vec<i64>,
    /// Time from spawning the algo to its turn-0 answer, in ms (includes its start-up).
    pub turn0_raw_ms: Option<i64>,
    /// Stdout lines printed before turn 0's frame reached the algo (start-up output, such
    /// as a library's banner): logged, never taken as replies.
    pub startup_lines: u64,
    pub stderr_log: Option<PathBuf>,
    pub stderr_bytes: u64,
    pub stderr_dropped_bytes: u64,
    pub annotations: u64,
    pub exit_status: Option<String>,
    /// Frames not sent because the algo had stopped reading its stdin (backlog full).
    pub lines_not_delivered: u64,
    /// How the algo was confined (what took effect on this system), `None` unconfined.
    pub confinement: Option<String>,
    /// The confinement rule the algo broke, as far as the runner can tell (`RuleHit`).
    pub rule_hit: Option<String>,
}

/// Per-turn cost of the runner itself (engine, serialisation, replay and pipe writes),
/// excluding the time spent waiting for the algos.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Overhead {
    pub turns: u32,
    /// Wall-clock time of the runner's own work (turn start to sending the turn frame,
    /// and from the last reply to the end of the turn), summed over turns.
    pub total_us: u64,
    pub max_turn_us: u64,
    /// CPU time of the match thread over the whole turn loop (it sleeps while waiting for
    /// the algos, so this is the runner's own cost, free of preemption by the algos).
    pub cpu_us: u64,
}

impl Overhead {
    pub fn mean_us(&self) -> f64 {
        if self.turns == 0 { 0.0 } else { self.total_us as f64 / f64::from(self.turns) }
    }

    pub fn cpu_mean_us(&self) -> f64 {
        if self.turns == 0 { 0.0 } else { self.cpu_us as f64 / f64::from(self.turns) }
    }
}

#[derive(Debug, Clone, Default)]
pub struct MatchResult {
    /// 1 or 2.
    pub winner: u8,
    /// The end frame's turn (100 at the turn limit).
    pub turns: i32,
    /// Action frames played.
    pub frames: i64,
    pub players: [PlayerResult; 2],
    pub replay_path: PathBuf,
    pub match_log: Option<PathBuf>,
    pub annotations_path: Option<PathBuf>,
    pub duration_ms: i64,
    pub seed: Option<u64>,
    pub rejected: Vec<RejectedCommand>,
    pub line_issues: Vec<LineIssue>,
    pub overhead: Overhead,
}

impl MatchResult {
    /// One line for the command line: winner, HP, turns, incidents.
    pub fn summary(&self) -> String {
        let [a, b] = &self.players;
        let mut s = format!(
            "winner: p{} ({}) | {} {} HP vs {} {} HP | {} turns, {} frames, {} ms",
            self.winner,
            self.players[usize::from(self.winner.clamp(1, 2) - 1)].name,
            a.name,
            a.final_hp,
            b.name,
            b.final_hp,
            self.turns,
            self.frames,
            self.duration_ms
        );
        for (i, p) in self.players.iter().enumerate() {
            let mut notes = Vec::new();
            if let Some(e) = &p.load_error {
                notes.push(format!("failed to load ({e})"));
            }
            if p.crashed {
                notes.push(match p.crash_turn {
                    Some(t) => format!("crashed at turn {t}"),
                    None => "crashed".into(),
                });
            }
            if let Some(rule) = &p.rule_hit {
                notes.push(format!("confinement: {rule}"));
            }
            if let Some(t) = p.silent_from_turn {
                notes.push(format!("ended at turn {t}, played out with empty replies (waitForever)"));
            }
            if !p.hard_timeouts.is_empty() {
                notes.push(format!("{} hard timeouts", p.hard_timeouts.len()));
            }
            if p.time_damage_taken > 0 {
                notes.push(format!("{} HP time penalty", p.time_damage_taken));
            }
            if !notes.is_empty() {
                s.push_str(&format!(" | p{}: {}", i + 1, notes.join(", ")));
            }
        }
        if !self.rejected.is_empty() {
            s.push_str(&format!(" | {} commands rejected", self.rejected.len()));
        }
        s
    }
}

/// Why a match could not be run (algo misbehaviour is never an error: it is part of the
/// result).
#[derive(Debug, Clone, thiserror::Error)]
pub enum RunnerError {
    #[error("config: {0}")]
    Config(String),
    #[error("replay: {0}")]
    Replay(String),
    /// A file of the match could not be written; the `io::Error` is shared so that the
    /// error, like the events carrying it, can be cloned.
    #[error("cannot {doing} {}: {source}", path.display())]
    Io { doing: &'static str, path: PathBuf, source: Arc<std::io::Error> },
    #[error("match cancelled")]
    Cancelled,
    #[error("internal error: {0}")]
    Internal(String),
    /// The match thread stopped on a bug: what it was doing and the panic's message.
    #[error("the match stopped on a bug while {doing}: {message}")]
    Panicked { doing: String, message: String },
}

impl RunnerError {
    /// Tags an I/O error with what was being done and the file.
    pub fn io(doing: &'static str, path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> RunnerError {
        let path = path.into();
        move |source| RunnerError::Io { doing, path, source: Arc::new(source) }
    }
}
