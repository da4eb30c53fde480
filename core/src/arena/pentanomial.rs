//! The SPRT over game pairs: two algos play each seed from both seats, and a pair's outcome
//! (0, ½, 1, 1½ or 2 points for the first algo) is counted in one of five buckets. Pairs
//! cancel the seat advantage a single game carries, which in Terminal is large, and a pair
//! whose two games went the same way (the seed decided both) counts as one observation, not
//! two independent ones: the test does not grow overconfident on games that repeat.
//!
//! Terminal has no draws, so only the buckets 0, 1 and 2 points fill; the half-point buckets
//! are kept so the counts read as every pentanomial test's do.

use super::sprt::{SprtDecision, SprtParams, elo_to_score};
use serde::Serialize;

/// A pair's score per game for each bucket: 0, ½, 1, 1½, 2 points out of 2.
const BUCKET_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Added to every bucket before the likelihoods are worked out, so a bucket nothing fell in
/// yet is unlikely rather than impossible (the regularisation Fishtest uses).
const EMPTY_BUCKET_PRIOR: f64 = 1e-3;

/// The largest Elo difference reported: a 99.9 % score. Beyond it a finite number of games
/// cannot tell one gap from another.
pub const ELO_CAP: f64 = 1200.0;

/// How many pairs ended with 0, ½, 1, 1½ and 2 points for the first algo.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct PairCounts(pub [u32; 5]);

impl PairCounts {
    /// Counts a pair from the first algo's points in half points (0 ..= 4; 2 = one win each).
    pub fn add(&mut self, half_points: usize) {
        if let Some(n) = self.0.get_mut(half_points) {
            *n += 1;
        }
    }

    /// Counts a pair of two decided games from whether the first algo won each.
    pub fn add_games(&mut self, first_won: [bool; 2]) {
        self.add(2 * first_won.iter().filter(|w| **w).count());
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The first algo's mean score per game.
    pub fn mean_score(&self) -> Option<f64> {
        let n = self.pairs();
        (n > 0).then(|| self.0.iter().zip(BUCKET_SCORES).map(|(&c, s)| f64::from(c) * s).sum::<f64>() / f64::from(n))
    }

    /// The bucket frequencies with the empty-bucket prior, summing to 1.
    fn frequencies(&self) -> [f64; 5] {
        let total = f64::from(self.pairs()) + 5.0 * EMPTY_BUCKET_PRIOR;
        self.0.map(|c| (f64::from(c) + EMPTY_BUCKET_PRIOR) / total)
    }
}

/// The Elo difference of the first algo over the second and its 95 % interval, from the mean
/// pair score and the spread of the pair scores (a normal approximation).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

impl PairCounts {
    /// `None` before the first pair. The score is taken with one even pair added (a win each),
    /// so a clean sweep has a finite estimate and an interval wider than a point; every figure
    /// is capped at ±[`ELO_CAP`].
    pub fn elo(&self) -> Option<EloEstimate> {
        if self.pairs() == 0 {
            return None;
        }
        let mut with_prior = *self;
        with_prior.add(2);
        let n = f64::from(with_prior.pairs());
        let mean = with_prior.mean_score()?;
        let var =
            with_prior.0.iter().zip(BUCKET_SCORES).map(|(&c, s)| f64::from(c) * (s - mean).powi(2)).sum::<f64>() / n;
        let half_width = 1.96 * (var / n).sqrt();
        Some(EloEstimate {
            elo: score_to_elo(mean),
            lower: score_to_elo(mean - half_width),
            upper: score_to_elo(mean + half_width),
        })
    }
}

/// The Elo difference of an expected score, within ±[`ELO_CAP`].
pub fn score_to_elo(score: f64) -> f64 {
    let floor = elo_to_score(-ELO_CAP);
    let s = score.clamp(floor, 1.0 - floor);
    (-400.0 * (1.0 / s - 1.0).log10()).clamp(-ELO_CAP, ELO_CAP)
}

/// The distribution over the five buckets closest to the observed frequencies (maximum
/// likelihood) whose mean pair score is `score`: `p_i = f_i / (1 + λ (a_i − score))`, with `λ`
/// found by bisection where the mean comes out right.
fn likeliest_with_mean(freq: &[f64; 5], score: f64) -> [f64; 5] {
    let d = BUCKET_SCORES.map(|a| a - score);
    let mean_gap = |lambda: f64| freq.iter().zip(d).map(|(f, di)| f * di / (1.0 + lambda * di)).sum::<f64>();
    // Every 1 + λ·d_i stays positive strictly inside (−1/max d, −1/min d).
    let (mut lo, mut hi) = (-1.0 / d[4] + 1e-12, -1.0 / d[0] - 1e-12);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        // The mean gap falls as λ grows.
        if mean_gap(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    let p = std::array::from_fn(|i| freq[i] / (1.0 + lambda * d[i]));
    let total: f64 = p.iter().sum();
    p.map(|x| x / total)
}

impl SprtParams {
    /// The generalised log-likelihood ratio of H1 against H0 over game pairs: the likeliest
    /// pair distributions with the mean scores of `elo1` and `elo0` compared on the counts.
    pub fn llr_pentanomial(&self, counts: &PairCounts) -> f64 {
        if counts.pairs() == 0 {
            return 0.0;
        }
        let freq = counts.frequencies();
        let p0 = likeliest_with_mean(&freq, elo_to_score(self.elo0));
        let p1 = likeliest_with_mean(&freq, elo_to_score(self.elo1));
        let per_pair: f64 = (0..5).map(|i| freq[i] * (p1[i] / p0[i]).ln()).sum();
        f64::from(counts.pairs()) * per_pair
    }

    pub fn decide_pentanomial(&self, counts: &PairCounts) -> SprtDecision {
        self.decision_at(self.llr_pentanomial(counts))
    }

    /// The pair test's defaults for Terminal, a non-regression test: H0 "the new version is
    /// 150 Elo weaker" against H1 "it is as strong" (0 Elo), 5 % errors each way. It answers
    /// the question a regression run asks, with an error rate that holds whatever the truth:
    /// a change that makes no difference is called worse at most 5 % of the time (a test of
    /// "−X against +X" would call it better or worse half the time each, once it runs long
    /// enough). Terminal's gaps are large: a change to an algo moves its win rate by tens of
    /// points (−150 Elo is 30 % against 50 %), and algos replay the same game from the same
    /// seed, so a change that wins every pair is decided "not worse" in six pairs and one that
    /// loses every pair "worse" in nine, where chess-sized bounds of a few Elo would need
    /// thousands of games. Whether the new version is better is the Elo and its interval's to say.
    pub fn terminal_pairs() -> SprtParams {
        SprtParams { elo0: -150.0, elo1: 0.0, alpha: 0.05, beta: 0.05 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn sweeps_weigh_as_the_ratio_of_the_two_scores() {
        let p = SprtParams::terminal_pairs();
        // Each pair won twice: the likeliest distributions put the mass s on "2 points" and
        // 1 − s on "0", so a pair weighs ln(s1/s0) = ln(0.5/0.296615) = 0.522224.
        let sweeps = PairCounts([0, 0, 0, 0, 6]);
        assert!(close(p.llr_pentanomial(&sweeps), 6.0 * 0.522224, 0.02), "{}", p.llr_pentanomial(&sweeps));
        assert_eq!(p.decide_pentanomial(&sweeps), SprtDecision::AcceptH1);
        assert_eq!(p.decide_pentanomial(&PairCounts([0, 0, 0, 0, 5])), SprtDecision::Continue);
        // Each pair lost twice weighs ln((1 − s1)/(1 − s0)) = ln(0.5/0.703385) = −0.341348:
        // nine pairs say "worse", eight do not yet.
        let losses = PairCounts([9, 0, 0, 0, 0]);
        assert!(close(p.llr_pentanomial(&losses), 9.0 * -0.341348, 0.02), "{}", p.llr_pentanomial(&losses));
        assert_eq!(p.decide_pentanomial(&losses), SprtDecision::AcceptH0);
        assert_eq!(p.decide_pentanomial(&PairCounts([8, 0, 0, 0, 0])), SprtDecision::Continue);
        // A win from each seat every time is an even score: evidence for "as strong".
        let even = PairCounts([0, 0, 40, 0, 0]);
        assert_eq!(p.decide_pentanomial(&even), SprtDecision::AcceptH1);
        assert_eq!(p.decide_pentanomial(&PairCounts([0, 0, 1, 0, 0])), SprtDecision::Continue);
    }

    #[test]
    fn a_pair_whose_games_agree_weighs_as_one_game_not_two() {
        // Counted one by one, 12 wins would be 12 independent games: twice the pairs' evidence.
        let p = SprtParams::terminal_pairs();
        let pairs = p.llr_pentanomial(&PairCounts([0, 0, 0, 0, 6]));
        let single = p.llr(12, 0);
        assert!(close(pairs, single / 2.0, 0.02), "pairs {pairs} vs single games {single}");
    }

    #[test]
    fn elo_and_its_interval() {
        assert_eq!(PairCounts::default().elo(), None);
        // With the even prior pair: scores 1,1,1,0.5 → mean 0.875, Elo 400·log10(7) = 338.04.
        let e = PairCounts([0, 0, 0, 0, 3]).elo().expect("an estimate");
        assert!(close(e.elo, 338.04, 0.01), "{e:?}");
        assert!(e.lower < e.elo && e.elo < e.upper && e.upper <= ELO_CAP, "{e:?}");
        let even = PairCounts([0, 0, 9, 0, 0]).elo().expect("an estimate");
        assert!(close(even.elo, 0.0, 1e-9) && close(even.lower, 0.0, 1e-9), "{even:?}");
        assert!(close(score_to_elo(1.0), ELO_CAP, 1e-6) && close(score_to_elo(0.0), -ELO_CAP, 1e-6));
        let mut c = PairCounts::default();
        c.add_games([true, false]);
        c.add_games([false, false]);
        assert_eq!(c, PairCounts([1, 0, 1, 0, 0]));
    }
}
