//! A frame line read straight into a `Frame` by typed deserialisation, borrowing from the
//! line: no JSON tree per frame. It takes the shape real replays have; anything else (a null,
//! a missing element, a wrong type, a repeated key) makes it give up, and the reader parses
//! the line again through `parse::parse_frame`, which names the bad field. So every frame it
//! does return is exactly the one `parse_frame` would build from the same line.

use crate::engine::frame::*;
use crate::engine::geometry::{Player, Tile};
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// The frame of a line, and whether one of its death events lacks the `removed` flag (the
/// August 2018 build wrote none). `None`: not a frame of the usual shape; read it the slow way.
pub(super) fn parse_frame_line(line: &str) -> Option<(Frame, bool)> {
    let raw: RawFrame = serde_json::from_str(line).ok()?;
    raw.into_frame()
}

#[derive(Deserialize)]
struct RawFrame {
    #[serde(rename = "turnInfo")]
    turn_info: RawTurnInfo,
    #[serde(rename = "p1Stats", default)]
    p1_stats: Present<RawStats>,
    #[serde(rename = "p2Stats", default)]
    p2_stats: Present<RawStats>,
    #[serde(rename = "p1Units", default)]
    p1_units: Present<Vec<UnitList>>,
    #[serde(rename = "p2Units", default)]
    p2_units: Present<Vec<UnitList>>,
    // A null `events` is no events, as in `parse_frame`.
    #[serde(default)]
    events: Option<RawEvents>,
    #[serde(rename = "endStats", default)]
    end_stats: Present<RawEndStats>,
}

impl RawFrame {
    fn into_frame(self) -> Option<(Frame, bool)> {
        let t = self.turn_info;
        let turn_info = TurnInfo {
            phase: Phase::from_number(t.phase)?,
            turn: t.turn as i32,
            action_frame: t.action_frame as i32,
            total_frame: t.total_frame,
        };
        let stats = [self.p1_stats, self.p2_stats].map(|s| s.0.map(|s| s.0).unwrap_or_default());
        let units = [self.p1_units, self.p2_units]
            .map(|u| u.0.map(|lists| lists.into_iter().map(|l| l.0).collect()).unwrap_or_default());
        let (events, death_without_flag) = self.events.map(RawEvents::into_events).unwrap_or_default();
        let end_stats = self.end_stats.0.map(RawEndStats::into_end_stats);
        Some((Frame { turn_info, stats, units, events, end_stats }, death_without_flag))
    }
}

/// A key that may be missing (`None`) but, when there, must hold a `T`: a null is refused,
/// unlike `Option<T>`, because `parse_frame` refuses it too.
struct Present<T>(Option<T>);

impl<T> Default for Present<T> {
    fn default() -> Self {
        Present(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Present<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(|t| Present(Some(t)))
    }
}

/// Implements `Deserialize` for a type read from a JSON list, element by element.
macro_rules! from_list {
    ($ty:ty, $what:literal, |$seq:ident| $body:block) => {
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct ListVisitor;
                impl<'de> Visitor<'de> for ListVisitor {
                    type Value = $ty;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($what)
                    }
                    fn visit_seq<A: SeqAccess<'de>>(self, mut $seq: A) -> Result<$ty, A::Error> {
                        $body
                    }
                }
                d.deserialize_seq(ListVisitor)
            }
        }
    };
}

/// The next element, which must be there.
fn next<'de, T: Deserialize<'de>, A: SeqAccess<'de>>(seq: &mut A) -> Result<T, A::Error> {
    seq.next_element()?.ok_or_else(|| de::Error::custom("too few elements"))
}

/// Skips the elements left; returns how many there were.
fn skip_rest<'de, A: SeqAccess<'de>>(seq: &mut A) -> Result<usize, A::Error> {
    let mut n = 0;
    while seq.next_element::<IgnoredAny>()?.is_some() {
        n += 1;
    }
    Ok(n)
}

/// An integer as `parse_frame` reads one: a float is truncated.
struct Int(i64);

impl<'de> Deserialize<'de> for Int {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct IntVisitor;
        impl Visitor<'_> for IntVisitor {
            type Value = Int;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number")
            }
            fn visit_i64<E>(self, v: i64) -> Result<Int, E> {
                Ok(Int(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Int, E> {
                Ok(Int(i64::try_from(v).unwrap_or(v as f64 as i64)))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Int, E> {
                Ok(Int(v as i64))
            }
        }
        d.deserialize_i64(IntVisitor)
    }
}

/// A number read as `f64`, then narrowed to `f32`, as `parse_frame` does.
struct F32(f32);

impl<'de> Deserialize<'de> for F32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct F32Visitor;
        impl Visitor<'_> for F32Visitor {
            type Value = F32;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number")
            }
            fn visit_i64<E>(self, v: i64) -> Result<F32, E> {
                Ok(F32(v as f64 as f32))
            }
            fn visit_u64<E>(self, v: u64) -> Result<F32, E> {
                Ok(F32(v as f64 as f32))
            }
            fn visit_f64<E>(self, v: f64) -> Result<F32, E> {
                Ok(F32(v as f32))
            }
        }
        d.deserialize_f64(F32Visitor)
    }
}

/// A unit id: a whole number, or a string holding one.
struct Id(u32);

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct IdVisitor;
        impl Visitor<'_> for IdVisitor {
            type Value = Id;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an id")
            }
            fn visit_u64<E>(self, v: u64) -> Result<Id, E> {
                Ok(Id(v as u32))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Id, E> {
                u64::try_from(v).map(|v| Id(v as u32)).map_err(|_| E::custom("negative id"))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Id, E> {
                v.trim().parse().map(Id).map_err(|_| E::custom("id is not a number"))
            }
        }
        d.deserialize_any(IdVisitor)
    }
}

/// `true` only for a JSON `true`; any other value reads as `false`, as in `parse_frame`.
#[derive(Default)]
struct LenientBool(bool);

/// A string, or empty for any other value.
#[derive(Default)]
struct LenientString(String);

/// Reads any value, keeping only a bool or a string.
enum Loose {
    Bool(bool),
    Str(String),
    Other,
}

impl<'de> Deserialize<'de> for Loose {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct LooseVisitor;
        impl<'de> Visitor<'de> for LooseVisitor {
            type Value = Loose;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Loose, E> {
                Ok(Loose::Bool(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Loose, E> {
                Ok(Loose::Str(v.to_string()))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Loose, E> {
                Ok(Loose::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Loose, E> {
                Ok(Loose::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Loose, E> {
                Ok(Loose::Other)
            }
            fn visit_unit<E>(self) -> Result<Loose, E> {
                Ok(Loose::Other)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Loose, A::Error> {
                skip_rest(&mut seq).map(|_| Loose::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Loose, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Loose::Other)
            }
        }
        d.deserialize_any(LooseVisitor)
    }
}

impl<'de> Deserialize<'de> for LenientBool {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Loose::deserialize(d).map(|l| LenientBool(matches!(l, Loose::Bool(true))))
    }
}

impl<'de> Deserialize<'de> for LenientString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Loose::deserialize(d).map(|l| LenientString(if let Loose::Str(s) = l { s } else { String::new() }))
    }
}

struct RawTile(Tile);

from_list!(RawTile, "a tile [x, y]", |seq| {
    let (x, y): (Int, Int) = (next(&mut seq)?, next(&mut seq)?);
    skip_rest(&mut seq)?;
    Ok(RawTile(Tile::new(x.0 as i32, y.0 as i32)))
});

struct UnitType(u8);

impl<'de> Deserialize<'de> for UnitType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = Int::deserialize(d)?.0;
        u8::try_from(n).ok().filter(|t| *t < 8).map(UnitType).ok_or_else(|| de::Error::custom("unit type out of range"))
    }
}

struct Owner(Player);

impl<'de> Deserialize<'de> for Owner {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Player::from_number(Int::deserialize(d)?.0).map(Owner).ok_or_else(|| de::Error::custom("owner is not 1 or 2"))
    }
}

struct RawTurnInfo {
    phase: i64,
    turn: i64,
    action_frame: i64,
    total_frame: Option<i64>,
}

from_list!(RawTurnInfo, "turnInfo", |seq| {
    let (phase, turn, action_frame): (Int, Int, Int) = (next(&mut seq)?, next(&mut seq)?, next(&mut seq)?);
    let total_frame: Option<Int> = seq.next_element()?;
    skip_rest(&mut seq)?;
    Ok(RawTurnInfo {
        phase: phase.0,
        turn: turn.0,
        action_frame: action_frame.0,
        total_frame: total_frame.map(|t| t.0),
    })
});

/// `[hp, sp, mp, time]`; a missing figure is 0.
struct RawStats(Stats);

from_list!(RawStats, "player stats", |seq| {
    let mut figures = [0.0; 3];
    let mut complete = true;
    for figure in &mut figures {
        match seq.next_element::<F32>()? {
            Some(v) => *figure = v.0,
            None => {
                complete = false;
                break;
            }
        }
    }
    let time_ms = if complete { seq.next_element::<Int>()?.map_or(0, |t| t.0) } else { 0 };
    skip_rest(&mut seq)?;
    Ok(RawStats(Stats { hp: figures[0], sp: figures[1], mp: figures[2], time_ms }))
});

/// One unit list: `[x, y, health, id, …]` entries.
struct UnitList(Vec<UnitEntry>);

struct RawUnit(UnitEntry);

from_list!(RawUnit, "a unit [x, y, health, id]", |seq| {
    let (x, y, health, id): (Int, Int, F32, Id) = (next(&mut seq)?, next(&mut seq)?, next(&mut seq)?, next(&mut seq)?);
    skip_rest(&mut seq)?;
    Ok(RawUnit(UnitEntry { tile: Tile::new(x.0 as i32, y.0 as i32), health: health.0, id: id.0 }))
});

from_list!(UnitList, "a unit list", |seq| {
    let mut units = Vec::with_capacity(seq.size_hint().unwrap_or(0));
    while let Some(u) = seq.next_element::<RawUnit>()? {
        units.push(u.0);
    }
    Ok(UnitList(units))
});

#[derive(Deserialize)]
struct RawEvents {
    #[serde(default)]
    spawn: Option<Vec<Spawn>>,
    #[serde(rename = "move", default)]
    moves: Option<Vec<Move>>,
    #[serde(default)]
    attack: Option<Vec<Attack>>,
    #[serde(default)]
    damage: Option<Vec<Damage>>,
    #[serde(default)]
    death: Option<Vec<Death>>,
    #[serde(default)]
    shield: Option<Vec<Shield>>,
    #[serde(default)]
    breach: Option<Vec<Breach>>,
    #[serde(rename = "selfDestruct", default)]
    self_destruct: Option<Vec<SelfDestruct>>,
    #[serde(default)]
    melee: Option<Vec<Melee>>,
}

/// The events of a list, unwrapped (`None`, a null list, is none).
fn unwrap_all<W, T>(list: Option<Vec<W>>, unwrap: impl Fn(W) -> T) -> Vec<T> {
    list.map(|l| l.into_iter().map(unwrap).collect()).unwrap_or_default()
}

impl RawEvents {
    fn into_events(self) -> (Events, bool) {
        let death_without_flag = self.death.as_ref().is_some_and(|d| d.iter().any(|d| d.elements == 4));
        let events = Events {
            spawn: unwrap_all(self.spawn, |e| e.0),
            moves: unwrap_all(self.moves, |e| e.0),
            attack: unwrap_all(self.attack, |e| e.0),
            damage: unwrap_all(self.damage, |e| e.0),
            death: unwrap_all(self.death, |e| e.event),
            shield: unwrap_all(self.shield, |e| e.0),
            breach: unwrap_all(self.breach, |e| e.0),
            self_destruct: unwrap_all(self.self_destruct, |e| e.0),
            melee: unwrap_all(self.melee, |e| e.0),
        };
        (events, death_without_flag)
    }
}

struct Spawn(SpawnEvent);

from_list!(Spawn, "a spawn event", |seq| {
    let (tile, unit_type, id, owner): (RawTile, UnitType, Id, Owner) =
        (next(&mut seq)?, next(&mut seq)?, next(&mut seq)?, next(&mut seq)?);
    skip_rest(&mut seq)?;
    Ok(Spawn(SpawnEvent { tile: tile.0, unit_type: unit_type.0, id: id.0, owner: owner.0 }))
});

struct Move(MoveEvent);

from_list!(Move, "a move event", |seq| {
    let (from, to, _, unit_type): (RawTile, RawTile, IgnoredAny, UnitType) =
        (next(&mut seq)?, next(&mut seq)?, next(&mut seq)?, next(&mut seq)?);
    let (id, owner): (Id, Owner) = (next(&mut seq)?, next(&mut seq)?);
    skip_rest(&mut seq)?;
    Ok(Move(MoveEvent { from: from.0, to: to.0, unit_type: unit_type.0, id: id.0, owner: owner.0 }))
});

struct Attack(AttackEvent);

from_list!(Attack, "an attack event", |seq| {
    let (from, to, damage, attacker_type): (RawTile, RawTile, F32, UnitType) =
        (next(&mut seq)?, next(&mut seq)?, next(&mut seq)?, next(&mut seq)?);
    let (attacker_id, target_id, owner): (Id, Id, Owner) = (next(&mut seq)?, next(&mut seq)?, next(&mut seq)?);
    skip_rest(&mut seq)?;
    Ok(Attack(AttackEvent {
        from: from.0,
        to: to.0,
        damage: damage.0,
        attacker_type: attacker_type.0,
        attacker_id: attacker_id.0,
        target_id: target_id.0,
        owner: owner.0,
    }))
});

struct Damage(DamageEvent);

from_list!(Damage, "a damage event", |seq| {
    let (tile, damage, unit_type, id, owner): (RawTile, F32, UnitType, Id, Owner) =
        (next(&mut seq)?, next(&mut seq)?, next(&mut seq)?, next(&mut seq)?, next(&mut seq)?);
    skip_rest(&mut seq)?;
    Ok(Damage(DamageEvent { tile: tile.0, damage: damage.0, unit_type: unit_type.0, id: id.0, owner: owner.0 }))
});

/// A death event and how many elements it had (4: no `removed` flag).
struct Death {
    event: DeathEvent,
    elements: usize,
}

from_list!(Death, "a death event", |seq| {
    let (tile, unit_type, id, owner): (RawTile, UnitType, Id, Owner) =
        (next(&mut seq)?, next(&mut seq)?, next(&mut seq)?, next(&mut seq)?);
    let removed: Option<LenientBool> = seq.next_element()?;
    let elements = 4 + usize::from(removed.is_some()) + skip_rest(&mut seq)?;
    let removed = removed.is_some_and(|r| r.0);
    Ok(Death {
        event: DeathEvent { tile: tile.0, unit_type: unit_type.0, id: id.0, owner: owner.0, removed },
        elements,
    })
});

struct Shield(ShieldEvent);

from_list!(Shield, "a shield event", |seq| {
    let (from, to, amount, support_type): (RawTile, RawTile, F32, UnitType) =
        (next(&mut seq)?, next(&mut seq)?, next(&mut seq)?, next(&mut seq)?);
    let (support_id, target_id, owner): (Id, Id, Owner) = (next(&mut seq)?, next(&mut seq)?, next(&mut seq)?);
    skip_rest(&mut seq)?;
    Ok(Shield(ShieldEvent {
        from: from.0,
        to: to.0,
        amount: amount.0,
        support_type: support_type.0,
        support_id: support_id.0,
        target_id: target_id.0,
        owner: owner.0,
    }))
});

struct Breach(BreachEvent);

from_list!(Breach, "a breach event", |seq| {
    let (tile, damage, unit_type, id, owner): (RawTile, F32, UnitType, Id, Owner) =
        (next(&mut seq)?, next(&mut seq)?, next(&mut seq)?, next(&mut seq)?, next(&mut seq)?);
    skip_rest(&mut seq)?;
    Ok(Breach(BreachEvent { tile: tile.0, damage: damage.0, unit_type: unit_type.0, id: id.0, owner: owner.0 }))
});

struct SelfDestruct(SelfDestructEvent);

from_list!(SelfDestruct, "a self-destruct event", |seq| {
    let (tile, victims, damage): (RawTile, Vec<RawTile>, F32) = (next(&mut seq)?, next(&mut seq)?, next(&mut seq)?);
    let (unit_type, id, owner): (UnitType, Id, Owner) = (next(&mut seq)?, next(&mut seq)?, next(&mut seq)?);
    skip_rest(&mut seq)?;
    Ok(SelfDestruct(SelfDestructEvent {
        tile: tile.0,
        victims: victims.into_iter().map(|t| t.0).collect(),
        damage: damage.0,
        unit_type: unit_type.0,
        id: id.0,
        owner: owner.0,
    }))
});

struct Melee(MeleeEvent);

from_list!(Melee, "a melee event", |seq| {
    let (from, to, damage, unit_type): (RawTile, RawTile, F32, UnitType) =
        (next(&mut seq)?, next(&mut seq)?, next(&mut seq)?, next(&mut seq)?);
    let (id, owner): (Id, Owner) = (next(&mut seq)?, next(&mut seq)?);
    skip_rest(&mut seq)?;
    Ok(Melee(MeleeEvent { from: from.0, to: to.0, damage: damage.0, unit_type: unit_type.0, id: id.0, owner: owner.0 }))
});

#[derive(Deserialize)]
struct RawEndStats {
    #[serde(default)]
    duration: Present<Int>,
    #[serde(default)]
    winner: Present<Int>,
    #[serde(default)]
    turns: Present<Int>,
    #[serde(default)]
    frames: Present<Int>,
    #[serde(default)]
    player1: Present<RawPlayerEnd>,
    #[serde(default)]
    player2: Present<RawPlayerEnd>,
}

fn int_or_zero(v: Present<Int>) -> i64 {
    v.0.map_or(0, |i| i.0)
}

fn f32_or_zero(v: Present<F32>) -> f32 {
    v.0.map_or(0.0, |f| f.0)
}

impl RawEndStats {
    fn into_end_stats(self) -> EndStats {
        EndStats {
            duration: int_or_zero(self.duration),
            winner: int_or_zero(self.winner) as u8,
            turns: int_or_zero(self.turns) as i32,
            frames: int_or_zero(self.frames),
            players: [self.player1, self.player2].map(|p| p.0.map(RawPlayerEnd::into_stats).unwrap_or_default()),
        }
    }
}

#[derive(Deserialize)]
struct RawPlayerEnd {
    #[serde(default)]
    points_scored: Present<F32>,
    #[serde(default)]
    dynamic_resource_spent: Present<F32>,
    #[serde(default)]
    dynamic_resource_destroyed: Present<F32>,
    #[serde(default)]
    dynamic_resource_spoiled: Present<F32>,
    #[serde(default)]
    stationary_resource_spent: Present<F32>,
    #[serde(default)]
    stationary_resource_left_on_board: Present<F32>,
    #[serde(default)]
    crashed: LenientBool,
    #[serde(default)]
    timeout_death: LenientBool,
    #[serde(default)]
    time_damage_taken: Present<Int>,
    #[serde(default)]
    total_computation_time: Present<Int>,
    #[serde(default)]
    name: LenientString,
}

impl RawPlayerEnd {
    fn into_stats(self) -> PlayerEndStats {
        PlayerEndStats {
            points_scored: f32_or_zero(self.points_scored),
            dynamic_resource_spent: f32_or_zero(self.dynamic_resource_spent),
            dynamic_resource_destroyed: f32_or_zero(self.dynamic_resource_destroyed),
            dynamic_resource_spoiled: f32_or_zero(self.dynamic_resource_spoiled),
            stationary_resource_spent: f32_or_zero(self.stationary_resource_spent),
            stationary_resource_left_on_board: f32_or_zero(self.stationary_resource_left_on_board),
            crashed: self.crashed.0,
            timeout_death: self.timeout_death.0,
            time_damage_taken: int_or_zero(self.time_damage_taken),
            total_computation_time: int_or_zero(self.total_computation_time),
            name: self.name.0,
        }
    }
}

#[cfg(test)]
mod tests;
