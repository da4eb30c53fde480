//! `game-configs.json`: every number the engine uses, read from the config (docs/config.md).

use super::geometry::span_mask;
use super::mechanics::{LegacyBuild, Mechanics};
use serde_json::Value;
use std::fmt;

/// Unit type indices (the index into `unitInformation` and into each frame's unit lists).
pub const WALL: usize = 0;
pub const SUPPORT: usize = 1;
pub const TURRET: usize = 2;
pub const SCOUT: usize = 3;
pub const DEMOLISHER: usize = 4;
pub const INTERCEPTOR: usize = 5;
pub const REMOVE: usize = 6;
pub const UPGRADE: usize = 7;
/// Number of real unit types (structures and mobiles).
pub const UNIT_TYPES: usize = 6;

/// A config that could not be read, with the JSON path of the offending field.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    pub field: String,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "field `{}`: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for ConfigError {}

/// A ruleset that could not be had: a config file unreadable or invalid, or a name that is
/// neither a preset nor a file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigLoadError {
    #[error("{}: {source}", path.display())]
    Io { path: std::path::PathBuf, source: std::io::Error },
    #[error("{}: {source}", path.display())]
    Invalid { path: std::path::PathBuf, source: ConfigError },
    #[error("`{spec}` is neither a preset ({presets}) nor a config file")]
    Unknown { spec: String, presets: String },
}

/// The gameplay properties of one unit type (one form: base or upgraded).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UnitStats {
    pub shorthand: String,
    pub display: String,
    pub is_structure: bool,
    pub start_health: f32,
    pub cost_sp: f32,
    pub cost_mp: f32,
    pub hit_radius: f32,
    pub attack_range: f32,
    pub damage_walker: f32,
    pub damage_tower: f32,
    pub shield_range: f32,
    pub shield_per_unit: f32,
    pub shield_bonus_per_y: f32,
    pub shield_decay: f32,
    pub refund_percentage: f32,
    pub turns_to_remove: i32,
    pub generates_mp: f32,
    pub generates_sp: f32,
    pub speed: f32,
    pub breach_damage: f32,
    pub breach_reward_sp: f32,
    pub sd_damage_walker: f32,
    pub sd_damage_tower: f32,
    pub sd_range: f32,
    pub sd_steps_required: i32,
    /// The upgraded form (copy of this entry patched with `upgrade`), if the type has one.
    pub upgrade: Option<Box<UnitStats>>,
}

impl UnitStats {
    pub(crate) fn can_attack(&self) -> bool {
        self.attack_range > 0.0 && (self.damage_walker > 0.0 || self.damage_tower > 0.0)
    }

    pub(crate) fn can_shield(&self) -> bool {
        self.shield_range > 0.0 && (self.shield_per_unit > 0.0 || self.shield_bonus_per_y > 0.0)
    }

    /// Shield granted by a Support of this form standing `rows` from its owner's back row.
    pub(crate) fn shield_amount(&self, rows: i32) -> f32 {
        self.shield_per_unit + self.shield_bonus_per_y * rows as f32
    }
}

/// Squared reach: a tile at squared distance `d2` is reached iff `d2 <= reach2(range, radius)`.
pub fn reach2(range: f32, hit_radius: f32) -> i32 {
    let r = range as f64 + hit_radius as f64;
    (r * r).floor() as i32
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResourceRules {
    pub starting_hp: f32,
    pub starting_sp: f32,
    pub starting_mp: f32,
    pub sp_per_round: f32,
    pub mp_per_round: f32,
    pub mp_growth_rate: f32,
    pub round_start_mp_ramp: i32,
    pub turn_interval_mp_schedule: i32,
    pub mp_decay_per_round: f32,
    pub max_mp: f32,
    pub mp_cap_growth_rate: f32,
    pub turn_interval_mp_cap_schedule: i32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TimingRules {
    pub soft_ms: u64,
    pub max_ms: u64,
    pub start_game_ms: u64,
    pub end_game_ms: u64,
    pub wait_forever: bool,
    pub replay_save: i64,
    pub store_bot_times: bool,
}

impl Default for TimingRules {
    fn default() -> Self {
        TimingRules {
            soft_ms: 5000,
            max_ms: 35000,
            start_game_ms: 3000,
            end_game_ms: 3000,
            wait_forever: false,
            replay_save: 1,
            store_bot_times: true,
        }
    }
}

/// Number of unit forms: each of the 6 types, base and upgraded.
pub(crate) const FORMS: usize = UNIT_TYPES * 2;
/// Columns (or rows) of the board.
const BOARD_LINES: usize = super::geometry::BOARD_SIZE as usize;

/// Health at or below which a unit is dead (docs/mechanics.md, Death and Assumptions).
pub(crate) const DEATH_THRESHOLD: f32 = 0.001;

/// Index of a unit form in the reach tables.
pub(crate) fn form_index(unit_type: usize, upgraded: bool) -> usize {
    unit_type * 2 + upgraded as usize
}

/// What one attack of a form takes from its target.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Damage {
    pub walker: f32,
    pub tower: f32,
}

/// Squared reaches precomputed for every (acting form, target form) pair, so the hot loops
/// compare integers only. The target's hit radius is added (docs/config.md, Reach).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReachTable {
    /// Per form: has an attack / a shield (hot-loop filters).
    pub can_attack: [bool; FORMS],
    pub can_shield: [bool; FORMS],
    /// Per form: the damage of one attack on a mobile unit and on a structure.
    pub damage: [Damage; FORMS],
    /// True if any Support form's shields decay.
    pub any_shield_decay: bool,
    /// True if any form generates resources at the turn's restore (most rulesets: none).
    pub any_generator: bool,
    /// Per form: the largest whole-tile offset its attack can reach on either axis.
    pub attack_box: [i32; FORMS],
    /// Per form: the same for its shield.
    pub shield_box: [i32; FORMS],
    /// Per form and board line (a column or a row): the lines of its attack box around a
    /// unit on that line, as a bit mask clipped to the board (0 if it reaches nothing), so a
    /// moving attacker's box costs two loads a tick.
    pub attack_span: [[u32; BOARD_LINES]; FORMS],
    pub attack: [[i32; FORMS]; FORMS],
    /// Per form: its attack's squared reach to a structure when every structure form has
    /// the same (the usual case: one hit radius for all), so a search need not look at the
    /// structure's form; `None` otherwise.
    pub attack_on_structures: [Option<i32>; FORMS],
    pub shield: [[i32; FORMS]; FORMS],
    pub self_destruct: [[i32; FORMS]; FORMS],
}

impl ReachTable {
    pub(super) fn new(units: &[UnitStats], legacy: bool) -> ReachTable {
        let form = |i: usize| -> &UnitStats {
            let base = &units[i / 2];
            match (&base.upgrade, i % 2 == 1) {
                (Some(up), true) => up,
                _ => base,
            }
        };
        let any_generator = units
            .iter()
            .flat_map(|u| std::iter::once(u).chain(u.upgrade.as_deref()))
            .any(|f| f.generates_mp != 0.0 || f.generates_sp != 0.0);
        let mut t = ReachTable { any_generator, ..ReachTable::default() };
        for a in 0..FORMS.min(units.len() * 2) {
            t.can_attack[a] = form(a).can_attack();
            t.can_shield[a] = form(a).can_shield();
            t.damage[a] = Damage { walker: form(a).damage_walker, tower: form(a).damage_tower };
            t.any_shield_decay |= t.can_shield[a] && form(a).shield_decay > 0.0;
            for b in 0..FORMS.min(units.len() * 2) {
                let (fa, fb) = (form(a), form(b));
                t.attack[a][b] = if fa.attack_range > 0.0 { reach2(fa.attack_range, fb.hit_radius) } else { -1 };
                t.shield[a][b] = if fa.shield_range > 0.0 { reach2(fa.shield_range, fb.hit_radius) } else { -1 };
                // The 2018–2019 blasts reach 1.5 without the victim's hit radius: d2 ≤ 2 hit
                // (614 victims), d2 = 4 never (305 structures in reach otherwise).
                let victim_radius = if legacy { 0.0 } else { fb.hit_radius };
                t.self_destruct[a][b] = if fa.sd_range > 0.0 { reach2(fa.sd_range, victim_radius) } else { -1 };
            }
            let reach_box = |reaches: &[i32; FORMS]| {
                let max = reaches.iter().copied().max().unwrap_or(-1);
                if max >= 0 { (max as f64).sqrt().floor() as i32 } else { -1 }
            };
            let mut on_structures =
                (0..FORMS.min(units.len() * 2)).filter(|&b| form(b).is_structure).map(|b| t.attack[a][b]);
            let first = on_structures.next();
            t.attack_on_structures[a] = first.filter(|&r| on_structures.all(|other| other == r));
            t.attack_box[a] = reach_box(&t.attack[a]);
            t.shield_box[a] = reach_box(&t.shield[a]);
            let r = t.attack_box[a];
            for (line, span) in t.attack_span[a].iter_mut().enumerate() {
                *span = if r < 0 { 0 } else { span_mask(line as i32 - r, line as i32 + r) };
            }
        }
        t
    }
}

/// A parsed game config.
#[derive(Debug, Clone)]
pub struct Config {
    /// Unit types 0–5.
    pub units: Vec<UnitStats>,
    pub remove_shorthand: String,
    pub upgrade_shorthand: String,
    pub resources: ResourceRules,
    pub timing: TimingRules,
    /// True for the 2018–2019 format (`stability` keys, 7 unit lists, no upgrades).
    pub legacy: bool,
    /// The 2018–2019 `mechanics` block, already folded into `units` where it applies.
    pub mechanics: Option<Mechanics>,
    /// Health at or below which a unit is dead: 0.001 (docs/mechanics.md, Assumptions); 0 for the 2018–2019 engines,
    /// where a Ping left with 1.3e-5 health stays on the board.
    pub death_threshold: f32,
    /// The parsed JSON as read, echoed to algos and written into replays.
    pub raw: Value,
    /// Squared reaches of every form pair (derived).
    pub reach: ReachTable,
}

/// A config whose rules the engine does not simulate yet: playing it would play other rules.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the config uses rules the engine does not simulate yet: {}; a game under other rules is not played", keys.join(", "))]
pub struct UnsimulatedRules {
    /// The keys (JSON paths) that ask for those rules.
    pub keys: Vec<String>,
}

impl Config {
    /// The 2018–2019 engine build a game follows (the season builds unless a replay said
    /// otherwise); `Season` for current-format configs, which have no such builds.
    pub fn legacy_build(&self) -> LegacyBuild {
        self.mechanics.as_ref().map(|m| m.build).unwrap_or_default()
    }

    /// Refuses what the engine would play with other rules: a `mechanics` value or key whose
    /// rule is unknown, a `mechanics` block in a current-format config, a 2018–2019 config
    /// without one, a season compatibility mode that does not match the config's format.
    pub fn check_simulated(&self) -> Result<(), UnsimulatedRules> {
        let mut keys = Vec::new();
        match (&self.mechanics, self.legacy) {
            (Some(m), true) => keys.extend(m.unsimulated().iter().cloned()),
            (None, true) => keys.push(
                "mechanics (missing from a 2018–2019 config: its refund and removal rules are unknown)".to_string(),
            ),
            (_, false) => {
                if let Some(m) = self.raw.get("mechanics").and_then(Value::as_object) {
                    keys.extend(m.keys().map(|k| format!("mechanics.{k} (in a current-format config)")));
                }
            }
        }
        for k in ["seasonCompatibilityModeP1", "seasonCompatibilityModeP2"] {
            let Some(v) = self.raw.get(k) else { continue };
            let mode = v.as_i64();
            let legacy_mode = mode.is_some_and(|m| m < super::compat_mode::CURRENT_COMPATIBILITY_MODE);
            if mode.is_none() || mode.is_some_and(|m| m > super::compat_mode::CURRENT_COMPATIBILITY_MODE) {
                keys.push(format!("{k} = {v}"));
            } else if legacy_mode != self.legacy {
                let format = if self.legacy { "a 2018–2019 config" } else { "a current-format config" };
                keys.push(format!("{k} = {v} with {format}"));
            }
        }
        if keys.is_empty() { Ok(()) } else { Err(UnsimulatedRules { keys }) }
    }
}

impl PartialEq for Config {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
    }
}

/// Unit names by type index, per era: the 2018–2019 rules had Filters, Encryptors,
/// Destructors, Pings, EMPs and Scramblers (the configs of every era still carry those
/// names in `display`).
const UNIT_NAMES: [[&str; 6]; 2] = [
    ["Wall", "Support", "Turret", "Scout", "Demolisher", "Interceptor"],
    ["Filter", "Encryptor", "Destructor", "Ping", "EMP", "Scrambler"],
];

/// A unit type's name in the names of its era ("unit" for a type that is not a unit).
pub fn unit_name(unit_type: usize, legacy: bool) -> &'static str {
    UNIT_NAMES[usize::from(legacy)].get(unit_type).copied().unwrap_or("unit")
}

impl Config {
    pub fn unit(&self, unit_type: usize) -> &UnitStats {
        &self.units[unit_type]
    }

    /// The stats of a structure's current form.
    pub fn form(&self, unit_type: usize, upgraded: bool) -> &UnitStats {
        let base = &self.units[unit_type];
        match (&base.upgrade, upgraded) {
            (Some(up), true) => up,
            _ => base,
        }
    }

    /// SP invested in a structure: base price plus the upgrade price if upgraded.
    pub fn invested_sp(&self, unit_type: usize, upgraded: bool) -> f32 {
        let base = &self.units[unit_type];
        match (&base.upgrade, upgraded) {
            (Some(up), true) => base.cost_sp + up.cost_sp,
            _ => base.cost_sp,
        }
    }

    /// The MP a player holding `mp` at the end of turn `turn - 1` starts turn `turn` with: its
    /// MP decayed, then the turn's income, within the turn's cap (as `Game::end_turn` credits).
    pub fn mp_at_start_of(&self, turn: i32, mp: f32) -> f32 {
        use super::resources::round1;
        let decayed = round1(mp * (1.0 - self.resources.mp_decay_per_round));
        round1((decayed + self.mp_income(turn)).min(self.mp_cap(turn)))
    }

    /// MP income credited at the start of turn `turn` (docs/config.md, MP income and cap).
    pub(crate) fn mp_income(&self, turn: i32) -> f32 {
        let r = &self.resources;
        if turn < r.round_start_mp_ramp || r.turn_interval_mp_schedule <= 0 {
            r.mp_per_round
        } else {
            let steps = (turn - r.round_start_mp_ramp) / r.turn_interval_mp_schedule + 1;
            r.mp_per_round + r.mp_growth_rate * steps as f32
        }
    }

    /// The MP cap in force at turn `turn` (docs/config.md, MP income and cap).
    pub(crate) fn mp_cap(&self, turn: i32) -> f32 {
        let r = &self.resources;
        if r.mp_cap_growth_rate > 0.0
            && r.turn_interval_mp_cap_schedule > 0
            && turn >= r.round_start_mp_ramp
            && r.max_mp < f32::MAX
        {
            let steps = (turn - r.round_start_mp_ramp) / r.turn_interval_mp_cap_schedule + 1;
            r.max_mp + r.mp_cap_growth_rate * steps as f32
        } else {
            r.max_mp
        }
    }

    /// Resolves a command shorthand: the first entry whose shorthand contains `token`
    /// (docs/protocol.md, Reading the reply).
    pub fn resolve_shorthand(&self, token: &str) -> Option<usize> {
        if token.is_empty() {
            return None;
        }
        let all = self
            .units
            .iter()
            .map(|u| u.shorthand.as_str())
            .chain([self.remove_shorthand.as_str(), self.upgrade_shorthand.as_str()]);
        all.enumerate().find(|(_, s)| !s.is_empty() && s.contains(token)).map(|(i, _)| i)
    }

    /// The config line sent to algos and written to replays (compact JSON).
    pub fn to_line(&self) -> String {
        serde_json::to_string(&self.raw).unwrap_or_default()
    }
}
