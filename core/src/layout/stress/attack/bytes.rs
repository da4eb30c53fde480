//! Prepared attacks as bytes, so that an index can keep them and the Layout lab can skip
//! reading and rebuilding replays it has read before. The layout is private to this file:
//! a version byte leads, and bytes of another version are not read (the replay is read again).

use super::{Attack, AttackerSide, PackedStructure, RecordedOutcome};
use crate::engine::commands::{Command, CommandKind};
use crate::engine::config::Config;
use crate::engine::frame::Stats;
use crate::engine::game::PlayerState;
use crate::engine::geometry::{Player, Tile};
use std::path::Path;
use std::sync::Arc;

/// Raised whenever what is written changes.
const VERSION: u8 = 1;

/// The attacks of one replay as bytes.
pub fn attacks_to_bytes(attacks: &[Attack]) -> Vec<u8> {
    let mut w = Writer(Vec::with_capacity(64 + attacks.len() * 1024));
    w.u8(VERSION);
    w.u32(attacks.len() as u32);
    for a in attacks {
        w.attack(a);
    }
    w.0
}

/// The attacks `attacks_to_bytes` wrote, as attacks of `replay` run under `config`; `None`
/// for bytes of another version or cut short.
pub fn attacks_from_bytes(bytes: &[u8], replay: &Path, ruleset: &str, config: &Arc<Config>) -> Option<Vec<Attack>> {
    let mut r = Reader { b: bytes, i: 0 };
    if r.u8()? != VERSION {
        return None;
    }
    let replay: Arc<Path> = Arc::from(replay);
    let ruleset: Arc<str> = Arc::from(ruleset);
    let n = r.u32()? as usize;
    let mut out = Vec::with_capacity(n.min(4096));
    for _ in 0..n {
        out.push(r.attack(&replay, &ruleset, config)?);
    }
    (r.i == bytes.len()).then_some(out)
}

struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn i32(&mut self, v: i32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn i64(&mut self, v: i64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn f32(&mut self, v: f32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    fn attack(&mut self, a: &Attack) {
        self.i32(a.turn);
        self.u8(a.attacker.index() as u8);
        self.u32(a.recorded.breaches);
        self.f32(a.recorded.hp_lost);
        self.u8(u8::from(a.recorded.defender_deployed));
        self.u32(a.spawned);
        self.f32(a.recorded_hp[0]);
        self.f32(a.recorded_hp[1]);
        self.side(&a.side);
        self.structures(&a.recorded_defence);
        self.u32(a.deploy.len() as u32);
        for c in &a.deploy {
            let (tag, unit_type) = match c.kind {
                CommandKind::Spawn(t) => (0, t),
                CommandKind::Upgrade => (1, 0),
                CommandKind::Remove => (2, 0),
            };
            self.u8(tag);
            self.u8(unit_type);
            self.i32(c.tile.x);
            self.i32(c.tile.y);
        }
    }

    fn side(&mut self, s: &AttackerSide) {
        self.i32(s.turn);
        self.i64(s.frames_sent);
        self.i64(s.action_frames_sent);
        self.u8(u8::from(s.early_2020));
        self.u32(s.next_id);
        for p in &s.players {
            self.player(p);
        }
        self.structures(&s.structures);
    }

    fn player(&mut self, p: &PlayerState) {
        self.f32(p.stats.hp);
        self.f32(p.stats.sp);
        self.f32(p.stats.mp);
        self.i64(p.stats.time_ms);
        self.u8(u8::from(p.crashed));
        self.u8(u8::from(p.timeout_death));
        self.i64(p.time_damage_taken);
        self.i64(p.total_computation_time);
        for v in [p.mp_spent, p.mp_destroyed, p.mp_spoiled, p.sp_spent] {
            self.f32(v);
        }
    }

    fn structures(&mut self, list: &[PackedStructure]) {
        self.u32(list.len() as u32);
        for s in list {
            self.u32(s.id);
            self.u16(s.tile);
            self.u8(s.unit_type);
            self.u8(u8::from(s.upgraded));
            self.i32(s.marked_turn);
            self.f32(s.health);
        }
    }
}

struct Reader<'a> {
    b: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let bytes = self.b.get(self.i..self.i + N)?.try_into().ok()?;
        self.i += N;
        Some(bytes)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take::<1>().map(|b| b[0])
    }
    fn flag(&mut self) -> Option<bool> {
        self.u8().map(|b| b != 0)
    }
    fn u16(&mut self) -> Option<u16> {
        self.take().map(u16::from_le_bytes)
    }
    fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }
    fn i32(&mut self) -> Option<i32> {
        self.take().map(i32::from_le_bytes)
    }
    fn i64(&mut self) -> Option<i64> {
        self.take().map(i64::from_le_bytes)
    }
    fn f32(&mut self) -> Option<f32> {
        self.take().map(f32::from_le_bytes)
    }

    fn attack(&mut self, replay: &Arc<Path>, ruleset: &Arc<str>, config: &Arc<Config>) -> Option<Attack> {
        let turn = self.i32()?;
        let attacker = Player::from_number(i64::from(self.u8()?) + 1)?;
        let recorded = RecordedOutcome { breaches: self.u32()?, hp_lost: self.f32()?, defender_deployed: self.flag()? };
        let spawned = self.u32()?;
        let recorded_hp = [self.f32()?, self.f32()?];
        let side = self.side()?;
        let recorded_defence = self.structures()?;
        let n = self.u32()? as usize;
        let mut deploy = Vec::with_capacity(n.min(1024));
        for _ in 0..n {
            let kind = match (self.u8()?, self.u8()?) {
                (0, t) => CommandKind::Spawn(t),
                (1, _) => CommandKind::Upgrade,
                (2, _) => CommandKind::Remove,
                _ => return None,
            };
            deploy.push(Command { kind, tile: Tile::new(self.i32()?, self.i32()?) });
        }
        Some(Attack {
            replay: Arc::clone(replay),
            turn,
            attacker,
            ruleset: Arc::clone(ruleset),
            recorded,
            recorded_defence,
            spawned,
            config: Arc::clone(config),
            side,
            deploy,
            recorded_hp,
        })
    }

    fn side(&mut self) -> Option<AttackerSide> {
        Some(AttackerSide {
            turn: self.i32()?,
            frames_sent: self.i64()?,
            action_frames_sent: self.i64()?,
            early_2020: self.flag()?,
            next_id: self.u32()?,
            players: [self.player()?, self.player()?],
            structures: self.structures()?,
        })
    }

    fn player(&mut self) -> Option<PlayerState> {
        Some(PlayerState {
            stats: Stats { hp: self.f32()?, sp: self.f32()?, mp: self.f32()?, time_ms: self.i64()? },
            name: String::new(),
            crashed: self.flag()?,
            timeout_death: self.flag()?,
            time_damage_taken: self.i64()?,
            total_computation_time: self.i64()?,
            mp_spent: self.f32()?,
            mp_destroyed: self.f32()?,
            mp_spoiled: self.f32()?,
            sp_spent: self.f32()?,
        })
    }

    fn structures(&mut self) -> Option<Vec<PackedStructure>> {
        let n = self.u32()? as usize;
        let mut out = Vec::with_capacity(n.min(1024));
        for _ in 0..n {
            out.push(PackedStructure {
                id: self.u32()?,
                tile: self.u16()?,
                unit_type: self.u8()?,
                upgraded: self.flag()?,
                marked_turn: self.i32()?,
                health: self.f32()?,
            });
        }
        Some(out)
    }
}
