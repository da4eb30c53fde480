//! Progress of a running match, as typed events on a bounded channel.

use super::result::{MatchResult, RunnerError};
use super::spec::TimeLimits;
use crate::engine::frame::{Frame, Phase};
use crate::engine::geometry::Player;
use crossbeam_channel::Sender;
use std::path::PathBuf;
use std::sync::Arc;
use web_time::Instant;

/// The essentials of a frame, in player 1's view.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameSummary {
    pub phase: Phase,
    pub turn: i32,
    pub action_frame: i32,
    pub total_frame: i64,
    pub hp: [f32; 2],
    pub sp: [f32; 2],
    pub mp: [f32; 2],
    pub time_ms: [i64; 2],
}

impl FrameSummary {
    pub fn of(f: &Frame) -> FrameSummary {
        let s = &f.stats;
        FrameSummary {
            phase: f.turn_info.phase,
            turn: f.turn_info.turn,
            action_frame: f.turn_info.action_frame,
            total_frame: f.turn_info.total_frame.unwrap_or(0),
            hp: [s[0].hp, s[1].hp],
            sp: [s[0].sp, s[1].sp],
            mp: [s[0].mp, s[1].mp],
            time_ms: [s[0].time_ms, s[1].time_ms],
        }
    }
}

#[derive(Debug, Clone)]
pub enum MatchEvent {
    /// Both algos were started (or failed to load) and the replay file is open.
    Started {
        replay_path: PathBuf,
        names: [String; 2],
    },
    /// A frame was written to the replay and sent to the algos.
    Frame {
        summary: FrameSummary,
        frame: Arc<Frame>,
    },
    /// A line of an algo's stderr (`from_algo`) or a runner message about a player
    /// (`player` is `None` for match-wide messages).
    Log {
        player: Option<Player>,
        from_algo: bool,
        line: String,
    },
    /// A turn frame went to both seats at `at`: the match waits for their replies, within
    /// `limits` (on turn 0 with the start-up allowance on top).
    TurnSent {
        turn: i32,
        at: Instant,
        limits: TimeLimits,
    },
    /// A seat's wait for `turn` is over, after `after_ms`: it replied, timed out or crashed.
    Replied {
        turn: i32,
        player: Player,
        after_ms: i64,
    },
    Finished(Box<MatchResult>),
    Failed(RunnerError),
}

/// The sending side. Frame and log events are dropped when the channel is full (a slow
/// consumer never stalls the match); `Started`, `Finished` and `Failed` always get through
/// while the receiver lives.
#[derive(Clone, Default)]
pub struct EventSink(Option<Sender<MatchEvent>>);

impl EventSink {
    pub fn new(tx: Sender<MatchEvent>) -> EventSink {
        EventSink(Some(tx))
    }

    pub fn none() -> EventSink {
        EventSink(None)
    }

    pub fn is_some(&self) -> bool {
        self.0.is_some()
    }

    pub fn try_send(&self, e: MatchEvent) {
        if let Some(tx) = &self.0 {
            let _ = tx.try_send(e);
        }
    }

    pub fn send(&self, e: MatchEvent) {
        if let Some(tx) = &self.0 {
            let _ = tx.send(e);
        }
    }
}
