//! The attack planner: with the MP the attacker has, where and what to send against the
//! base in front of it (docs/planner.md).
//!
//! The question is a [`PlanBoard`]: a board at the start of a turn's action phase (a replay
//! turn, a live game, an editor layout), the attacking seat and its MP; the defence is the
//! defender's structures after that turn's builds, as the layout lab takes them. [`plan`]
//! tries every single group exactly and then combinations of two and three groups, runs each
//! deploy through the engine (the layout lab's `simulate_deploy`) and ranks them: HP damage,
//! then SP destroyed, then MP kept. It is cancellable and reports progress, like the layout
//! lab; the result is the same, in the same order, on any number of threads.

mod board;
mod candidate;
mod frontier;
mod options;
mod search;

pub use board::PlanBoard;
pub use candidate::{Candidate, CandidateRecord, Group, GroupRecord, Lane, deploy_line};
pub use frontier::{
    FrontierPoint, FrontierRecord, best_of_known, frontier, frontier_levels, frontier_request, strongest_replies,
};
pub use options::{AttackOption, Likeness, OptionRecord, options, recorded_option};

use crate::layout::stress::{AttackError, RunError};
use std::sync::atomic::AtomicBool;

/// How far the search goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanRequest {
    /// Groups per deploy at most: 1 (singles only), 2 or 3.
    pub max_groups: usize,
    /// Unit runs (runs × units deployed) the coarse pairs may take, about: they draw on as
    /// many lanes (tile × type, most promising first) as this allows.
    pub pair_budget: usize,
    /// Pairs of lanes whose every MP split is tried (the best of the coarse grid).
    pub pair_beam: usize,
    /// Lanes the triples' third group is drawn from (the first of `pair_lanes`).
    pub triple_lanes: usize,
    /// Pairs (the best split of each pair of lanes) that the triples grow from.
    pub triple_beam: usize,
    /// Worker threads.
    pub jobs: usize,
    /// The pairs of one type from both edges, the MP split evenly (every tile of one edge
    /// with every tile of the other): the frontier's levels leave them out.
    pub split_pairs: bool,
}

impl Default for PlanRequest {
    fn default() -> Self {
        let jobs = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        PlanRequest {
            max_groups: 3,
            pair_budget: 100_000,
            pair_beam: 8,
            triple_lanes: 12,
            triple_beam: 6,
            jobs,
            split_pairs: true,
        }
    }
}

/// Where a search is: stage 1 singles, 2 pairs, 3 triples; deploys run of the stage's total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanProgress {
    pub stage: usize,
    pub done: usize,
    pub total: usize,
}

/// The result of a search.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Every deploy run, best first (a total order: see `Candidate::rank`).
    pub candidates: Vec<Candidate>,
    /// Deploys run in each stage (singles, pairs, triples).
    pub evaluated: [usize; 3],
    /// The lanes (type, deploy tile) the combinations drew on.
    pub combination_lanes: Vec<Lane>,
}

impl Plan {
    pub fn best(&self) -> Option<&Candidate> {
        self.candidates.first()
    }

    pub fn top(&self, n: usize) -> &[Candidate] {
        &self.candidates[..n.min(self.candidates.len())]
    }
}

/// Why a plan could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanError {
    #[error("2018–2019 rules: the planner runs current-format rulesets only")]
    LegacyRules,
    #[error("the replay has no turn {0}")]
    NoSuchTurn(i32),
    #[error(transparent)]
    Attack(#[from] AttackError),
    #[error(transparent)]
    Run(#[from] RunError),
}

/// Searches the deploys of `board` (docs/planner.md, The search). `progress` is called after
/// each deploy run; setting `cancel` stops the search within one deploy per thread.
pub fn plan(
    board: &PlanBoard,
    request: &PlanRequest,
    progress: &(dyn Fn(PlanProgress) + Sync),
    cancel: &AtomicBool,
) -> Result<Plan, PlanError> {
    let jobs = request.jobs.max(1);
    let mut batch = search::Batch::default();
    let singles = search::singles(board, &mut batch);
    let singles = search::run_batch(board, singles, jobs, 1, progress, cancel)?;
    combine(board, request, singles, batch, progress, cancel)
}

/// The search's combinations (pairs, triples) on top of its `singles`, run already; `batch`
/// knows the deploys run so far.
fn combine(
    board: &PlanBoard,
    request: &PlanRequest,
    singles: Vec<Candidate>,
    mut batch: search::Batch,
    progress: &(dyn Fn(PlanProgress) + Sync),
    cancel: &AtomicBool,
) -> Result<Plan, PlanError> {
    let jobs = request.jobs.max(1);
    let mut evaluated = [singles.len(), 0, 0];
    let mut lanes = search::combination_lanes(&singles);
    lanes.truncate(search::lanes_within(board, &lanes, request.pair_budget));
    let mut candidates = singles;
    if request.max_groups >= 2 {
        let mut coarse = search::pairs_coarse(board, &lanes, &mut batch);
        if request.split_pairs {
            coarse.extend(search::pairs_split(board, &mut batch));
        }
        let coarse = search::run_batch(board, coarse, jobs, 2, progress, cancel)?;
        let fine = search::pairs_fine(board, &coarse, request.pair_beam, &mut batch);
        let mut pairs = search::run_batch(board, fine, jobs, 2, progress, cancel)?;
        pairs.extend(coarse);
        evaluated[1] = pairs.len();
        if request.max_groups >= 3 {
            let third = &lanes[..lanes.len().min(request.triple_lanes)];
            let triples = search::triples(board, &pairs, third, request.triple_beam, &mut batch);
            let triples = search::run_batch(board, triples, jobs, 3, progress, cancel)?;
            evaluated[2] = triples.len();
            candidates.extend(triples);
        }
        candidates.extend(pairs);
    }
    candidates.sort_by(|a, b| a.rank(b));
    Ok(Plan { candidates, evaluated, combination_lanes: lanes })
}
