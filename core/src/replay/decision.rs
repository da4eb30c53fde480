//! How a finished match was decided, read from its end frame: on HP, or — HP equal, or both at
//! or below 0 — on total computation time (the lower wins), equal times going to player 1.
//! A recorded winner that the rule would not give is said too, rather than hidden.

use super::recap::hp_text as hp;
use crate::engine::frame::Frame;
use std::fmt;

/// What settled the match.
#[derive(Debug, Clone, PartialEq)]
pub enum Decided {
    /// One player had more HP left.
    OnHp { winner: u8, hp: [f32; 2] },
    /// HP equal or both at or below 0: the lower total computation time won.
    OnTime { winner: u8, hp: [f32; 2], time_ms: [i64; 2] },
    /// HP and times both equal: player 1 wins by rule.
    Player1ByRule { hp: [f32; 2], time_ms: [i64; 2] },
}

/// The decision and what else the end frame tells.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub decided: Decided,
    /// The winner the replay records (1 or 2).
    pub recorded_winner: u8,
    /// Per player: crashed, timed out (killed by the hard limit).
    pub crashed: [bool; 2],
    pub timeout_death: [bool; 2],
}

impl Decision {
    /// The decision of a replay's end frame (`None`: not an end frame).
    pub fn of(end: &Frame) -> Option<Decision> {
        let e = end.end_stats.as_ref()?;
        let hp = [end.stats[0].hp, end.stats[1].hp];
        let time_ms = [e.players[0].total_computation_time, e.players[1].total_computation_time];
        let decided = if hp[0] != hp[1] && !(hp[0] <= 0.0 && hp[1] <= 0.0) {
            Decided::OnHp { winner: if hp[0] > hp[1] { 1 } else { 2 }, hp }
        } else if time_ms[0] != time_ms[1] {
            Decided::OnTime { winner: if time_ms[1] < time_ms[0] { 2 } else { 1 }, hp, time_ms }
        } else {
            Decided::Player1ByRule { hp, time_ms }
        };
        Some(Decision {
            decided,
            recorded_winner: e.winner,
            crashed: [e.players[0].crashed, e.players[1].crashed],
            timeout_death: [e.players[0].timeout_death, e.players[1].timeout_death],
        })
    }

    /// The winner the rule gives.
    pub fn winner(&self) -> u8 {
        match self.decided {
            Decided::OnHp { winner, .. } | Decided::OnTime { winner, .. } => winner,
            Decided::Player1ByRule { .. } => 1,
        }
    }
}

fn seconds(ms: i64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

fn hp_tied(h: [f32; 2]) -> String {
    if h[0] <= 0.0 && h[1] <= 0.0 && h[0] != h[1] {
        format!("both at or below 0 HP ({} and {})", hp(h[0]), hp(h[1]))
    } else {
        format!("HP tied at {}", hp(h[0]))
    }
}

impl fmt::Display for Decision {
    /// "P1 won on HP: 12 to 3", "P2 won on the tie-break: HP tied at -2; total computation
    /// time 4.1 s (P2) against 6.0 s (P1), the lower wins".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.decided {
            Decided::OnHp { winner, hp: h } => {
                let (w, l) = if *winner == 1 { (h[0], h[1]) } else { (h[1], h[0]) };
                write!(f, "P{winner} won on HP: {} to {}", hp(w), hp(l))?;
            }
            Decided::OnTime { winner, hp: h, time_ms } => {
                let loser = 3 - winner;
                let (w, l) = (time_ms[usize::from(winner - 1)], time_ms[usize::from(loser - 1)]);
                write!(
                    f,
                    "P{winner} won on the tie-break: {}; total computation time {} (P{winner}) against {} (P{loser}), \
                     the lower wins",
                    hp_tied(*h),
                    seconds(w),
                    seconds(l)
                )?;
            }
            Decided::Player1ByRule { hp: h, time_ms } => write!(
                f,
                "P1 won by rule: {} and equal computation times ({} each) go to player 1",
                hp_tied(*h),
                seconds(time_ms[0])
            )?,
        }
        for (i, (crashed, timed_out)) in self.crashed.iter().zip(self.timeout_death).enumerate() {
            if timed_out {
                write!(f, "; P{} timed out", i + 1)?;
            } else if *crashed {
                write!(f, "; P{} crashed", i + 1)?;
            }
        }
        if self.recorded_winner != self.winner() && matches!(self.recorded_winner, 1 | 2) {
            write!(f, " (the replay records P{} as the winner)", self.recorded_winner)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::frame::EndStats;

    fn end(hp: [f32; 2], time_ms: [i64; 2], winner: u8) -> Frame {
        let mut f = Frame::default();
        f.stats[0].hp = hp[0];
        f.stats[1].hp = hp[1];
        let mut e = EndStats { winner, ..EndStats::default() };
        e.players[0].total_computation_time = time_ms[0];
        e.players[1].total_computation_time = time_ms[1];
        f.end_stats = Some(e);
        f
    }

    fn told(f: &Frame) -> String {
        Decision::of(f).map(|d| d.to_string()).unwrap_or_default()
    }

    #[test]
    fn each_way_a_match_is_decided_is_said_with_its_figures() {
        assert_eq!(told(&end([12.0, 3.0], [100, 50], 1)), "P1 won on HP: 12 to 3");
        assert_eq!(
            told(&end([-2.0, -2.0], [6000, 4100], 2)),
            "P2 won on the tie-break: HP tied at -2; total computation time 4.1 s (P2) against 6.0 s (P1), the lower wins"
        );
        assert_eq!(
            told(&end([-1.0, -3.0], [300, 900], 1)),
            "P1 won on the tie-break: both at or below 0 HP (-1 and -3); total computation time 0.3 s (P1) against \
             0.9 s (P2), the lower wins"
        );
        assert_eq!(
            told(&end([5.0, 5.0], [0, 0], 1)),
            "P1 won by rule: HP tied at 5 and equal computation times (0.0 s each) go to player 1"
        );
        assert_eq!(told(&end([12.0, 3.0], [0, 0], 2)), "P1 won on HP: 12 to 3 (the replay records P2 as the winner)");
        assert!(Decision::of(&Frame::default()).is_none(), "a frame without end stats decides nothing");
    }
}
