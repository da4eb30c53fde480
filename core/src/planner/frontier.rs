//! The cost to break a base: the best attack the planner finds at each MP level, from the
//! cheapest unit's price up to a top MP, a level every 1 MP (docs/planner.md, The frontier).
//!
//! A deploy's outcome does not depend on the MP left over, so the single groups are run once,
//! at the top MP, and each level takes those it affords; the combinations are searched level
//! by level. The best at a level is the best deploy found at that level or any below it (a
//! deploy affordable with less MP is affordable with more), so the frontier never goes down.

use super::candidate::{Candidate, CandidateRecord, mp_cost};
use super::{PlanBoard, PlanError, PlanProgress, PlanRequest, combine, search};
use crate::engine::geometry::Player;
use crate::engine::resources::round1;
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// The best attack found with at most `mp` MP.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontierPoint {
    pub mp: f32,
    /// None when `mp` buys no mobile unit.
    pub best: Option<Candidate>,
}

/// The MP levels of a frontier up to `top`: the cheapest mobile unit's price, then every 1 MP
/// above it, and `top` itself if it falls between two levels.
pub fn frontier_levels(board: &PlanBoard, top: f32) -> Vec<f32> {
    let config = board.config();
    let prices = board.mobile_types().into_iter().filter_map(|t| config.units.get(t as usize).map(|u| u.cost_mp));
    let Some(cheapest) = prices.min_by(f32::total_cmp) else { return Vec::new() };
    let mut levels = Vec::new();
    let mut mp = cheapest;
    while mp <= top + 1e-3 {
        levels.push(round1(mp));
        mp += 1.0;
    }
    if levels.last().is_some_and(|&last| top - last > 0.05) {
        levels.push(round1(top));
    }
    levels
}

/// The preset the frontier searches each level with: pairs on a smaller budget and beam, no
/// split pairs, no triples (one level costs a small part of a full search).
pub fn frontier_request(jobs: usize) -> PlanRequest {
    PlanRequest { max_groups: 2, pair_budget: 10_000, pair_beam: 2, jobs, split_pairs: false, ..PlanRequest::default() }
}

/// The best attack at each of `levels` (ascending), searched with `request` (see
/// [`frontier_request`]). `progress(done, total)` is called after each level.
pub fn frontier(
    board: &PlanBoard,
    levels: &[f32],
    request: &PlanRequest,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &AtomicBool,
) -> Result<Vec<FrontierPoint>, PlanError> {
    let Some(&top) = levels.last() else { return Ok(Vec::new()) };
    let top_board = board.clone().with_mp(top);
    let mut batch = search::Batch::default();
    let singles = search::singles(&top_board, &mut batch);
    let quiet = |_: PlanProgress| {};
    let singles = search::run_batch(&top_board, singles, request.jobs.max(1), 1, &quiet, cancel)?;
    let mut out = Vec::with_capacity(levels.len());
    let mut running: Option<Candidate> = None;
    for (k, &mp) in levels.iter().enumerate() {
        let level = board.clone().with_mp(mp);
        let affordable: Vec<Candidate> = singles
            .iter()
            .filter_map(|c| Some(Candidate { mp_spent: mp_cost(level.config(), &c.groups, mp)?, ..c.clone() }))
            .collect();
        let plan = if affordable.is_empty() {
            None
        } else {
            Some(combine(&level, request, affordable, search::Batch::default(), &quiet, cancel)?)
        };
        if let Some(best) = plan.as_ref().and_then(|p| p.best())
            && running.as_ref().is_none_or(|r| best.rank(r).is_lt())
        {
            running = Some(best.clone());
        }
        out.push(FrontierPoint { mp, best: running.clone() });
        progress(k + 1, levels.len());
    }
    Ok(out)
}

/// The strongest reply the attacker has at each of `levels` (ascending) against `board`'s
/// defence: the best of the frontier searched with `request` and of the `known` deploys
/// (attacks found before, against this base or others) that the level affords, each run
/// against this defence. Every reply is a deploy the engine ran on this board, so its figures
/// are what its what-if gives. Never down in MP, as the frontier.
pub fn strongest_replies(
    board: &PlanBoard,
    levels: &[f32],
    request: &PlanRequest,
    known: &[Candidate],
    cancel: &AtomicBool,
) -> Result<Vec<FrontierPoint>, PlanError> {
    let mut points = frontier(board, levels, request, &|_, _| {}, cancel)?;
    best_of_known(board, &mut points, known, request.jobs, cancel)?;
    Ok(points)
}

/// Each point's best made the best of it and of the `known` deploys its MP affords, each run
/// against `board` on `jobs` threads.
pub fn best_of_known(
    board: &PlanBoard,
    points: &mut [FrontierPoint],
    known: &[Candidate],
    jobs: usize,
    cancel: &AtomicBool,
) -> Result<(), PlanError> {
    let Some(top) = points.iter().map(|p| p.mp).max_by(f32::total_cmp) else { return Ok(()) };
    let top_board = board.clone().with_mp(top);
    let config = top_board.config();
    let deploys: search::Deploys =
        known.iter().filter_map(|c| Some((c.groups.clone(), mp_cost(config, &c.groups, top)?))).collect();
    let quiet = |_: PlanProgress| {};
    let known = search::run_batch(&top_board, deploys, jobs.max(1), 1, &quiet, cancel)?;
    for point in points {
        let affordable = known.iter().filter(|c| mp_cost(config, &c.groups, point.mp).is_some());
        for c in affordable {
            if point.best.as_ref().is_none_or(|b| c.rank(b).is_lt()) {
                point.best = Some(c.clone());
            }
        }
    }
    Ok(())
}

/// One level of a frontier for output: the best deploy's record (its `rank` 1), in the view
/// the record was made for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FrontierRecord {
    pub mp: f32,
    pub best: Option<CandidateRecord>,
}

impl FrontierPoint {
    /// The level for output, its tiles in `attacker`'s own view (player 2's rotated).
    pub fn record(&self, config: &crate::engine::config::Config, attacker: Player) -> FrontierRecord {
        FrontierRecord { mp: self.mp, best: self.best.as_ref().map(|c| c.record(config, attacker, 1)) }
    }
}
