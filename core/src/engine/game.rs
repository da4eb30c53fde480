//! The game state and the turn loop (docs/mechanics.md, Turn loop): the units and players,
//! the board queries and role index the tick reads, and the frames. Commands are applied in
//! `apply.rs`, an action tick runs in `tick.rs`, the end of a turn and of the game is in
//! `turn_end.rs`.

use super::attack_bits::AttackCheck;
use super::config::Config;
use super::frame::{Events, Frame, Phase, Recording, Stats, TurnInfo, UNIT_LISTS, UnitEntry};
use super::geometry::{BOARD_SIZE, CELLS, Edge, Player, Tile, span_mask};
use super::pathing::{Blockers, Pathfinder};
use super::unit::Unit;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The turn after which the game ends (turns 0–99 are played).
pub(crate) const TURN_LIMIT: i32 = 100;

/// Per-player state beyond the four stats: the totals reported in `endStats`.
#[derive(Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct PlayerState {
    pub stats: Stats,
    pub name: String,
    pub crashed: bool,
    pub timeout_death: bool,
    pub time_damage_taken: i64,
    pub total_computation_time: i64,
    pub mp_spent: f32,
    pub mp_destroyed: f32,
    pub mp_spoiled: f32,
    pub sp_spent: f32,
}

/// Written out for `clone_from`: the derived one cloned the name into a new `String` (an
/// allocation and a free per player at each state copy, `Game::assign_from`).
impl Clone for PlayerState {
    fn clone(&self) -> PlayerState {
        let mut copy = PlayerState { name: String::new(), ..*self };
        copy.name.clone_from(&self.name);
        copy
    }

    fn clone_from(&mut self, source: &PlayerState) {
        let name = std::mem::take(&mut self.name);
        *self = PlayerState { name, ..*source };
        self.name.clone_from(&source.name);
    }
}

/// Why a command was rejected (rejections leave no trace in frames; the runner logs them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejection {
    OffBoard,
    EnemyHalf,
    Occupied,
    NotAnEdge,
    CannotAfford,
    NoOwnStructure,
    AlreadyUpgraded,
    NotUpgradable,
    AlreadyMarked,
    /// The config's `mechanics.destroyOwnUnitsEnabled` is false.
    RemovalsDisabled,
    WrongLine,
    /// The unit type is not one of the ruleset's.
    UnknownUnitType,
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match self {
            Rejection::OffBoard => "tile is off the board",
            Rejection::EnemyHalf => "tile is on the opponent's half",
            Rejection::Occupied => "tile already holds a structure",
            Rejection::NotAnEdge => "mobile units must be deployed on an own edge",
            Rejection::CannotAfford => "not enough resources",
            Rejection::NoOwnStructure => "no own structure on that tile",
            Rejection::AlreadyUpgraded => "structure is already upgraded",
            Rejection::NotUpgradable => "this structure type has no upgrade",
            Rejection::AlreadyMarked => "structure is already marked for removal",
            Rejection::RemovalsDisabled => "removals are disabled by the config (mechanics.destroyOwnUnitsEnabled)",
            Rejection::WrongLine => "not allowed on this line",
            Rejection::UnknownUnitType => "no unit of this type in the ruleset",
        };
        f.write_str(s)
    }
}

/// A full game in progress.
#[derive(Clone)]
pub struct Game {
    pub config: Arc<Config>,
    pub turn: i32,
    /// Index of the last action frame sent in this turn (−1 in the deploy phase).
    pub action_frame: i32,
    /// Number of frames sent so far (the next frame's `totalFrame`).
    pub frames_sent: i64,
    /// Action frames sent in the whole game (`endStats.frames`).
    pub action_frames_sent: i64,
    pub players: [PlayerState; 2],
    /// Every unit on the board, in ascending id.
    pub units: Vec<Unit>,
    pub next_id: u32,
    /// Id of the structure on each tile (0 = none).
    pub(crate) structure_at: Box<[u32; CELLS]>,
    pub(crate) pathfinder: Option<Pathfinder>,
    /// Events accumulated for the next frame.
    pub events: Events,
    pub over: bool,
    /// Reproduce the early-2020 engine build (docs/replay-format.md, Eras): upgrades echoed as `spawn` of
    /// the base type, and structures left on board count their current form's price only.
    pub early_2020: bool,
    /// 2018–2019 rules: each removal mark is a unit of its own, with its own id
    /// (structure id, mark id).
    pub legacy_marks: Vec<(u32, u32)>,
    /// Indices of units by role, rebuilt only when the unit list changes.
    pub(crate) roles: RoleIndex,
    /// A unit was added since the last clean-up (it may already be dead); together with
    /// this tick's hits and arrivals it tells whether the clean-up must look at every unit.
    pub(crate) clean_up_due: bool,
    /// Reused buffer for the attack step's in-reach lists.
    pub(crate) reach_scratch: Vec<(usize, i32)>,
    /// A second handle on `config`, kept from one tick to the next for the steps to read
    /// (checked to be the same config before use). Cloning `config` at every tick counted on
    /// a reference count that every thread simulating a game of this config shares: two
    /// threads ran no faster than one on short ticks.
    pub(crate) tick_config: Option<Arc<Config>>,
    /// When `Some`, every attack of the following ticks is recorded with the targeting
    /// criterion that decided it (debugger; off by default, costs one check per attack).
    pub target_log: Option<Vec<super::target_log::TargetChoice>>,
    /// The events a tick records: all, but for the length of an `action_tick_quiet` (none,
    /// which nobody would read) or an `action_tick_recording` (the kinds asked for).
    pub(crate) recording: Recording,
}

/// Positions in `Game::units` of the units that act in each step of a tick, ascending.
#[derive(Clone, Default, Debug)]
pub(crate) struct RoleIndex {
    pub valid: bool,
    /// Units were inserted or removed from this position of `Game::units` on: the entries
    /// from it are indexed again before the next use (one repair for a turn's commands).
    pub repair_from: Option<usize>,
    pub mobiles: Vec<usize>,
    /// `mobiles` split by owner: what an attacker of the other player may target.
    pub mobiles_of: [Vec<usize>; 2],
    pub supports: Vec<usize>,
    /// Per entry of `supports`: its shield's reach box (a Support never moves), so the
    /// shield step rules out a Support with no friendly mobile unit near it cheaply.
    pub support_boxes: Vec<SupportBox>,
    /// Per player, per row: the columns inside the shield box of one of its Supports (the
    /// union of `support_boxes`), so a tick whose mobile units all stand outside every box
    /// of their owner's Supports skips the shield step's walk over the Supports.
    pub support_cover: [[u32; BOARD_SIZE as usize]; 2],
    pub attackers: Vec<usize>,
    /// Per entry of `attackers`: how the attack step decides cheaply that it has no target.
    pub attack_checks: Vec<AttackCheck>,
    /// Entries of `attackers` whose unit left the board (`AttackCheck::Gone`): when they
    /// outnumber the live ones the index is rebuilt.
    pub gone_attackers: usize,
    /// The attackers by the rows and columns their reach covers (which to look at in a tick).
    pub attack_bits: super::attack_bits::AttackBits,
    /// Where the structures stand; boxed and `None` until the first rebuild, so a `Game`
    /// that never runs a tick (many are built per replay to check deploys) allocates nothing.
    pub structures: Option<Box<StructureIndex>>,
}

impl RoleIndex {
    /// Computes `support_cover` again from `support_boxes` (after Supports left).
    fn cover_supports(&mut self) {
        self.support_cover = Default::default();
        for b in &self.support_boxes {
            b.cover(&mut self.support_cover);
        }
    }

    /// Makes this index a copy of `source`, reusing its buffers.
    fn copy_from(&mut self, source: &RoleIndex) {
        self.valid = source.valid;
        self.repair_from = source.repair_from;
        self.mobiles.clone_from(&source.mobiles);
        for (list, from) in self.mobiles_of.iter_mut().zip(&source.mobiles_of) {
            list.clone_from(from);
        }
        self.supports.clone_from(&source.supports);
        self.support_boxes.clone_from(&source.support_boxes);
        self.support_cover = source.support_cover;
        self.attackers.clone_from(&source.attackers);
        self.attack_checks.clone_from(&source.attack_checks);
        self.gone_attackers = source.gone_attackers;
        self.attack_bits.copy_from(&source.attack_bits);
        match (self.structures.as_deref_mut(), source.structures.as_deref()) {
            (Some(mine), Some(theirs)) => mine.clone_from(theirs),
            _ => self.structures.clone_from(&source.structures),
        }
    }
}

/// The reach box of a Support's shield: columns and rows as bit masks clipped to the board
/// (both 0 if it shields nothing), and its owner's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SupportBox {
    pub columns: u32,
    pub rows: u32,
    pub owner: u8,
}

impl SupportBox {
    /// Adds this box to its owner's rows of `cover`.
    fn cover(&self, cover: &mut [[u32; BOARD_SIZE as usize]; 2]) {
        let mut rows = self.rows;
        while rows != 0 {
            cover[usize::from(self.owner & 1)][rows.trailing_zeros() as usize] |= self.columns;
            rows &= rows - 1;
        }
    }
}

/// The structures of the board by tile, rebuilt with the role index.
#[derive(Clone, Debug)]
pub(crate) struct StructureIndex {
    /// Per player, per row: bit x is set if the player's structure on `structure_at` stands
    /// on (x, row). Lets the attack step visit only the structures inside a reach box.
    pub rows: [[u32; BOARD_SIZE as usize]; 2],
    /// Position in `Game::units` of the structure on each tile; meaningful only where a bit
    /// of `rows` is set (never cleared, so rebuilding costs one write per structure).
    pub index: [u32; CELLS],
}

impl Default for StructureIndex {
    fn default() -> Self {
        StructureIndex { rows: [[0; BOARD_SIZE as usize]; 2], index: [0; CELLS] }
    }
}

/// The attack step's pre-check for attacker `u`.
fn attack_check(config: &Config, u: &Unit) -> AttackCheck {
    let r = config.reach.attack_box[u.form()];
    if config.reach.damage[u.form()].tower > 0.0 {
        AttackCheck::Always
    } else if r < 0 {
        AttackCheck::StructureBox { columns: 0, rows: 0, enemy: u.owner.opponent().index() as u8 }
    } else if !u.is_structure {
        AttackCheck::MobileBox { enemy: u.owner.opponent().index() as u8 }
    } else {
        let (columns, rows) = (span_mask(u.tile.x - r, u.tile.x + r), span_mask(u.tile.y - r, u.tile.y + r));
        AttackCheck::StructureBox { columns, rows, enemy: u.owner.opponent().index() as u8 }
    }
}

/// Whether `u` is the structure its tile's board entry names: a structure already cleared
/// from the board, or replaced on its tile, is not.
#[inline]
pub(super) fn holds_its_tile(structure_at: &[u32; CELLS], u: &Unit) -> bool {
    u.is_structure && structure_at[u.tile.index()] == u.id
}

/// Where position `v` (before a removal) goes after the units at `removed` left: the count
/// of removed positions below it is subtracted. `before` counts them so far, for a caller
/// walking positions in ascending order. Also says whether `v` itself was removed (its
/// result is then the position of the unit that followed it).
#[inline]
fn shifted(v: usize, removed: &[usize], before: &mut usize) -> (usize, bool) {
    while removed.get(*before).is_some_and(|&x| x < v) {
        *before += 1;
    }
    (v - *before, removed.get(*before) == Some(&v))
}

/// Drops the removed positions from an ascending list of positions and shifts the rest.
fn shift_positions(list: &mut Vec<usize>, removed: &[usize]) {
    let start = list.partition_point(|&i| i < removed[0]);
    let (mut kept, mut before) = (start, 0);
    for k in start..list.len() {
        let (position, gone) = shifted(list[k], removed, &mut before);
        if !gone {
            list[kept] = position;
            kept += 1;
        }
    }
    list.truncate(kept);
}

impl Game {
    pub fn new(config: Arc<Config>) -> Game {
        let r = &config.resources;
        let stats = Stats { hp: r.starting_hp, sp: r.starting_sp, mp: r.starting_mp, time_ms: 0 };
        let player = PlayerState { stats, ..PlayerState::default() };
        Game {
            config,
            turn: 0,
            action_frame: -1,
            frames_sent: 0,
            action_frames_sent: 0,
            players: [player.clone(), player],
            units: Vec::new(),
            next_id: 1,
            structure_at: Box::new([0; CELLS]),
            pathfinder: None,
            events: Events::default(),
            over: false,
            early_2020: false,
            legacy_marks: Vec::new(),
            roles: RoleIndex::default(),
            clean_up_due: false,
            reach_scratch: Vec::new(),
            tick_config: None,
            target_log: None,
            recording: Recording::ALL,
        }
    }

    /// Makes this game a copy of `source`, reusing this game's allocations (unit list, event
    /// lists, role index): re-simulating many turns in a row then allocates almost nothing.
    pub fn assign_from(&mut self, source: &Game) {
        let Game {
            config,
            turn,
            action_frame,
            frames_sent,
            action_frames_sent,
            players,
            units,
            next_id,
            structure_at,
            pathfinder,
            events,
            over,
            early_2020,
            legacy_marks,
            roles,
            clean_up_due,
            reach_scratch: _,
            tick_config: _,
            target_log,
            recording: _,
        } = source;
        // The same config (the usual case) is left as it is: no count taken on a reference
        // shared with other threads' games.
        if !Arc::ptr_eq(&self.config, config) {
            self.config.clone_from(config);
        }
        self.turn = *turn;
        self.action_frame = *action_frame;
        self.frames_sent = *frames_sent;
        self.action_frames_sent = *action_frames_sent;
        self.players.clone_from(players);
        self.units.clone_from(units);
        self.next_id = *next_id;
        self.structure_at.clone_from(structure_at);
        self.pathfinder.clone_from(pathfinder);
        if events.is_empty() {
            self.events.clear();
        } else {
            self.events.clone_from(events);
        }
        self.over = *over;
        self.early_2020 = *early_2020;
        self.legacy_marks.clone_from(legacy_marks);
        self.clean_up_due = *clean_up_due;
        // Derived from the unit list: copied if the source's is up to date (a state simulated
        // many times builds it once), else rebuilt on first use, keeping the buffers.
        if roles.valid {
            self.roles.copy_from(roles);
        } else {
            self.roles.valid = false;
        }
        self.target_log.clone_from(target_log);
    }

    pub fn player(&self, p: Player) -> &PlayerState {
        &self.players[p.index()]
    }

    pub fn player_mut(&mut self, p: Player) -> &mut PlayerState {
        &mut self.players[p.index()]
    }

    // ----- board queries -------------------------------------------------------------

    pub fn unit_index(&self, id: u32) -> Option<usize> {
        self.units.binary_search_by_key(&id, |u| u.id).ok()
    }

    pub(crate) fn unit_by_id(&self, id: u32) -> Option<&Unit> {
        self.unit_index(id).map(|i| &self.units[i])
    }

    /// The structure standing on a tile, if any.
    pub fn structure_on(&self, t: Tile) -> Option<&Unit> {
        if !t.in_play() {
            return None;
        }
        match self.structure_at[t.index()] {
            0 => None,
            id => self.unit_by_id(id),
        }
    }

    pub fn blockers(&self) -> Blockers {
        let mut b = Blockers::default();
        for (cell, id) in b.0.iter_mut().zip(self.structure_at.iter()) {
            *cell = *id != 0;
        }
        b
    }

    /// The pathfinder for the current board (rebuilt after structures change).
    pub fn pathfinder(&mut self) -> &mut Pathfinder {
        Self::pathfinder_in(&mut self.pathfinder, &self.units)
    }

    /// `pathfinder()` on the two fields it needs, so callers can hold other fields meanwhile.
    pub(crate) fn pathfinder_in<'a>(slot: &'a mut Option<Pathfinder>, units: &[Unit]) -> &'a mut Pathfinder {
        slot.get_or_insert_with(|| {
            let structures = units.iter().filter(|u| u.is_structure).map(|u| u.tile);
            Pathfinder::from_structure_tiles(structures.filter(|t| t.in_play()))
        })
    }

    /// A structure was built on `t` (`blocked`) or taken away outside the action phase's
    /// ticks: the pathfinder's board is updated in place and its distance fields kept where
    /// they still hold, rather than the pathfinder rebuilt from every unit at next use.
    fn structure_changed(&mut self, t: Tile, blocked: bool) {
        if let Some(pathfinder) = self.pathfinder.as_mut() {
            if blocked {
                pathfinder.block(t);
            } else {
                pathfinder.unblock(t);
            }
        }
    }

    /// The structure on `t` left the board: the cached distance fields are repaired in
    /// place rather than recomputed (structures die in many ticks of a turn).
    pub(crate) fn structure_removed(&mut self, t: Tile) {
        if let Some(pathfinder) = self.pathfinder.as_mut() {
            pathfinder.unblock(t);
        }
    }

    /// Builds what is derived from the unit list (the role index) now: a state copied for
    /// many simulations (benchmarks, what-if searches) hands it to every copy, which keeps
    /// it up to date as units are added instead of each copy building it again.
    pub fn prepare_for_copies(&mut self) {
        self.prepare_for_copies_toward(Edge::ALL);
    }

    /// As `prepare_for_copies`, with the distance fields of `edges` only: the copies' units
    /// walk toward no other edge (an attack planned for one player).
    pub fn prepare_for_copies_toward(&mut self, edges: impl IntoIterator<Item = Edge>) {
        self.ensure_roles();
        // The board's pathfinder too, with its edge fields: each copy then updates it for
        // the structures its commands build (most keep every field) instead of rebuilding it
        // from every unit and searching the fields again.
        self.pathfinder().search_edge_fields(edges.into_iter());
    }

    /// Brings the role index up to date with the unit list (rebuilt if the list changed).
    /// Called by each step of every tick: the check that it is up to date, the usual case,
    /// is inlined (a call of its own cost 1.4k instructions a turn).
    #[inline]
    pub(crate) fn ensure_roles(&mut self) {
        if !self.roles.valid || self.roles.repair_from.is_some() {
            self.bring_roles_up_to_date();
        }
    }

    #[inline(never)]
    fn bring_roles_up_to_date(&mut self) {
        if let Some(first) = self.roles.repair_from.filter(|_| self.roles.valid) {
            self.roles_after_removal(first, &[]);
        }
        if !self.roles.valid {
            let r = &mut self.roles;
            r.mobiles.clear();
            r.mobiles_of.iter_mut().for_each(Vec::clear);
            r.supports.clear();
            r.support_boxes.clear();
            r.support_cover = Default::default();
            r.attackers.clear();
            r.attack_checks.clear();
            r.gone_attackers = 0;
            r.attack_bits.clear();
            r.structures.get_or_insert_with(Box::default).rows = [[0; BOARD_SIZE as usize]; 2];
            self.index_roles_from(0);
            self.roles.valid = true;
            self.roles.repair_from = None;
        }
    }

    /// Updates a valid role index after the clean-up removed units: entries before the first
    /// removed position `first` stay as they are (positions below it did not move), the rest
    /// is indexed again. Dead mobile units, the usual case, sit at the end of the list.
    /// `opened` are the tiles whose structure left the board.
    pub(crate) fn roles_after_removal(&mut self, first: usize, opened: &[(Tile, Player)]) {
        if !self.roles.valid {
            return;
        }
        let r = &mut self.roles;
        // Entries already due for a repair from an earlier position are indexed here too.
        let first = r.repair_from.take().map_or(first, |k| k.min(first));
        let keep = |v: &Vec<usize>| v.partition_point(|&i| i < first);
        r.mobiles.truncate(keep(&r.mobiles));
        for list in &mut r.mobiles_of {
            list.truncate(keep(list));
        }
        let supports = keep(&r.supports);
        r.supports.truncate(supports);
        r.support_boxes.truncate(supports);
        r.cover_supports();
        let attackers = keep(&r.attackers);
        r.attack_bits.truncate(attackers, &r.attack_checks[attackers.min(r.attack_checks.len())..]);
        r.attackers.truncate(attackers);
        r.attack_checks.truncate(attackers);
        r.gone_attackers = r.attack_checks.iter().filter(|c| **c == AttackCheck::Gone).count();
        if let Some(structures) = r.structures.as_deref_mut() {
            for &(t, owner) in opened {
                structures.rows[owner.index()][t.y as usize] &= !(1 << t.x);
            }
        }
        self.index_roles_from(first);
    }

    /// Updates a valid role index after the clean-up removed the units at the positions
    /// `removed` (ascending, positions before the removal): the entries after the first
    /// removed unit are shifted down rather than indexed again (a structure killed early in
    /// the list cost nearly a rebuild). A removed attacker keeps its slot in `attackers`,
    /// with its bits cleared (`AttackCheck::Gone`), so the bit sets of the attackers after it
    /// stay as they are. `opened` are the tiles whose structure left the board.
    pub(crate) fn roles_after_clean_up(&mut self, removed: &[usize], opened: &[(Tile, Player)]) {
        let Some(&first) = removed.first() else { return };
        if !self.roles.valid || self.roles.repair_from.is_some() {
            self.roles_after_removal(first, opened);
            return;
        }
        let r = &mut self.roles;
        shift_positions(&mut r.mobiles, removed);
        for list in &mut r.mobiles_of {
            shift_positions(list, removed);
        }
        let start = r.supports.partition_point(|&i| i < first);
        let (mut kept, mut before) = (start, 0);
        for k in start..r.supports.len() {
            let (position, gone) = shifted(r.supports[k], removed, &mut before);
            if !gone {
                r.supports[kept] = position;
                r.support_boxes[kept] = r.support_boxes[k];
                kept += 1;
            }
        }
        if kept < r.supports.len() {
            r.supports.truncate(kept);
            r.support_boxes.truncate(kept);
            r.cover_supports();
        }
        let start = r.attackers.partition_point(|&i| i < first);
        let mut before = 0;
        for k in start..r.attackers.len() {
            let (position, gone) = shifted(r.attackers[k], removed, &mut before);
            // A slot already gone holds the position of the unit after it, which may be the
            // one removed now: it only follows that position.
            let check = &mut r.attack_checks[k];
            if gone && *check != AttackCheck::Gone {
                r.attack_bits.forget(k, *check);
                *check = AttackCheck::Gone;
                r.gone_attackers += 1;
            }
            r.attackers[k] = position;
        }
        // Slots gone at the end of the list (mobile units, the usual dead) are dropped.
        while r.attack_checks.last() == Some(&AttackCheck::Gone) {
            r.attack_checks.pop();
            r.attackers.pop();
            r.gone_attackers -= 1;
        }
        r.attack_bits.truncate(r.attackers.len(), &[]);
        if r.gone_attackers > 16 && 2 * r.gone_attackers > r.attackers.len() {
            r.valid = false;
            return;
        }
        if let Some(structures) = r.structures.as_deref_mut() {
            for &(t, owner) in opened {
                structures.rows[owner.index()][t.y as usize] &= !(1 << t.x);
            }
            for (i, u) in (first..).zip(self.units.get(first..).unwrap_or_default()) {
                if holds_its_tile(&self.structure_at, u) {
                    structures.index[u.tile.index()] = i as u32;
                }
            }
        }
    }

    /// Appends the roles of `units[start..]` to the role index.
    fn index_roles_from(&mut self, start: usize) {
        let r = &mut self.roles;
        let structures = r.structures.get_or_insert_with(Box::default);
        let reach = &self.config.reach;
        // A slice from `start`: `enumerate().skip(start)` tested the skip at every unit.
        for (i, u) in (start..).zip(self.units.get(start..).unwrap_or_default()) {
            if !u.is_structure {
                r.mobiles.push(i);
                r.mobiles_of[u.owner.index()].push(i);
            } else if self.structure_at[u.tile.index()] == u.id {
                structures.rows[u.owner.index()][u.tile.y as usize] |= 1 << u.tile.x;
                structures.index[u.tile.index()] = i as u32;
            }
            if u.is_structure && reach.can_shield[u.form()] {
                r.supports.push(i);
                let b = reach.shield_box[u.form()];
                let (columns, rows) = if b < 0 {
                    (0, 0)
                } else {
                    (span_mask(u.tile.x - b, u.tile.x + b), span_mask(u.tile.y - b, u.tile.y + b))
                };
                let support_box = SupportBox { columns, rows, owner: u.owner.index() as u8 };
                r.support_boxes.push(support_box);
                support_box.cover(&mut r.support_cover);
            }
            if reach.can_attack[u.form()] {
                let check = attack_check(&self.config, u);
                r.attackers.push(i);
                r.attack_checks.push(check);
                r.attack_bits.push(check);
            }
        }
    }

    /// Inserts a unit keeping ascending id order. The unit must stand on the board, and a
    /// structure on a free tile: what comes from outside is checked before it gets here
    /// (`frame_check`, `apply_command`).
    pub fn insert_unit(&mut self, unit: Unit) {
        debug_assert!(unit.tile.in_play(), "unit {} inserted off the board at {}", unit.id, unit.tile);
        debug_assert!(
            !unit.is_structure || self.structure_at[unit.tile.index()] == 0,
            "structure {} inserted on {}, which holds structure {}",
            unit.id,
            unit.tile,
            self.structure_at[unit.tile.index()]
        );
        self.clean_up_due = true;
        if unit.is_structure {
            self.structure_at[unit.tile.index()] = unit.id;
            self.structure_changed(unit.tile, true);
        }
        // A new unit has the largest id: its place is found without a search.
        let pos = match self.units.last() {
            Some(last) if last.id > unit.id => self.units.partition_point(|u| u.id < unit.id),
            _ => self.units.len(),
        };
        self.units.insert(pos, unit);
        // A new unit has the largest id, so it usually goes last: its roles are appended
        // rather than the whole index rebuilt at the turn's first tick.
        if pos + 1 == self.units.len() && self.roles.valid && self.roles.repair_from.is_none() {
            self.index_roles_from(pos);
        } else {
            self.roles_stale_from(pos);
        }
    }

    /// The units from position `pos` on moved: their entries are indexed again at next use.
    fn roles_stale_from(&mut self, pos: usize) {
        let r = &mut self.roles;
        r.repair_from = Some(r.repair_from.map_or(pos, |k| k.min(pos)));
    }

    pub(super) fn remove_unit_at(&mut self, index: usize) -> Unit {
        let u = &self.units[index];
        let opens = holds_its_tile(&self.structure_at, u);
        let u = self.remove_unit_keeping_board(index);
        if opens {
            self.structure_changed(u.tile, false);
        }
        u
    }

    /// Takes the unit at `index` out of the list, leaving the pathfinder's board as it is: a
    /// structure replaced at once on its tile (an upgrade) changes no path, and opening then
    /// closing the tile repaired every edge field for nothing.
    pub(super) fn remove_unit_keeping_board(&mut self, index: usize) -> Unit {
        let u = self.units.remove(index);
        if holds_its_tile(&self.structure_at, &u) {
            self.structure_at[u.tile.index()] = 0;
            if let Some(structures) = self.roles.structures.as_deref_mut() {
                structures.rows[u.owner.index()][u.tile.y as usize] &= !(1 << u.tile.x);
            }
        }
        if self.roles.valid && self.roles.repair_from.is_none() {
            // Shifted now (an upgrade removes a unit from the middle of the list).
            self.roles_after_clean_up(&[index], &[]);
        } else {
            self.roles_stale_from(index);
        }
        u
    }

    pub(crate) fn has_mobile_units(&self) -> bool {
        if self.roles.valid && self.roles.repair_from.is_none() {
            return !self.roles.mobiles.is_empty();
        }
        self.units.iter().any(|u| !u.is_structure)
    }

    // ----- frames --------------------------------------------------------------------

    pub(super) fn unit_lists(&self, p: Player) -> Vec<Vec<UnitEntry>> {
        let legacy = self.config.legacy;
        // The 2018–2019 frames have no upgrade list.
        let mut lists: Vec<Vec<UnitEntry>> = vec![Vec::new(); if legacy { UNIT_LISTS - 1 } else { UNIT_LISTS }];
        for u in self.units.iter().filter(|u| u.owner == p) {
            lists[u.unit_type as usize].push(UnitEntry { tile: u.tile, health: u.health, id: u.id });
            if legacy && u.marked_turn.is_some() {
                let mark_id = self.legacy_marks.iter().find(|(s, _)| *s == u.id).map_or(u.id, |&(_, m)| m);
                lists[super::config::REMOVE].push(UnitEntry { tile: u.tile, health: 0.0, id: mark_id });
            } else if let Some(marked) = u.marked_turn {
                let form = self.config.form(u.unit_type as usize, u.upgraded);
                let left = form.turns_to_remove - (self.turn - marked);
                lists[super::config::REMOVE].push(UnitEntry { tile: u.tile, health: left as f32, id: u.id });
            }
            if u.upgraded {
                lists[super::config::UPGRADE].push(UnitEntry { tile: u.tile, health: 0.0, id: u.id });
            }
        }
        if legacy {
            lists[super::config::REMOVE].sort_by_key(|e| e.id);
        }
        lists
    }

    /// A frame of the current state carrying the accumulated events, which are consumed.
    fn emit(&mut self, phase: Phase) -> Frame {
        let turn_info =
            TurnInfo { phase, turn: self.turn, action_frame: self.action_frame, total_frame: Some(self.frames_sent) };
        self.frames_sent += 1;
        let events = std::mem::take(&mut self.events);
        Frame {
            turn_info,
            stats: [self.players[0].stats, self.players[1].stats],
            units: [self.unit_lists(Player::One), self.unit_lists(Player::Two)],
            events,
            end_stats: None,
        }
    }

    /// The turn frame (deploy phase) of the current turn.
    pub fn turn_frame(&mut self) -> Frame {
        self.action_frame = -1;
        self.emit(Phase::Deploy)
    }

    /// Runs one action tick and returns its frame; ends the game if a player's HP ≤ 0.
    pub fn action_frame(&mut self) -> Frame {
        self.step_tick();
        self.action_frame += 1;
        self.action_frames_sent += 1;
        let frame = self.emit(Phase::Action);
        if self.players.iter().any(|p| p.stats.hp <= 0.0) {
            self.over = true;
        }
        frame
    }

    /// Runs one action tick without building a frame (benchmarks, what-if search).
    pub fn action_tick_quiet(&mut self) {
        self.action_tick_recording(Recording::NONE, |_| {});
    }

    /// Runs one action tick without building a frame, showing its events to `inspect` before
    /// they are dropped: a what-if search tallies outcomes at a fraction of a frame's cost.
    pub fn action_tick_inspect(&mut self, inspect: impl FnOnce(&Events)) {
        self.action_tick_recording(Recording::ALL, inspect);
    }

    /// As `action_tick_inspect`, recording only the kinds of event in `kinds`.
    pub fn action_tick_recording(&mut self, kinds: Recording, inspect: impl FnOnce(&Events)) {
        self.recording = kinds;
        self.step_tick();
        self.recording = Recording::ALL;
        self.action_frame += 1;
        self.action_frames_sent += 1;
        self.frames_sent += 1;
        inspect(&self.events);
        self.events.clear();
        if self.players.iter().any(|p| p.stats.hp <= 0.0) {
            self.over = true;
        }
    }

    /// True when the action phase is over (no mobile unit left, or the game ended).
    pub fn action_phase_done(&self) -> bool {
        self.over || (self.action_frame >= 0 && !self.has_mobile_units())
    }
}
