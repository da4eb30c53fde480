//! The deploys the planner tries: every single group exactly, then pairs and triples of
//! groups on the most promising lanes (docs/planner.md, The search). Every deploy tried is
//! run through the engine; nothing is extrapolated.

use super::candidate::{Candidate, Group, Lane, canonical, mp_cost};
use super::{PlanBoard, PlanProgress};
use crate::engine::geometry::{Edge, Tile};
use crate::layout::stress::RunError;
use crate::parallel::parallel_map;
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::AtomicBool;

/// Deploys to run, each with the MP it costs.
pub(super) type Deploys = Vec<(Vec<Group>, f32)>;

/// Deploys to run, each with the MP it costs; `seen` keeps every deploy asked for once.
#[derive(Default)]
pub(super) struct Batch {
    pub deploys: Deploys,
    seen: HashSet<Vec<Group>>,
}

impl Batch {
    /// Adds `groups` (any order) if the MP covers them and it was not asked for before.
    fn offer(&mut self, board: &PlanBoard, groups: Vec<Group>) {
        let groups = canonical(groups);
        if let Some(cost) = mp_cost(board.config(), &groups, board.mp())
            && self.seen.insert(groups.clone())
        {
            self.deploys.push((groups, cost));
        }
    }

    /// Starts a new stage: the deploys run so far stay `seen`.
    fn take(&mut self) -> Deploys {
        std::mem::take(&mut self.deploys)
    }
}

/// Runs `deploys` on `jobs` threads; results in the order given.
pub(super) fn run_batch(
    board: &PlanBoard,
    deploys: Deploys,
    jobs: usize,
    stage: usize,
    progress: &(dyn Fn(PlanProgress) + Sync),
    cancel: &AtomicBool,
) -> Result<Vec<Candidate>, RunError> {
    let report = |done, total| progress(PlanProgress { stage, done, total });
    let slots = parallel_map(deploys.len(), jobs, cancel, &report, |k, scratch| {
        let (groups, cost) = &deploys[k];
        let o = board.evaluate(&super::candidate::deploy_line(groups), false, scratch);
        debug_assert_eq!(o.rejected, 0, "the planner offered a deploy the engine refuses: {groups:?}");
        Candidate::new(groups.clone(), *cost, &o)
    });
    crate::layout::stress::collect_slots(slots, cancel)
}

/// The largest count of `lane` that `mp` affords beside `others` (0 if none).
fn max_count(board: &PlanBoard, others: &[Group], (unit_type, tile): Lane, cap: u32) -> u32 {
    let mut n = 0;
    while n < cap {
        let mut groups = others.to_vec();
        groups.push(Group { unit_type, tile, count: n + 1 });
        if mp_cost(board.config(), &canonical(groups), board.mp()).is_none() {
            break;
        }
        n += 1;
    }
    n
}

/// Stage 1: every lane (deploy tile × mobile type) with every count the MP affords.
pub(super) fn singles(board: &PlanBoard, batch: &mut Batch) -> Deploys {
    for unit_type in board.mobile_types() {
        for tile in board.deploy_tiles() {
            let most = max_count(board, &[], (unit_type, tile), u32::MAX);
            for count in 1..=most {
                batch.offer(board, vec![Group { unit_type, tile, count }]);
            }
        }
    }
    batch.take()
}

/// The lanes the combinations draw on, most promising first. Lanes whose units never met the
/// defence (never hit, never hitting a structure) at any count and scored alike are one
/// lane as far as any combination can tell from them: only the first is kept (the pruning).
/// The rest are taken in turn from each mobile type and deploy edge, best single first, so
/// that both edges and every type are drawn on.
pub(super) fn combination_lanes(singles: &[Candidate]) -> Vec<Lane> {
    let mut by_lane: BTreeMap<Lane, Vec<&Candidate>> = BTreeMap::new();
    for c in singles {
        by_lane.entry(c.groups[0].lane()).or_default().push(c);
    }
    let mut lanes: Vec<(Lane, &Candidate, Option<Vec<Signature>>)> = by_lane
        .into_iter()
        .filter_map(|(lane, list)| {
            let best = list.iter().copied().min_by(|a, b| a.rank(b))?;
            let untouched = list.iter().all(|c| !met_defence(c));
            Some((lane, best, untouched.then(|| list.iter().map(|c| signature(c)).collect())))
        })
        .collect();
    lanes.sort_by(|a, b| a.1.rank(b.1));
    let mut seen: HashSet<(u8, Vec<Signature>)> = HashSet::new();
    let mut queues: BTreeMap<(u8, Option<Edge>), Vec<Lane>> = BTreeMap::new();
    for (lane, _, sig) in lanes {
        if sig.is_none_or(|sig| seen.insert((lane.0, sig))) {
            queues.entry((lane.0, Edge::ALL.into_iter().find(|e| e.contains(lane.1)))).or_default().push(lane);
        }
    }
    let mut kept = Vec::new();
    for round in 0.. {
        let before = kept.len();
        kept.extend(queues.values().filter_map(|q| q.get(round)));
        if kept.len() == before {
            break;
        }
    }
    kept
}

/// The units took damage, dealt some to a structure, or were shot down.
fn met_defence(c: &Candidate) -> bool {
    c.damage_received > 0.0 || c.structure_damage > 0.0 || c.units_destroyed > 0
}

/// How a single group ended, bit for bit.
type Signature = (u32, u32, u32, u32, u32, u32);

fn signature(c: &Candidate) -> Signature {
    let bits = f32::to_bits;
    (
        bits(c.damage),
        bits(c.sp_destroyed),
        c.breaches,
        c.units_destroyed,
        bits(c.structure_damage),
        bits(c.damage_received),
    )
}

fn group((unit_type, tile): Lane, count: u32) -> Group {
    Group { unit_type, tile, count }
}

/// The first group's counts of a coarse pair: 1, 2 or 3 units, or about a quarter, half or
/// three quarters of what `lane` could buy alone.
fn coarse_counts(board: &PlanBoard, lane: Lane) -> Vec<u32> {
    let most = max_count(board, &[], lane, u32::MAX);
    let mut grid: Vec<u32> = [1, 2, 3, most / 4, most / 2, most * 3 / 4].into_iter().filter(|&n| n >= 1).collect();
    grid.sort_unstable();
    grid.dedup();
    grid
}

/// How many of `lanes` (in order) the coarse pairs can draw on within about `budget` unit
/// runs (a run costs about as much as it has units: the MP's worth of the cheapest type).
pub(super) fn lanes_within(board: &PlanBoard, lanes: &[Lane], budget: usize) -> usize {
    let sizes: Vec<usize> = lanes.iter().map(|&l| coarse_counts(board, l).len()).collect();
    let units = lanes.iter().map(|&l| max_count(board, &[], l, u32::MAX)).max().unwrap_or(1).max(1) as usize;
    let budget = budget / units;
    let mut runs = 0;
    for k in 0..sizes.len() {
        runs += sizes[..k].iter().map(|g| g + sizes[k]).sum::<usize>();
        if runs > budget {
            return k.max(2).min(sizes.len());
        }
    }
    sizes.len()
}

/// Stage 2a: every two lanes of `lanes`, the MP split between them on a coarse grid (the
/// first group `coarse_counts`, the second as large as the rest buys), both ways round.
pub(super) fn pairs_coarse(board: &PlanBoard, lanes: &[Lane], batch: &mut Batch) -> Deploys {
    for (i, &a) in lanes.iter().enumerate() {
        for &b in &lanes[i + 1..] {
            for (first, second) in [(a, b), (b, a)] {
                for n in coarse_counts(board, first) {
                    let m = max_count(board, &[group(first, n)], second, u32::MAX);
                    if m > 0 {
                        batch.offer(board, vec![group(first, n), group(second, m)]);
                    }
                }
            }
        }
    }
    batch.take()
}

/// Stage 2a too: for each mobile type, every tile of one deploy edge with every tile of the
/// other, the MP split evenly: two stacks from both sides divide the defence's fire in a
/// way no single group's outcome hints at.
pub(super) fn pairs_split(board: &PlanBoard, batch: &mut Batch) -> Deploys {
    let tiles = board.deploy_tiles();
    let edge_of = |t: Tile| Edge::ALL.into_iter().position(|e| e.contains(t));
    for unit_type in board.mobile_types() {
        for &a in &tiles {
            for &b in tiles.iter().filter(|&&b| edge_of(b) > edge_of(a)) {
                let half = max_count(board, &[], (unit_type, a), u32::MAX) / 2;
                let rest = max_count(board, &[group((unit_type, a), half.max(1))], (unit_type, b), u32::MAX);
                if half >= 1 && rest >= 1 {
                    batch.offer(board, vec![group((unit_type, a), half), group((unit_type, b), rest)]);
                }
            }
        }
    }
    batch.take()
}

/// Stage 2b: the `beam` best pairs of lanes of stage 2a, with every split of the MP that
/// leaves no unit of either unbought.
pub(super) fn pairs_fine(board: &PlanBoard, coarse: &[Candidate], beam: usize, batch: &mut Batch) -> Deploys {
    for (a, b) in best_lane_pairs(coarse, beam) {
        for (first, second) in [(a, b), (b, a)] {
            for n in 1.. {
                let m = max_count(board, &[group(first, n)], second, u32::MAX);
                if m == 0 {
                    break;
                }
                batch.offer(board, vec![group(first, n), group(second, m)]);
            }
        }
    }
    batch.take()
}

/// The `beam` best pairs of lanes among `pairs`, best first.
fn best_lane_pairs(pairs: &[Candidate], beam: usize) -> Vec<(Lane, Lane)> {
    let mut ranked: Vec<&Candidate> = pairs.iter().collect();
    ranked.sort_by(|a, b| a.rank(b));
    let mut out = Vec::new();
    for c in ranked {
        let key = (c.groups[0].lane(), c.groups[1].lane());
        if !out.contains(&key) {
            out.push(key);
            if out.len() == beam {
                break;
            }
        }
    }
    out
}

/// Stage 3: the `beam` best pairs (the best split of each pair of lanes), each with a third
/// lane of `lanes` at every count, the MP it needs taken from one of the pair's groups or
/// the other.
pub(super) fn triples(
    board: &PlanBoard,
    pairs: &[Candidate],
    lanes: &[Lane],
    beam: usize,
    batch: &mut Batch,
) -> Deploys {
    let mut ranked: Vec<&Candidate> = pairs.iter().collect();
    ranked.sort_by(|a, b| a.rank(b));
    let mut lane_pairs = HashSet::new();
    let best = ranked.into_iter().filter(|c| lane_pairs.insert((c.groups[0].lane(), c.groups[1].lane()))).take(beam);
    for pair in best {
        let (a, b) = (pair.groups[0], pair.groups[1]);
        for &(unit_type, tile) in lanes.iter().filter(|&&l| l != a.lane() && l != b.lane()) {
            for count in 1.. {
                let third = Group { unit_type, tile, count };
                let mut any = false;
                // The third group's MP from the first group, then from the second.
                for (keep, shrink) in [(b, a), (a, b)] {
                    let n = max_count(board, &[keep, third], shrink.lane(), shrink.count);
                    if n > 0 {
                        any = true;
                        batch.offer(board, vec![keep, Group { count: n, ..shrink }, third]);
                    }
                }
                if !any {
                    break;
                }
            }
        }
    }
    batch.take()
}
