//! How fast a live match is shown: a pace one can watch, whatever speed the algos play at.
//! The match never waits for the view; its frames queue and the board works through them.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LivePace {
    /// The Debugger's 1× playback.
    #[default]
    Normal,
    Double,
    Quadruple,
    /// Each frame as soon as it arrives (the board jumps to the newest).
    AsItComes,
}

impl LivePace {
    pub const ALL: [LivePace; 4] = [LivePace::Normal, LivePace::Double, LivePace::Quadruple, LivePace::AsItComes];

    pub fn label(self) -> &'static str {
        match self {
            LivePace::Normal => "1×",
            LivePace::Double => "2×",
            LivePace::Quadruple => "4×",
            LivePace::AsItComes => "as it comes",
        }
    }

    /// The playback speed it stands for (`None`: no pace, the newest frame at once).
    pub fn speed(self) -> Option<f64> {
        match self {
            LivePace::Normal => Some(1.0),
            LivePace::Double => Some(2.0),
            LivePace::Quadruple => Some(4.0),
            LivePace::AsItComes => None,
        }
    }

    /// The speed the match's last turn is shown at once the match is decided: the pace's, and
    /// 4× "as it comes", whose jump to the newest frame would skip how the match was decided.
    pub fn last_turn_speed(self) -> f64 {
        self.speed().unwrap_or(4.0)
    }
}
