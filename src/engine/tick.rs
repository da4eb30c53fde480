//! One engine tick of the action phase (MECHANICS.md §4): movement, shields, breaches,
//! self-destructs, attacks, clean-up.

use super::config::{Config, reach2};
use super::frame::{AttackEvent, BreachEvent, DamageEvent, DeathEvent, MoveEvent, SelfDestructEvent, ShieldEvent};
use super::game::Game;
use super::geometry::{Player, Tile};
use super::resources::round1;
use super::unit::{Axis, Fate, Unit};
use std::sync::Arc;

/// Step decisions use a small tolerance for speeds that are not binary fractions (H-M6).
const BUILDUP_THRESHOLD: f32 = 0.9999;

impl Game {
    pub(crate) fn step_tick(&mut self) {
        let config = Arc::clone(&self.config);
        self.move_units(&config);
        self.grant_shields(&config);
        self.resolve_breaches(&config);
        self.resolve_self_destructs(&config);
        self.resolve_attacks(&config);
        self.clean_up(&config);
    }

    /// Step 2: every mobile unit, in ascending id, builds up speed and decides a step.
    fn move_units(&mut self, config: &Config) {
        for i in 0..self.units.len() {
            if self.units[i].is_structure {
                continue;
            }
            let speed = config.unit(self.units[i].unit_type as usize).speed;
            let u = &mut self.units[i];
            u.buildup += speed;
            if u.buildup < BUILDUP_THRESHOLD {
                continue;
            }
            u.buildup -= 1.0;
            let (from, edge, axis) = (u.tile, u.target_edge, u.last_axis);
            match self.pathfinder().next_step(from, edge, axis) {
                Some(to) => {
                    let u = &mut self.units[i];
                    u.last_axis = if to.y == from.y { Axis::Horizontal } else { Axis::Vertical };
                    u.tile = to;
                    u.steps += 1;
                    self.events.moves.push(MoveEvent { from, to, unit_type: u.unit_type, id: u.id, owner: u.owner });
                }
                None => {
                    let u = &mut self.units[i];
                    u.fate = if edge.contains(from) { Fate::Breaching } else { Fate::SelfDestructing };
                }
            }
        }
    }

    /// Step 3: each Support shields every friendly mobile unit in reach that it has not
    /// shielded before.
    fn grant_shields(&mut self, config: &Config) {
        let supports: Vec<(u32, Tile, Player, f32, f32, u8)> = self
            .units
            .iter()
            .filter(|u| u.is_structure)
            .filter_map(|u| {
                let form = config.form(u.unit_type as usize, u.upgraded);
                form.can_shield().then(|| {
                    let amount = form.shield_amount(u.owner.rows_from_back(u.tile));
                    (u.id, u.tile, u.owner, form.shield_range, amount, u.unit_type)
                })
            })
            .collect();
        if supports.is_empty() {
            return;
        }
        for (sid, stile, owner, range, amount, stype) in supports {
            for u in self.units.iter_mut() {
                if u.is_structure || u.owner != owner || u.shielded_by.contains(&sid) {
                    continue;
                }
                let radius = config.unit(u.unit_type as usize).hit_radius;
                if stile.dist2(u.tile) > reach2(range, radius) {
                    continue;
                }
                u.shielded_by.push(sid);
                u.add_shield(amount);
                self.events.shield.push(ShieldEvent {
                    from: stile,
                    to: u.tile,
                    amount,
                    support_type: stype,
                    support_id: sid,
                    target_id: u.id,
                    owner,
                });
            }
        }
    }

    /// Step 4: units standing on their target edge score and leave.
    fn resolve_breaches(&mut self, config: &Config) {
        for i in 0..self.units.len() {
            if self.units[i].fate != Fate::Breaching {
                continue;
            }
            let u = &self.units[i];
            let stats = config.unit(u.unit_type as usize);
            let (owner, tile, unit_type, id) = (u.owner, u.tile, u.unit_type, u.id);
            let victim = &mut self.players[owner.opponent().index()].stats;
            victim.hp -= stats.breach_damage;
            let scorer = &mut self.players[owner.index()].stats;
            scorer.sp = round1(scorer.sp + stats.breach_reward_sp);
            self.events.breach.push(BreachEvent { tile, damage: stats.breach_damage, unit_type, id, owner });
            self.units[i].death_emitted = true;
            self.events.death.push(DeathEvent { tile, unit_type, id, owner, removed: false });
        }
    }

    /// Step 5: units that could not step elsewhere explode; with enough steps they damage
    /// every enemy unit in range. Deaths are recorded as they happen: a victim killed by the
    /// blast once, and the exploding unit always — so a unit killed by an earlier blast
    /// that then explodes itself is reported dead twice, as the official engine does.
    fn resolve_self_destructs(&mut self, config: &Config) {
        for i in 0..self.units.len() {
            if self.units[i].fate != Fate::SelfDestructing {
                continue;
            }
            let u = &self.units[i];
            let stats = config.unit(u.unit_type as usize);
            let (owner, tile, unit_type, id) = (u.owner, u.tile, u.unit_type, u.id);
            if u.steps as i32 >= stats.sd_steps_required {
                self.explode(config, i);
            }
            self.units[i].death_emitted = true;
            self.events.death.push(DeathEvent { tile, unit_type, id, owner, removed: false });
        }
    }

    fn explode(&mut self, config: &Config, i: usize) {
        let u = &self.units[i];
        let stats = config.unit(u.unit_type as usize);
        let (owner, tile, unit_type, id) = (u.owner, u.tile, u.unit_type, u.id);
        let (walker, tower, range) = (stats.sd_damage_walker, stats.sd_damage_tower, stats.sd_range);
        let hits = |me: &Game, structures: bool| -> Vec<usize> {
            me.units
                .iter()
                .enumerate()
                .filter(|(_, v)| v.owner != owner && v.is_structure == structures && v.fate != Fate::Breaching)
                .filter(|(_, v)| {
                    let radius = config.form(v.unit_type as usize, v.upgraded).hit_radius;
                    tile.dist2(v.tile) <= reach2(range, radius)
                })
                .map(|(j, _)| j)
                .collect()
        };
        let groups: Vec<(f32, Vec<usize>)> = if walker == tower {
            let mut all = hits(self, false);
            all.extend(hits(self, true));
            all.sort_unstable();
            vec![(walker, if walker > 0.0 { all } else { Vec::new() })]
        } else {
            vec![
                (walker, if walker > 0.0 { hits(self, false) } else { Vec::new() }),
                (tower, if tower > 0.0 { hits(self, true) } else { Vec::new() }),
            ]
        };
        for (damage, victims) in groups {
            let mut tiles = Vec::with_capacity(victims.len());
            for j in victims {
                let v = &mut self.units[j];
                v.take_damage(damage);
                tiles.push(v.tile);
                self.events.damage.push(DamageEvent { tile: v.tile, damage, unit_type: v.unit_type, id: v.id, owner: v.owner });
                if v.is_dead() && !v.death_emitted {
                    v.death_emitted = true;
                    self.events.death.push(DeathEvent { tile: v.tile, unit_type: v.unit_type, id: v.id, owner: v.owner, removed: false });
                }
            }
            self.events.self_destruct.push(SelfDestructEvent { tile, victims: tiles, damage, unit_type, id, owner });
        }
    }

    /// Step 6: every unit with an attack, in ascending id, hits one target.
    fn resolve_attacks(&mut self, config: &Config) {
        for i in 0..self.units.len() {
            let a = &self.units[i];
            if a.fate == Fate::Breaching {
                continue;
            }
            let form = config.form(a.unit_type as usize, a.upgraded);
            if !form.can_attack() {
                continue;
            }
            let Some(target) = choose_target(config, &self.units, a) else { continue };
            let a = &self.units[i];
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
            self.events.damage.push(DamageEvent { tile: t.tile, damage, unit_type: t.unit_type, id: t.id, owner: t.owner });
        }
    }

    /// Step 7: dead, breached and self-destructed units leave the board.
    fn clean_up(&mut self, config: &Config) {
        if !self.units.iter().any(|u| u.is_dead() || u.fate != Fate::Active) {
            return;
        }
        let mut structures_died = false;
        let mut kept = Vec::with_capacity(self.units.len());
        for u in std::mem::take(&mut self.units) {
            if !u.is_dead() && u.fate == Fate::Active {
                kept.push(u);
                continue;
            }
            if u.is_structure {
                structures_died = true;
                if self.structure_at[u.tile.index()] == u.id {
                    self.structure_at[u.tile.index()] = 0;
                }
            } else if u.fate != Fate::Breaching {
                let ps = &mut self.players[u.owner.index()];
                ps.mp_destroyed += config.unit(u.unit_type as usize).cost_mp;
            }
            if !u.death_emitted {
                self.events.death.push(DeathEvent { tile: u.tile, unit_type: u.unit_type, id: u.id, owner: u.owner, removed: false });
            }
        }
        self.units = kept;
        if structures_died {
            self.board_changed();
        }
    }
}

/// Picks the target of attacker `a` (MECHANICS.md §10), or `None` if nothing is in reach.
fn choose_target(config: &Config, units: &[Unit], a: &Unit) -> Option<usize> {
    let form = config.form(a.unit_type as usize, a.upgraded);
    let mut best: Option<(usize, (bool, i32, f32, i32, i32, u32))> = None;
    for (j, t) in units.iter().enumerate() {
        if t.owner == a.owner || t.is_dead() || t.fate != Fate::Active {
            continue;
        }
        if t.is_structure && form.damage_tower <= 0.0 {
            continue;
        }
        let d2 = a.tile.dist2(t.tile);
        let radius = config.form(t.unit_type as usize, t.upgraded).hit_radius;
        if d2 > reach2(form.attack_range, radius) {
            continue;
        }
        // Smaller key wins: mobile first, nearest, weakest, nearest own back row, nearest a
        // side edge, newest.
        let row = if a.owner == Player::One { t.tile.y } else { -t.tile.y };
        let side = -(2 * t.tile.x - 27).abs();
        let key = (t.is_structure, d2, t.health, row, side, u32::MAX - t.id);
        let better = match &best {
            None => true,
            Some((_, k)) => key.partial_cmp(k).is_some_and(|o| o.is_lt()),
        };
        if better {
            best = Some((j, key));
        }
    }
    best.map(|(j, _)| j)
}
