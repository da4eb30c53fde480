//! One engine tick of the action phase (docs/mechanics.md, One tick): movement, shields, breaches,
//! self-destructs, attacks, clean-up.

use super::attack_bits::AttackCheck;
use super::config::{Config, Damage};
use super::frame::{
    AttackEvent, BreachEvent, DamageEvent, DeathEvent, Events, MoveEvent, Recording, SelfDestructEvent, ShieldEvent,
};
use super::game::{Game, RoleIndex};
use super::geometry::{BOARD_SIZE, Edge, Player, Tile};
use super::mechanics::LegacyBuild;
use super::resources::round1;
use super::targeting::{Key, TargetRules, target_key};
use super::unit::{Axis, Fate, Unit};
use smallvec::SmallVec;
use std::sync::Arc;

/// Step decisions use a small tolerance for speeds that are not binary fractions (docs/mechanics.md, Assumptions).
const BUILDUP_THRESHOLD: f32 = 0.9999;

impl Game {
    pub(crate) fn step_tick(&mut self) {
        // The game's own second handle on its config, taken out for the tick (no count taken).
        let config = match self.tick_config.take() {
            Some(kept) if Arc::ptr_eq(&kept, &self.config) => kept,
            _ => Arc::clone(&self.config),
        };
        // Brought up to date once: no step before the clean-up adds or removes a unit.
        self.ensure_roles();
        // Mobile units stand still after their step, to the end of the tick: `move_units`
        // records where they stopped.
        let mut mobile_rows = [MobileRows::default(), MobileRows::default()];
        // The first position of a unit that arrived (breaches or self-destructs this tick).
        let first_arrived = self.move_units(&config, &mut mobile_rows);
        if config.reach.any_shield_decay {
            for u in self.units.iter_mut().filter(|u| !u.shields.is_empty()) {
                u.decay_shields();
            }
        }
        self.grant_shields(&config, &mobile_rows);
        if let Some(first) = first_arrived {
            self.resolve_breaches(&config, first);
        }
        if config.legacy && self.has_mobile_units() {
            self.resolve_melee(&config);
        }
        // The first position that may hold a unit to clear away, if only the attack step's
        // kills can have left one.
        let (killed, first_killed) = if config.legacy {
            (self.resolve_attacks_and_blasts(&config), None)
        } else {
            let blasted = first_arrived.is_some_and(|first| self.resolve_self_destructs(&config, first));
            let first_killed = self.resolve_attacks(&config, &mobile_rows);
            // A blast's victims are not tracked: the whole list is scanned after one.
            (first_killed.is_some() || blasted, if blasted { Some(0) } else { first_killed })
        };
        // Only kills and arrivals (or units added since) can leave a unit to clear away:
        // scanning every unit after each tick with a mere hit was a large share of a tick.
        if first_arrived.is_some() || killed || self.clean_up_due {
            // The scan starts at the first unit that arrived or was killed (health falls
            // only in hits and blasts, in these steps); decaying shields, units added and
            // the 2018–2019 attack step (kills not tracked) ask for the whole scan.
            let whole = self.clean_up_due || config.reach.any_shield_decay || config.legacy;
            let from = match (first_arrived, first_killed) {
                _ if whole => 0,
                (Some(a), Some(k)) => a.min(k),
                (a, k) => a.or(k).unwrap_or(0),
            };
            self.clean_up(&config, from);
        }
        self.tick_config = Some(config);
    }

    /// Step 2: every mobile unit, in ascending id, builds up speed and decides a step.
    /// Returns the position of the first unit that arrived (will breach or self-destruct), if
    /// any. `rows` get the tiles where the units stand after their step (filled here rather
    /// than by a second walk over the mobile units: a Turret or Support whose reach box holds
    /// none skips its search).
    fn move_units(&mut self, config: &Config, rows: &mut [MobileRows; 2]) -> Option<usize> {
        let mut first_arrived = None;
        debug_assert!(
            self.roles.valid && self.roles.repair_from.is_none(),
            "step_tick brings the role index up to date"
        );
        if self.roles.mobiles.is_empty() {
            return None;
        }
        let done_on_arrival = config.legacy_build() == LegacyBuild::August2018;
        // Moving units leaves the structures, hence the board, unchanged.
        let pathfinder = Game::pathfinder_in(&mut self.pathfinder, &self.units);
        let record = self.recording.moves;
        // The board does not change while the units move, so a unit of a stack (same tile,
        // target edge and last step's axis as the unit before it) takes the same step.
        let mut last: Option<((Tile, Edge, Axis), Option<Tile>)> = None;
        for &i in &self.roles.mobiles {
            let u = &mut self.units[i];
            u.buildup += config.unit(u.unit_type as usize).speed;
            let mut stepped = false;
            if u.buildup >= BUILDUP_THRESHOLD {
                u.buildup -= 1.0;
                let (from, edge, axis) = (u.tile, u.target_edge, u.last_axis);
                let next = match last {
                    Some((key, next)) if key == (from, edge, axis) => next,
                    _ => {
                        let next = pathfinder.next_step(from, edge, axis);
                        last = Some(((from, edge, axis), next));
                        next
                    }
                };
                match next {
                    Some(to) => {
                        u.last_axis = if to.y == from.y { Axis::Horizontal } else { Axis::Vertical };
                        u.tile = to;
                        u.steps += 1;
                        stepped = true;
                        if record {
                            self.events.moves.push(MoveEvent {
                                from,
                                to,
                                unit_type: u.unit_type,
                                id: u.id,
                                owner: u.owner,
                            });
                        }
                    }
                    None => {
                        end_path(u);
                        first_arrived = first_arrived.or(Some(i));
                        rows[u.owner.index()].add(u.tile);
                        continue;
                    }
                }
            }
            // The August 2018 build ends a unit's path in the frame it has no step left, speed
            // aside: it breaches as it steps onto its edge, and a unit boxed in at its spawn
            // tile goes in frame 0 with a move event onto its own tile.
            if done_on_arrival && pathfinder.next_step(u.tile, u.target_edge, u.last_axis).is_none() {
                let tile = u.tile;
                end_path(u);
                first_arrived = first_arrived.or(Some(i));
                if !stepped && record {
                    let (unit_type, id, owner) = (u.unit_type, u.id, u.owner);
                    self.events.moves.push(MoveEvent { from: tile, to: tile, unit_type, id, owner });
                }
            }
            rows[u.owner.index()].add(u.tile);
        }
        first_arrived
    }

    /// Step 3: each Support, in ascending id, shields every friendly mobile unit in reach
    /// that it has not shielded before.
    fn grant_shields(&mut self, config: &Config, mobile_rows: &[MobileRows; 2]) {
        debug_assert!(
            self.roles.valid && self.roles.repair_from.is_none(),
            "step_tick brings the role index up to date"
        );
        let roles = &self.roles;
        if roles.mobiles.is_empty() {
            return;
        }
        // Most ticks, a player's mobile units are out of reach of all its Supports.
        // Written out: `[0, 1].map(…)` was left a call of its own (2.7k instructions a turn).
        let covered = [
            mobile_rows[0].any_in_cover(&roles.support_cover[0]),
            mobile_rows[1].any_in_cover(&roles.support_cover[1]),
        ];
        if covered == [false, false] {
            return;
        }
        let record = self.recording.shields;
        for (&si, shield_box) in roles.supports.iter().zip(&roles.support_boxes) {
            // Most Supports have no friendly mobile unit near them in most ticks.
            let owner_index = shield_box.owner as usize;
            if !covered[owner_index] || !mobile_rows[owner_index].any_in_rows(shield_box.columns, shield_box.rows) {
                continue;
            }
            let s = &self.units[si];
            let (sid, stile, owner, stype, sform) = (s.id, s.tile, s.owner, s.unit_type, s.form());
            let form = config.form(s.unit_type as usize, s.upgraded);
            let amount = form.shield_amount(owner.rows_from_back(stile));
            let decay = form.shield_decay;
            let reach = &config.reach.shield[sform];
            // Only the owner's mobile units, in ascending id as in the whole list.
            for &mi in &roles.mobiles_of[owner_index] {
                let u = &mut self.units[mi];
                if stile.dist2(u.tile) > reach[u.form()] {
                    continue;
                }
                // A plain walk: the list is short, and `contains` on integers sets up a
                // 16-wide chunked search for it (1k instructions a turn; as a helper function,
                // 0.4k more).
                #[allow(clippy::manual_contains)]
                let shielded = u.shielded_by.iter().any(|&by| by == sid);
                if shielded {
                    continue;
                }
                u.shielded_by.push(sid);
                u.add_shield(amount, decay);
                if !record {
                    continue;
                }
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

    /// Step 4: units standing on their target edge score and leave. Units before `first`
    /// did not arrive this tick.
    fn resolve_breaches(&mut self, config: &Config, first: usize) {
        for i in first..self.units.len() {
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
            self.units[i].death_emitted = true;
            if self.recording.outcomes {
                self.events.breach.push(BreachEvent { tile, damage: stats.breach_damage, unit_type, id, owner });
                self.events.death.push(DeathEvent { tile, unit_type, id, owner, removed: false });
            }
        }
    }

    /// Step 5: units that could not step elsewhere explode; with enough steps they damage
    /// every enemy unit in range. Deaths are recorded as they happen: a victim killed by the
    /// blast once, and the exploding unit always — so a unit killed by an earlier blast
    /// that then explodes itself is reported dead twice, as the official engine does.
    /// Units before `first` did not arrive this tick. Returns whether a unit exploded.
    fn resolve_self_destructs(&mut self, config: &Config, first: usize) -> bool {
        let mut blasted = false;
        for i in first..self.units.len() {
            if self.units[i].fate != Fate::SelfDestructing {
                continue;
            }
            let u = &self.units[i];
            let stats = config.unit(u.unit_type as usize);
            let (owner, tile, unit_type, id) = (u.owner, u.tile, u.unit_type, u.id);
            if u.steps as i32 >= stats.sd_steps_required {
                self.explode(config, i);
                blasted = true;
            }
            self.units[i].death_emitted = true;
            if self.recording.outcomes {
                self.events.death.push(DeathEvent { tile, unit_type, id, owner, removed: false });
            }
        }
        blasted
    }

    pub(crate) fn explode(&mut self, config: &Config, i: usize) {
        let u = &self.units[i];
        let stats = config.unit(u.unit_type as usize);
        let (owner, tile, unit_type, id) = (u.owner, u.tile, u.unit_type, u.id);
        let (walker, tower, form) = (stats.sd_damage_walker, stats.sd_damage_tower, u.form());
        let hits = |me: &Game, structures: bool| -> Vec<usize> {
            me.units
                .iter()
                .enumerate()
                .filter(|(_, v)| v.owner != owner && v.is_structure == structures && v.fate != Fate::Breaching)
                .filter(|(_, v)| tile.dist2(v.tile) <= config.reach.self_destruct[form][v.form()])
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
        let record = self.recording.outcomes;
        for (damage, victims) in groups {
            let mut tiles = Vec::with_capacity(if record { victims.len() } else { 0 });
            for j in victims {
                let v = &mut self.units[j];
                v.take_damage(damage);
                if record {
                    tiles.push(v.tile);
                    self.events.damage.push(DamageEvent {
                        tile: v.tile,
                        damage,
                        unit_type: v.unit_type,
                        id: v.id,
                        owner: v.owner,
                    });
                }
                if v.is_dead_below(config.death_threshold) && !v.death_emitted {
                    v.death_emitted = true;
                    if record {
                        self.events.death.push(DeathEvent {
                            tile: v.tile,
                            unit_type: v.unit_type,
                            id: v.id,
                            owner: v.owner,
                            removed: false,
                        });
                    }
                }
            }
            if record {
                self.events.self_destruct.push(SelfDestructEvent {
                    tile,
                    victims: tiles,
                    damage,
                    unit_type,
                    id,
                    owner,
                });
            }
        }
    }

    /// Step 6: every unit with an attack, in ascending id, hits one target. Units that share
    /// a tile, form and owner (a stack of Scouts) share one list of what is in reach; the
    /// choice itself is made per attacker since earlier hits change health.
    /// Returns the first position of a target an attack killed, if any.
    // One body: the stack skip below kept out as a function (even inlined) cost 0.4k
    // instructions a turn in the candidate loop's registers.
    #[allow(clippy::too_many_lines)]
    fn resolve_attacks(&mut self, config: &Config, mobile_rows: &[MobileRows; 2]) -> Option<usize> {
        debug_assert!(
            self.roles.valid && self.roles.repair_from.is_none(),
            "step_tick brings the role index up to date"
        );
        let rules = self.target_rules();
        let roles = &self.roles;
        if roles.mobiles.is_empty() {
            return None;
        }
        let mut killed: Option<usize> = None;
        let mut group: Option<(Tile, usize, Player)> = None;
        // The choice of the stack member before (`None` before the first member's).
        let mut previous: Option<Option<usize>> = None;
        let mut in_reach = std::mem::take(&mut self.reach_scratch);
        in_reach.clear();
        // Only the attackers whose reach covers a row and a column holding enemy mobile
        // units (and those checked every tick) are visited, in ascending position.
        let lines_in_use = [0, 1].map(|e| (mobile_rows[e].used_rows, mobile_rows[e].columns));
        for w in 0..roles.attack_bits.words() {
            let mut candidates = roles.attack_bits.candidates(w, &lines_in_use);
            while candidates != 0 {
                let k = w * 64 + candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                let (i, check) = (roles.attackers[k], &roles.attack_checks[k]);
                // Most attackers are structures with no target near them: decided from the check
                // alone, without loading the unit.
                let in_box = match *check {
                    AttackCheck::StructureBox { columns, rows, enemy } => {
                        mobile_rows[usize::from(enemy & 1)].any_in_rows(columns, rows)
                    }
                    AttackCheck::Always | AttackCheck::MobileBox { .. } => true,
                    // Has no bits: never a candidate.
                    AttackCheck::Gone => false,
                };
                if !in_box {
                    continue;
                }
                let a = &self.units[i];
                if a.fate == Fate::Breaching {
                    continue;
                }
                let key = (a.tile, a.form(), a.owner);
                // A member of the stack just searched shares its list: its reach was tested
                // for the first member already.
                if group != Some(key) {
                    // Whether an enemy mobile unit stands in the reach box: a mobile attacker
                    // of mobile units with none is skipped; one that hits structures too
                    // (`Always`) skips only the walk over the enemy mobile units.
                    let mut mobiles_near = true;
                    if !matches!(*check, AttackCheck::StructureBox { .. }) {
                        let span = &config.reach.attack_span[key.1];
                        let (columns, rows) = (span[a.tile.x as usize], span[a.tile.y as usize]);
                        mobiles_near = mobile_rows[a.owner.opponent().index()].any_in_rows(columns, rows);
                        if !mobiles_near && matches!(*check, AttackCheck::MobileBox { .. }) {
                            continue;
                        }
                    }
                    group = Some(key);
                    previous = None;
                    in_reach.clear();
                    let hits_structures = config.reach.damage[key.1].tower > 0.0;
                    gather_in_reach(config, &self.units, roles, a, hits_structures, mobiles_near, &mut in_reach);
                }
                if in_reach.is_empty() {
                    // The members of this stack next in the list have nothing to hit either:
                    // their bits are cleared in a short walk, not each visited in full (a
                    // stack of Scouts far from every structure comes up every tick).
                    let mut next = k + 1;
                    while !next.is_multiple_of(64) && candidates & (1 << (next % 64)) != 0 {
                        let member = roles.attackers.get(next).and_then(|&j| self.units.get(j));
                        if !member.is_some_and(|m| m.fate == Fate::Breaching || (m.tile, m.form(), m.owner) == key) {
                            break;
                        }
                        candidates &= !(1 << (next % 64));
                        next += 1;
                    }
                    continue;
                }
                // Between two members of a stack only the first one's target changed, and only
                // its health, which fell: it is still the smallest key (and the first such)
                // unless it died; a stack with nothing to hit still has nothing.
                let choice = match previous {
                    Some(Some(t)) if is_candidate(a, &self.units[t]) => Some(t),
                    Some(None) => None,
                    _ => choose_target(&self.units, &in_reach, a, rules),
                };
                previous = Some(choice);
                let Some(target) = choice else { continue };
                let damage = config.reach.damage[a.form()];
                if self.target_log.is_some() {
                    let choice = self.target_choice(i, target);
                    if let Some(log) = self.target_log.as_mut() {
                        log.push(choice);
                    }
                }
                strike(&mut self.units, &mut self.events, self.recording, damage, i, target);
                if self.units[target].is_dead_below(config.death_threshold) {
                    killed = Some(killed.map_or(target, |k| k.min(target)));
                }
            }
        }
        self.reach_scratch = in_reach;
        killed
    }

    /// How this game breaks target ties: the build its replay came from, or its config's era.
    pub fn target_rules(&self) -> TargetRules {
        TargetRules::of(self.early_2020, self.config.legacy, self.config.legacy_build())
    }

    /// For the debugger: the target attacker `i` chose and the criterion that decided.
    pub(crate) fn target_choice(&self, i: usize, target: usize) -> super::target_log::TargetChoice {
        let explained = super::targeting::explain_target(self, i);
        let (attacker_id, target_id) = (self.units[i].id, self.units[target].id);
        let (explained_id, criterion) = match explained {
            Some((j, c)) => (self.units[j].id, c),
            None => (0, super::target_log::Criterion::Single),
        };
        super::target_log::TargetChoice { attacker_id, target_id, explained_id, criterion }
    }

    /// Step 7: dead, breached and self-destructed units leave the board.
    /// Units before position `from` are known to stay.
    /// Kept out of `step_tick`, as `gather_in_reach` (the other steps cost more kept out).
    #[inline(never)]
    fn clean_up(&mut self, config: &Config, from: usize) {
        self.clean_up_due = false;
        let gone = |u: &Unit| u.is_dead_below(config.death_threshold) || u.fate != Fate::Active;
        let Some(first) = self.units.get(from..).and_then(|tail| tail.iter().position(gone)).map(|k| from + k) else {
            return;
        };
        // On the stack: a `Vec` allocated at each clean-up that opened a tile.
        let mut opened: SmallVec<[(Tile, Player); 8]> = SmallVec::new();
        for u in self.units[first..].iter().filter(|u| gone(u)) {
            if u.is_structure {
                if self.structure_at[u.tile.index()] == u.id {
                    self.structure_at[u.tile.index()] = 0;
                    opened.push((u.tile, u.owner));
                }
            } else if u.fate != Fate::Breaching {
                let ps = &mut self.players[u.owner.index()];
                ps.mp_destroyed += config.unit(u.unit_type as usize).cost_mp;
            }
            if !u.death_emitted && self.recording.outcomes {
                self.events.death.push(DeathEvent {
                    tile: u.tile,
                    unit_type: u.unit_type,
                    id: u.id,
                    owner: u.owner,
                    removed: false,
                });
            }
        }
        // The units before `first` all stay: only the tail is compacted, in order (a full
        // `retain` tested every unit of the board again), each unit kept moved once (swapping
        // it with a gone one moved it three times).
        let mut removed: SmallVec<[usize; 16]> = SmallVec::new();
        let mut k = first;
        let is_gone = |u: &mut Unit| {
            let leaves = gone(u);
            if leaves {
                removed.push(k);
            }
            k += 1;
            leaves
        };
        self.units.extract_if(first.., is_gone).for_each(drop);
        self.roles_after_clean_up(&removed, &opened);
        for &(t, _) in &opened {
            self.structure_removed(t);
        }
        self.ensure_roles();
    }
}

/// Unit `i` hits unit `target` with its form's damage `per_hit` (structure or mobile), recording the
/// attack and the damage events as `record` says.
pub(crate) fn strike(
    units: &mut [Unit],
    events: &mut Events,
    record: Recording,
    per_hit: Damage,
    i: usize,
    target: usize,
) {
    let a = &units[i];
    let (from, attacker_type, attacker_id, owner) = (a.tile, a.unit_type, a.id, a.owner);
    let t = &mut units[target];
    let damage = if t.is_structure { per_hit.tower } else { per_hit.walker };
    t.take_damage(damage);
    if record.attacks {
        events.attack.push(AttackEvent {
            from,
            to: t.tile,
            damage,
            attacker_type,
            attacker_id,
            target_id: t.id,
            owner,
        });
    }
    if record.outcomes {
        events.damage.push(DamageEvent { tile: t.tile, damage, unit_type: t.unit_type, id: t.id, owner: t.owner });
    }
}

#[inline]
fn is_candidate(a: &Unit, t: &Unit) -> bool {
    // The current rules only (the 2018–2019 attack step is legacy_attacks.rs).
    t.owner != a.owner && !t.is_dead() && t.fate == Fate::Active
}

/// The tiles holding one player's mobile units: a bit per tile in per-row masks, plus the
/// rows and columns in use, so a reach box far from every unit is rejected at once.
#[derive(Default)]
struct MobileRows {
    rows: [u32; BOARD_SIZE as usize],
    columns: u32,
    /// Bit y is set if row y holds a unit.
    used_rows: u32,
}

impl MobileRows {
    #[inline]
    fn add(&mut self, t: Tile) {
        self.rows[t.y as usize] |= 1 << t.x;
        self.columns |= 1 << t.x;
        self.used_rows |= 1 << t.y;
    }

    /// True if any unit stands on a tile of `cover` (per row, a mask of columns).
    #[inline]
    fn any_in_cover(&self, cover: &[u32; BOARD_SIZE as usize]) -> bool {
        let mut rows = self.used_rows;
        while rows != 0 {
            let y = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            if self.rows[y] & cover[y] != 0 {
                return true;
            }
        }
        false
    }

    /// True if any unit stands in the columns of `columns` and the rows of `rows` (bit masks).
    #[inline]
    fn any_in_rows(&self, columns: u32, rows: u32) -> bool {
        if self.columns & columns == 0 {
            return false;
        }
        // Only the used rows of the range are looked at.
        let mut rows = self.used_rows & rows;
        while rows != 0 {
            let y = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            if self.rows[y] & columns != 0 {
                return true;
            }
        }
        false
    }
}

/// Every enemy unit within the attack reach of `a`, with its squared distance: the mobile
/// units, then (for attackers that can hit them) the structures in the reach's bounding box.
/// With `mobiles_near` false (no enemy mobile unit in the reach box) the mobile units are skipped.
/// Kept out of `step_tick`: inlined, it cost that body more in register spills than its
/// calls cost (docs/performance.md).
#[inline(never)]
fn gather_in_reach(
    config: &Config,
    units: &[Unit],
    roles: &RoleIndex,
    a: &Unit,
    hits_structures: bool,
    mobiles_near: bool,
    out: &mut Vec<(usize, i32)>,
) {
    let reach = &config.reach.attack[a.form()];
    let mobiles: &[usize] = if mobiles_near { &roles.mobiles_of[a.owner.opponent().index()] } else { &[] };
    for &j in mobiles {
        let t = &units[j];
        let d2 = a.tile.dist2(t.tile);
        if d2 <= reach[t.form()] {
            out.push((j, d2));
        }
    }
    let r = config.reach.attack_box[a.form()];
    let Some(structures) = roles.structures.as_deref().filter(|_| hits_structures && r >= 0) else { return };
    let enemy_rows = &structures.rows[a.owner.opponent().index()];
    let mask = config.reach.attack_span[a.form()][a.tile.x as usize];
    let uniform = config.reach.attack_on_structures[a.form()];
    // The rows of the box as a slice walked by pointer: an inclusive `i32` range compiled to
    // 16 instructions a row, most rows empty (2k instructions a turn more).
    let (low, high) = ((a.tile.y - r).max(0), (a.tile.y + r).min(BOARD_SIZE - 1));
    let Some(rows) = enemy_rows.get(low as usize..=high as usize) else { return };
    for (y, &row) in (low..).zip(rows) {
        let mut bits = row & mask;
        while bits != 0 {
            let tile = Tile::new(bits.trailing_zeros() as i32, y);
            bits &= bits - 1;
            let d2 = a.tile.dist2(tile);
            let j = structures.index[tile.index()] as usize;
            if d2 <= uniform.unwrap_or_else(|| reach[units[j].form()]) {
                out.push((j, d2));
            }
        }
    }
}

/// A unit with no step left breaches if it stands on its target edge, else self-destructs.
fn end_path(u: &mut Unit) {
    u.fate = if u.target_edge.contains(u.tile) { Fate::Breaching } else { Fate::SelfDestructing };
}

/// Picks the target of `a` among the units in reach (docs/mechanics.md, Targeting): mobile units before
/// structures, then the smallest `target_key`. Kept out of `step_tick`, as `gather_in_reach`.
#[inline(never)]
fn choose_target(units: &[Unit], in_reach: &[(usize, i32)], a: &Unit, rules: TargetRules) -> Option<usize> {
    let mut best: Option<(usize, Key)> = None;
    for &(j, d2) in in_reach {
        let t = &units[j];
        if !is_candidate(a, t) {
            continue;
        }
        // The key's first two parts (structure?, distance) often decide alone: skip the
        // full key of a unit already worse on them.
        if best.as_ref().is_some_and(|(_, k)| (t.is_structure, d2) > (k.structure, k.distance2)) {
            continue;
        }
        let key = target_key(a, t, d2, rules);
        if best.as_ref().is_none_or(|(_, k)| key.partial_cmp(k).is_some_and(|o| o.is_lt())) {
            best = Some((j, key));
        }
    }
    best.map(|(j, _)| j)
}
