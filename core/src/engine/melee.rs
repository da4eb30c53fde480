//! The melee answer of the 2018–2019 engines (docs/replay-format.md, Events; docs/fidelity.md): in every
//! action frame, each unit within reach of a unit that can act on it (an enemy that could
//! attack it, a friendly Support that could shield it) answers that unit with a melee hit.
//! `meleeMultiplier` is 0 in every known config, so the hits deal no damage; they still
//! appear in the frames: one `damage` event per answering pair (three when both are mobile
//! and adjacent) and one `melee` event per answering unit and tile answered.

use super::config::Config;
use super::frame::{DamageEvent, Events, MeleeEvent};
use super::game::Game;
use super::geometry::Tile;
use super::mechanics::LegacyBuild;
use super::unit::{Fate, Unit};

/// Units that breached this tick have left the board.
fn present(u: &&Unit) -> bool {
    u.fate != Fate::Breaching
}

/// `hitter` hits `target` in melee `hits` times, for no damage: that many `damage` events on
/// the target, and one `melee` event per hitting unit and tile hit (`seen` remembers which).
fn record_melee(events: &mut Events, seen: &mut Vec<(u32, Tile)>, hitter: &Unit, target: &Unit, hits: usize) {
    for _ in 0..hits {
        events.damage.push(DamageEvent {
            tile: target.tile,
            damage: 0.0,
            unit_type: target.unit_type,
            id: target.id,
            owner: target.owner,
        });
    }
    if !seen.contains(&(hitter.id, target.tile)) {
        seen.push((hitter.id, target.tile));
        events.melee.push(MeleeEvent {
            from: hitter.tile,
            to: target.tile,
            damage: 0.0,
            unit_type: hitter.unit_type,
            id: hitter.id,
            owner: hitter.owner,
        });
    }
}

impl Game {
    pub(crate) fn resolve_melee(&mut self, config: &Config) {
        match config.legacy_build() {
            LegacyBuild::Season | LegacyBuild::October2018 => self.melee_answers(config),
            LegacyBuild::August2018 => self.melee_between_adjacent_mobiles(),
        }
    }

    /// The August 2018 build: every mobile unit hits each enemy mobile unit next to it
    /// (d2 ≤ 1) once; one `damage` event on the unit hit per pair, one `melee` event per
    /// hitting unit and tile hit (all 13 frames with melee of its one replay).
    fn melee_between_adjacent_mobiles(&mut self) {
        let mut hit: Vec<(u32, Tile)> = Vec::new();
        for a in self.units.iter().filter(present).filter(|u| !u.is_structure) {
            for b in self.units.iter().filter(present) {
                if b.is_structure || b.owner == a.owner || a.tile.dist2(b.tile) > 1 {
                    continue;
                }
                record_melee(&mut self.events, &mut hit, a, b, 1);
            }
        }
    }

    fn melee_answers(&mut self, config: &Config) {
        let mut answered: Vec<(u32, Tile)> = Vec::new();
        for actor in self.units.iter().filter(present) {
            let form = config.form(actor.unit_type as usize, actor.upgraded);
            let (shields, attacks) = (form.shield_range > 0.0, form.attack_range > 0.0);
            if !shields && !attacks {
                continue;
            }
            let shield_reach = &config.reach.shield[actor.form()];
            let attack_reach = &config.reach.attack[actor.form()];
            for x in self.units.iter().filter(present) {
                let d2 = actor.tile.dist2(x.tile);
                let friendly = x.owner == actor.owner;
                let shielded = shields && friendly && !x.is_structure && d2 <= shield_reach[x.form()];
                let attacked =
                    attacks && !friendly && (!actor.is_structure || !x.is_structure) && d2 <= attack_reach[x.form()];
                if !shielded && !attacked {
                    continue;
                }
                // A mobile unit answered by an adjacent enemy mobile unit is hit three times
                // (2018 replays: 2 extra hits per such neighbour, 0 for structures).
                let hits = if !actor.is_structure && !x.is_structure && attacked && d2 <= 1 { 3 } else { 1 };
                record_melee(&mut self.events, &mut answered, x, actor, hits);
            }
        }
    }
}
