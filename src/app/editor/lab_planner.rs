//! "Attack this layout": the attack planner against the editor's layout at 5, 10, 15 and
//! 20 MP, and the cost to break it (the best attack at each MP up to 40), on a thread of its
//! own, shown beside the worst recorded attacks of the lab's run; each searched attack, and
//! each level of the cost chart, opens in the Debugger as a what-if try.

use crate::app::job_progress::JobProgress;
use crossbeam_channel::{Receiver, TryRecvError, bounded};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use terminal_core::engine::Config;
use terminal_core::engine::geometry::Player;
use terminal_core::layout::Layout;
use terminal_core::layout::stress::AttackTry;
use terminal_core::planner::{self, Candidate, FrontierPoint, PlanBoard, PlanProgress, PlanRequest};

/// The MP the layout is attacked with: an early, a middling, a saved-up and a big turn.
pub const PLANNED_MP: [f32; 4] = [5.0, 10.0, 15.0, 20.0];

/// Candidates kept per MP, best first.
const KEPT: usize = 3;

/// The searched attacks of one MP.
pub struct PlannedMp {
    pub mp: f32,
    board: PlanBoard,
    /// The best candidates, best first.
    pub best: Vec<Candidate>,
}

/// The frontier's top MP: the cost to break the layout is searched up to this.
pub const FRONTIER_MP: f32 = 40.0;

/// The searches of one layout, for one defending seat.
pub struct LayoutPlans {
    pub layout: Layout,
    pub seat: Player,
    pub by_mp: Vec<PlannedMp>,
    /// The cost to break it: the best attack at each MP level up to [`FRONTIER_MP`].
    pub frontier: Vec<FrontierPoint>,
    /// The board the frontier searched (at its top MP).
    frontier_board: Option<PlanBoard>,
}

impl LayoutPlans {
    /// Candidate `k` of MP row `row` as a try against the layout (HP without limit, as the
    /// planner counts it).
    pub fn attack_try(&self, row: usize, k: usize, describe: impl Fn(&Candidate) -> String) -> Option<AttackTry> {
        let planned = self.by_mp.get(row)?;
        let candidate = planned.best.get(k)?;
        let label = format!("planned at {} MP: {}", planned.mp, describe(candidate));
        Some(planned.board.what_if_try(candidate.deploy(), label))
    }

    /// The frontier's level `i` as a try against the layout (HP without limit).
    pub fn frontier_try(&self, i: usize, describe: impl Fn(&Candidate) -> String) -> Option<AttackTry> {
        let point = self.frontier.get(i)?;
        let candidate = point.best.as_ref()?;
        let board = self.frontier_board.as_ref()?;
        Some(board.what_if_try(candidate.deploy(), format!("best at {} MP: {}", point.mp, describe(candidate))))
    }
}

/// A search running on its thread.
pub struct PlansJob {
    done: Receiver<Result<LayoutPlans, String>>,
    progress_rx: Receiver<JobProgress>,
    /// The newest step the thread reported.
    progress: Option<JobProgress>,
    cancel: Arc<AtomicBool>,
}

impl PlansJob {
    /// Searches `layout` attacked by the opponent of `seat` at every MP of [`PLANNED_MP`].
    pub fn start(layout: Layout, seat: Player, config: Arc<Config>) -> std::io::Result<PlansJob> {
        let (tx, rx) = bounded(1);
        let (progress_tx, progress_rx) = bounded(16);
        let cancel = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&cancel);
        crate::app::background::spawn("layout-planner", move || {
            // Progress is dropped when the panel is behind: only the newest step matters.
            let report = |p: JobProgress| {
                let _ = progress_tx.try_send(p);
            };
            let _ = tx.send(search(layout, seat, &config, &report, &stop));
        })?;
        Ok(PlansJob { done: rx, progress_rx, progress: None, cancel })
    }

    /// The newest step the search reported.
    pub fn progress(&self) -> Option<&JobProgress> {
        self.progress.as_ref()
    }

    /// The answer, once there is one (the progress taken on the way).
    pub fn poll(&mut self) -> Option<Result<LayoutPlans, String>> {
        if let Some(newest) = self.progress_rx.try_iter().last() {
            self.progress = Some(newest);
        }
        match self.done.try_recv() {
            Ok(result) => Some(result),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("the planner's thread ended without an answer".into())),
        }
    }

    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

fn search(
    layout: Layout,
    seat: Player,
    config: &Arc<Config>,
    report: &(dyn Fn(JobProgress) + Sync),
    cancel: &AtomicBool,
) -> Result<LayoutPlans, String> {
    if config.legacy {
        return Err("the planner runs current-format rulesets only".into());
    }
    let attacker = seat.opponent();
    let mut by_mp = Vec::with_capacity(PLANNED_MP.len());
    for (k, mp) in PLANNED_MP.into_iter().enumerate() {
        let board = PlanBoard::from_layout(&layout, config, attacker, mp);
        let whole = format!("{mp} MP ({} of {})", k + 1, PLANNED_MP.len());
        let stage = |p: PlanProgress| report(JobProgress::of_plan(p).within(&whole));
        let plan = planner::plan(&board, &PlanRequest::default(), &stage, cancel).map_err(|e| e.to_string())?;
        by_mp.push(PlannedMp { mp, best: plan.top(KEPT).to_vec(), board });
    }
    let board = PlanBoard::from_layout(&layout, config, attacker, FRONTIER_MP);
    let levels = planner::frontier_levels(&board, FRONTIER_MP);
    let jobs = PlanRequest::default().jobs;
    report(JobProgress::of_frontier(0, levels.len()));
    let levels_done = |done, total| report(JobProgress::of_frontier(done, total));
    let frontier = planner::frontier(&board, &levels, &planner::frontier_request(jobs), &levels_done, cancel)
        .map_err(|e| e.to_string())?;
    Ok(LayoutPlans { layout, seat, by_mp, frontier, frontier_board: Some(board) })
}
