//! Event lists: each kind of event read from its entry.

use super::Cursor;
use crate::engine::frame::*;

impl Cursor<'_> {
    /// A list of events `[[…], …]`, each read by `event` after its opening bracket, into
    /// `buffer`, then copied to `out`.
    pub(super) fn event_list<T: Clone>(
        &mut self,
        buffer: &mut Vec<T>,
        out: &mut Vec<T>,
        mut event: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<()> {
        if self.at() != b'[' && self.eat_word(b"null") {
            return Some(());
        }
        self.expect(b'[')?;
        if self.eat(b']') {
            return Some(());
        }
        buffer.clear();
        loop {
            self.expect(b'[')?;
            buffer.push(event(self)?);
            self.expect(b']')?;
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b']')?;
        out.extend_from_slice(buffer);
        Some(())
    }

    /// `events`: an object of the nine lists (each at most once), or null.
    pub(super) fn events(&mut self, ev: &mut Events, room: &mut Events, death_without_flag: &mut bool) -> Option<()> {
        if self.eat_word(b"null") {
            return Some(());
        }
        self.expect(b'{')?;
        if self.eat(b'}') {
            return Some(());
        }
        let mut seen = 0u16;
        loop {
            let key = self.key()?;
            let bit = match key {
                b"spawn" => 0,
                b"move" => 1,
                b"attack" => 2,
                b"damage" => 3,
                b"death" => 4,
                b"shield" => 5,
                b"breach" => 6,
                b"selfDestruct" => 7,
                b"melee" => 8,
                _ => return None,
            };
            if seen & (1 << bit) != 0 {
                return None;
            }
            seen |= 1 << bit;
            match bit {
                0 => self.event_list(&mut room.spawn, &mut ev.spawn, Self::spawn)?,
                1 => self.event_list(&mut room.moves, &mut ev.moves, Self::move_event)?,
                2 => self.event_list(&mut room.attack, &mut ev.attack, Self::attack)?,
                3 => self.event_list(&mut room.damage, &mut ev.damage, Self::damage)?,
                4 => self.event_list(&mut room.death, &mut ev.death, |c| c.death(death_without_flag))?,
                5 => self.event_list(&mut room.shield, &mut ev.shield, Self::shield)?,
                6 => self.event_list(&mut room.breach, &mut ev.breach, Self::breach)?,
                7 => self.event_list(&mut room.self_destruct, &mut ev.self_destruct, Self::self_destruct)?,
                _ => self.event_list(&mut room.melee, &mut ev.melee, Self::melee)?,
            }
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b'}')
    }

    /// `tile, unitType, id, owner`.
    pub(super) fn spawn(&mut self) -> Option<SpawnEvent> {
        let tile = self.tile()?;
        self.expect(b',')?;
        let unit_type = self.unit_type()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(SpawnEvent { tile, unit_type, id, owner })
    }

    /// `from, to, [dx, dy], unitType, id, owner` (the third, unused, is read as a tile).
    pub(super) fn move_event(&mut self) -> Option<MoveEvent> {
        let from = self.tile()?;
        self.expect(b',')?;
        let to = self.tile()?;
        self.expect(b',')?;
        self.tile()?;
        self.expect(b',')?;
        let unit_type = self.unit_type()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(MoveEvent { from, to, unit_type, id, owner })
    }

    /// `from, to, damage, attackerType, attackerId, targetId, owner`.
    pub(super) fn attack(&mut self) -> Option<AttackEvent> {
        let from = self.tile()?;
        self.expect(b',')?;
        let to = self.tile()?;
        self.expect(b',')?;
        let damage = self.figure()?;
        self.expect(b',')?;
        let attacker_type = self.unit_type()?;
        self.expect(b',')?;
        let attacker_id = self.id()?;
        self.expect(b',')?;
        let target_id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(AttackEvent { from, to, damage, attacker_type, attacker_id, target_id, owner })
    }

    /// `tile, damage, unitType, id, owner`.
    pub(super) fn damage(&mut self) -> Option<DamageEvent> {
        let tile = self.tile()?;
        self.expect(b',')?;
        let damage = self.figure()?;
        self.expect(b',')?;
        let unit_type = self.unit_type()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(DamageEvent { tile, damage, unit_type, id, owner })
    }

    /// `tile, unitType, id, owner` and, after August 2018, `removed` (`true` or `false`).
    pub(super) fn death(&mut self, without_flag: &mut bool) -> Option<DeathEvent> {
        let tile = self.tile()?;
        self.expect(b',')?;
        let unit_type = self.unit_type()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        let removed = if self.eat(b',') {
            if self.eat_word(b"true") {
                true
            } else if self.eat_word(b"false") {
                false
            } else {
                return None;
            }
        } else {
            *without_flag = true;
            false
        };
        Some(DeathEvent { tile, unit_type, id, owner, removed })
    }

    /// `from, to, amount, supportType, supportId, targetId, owner`.
    pub(super) fn shield(&mut self) -> Option<ShieldEvent> {
        let from = self.tile()?;
        self.expect(b',')?;
        let to = self.tile()?;
        self.expect(b',')?;
        let amount = self.figure()?;
        self.expect(b',')?;
        let support_type = self.unit_type()?;
        self.expect(b',')?;
        let support_id = self.id()?;
        self.expect(b',')?;
        let target_id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(ShieldEvent { from, to, amount, support_type, support_id, target_id, owner })
    }

    /// `tile, damage, unitType, id, owner`.
    pub(super) fn breach(&mut self) -> Option<BreachEvent> {
        // The same fields as a damage event, in the same order.
        let DamageEvent { tile, damage, unit_type, id, owner } = self.damage()?;
        Some(BreachEvent { tile, damage, unit_type, id, owner })
    }

    /// `tile, [victim tiles], damage, unitType, id, owner`.
    pub(super) fn self_destruct(&mut self) -> Option<SelfDestructEvent> {
        let tile = self.tile()?;
        self.expect(b',')?;
        self.expect(b'[')?;
        let mut victims = Vec::new();
        if !self.eat(b']') {
            loop {
                victims.push(self.tile()?);
                if !self.eat(b',') {
                    break;
                }
            }
            self.expect(b']')?;
        }
        self.expect(b',')?;
        let damage = self.figure()?;
        self.expect(b',')?;
        let unit_type = self.unit_type()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(SelfDestructEvent { tile, victims, damage, unit_type, id, owner })
    }

    /// `from, to, damage, unitType, id, owner` (2018).
    pub(super) fn melee(&mut self) -> Option<MeleeEvent> {
        let from = self.tile()?;
        self.expect(b',')?;
        let to = self.tile()?;
        self.expect(b',')?;
        let damage = self.figure()?;
        self.expect(b',')?;
        let unit_type = self.unit_type()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(MeleeEvent { from, to, damage, unit_type, id, owner })
    }
}
