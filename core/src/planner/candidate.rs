//! One candidate attack: its groups, the engine's outcome of its deploy line, and the
//! objective that ranks candidates.

use crate::engine::commands::{Command, CommandKind};
use crate::engine::config::Config;
use crate::engine::geometry::{Player, Tile};
use crate::engine::resources::round1;
use crate::layout::stress::AttackOutcome;
use serde::Serialize;
use std::cmp::Ordering;

/// A lane: where and what (mobile type, deploy tile), without the count.
pub type Lane = (u8, Tile);

/// `count` units of one mobile type deployed on one edge tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Group {
    pub unit_type: u8,
    pub tile: Tile,
    pub count: u32,
}

impl Group {
    /// The lane of the group: where and what, without the count.
    pub(crate) fn lane(&self) -> Lane {
        (self.unit_type, self.tile)
    }
}

/// Groups in their canonical order (type, then tile): the deploy line's order, and the key
/// that tells two candidates apart.
pub(crate) fn canonical(mut groups: Vec<Group>) -> Vec<Group> {
    groups.sort();
    groups
}

/// The deploy line of `groups` (true-board tiles), in their order.
pub fn deploy_line(groups: &[Group]) -> Vec<Command> {
    let spawn = |g: &Group| Command { kind: CommandKind::Spawn(g.unit_type), tile: g.tile };
    groups.iter().flat_map(|g| std::iter::repeat_n(spawn(g), g.count as usize)).collect()
}

/// The MP `groups` cost as the engine charges it (one-decimal rounding after each unit),
/// or `None` if `mp` does not cover them all.
pub(crate) fn mp_cost(config: &Config, groups: &[Group], mp: f32) -> Option<f32> {
    let mut left = mp;
    for g in groups {
        let price = config.units.get(g.unit_type as usize)?.cost_mp;
        for _ in 0..g.count {
            if left < price {
                return None;
            }
            left = round1(left - price);
        }
    }
    Some(round1(mp - left))
}

/// A deploy and what the engine made of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// In canonical order (a recorded deploy's in its recorded order): the deploy line is
    /// these groups' units, in this order.
    pub groups: Vec<Group>,
    /// HP the defender lost to breaches.
    pub damage: f32,
    pub breaches: u32,
    pub structures_destroyed: u32,
    /// SP invested (base and upgrades) in the structures destroyed.
    pub sp_destroyed: f32,
    pub mp_spent: f32,
    pub units: u32,
    /// The attacker's units shot down on the way.
    pub units_destroyed: u32,
    /// Damage dealt to the defence's structures, every hit in full.
    pub structure_damage: f32,
    /// Damage the attacker's units took.
    pub damage_received: f32,
    pub action_frames: u32,
}

impl Candidate {
    pub fn new(groups: Vec<Group>, mp_spent: f32, o: &AttackOutcome) -> Candidate {
        Candidate {
            groups,
            damage: o.hp_lost,
            breaches: o.breaches,
            structures_destroyed: o.structures_lost,
            sp_destroyed: o.sp_lost,
            mp_spent,
            units: o.attackers_spawned,
            units_destroyed: o.attackers_destroyed,
            structure_damage: o.structure_damage,
            damage_received: o.damage_received,
            action_frames: o.action_frames,
        }
    }

    /// The deploy line (true-board tiles).
    pub fn deploy(&self) -> Vec<Command> {
        deploy_line(&self.groups)
    }

    /// HP damage per MP spent (0 for a deploy that spends nothing).
    pub fn damage_per_mp(&self) -> f32 {
        if self.mp_spent > 0.0 { self.damage / self.mp_spent } else { 0.0 }
    }

    /// The objective, best first: HP damage, then SP destroyed, then MP kept; ties go to
    /// fewer groups, then the canonical order of the groups (a total, stable order).
    pub fn rank(&self, other: &Candidate) -> Ordering {
        self.objective(other)
            .then(self.groups.len().cmp(&other.groups.len()))
            .then_with(|| self.groups.cmp(&other.groups))
    }

    /// The objective alone, best first: HP damage, then SP destroyed, then MP kept.
    pub fn objective(&self, other: &Candidate) -> Ordering {
        other
            .damage
            .total_cmp(&self.damage)
            .then(other.sp_destroyed.total_cmp(&self.sp_destroyed))
            .then(self.mp_spent.total_cmp(&other.mp_spent))
    }

    /// The candidate for output, its tiles in `attacker`'s own view (player 2's rotated), as
    /// its algo would send the deploy line.
    pub fn record(&self, config: &Config, attacker: Player, rank: usize) -> CandidateRecord {
        self.record_in_view(config, attacker == Player::Two, rank)
    }

    /// The candidate for output, its tiles rotated 180° or as they are on the board.
    pub fn record_in_view(&self, config: &Config, rotate: bool, rank: usize) -> CandidateRecord {
        let view = |t: Tile| if rotate { t.rotated() } else { t };
        let shorthand = |t: u8| config.units.get(t as usize).map(|u| u.shorthand.clone()).unwrap_or_default();
        CandidateRecord {
            rank,
            deploy: self
                .deploy()
                .iter()
                .map(|c| (kind_shorthand(config, c.kind), view(c.tile).x, view(c.tile).y))
                .collect(),
            groups: self
                .groups
                .iter()
                .map(|g| GroupRecord {
                    unit: shorthand(g.unit_type),
                    x: view(g.tile).x,
                    y: view(g.tile).y,
                    count: g.count,
                })
                .collect(),
            damage: self.damage,
            breaches: self.breaches,
            structures_destroyed: self.structures_destroyed,
            sp_destroyed: self.sp_destroyed,
            mp_spent: self.mp_spent,
            damage_per_mp: self.damage_per_mp(),
            units_destroyed: self.units_destroyed,
        }
    }
}

fn kind_shorthand(config: &Config, kind: CommandKind) -> String {
    match kind {
        CommandKind::Spawn(t) => config.units.get(t as usize).map(|u| u.shorthand.clone()).unwrap_or_default(),
        CommandKind::Upgrade => config.upgrade_shorthand.clone(),
        CommandKind::Remove => config.remove_shorthand.clone(),
    }
}

/// One candidate for output: `deploy` is the deploy line an algo sends
/// (`[shorthand, x, y]`, docs/protocol.md), in the view the record was made for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CandidateRecord {
    /// 1 for the best.
    pub rank: usize,
    pub deploy: Vec<(String, i32, i32)>,
    pub groups: Vec<GroupRecord>,
    pub damage: f32,
    pub breaches: u32,
    pub structures_destroyed: u32,
    pub sp_destroyed: f32,
    pub mp_spent: f32,
    /// HP damage per MP spent.
    pub damage_per_mp: f32,
    pub units_destroyed: u32,
}

impl CandidateRecord {
    /// `3 × PI (13,0) + 5 × DF (14,0)`, in the record's view.
    pub fn groups_text(&self) -> String {
        let groups: Vec<String> =
            self.groups.iter().map(|g| format!("{} × {} ({},{})", g.count, g.unit, g.x, g.y)).collect();
        groups.join(" + ")
    }
}

/// One group for output, in the attacker's own view.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupRecord {
    pub unit: String,
    pub x: i32,
    pub y: i32,
    pub count: u32,
}
