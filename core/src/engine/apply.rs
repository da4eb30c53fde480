//! A player's commands applied to the game (docs/protocol.md, Applying commands): each
//! checked, paid for and turned into a unit, an upgrade or a removal mark.

use super::commands::{Command, CommandKind};
use super::frame::SpawnEvent;
use super::game::{Game, Rejection};
use super::geometry::{Edge, Player, Tile};
use super::resources::round1;
use super::unit::Unit;

impl Game {
    fn pay(&mut self, p: Player, sp: f32, mp: f32) -> Result<(), Rejection> {
        let s = &mut self.players[p.index()].stats;
        if s.sp < sp || s.mp < mp {
            return Err(Rejection::CannotAfford);
        }
        s.sp = round1(s.sp - sp);
        s.mp = round1(s.mp - mp);
        Ok(())
    }

    fn take_id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Validates, pays for and applies one command (docs/protocol.md, Applying commands).
    pub(crate) fn apply_command(&mut self, p: Player, c: Command) -> Result<(), Rejection> {
        let t = c.tile;
        if !t.in_play() {
            return Err(Rejection::OffBoard);
        }
        if !p.owns(t) {
            return Err(Rejection::EnemyHalf);
        }
        match c.kind {
            CommandKind::Spawn(unit_type) => self.spawn(p, t, unit_type),
            CommandKind::Upgrade => self.upgrade(p, t),
            CommandKind::Remove => self.mark_for_removal(p, t),
        }
    }

    /// A structure or a mobile unit of `unit_type` for `p` on `t` (a mobile unit only on
    /// an edge), paid for.
    #[inline]
    fn spawn(&mut self, p: Player, t: Tile, unit_type: u8) -> Result<(), Rejection> {
        // The figures read out of the config, not a clone of its `Arc`: threads placing units
        // in games of one config would all count on the same reference count.
        let stats = self.config.units.get(unit_type as usize).ok_or(Rejection::UnknownUnitType)?;
        let (is_structure, cost_sp, cost_mp, start_health) =
            (stats.is_structure, stats.cost_sp, stats.cost_mp, stats.start_health);
        let legacy = self.config.legacy;
        // The tile is in play (checked by `apply_command`): its entry names the structure.
        if self.structure_at[t.index()] != 0 {
            return Err(Rejection::Occupied);
        }
        let edge = if is_structure { None } else { Some(Edge::deploy_edge_of(p, t).ok_or(Rejection::NotAnEdge)?) };
        self.pay(p, cost_sp, cost_mp)?;
        // The 2018–2019 engines spend two ids on a structure: the spawn event names
        // the first, the structure itself the second.
        let event_id = if legacy && edge.is_none() { Some(self.take_id()) } else { None };
        let id = self.take_id();
        let ps = &mut self.players[p.index()];
        let unit = match edge {
            None => {
                ps.sp_spent += cost_sp;
                Unit::new_structure(id, unit_type, p, t, start_health)
            }
            Some(e) => {
                ps.mp_spent += cost_mp;
                Unit::new_mobile(id, unit_type, p, t, start_health, e.opposite())
            }
        };
        self.insert_unit(unit);
        self.events.spawn.push(SpawnEvent { tile: t, unit_type, id: event_id.unwrap_or(id), owner: p });
        Ok(())
    }

    /// `p`'s structure on `t` replaced by its upgraded form (a new id), paid for.
    #[inline]
    fn upgrade(&mut self, p: Player, t: Tile) -> Result<(), Rejection> {
        let old = self.structure_on(t).filter(|u| u.owner == p).ok_or(Rejection::NoOwnStructure)?;
        if old.upgraded {
            return Err(Rejection::AlreadyUpgraded);
        }
        let (old_id, unit_type, old_base) = (old.id, old.unit_type, old.base_health);
        // Read out, as in `spawn`.
        let base = self.config.unit(unit_type as usize);
        let up = base.upgrade.as_deref().ok_or(Rejection::NotUpgradable)?;
        let (cost_sp, cost_mp, up_health, base_health) = (up.cost_sp, up.cost_mp, up.start_health, base.start_health);
        self.pay(p, cost_sp, cost_mp)?;
        self.players[p.index()].sp_spent += cost_sp;
        let index = self.unit_index(old_id).ok_or(Rejection::NoOwnStructure)?;
        self.remove_unit_keeping_board(index);
        let id = self.take_id();
        let health = (old_base + (up_health - base_health)).min(up_health);
        let mut unit = Unit::new_structure(id, unit_type, p, t, health);
        unit.upgraded = true;
        self.insert_unit(unit);
        let echoed = if self.early_2020 { unit_type } else { super::config::UPGRADE as u8 };
        self.events.spawn.push(SpawnEvent { tile: t, unit_type: echoed, id, owner: p });
        Ok(())
    }

    /// `p`'s structure on `t` marked for removal at the end of the turn.
    #[inline]
    fn mark_for_removal(&mut self, p: Player, t: Tile) -> Result<(), Rejection> {
        let turn = self.turn;
        let id = self.structure_on(t).filter(|u| u.owner == p).map(|u| u.id).ok_or(Rejection::NoOwnStructure)?;
        let index = self.unit_index(id).ok_or(Rejection::NoOwnStructure)?;
        if self.config.mechanics.as_ref().is_some_and(|m| !m.removals_enabled) {
            return Err(Rejection::RemovalsDisabled);
        }
        let unit = &mut self.units[index];
        if unit.marked_turn.is_some() {
            return Err(Rejection::AlreadyMarked);
        }
        unit.marked_turn = Some(turn);
        let mark_id = if self.config.legacy {
            let mark_id = self.take_id();
            self.legacy_marks.push((id, mark_id));
            mark_id
        } else {
            id
        };
        self.events.spawn.push(SpawnEvent { tile: t, unit_type: super::config::REMOVE as u8, id: mark_id, owner: p });
        Ok(())
    }

    /// Applies one reply line: entries in order, every removal after the other entries (the
    /// 2018–2019 engines: all in the order given). Returns the rejected entries with the reason.
    pub fn apply_line(&mut self, p: Player, line: &[Command]) -> Vec<(Command, Rejection)> {
        let mut rejected = Vec::new();
        let legacy = self.config.legacy;
        let ordered = line
            .iter()
            .filter(|c| legacy || c.kind != CommandKind::Remove)
            .chain(line.iter().filter(|c| !legacy && c.kind == CommandKind::Remove));
        for &c in ordered {
            if let Err(r) = self.apply_command(p, c) {
                rejected.push((c, r));
            }
        }
        rejected
    }

    /// Applies both players' two lines in the official order: P1 build, P2 build,
    /// P1 deploy, P2 deploy. `lines[p] = (build, deploy)`.
    pub fn apply_turn_commands(&mut self, lines: [(&[Command], &[Command]); 2]) -> [Vec<(Command, Rejection)>; 2] {
        let mut rejected = [Vec::new(), Vec::new()];
        for p in Player::both() {
            rejected[p.index()].extend(self.apply_line(p, lines[p.index()].0));
        }
        for p in Player::both() {
            rejected[p.index()].extend(self.apply_line(p, lines[p.index()].1));
        }
        rejected
    }
}
