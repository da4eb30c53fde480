//! The `mechanics` block of 2018–2019 configs (docs/config.md, The 2018–2019 format): refunds, removal delay,
//! self-destructs and shield decay, which the current format keeps per unit instead.
//! Every key is read; a value whose rule the engine does not know is reported by
//! `unsimulated`, so such a config is refused rather than played under other rules.

use serde_json::{Map, Value};

/// The keys of a `mechanics` block, with the values the 2018–2019 engines were seen to use.
#[derive(Debug, Clone, PartialEq)]
pub struct Mechanics {
    /// Removing one's own structures is allowed.
    pub removals_enabled: bool,
    /// Fraction of the price (times health / start health) refunded on removal.
    pub refund: f32,
    /// Turns from the removal command to the removal.
    pub removal_delay: i32,
    pub self_destruct_steps: i32,
    pub self_destruct_radius: f32,
    /// Shield lost by every shield layer in every action frame.
    pub shield_decay_per_frame: f32,
    /// Melee damage factor: melee events are produced, but only 0 (no damage) is known.
    pub melee_multiplier: f32,
    /// The engine build: not in the config, so it is set from the replay a game comes from
    /// (`replay::reader`).
    pub build: LegacyBuild,
    /// Keys whose value asks for a rule the engine does not know, as `key = value`.
    unknown_rules: Vec<String>,
}

/// A 2018–2019 engine build whose rules differ from the season builds' (docs/fidelity.md,
/// "The 2018–2019 engines").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LegacyBuild {
    /// The season builds of late 2018 and 2019: every unit within reach of a unit that can
    /// act on it answers it in melee; a unit breaches when it has no step left.
    #[default]
    Season,
    /// The August 2018 build, recognised by its death events without the `removed` flag:
    /// only adjacent enemy mobile units meet in melee, and a unit breaches as it steps onto
    /// its edge.
    August2018,
    /// The October 2018 local build, recognised by a config without `waitTimeStartGame` in a
    /// replay whose frames record computation time: the season rules, except that a crash is
    /// scored as a hit on the crashed player, which earns the opponent the breach reward
    /// (`coresForPlayerDamage`) once.
    October2018,
}

/// A key whose only known value is `known` (the one every real legacy replay has): any other
/// value is a rule no replay shows.
fn expect(obj: &Map<String, Value>, key: &str, known: f64, unknown: &mut Vec<String>) {
    if let Some(v) = obj.get(key) {
        let value = v.as_f64().or_else(|| v.as_bool().map(|b| if b { 1.0 } else { 0.0 }));
        if value != Some(known) {
            unknown.push(format!("mechanics.{key} = {v}"));
        }
    }
}

fn number(obj: &Map<String, Value>, key: &str, default: f64, unknown: &mut Vec<String>) -> f64 {
    match obj.get(key) {
        None => default,
        Some(v) => v.as_f64().or_else(|| v.as_bool().map(|b| if b { 1.0 } else { 0.0 })).unwrap_or_else(|| {
            unknown.push(format!("mechanics.{key} = {v} (not a number)"));
            default
        }),
    }
}

impl Mechanics {
    /// Reads a `mechanics` object. Absent keys take the values of the 2019 configs.
    pub fn read(obj: &Map<String, Value>) -> Mechanics {
        let mut unknown = Vec::new();
        let removals_enabled = number(obj, "destroyOwnUnitsEnabled", 1.0, &mut unknown) != 0.0;
        let refund = number(obj, "destroyOwnUnitRefund", 0.75, &mut unknown) as f32;
        let removal_delay = number(obj, "destroyOwnUnitDelay", 1.0, &mut unknown) as i32;
        let self_destruct_steps = number(obj, "stepsRequiredSelfDestruct", 5.0, &mut unknown) as i32;
        let self_destruct_radius = number(obj, "selfDestructRadius", 1.5, &mut unknown) as f32;
        let shield_decay_per_frame = number(obj, "shieldDecayPerFrame", 0.0, &mut unknown) as f32;
        let melee_multiplier = number(obj, "meleeMultiplier", 0.0, &mut unknown) as f32;
        if melee_multiplier != 0.0 {
            unknown.push(format!("mechanics.meleeMultiplier = {melee_multiplier} (only 0 is known)"));
        }
        if removal_delay < 1 {
            unknown.push(format!("mechanics.destroyOwnUnitDelay = {removal_delay} (only 1 or more is known)"));
        }
        // Keys every known legacy config sets to one value; what another value does is unknown.
        expect(obj, "basePlayerHealthDamage", 1.0, &mut unknown);
        expect(obj, "damageGrowthBasedOnY", 0.0, &mut unknown);
        expect(obj, "rerouteMidRound", 1.0, &mut unknown);
        expect(obj, "bitsCanStackOnDeployment", 1.0, &mut unknown);
        expect(obj, "firewallBuildTime", 0.0, &mut unknown);
        const KNOWN: &[&str] = &[
            "destroyOwnUnitsEnabled",
            "destroyOwnUnitRefund",
            "destroyOwnUnitDelay",
            "stepsRequiredSelfDestruct",
            "selfDestructRadius",
            "shieldDecayPerFrame",
            "meleeMultiplier",
            "basePlayerHealthDamage",
            "damageGrowthBasedOnY",
            "rerouteMidRound",
            "bitsCanStackOnDeployment",
            "firewallBuildTime",
        ];
        unknown.extend(obj.keys().filter(|k| !KNOWN.contains(&k.as_str())).map(|k| format!("mechanics.{k}")));
        Mechanics {
            removals_enabled,
            refund,
            removal_delay,
            self_destruct_steps,
            self_destruct_radius,
            shield_decay_per_frame,
            melee_multiplier,
            build: LegacyBuild::Season,
            unknown_rules: unknown,
        }
    }

    /// The keys (with their values) that ask for rules the engine does not simulate.
    pub(crate) fn unsimulated(&self) -> &[String] {
        &self.unknown_rules
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Mechanics {
        let v: Value = serde_json::from_str(json).expect("test JSON");
        Mechanics::read(v.as_object().expect("object"))
    }

    #[test]
    fn the_2018_block_is_simulated() {
        let m = read(
            r#"{"basePlayerHealthDamage":1,"damageGrowthBasedOnY":0,"bitsCanStackOnDeployment":true,
            "destroyOwnUnitRefund":0.5,"destroyOwnUnitsEnabled":true,"stepsRequiredSelfDestruct":5,
            "selfDestructRadius":1.5,"shieldDecayPerFrame":0.15,"meleeMultiplier":0,"destroyOwnUnitDelay":1,
            "rerouteMidRound":true,"firewallBuildTime":0}"#,
        );
        assert!(m.unsimulated().is_empty(), "{:?}", m.unsimulated());
        assert_eq!((m.refund, m.removal_delay, m.shield_decay_per_frame), (0.5, 1, 0.15));
    }

    #[test]
    fn unknown_values_and_keys_are_named() {
        let m = read(r#"{"meleeMultiplier":0.5,"firewallBuildTime":2,"rerouteMidRound":false,"newRule":1}"#);
        let keys = m.unsimulated().join("; ");
        for k in ["meleeMultiplier", "firewallBuildTime = 2", "rerouteMidRound = false", "mechanics.newRule"] {
            assert!(keys.contains(k), "{k} missing from {keys}");
        }
    }
}
