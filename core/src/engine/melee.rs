//! The melee answer of the 2018–2019 engines (REPLAY.md §4, docs/fidelity.md): in every
//! action frame, each unit within reach of a unit that can act on it (an enemy that could
//! attack it, a friendly Support that could shield it) answers that unit with a melee hit.
//! `meleeMultiplier` is 0 in every known config, so the hits deal no damage; they still
//! appear in the frames: one `damage` event per answering pair (three when both are mobile
//! and adjacent) and one `melee` event per answering unit and tile answered.

use super::config::Config;
use super::frame::{DamageEvent, MeleeEvent};
use super::game::Game;
use super::geometry::Tile;

impl Game {
    pub(crate) fn resolve_melee(&mut self, config: &Config) {
        let mut answered: Vec<(u32, Tile)> = Vec::new();
        // Units that breached this tick have left the board.
        let present = |u: &&super::unit::Unit| u.fate != super::unit::Fate::Breaching;
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
                for _ in 0..hits {
                    self.events.damage.push(DamageEvent {
                        tile: actor.tile,
                        damage: 0.0,
                        unit_type: actor.unit_type,
                        id: actor.id,
                        owner: actor.owner,
                    });
                }
                if !answered.contains(&(x.id, actor.tile)) {
                    answered.push((x.id, actor.tile));
                    self.events.melee.push(MeleeEvent {
                        from: x.tile,
                        to: actor.tile,
                        damage: 0.0,
                        unit_type: x.unit_type,
                        id: x.id,
                        owner: x.owner,
                    });
                }
            }
        }
    }
}
