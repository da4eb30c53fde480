//! What one simulated attack did, tallied from the engine's events tick by tick.

use super::{AttackOutcome, Defence, Detail, TileSet, UnitTrack};
use crate::engine::config::Config;
use crate::engine::frame::Events;
use crate::engine::geometry::{Player, Tile};
use crate::engine::unit::Unit;
use std::collections::HashMap;

/// The ids the defence's structures got (`first..end`) and the SP invested in each.
pub(super) struct DefenceIds {
    pub first: u32,
    pub end: u32,
    pub invested: Vec<f32>,
}

impl DefenceIds {
    fn holds(&self, id: u32) -> bool {
        (self.first..self.end).contains(&id)
    }
}

/// The running tally of one attack. The tiles (`detail`) are in the layout's own view.
pub(super) struct Tally<'a> {
    attacker: Player,
    defence: &'a Defence,
    ids: &'a DefenceIds,
    /// Tiles kept (`Detail::Tiles` or more).
    detail: bool,
    /// Each unit's walk kept (`Detail::Walks`).
    walks: bool,
    /// The attacker's units whose walk already ended this tick (counted once).
    ended: Vec<u32>,
    damage: HashMap<Tile, f32>,
    path: TileSet,
    tracks: Vec<UnitTrack>,
}

impl<'a> Tally<'a> {
    pub fn new(attacker: Player, defence: &'a Defence, ids: &'a DefenceIds, detail: Detail) -> Tally<'a> {
        Tally {
            attacker,
            defence,
            ids,
            detail: detail != Detail::Counts,
            walks: detail == Detail::Walks,
            ended: Vec::new(),
            damage: HashMap::new(),
            path: TileSet::default(),
            tracks: Vec::new(),
        }
    }

    fn view(&self, t: Tile) -> Tile {
        self.defence.to_layout_view(self.attacker.opponent(), t)
    }

    /// A mobile unit on the board before the first tick (detail only). Called in id order.
    pub fn start(&mut self, u: &Unit) {
        let tile = self.view(u.tile);
        self.path.insert(tile);
        if self.walks {
            self.tracks.push(UnitTrack { id: u.id, unit_type: u.unit_type, tiles: vec![tile] });
        }
    }

    /// One tick's events.
    pub fn add(&mut self, config: &Config, e: &Events, o: &mut AttackOutcome) {
        let attacker = self.attacker;
        self.ended.clear();
        for b in e.breach.iter().filter(|b| b.owner == attacker) {
            o.breaches += 1;
            o.hp_lost += b.damage;
            self.ended.push(b.id);
            if self.detail {
                o.breach_tiles.push((self.view(b.tile), b.damage));
            }
        }
        for sd in e.self_destruct.iter().filter(|s| s.owner == attacker) {
            if !self.ended.contains(&sd.id) {
                self.ended.push(sd.id);
                o.self_destructs += 1;
                if self.detail {
                    o.attacker_deaths.push(self.view(sd.tile));
                }
            }
        }
        for d in &e.death {
            if d.owner == attacker {
                let is_structure = config.units.get(d.unit_type as usize).is_some_and(|u| u.is_structure);
                if !is_structure && !self.ended.contains(&d.id) {
                    self.ended.push(d.id);
                    o.attackers_destroyed += 1;
                    if self.detail {
                        o.attacker_deaths.push(self.view(d.tile));
                    }
                }
            } else if self.ids.holds(d.id) {
                o.structures_lost += 1;
                o.sp_lost += self.ids.invested[(d.id - self.ids.first) as usize];
                if self.detail {
                    o.lost_tiles.push(self.view(d.tile));
                }
            }
        }
        for d in &e.damage {
            if self.ids.holds(d.id) {
                o.structure_damage += d.damage;
                if self.detail {
                    *self.damage.entry(self.view(d.tile)).or_default() += d.damage;
                }
            } else if d.owner == attacker && config.units.get(d.unit_type as usize).is_some_and(|u| !u.is_structure) {
                o.damage_received += d.damage;
            }
        }
        if self.detail {
            for m in e.moves.iter().filter(|m| m.owner == attacker) {
                let to = self.view(m.to);
                self.path.insert(to);
                if let Ok(k) = self.tracks.binary_search_by_key(&m.id, |t| t.id) {
                    self.tracks[k].tiles.push(to);
                }
            }
        }
    }

    /// Moves the detail into the outcome.
    pub fn finish(self, o: &mut AttackOutcome) {
        if self.detail {
            let mut damage: Vec<(Tile, f32)> = self.damage.into_iter().collect();
            damage.sort_by_key(|(t, _)| *t);
            o.damage_taken = damage;
            o.path = self.path;
            o.unit_paths = self.tracks;
        }
    }
}
