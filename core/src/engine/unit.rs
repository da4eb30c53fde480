//! A unit on the board: a structure or a mobile unit, with health kept as base + shield layers.

use super::geometry::{Edge, Player, Tile};
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

/// The axis of a unit's previous step (path tie-breaks, docs/mechanics.md, Pathfinding).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Axis {
    /// Has not stepped yet.
    #[default]
    None,
    Horizontal,
    Vertical,
}

/// What happened to a unit in the current tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Fate {
    #[default]
    Active,
    /// Standing on its target edge at a step decision: scores this tick.
    Breaching,
    /// Standing still elsewhere at a step decision: explodes this tick.
    SelfDestructing,
}

/// Laid out as declared (`repr(C)`): the plain fields first and side by side, copied in that
/// order by `clone_from` so a state's copy moves them in a few wide moves (0.7k instructions
/// a simulated turn less than the compiler's own order), the two lists last.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[repr(C)]
pub struct Unit {
    pub id: u32,
    pub tile: Tile,
    /// Health without shields.
    pub base_health: f32,
    /// Displayed health: `f32(base + f32(Σ shields))`, kept in sync by `refresh_health`.
    pub health: f32,
    pub buildup: f32,
    pub steps: u32,
    /// Structures: the turn a removal mark was placed.
    pub marked_turn: Option<i32>,
    /// Unit type 0–5 (an upgraded structure keeps its base type).
    pub unit_type: u8,
    pub owner: Player,
    pub is_structure: bool,
    pub upgraded: bool,
    /// Mobiles: the edge it walks to.
    pub target_edge: Edge,
    pub last_axis: Axis,
    pub fate: Fate,
    /// A `death` event was already emitted for it this tick.
    pub death_emitted: bool,
    /// Remaining shield layers in grant order (oldest first).
    pub shields: SmallVec<[ShieldLayer; 4]>,
    /// Mobiles: ids of the Supports that already shielded it.
    pub shielded_by: SmallVec<[u32; 4]>,
}

/// Written out rather than derived: most units have no shield and no Support in their
/// lists, and a derived clone ran SmallVec's generic `extend` for each empty list. Copying a
/// game's units is a share of every simulated turn (`Game::assign_from`).
impl Clone for Unit {
    fn clone(&self) -> Unit {
        Unit {
            id: self.id,
            unit_type: self.unit_type,
            owner: self.owner,
            tile: self.tile,
            is_structure: self.is_structure,
            upgraded: self.upgraded,
            base_health: self.base_health,
            shields: copy_small(&self.shields),
            health: self.health,
            marked_turn: self.marked_turn,
            target_edge: self.target_edge,
            buildup: self.buildup,
            steps: self.steps,
            last_axis: self.last_axis,
            shielded_by: copy_small(&self.shielded_by),
            fate: self.fate,
            death_emitted: self.death_emitted,
        }
    }

    /// In place: the derived (default) `clone_from` built a whole copy, dropped the old unit
    /// and moved the copy in, for each unit of `Vec::clone_from` (the state copy at each
    /// simulated turn's start). Inlined into that loop: a call per unit cost 0.8k a turn.
    #[inline]
    fn clone_from(&mut self, source: &Unit) {
        // Shields go to mobile units only: a copy between two structures, most of a state's
        // units, has no list to look at (0.7k instructions a turn).
        let lists_empty = self.is_structure && source.is_structure;
        debug_assert!(!source.is_structure || (source.shields.is_empty() && source.shielded_by.is_empty()));
        self.id = source.id;
        self.tile = source.tile;
        self.base_health = source.base_health;
        self.health = source.health;
        self.buildup = source.buildup;
        self.steps = source.steps;
        self.marked_turn = source.marked_turn;
        self.unit_type = source.unit_type;
        self.owner = source.owner;
        self.is_structure = source.is_structure;
        self.upgraded = source.upgraded;
        self.target_edge = source.target_edge;
        self.last_axis = source.last_axis;
        self.fate = source.fate;
        self.death_emitted = source.death_emitted;
        if !lists_empty {
            assign_small(&mut self.shields, &source.shields);
            assign_small(&mut self.shielded_by, &source.shielded_by);
        }
    }
}

/// Makes `list` a copy of `source` in its own buffer: nothing to do when both are empty.
#[inline]
fn assign_small<A: smallvec::Array>(list: &mut SmallVec<A>, source: &SmallVec<A>)
where
    A::Item: Copy,
{
    if !(list.is_empty() && source.is_empty()) {
        list.clear();
        list.extend_from_slice(source);
    }
}

/// A copy of a list of `Copy` items: nothing to do for an empty one, one block copy otherwise.
#[inline]
fn copy_small<A: smallvec::Array>(list: &SmallVec<A>) -> SmallVec<A>
where
    A::Item: Copy,
{
    if list.is_empty() { SmallVec::new() } else { SmallVec::from_slice(list) }
}

impl Unit {
    pub fn new_structure(id: u32, unit_type: u8, owner: Player, tile: Tile, health: f32) -> Unit {
        Unit {
            id,
            unit_type,
            owner,
            tile,
            is_structure: true,
            upgraded: false,
            base_health: health,
            shields: SmallVec::new(),
            health,
            marked_turn: None,
            target_edge: Edge::TopRight,
            buildup: 0.0,
            steps: 0,
            last_axis: Axis::None,
            shielded_by: SmallVec::new(),
            fate: Fate::Active,
            death_emitted: false,
        }
    }

    pub fn new_mobile(id: u32, unit_type: u8, owner: Player, tile: Tile, health: f32, target_edge: Edge) -> Unit {
        Unit { is_structure: false, target_edge, ..Unit::new_structure(id, unit_type, owner, tile, health) }
    }

    /// Index of this unit's current form in the config's reach tables.
    pub fn form(&self) -> usize {
        super::config::form_index(self.unit_type as usize, self.upgraded)
    }

    /// Recomputes the displayed health from base health and shield layers.
    pub fn refresh_health(&mut self) {
        self.health = if self.shields.is_empty() { self.base_health } else { self.base_health + self.shield_total() };
    }

    /// `Σ shields` in f32, oldest layer first.
    fn shield_total(&self) -> f32 {
        self.shields.iter().fold(0.0f32, |acc, s| acc + s.amount)
    }

    pub fn add_shield(&mut self, amount: f32, decay: f32) {
        self.shields.push(ShieldLayer { amount, decay });
        self.refresh_health();
    }

    /// Shields that decay (`shieldDecay` > 0, legacy 2018 style) lose that much per tick.
    pub(crate) fn decay_shields(&mut self) {
        let mut i = 0;
        while i < self.shields.len() {
            let layer = &mut self.shields[i];
            layer.amount -= layer.decay;
            if layer.amount <= 0.0 {
                self.shields.remove(i);
            } else {
                i += 1;
            }
        }
        self.refresh_health();
    }

    /// Applies a hit. A hit that the remaining shields absorb eats them oldest first (docs/mechanics.md, Assumptions);
    /// a larger hit clears them and takes `f32(damage − Σ shields)` from base health.
    /// (This exact recipe matches all 1.59 million shielded unit-frames of our corpus.)
    pub(crate) fn take_damage(&mut self, damage: f32) {
        if self.shields.is_empty() {
            self.base_health -= damage;
        } else {
            let total = self.shield_total();
            if damage >= total {
                self.base_health -= damage - total;
                self.shields.clear();
            } else {
                let mut left = damage;
                while left > 0.0 && !self.shields.is_empty() {
                    let oldest = &mut self.shields[0];
                    if oldest.amount > left {
                        oldest.amount -= left;
                        left = 0.0;
                    } else {
                        left -= oldest.amount;
                        self.shields.remove(0);
                    }
                }
            }
        }
        self.refresh_health();
    }

    /// A unit is dead when its health is at or below 0.001 (docs/mechanics.md, Assumptions): a live-2022 replay shows
    /// a Demolisher left with 9.5e-7 health removed as dead.
    pub(crate) fn is_dead(&self) -> bool {
        self.health <= super::config::DEATH_THRESHOLD
    }

    /// Dead under a config's rules (`Config::death_threshold`).
    #[inline]
    pub(crate) fn is_dead_below(&self, threshold: f32) -> bool {
        self.health <= threshold
    }
}

/// One shield layer: what is left of it and how much it decays every tick (its Support's
/// `shieldDecay`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct ShieldLayer {
    pub amount: f32,
    pub decay: f32,
}
