//! The attack step of the 2018–2019 engines (docs/fidelity.md): every unit, in ascending
//! id, attacks and then, if it stood still short of its edge, explodes. A unit about to
//! explode can still be targeted until its turn comes, and the blasts of lower ids change
//! the health that later attackers choose by.

use super::config::Config;
use super::frame::{AttackEvent, DamageEvent, DeathEvent};
use super::game::Game;
use super::targeting::target_key;
use super::unit::Fate;

impl Game {
    /// Returns whether any unit may have died (an attack or a blast).
    pub(crate) fn resolve_attacks_and_blasts(&mut self, config: &Config) -> bool {
        let mut killed = false;
        for i in 0..self.units.len() {
            let a = &self.units[i];
            if a.fate == Fate::Breaching {
                continue;
            }
            let form = config.form(a.unit_type as usize, a.upgraded);
            if form.can_attack() {
                killed |= self.legacy_attack(config, i);
            }
            let a = &self.units[i];
            if a.fate == Fate::SelfDestructing {
                let (tile, unit_type, id, owner) = (a.tile, a.unit_type, a.id, a.owner);
                if a.steps as i32 >= config.unit(a.unit_type as usize).sd_steps_required {
                    self.explode(config, i);
                }
                self.units[i].death_emitted = true;
                self.events.death.push(DeathEvent { tile, unit_type, id, owner, removed: false });
                killed = true;
            }
        }
        killed
    }

    fn legacy_attack(&mut self, config: &Config, i: usize) -> bool {
        let a = &self.units[i];
        let form = config.form(a.unit_type as usize, a.upgraded);
        let reach = &config.reach.attack[a.form()];
        let hits_structures = form.damage_tower > 0.0;
        let mut best: Option<(usize, super::targeting::Key)> = None;
        for (j, t) in self.units.iter().enumerate() {
            if t.owner == a.owner || t.is_dead_below(config.death_threshold) || t.fate == Fate::Breaching || (t.is_structure && !hits_structures) {
                continue;
            }
            let d2 = a.tile.dist2(t.tile);
            if d2 > reach[t.form()] {
                continue;
            }
            let key = target_key(a, t, d2, false);
            if best.as_ref().is_none_or(|(_, k)| key.partial_cmp(k).is_some_and(|o| o.is_lt())) {
                best = Some((j, key));
            }
        }
        let Some((target, _)) = best else { return false };
        let (from, attacker_type, attacker_id, owner) = (a.tile, a.unit_type, a.id, a.owner);
        let t = &mut self.units[target];
        let damage = if t.is_structure { form.damage_tower } else { form.damage_walker };
        t.take_damage(damage);
        self.events.attack.push(AttackEvent {
            from,
            to: t.tile,
            damage,
            attacker_type,
            attacker_id,
            target_id: t.id,
            owner,
        });
        self.events.damage.push(DamageEvent {
            tile: t.tile,
            damage,
            unit_type: t.unit_type,
            id: t.id,
            owner: t.owner,
        });
        t.is_dead_below(config.death_threshold)
    }
}
