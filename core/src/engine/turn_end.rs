//! The end of a turn and of the game (docs/mechanics.md, Turn loop): the time charged and
//! the crashes, removals, the resources restored, the winner and the end frame.

use super::frame::{DeathEvent, EndStats, Events, Frame, Phase, PlayerEndStats, TurnInfo};
use super::game::{Game, TURN_LIMIT};
use super::geometry::Player;
use super::resources::round1;
use std::sync::Arc;

impl Game {
    /// Records how long a player took to answer this turn and charges the soft-limit
    /// penalty (1 HP per whole second over). Returns the HP lost.
    pub fn charge_time(&mut self, p: Player, time_ms: i64, penalise: bool) -> i64 {
        let soft = self.config.timing.soft_ms as i64;
        let starting_hp = self.config.resources.starting_hp;
        let wait_forever = self.config.timing.wait_forever;
        let ps = &mut self.players[p.index()];
        ps.stats.time_ms = time_ms;
        ps.total_computation_time += time_ms;
        if !penalise || wait_forever || time_ms <= soft {
            return 0;
        }
        let penalty = (time_ms - soft) / 1000;
        if penalty > 0 {
            ps.stats.hp -= penalty as f32;
            ps.time_damage_taken += penalty;
            if penalty as f32 >= starting_hp {
                ps.timeout_death = true;
                ps.crashed = true;
            }
        }
        penalty
    }

    /// A player whose process died: loses `startingHP + 1` HP and is flagged crashed. The
    /// August 2018 build only flags it: its four runs where both algos crashed at turn 0
    /// were played out to turn 100 with both players at 30 HP. The October 2018 build also
    /// gives the opponent the breach reward once: its two such runs end at −1 HP and 26 SP
    /// (25 + 1) for both, where the 2019 builds leave SP alone (docs/fidelity.md).
    pub fn crash(&mut self, p: Player) {
        use super::mechanics::LegacyBuild;
        let build = self.config.legacy_build();
        let damage = self.config.resources.starting_hp + 1.0;
        let ps = &mut self.players[p.index()];
        if build != LegacyBuild::August2018 {
            ps.stats.hp -= damage;
        }
        ps.crashed = true;
        if build == LegacyBuild::October2018 {
            let reward = self.config.units.iter().find(|u| !u.is_structure).map_or(0.0, |u| u.breach_reward_sp);
            let scorer = &mut self.players[p.opponent().index()].stats;
            scorer.sp = super::resources::round1(scorer.sp + reward);
        }
    }

    // ----- end of turn ---------------------------------------------------------------

    /// Restore (decay, income, cap, SP income), then either ends the game at the turn
    /// limit or starts the next turn with its due removals (docs/mechanics.md, Turn loop, steps 6 and 1).
    pub fn end_turn(&mut self) {
        if self.over {
            return;
        }
        let next = self.turn + 1;
        // Read in place, not through a clone of the `Arc`: see `Game::tick_config`.
        let config = &*self.config;
        let r = &config.resources;
        for ps in self.players.iter_mut() {
            let s = &mut ps.stats;
            let before = s.mp;
            ps.mp_spoiled = round1(ps.mp_spoiled + (before - round1(s.mp * (1.0 - r.mp_decay_per_round))));
            s.mp = config.mp_at_start_of(next, s.mp);
            s.sp = round1(s.sp + r.sp_per_round);
        }
        self.turn = next;
        self.action_frame = -1;
        if next >= TURN_LIMIT {
            self.turn = TURN_LIMIT;
            self.over = true;
            return;
        }
        self.run_removals();
        self.pay_generators();
    }

    fn run_removals(&mut self) {
        let turn = self.turn;
        let config = &*self.config;
        let due: Vec<u32> = self
            .units
            .iter()
            .filter(|u| {
                u.marked_turn.is_some_and(|m| turn - m >= config.form(u.unit_type as usize, u.upgraded).turns_to_remove)
            })
            .map(|u| u.id)
            .collect();
        if due.is_empty() {
            return;
        }
        // Held across the removals, which change the game.
        let config = Arc::clone(&self.config);
        for id in due {
            let Some(index) = self.unit_index(id) else { continue };
            let u = self.remove_unit_at(index);
            self.legacy_marks.retain(|&(s, _)| s != u.id);
            let form = config.form(u.unit_type as usize, u.upgraded);
            let invested = config.invested_sp(u.unit_type as usize, u.upgraded);
            let refund = form.refund_percentage * invested * u.health / form.start_health;
            let s = &mut self.players[u.owner.index()].stats;
            s.sp = round1(s.sp + refund);
            self.events.death.push(DeathEvent {
                tile: u.tile,
                unit_type: u.unit_type,
                id: u.id,
                owner: u.owner,
                removed: true,
            });
        }
    }

    /// Resource generators pay out at restore, after income (docs/config.md, Turn-start resources).
    fn pay_generators(&mut self) {
        if !self.config.reach.any_generator {
            return;
        }
        let mut gained = [(0.0f32, 0.0f32); 2];
        for u in self.units.iter().filter(|u| u.is_structure) {
            let form = self.config.form(u.unit_type as usize, u.upgraded);
            gained[u.owner.index()].0 += form.generates_mp;
            gained[u.owner.index()].1 += form.generates_sp;
        }
        for (ps, (mp, sp)) in self.players.iter_mut().zip(gained) {
            if mp != 0.0 {
                ps.stats.mp = round1(ps.stats.mp + mp);
            }
            if sp != 0.0 {
                ps.stats.sp = round1(ps.stats.sp + sp);
            }
        }
    }

    // ----- end of game ---------------------------------------------------------------

    /// The winner: higher HP; equal HP (or both ≤ 0) → lower total computation time;
    /// equal times → player 1 (both observed cases went to player 1: docs/protocol.md, Winner).
    pub fn winner(&self) -> Player {
        let (a, b) = (&self.players[0], &self.players[1]);
        let (ha, hb) = (a.stats.hp, b.stats.hp);
        if ha != hb && !(ha <= 0.0 && hb <= 0.0) {
            return if ha > hb { Player::One } else { Player::Two };
        }
        if b.total_computation_time < a.total_computation_time { Player::Two } else { Player::One }
    }

    /// The end-of-game frame with `endStats`. `last` is the last frame sent.
    pub fn end_frame(&mut self, last: &TurnInfo, duration_ms: i64) -> Frame {
        let config = Arc::clone(&self.config);
        let mut players: [PlayerEndStats; 2] = Default::default();
        for p in Player::both() {
            let ps = &self.players[p.index()];
            let opponent = &self.players[p.opponent().index()];
            let on_board_mp: f32 = self
                .units
                .iter()
                .filter(|u| u.owner == p && !u.is_structure)
                .map(|u| config.unit(u.unit_type as usize).cost_mp)
                .sum();
            let left_on_board: f32 = self
                .units
                .iter()
                .filter(|u| u.owner == p && u.is_structure)
                .map(|u| {
                    if self.early_2020 {
                        config.form(u.unit_type as usize, u.upgraded).cost_sp
                    } else {
                        config.invested_sp(u.unit_type as usize, u.upgraded)
                    }
                })
                .sum();
            players[p.index()] = PlayerEndStats {
                points_scored: config.resources.starting_hp - opponent.stats.hp,
                dynamic_resource_spent: ps.mp_spent,
                dynamic_resource_destroyed: ps.mp_destroyed + on_board_mp,
                dynamic_resource_spoiled: ps.mp_spoiled,
                stationary_resource_spent: ps.sp_spent,
                stationary_resource_left_on_board: left_on_board,
                crashed: ps.crashed,
                timeout_death: ps.timeout_death,
                time_damage_taken: ps.time_damage_taken,
                total_computation_time: ps.total_computation_time,
                name: ps.name.clone(),
            };
        }
        let turn = if self.turn >= TURN_LIMIT { TURN_LIMIT } else { last.turn };
        let end = EndStats {
            duration: duration_ms,
            winner: self.winner().number(),
            turns: turn,
            frames: self.action_frames_sent,
            players,
        };
        let mut stats = [self.players[0].stats, self.players[1].stats];
        for s in stats.iter_mut() {
            s.time_ms = 0;
        }
        self.over = true;
        Frame {
            turn_info: TurnInfo {
                phase: Phase::End,
                turn,
                action_frame: last.action_frame,
                total_frame: last.total_frame,
            },
            stats,
            units: [self.unit_lists(Player::One), self.unit_lists(Player::Two)],
            events: Events::default(),
            end_stats: Some(end),
        }
    }
}
