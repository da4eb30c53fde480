//! Suggest: which structures to add (or upgrade, or remove) so that the layout loses the
//! least HP over a set of recorded attacks, within an SP budget.
//!
//! The search is greedy, one change per step, and each step is exact: the change taken is
//! the one with the most HP saved per SP over the whole attack set, as the engine plays it.
//! Exactness is kept affordable by two facts:
//! - A change on tile `t` cannot alter an attack whose attackers never came within any
//!   unit's reach of `t` (until then the game is the same, tick for tick, and a blocker off
//!   every path leaves the paths alone). So each candidate runs only the attacks it can
//!   change; the others keep their HP lost.
//! - An attack that already lost no HP can only get worse. A candidate's saving over the
//!   attacks that lost HP is therefore an upper bound of its true gain; candidates are
//!   tried best bound first, and the search stops as soon as no bound left can beat the
//!   best true gain found (branch and bound). The cheap first bound is the HP lost by the
//!   attacks a candidate can change at all.
//!
//! Greedy rather than beam search: a beam of width k costs k times as many engine runs per
//! step, and on two cores the exact greedy step is what fits the time a user waits.

use super::stress::{self, Attack, Defence, Detail, HpModel, RunError, TileSet, collect_slots, simulate};
use super::{Kind, Layout};
use crate::engine::config::Config;
use crate::engine::geometry::{Player, Tile, all_tiles};
use crate::parallel::parallel_map;
use std::sync::atomic::AtomicBool;

/// One change to the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Place { tile: Tile, kind: Kind },
    Upgrade { tile: Tile },
    Remove { tile: Tile },
}

impl Change {
    pub fn tile(self) -> Tile {
        match self {
            Change::Place { tile, .. } | Change::Upgrade { tile } | Change::Remove { tile } => tile,
        }
    }

    /// The change applied to a copy of `layout` (seat `seat`).
    pub fn apply(self, layout: &Layout, seat: Player) -> Layout {
        let mut l = layout.clone();
        match self {
            Change::Place { tile, kind } => {
                l.place(seat, tile, kind);
            }
            Change::Upgrade { tile } => {
                l.upgrade(seat, tile);
            }
            Change::Remove { tile } => {
                l.erase(seat, tile);
            }
        }
        l
    }

    /// "turret at 22,11", "upgrade of the wall at 3,12", "removal of the wall at 4,12".
    pub fn describe(self, layout: &Layout, legacy: bool) -> String {
        let t = self.tile();
        let existing = layout.get(t).map(|s| s.kind.label_for(legacy).to_lowercase()).unwrap_or_default();
        match self {
            Change::Place { kind, .. } => format!("{} at {},{}", kind.label_for(legacy).to_lowercase(), t.x, t.y),
            Change::Upgrade { .. } => format!("upgrade of the {existing} at {},{}", t.x, t.y),
            Change::Remove { .. } => format!("removal of the {existing} at {},{}", t.x, t.y),
        }
    }
}

/// What the search may do.
#[derive(Debug, Clone, PartialEq)]
pub struct SuggestOptions {
    /// SP the changes may cost in all (a removal costs nothing and refunds nothing here).
    pub budget: f32,
    /// Structure types to place. Supports are left out by default: with the defender's own
    /// mobile units left out of every attack, a Support is only a dear wall.
    pub kinds: Vec<Kind>,
    pub upgrades: bool,
    pub removals: bool,
    /// At most this many steps.
    pub max_steps: usize,
    pub jobs: usize,
}

impl Default for SuggestOptions {
    fn default() -> Self {
        SuggestOptions {
            budget: 10.0,
            kinds: vec![Kind::Turret, Kind::Wall],
            upgrades: true,
            removals: false,
            max_steps: usize::MAX,
            jobs: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        }
    }
}

/// One accepted change.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub change: Change,
    /// Its text, named against the layout before it ("turret at 22,11").
    pub label: String,
    pub cost: f32,
    /// HP lost over the whole attack set before and after this change.
    pub hp_lost_before: f64,
    pub hp_lost_after: f64,
    /// Attacks whose HP lost the change altered (better or worse).
    pub attacks_changed: usize,
    /// Candidates the step weighed, and engine runs it took.
    pub candidates: usize,
    pub runs: usize,
}

impl Step {
    /// The relative change of HP lost, in percent (negative is better).
    pub fn percent(&self) -> f64 {
        if self.hp_lost_before > 0.0 {
            100.0 * (self.hp_lost_after - self.hp_lost_before) / self.hp_lost_before
        } else {
            0.0
        }
    }
}

/// The search's result: the steps in order and the layout with all of them.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    pub steps: Vec<Step>,
    pub layout: Layout,
    pub attacks: usize,
    pub hp_lost_before: f64,
    pub hp_lost_after: f64,
    pub spent: f32,
}

/// Where the search is, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SuggestProgress {
    /// The step being searched (0-based).
    pub step: usize,
    /// Candidates weighed so far in this step, of how many there are.
    pub candidates_done: usize,
    pub candidates: usize,
}

struct Candidate {
    change: Change,
    cost: f32,
    defence: Defence,
    /// Attacks it can change: those that lost HP (for the bound), the others.
    hurt: Vec<usize>,
    clean: Vec<usize>,
    /// HP lost by `hurt` now: the most the candidate could save.
    first_bound: f64,
}

/// Greedy search for the changes that most reduce HP lost over `attacks`.
pub fn suggest(
    attacks: &[Attack],
    layout: &Layout,
    seat: Player,
    config: &Config,
    options: &SuggestOptions,
    progress: &(dyn Fn(SuggestProgress) + Sync),
    cancel: &AtomicBool,
) -> Result<Suggestion, RunError> {
    let mut layout = layout.clone();
    let mut budget = options.budget;
    let mut steps = Vec::new();
    let quiet = |_: usize, _: usize| {};
    let reach2 = interaction_reach2(config);
    let floor = options.kinds.iter().map(|k| config.unit(k.unit_type()).cost_sp).fold(f32::INFINITY, f32::min);
    let floor = if floor.is_finite() { floor } else { 1.0 };
    let mut first_total = None;
    let mut hp_now;
    loop {
        let defence = Defence::from_layout(&layout, seat, config);
        let base =
            stress::run_outcomes(attacks, &defence, HpModel::Unlimited, Detail::Tiles, options.jobs, &quiet, cancel)?;
        let hp: Vec<f32> = base.iter().map(|o| o.hp_lost).collect();
        hp_now = hp.iter().map(|&h| f64::from(h)).sum::<f64>();
        first_total.get_or_insert(hp_now);
        if steps.len() >= options.max_steps || hp_now <= 0.0 {
            break;
        }
        let near: Vec<TileSet> = base.iter().map(|o| near_path(&o.path, seat, reach2)).collect();
        let candidates = candidates(&layout, seat, config, options, budget, attacks, &hp, &near);
        let step = steps.len();
        let Some((best, gain, changed, runs)) =
            search(attacks, &hp, &candidates, floor, options.jobs, step, progress, cancel)?
        else {
            break;
        };
        let c = &candidates[best];
        steps.push(Step {
            change: c.change,
            label: c.change.describe(&layout, config.legacy),
            cost: c.cost,
            hp_lost_before: hp_now,
            hp_lost_after: hp_now - gain,
            attacks_changed: changed,
            candidates: candidates.len(),
            runs,
        });
        budget -= c.cost;
        layout = c.change.apply(&layout, seat);
    }
    let hp_lost_before = first_total.unwrap_or(hp_now);
    let spent = options.budget - budget;
    Ok(Suggestion { steps, layout, attacks: attacks.len(), hp_lost_before, hp_lost_after: hp_now, spent })
}

/// The largest squared distance at which a structure and a mobile unit act on each other
/// (an attack either way, or a blast): a structure farther than this from every tile an
/// attack's units stood on cannot change that attack.
pub fn interaction_reach2(config: &Config) -> i32 {
    let r = &config.reach;
    r.attack.iter().chain(r.self_destruct.iter()).flat_map(|row| row.iter().copied()).max().unwrap_or(0).max(0)
}

/// The tiles of `seat`'s half within `reach2` of a tile of `path`.
fn near_path(path: &TileSet, seat: Player, reach2: i32) -> TileSet {
    let mut near = TileSet::default();
    let tiles: Vec<Tile> = path.iter().collect();
    for t in all_tiles().filter(|t| seat.owns(*t)) {
        if tiles.iter().any(|p| p.dist2(t) <= reach2) {
            near.insert(t);
        }
    }
    near
}

#[allow(clippy::too_many_arguments)]
fn candidates(
    layout: &Layout,
    seat: Player,
    config: &Config,
    options: &SuggestOptions,
    budget: f32,
    attacks: &[Attack],
    hp: &[f32],
    near: &[TileSet],
) -> Vec<Candidate> {
    let mut changes: Vec<(Change, f32)> = Vec::new();
    for t in all_tiles().filter(|t| seat.owns(*t)) {
        match layout.get(t) {
            None => {
                for &kind in &options.kinds {
                    changes.push((Change::Place { tile: t, kind }, config.unit(kind.unit_type()).cost_sp));
                }
            }
            Some(s) => {
                let up = config.unit(s.kind.unit_type()).upgrade.as_deref();
                if options.upgrades
                    && !s.upgraded
                    && let Some(up) = up
                {
                    changes.push((Change::Upgrade { tile: t }, up.cost_sp));
                }
                if options.removals {
                    changes.push((Change::Remove { tile: t }, 0.0));
                }
            }
        }
    }
    changes
        .into_iter()
        .filter(|(_, cost)| *cost <= budget)
        .filter_map(|(change, cost)| {
            let t = change.tile();
            // Opening a tile may shorten a path anywhere: a removal can change every attack.
            let can_change = |a: usize| matches!(change, Change::Remove { .. }) || near[a].contains(t);
            let (hurt, clean): (Vec<usize>, Vec<usize>) =
                (0..attacks.len()).filter(|&a| can_change(a)).partition(|&a| hp[a] > 0.0);
            if hurt.is_empty() {
                return None;
            }
            let first_bound = hurt.iter().map(|&a| f64::from(hp[a])).sum();
            let defence = Defence::from_layout(&change.apply(layout, seat), seat, config);
            Some(Candidate { change, cost, defence, hurt, clean, first_bound })
        })
        .collect()
}

/// A candidate's score: HP saved per SP. A change cheaper than `floor` (a removal, which is
/// free) counts as costing `floor`, the cheapest placement's price.
fn score(gain: f64, cost: f32, floor: f32) -> f64 {
    gain / f64::from(cost.max(floor).max(f32::MIN_POSITIVE))
}

/// The best candidate: (index, true gain, attacks changed, engine runs), or `None` if none
/// saves any HP.
#[allow(clippy::too_many_arguments)]
fn search(
    attacks: &[Attack],
    hp: &[f32],
    candidates: &[Candidate],
    floor: f32,
    jobs: usize,
    step: usize,
    progress: &(dyn Fn(SuggestProgress) + Sync),
    cancel: &AtomicBool,
) -> Result<Option<(usize, f64, usize, usize)>, RunError> {
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    let first_score = |i: usize| score(candidates[i].first_bound, candidates[i].cost, floor);
    order.sort_by(|&a, &b| first_score(b).total_cmp(&first_score(a)).then(a.cmp(&b)));
    // Best so far: (score, index, gain, changed).
    let mut best: Option<(f64, usize, f64, usize)> = None;
    let mut runs = 0usize;
    let batch = (jobs.max(1) * 4).max(8);
    let mut done = 0usize;
    for chunk in order.chunks(batch) {
        let beaten = |i: usize, best: &Option<(f64, usize, f64, usize)>| {
            best.as_ref().is_some_and(|&(s, ..)| first_score(i) <= s)
        };
        if chunk.first().is_some_and(|&i| beaten(i, &best)) {
            break;
        }
        // The attacks that lost HP: the upper bound of each candidate.
        let jobs_hurt: Vec<(usize, usize)> = chunk
            .iter()
            .filter(|&&i| !beaten(i, &best))
            .flat_map(|&i| candidates[i].hurt.iter().map(move |&a| (i, a)))
            .collect();
        let hurt_hp = run_pairs(attacks, candidates, &jobs_hurt, jobs, cancel)?;
        runs += jobs_hurt.len();
        let mut bound: Vec<(usize, f64, usize)> = Vec::new();
        for &i in chunk {
            let mut saved = 0.0;
            let mut changed = 0;
            for (&(c, a), &h) in jobs_hurt.iter().zip(&hurt_hp) {
                if c == i {
                    saved += f64::from(hp[a]) - f64::from(h);
                    changed += usize::from(h != hp[a]);
                }
            }
            if saved > 0.0 {
                bound.push((i, saved, changed));
            }
        }
        // The rest of each promising candidate's attacks, best bound first.
        bound.sort_by(|x, y| {
            score(y.1, candidates[y.0].cost, floor).total_cmp(&score(x.1, candidates[x.0].cost, floor))
        });
        for (i, saved, changed) in bound {
            let c = &candidates[i];
            if best.as_ref().is_some_and(|&(s, ..)| score(saved, c.cost, floor) <= s) {
                continue;
            }
            let pairs: Vec<(usize, usize)> = c.clean.iter().map(|&a| (i, a)).collect();
            let clean_hp = run_pairs(attacks, candidates, &pairs, jobs, cancel)?;
            runs += pairs.len();
            let worse: f64 = clean_hp.iter().map(|&h| f64::from(h)).sum();
            let gain = saved - worse;
            let changed = changed + clean_hp.iter().filter(|&&h| h > 0.0).count();
            let s = score(gain, c.cost, floor);
            if gain > 0.0 && best.as_ref().is_none_or(|&(b, ..)| s > b) {
                best = Some((s, i, gain, changed));
            }
        }
        done += chunk.len();
        progress(SuggestProgress { step, candidates_done: done, candidates: candidates.len() });
    }
    Ok(best.map(|(_, i, gain, changed)| (i, gain, changed, runs)))
}

/// HP lost in each (candidate, attack) run, in order, on `jobs` threads.
fn run_pairs(
    attacks: &[Attack],
    candidates: &[Candidate],
    pairs: &[(usize, usize)],
    jobs: usize,
    cancel: &AtomicBool,
) -> Result<Vec<f32>, RunError> {
    let slots = parallel_map(pairs.len(), jobs, cancel, &|_, _| {}, |k, scratch| {
        let (c, a) = pairs[k];
        simulate(&attacks[a], &candidates[c].defence, HpModel::Unlimited, Detail::Counts, scratch).hp_lost
    });
    collect_slots(slots, cancel)
}
