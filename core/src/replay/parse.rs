//! JSON → frame, with the path of any bad field. Integers are accepted for floats, floats
//! are read into `f32`, ids may be strings or numbers, missing lists are empty.

use crate::engine::frame::*;
use crate::engine::geometry::{Player, Tile};
use serde_json::Value;

/// `(field path, message)`.
pub type FieldError = (String, String);

fn bad(path: &str, msg: impl Into<String>) -> FieldError {
    (path.to_string(), msg.into())
}

fn as_f32(v: &Value, path: &str) -> Result<f32, FieldError> {
    v.as_f64().map(|f| f as f32).ok_or_else(|| bad(path, format!("expected a number, found {v}")))
}

fn as_i64(v: &Value, path: &str) -> Result<i64, FieldError> {
    match v {
        Value::Number(n) => {
            n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)).ok_or_else(|| bad(path, "not an integer"))
        }
        _ => Err(bad(path, format!("expected an integer, found {v}"))),
    }
}

fn as_id(v: &Value, path: &str) -> Result<u32, FieldError> {
    match v {
        Value::String(s) => s.trim().parse::<u32>().map_err(|_| bad(path, format!("id `{s}` is not a number"))),
        Value::Number(n) => n.as_u64().map(|n| n as u32).ok_or_else(|| bad(path, "id is not a whole number")),
        _ => Err(bad(path, format!("expected an id, found {v}"))),
    }
}

fn as_arr<'a>(v: &'a Value, path: &str) -> Result<&'a Vec<Value>, FieldError> {
    v.as_array().ok_or_else(|| bad(path, format!("expected a list, found {}", short(v))))
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 40 { format!("{}…", &s[..s.char_indices().nth(40).map(|(i, _)| i).unwrap_or(s.len())]) } else { s }
}

fn at<'a>(list: &'a [Value], i: usize, path: &str) -> Result<&'a Value, FieldError> {
    list.get(i).ok_or_else(|| bad(&format!("{path}[{i}]"), "missing"))
}

fn tile(v: &Value, path: &str) -> Result<Tile, FieldError> {
    let a = as_arr(v, path)?;
    Ok(Tile::new(as_i64(at(a, 0, path)?, path)? as i32, as_i64(at(a, 1, path)?, path)? as i32))
}

fn owner(v: &Value, path: &str) -> Result<Player, FieldError> {
    let n = as_i64(v, path)?;
    Player::from_number(n).ok_or_else(|| bad(path, format!("owner must be 1 or 2, found {n}")))
}

fn unit_type(v: &Value, path: &str) -> Result<u8, FieldError> {
    let n = as_i64(v, path)?;
    u8::try_from(n).ok().filter(|t| *t < 8).ok_or_else(|| bad(path, format!("unit type {n} out of range")))
}

pub fn parse_frame(v: &Value) -> Result<Frame, FieldError> {
    let ti = as_arr(v.get("turnInfo").unwrap_or(&Value::Null), "turnInfo")?;
    if ti.len() < 3 {
        return Err(bad("turnInfo", "expected 3 or 4 numbers"));
    }
    let phase_n = as_i64(&ti[0], "turnInfo[0]")?;
    let turn_info = TurnInfo {
        phase: Phase::from_number(phase_n)
            .ok_or_else(|| bad("turnInfo[0]", format!("phase {phase_n} is not 0, 1 or 2")))?,
        turn: as_i64(&ti[1], "turnInfo[1]")? as i32,
        action_frame: as_i64(&ti[2], "turnInfo[2]")? as i32,
        total_frame: ti.get(3).map(|t| as_i64(t, "turnInfo[3]")).transpose()?,
    };
    let mut frame = Frame { turn_info, ..Frame::default() };
    for (p, key) in ["p1Stats", "p2Stats"].into_iter().enumerate() {
        if let Some(s) = v.get(key) {
            let a = as_arr(s, key)?;
            let num = |i: usize| -> Result<f32, FieldError> {
                a.get(i).map(|x| as_f32(x, &format!("{key}[{i}]"))).unwrap_or(Ok(0.0))
            };
            frame.stats[p] = Stats {
                hp: num(0)?,
                sp: num(1)?,
                mp: num(2)?,
                time_ms: a.get(3).map(|x| as_i64(x, &format!("{key}[3]"))).transpose()?.unwrap_or(0),
            };
        }
    }
    for (p, key) in ["p1Units", "p2Units"].into_iter().enumerate() {
        let mut lists = Vec::new();
        if let Some(u) = v.get(key) {
            for (i, list) in as_arr(u, key)?.iter().enumerate() {
                let path = format!("{key}[{i}]");
                let mut entries = Vec::new();
                for (j, unit) in as_arr(list, &path)?.iter().enumerate() {
                    let path = format!("{path}[{j}]");
                    let a = as_arr(unit, &path)?;
                    entries.push(UnitEntry {
                        tile: Tile::new(
                            as_i64(at(a, 0, &path)?, &path)? as i32,
                            as_i64(at(a, 1, &path)?, &path)? as i32,
                        ),
                        health: as_f32(at(a, 2, &path)?, &format!("{path}[2]"))?,
                        id: as_id(at(a, 3, &path)?, &format!("{path}[3]"))?,
                    });
                }
                lists.push(entries);
            }
        }
        frame.units[p] = lists;
    }
    if let Some(events) = v.get("events") {
        frame.events = parse_events(events)?;
    }
    if let Some(es) = v.get("endStats") {
        frame.end_stats = Some(parse_end_stats(es)?);
    }
    Ok(frame)
}

fn event_list<'a>(events: &'a Value, key: &str) -> Result<Vec<(String, &'a Vec<Value>)>, FieldError> {
    let path = format!("events.{key}");
    match events.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(list) => as_arr(list, &path)?
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let p = format!("{path}[{i}]");
                as_arr(e, &p).map(|a| (p, a))
            })
            .collect(),
    }
}

fn parse_events(e: &Value) -> Result<Events, FieldError> {
    Ok(Events {
        spawn: events_of(e, "spawn", spawn_event)?,
        moves: events_of(e, "move", move_event)?,
        attack: events_of(e, "attack", attack_event)?,
        damage: events_of(e, "damage", damage_event)?,
        death: events_of(e, "death", death_event)?,
        shield: events_of(e, "shield", shield_event)?,
        breach: events_of(e, "breach", breach_event)?,
        self_destruct: events_of(e, "selfDestruct", self_destruct_event)?,
        melee: events_of(e, "melee", melee_event)?,
    })
}

/// Every entry of one kind of event, each read by `read` with its path for errors.
fn events_of<T>(
    events: &Value,
    key: &str,
    read: impl Fn(&[Value], &str) -> Result<T, FieldError>,
) -> Result<Vec<T>, FieldError> {
    event_list(events, key)?.into_iter().map(|(p, a)| read(a, &p)).collect()
}

fn spawn_event(a: &[Value], p: &str) -> Result<SpawnEvent, FieldError> {
    Ok(SpawnEvent {
        tile: tile(at(a, 0, p)?, p)?,
        unit_type: unit_type(at(a, 1, p)?, p)?,
        id: as_id(at(a, 2, p)?, p)?,
        owner: owner(at(a, 3, p)?, p)?,
    })
}

fn move_event(a: &[Value], p: &str) -> Result<MoveEvent, FieldError> {
    Ok(MoveEvent {
        from: tile(at(a, 0, p)?, p)?,
        to: tile(at(a, 1, p)?, p)?,
        unit_type: unit_type(at(a, 3, p)?, p)?,
        id: as_id(at(a, 4, p)?, p)?,
        owner: owner(at(a, 5, p)?, p)?,
    })
}

fn attack_event(a: &[Value], p: &str) -> Result<AttackEvent, FieldError> {
    Ok(AttackEvent {
        from: tile(at(a, 0, p)?, p)?,
        to: tile(at(a, 1, p)?, p)?,
        damage: as_f32(at(a, 2, p)?, p)?,
        attacker_type: unit_type(at(a, 3, p)?, p)?,
        attacker_id: as_id(at(a, 4, p)?, p)?,
        target_id: as_id(at(a, 5, p)?, p)?,
        owner: owner(at(a, 6, p)?, p)?,
    })
}

fn damage_event(a: &[Value], p: &str) -> Result<DamageEvent, FieldError> {
    Ok(DamageEvent {
        tile: tile(at(a, 0, p)?, p)?,
        damage: as_f32(at(a, 1, p)?, p)?,
        unit_type: unit_type(at(a, 2, p)?, p)?,
        id: as_id(at(a, 3, p)?, p)?,
        owner: owner(at(a, 4, p)?, p)?,
    })
}

fn death_event(a: &[Value], p: &str) -> Result<DeathEvent, FieldError> {
    Ok(DeathEvent {
        tile: tile(at(a, 0, p)?, p)?,
        unit_type: unit_type(at(a, 1, p)?, p)?,
        id: as_id(at(a, 2, p)?, p)?,
        owner: owner(at(a, 3, p)?, p)?,
        removed: a.get(4).and_then(Value::as_bool).unwrap_or(false),
    })
}

fn shield_event(a: &[Value], p: &str) -> Result<ShieldEvent, FieldError> {
    Ok(ShieldEvent {
        from: tile(at(a, 0, p)?, p)?,
        to: tile(at(a, 1, p)?, p)?,
        amount: as_f32(at(a, 2, p)?, p)?,
        support_type: unit_type(at(a, 3, p)?, p)?,
        support_id: as_id(at(a, 4, p)?, p)?,
        target_id: as_id(at(a, 5, p)?, p)?,
        owner: owner(at(a, 6, p)?, p)?,
    })
}

fn breach_event(a: &[Value], p: &str) -> Result<BreachEvent, FieldError> {
    Ok(BreachEvent {
        tile: tile(at(a, 0, p)?, p)?,
        damage: as_f32(at(a, 1, p)?, p)?,
        unit_type: unit_type(at(a, 2, p)?, p)?,
        id: as_id(at(a, 3, p)?, p)?,
        owner: owner(at(a, 4, p)?, p)?,
    })
}

fn self_destruct_event(a: &[Value], p: &str) -> Result<SelfDestructEvent, FieldError> {
    let victims = as_arr(at(a, 1, p)?, p)?.iter().map(|t| tile(t, p)).collect::<Result<Vec<_>, _>>()?;
    Ok(SelfDestructEvent {
        tile: tile(at(a, 0, p)?, p)?,
        victims,
        damage: as_f32(at(a, 2, p)?, p)?,
        unit_type: unit_type(at(a, 3, p)?, p)?,
        id: as_id(at(a, 4, p)?, p)?,
        owner: owner(at(a, 5, p)?, p)?,
    })
}

fn melee_event(a: &[Value], p: &str) -> Result<MeleeEvent, FieldError> {
    Ok(MeleeEvent {
        from: tile(at(a, 0, p)?, p)?,
        to: tile(at(a, 1, p)?, p)?,
        damage: as_f32(at(a, 2, p)?, p)?,
        unit_type: unit_type(at(a, 3, p)?, p)?,
        id: as_id(at(a, 4, p)?, p)?,
        owner: owner(at(a, 5, p)?, p)?,
    })
}

fn parse_end_stats(v: &Value) -> Result<EndStats, FieldError> {
    let int = |key: &str| {
        v.get(key).map(|x| as_i64(x, &format!("endStats.{key}"))).transpose().map(Option::unwrap_or_default)
    };
    let mut es = EndStats {
        duration: int("duration")?,
        winner: int("winner")? as u8,
        turns: int("turns")? as i32,
        frames: int("frames")?,
        players: Default::default(),
    };
    for (i, key) in ["player1", "player2"].into_iter().enumerate() {
        let Some(p) = v.get(key) else { continue };
        let path = format!("endStats.{key}");
        let f =
            |k: &str| p.get(k).map(|x| as_f32(x, &format!("{path}.{k}"))).transpose().map(Option::unwrap_or_default);
        let n =
            |k: &str| p.get(k).map(|x| as_i64(x, &format!("{path}.{k}"))).transpose().map(Option::unwrap_or_default);
        let b = |k: &str| p.get(k).and_then(Value::as_bool).unwrap_or(false);
        es.players[i] = PlayerEndStats {
            points_scored: f("points_scored")?,
            dynamic_resource_spent: f("dynamic_resource_spent")?,
            dynamic_resource_destroyed: f("dynamic_resource_destroyed")?,
            dynamic_resource_spoiled: f("dynamic_resource_spoiled")?,
            stationary_resource_spent: f("stationary_resource_spent")?,
            stationary_resource_left_on_board: f("stationary_resource_left_on_board")?,
            crashed: b("crashed"),
            timeout_death: b("timeout_death"),
            time_damage_taken: n("time_damage_taken")?,
            total_computation_time: n("total_computation_time")?,
            name: p.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
        };
    }
    Ok(es)
}
