//! The job plan: which games an arena plays, in which seat order, with which seed.

use super::error::PlanError;
use std::path::PathBuf;

/// An algo taking part: its folder (or start script) and its label (folder name).
#[derive(Debug, Clone, PartialEq)]
pub struct Entrant {
    pub path: PathBuf,
    pub label: String,
}

/// How algos are paired.
#[derive(Debug, Clone, PartialEq)]
pub enum Format {
    /// Every algo against every other.
    RoundRobin,
    /// Every algo against this baseline (an index into the entrants).
    Gauntlet { baseline: usize },
    /// The first entrant against every other, each a ghost (`ghost:REPLAY:N`) keeping its
    /// recorded seat: one game each.
    VsGhosts,
}

/// One game to play.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// Indices into the entrants, in seat order (player 1, player 2).
    pub seat1: usize,
    pub seat2: usize,
    /// Game index within the pairing: even games have the pairing's first algo as
    /// player 1, odd games have the seats swapped.
    pub game: u32,
    /// Seed for both algos (`ALGO_SEED`): games 2k and 2k + 1 share it, so each seed is
    /// played from both seats.
    pub seed: u64,
    /// `<seat1 label>__<seat2 label>__g<game>`: unique within the arena, the key of
    /// `--resume`.
    pub id: String,
}

/// The games of an arena, interleaved so that every pairing advances together (a stopped
/// or early-stopped arena has balanced partial results).
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub entrants: Vec<Entrant>,
    pub format: Format,
    /// Games per pairing (even: seats swapped equally).
    pub games: u32,
    pub jobs: Vec<Job>,
}

/// `games` rounded up to an even number, so both seat orders are played equally.
pub(crate) fn even_games(games: u32) -> u32 {
    games.max(1).saturating_add(1) & !1
}

impl Plan {
    /// Builds the plan. Labels must be distinct (they name the algos in the results).
    pub fn new(entrants: Vec<Entrant>, format: Format, games: u32, base_seed: u64) -> Result<Plan, PlanError> {
        if entrants.len() < 2 {
            return Err(PlanError::TooFewAlgos);
        }
        check_labels(&entrants)?;
        let n = entrants.len();
        let pairings: Vec<(usize, usize)> = match format {
            Format::RoundRobin => (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect(),
            Format::VsGhosts => return Err(PlanError::GhostsNeedTheirPlan),
            Format::Gauntlet { baseline } => {
                if baseline >= n {
                    return Err(PlanError::NoBaseline);
                }
                (0..n).filter(|&a| a != baseline).map(|a| (a, baseline)).collect()
            }
        };
        let games = even_games(games);
        let mut jobs = Vec::with_capacity(pairings.len() * games as usize);
        for game in 0..games {
            for &(a, b) in &pairings {
                let (s1, s2) = if game % 2 == 0 { (a, b) } else { (b, a) };
                jobs.push(Job {
                    seat1: s1,
                    seat2: s2,
                    game,
                    seed: base_seed.wrapping_add(u64::from(game / 2)),
                    id: format!("{}__{}__g{game}", entrants[s1].label, entrants[s2].label),
                });
            }
        }
        Ok(Plan { entrants, format, games, jobs })
    }

    /// One game of `algo` against each ghost, the ghost in its recorded seat.
    pub fn vs_ghosts(algo: Entrant, ghosts: &[super::ghosts::GhostGame], seed: u64) -> Result<Plan, PlanError> {
        if ghosts.is_empty() {
            return Err(PlanError::TooFewAlgos);
        }
        let mut entrants = vec![algo];
        entrants.extend(ghosts.iter().map(|g| Entrant { path: g.seat_arg(), label: g.label.clone() }));
        check_labels(&entrants)?;
        let jobs = ghosts
            .iter()
            .enumerate()
            .map(|(k, g)| {
                let (s1, s2) = if g.ghost == crate::engine::geometry::Player::Two { (0, k + 1) } else { (k + 1, 0) };
                Job {
                    seat1: s1,
                    seat2: s2,
                    game: 0,
                    seed,
                    id: format!("{}__{}__g0", entrants[s1].label, entrants[s2].label),
                }
            })
            .collect();
        Ok(Plan { entrants, format: Format::VsGhosts, games: 1, jobs })
    }

    pub fn pairings(&self) -> usize {
        self.jobs.len() / self.games.max(1) as usize
    }
}

/// Labels name the algos in the results and the job ids: distinct, without `__`.
fn check_labels(entrants: &[Entrant]) -> Result<(), PlanError> {
    for (i, e) in entrants.iter().enumerate() {
        if entrants[..i].iter().any(|o| o.label == e.label) {
            return Err(PlanError::DuplicateName(e.label.clone()));
        }
        if e.label.contains("__") {
            return Err(PlanError::ReservedName(e.label.clone()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrants(names: &[&str]) -> Vec<Entrant> {
        names.iter().map(|n| Entrant { path: PathBuf::from(n), label: (*n).into() }).collect()
    }

    #[test]
    fn round_robin_swaps_seats_equally() {
        let p = Plan::new(entrants(&["a", "b", "c"]), Format::RoundRobin, 3, 1).expect("plan");
        assert_eq!(p.games, 4);
        // 3 pairings x 4 games.
        assert_eq!(p.jobs.len(), 12);
        for (x, y) in [(0, 1), (0, 2), (1, 2)] {
            let first = p.jobs.iter().filter(|j| j.seat1 == x && j.seat2 == y).count();
            let second = p.jobs.iter().filter(|j| j.seat1 == y && j.seat2 == x).count();
            assert_eq!((first, second), (2, 2));
        }
        let mut ids: Vec<&str> = p.jobs.iter().map(|j| j.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 12);
        assert_eq!(p.jobs[0].id, "a__b__g0");
        assert_eq!(p.jobs[3].id, "b__a__g1");
        assert_eq!((p.jobs[0].seed, p.jobs[3].seed, p.jobs[6].seed), (1, 1, 2));
    }

    #[test]
    fn gauntlet_plays_only_against_the_baseline() {
        let p = Plan::new(entrants(&["a", "b", "base"]), Format::Gauntlet { baseline: 2 }, 2, 1).expect("plan");
        assert_eq!(p.jobs.len(), 4);
        assert!(p.jobs.iter().all(|j| j.seat1 == 2 || j.seat2 == 2));
    }

    #[test]
    fn duplicate_names_are_refused() {
        assert!(Plan::new(entrants(&["a", "a"]), Format::RoundRobin, 2, 1).is_err());
        assert!(Plan::new(entrants(&["a"]), Format::RoundRobin, 2, 1).is_err());
    }
}
