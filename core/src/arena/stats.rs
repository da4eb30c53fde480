//! The arena's statistics: win rates with Wilson intervals, per-algo accounting, per
//! pairing tables, a Bradley–Terry rating on the Elo scale with a bootstrap uncertainty,
//! and the SPRT early stop.

use super::record::{MatchRecord, SeatRecord};
use serde::Serialize;

/// The 97.5 % quantile of the standard normal distribution (two-sided 95 %).
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval for `k` successes in `n` trials; `(0, 1)` when `n` is 0.
pub(crate) fn wilson(k: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = k / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// Wins and games from one seat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct SeatTally {
    pub games: u32,
    pub wins: u32,
}

/// One algo over all its recorded matches. Incidents are counted apart from the results:
/// a crash is a loss on the board *and* a crash in these counts, never hidden in either.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct AlgoStats {
    pub label: String,
    /// Matches with a result (a winner).
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    /// Matches the runner could not play (no winner; left out of every rate).
    pub errors: u32,
    pub as_p1: SeatTally,
    pub as_p2: SeatTally,
    /// Matches in which the algo crashed (including failed-to-load).
    pub crashes: u32,
    pub failed_to_load: u32,
    /// Turns skipped at the hard limit, summed over matches.
    pub hard_timeouts: u32,
    /// Matches with at least one hard timeout.
    pub matches_with_timeouts: u32,
    pub timeout_deaths: u32,
    /// HP lost to the soft limit, and the number of penalised turns.
    pub time_penalty_hp: i64,
    pub time_penalty_turns: u32,
    /// Own HP minus the opponent's, summed (mean = sum / games).
    pub hp_margin_sum: f64,
    pub turns_sum: i64,
    pub compute_ms_sum: i64,
    pub timed_turns: u64,
    /// What the reports show beyond the counts, worked out by [`summarize`].
    pub figures: Figures,
}

/// Rates and means, worked out once from the counts (of an algo, or of a pairing from its
/// first algo's side) so that the text table, the CSV files and the studio's tables show the
/// same numbers without computing them again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Figures {
    pub win_rate: f64,
    /// The win rate's 95 % Wilson interval.
    pub wilson_lo: f64,
    pub wilson_hi: f64,
    /// Own HP minus the opponent's, per game.
    pub mean_hp_margin: f64,
    pub mean_turns: f64,
    /// Compute time per turn (ms) over the turns it was charged.
    pub mean_compute_ms: f64,
}

impl Figures {
    /// From `wins` of `games`, the sums over those games, and the compute time over the
    /// turns it was charged.
    fn of(wins: u32, games: u32, hp_margin_sum: f64, turns_sum: i64, compute: (i64, u64)) -> Figures {
        let games = f64::from(games);
        let (wilson_lo, wilson_hi) = wilson(f64::from(wins), games, Z95);
        Figures {
            win_rate: ratio(f64::from(wins), games),
            wilson_lo,
            wilson_hi,
            mean_hp_margin: ratio(hp_margin_sum, games),
            mean_turns: ratio(turns_sum as f64, games),
            mean_compute_ms: ratio(compute.0 as f64, compute.1 as f64),
        }
    }
}

impl AlgoStats {
    /// Crashes, timeouts and time penalties of a match, whatever its result.
    fn add_incidents(&mut self, p: &SeatRecord) {
        self.crashes += u32::from(p.crashed || p.failed_to_load);
        self.failed_to_load += u32::from(p.failed_to_load);
        self.hard_timeouts += p.hard_timeouts;
        self.matches_with_timeouts += u32::from(p.hard_timeouts > 0);
        self.timeout_deaths += u32::from(p.timeout_death);
        self.time_penalty_hp += p.time_penalty_hp;
        self.time_penalty_turns += p.time_penalties;
    }

    /// A match with a winner, played from `seat` (0: player 1).
    fn add_game(&mut self, r: &MatchRecord, seat: usize, won: bool) {
        let p = &r.players[seat];
        let o = &r.players[1 - seat];
        self.games += 1;
        self.wins += u32::from(won);
        self.losses += u32::from(!won);
        let tally = if seat == 0 { &mut self.as_p1 } else { &mut self.as_p2 };
        tally.games += 1;
        tally.wins += u32::from(won);
        self.hp_margin_sum += f64::from(p.hp) - f64::from(o.hp);
        self.turns_sum += i64::from(r.turns);
        self.compute_ms_sum += p.compute_ms;
        self.timed_turns += u64::from(p.timed_turns);
    }

    fn figures(&self) -> Figures {
        let compute = (self.compute_ms_sum, self.timed_turns);
        Figures::of(self.wins, self.games, self.hp_margin_sum, self.turns_sum, compute)
    }
}

/// `part / whole`, and 0 when there is nothing to divide.
fn ratio(part: f64, whole: f64) -> f64 {
    if whole == 0.0 { 0.0 } else { part / whole }
}

/// One pairing, from the first algo's (`a`) side.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PairStats {
    pub a: String,
    pub b: String,
    pub games: u32,
    pub a_wins: u32,
    pub b_wins: u32,
    pub errors: u32,
    /// `a` as player 1 and as player 2.
    pub a_as_p1: SeatTally,
    pub a_as_p2: SeatTally,
    /// `a`'s HP minus `b`'s, summed.
    pub hp_margin_sum: f64,
    pub turns_sum: i64,
    pub a_compute_ms: i64,
    pub a_timed_turns: u64,
    pub b_compute_ms: i64,
    pub b_timed_turns: u64,
    /// What the reports show beyond the counts, from `a`'s side, worked out by [`summarize`].
    pub figures: Figures,
    /// `b`'s compute time per turn (ms), worked out with them.
    pub b_mean_compute_ms: f64,
}

impl PairStats {
    /// A match with a winner, the pairing's first algo in `a_seat` (0: player 1).
    fn add_game(&mut self, r: &MatchRecord, a_seat: usize, a_won: bool) {
        self.games += 1;
        self.a_wins += u32::from(a_won);
        self.b_wins += u32::from(!a_won);
        let tally = if a_seat == 0 { &mut self.a_as_p1 } else { &mut self.a_as_p2 };
        tally.games += 1;
        tally.wins += u32::from(a_won);
        self.hp_margin_sum += f64::from(r.players[a_seat].hp) - f64::from(r.players[1 - a_seat].hp);
        self.turns_sum += i64::from(r.turns);
        self.a_compute_ms += r.players[a_seat].compute_ms;
        self.a_timed_turns += u64::from(r.players[a_seat].timed_turns);
        self.b_compute_ms += r.players[1 - a_seat].compute_ms;
        self.b_timed_turns += u64::from(r.players[1 - a_seat].timed_turns);
    }

    fn figures(&self) -> Figures {
        let compute = (self.a_compute_ms, self.a_timed_turns);
        Figures::of(self.a_wins, self.games, self.hp_margin_sum, self.turns_sum, compute)
    }
}

/// A rating on the Elo scale (mean 0 over the rated algos).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Rating {
    pub label: String,
    pub elo: f64,
    /// Standard deviation over the bootstrap resamples.
    pub sd: f64,
    /// 2.5 % and 97.5 % bootstrap percentiles.
    pub lo: f64,
    pub hi: f64,
}

/// Everything the summary table, the CSV and the GUI show.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    pub matches: u32,
    pub errors: u32,
    pub algos: Vec<AlgoStats>,
    pub pairs: Vec<PairStats>,
    pub ratings: Vec<Rating>,
}

impl Summary {
    /// The rating of the algo labelled so, if it has one.
    pub fn rating_of(&self, label: &str) -> Option<&Rating> {
        self.ratings.iter().find(|r| r.label == label)
    }
}

/// Virtual wins given to each side of every played pairing before fitting Bradley–Terry
/// (half a game each way: a drawn virtual game), so an algo that won or lost everything
/// still gets a finite rating.
pub(crate) const BT_PRIOR: f64 = 0.5;
/// Bootstrap resamples and their fixed seed (results are reproducible).
pub(crate) const BOOTSTRAP_ROUNDS: usize = 200;
pub(crate) const BOOTSTRAP_SEED: u64 = 0x5EED_A7E7A;

/// Computes the statistics of a set of records. `order` fixes the order of the algos
/// (others follow in order of appearance); pairings are keyed by that order.
pub fn summarize(records: &[MatchRecord], order: &[String]) -> Summary {
    let mut labels: Vec<String> = order.to_vec();
    for r in records {
        for l in [&r.algo1, &r.algo2] {
            if !labels.contains(l) {
                labels.push(l.clone());
            }
        }
    }
    let idx = |l: &str| labels.iter().position(|x| x == l).unwrap_or(0);
    let n = labels.len();
    let mut algos: Vec<AlgoStats> =
        labels.iter().map(|l| AlgoStats { label: l.clone(), ..AlgoStats::default() }).collect();
    let mut pairs: Vec<PairStats> = Vec::new();
    let mut wins = vec![vec![0.0f64; n]; n];
    let mut s = Summary::default();
    for r in records {
        s.matches += 1;
        let seats = [idx(&r.algo1), idx(&r.algo2)];
        let (a, b) = (seats[0].min(seats[1]), seats[0].max(seats[1]));
        let pi = match pairs.iter().position(|p| p.a == labels[a] && p.b == labels[b]) {
            Some(i) => i,
            None => {
                pairs.push(PairStats { a: labels[a].clone(), b: labels[b].clone(), ..PairStats::default() });
                pairs.len() - 1
            }
        };
        // Incidents count whatever the result.
        for (seat, &i) in seats.iter().enumerate() {
            algos[i].add_incidents(&r.players[seat]);
        }
        let Some(w_seat) = (match r.winner {
            1 => Some(0usize),
            2 => Some(1usize),
            _ => None,
        }) else {
            s.errors += 1;
            algos[seats[0]].errors += 1;
            if seats[1] != seats[0] {
                algos[seats[1]].errors += 1;
            }
            pairs[pi].errors += 1;
            continue;
        };
        for (seat, &i) in seats.iter().enumerate() {
            algos[i].add_game(r, seat, seat == w_seat);
        }
        wins[seats[w_seat]][seats[1 - w_seat]] += 1.0;
        let a_seat = if seats[0] == a { 0 } else { 1 };
        pairs[pi].add_game(r, a_seat, w_seat == a_seat);
    }
    s.ratings = ratings(&labels, &wins, BT_PRIOR, BOOTSTRAP_ROUNDS, BOOTSTRAP_SEED);
    for a in &mut algos {
        a.figures = a.figures();
    }
    for p in &mut pairs {
        p.figures = p.figures();
        p.b_mean_compute_ms = ratio(p.b_compute_ms as f64, p.b_timed_turns as f64);
    }
    s.algos = algos;
    s.pairs = pairs;
    s
}

/// Bradley–Terry strengths by Hunter's MM iterations: `p_i ← W_i / Σ_j n_ij / (p_i + p_j)`,
/// normalised to geometric mean 1. `wins[i][j]` = wins of `i` over `j`; `prior` virtual
/// wins are added both ways to every pairing that has games. Algos without games keep 1.
pub(crate) fn bradley_terry(wins: &[Vec<f64>], prior: f64) -> Vec<f64> {
    let n = wins.len();
    let mut w = wins.to_vec();
    for i in 0..n {
        for j in 0..n {
            if i != j && wins[i][j] + wins[j][i] > 0.0 {
                w[i][j] += prior;
            }
        }
    }
    let games = |i: usize, j: usize| w[i][j] + w[j][i];
    let total: Vec<f64> = (0..n).map(|i| w[i].iter().sum()).collect();
    let mut p = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = p.clone();
        for i in 0..n {
            let denom: f64 = (0..n).filter(|&j| j != i && games(i, j) > 0.0).map(|j| games(i, j) / (p[i] + p[j])).sum();
            if denom > 0.0 && total[i] > 0.0 {
                next[i] = total[i] / denom;
            } else if denom > 0.0 {
                // No wins at all (possible only without a prior): strength tends to 0.
                next[i] = 1e-9;
            }
        }
        let rated: Vec<usize> = (0..n).filter(|&i| (0..n).any(|j| games(i, j) > 0.0)).collect();
        if !rated.is_empty() {
            let g = (rated.iter().map(|&i| next[i].ln()).sum::<f64>() / rated.len() as f64).exp();
            for &i in &rated {
                next[i] /= g;
            }
        }
        let change = (0..n).map(|i| ((next[i] - p[i]) / p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    p
}

/// Elo-scale ratings `400·log10(p)` from Bradley–Terry strengths, shifted to mean 0 over
/// the algos that played.
pub(crate) fn elo_from_bt(p: &[f64], played: &[bool]) -> Vec<f64> {
    let elo: Vec<f64> = p.iter().map(|x| 400.0 * x.log10()).collect();
    let k = played.iter().filter(|&&b| b).count();
    let mean =
        if k == 0 { 0.0 } else { elo.iter().zip(played).filter(|(_, b)| **b).map(|(e, _)| e).sum::<f64>() / k as f64 };
    elo.iter().zip(played).map(|(e, &b)| if b { e - mean } else { 0.0 }).collect()
}

/// A small deterministic generator (SplitMix64) for the bootstrap.
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub(crate) fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Bradley–Terry Elo ratings with a parametric bootstrap: every pairing's games are
/// redrawn as binomial with the observed win share (prior included), the model refitted, and the spread of
/// each rating reported (standard deviation and 2.5–97.5 % percentiles).
pub fn ratings(labels: &[String], wins: &[Vec<f64>], prior: f64, rounds: usize, seed: u64) -> Vec<Rating> {
    let n = labels.len();
    let played: Vec<bool> = (0..n).map(|i| (0..n).any(|j| wins[i][j] + wins[j][i] > 0.0)).collect();
    let elo = elo_from_bt(&bradley_terry(wins, prior), &played);
    let mut rng = SplitMix64(seed);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); n];
    for _ in 0..rounds {
        let mut w = vec![vec![0.0f64; n]; n];
        for i in 0..n {
            for j in i + 1..n {
                let games = wins[i][j] + wins[j][i];
                if games <= 0.0 {
                    continue;
                }
                // The prior keeps a clean sweep from resampling to itself every time.
                let share = (wins[i][j] + prior) / (games + 2.0 * prior);
                let mut wi = 0.0;
                for _ in 0..games.round() as u64 {
                    if rng.next_f64() < share {
                        wi += 1.0;
                    }
                }
                w[i][j] = wi;
                w[j][i] = games - wi;
            }
        }
        let e = elo_from_bt(&bradley_terry(&w, prior), &played);
        for i in 0..n {
            samples[i].push(e[i]);
        }
    }
    (0..n)
        .map(|i| {
            let mut v = samples[i].clone();
            v.sort_by(f64::total_cmp);
            let (sd, lo, hi) = if v.is_empty() {
                (0.0, elo[i], elo[i])
            } else {
                let m = v.iter().sum::<f64>() / v.len() as f64;
                let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len() as f64;
                (var.sqrt(), percentile(&v, 0.025), percentile(&v, 0.975))
            };
            Rating { label: labels[i].clone(), elo: elo[i], sd, lo, hi }
        })
        .collect()
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::record::{MatchRecord, SeatRecord};

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn wilson_matches_hand_values() {
        // 7/10, z = 1.959964: z² = 3.841459, denom = 1 + z²/n = 1.3841459,
        // centre = (0.7 + 0.1920729) / 1.3841459 = 0.644502,
        // half = z/denom · sqrt(0.7·0.3/10 + z²/(4·100)) = 1.416008 · 0.174939 = 0.247716
        // → [0.3968, 0.8922].
        let (lo, hi) = wilson(7.0, 10.0, Z95);
        assert!(close(lo, 0.3968, 1e-4) && close(hi, 0.8922, 1e-4), "{lo} {hi}");
        // 0/4: centre = (0 + 3.841459/8) / 1.960365 = 0.244945, half the same → [0, 0.4899].
        let (lo, hi) = wilson(0.0, 4.0, Z95);
        assert!(close(lo, 0.0, 1e-9) && close(hi, 0.4899, 1e-4), "{lo} {hi}");
        // 3/6: symmetric around 0.5: half = z/1.640243 · sqrt(0.25/6 + 3.841459/144)
        // = 1.194920 · 0.261182 = 0.312092 → [0.1876, 0.8124].
        let (lo, hi) = wilson(3.0, 6.0, Z95);
        assert!(close(lo, 0.1876, 1e-4) && close(hi, 0.8124, 1e-4), "{lo} {hi}");
        assert_eq!(wilson(0.0, 0.0, Z95), (0.0, 1.0));
    }

    #[test]
    fn bradley_terry_two_algos_is_the_win_ratio() {
        // Two algos, 7–3: the MLE has p_a/p_b = 7/3, Elo difference 400·log10(7/3) = 147.19,
        // i.e. ±73.60 around mean 0. With the 0.5 prior: 400·log10(7.5/3.5) = 132.40.
        let wins = vec![vec![0.0, 7.0], vec![3.0, 0.0]];
        let e = elo_from_bt(&bradley_terry(&wins, 0.0), &[true, true]);
        assert!(close(e[0], 73.595, 1e-2) && close(e[1], -73.595, 1e-2), "{e:?}");
        let e = elo_from_bt(&bradley_terry(&wins, 0.5), &[true, true]);
        assert!(close(e[0] - e[1], 132.397, 1e-2), "{e:?}");
    }

    #[test]
    fn bradley_terry_satisfies_its_score_equations() {
        // The MLE solves W_i = Σ_j n_ij · p_i / (p_i + p_j) for every i.
        let wins = vec![vec![0.0, 6.0, 5.0], vec![2.0, 0.0, 4.0], vec![3.0, 4.0, 0.0]];
        let p = bradley_terry(&wins, 0.0);
        for i in 0..3 {
            let w: f64 = wins[i].iter().sum();
            let expect: f64 =
                (0..3).filter(|&j| j != i).map(|j| (wins[i][j] + wins[j][i]) * p[i] / (p[i] + p[j])).sum();
            assert!(close(w, expect, 1e-6), "{i}: {w} vs {expect}");
        }
    }

    #[test]
    fn bootstrap_is_reproducible_and_brackets_the_estimate() {
        let labels = vec!["a".to_string(), "b".to_string()];
        let wins = vec![vec![0.0, 14.0], vec![6.0, 0.0]];
        let r1 = ratings(&labels, &wins, BT_PRIOR, 200, 7);
        let r2 = ratings(&labels, &wins, BT_PRIOR, 200, 7);
        assert_eq!(r1, r2);
        assert!(r1[0].lo < r1[0].elo && r1[0].elo < r1[0].hi && r1[0].sd > 10.0, "{r1:?}");
    }

    fn rec(a: &str, b: &str, winner: u8, hp: (f32, f32), turns: i32) -> MatchRecord {
        MatchRecord {
            job_id: format!("{a}__{b}"),
            algo1: a.into(),
            algo2: b.into(),
            winner,
            turns,
            players: [
                SeatRecord { hp: hp.0, compute_ms: 100, timed_turns: 10, ..SeatRecord::default() },
                SeatRecord { hp: hp.1, compute_ms: 300, timed_turns: 10, ..SeatRecord::default() },
            ],
            ..MatchRecord::default()
        }
    }

    #[test]
    fn summary_tallies_by_hand() {
        // a–b: a wins as p1 (30–10, 50 turns), b wins as p1 (b 20 – a 0, 20 turns),
        // a wins as p2 (a 5 – b 0, 30 turns); one error; b crashes in an a–b game.
        let mut crash = rec("b", "a", 2, (0.0, 5.0), 30);
        crash.players[0].crashed = true;
        let mut err = rec("a", "b", 0, (0.0, 0.0), 0);
        err.error = Some("io".into());
        let records = vec![rec("a", "b", 1, (30.0, 10.0), 50), rec("b", "a", 1, (20.0, 0.0), 20), crash, err];
        let s = summarize(&records, &["a".into(), "b".into()]);
        assert_eq!((s.matches, s.errors), (4, 1));
        let a = &s.algos[0];
        assert_eq!((a.games, a.wins, a.losses, a.errors), (3, 2, 1, 1));
        assert_eq!((a.as_p1, a.as_p2), (SeatTally { games: 1, wins: 1 }, SeatTally { games: 2, wins: 1 }));
        // Margins: +20, −20, +5 → mean 5/3. Turns: (50+20+30)/3 = 33.33.
        assert!(close(a.figures.mean_hp_margin, 5.0 / 3.0, 1e-9));
        assert!(close(a.figures.mean_turns, 100.0 / 3.0, 1e-9));
        // a's compute: 100 (p1) + 300 + 300 (p2) over 30 turns = 23.33 ms.
        assert!(close(a.figures.mean_compute_ms, 700.0 / 30.0, 1e-9));
        assert_eq!(s.algos[1].crashes, 1);
        let p = &s.pairs[0];
        assert_eq!((p.a.as_str(), p.games, p.a_wins, p.b_wins, p.errors), ("a", 3, 2, 1, 1));
        assert!(close(p.figures.mean_hp_margin, 5.0 / 3.0, 1e-9));
        // Ratings: 2–1 with the prior → 400·log10(2.5/1.5) = 88.74 apart.
        assert!(close(s.ratings[0].elo - s.ratings[1].elo, 88.739, 1e-2), "{:?}", s.ratings);
    }
}
