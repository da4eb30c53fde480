//! One finished match as a line of `results.jsonl` (also written by `match --result-json`).

use crate::runner::{MatchResult, PlayerResult, RunnerError};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One seat's side of a recorded match: everything the accounting needs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SeatRecord {
    pub hp: f32,
    /// This seat's units that breached (scored against the other seat).
    #[serde(default)]
    pub breaches: u32,
    pub crashed: bool,
    #[serde(default)]
    pub crash_turn: Option<i32>,
    pub failed_to_load: bool,
    #[serde(default)]
    pub load_error: Option<String>,
    /// Turns skipped because the hard limit was hit.
    pub hard_timeouts: u32,
    pub timeout_death: bool,
    /// HP lost to the soft limit.
    pub time_penalty_hp: i64,
    /// Turns with a soft-limit penalty.
    pub time_penalties: u32,
    /// `total_computation_time` (ms), the official tie-break.
    pub compute_ms: i64,
    /// Turns with a charged time (the denominator of the mean compute time per turn).
    pub timed_turns: u32,
}

impl SeatRecord {
    pub(crate) fn from_player(p: &PlayerResult) -> SeatRecord {
        SeatRecord {
            hp: p.final_hp,
            breaches: p.breaches,
            crashed: p.crashed,
            crash_turn: p.crash_turn,
            failed_to_load: p.load_error.is_some(),
            load_error: p.load_error.clone(),
            hard_timeouts: u32::try_from(p.hard_timeouts.len()).unwrap_or(u32::MAX),
            timeout_death: p.timeout_death,
            time_penalty_hp: p.time_damage_taken,
            time_penalties: u32::try_from(p.time_penalties.len()).unwrap_or(u32::MAX),
            compute_ms: p.total_computation_time,
            timed_turns: u32::try_from(p.turn_times_ms.len()).unwrap_or(u32::MAX),
        }
    }
}

/// A match of an arena (or a `terminal-studio match --result-json` run).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// Unique within an arena: `<seat1>__<seat2>__g<game>` (see `plan::Job::id`).
    pub job_id: String,
    /// Game index within the pairing (0-based; odd games have the seats swapped).
    pub game: u32,
    /// Algo labels in seat order (player 1, player 2).
    pub algo1: String,
    pub algo2: String,
    #[serde(default)]
    pub algo1_path: String,
    #[serde(default)]
    pub algo2_path: String,
    #[serde(default)]
    pub seed: Option<u64>,
    /// 1 or 2 from the match result (the engine applies the official tie-break); 0 when the
    /// match could not be run (`error`).
    pub winner: u8,
    #[serde(default)]
    pub error: Option<String>,
    pub turns: i32,
    pub frames: i64,
    pub players: [SeatRecord; 2],
    pub duration_ms: i64,
    pub replay: String,
    #[serde(default)]
    pub match_log: Option<String>,
    /// Unix time (ms) the record was made.
    pub finished_at_ms: u64,
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// The label of an algo: its folder's name (the start script's folder for a script), as
/// the runner names it.
pub fn algo_label(path: &Path) -> String {
    let dir = if path.is_file() { path.parent().unwrap_or(path) } else { path };
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "algo".into())
}

/// Where a match's identity comes from when it is recorded.
#[derive(Debug, Clone)]
pub struct RecordHead {
    pub job_id: String,
    pub game: u32,
    pub algo1: String,
    pub algo2: String,
    pub algo1_path: String,
    pub algo2_path: String,
    pub seed: Option<u64>,
    pub replay: String,
}

impl MatchRecord {
    fn from_head(h: RecordHead) -> MatchRecord {
        MatchRecord {
            job_id: h.job_id,
            game: h.game,
            algo1: h.algo1,
            algo2: h.algo2,
            algo1_path: h.algo1_path,
            algo2_path: h.algo2_path,
            seed: h.seed,
            replay: h.replay,
            finished_at_ms: now_ms(),
            ..MatchRecord::default()
        }
    }

    pub fn from_result(head: RecordHead, r: &MatchResult) -> MatchRecord {
        let mut rec = MatchRecord::from_head(head);
        rec.winner = r.winner;
        rec.turns = r.turns;
        rec.frames = r.frames;
        rec.players = [SeatRecord::from_player(&r.players[0]), SeatRecord::from_player(&r.players[1])];
        rec.duration_ms = r.duration_ms;
        rec.replay = r.replay_path.to_string_lossy().into_owned();
        rec.match_log = r.match_log.as_ref().map(|p| p.to_string_lossy().into_owned());
        rec
    }

    /// A match the runner could not play (never a cancelled one: that is not recorded).
    pub fn from_error(head: RecordHead, e: &RunnerError) -> MatchRecord {
        let mut rec = MatchRecord::from_head(head);
        rec.error = Some(e.to_string());
        rec
    }

    /// The label of the winner, if the match has one.
    pub fn winner_label(&self) -> Option<&str> {
        match self.winner {
            1 => Some(&self.algo1),
            2 => Some(&self.algo2),
            _ => None,
        }
    }

    /// The seat (0 or 1) an algo played, if it played.
    pub fn seat_of(&self, label: &str) -> Option<usize> {
        if self.algo1 == label {
            Some(0)
        } else if self.algo2 == label {
            Some(1)
        } else {
            None
        }
    }

    pub fn to_line(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_round_trips_through_json() {
        let head = RecordHead {
            job_id: "a__b__g0".into(),
            game: 0,
            algo1: "a".into(),
            algo2: "b".into(),
            algo1_path: "/x/a".into(),
            algo2_path: "/x/b".into(),
            seed: Some(1),
            replay: "r.replay".into(),
        };
        let disk_full = std::io::Error::new(std::io::ErrorKind::StorageFull, "disk full");
        let rec = MatchRecord::from_error(head, &RunnerError::io("write the replay", "r.replay")(disk_full));
        assert_eq!(rec.error.as_deref(), Some("cannot write the replay r.replay: disk full"));
        let line = rec.to_line().expect("line");
        let back: MatchRecord = serde_json::from_str(&line).expect("parse");
        assert_eq!(back, rec);
        assert_eq!(back.winner_label(), None);
        assert_eq!(back.seat_of("b"), Some(1));
    }
}
