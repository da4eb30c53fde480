//! The attack step of the 2018–2019 engines (docs/fidelity.md): every unit attacks in
//! ascending id. Units that stood still short of their edge explode either all at once when
//! the first of them is reached, or each right after its own attack when one of them was
//! attacked before that; until it explodes such a unit can be targeted, and the blasts of
//! lower ids change the health that later attackers choose by.

use super::config::Config;
use super::frame::DeathEvent;
use super::game::Game;
use super::targeting::target_key;
use super::unit::Fate;

impl Game {
    /// Returns whether any unit may have died (an attack or a blast).
    pub(crate) fn resolve_attacks_and_blasts(&mut self, config: &Config) -> bool {
        let mut killed = false;
        // Whether an exploding unit was attacked before the first one's turn decides when
        // they explode: all at once before that turn if not (9 of 9 such frames), each after
        // its own attack if so (16 of 16).
        let mut exploding_hit = false;
        let mut exploded_early = false;
        for i in 0..self.units.len() {
            let a = &self.units[i];
            if a.fate == Fate::Breaching {
                continue;
            }
            if a.fate == Fate::SelfDestructing && !exploding_hit && !exploded_early {
                exploded_early = true;
                for j in i..self.units.len() {
                    if self.units[j].fate == Fate::SelfDestructing {
                        self.blast(config, j);
                    }
                }
                killed = true;
            }
            let form = config.form(self.units[i].unit_type as usize, self.units[i].upgraded);
            if form.can_attack() {
                let (died, hit_exploding) = self.legacy_attack(config, i);
                killed |= died;
                exploding_hit |= hit_exploding;
            }
            let a = &self.units[i];
            if a.fate == Fate::SelfDestructing && !a.death_emitted {
                self.blast(config, i);
                killed = true;
            }
        }
        killed
    }

    /// Unit `i` explodes (if it walked far enough) and dies.
    fn blast(&mut self, config: &Config, i: usize) {
        let a = &self.units[i];
        let (tile, unit_type, id, owner) = (a.tile, a.unit_type, a.id, a.owner);
        if a.steps as i32 >= config.unit(a.unit_type as usize).sd_steps_required {
            self.explode(config, i);
        }
        self.units[i].death_emitted = true;
        self.events.death.push(DeathEvent { tile, unit_type, id, owner, removed: false });
    }

    /// Returns (the target died, the target was about to explode).
    fn legacy_attack(&mut self, config: &Config, i: usize) -> (bool, bool) {
        let a = &self.units[i];
        let damage = config.reach.damage[a.form()];
        let reach = &config.reach.attack[a.form()];
        let hits_structures = damage.tower > 0.0;
        let rules = self.target_rules();
        let mut best: Option<(usize, super::targeting::Key)> = None;
        for (j, t) in self.units.iter().enumerate() {
            let gone = t.is_dead_below(config.death_threshold) || t.death_emitted || t.fate == Fate::Breaching;
            if t.owner == a.owner || gone || (t.is_structure && !hits_structures) {
                continue;
            }
            let d2 = a.tile.dist2(t.tile);
            if d2 > reach[t.form()] {
                continue;
            }
            let key = target_key(a, t, d2, rules);
            if best.as_ref().is_none_or(|(_, k)| key.partial_cmp(k).is_some_and(|o| o.is_lt())) {
                best = Some((j, key));
            }
        }
        let Some((target, _)) = best else { return (false, false) };
        if self.target_log.is_some() {
            let choice = self.target_choice(i, target);
            if let Some(log) = self.target_log.as_mut() {
                log.push(choice);
            }
        }
        super::tick::strike(&mut self.units, &mut self.events, self.recording, damage, i, target);
        let t = &self.units[target];
        (t.is_dead_below(config.death_threshold), t.fate == Fate::SelfDestructing)
    }
}
