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
//!
//! # Against the attack planner
//!
//! With [`Against::Planner`] the attacks are not a fixed set: at each MP level of a schedule
//! (5, 10, … 30 by default) the attacker answers the base with its strongest reply, the best of
//! the planner's frontier searched on that base (`planner::frontier_request`, the lighter
//! preset) and of every deploy found so far (the *known* deploys) run against it. The planner
//! objective is the sum over the levels of the replies' HP damage; a change is judged after
//! the attacker answers it, by searching again on the changed base ([`planner`]).
//!
//! The bound that keeps this affordable: the current reply at level `L` is a known deploy
//! that `L` affords, so on the changed base the strongest reply does at least what that deploy
//! does there. Hence the planner's saving of a change is at most the saving over the *fixed*
//! set of the current replies, one per level. The greedy step therefore screens every
//! candidate exactly as above against the recorded attacks plus those fixed replies (a change
//! off their walks cannot lower any of them, and is never run), which gives an upper bound of
//! each candidate's true saving; only the few best by that bound are searched again, in
//! parallel, best bound first, and the step stops when the best true score found is at least
//! the next candidate's bound (the step is then exact among the candidates) or after
//! [`SuggestOptions::replanned`] re-searches (the step may then miss a better change; it never
//! reports a false figure). A change is only taken if it raises no level's strongest reply.
//!
//! A base with two holes defeats a greedy step: closing one, the attacker takes the other,
//! and no single change saves anything. When no change lowers the objective, the step takes
//! the best by bound that does not raise it (it *prepares*: the current replies are closed),
//! if budget and steps are left for another; preparing steps that no saving followed are
//! dropped at the end, so every step kept leads to a saving.
//!
//! With [`Against::Both`] the objective is the sum of the two, in HP: the recorded attacks'
//! HP lost plus the replies' HP damage summed over the levels, each reply counted as
//! [`SuggestOptions::reply_weight`] recorded attacks (by default the recorded attacks over the
//! levels, so that neither set outweighs the other); both are reported apart.

use crate::engine::config::Config;
use crate::engine::geometry::{Player, Tile, all_tiles};
use crate::layout::stress::{self, Attack, Defence, Detail, HpModel, RunError, TileSet, collect_slots, simulate};
use crate::layout::{Kind, Layout};
use crate::parallel::parallel_map;
use crate::planner::{FrontierPoint, PlanError};
use std::sync::atomic::AtomicBool;

mod planner;
pub use planner::{LevelReport, PlannerReport};
use planner::{Replier, ReplyResearch};

/// Which attacks a suggestion weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Against {
    /// The recorded attacks of the lab's replays, as played.
    #[default]
    Recorded,
    /// The attack planner's strongest reply at each MP level of the schedule.
    Planner,
    /// Both: recorded HP lost plus the replies' HP damage summed over the levels.
    Both,
}

impl Against {
    pub const ALL: [Against; 3] = [Against::Recorded, Against::Planner, Against::Both];

    pub fn label(self) -> &'static str {
        match self {
            // Short: the three fit one line of the lab's panel at 1000×700.
            Against::Recorded => "Recorded",
            Against::Planner => "Planner",
            Against::Both => "Both",
        }
    }

    pub fn recorded(self) -> bool {
        self != Against::Planner
    }

    pub fn planner(self) -> bool {
        self != Against::Recorded
    }
}

/// The planner's default MP schedule: an early turn up to a big saved-up one.
pub const DEFAULT_MP_LEVELS: [f32; 6] = [5.0, 10.0, 15.0, 20.0, 25.0, 30.0];

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
    /// The attacks weighed.
    pub against: Against,
    /// The planner's MP levels, ascending (with `against` planner or both).
    pub mp_levels: Vec<f32>,
    /// Candidates searched again by the planner per step, at most (best bound first).
    pub replanned: usize,
    /// With `against` both: how many recorded attacks one level's strongest reply counts as
    /// (`None`: [`reply_weight`]'s default, the two sets weighing alike).
    pub reply_weight: Option<f64>,
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
            against: Against::Recorded,
            mp_levels: DEFAULT_MP_LEVELS.to_vec(),
            replanned: 8,
            reply_weight: None,
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
    /// The strongest replies' HP damage summed over the MP levels, before and after this
    /// change (0 when the planner is not weighed).
    pub planner_before: f64,
    pub planner_after: f64,
    /// Attacks whose HP lost the change altered (better or worse).
    pub attacks_changed: usize,
    /// Saves nothing by itself (against the planner): it closes the attacker's strongest
    /// replies so that the next step can close the replies left, which no single change could.
    pub prepares: bool,
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
    /// Recorded attacks weighed (0 against the planner alone).
    pub attacks: usize,
    /// HP lost over the recorded attacks before and after every change.
    pub hp_lost_before: f64,
    pub hp_lost_after: f64,
    pub spent: f32,
    pub against: Against,
    /// How many recorded attacks one level's strongest reply counted as (1 unless both).
    pub reply_weight: f64,
    /// The planner's strongest reply at each MP level before and after (planner or both).
    pub planner: Option<Box<PlannerReport>>,
}

/// Where the search is, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SuggestProgress {
    /// The step being searched (0-based).
    pub step: usize,
    /// Candidates weighed so far in this step, of how many there are (in `Replanning`: the
    /// candidates searched again by the planner, of at most how many).
    pub candidates_done: usize,
    pub candidates: usize,
    pub stage: SuggestStage,
}

/// What a step is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SuggestStage {
    /// The planner's strongest replies to the layout as it is.
    Replying,
    /// Every candidate against the fixed attacks (exact, branch and bound).
    #[default]
    Screening,
    /// The best candidates by that bound, answered by the planner again.
    Replanning,
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

/// The attacks a step weighs: the recorded ones, then the planner's current replies as
/// fixed attacks (one per MP level that buys one).
struct AttackList<'a> {
    recorded: &'a [Attack],
    replies: Vec<Attack>,
    /// How many recorded attacks one reply's HP counts as.
    reply_weight: f64,
}

impl AttackList<'_> {
    fn len(&self) -> usize {
        self.recorded.len() + self.replies.len()
    }

    fn get(&self, a: usize) -> &Attack {
        self.recorded.get(a).unwrap_or_else(|| &self.replies[a - self.recorded.len()])
    }

    fn is_recorded(&self, a: usize) -> bool {
        a < self.recorded.len()
    }

    /// What one HP of attack `a` counts for in the objective.
    fn weight(&self, a: usize) -> f64 {
        if self.is_recorded(a) { 1.0 } else { self.reply_weight }
    }
}

/// How many recorded attacks one level's strongest reply counts as: `asked`, or by default
/// the recorded attacks shared out over the levels, so that the two sets weigh alike in all
/// (each reply counted once, the recorded attacks' thousands of HP would decide alone).
pub fn reply_weight(asked: Option<f64>, against: Against, recorded: usize, levels: usize) -> f64 {
    match (asked, against) {
        (Some(w), _) if w.is_finite() && w > 0.0 => w,
        (_, Against::Both) => (recorded as f64 / levels.max(1) as f64).max(1.0),
        _ => 1.0,
    }
}

/// Greedy search for the changes that most reduce HP lost over `attacks` (with
/// `options.against` recorded), over the planner's strongest replies (planner), or over
/// both; see the module's doc.
pub fn suggest(
    attacks: &[Attack],
    layout: &Layout,
    seat: Player,
    config: &Config,
    options: &SuggestOptions,
    progress: &(dyn Fn(SuggestProgress) + Sync),
    cancel: &AtomicBool,
) -> Result<Suggestion, PlanError> {
    let recorded = if options.against.recorded() { attacks } else { &[] };
    let start_layout = layout.clone();
    let mut layout = layout.clone();
    let mut budget = options.budget;
    let mut steps: Vec<Step> = Vec::new();
    let reach2 = interaction_reach2(config);
    let floor = cheapest_price(config, &options.kinds);
    let (mut replier, mut replies) = start_replier(&layout, seat, config, options, progress, cancel)?;
    let initial_replies = replies.clone();
    let weight = reply_weight(options.reply_weight, options.against, recorded.len(), replies.len());
    // The layout, its replies and the recorded HP lost before each step taken.
    let mut before_steps: Vec<(Layout, Vec<FrontierPoint>, f64)> = Vec::new();
    let mut first_recorded = None;
    let mut recorded_now;
    loop {
        let defence = Defence::from_layout(&layout, seat, config);
        let fixed = replier.as_ref().map(|r| r.fixed(&replies)).unwrap_or_default();
        let list = AttackList { recorded, replies: fixed, reply_weight: weight };
        let (hp, near) = outcomes(&list, &defence, reach2, options.jobs, cancel)?;
        recorded_now = hp[..recorded.len()].iter().map(|&h| f64::from(h)).sum::<f64>();
        let planner_now = planner::damage_sum(&replies);
        first_recorded.get_or_insert(recorded_now);
        // The screening counts only the attacks that pass near a change; a change can still
        // turn a far attack's walk (a longer way round elsewhere), so the step taken reports
        // what every attack does against its result.
        if let Some(last) = steps.last_mut() {
            last.hp_lost_after = recorded_now;
        }
        if steps.len() >= options.max_steps || recorded_now + planner_now <= 0.0 {
            break;
        }
        let candidates = candidates(&layout, seat, config, options, budget, &list, &hp, &near);
        let step = steps.len();
        let keep = if replier.is_some() { options.replanned.max(1) } else { 1 };
        let weighed = search(&list, &hp, &candidates, floor, options.jobs, step, keep, progress, cancel)?;
        let research = ReplyResearch { candidates: &candidates, floor, step, replies: &replies, weight };
        let chosen = choose(replier.as_mut(), &research, &weighed, options.jobs, progress, cancel)?;
        let Some((w, after, prepares)) = chosen else { break };
        let c = &candidates[w.index];
        // A preparing change pays only if another change can follow it.
        if prepares && (budget - c.cost < floor || steps.len() + 1 >= options.max_steps) {
            break;
        }
        before_steps.push((layout.clone(), replies.clone(), recorded_now));
        let planner_after = after.as_ref().map_or(0.0, |a| planner::damage_sum(a));
        steps.push(Step {
            change: c.change,
            label: c.change.describe(&layout, config.legacy),
            cost: c.cost,
            hp_lost_before: recorded_now,
            hp_lost_after: recorded_now - w.recorded_gain,
            planner_before: planner_now,
            planner_after,
            attacks_changed: w.changed,
            candidates: candidates.len(),
            runs: w.runs,
            prepares,
        });
        budget -= c.cost;
        layout = c.change.apply(&layout, seat);
        replies = after.unwrap_or(replies);
    }
    // Preparing changes that no saving followed are dropped.
    let dropped = steps.iter().rev().take_while(|s| s.prepares).count();
    if let Some((before, before_replies, hp)) = before_steps.into_iter().nth(steps.len() - dropped)
        && dropped > 0
    {
        budget += steps.drain(steps.len() - dropped..).map(|s| s.cost).sum::<f32>();
        (layout, replies, recorded_now) = (before, before_replies, hp);
    }
    let ends = ((&start_layout, &initial_replies[..]), (&layout, &replies[..]));
    let planner = replier.map(|r| r.report(ends.0, ends.1, seat, options.jobs, cancel)).transpose()?.map(Box::new);
    let (hp_lost_before, spent) = (first_recorded.unwrap_or(recorded_now), options.budget - budget);
    let attacks = recorded.len();
    let against = options.against;
    let hp_lost_after = recorded_now;
    let reply_weight = weight;
    Ok(Suggestion { steps, layout, attacks, hp_lost_before, hp_lost_after, spent, against, reply_weight, planner })
}

/// The cheapest of `kinds` in SP (1 if none): what a free change counts as costing.
fn cheapest_price(config: &Config, kinds: &[Kind]) -> f32 {
    let floor = kinds.iter().map(|k| config.unit(k.unit_type()).cost_sp).fold(f32::INFINITY, f32::min);
    if floor.is_finite() { floor } else { 1.0 }
}

/// Every attack of `list` against `defence`: the HP each lost, and the tiles of the
/// defender's half within `reach2` of its walk (where a change can alter it).
fn outcomes(
    list: &AttackList,
    defence: &Defence,
    reach2: i32,
    jobs: usize,
    cancel: &AtomicBool,
) -> Result<(Vec<f32>, Vec<TileSet>), RunError> {
    let quiet = |_: usize, _: usize| {};
    let mut base = Vec::with_capacity(list.len());
    for set in [list.recorded, &list.replies[..]] {
        base.extend(stress::run_outcomes(set, defence, HpModel::Unlimited, Detail::Tiles, jobs, &quiet, cancel)?);
    }
    let hp = base.iter().map(|o| o.hp_lost).collect();
    Ok((hp, base.iter().map(|o| near_path(&o.path, defence.seat, reach2)).collect()))
}

/// Against the planner: the attacker, after its strongest replies to the layout as it is.
fn start_replier(
    layout: &Layout,
    seat: Player,
    config: &Config,
    options: &SuggestOptions,
    progress: &(dyn Fn(SuggestProgress) + Sync),
    cancel: &AtomicBool,
) -> Result<(Option<Replier>, Vec<FrontierPoint>), PlanError> {
    if !options.against.planner() {
        return Ok((None, Vec::new()));
    }
    let mut replier = Replier::new(layout, seat, config, &options.mp_levels);
    progress(SuggestProgress { step: 0, candidates_done: 0, candidates: 1, stage: SuggestStage::Replying });
    let replies = replier.replies(&Defence::from_layout(layout, seat, config), options.jobs, cancel)?;
    Ok((Some(replier), replies))
}

/// The change a step takes, with the planner's replies to it and whether it only prepares:
/// against the recorded attacks alone the best by true score; with the planner the best of
/// the candidates answered again (`Replier::choose`).
type Chosen = (Weighed, Option<Vec<FrontierPoint>>, bool);

fn choose(
    replier: Option<&mut Replier>,
    research: &ReplyResearch,
    weighed: &[Weighed],
    jobs: usize,
    progress: &(dyn Fn(SuggestProgress) + Sync),
    cancel: &AtomicBool,
) -> Result<Option<Chosen>, PlanError> {
    let Some(r) = replier else { return Ok(weighed.first().map(|w| (w.clone(), None, false))) };
    let choice = r.choose(research, weighed, jobs, progress, cancel)?;
    Ok(choice.map(|(w, after, prepares)| (w, Some(after), prepares)))
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
    attacks: &AttackList,
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
            let first_bound = hurt.iter().map(|&a| f64::from(hp[a]) * attacks.weight(a)).sum();
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

/// A candidate weighed against the fixed attacks: its exact gain over them.
#[derive(Debug, Clone, PartialEq)]
struct Weighed {
    index: usize,
    score: f64,
    /// HP saved over every attack of the list, and over the recorded ones alone.
    gain: f64,
    recorded_gain: f64,
    changed: usize,
    /// Engine runs the step took until this candidate was weighed.
    runs: usize,
}

/// The `keep` best candidates by HP saved per SP over the fixed attacks (exact, branch and
/// bound), best first; only candidates that save some HP.
#[allow(clippy::too_many_arguments)]
fn search(
    attacks: &AttackList,
    hp: &[f32],
    candidates: &[Candidate],
    floor: f32,
    jobs: usize,
    step: usize,
    keep: usize,
    progress: &(dyn Fn(SuggestProgress) + Sync),
    cancel: &AtomicBool,
) -> Result<Vec<Weighed>, RunError> {
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    let first_score = |i: usize| score(candidates[i].first_bound, candidates[i].cost, floor);
    order.sort_by(|&a, &b| first_score(b).total_cmp(&first_score(a)).then(a.cmp(&b)));
    let mut kept: Vec<Weighed> = Vec::new();
    // The score a candidate must beat to be kept.
    let bar = |kept: &Vec<Weighed>| if kept.len() < keep { None } else { kept.last().map(|w| w.score) };
    let mut runs = 0usize;
    let batch = (jobs.max(1) * 4).max(8);
    let mut done = 0usize;
    for chunk in order.chunks(batch) {
        let beaten = |i: usize, kept: &Vec<Weighed>| bar(kept).is_some_and(|s| first_score(i) <= s);
        if chunk.first().is_some_and(|&i| beaten(i, &kept)) {
            break;
        }
        // The attacks that lost HP: the upper bound of each candidate.
        let jobs_hurt: Vec<(usize, usize)> = chunk
            .iter()
            .filter(|&&i| !beaten(i, &kept))
            .flat_map(|&i| candidates[i].hurt.iter().map(move |&a| (i, a)))
            .collect();
        let hurt_hp = run_pairs(attacks, candidates, &jobs_hurt, jobs, cancel)?;
        runs += jobs_hurt.len();
        // (candidate, saved, saved over the recorded attacks, attacks changed)
        let mut bound: Vec<(usize, f64, f64, usize)> = Vec::new();
        for &i in chunk {
            let (mut saved, mut saved_recorded, mut changed) = (0.0, 0.0, 0);
            for (&(c, a), &h) in jobs_hurt.iter().zip(&hurt_hp) {
                if c == i {
                    let d = f64::from(hp[a]) - f64::from(h);
                    saved += d * attacks.weight(a);
                    if attacks.is_recorded(a) {
                        saved_recorded += d;
                    }
                    changed += usize::from(h != hp[a]);
                }
            }
            if saved > 0.0 {
                bound.push((i, saved, saved_recorded, changed));
            }
        }
        // The rest of each promising candidate's attacks, best bound first.
        bound.sort_by(|x, y| {
            score(y.1, candidates[y.0].cost, floor).total_cmp(&score(x.1, candidates[x.0].cost, floor))
        });
        for (i, saved, saved_recorded, changed) in bound {
            let c = &candidates[i];
            if bar(&kept).is_some_and(|s| score(saved, c.cost, floor) <= s) {
                continue;
            }
            let pairs: Vec<(usize, usize)> = c.clean.iter().map(|&a| (i, a)).collect();
            let clean_hp = run_pairs(attacks, candidates, &pairs, jobs, cancel)?;
            runs += pairs.len();
            let worse: f64 = pairs.iter().zip(&clean_hp).map(|(&(_, a), &h)| f64::from(h) * attacks.weight(a)).sum();
            let worse_recorded: f64 = pairs
                .iter()
                .zip(&clean_hp)
                .filter(|((_, a), _)| attacks.is_recorded(*a))
                .map(|(_, &h)| f64::from(h))
                .sum();
            let gain = saved - worse;
            let changed = changed + clean_hp.iter().filter(|&&h| h > 0.0).count();
            let s = score(gain, c.cost, floor);
            if gain > 0.0 && bar(&kept).is_none_or(|b| s > b) {
                // After those it ties: the earlier candidate keeps its place.
                let at = kept.iter().position(|w| s > w.score).unwrap_or(kept.len());
                let recorded_gain = saved_recorded - worse_recorded;
                kept.insert(at, Weighed { index: i, score: s, gain, recorded_gain, changed, runs });
                kept.truncate(keep);
            }
        }
        done += chunk.len();
        progress(SuggestProgress {
            step,
            candidates_done: done,
            candidates: candidates.len(),
            stage: SuggestStage::Screening,
        });
    }
    for w in &mut kept {
        w.runs = runs;
    }
    Ok(kept)
}

/// HP lost in each (candidate, attack) run, in order, on `jobs` threads.
fn run_pairs(
    attacks: &AttackList,
    candidates: &[Candidate],
    pairs: &[(usize, usize)],
    jobs: usize,
    cancel: &AtomicBool,
) -> Result<Vec<f32>, RunError> {
    let slots = parallel_map(pairs.len(), jobs, cancel, &|_, _| {}, |k, scratch| {
        let (c, a) = pairs[k];
        simulate(attacks.get(a), &candidates[c].defence, HpModel::Unlimited, Detail::Counts, scratch).hp_lost
    });
    collect_slots(slots, cancel)
}

/// An MP schedule as a player types it: levels separated by commas, each a number ("8") or a
/// range ("5-30", every 5 MP; "5-30:2.5", every 2.5 MP). Ascending, without repeats.
pub fn parse_mp_schedule(text: &str) -> Result<Vec<f32>, String> {
    let number = |s: &str| -> Result<f32, String> {
        let v: f32 = s.trim().parse().map_err(|_| format!("{s:?} is not a number of MP"))?;
        if v.is_finite() && v > 0.0 { Ok(v) } else { Err(format!("{s:?}: an MP level is a positive number")) }
    };
    let mut levels = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((from, rest)) = part.split_once('-') else {
            levels.push(number(part)?);
            continue;
        };
        let (to, every) = match rest.split_once(':') {
            Some((to, every)) => (number(to)?, number(every)?),
            None => (number(rest)?, 5.0),
        };
        let from = number(from)?;
        if to < from {
            return Err(format!("{part:?}: the range goes down"));
        }
        let count = ((to - from) / every + 1e-3).floor() as usize;
        if count > 200 {
            return Err(format!("{part:?}: more than 200 levels"));
        }
        levels.extend((0..=count).map(|k| from + every * k as f32));
    }
    if levels.is_empty() {
        return Err("no MP level (e.g. 5,10,15 or 5-30)".into());
    }
    levels.sort_by(f32::total_cmp);
    levels.dedup();
    Ok(levels)
}
