//! An explaining variant of the engine's target choice (docs/mechanics.md, Targeting): which unit an
//! attacker picks and which criterion of the targeting order decided it. Used by the
//! debugger; the engine records it per attack when `Game::target_log` is enabled
//! (`target_log.rs`).

use super::game::Game;
use super::geometry::Player;
use super::mechanics::LegacyBuild;
use super::target_log::Criterion;
use super::unit::{Fate, Unit};

impl Criterion {
    pub fn label(self) -> &'static str {
        match self {
            Criterion::Single => "only unit in range",
            Criterion::MobileBeforeStructure => "mobile units before structures",
            Criterion::Distance => "nearest",
            Criterion::Health => "lowest health",
            Criterion::Row => "nearest own back row",
            Criterion::Side => "nearest a side edge",
            Criterion::Id => "newest unit",
        }
    }

    /// The label under the rules a game ran with (see `TargetRules`).
    pub fn label_for(self, rules: TargetRules) -> &'static str {
        match self {
            Criterion::Health if rules.health_without_shields => "lowest health (without shields)",
            Criterion::Id if rules.ids_as_text => "newest unit (id compared as text)",
            _ => self.label(),
        }
    }
}

/// Where an engine build's target order differs from the current one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TargetRules {
    /// Health compared without shields: a shielded Demolisher (5 + 12) was hit before an
    /// unshielded Scout (11) at the same distance (the early-2020 build), a shielded Scrambler
    /// (40 + 2.8) before an unshielded one (40) on the same tile (a 2018-rules run of January
    /// 2019); docs/fidelity.md.
    pub health_without_shields: bool,
    /// "Newest" compared ids as decimal strings, so "99" beats "100": the early-2020 build
    /// (all 4,023 fully tied attacks of its replays) and the 2018 engine (a Destructor
    /// working through Scramblers 95–102 hit 99, 98, 97, 96 in turn).
    pub ids_as_text: bool,
}

impl TargetRules {
    /// The rules of the build a game runs under. The 2019 replays hold no tie across a
    /// digit boundary, nor an attack that shields decide; they sit between builds that
    /// compared ids as text and health without shields, and are taken to do the same. The
    /// August 2018 build compares health with shields (its one attack that tells the two
    /// apart, turn 15 frame 63 of the kit's run, hit Scrambler 250, the lowest with shields,
    /// of three at 40 without).
    pub fn of(early_2020: bool, legacy: bool, build: LegacyBuild) -> TargetRules {
        let with_shields = build == LegacyBuild::August2018;
        TargetRules {
            health_without_shields: (early_2020 || legacy) && !with_shields,
            ids_as_text: early_2020 || legacy,
        }
    }
}

/// The targeting key (docs/mechanics.md, Targeting): the smaller key wins, compared field by
/// field in this order. The engine's tick and the explaining variant both use it.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub(crate) struct Key {
    /// Mobile units (false) before structures.
    pub structure: bool,
    /// Nearest: the squared distance.
    pub distance2: i32,
    /// Weakest: the health targeting sees.
    pub health: f32,
    /// Nearest the attacker's own back row: `y` for a player-1 attacker, `−y` for player 2.
    pub row: i32,
    /// Nearest a side edge: minus the distance from the middle column, doubled.
    pub side: i32,
    /// Newest: the id's rank, reversed.
    pub newest: u64,
}

/// The key of target `t` for attacker `a` at squared distance `d2` under `rules`.
#[inline]
pub(crate) fn target_key(a: &Unit, t: &Unit, d2: i32, rules: TargetRules) -> Key {
    let row = if a.owner == Player::One { t.tile.y } else { -t.tile.y };
    let side = -(2 * t.tile.x - 27).abs();
    let health = if rules.health_without_shields { t.base_health } else { t.health };
    Key {
        structure: t.is_structure,
        distance2: d2,
        health,
        row,
        side,
        newest: u64::MAX - id_order(t.id, rules.ids_as_text),
    }
}

/// The rank of an id in the last tie-break; the highest rank wins. Current engines compare
/// ids as numbers; older builds as decimal strings (`TargetRules::ids_as_text`). The string
/// order is encoded as base-11 digits `d + 1`, left-aligned to 10 places with 0 (shorter)
/// padding.
#[inline]
pub(crate) fn id_order(id: u32, as_text: bool) -> u64 {
    if !as_text {
        return u64::from(id);
    }
    let digits = id.checked_ilog10().unwrap_or(0) + 1;
    let mut rank = 0u64;
    let mut rest = id;
    for place in 0..10 {
        // The digit at this place, counted from the left; 0 once past the last digit.
        let d = if place < digits {
            let p = 10u32.pow(digits - 1 - place);
            let d = rest / p;
            rest %= p;
            u64::from(d) + 1
        } else {
            0
        };
        rank = rank * 11 + d;
    }
    rank
}

fn key(game: &Game, a: &Unit, t: &Unit) -> Key {
    target_key(a, t, a.tile.dist2(t.tile), game.target_rules())
}

fn less(a: &Key, b: &Key) -> bool {
    a.partial_cmp(b).is_some_and(|o| o.is_lt())
}

/// The first key component in which `best` and `other` differ.
fn deciding(best: &Key, other: &Key) -> Criterion {
    if best.structure != other.structure {
        Criterion::MobileBeforeStructure
    } else if best.distance2 != other.distance2 {
        Criterion::Distance
    } else if best.health != other.health {
        Criterion::Health
    } else if best.row != other.row {
        Criterion::Row
    } else if best.side != other.side {
        Criterion::Side
    } else {
        Criterion::Id
    }
}

/// The target the unit at `attacker` (an index into `game.units`) would hit now, as a unit
/// index, and the criterion that decided it. Agrees with the engine's choice when called
/// at the attack step of a tick (the engine calls it there when `target_log` is on).
pub(crate) fn explain_target(game: &Game, attacker: usize) -> Option<(usize, Criterion)> {
    let a = game.units.get(attacker)?;
    let config = &game.config;
    let reach = &config.reach;
    if !reach.can_attack[a.form()] || a.fate == Fate::Breaching {
        return None;
    }
    let form = config.form(a.unit_type as usize, a.upgraded);
    let hits_structures = form.damage_tower > 0.0;
    let mut best: Option<(usize, Key)> = None;
    let mut second: Option<Key> = None;
    for (j, t) in game.units.iter().enumerate() {
        if t.owner == a.owner || t.is_dead_below(config.death_threshold) || t.fate != Fate::Active {
            continue;
        }
        if t.is_structure && (!hits_structures || game.structure_at[t.tile.index()] != t.id) {
            continue;
        }
        if a.tile.dist2(t.tile) > reach.attack[a.form()][t.form()] {
            continue;
        }
        let k = key(game, a, t);
        match &best {
            Some((_, b)) if !less(&k, b) => {
                if second.as_ref().is_none_or(|s| less(&k, s)) {
                    second = Some(k);
                }
            }
            _ => {
                second = best.map(|(_, b)| b);
                best = Some((j, k));
            }
        }
    }
    let (j, b) = best?;
    Some((j, second.map_or(Criterion::Single, |s| deciding(&b, &s))))
}

#[cfg(test)]
mod tests {
    use super::{Criterion, LegacyBuild, TargetRules, id_order};

    #[test]
    fn labels_name_the_rules_of_the_build() {
        let early_2020 = TargetRules::of(true, false, LegacyBuild::Season);
        let legacy = TargetRules::of(false, true, LegacyBuild::Season);
        let current = TargetRules::of(false, false, LegacyBuild::Season);
        assert_eq!(Criterion::Health.label_for(early_2020), "lowest health (without shields)");
        assert_eq!(Criterion::Id.label_for(early_2020), "newest unit (id compared as text)");
        assert_eq!(Criterion::Health.label_for(legacy), "lowest health (without shields)");
        let august = TargetRules::of(false, true, LegacyBuild::August2018);
        assert_eq!(Criterion::Health.label_for(august), "lowest health");
        assert_eq!(Criterion::Id.label_for(legacy), "newest unit (id compared as text)");
        assert_eq!(Criterion::Health.label_for(current), "lowest health");
        assert_eq!(Criterion::Id.label_for(current), "newest unit");
        assert_eq!(Criterion::Distance.label_for(early_2020), Criterion::Distance.label());
    }

    /// `id_order` as text must sort ids exactly as their decimal strings sort.
    #[test]
    fn id_order_as_text_is_the_decimal_string_order() {
        let ids = [0u32, 1, 2, 9, 10, 11, 19, 99, 100, 101, 109, 110, 999, 1000, 123_456_789, 999_999_999, u32::MAX];
        for &a in &ids {
            for &b in &ids {
                let text = a.to_string().cmp(&b.to_string());
                assert_eq!(id_order(a, true).cmp(&id_order(b, true)), text, "{a} vs {b}");
                assert_eq!(id_order(a, false).cmp(&id_order(b, false)), a.cmp(&b), "{a} vs {b}");
            }
        }
    }
}
