//! The attacker's side of a suggestion against the planner: its strongest reply at each MP
//! level of the schedule, the deploys it has found so far (the known deploys), the few best
//! candidates answered again, and the before/after report (see the parent module's doc).

use super::{SuggestProgress, SuggestStage, Weighed, score};
use crate::engine::config::Config;
use crate::engine::geometry::Player;
use crate::layout::Layout;
use crate::layout::stress::{Attack, AttackTry, Defence, collect_slots};
use crate::parallel::parallel_map;
use crate::planner::{
    Candidate, FrontierPoint, PlanBoard, PlanError, best_of_known, frontier_request, strongest_replies,
};
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// HP damage of a level's strongest reply (0 when its MP buys nothing).
fn damage(point: &FrontierPoint) -> f64 {
    point.best.as_ref().map_or(0.0, |c| f64::from(c.damage))
}

/// The replies' HP damage summed over the levels: the planner's part of the objective.
pub(super) fn damage_sum(points: &[FrontierPoint]) -> f64 {
    points.iter().map(damage).sum()
}

/// The attacker, the schedule and the deploys found so far.
pub(super) struct Replier {
    /// The layout's other seat attacking, at the schedule's top MP; its defence is swapped
    /// for each base weighed.
    board: PlanBoard,
    levels: Vec<f32>,
    known: Vec<Candidate>,
    seen: HashSet<Vec<crate::planner::Group>>,
    /// Candidates searched again, over every step.
    researched: usize,
}

/// What a step's re-search needs: its candidates and the layout's current replies.
pub(super) struct ReplyResearch<'a> {
    pub candidates: &'a [super::Candidate],
    pub floor: f32,
    pub step: usize,
    pub replies: &'a [FrontierPoint],
    /// How many recorded attacks one reply's HP counts as.
    pub weight: f64,
}

impl Replier {
    pub fn new(layout: &Layout, seat: Player, config: &Config, levels: &[f32]) -> Replier {
        let mut levels: Vec<f32> = levels.iter().copied().filter(|l| l.is_finite() && *l > 0.0).collect();
        levels.sort_by(f32::total_cmp);
        levels.dedup();
        let top = levels.last().copied().unwrap_or(0.0);
        let board = PlanBoard::from_layout(layout, &Arc::new(config.clone()), seat.opponent(), top);
        Replier { board, levels, known: Vec::new(), seen: HashSet::new(), researched: 0 }
    }

    fn board_for(&self, defence: &Defence) -> PlanBoard {
        self.board.clone().with_defence(defence.clone())
    }

    fn learn(&mut self, points: &[FrontierPoint]) {
        for c in points.iter().filter_map(|p| p.best.as_ref()) {
            if self.seen.insert(c.groups.clone()) {
                self.known.push(c.clone());
            }
        }
    }

    /// The strongest reply at each level against `defence`; its deploys become known.
    pub fn replies(
        &mut self,
        defence: &Defence,
        jobs: usize,
        cancel: &AtomicBool,
    ) -> Result<Vec<FrontierPoint>, PlanError> {
        let points =
            strongest_replies(&self.board_for(defence), &self.levels, &frontier_request(jobs), &self.known, cancel)?;
        self.learn(&points);
        Ok(points)
    }

    /// The replies as fixed attacks, one per level that buys one.
    pub fn fixed(&self, replies: &[FrontierPoint]) -> Vec<Attack> {
        let attack = self.board.attack();
        replies
            .iter()
            .filter_map(|p| Some(attack.clone().with_attacker_mp(p.mp).with_deploy(p.best.as_ref()?.deploy())))
            .collect()
    }

    /// The change to take among `weighed` (best bound first): each is answered by the
    /// planner again, a few at a time in parallel, until the best true score found is at
    /// least the next one's bound. A change that raises a level's strongest reply is not
    /// taken. Returns it with its replies, and whether it only prepares: when no change
    /// lowers the objective, the best by bound that does not raise it (it closes the current
    /// replies, so that the attacker's next best can be closed by the next step).
    pub fn choose(
        &mut self,
        research: &ReplyResearch,
        weighed: &[Weighed],
        jobs: usize,
        progress: &(dyn Fn(SuggestProgress) + Sync),
        cancel: &AtomicBool,
    ) -> Result<Option<(Weighed, Vec<FrontierPoint>, bool)>, PlanError> {
        let planner_now = damage_sum(research.replies);
        let mut best: Option<(Weighed, Vec<FrontierPoint>)> = None;
        let mut preparing: Option<(Weighed, Vec<FrontierPoint>)> = None;
        let mut done = 0;
        for chunk in weighed.chunks(jobs.max(1)) {
            if best.as_ref().is_some_and(|(b, _)| chunk.first().is_some_and(|next| b.score >= next.score)) {
                break;
            }
            let boards: Vec<PlanBoard> =
                chunk.iter().map(|w| self.board_for(&research.candidates[w.index].defence)).collect();
            let (known, levels) = (&self.known, &self.levels);
            let shown = |d: usize, _| {
                progress(SuggestProgress {
                    step: research.step,
                    candidates_done: done + d,
                    candidates: weighed.len(),
                    stage: SuggestStage::Replanning,
                });
            };
            let slots = parallel_map(chunk.len(), jobs, cancel, &shown, |k, _: &mut ()| {
                strongest_replies(&boards[k], levels, &frontier_request(1), known, cancel)
            });
            let answers = collect_slots(slots, cancel)?;
            done += chunk.len();
            self.researched += chunk.len();
            for (w, answer) in chunk.iter().zip(answers) {
                let after = answer?;
                self.learn(&after);
                let raises = after.iter().zip(research.replies).any(|(a, b)| damage(a) > damage(b));
                let gain = w.recorded_gain + research.weight * (planner_now - damage_sum(&after));
                let s = score(gain, research.candidates[w.index].cost, research.floor);
                if raises || gain < 0.0 {
                    continue;
                }
                if gain == 0.0 {
                    if preparing.is_none() {
                        preparing = Some((Weighed { score: 0.0, gain, ..w.clone() }, after));
                    }
                } else if best.as_ref().is_none_or(|(b, _)| s > b.score) {
                    best = Some((Weighed { score: s, gain, ..w.clone() }, after));
                }
            }
        }
        Ok(match best {
            Some((w, after)) => Some((w, after, false)),
            None => preparing.map(|(w, after)| (w, after, true)),
        })
    }

    /// The report: each level's strongest reply to the layout before and after, both made the
    /// best of what was searched and of every deploy known by the end.
    pub fn report(
        &self,
        before: (&Layout, &[FrontierPoint]),
        after: (&Layout, &[FrontierPoint]),
        seat: Player,
        jobs: usize,
        cancel: &AtomicBool,
    ) -> Result<PlannerReport, PlanError> {
        let config = self.board.config();
        let board_before = self.board_for(&Defence::from_layout(before.0, seat, config));
        let board_after = self.board_for(&Defence::from_layout(after.0, seat, config));
        let mut points_before = before.1.to_vec();
        let mut points_after = after.1.to_vec();
        best_of_known(&board_before, &mut points_before, &self.known, jobs, cancel)?;
        best_of_known(&board_after, &mut points_after, &self.known, jobs, cancel)?;
        let levels = points_before
            .into_iter()
            .zip(points_after)
            .map(|(b, a)| LevelReport { mp: b.mp, before: b.best, after: a.best })
            .collect();
        Ok(PlannerReport { levels, board_before, board_after, researched: self.researched, known: self.known.len() })
    }
}

/// The strongest reply at one MP level, before and after the suggested changes.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelReport {
    pub mp: f32,
    pub before: Option<Candidate>,
    pub after: Option<Candidate>,
}

impl LevelReport {
    /// HP damage and SP destroyed of the reply before (or after).
    pub fn figures(&self, after: bool) -> (f32, f32) {
        let c = if after { &self.after } else { &self.before };
        c.as_ref().map_or((0.0, 0.0), |c| (c.damage, c.sp_destroyed))
    }
}

/// The planner's side of a suggestion: every scheduled level's strongest reply to the layout
/// before and after the changes, each a deploy the engine ran on that layout.
#[derive(Debug, Clone)]
pub struct PlannerReport {
    pub levels: Vec<LevelReport>,
    /// The boards the replies were run on: the layout before and after, the same attacker.
    pub board_before: PlanBoard,
    pub board_after: PlanBoard,
    /// Candidates the planner searched again, over every step.
    pub researched: usize,
    /// Distinct deploys found in all.
    pub known: usize,
}

impl PartialEq for PlannerReport {
    fn eq(&self, other: &Self) -> bool {
        self.levels == other.levels
            && self.board_before.defence() == other.board_before.defence()
            && self.board_after.defence() == other.board_after.defence()
            && self.researched == other.researched
    }
}

impl PlannerReport {
    /// The reply of level `i`, before (or after) the changes, as a Debugger what-if against
    /// that layout; it ends with the figures reported.
    pub fn what_if(&self, i: usize, after: bool) -> Option<AttackTry> {
        let level = self.levels.get(i)?;
        let (reply, board, when) = if after {
            (&level.after, &self.board_after, "after")
        } else {
            (&level.before, &self.board_before, "before")
        };
        let reply = reply.as_ref()?;
        Some(board.what_if_try(reply.deploy(), format!("strongest at {} MP, {when} the suggestion", level.mp)))
    }

    /// The replies' HP damage summed over the levels, before (or after).
    pub fn damage_sum(&self, after: bool) -> f64 {
        self.levels.iter().map(|l| f64::from(l.figures(after).0)).sum()
    }
}
