//! The SPRT early stop: a sequential test of whether the first of two algos is better than
//! the second by a margin, decided after each game.

use super::error::SprtParseError;
use serde::Serialize;

/// SPRT parameters: H0 "the Elo difference is `elo0`" against H1 "it is `elo1`", with
/// error rates `alpha` (accepting H1 when H0 holds) and `beta`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SprtParams {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Default for SprtParams {
    fn default() -> SprtParams {
        SprtParams { elo0: 0.0, elo1: 100.0, alpha: 0.05, beta: 0.05 }
    }
}

/// As `parse` reads it: `elo0,elo1,alpha,beta`.
impl std::fmt::Display for SprtParams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{},{},{}", self.elo0, self.elo1, self.alpha, self.beta)
    }
}

impl SprtParams {
    /// Parses `elo0,elo1,alpha,beta` (or an empty string for the defaults).
    pub fn parse(s: &str) -> Result<SprtParams, SprtParseError> {
        if s.trim().is_empty() {
            return Ok(SprtParams::default());
        }
        let v: Result<Vec<f64>, _> = s.split(',').map(|x| x.trim().parse::<f64>()).collect();
        let v = v.map_err(|_| SprtParseError::NotNumbers(s.to_string()))?;
        let [elo0, elo1, alpha, beta] = v[..] else {
            return Err(SprtParseError::WrongCount(s.to_string()));
        };
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err(SprtParseError::AlphaBeta);
        }
        if elo1 <= elo0 {
            return Err(SprtParseError::EloOrder);
        }
        Ok(SprtParams { elo0, elo1, alpha, beta })
    }

    /// Lower and upper log-likelihood-ratio bounds: `ln(β/(1−α))`, `ln((1−β)/α)`.
    pub(crate) fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of H1 against H0 after `wins` and `losses` (Terminal
    /// games always have a winner, so the model is binomial with `p = 1/(1+10^(−elo/400))`).
    pub fn llr(&self, wins: u32, losses: u32) -> f64 {
        let p0 = elo_to_score(self.elo0);
        let p1 = elo_to_score(self.elo1);
        f64::from(wins) * (p1 / p0).ln() + f64::from(losses) * ((1.0 - p1) / (1.0 - p0)).ln()
    }

    pub(crate) fn decide(&self, wins: u32, losses: u32) -> SprtDecision {
        self.decision_at(self.llr(wins, losses))
    }

    /// The decision a log-likelihood ratio reaches against the bounds.
    pub(crate) fn decision_at(&self, llr: f64) -> SprtDecision {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// The expected score of an Elo difference.
pub(crate) fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SprtDecision {
    Continue,
    /// The first algo is not better by `elo1` (H0 accepted).
    AcceptH0,
    /// The first algo is better (H1 accepted).
    AcceptH1,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn sprt_params_read_back_as_written() {
        let p = SprtParams::default();
        assert_eq!(p.to_string(), "0,100,0.05,0.05");
        assert_eq!(SprtParams::parse(&p.to_string()), Ok(p));
    }

    #[test]
    fn sprt_matches_hand_values() {
        // elo1 = 100 → p1 = 1/(1+10^−0.25) = 0.640065; p0 = 0.5.
        // LLR(7 W, 3 L) = 7·ln(1.280130) + 3·ln(0.719870) = 1.728731 − 0.986054 = 0.742677.
        // Bounds: ln(0.05/0.95) = −2.944439, ln(0.95/0.05) = +2.944439.
        let s = SprtParams::default();
        assert!(close(s.llr(7, 3), 0.742678, 1e-5), "{}", s.llr(7, 3));
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944439, 1e-6) && close(hi, 2.944439, 1e-6));
        assert_eq!(s.decide(7, 3), SprtDecision::Continue);
        // 12 straight wins: 12 · 0.246962 = 2.96354 ≥ 2.944439 → H1; 11 are not enough.
        assert_eq!(s.decide(12, 0), SprtDecision::AcceptH1);
        assert_eq!(s.decide(11, 0), SprtDecision::Continue);
        // Losses: each adds ln(0.719870) = −0.328685; 9 → −2.958 ≤ −2.944 → H0.
        assert_eq!(s.decide(0, 9), SprtDecision::AcceptH0);
        assert_eq!(SprtParams::parse("0,50,0.1,0.2").map(|p| p.elo1), Ok(50.0));
        assert!(SprtParams::parse("0,50").is_err());
        assert!(SprtParams::parse("50,0,0.05,0.05").is_err());
    }
}
