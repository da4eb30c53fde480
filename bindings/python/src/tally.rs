//! What a simulated action phase tallies from each tick's events: per player, and each
//! mobile unit's walk.

use std::collections::HashMap;
use terminal_core::engine::config::UNIT_TYPES;
use terminal_core::engine::frame::Events;
use terminal_core::engine::{Config, Game};

/// What the tally needs of a unit type, copied out of the config when a run starts: the
/// run's threads then read no shared config (see `Game::tick_config` in the core).
#[derive(Debug, Clone, Copy, Default)]
pub struct TypeFacts {
    exists: bool,
    is_structure: bool,
    cost_mp: f32,
    /// The SP a structure of this type cost, as built and upgraded.
    invested_sp: [f32; 2],
}

/// Each unit type's facts, by type number.
pub type Facts = [TypeFacts; UNIT_TYPES];

pub fn facts_of(config: &Config) -> Facts {
    let mut facts = Facts::default();
    for (t, (fact, unit)) in facts.iter_mut().zip(&config.units).enumerate() {
        *fact = TypeFacts {
            exists: true,
            is_structure: unit.is_structure,
            cost_mp: unit.cost_mp,
            invested_sp: [config.invested_sp(t, false), config.invested_sp(t, true)],
        };
    }
    facts
}

/// The facts of unit type `t`, if the config has that type.
fn fact(facts: &Facts, t: u8) -> Option<&TypeFacts> {
    facts.get(t as usize).filter(|f| f.exists)
}

/// The running totals of one player over a run.
#[derive(Debug, Clone, Default)]
pub struct PlayerTally {
    pub(crate) breaches: u32,
    pub(crate) breach_damage: f32,
    pub(crate) breach_tiles: HashMap<(i32, i32), u32>,
    pub(crate) structure_damage: f32,
    pub(crate) unit_damage: f32,
    pub(crate) structures_lost: u32,
    pub(crate) sp_lost: f32,
    pub(crate) units_lost: u32,
    pub(crate) mp_lost: f32,
}

/// Totals of both players, filled tick by tick.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub players: [PlayerTally; 2],
    /// The ids of the structures upgraded when the run began (ascending): a structure's
    /// death event does not say whether it was upgraded. Only these are listed, since most
    /// structures are not.
    upgraded: Vec<u32>,
    facts: Facts,
}

impl Tally {
    pub fn new(game: &Game) -> Tally {
        let upgraded = game.units.iter().filter(|u| u.is_structure && u.upgraded).map(|u| u.id).collect();
        Tally { players: Default::default(), upgraded, facts: facts_of(&game.config) }
    }

    pub fn facts(&self) -> &Facts {
        &self.facts
    }

    pub fn add(&mut self, events: &Events) {
        let facts = &self.facts;
        for b in &events.breach {
            let p = &mut self.players[b.owner.index()];
            p.breaches += 1;
            p.breach_damage += b.damage;
            *p.breach_tiles.entry((b.tile.x, b.tile.y)).or_default() += 1;
        }
        for d in &events.damage {
            let dealer = &mut self.players[d.owner.opponent().index()];
            if fact(facts, d.unit_type).is_some_and(|f| f.is_structure) {
                dealer.structure_damage += d.damage;
            } else {
                dealer.unit_damage += d.damage;
            }
        }
        for d in events.death.iter().filter(|d| !d.removed) {
            if events.breach.iter().any(|b| b.id == d.id) {
                continue;
            }
            let loser = &mut self.players[d.owner.index()];
            let Some(dead) = fact(facts, d.unit_type) else { continue };
            if dead.is_structure {
                let upgraded = self.upgraded.binary_search(&d.id).is_ok();
                loser.structures_lost += 1;
                loser.sp_lost += dead.invested_sp[usize::from(upgraded)];
            } else {
                loser.units_lost += 1;
                loser.mp_lost += dead.cost_mp;
            }
        }
    }
}

/// Each player's HP, SP and MP when a run stopped.
pub type EndStats = [(f32, f32, f32); 2];

/// Each mobile unit's walk, from spawn and move events.
#[derive(Debug, Default)]
pub struct PathLog(pub HashMap<u32, Vec<(i32, i32)>>);

impl PathLog {
    pub fn add(&mut self, facts: &Facts, events: &Events) {
        for s in &events.spawn {
            if fact(facts, s.unit_type).is_some_and(|f| !f.is_structure) {
                self.0.insert(s.id, vec![(s.tile.x, s.tile.y)]);
            }
        }
        for m in &events.moves {
            let walk = self.0.entry(m.id).or_insert_with(|| vec![(m.from.x, m.from.y)]);
            walk.push((m.to.x, m.to.y));
        }
    }
}
