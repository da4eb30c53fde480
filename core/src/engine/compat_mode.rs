//! Season compatibility mode below 5 with a current-format config: the official engine then
//! plays the 2018–2019 protocol and rules, and first rewrites the config in the 2018–2019
//! keys. What it writes is known from the real replays in `compat-mode-4` (docs/protocol.md, Legacy compatibility mode;
//! docs/fidelity.md): the config line they carry is that rewrite, and this module reproduces
//! it key for key — including what it loses (the Support's shield, upgrades, refund and
//! removal settings, which come back from the `mechanics` defaults).

use serde_json::{Map, Value, json};

/// The season compatibility mode the current engine plays (the current configs say 5).
pub(crate) const CURRENT_COMPATIBILITY_MODE: i64 = 5;

const MODE_KEYS: [&str; 2] = ["seasonCompatibilityModeP1", "seasonCompatibilityModeP2"];

/// The legacy rewrite of `config` when it is a current-format config whose players both
/// ask for a compatibility mode below 5; `None` when no rewrite applies (the modes are
/// checked by `Config::check_simulated`).
pub(crate) fn legacy_rewrite(config: &Value) -> Option<Value> {
    let root = config.as_object()?;
    let infos = root.get("unitInformation")?.as_array()?;
    if infos.iter().any(|u| u.get("stability").is_some()) {
        return None;
    }
    let modes: Vec<Option<i64>> = MODE_KEYS.iter().map(|k| root.get(*k).and_then(Value::as_i64)).collect();
    if !modes.iter().all(|m| m.is_some_and(|m| m < CURRENT_COMPATIBILITY_MODE)) {
        return None;
    }
    let mut out = Map::new();
    if let Some(debug) = root.get("debug") {
        out.insert("debug".into(), debug.clone());
    }
    let units: Vec<Value> = infos.iter().take(7).enumerate().map(|(i, u)| legacy_unit(i, u)).collect();
    out.insert("unitInformation".into(), Value::Array(units));
    if let Some(timing) = root.get("timingAndReplay") {
        out.insert("timingAndReplay".into(), timing.clone());
    }
    out.insert("resources".into(), legacy_resources(root.get("resources")));
    out.insert(
        "mechanics".into(),
        json!({
            "basePlayerHealthDamage": 1.0, "damageGrowthBasedOnY": 0, "bitsCanStackOnDeployment": true,
            "destroyOwnUnitRefund": 0.75, "destroyOwnUnitsEnabled": true, "stepsRequiredSelfDestruct": 5,
            "selfDestructRadius": 1.5, "shieldDecayPerFrame": 0.0, "meleeMultiplier": 0, "destroyOwnUnitDelay": 1,
            "rerouteMidRound": true, "firewallBuildTime": 0
        }),
    );
    Some(Value::Object(out))
}

fn number(u: &Value, key: &str) -> f64 {
    u.get(key).and_then(Value::as_f64).unwrap_or(0.0)
}

fn text(u: &Value, key: &str) -> Value {
    u.get(key).cloned().unwrap_or(Value::String(String::new()))
}

/// One unit entry in the legacy keys, in the order the official rewrite writes them.
fn legacy_unit(index: usize, u: &Value) -> Value {
    let mut m = Map::new();
    let f = |v: f64| json!(v);
    match index {
        0..=2 => {
            m.insert("damage".into(), f(number(u, "attackDamageWalker")));
            m.insert("cost".into(), f(number(u, "cost1")));
            m.insert("getHitRadius".into(), f(number(u, "getHitRadius")));
            if index == 1 {
                // The real rewrite carries no shield: `shieldAmount` is 0 (docs/protocol.md, Legacy
                // compatibility mode).
                m.insert("shieldAmount".into(), f(0.0));
            }
            m.insert("display".into(), text(u, "display"));
            let range = if index == 1 { number(u, "shieldRange") } else { number(u, "attackRange") };
            m.insert("range".into(), f(range));
            m.insert("shorthand".into(), text(u, "shorthand"));
            m.insert("stability".into(), f(number(u, "startHealth")));
        }
        3..=5 => {
            m.insert("damageToPlayer".into(), f(number(u, "playerBreachDamage")));
            m.insert("cost".into(), f(number(u, "cost2")));
            m.insert("getHitRadius".into(), f(number(u, "getHitRadius")));
            m.insert("damageF".into(), f(number(u, "attackDamageTower")));
            m.insert("display".into(), text(u, "display"));
            m.insert("damageI".into(), f(number(u, "attackDamageWalker")));
            m.insert("range".into(), f(number(u, "attackRange")));
            m.insert("shorthand".into(), text(u, "shorthand"));
            m.insert("stability".into(), f(number(u, "startHealth")));
            m.insert("speed".into(), f(number(u, "speed")));
        }
        _ => {
            m.insert("display".into(), text(u, "display"));
            m.insert("shorthand".into(), text(u, "shorthand"));
        }
    }
    Value::Object(m)
}

/// The resources in the legacy order, with the breach reward as `coresForPlayerDamage`.
fn legacy_resources(resources: Option<&Value>) -> Value {
    let empty = Value::Object(Map::new());
    let r = resources.unwrap_or(&empty);
    let mut m = Map::new();
    for key in [
        "turnIntervalForBitCapSchedule",
        "turnIntervalForBitSchedule",
        "bitRampBitCapGrowthRate",
        "roundStartBitRamp",
        "bitGrowthRate",
        "startingHP",
        "maxBits",
        "bitsPerRound",
        "coresPerRound",
        "coresForPlayerDamage",
        "startingBits",
        "bitDecayPerRound",
        "startingCores",
    ] {
        let value = if key == "coresForPlayerDamage" { json!(1.0) } else { r.get(key).cloned().unwrap_or(json!(0.0)) };
        m.insert(key.into(), value);
    }
    Value::Object(m)
}
