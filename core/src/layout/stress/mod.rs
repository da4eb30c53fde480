//! The layout lab: a base layout run against every recorded attack of a set of real
//! replays. An attack keeps the attacker's side exactly as recorded (its structures after
//! that turn's builds, its spawns, its resources); the defender's half is replaced by the
//! layout under test, and the defender's own mobile units of that turn are left out. A
//! recorded attack does not adapt to the layout: it was chosen against another defence.
//!
//! Everything here is for the CLI and the editor's panel alike: `run` is cancellable and
//! reports progress, each attack's outcome carries the tiles a heatmap needs, and
//! `Attack::what_if` turns one attack into a Debugger what-if.

pub mod attack;
mod load;
mod outcome;
mod tally;
mod what_if;

pub use attack::{
    Attack, AttackError, AttackFilter, DefenceStructure, RecordedOutcome, TurnSelect, attacks_from_bytes,
    attacks_of_replay, attacks_of_replay_where, attacks_to_bytes,
};
pub use load::{AttackCache, AttackSet, NoCache, SkippedReplay, load_attacks, load_attacks_cached};
pub use outcome::{AttackOutcome, Detail, Heatmap, StressReport, TileSet, Totals, UnitTrack, compare};
pub use what_if::AttackTry;

use super::Layout;
use crate::engine::commands::Command;
use crate::engine::config::Config;
use crate::engine::frame::Recording;
use crate::engine::game::Game;
use crate::engine::geometry::{Edge, Player, Tile};
use crate::engine::unit::Unit;
use crate::parallel::parallel_map;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tally::{DefenceIds, Tally};

/// Safety bound on action frames per attack (a unit of speed 0 would never arrive).
pub(crate) const MAX_FRAMES: u32 = 2000;

/// The layout under test, in both seats: its own, and rotated into the other (an attack by
/// the layout's own seat is met by the layout rotated 180°, as the same algo would build it
/// playing the other side).
#[derive(Debug, Clone, PartialEq)]
pub struct Defence {
    /// The seat the layout was drawn for.
    pub seat: Player,
    /// Per seat (index = player): the structures standing in that seat, in placing order.
    seats: [Vec<DefenceStructure>; 2],
}

/// How HP is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HpModel {
    /// Every breach of the whole action phase counts: the game never ends mid-attack.
    #[default]
    Unlimited,
    /// Both players keep the HP the replay recorded: the phase stops when one reaches 0, as
    /// the recorded game did (the faithfulness check).
    Recorded,
}

impl Defence {
    /// The structures of `seat` in `layout`, fresh or damaged as the layout says, under
    /// `config` (health fractions become absolute). Placing order is tile order.
    pub fn from_layout(layout: &Layout, seat: Player, config: &Config) -> Defence {
        let structures = layout
            .of(seat)
            .map(|(tile, s)| {
                let unit_type = s.kind.unit_type();
                let start = config.form(unit_type, s.upgraded).start_health;
                let health = if s.health >= 1.0 { start } else { start * s.health.clamp(0.0, 1.0) };
                DefenceStructure { tile, unit_type: unit_type as u8, upgraded: s.upgraded, remove: s.remove, health }
            })
            .collect();
        Defence::from_structures(seat, structures)
    }

    /// As `from_layout`, with the structures on the tiles of `order` placed first, in that
    /// order (the rest after them, in tile order). The engine lets structures act in the
    /// order they were built: two Turrets that can hit the same units take turns in it, and
    /// the first one's hits change what the second one picks (lowest health first). A
    /// layout does not record that order; a replay does (`Attack::recorded_build_order`).
    pub fn from_layout_ordered(layout: &Layout, seat: Player, config: &Config, order: &[Tile]) -> Defence {
        let mut d = Defence::from_layout(layout, seat, config);
        let rank = |t: Tile| order.iter().position(|&o| o == t).unwrap_or(order.len());
        // A stable sort: the structures not in `order` keep their tile order.
        d.seats[seat.index()].sort_by_key(|s| rank(s.tile));
        Defence::from_structures(seat, std::mem::take(&mut d.seats[seat.index()]))
    }

    /// Structures already in `seat`'s half, in the order they are to be placed.
    pub(crate) fn from_structures(seat: Player, structures: Vec<DefenceStructure>) -> Defence {
        let rotated = structures.iter().map(|s| DefenceStructure { tile: s.tile.rotated(), ..*s }).collect();
        let mut seats = [Vec::new(), Vec::new()];
        seats[seat.index()] = structures;
        seats[seat.opponent().index()] = rotated;
        Defence { seat, seats }
    }

    /// The structures as they stand in `player`'s seat.
    pub(crate) fn in_seat(&self, player: Player) -> &[DefenceStructure] {
        &self.seats[player.index()]
    }

    /// A tile of `player`'s seat in the layout's own view.
    pub(crate) fn to_layout_view(&self, player: Player, t: Tile) -> Tile {
        if player == self.seat { t } else { t.rotated() }
    }
}

/// Progress of a run: attacks done, of how many.
pub type ProgressFn<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Why a run stopped without a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    #[error("cancelled")]
    Cancelled,
    /// A worker thread panicked (a bug): its attacks have no result.
    #[error("a worker thread failed; the run has no result")]
    WorkerFailed,
}

/// Runs every attack against `defence` on `jobs` threads (`std::thread::scope`), calling
/// `progress` after each attack; setting `cancel` stops the run within one attack per thread.
pub fn run(
    attacks: &[Attack],
    defence: &Defence,
    hp: HpModel,
    jobs: usize,
    progress: ProgressFn,
    cancel: &AtomicBool,
) -> Result<StressReport, RunError> {
    let outcomes = run_outcomes(attacks, defence, hp, Detail::Tiles, jobs, progress, cancel)?;
    Ok(StressReport::new(attacks, outcomes))
}

/// The outcome of each attack, in order; `detail` adds the tiles (heatmap, paths).
pub fn run_outcomes(
    attacks: &[Attack],
    defence: &Defence,
    hp: HpModel,
    detail: Detail,
    jobs: usize,
    progress: ProgressFn,
    cancel: &AtomicBool,
) -> Result<Vec<AttackOutcome>, RunError> {
    let slots = parallel_map(attacks.len(), jobs, cancel, progress, |k, scratch: &mut Option<Game>| {
        simulate(&attacks[k], defence, hp, detail, scratch)
    });
    collect_slots(slots, cancel)
}

/// The results of a parallel run, or why there are none.
pub(crate) fn collect_slots<T>(slots: Vec<Option<T>>, cancel: &AtomicBool) -> Result<Vec<T>, RunError> {
    if cancel.load(Ordering::Relaxed) {
        return Err(RunError::Cancelled);
    }
    slots.into_iter().collect::<Option<Vec<T>>>().ok_or(RunError::WorkerFailed)
}

/// One attack against one defence, for the whole action phase. `scratch` is a game reused
/// between calls on one thread (its buffers are kept).
pub fn simulate(
    attack: &Attack,
    defence: &Defence,
    hp: HpModel,
    detail: Detail,
    scratch: &mut Option<Game>,
) -> AttackOutcome {
    simulate_deploy(attack, &attack.deploy, defence, hp, detail, scratch)
}

/// As `simulate`, with `deploy` in place of the attacker's recorded deploy line (the attack
/// planner's candidates): the same board, the same defence, the engine's own result.
pub(crate) fn simulate_deploy(
    attack: &Attack,
    deploy: &[Command],
    defence: &Defence,
    hp: HpModel,
    detail: Detail,
    scratch: &mut Option<Game>,
) -> AttackOutcome {
    let (game, ids) = start(attack, defence, hp, scratch);
    run_deploy(attack, game, &ids, deploy, defence, detail)
}

/// An attack's start against one defence, built once for many deploys (the planner tries
/// thousands on one board): each run copies it instead of placing every structure again,
/// and the distance fields toward the attacker's target edges are searched once, not once a
/// run. A run from it ends exactly as `simulate_deploy` from scratch does.
pub(crate) struct PreparedStart {
    game: Game,
    ids: DefenceIds,
}

impl std::fmt::Debug for PreparedStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PreparedStart(turn {}, {} units)", self.game.turn, self.game.units.len())
    }
}

impl PreparedStart {
    pub(crate) fn new(attack: &Attack, defence: &Defence, hp: HpModel) -> PreparedStart {
        let mut game = Game::new(Arc::clone(&attack.config));
        let ids = start_in(attack, defence, hp, &mut game);
        let targets = Edge::ALL.into_iter().filter(|e| e.owner() == attack.attacker).map(Edge::opposite);
        game.prepare_for_copies_toward(targets);
        PreparedStart { game, ids }
    }
}

/// As `simulate_deploy`, from a prepared start.
pub(crate) fn simulate_prepared(
    attack: &Attack,
    start: &PreparedStart,
    deploy: &[Command],
    defence: &Defence,
    detail: Detail,
    scratch: &mut Option<Game>,
) -> AttackOutcome {
    let game = match scratch {
        Some(game) => {
            game.assign_from(&start.game);
            game
        }
        None => scratch.insert(start.game.clone()),
    };
    run_deploy(attack, game, &start.ids, deploy, defence, detail)
}

/// `deploy` applied to a started game and its action phase run, tallied.
fn run_deploy(
    attack: &Attack,
    game: &mut Game,
    ids: &DefenceIds,
    deploy: &[Command],
    defence: &Defence,
    detail: Detail,
) -> AttackOutcome {
    let attacker = attack.attacker;
    let rejected = game.apply_line(attacker, deploy).len() as u32;
    game.events.clear();

    let spawned = game.units.iter().filter(|u| !u.is_structure && u.owner == attacker).count() as u32;
    let mut o = AttackOutcome { attackers_spawned: spawned, rejected, ..AttackOutcome::default() };
    let mut tally = Tally::new(attacker, defence, ids, detail);
    if detail != Detail::Counts {
        for u in game.units.iter().filter(|u| !u.is_structure) {
            tally.start(u);
        }
    }
    // The tally reads what each tick did to both sides, and the walks only with detail.
    let kinds = Recording::OUTCOMES.with_moves(detail != Detail::Counts);
    while !game.action_phase_done() && o.action_frames < MAX_FRAMES {
        game.action_tick_recording(kinds, |e| tally.add(&attack.config, e, &mut o));
        o.action_frames += 1;
    }
    tally.finish(&mut o);
    o
}

/// The game an attack starts from against `defence`: the attacker's side as recorded (after
/// its build line), the defence's structures in the defender's seat with the ids after the
/// attacker's, HP as `hp` says; the deploy line not yet applied. The lab's runs, the planner's
/// candidates and the Debugger's what-if of an attack all start here, so they cannot disagree.
pub(crate) fn start_game<'g>(
    attack: &Attack,
    defence: &Defence,
    hp: HpModel,
    scratch: &'g mut Option<Game>,
) -> &'g mut Game {
    start(attack, defence, hp, scratch).0
}

fn start<'g>(
    attack: &Attack,
    defence: &Defence,
    hp: HpModel,
    scratch: &'g mut Option<Game>,
) -> (&'g mut Game, DefenceIds) {
    let game = scratch.get_or_insert_with(|| Game::new(Arc::clone(&attack.config)));
    let ids = start_in(attack, defence, hp, game);
    (game, ids)
}

/// `start` in `game` (emptied first, its buffers kept).
fn start_in(attack: &Attack, defence: &Defence, hp: HpModel, game: &mut Game) -> DefenceIds {
    let defender = attack.defender();
    let config = &attack.config;
    attack.side.load_into(game, config, attack.attacker);
    match hp {
        HpModel::Unlimited => {
            for p in &mut game.players {
                p.stats.hp = f32::MAX;
            }
        }
        HpModel::Recorded => {
            for (p, h) in game.players.iter_mut().zip(attack.recorded_hp) {
                p.stats.hp = h;
            }
        }
    }
    place_defence(game, defence.in_seat(defender), defender, config)
}

/// The defence's structures placed in `defender`'s seat, with the ids after the attacker's
/// structures (its mobile units get the ids after them: the order the official engine gives
/// builds and then deploys). Returns their ids and the SP invested in each.
fn place_defence(game: &mut Game, structures: &[DefenceStructure], defender: Player, config: &Config) -> DefenceIds {
    let first = game.next_id;
    let mut invested = Vec::with_capacity(structures.len());
    for s in structures {
        let id = game.next_id;
        game.next_id += 1;
        let mut u = Unit::new_structure(id, s.unit_type, defender, s.tile, s.health);
        u.upgraded = s.upgraded;
        if s.remove {
            u.marked_turn = Some(game.turn);
        }
        game.insert_unit(u);
        invested.push(config.invested_sp(s.unit_type as usize, s.upgraded));
    }
    DefenceIds { first, end: game.next_id, invested }
}
