//! Reading a config from its JSON (`game-configs.json`, docs/config.md): every key the
//! engine uses, checked and named in the errors, the 2018–2019 formats folded in.

use super::config::{
    Config, ConfigError, ConfigLoadError, DEATH_THRESHOLD, REMOVE, ReachTable, ResourceRules, SCOUT, SUPPORT,
    TimingRules, UNIT_TYPES, UPGRADE, UnitStats,
};
use super::mechanics::Mechanics;
use serde_json::{Map, Value};

fn err(field: impl Into<String>, message: impl Into<String>) -> ConfigError {
    ConfigError { field: field.into(), message: message.into() }
}

fn num(obj: &Map<String, Value>, key: &str, path: &str) -> Result<Option<f32>, ConfigError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => {
            n.as_f64().map(|v| Some(v as f32)).ok_or_else(|| err(format!("{path}.{key}"), "not a finite number"))
        }
        Some(Value::Bool(b)) => Ok(Some(if *b { 1.0 } else { 0.0 })),
        Some(other) => Err(err(format!("{path}.{key}"), format!("expected a number, found {}", kind_of(other)))),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn text(obj: &Map<String, Value>, key: &str) -> Option<String> {
    obj.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// Reads one unit entry's gameplay keys, starting from `base` (copy-then-patch).
fn read_unit(
    obj: &Map<String, Value>,
    path: &str,
    base: &UnitStats,
    legacy_index: Option<usize>,
) -> Result<UnitStats, ConfigError> {
    let mut u = base.clone();
    u.upgrade = None;
    if let Some(s) = text(obj, "shorthand") {
        u.shorthand = s;
    }
    if let Some(s) = text(obj, "display") {
        u.display = s;
    }
    macro_rules! set {
        ($field:ident, $key:expr) => {
            if let Some(v) = num(obj, $key, path)? {
                u.$field = v;
            }
        };
        ($field:ident, $key:expr, int) => {
            if let Some(v) = num(obj, $key, path)? {
                u.$field = v as i32;
            }
        };
    }
    if let Some(c) = num(obj, "unitCategory", path)? {
        u.is_structure = c == 0.0;
    }
    set!(start_health, "startHealth");
    set!(cost_sp, "cost1");
    set!(cost_mp, "cost2");
    set!(hit_radius, "getHitRadius");
    set!(attack_range, "attackRange");
    set!(damage_walker, "attackDamageWalker");
    set!(damage_tower, "attackDamageTower");
    set!(shield_range, "shieldRange");
    set!(shield_per_unit, "shieldPerUnit");
    set!(shield_bonus_per_y, "shieldBonusPerY");
    set!(shield_decay, "shieldDecay");
    set!(refund_percentage, "refundPercentage");
    set!(turns_to_remove, "turnsRequiredToRemove", int);
    set!(generates_mp, "generatesResource1");
    set!(generates_sp, "generatesResource2");
    set!(speed, "speed");
    set!(breach_damage, "playerBreachDamage");
    set!(breach_reward_sp, "metalForBreach");
    set!(sd_damage_walker, "selfDestructDamageWalker");
    set!(sd_damage_tower, "selfDestructDamageTower");
    set!(sd_range, "selfDestructRange");
    set!(sd_steps_required, "selfDestructStepsRequired", int);
    if let Some(index) = legacy_index {
        // 2018–2019 keys (docs/config.md, The 2018–2019 format).
        u.is_structure = index < SCOUT;
        if let Some(c) = num(obj, "cost", path)? {
            if u.is_structure { u.cost_sp = c } else { u.cost_mp = c }
        }
        set!(start_health, "stability");
        if let Some(r) = num(obj, "range", path)? {
            if index == SUPPORT { u.shield_range = r } else { u.attack_range = r }
        }
        if let Some(d) = num(obj, "damage", path)? {
            u.damage_walker = d;
        }
        set!(damage_walker, "damageI");
        set!(damage_tower, "damageF");
        set!(shield_per_unit, "shieldAmount");
        set!(breach_damage, "damageToPlayer");
    }
    Ok(u)
}

/// Folds a 2018–2019 `mechanics` block into the unit stats the engine reads: refund and
/// removal delay of structures, self-destruct steps and radius of mobile units (a blast
/// deals the unit's start health, as the 2018 replays show), shield decay of shields.
fn apply_mechanics(units: &mut [UnitStats], m: &Mechanics) {
    for u in units.iter_mut() {
        if u.is_structure {
            u.refund_percentage = m.refund;
            u.turns_to_remove = m.removal_delay;
            if u.shield_per_unit > 0.0 {
                u.shield_decay = m.shield_decay_per_frame;
            }
        } else {
            u.sd_steps_required = m.self_destruct_steps;
            u.sd_range = m.self_destruct_radius;
            u.sd_damage_walker = u.start_health;
            u.sd_damage_tower = u.start_health;
        }
    }
}

/// The stats of the first `UNIT_TYPES` entries of `unitInformation`, each with its upgrade.
fn read_units(infos: &[Value], legacy: bool) -> Result<Vec<UnitStats>, ConfigError> {
    let mut units = Vec::with_capacity(UNIT_TYPES);
    for (i, info) in infos.iter().take(UNIT_TYPES).enumerate() {
        let path = format!("unitInformation[{i}]");
        let obj = info.as_object().ok_or_else(|| err(&path, "not an object"))?;
        let mut base = UnitStats { is_structure: i < SCOUT, ..UnitStats::default() };
        base = read_unit(obj, &path, &base, legacy.then_some(i))?;
        if base.shorthand.is_empty() {
            return Err(err(format!("{path}.shorthand"), "missing"));
        }
        if let Some(up) = obj.get("upgrade") {
            let up_path = format!("{path}.upgrade");
            let up_obj = up.as_object().ok_or_else(|| err(&up_path, "not an object"))?;
            let upgraded = read_unit(up_obj, &up_path, &base, legacy.then_some(i))?;
            base.upgrade = Some(Box::new(upgraded));
        }
        units.push(base);
    }
    Ok(units)
}

/// The `resources` object (a missing number is 0; a `maxBits` of 0 or less is no cap).
fn read_resources(res: &Map<String, Value>) -> Result<ResourceRules, ConfigError> {
    let r = |k: &str| num(res, k, "resources").map(|v| v.unwrap_or(0.0));
    let mut resources = ResourceRules {
        starting_hp: r("startingHP")?,
        starting_sp: r("startingCores")?,
        starting_mp: r("startingBits")?,
        sp_per_round: r("coresPerRound")?,
        mp_per_round: r("bitsPerRound")?,
        mp_growth_rate: r("bitGrowthRate")?,
        round_start_mp_ramp: r("roundStartBitRamp")? as i32,
        turn_interval_mp_schedule: r("turnIntervalForBitSchedule")? as i32,
        mp_decay_per_round: r("bitDecayPerRound")?,
        max_mp: r("maxBits")?,
        mp_cap_growth_rate: r("bitRampBitCapGrowthRate")?,
        turn_interval_mp_cap_schedule: r("turnIntervalForBitCapSchedule")? as i32,
    };
    if resources.max_mp <= 0.0 {
        resources.max_mp = f32::MAX;
    }
    Ok(resources)
}

/// The `timingAndReplay` object over the defaults.
fn read_timing(tim: &Map<String, Value>) -> Result<TimingRules, ConfigError> {
    let mut timing = TimingRules::default();
    let t = |k: &str| num(tim, k, "timingAndReplay");
    if let Some(v) = t("waitTimeBotSoft")? {
        timing.soft_ms = v.max(0.0) as u64;
    }
    if let Some(v) = t("waitTimeBotMax")? {
        timing.max_ms = v.max(0.0) as u64;
    }
    if let Some(v) = t("waitTimeStartGame")? {
        timing.start_game_ms = v.max(0.0) as u64;
    }
    if let Some(v) = t("waitTimeEndGame")? {
        timing.end_game_ms = v.max(0.0) as u64;
    }
    if let Some(v) = t("replaySave")? {
        timing.replay_save = v as i64;
    }
    timing.wait_forever = tim.get("waitForever").and_then(Value::as_bool).unwrap_or(false);
    timing.store_bot_times = tim.get("storeBotTimes").and_then(Value::as_bool).unwrap_or(true);
    Ok(timing)
}

impl Config {
    /// Parses a config from JSON text (`origin` names the file in errors).
    pub fn from_json_str(text: &str) -> Result<Config, ConfigError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| err("", format!("invalid JSON at line {} column {}: {e}", e.line(), e.column())))?;
        Config::from_value(value)
    }

    /// Loads a config file from disk, naming the file in any error.
    pub fn load(path: &std::path::Path) -> Result<Config, ConfigLoadError> {
        let text = crate::files::read_to_string(path)
            .map_err(|source| ConfigLoadError::Io { path: path.to_path_buf(), source })?;
        Config::from_json_str(&text).map_err(|source| ConfigLoadError::Invalid { path: path.to_path_buf(), source })
    }

    pub fn from_value(value: Value) -> Result<Config, ConfigError> {
        if let Some(rewritten) = super::compat_mode::legacy_rewrite(&value) {
            return Config::from_value(rewritten);
        }
        let root = value.as_object().ok_or_else(|| err("", "the config is not a JSON object"))?;
        let infos = root
            .get("unitInformation")
            .and_then(Value::as_array)
            .ok_or_else(|| err("unitInformation", "missing or not a list"))?;
        if infos.len() < 7 {
            return Err(err("unitInformation", format!("expected at least 7 unit entries, found {}", infos.len())));
        }
        let legacy = infos.iter().any(|u| u.get("stability").is_some());
        let mut units = read_units(infos, legacy)?;
        let shorthand_at =
            |i: usize| infos.get(i).and_then(|u| u.get("shorthand")).and_then(Value::as_str).map(str::to_owned);
        let remove_shorthand = shorthand_at(REMOVE).ok_or_else(|| err("unitInformation[6].shorthand", "missing"))?;
        let upgrade_shorthand = shorthand_at(UPGRADE).unwrap_or_default();

        let empty = Map::new();
        let res = root.get("resources").and_then(Value::as_object).unwrap_or(&empty);
        let resources = read_resources(res)?;
        if let Some(reward) = num(res, "coresForPlayerDamage", "resources")?.filter(|_| legacy) {
            for u in units.iter_mut().filter(|u| !u.is_structure) {
                u.breach_reward_sp = reward;
            }
        }

        let mechanics = root.get("mechanics").and_then(Value::as_object).map(Mechanics::read);
        if let Some(m) = mechanics.as_ref().filter(|_| legacy) {
            apply_mechanics(&mut units, m);
        }

        let timing = read_timing(root.get("timingAndReplay").and_then(Value::as_object).unwrap_or(&empty))?;
        let reach = ReachTable::new(&units, legacy);
        let death_threshold = if legacy { 0.0 } else { DEATH_THRESHOLD };
        Ok(Config {
            units,
            remove_shorthand,
            upgrade_shorthand,
            resources,
            timing,
            legacy,
            mechanics,
            death_threshold,
            raw: value,
            reach,
        })
    }
}
