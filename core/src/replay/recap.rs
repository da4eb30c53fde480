//! What one turn's action phase did, told from one player's side in a player's words: the
//! enemy units that got through (where, and the HP it cost), the structures lost, the HP dealt
//! and the enemy structures destroyed. Read from the frames' events alone, so it works the same
//! on a live match, a recorded replay and any era's unit names.

use crate::engine::Config;
use crate::engine::config::unit_name;
use crate::engine::frame::Frame;
use crate::engine::geometry::Player;
use std::collections::BTreeMap;
use std::fmt;

/// One turn's action phase from `player`'s side.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TurnRecap {
    pub turn: i32,
    /// Enemy units that breached, per unit name: how many at each tile.
    pub breaches_taken: BTreeMap<String, BTreeMap<(i32, i32), usize>>,
    pub hp_lost: f32,
    /// Own units that breached, and the HP they took.
    pub breaches_made: usize,
    pub hp_dealt: f32,
    /// Own structures destroyed (removals by the owner are not losses), per unit name.
    pub structures_lost: BTreeMap<String, usize>,
    /// Enemy structures destroyed, per unit name.
    pub structures_destroyed: BTreeMap<String, usize>,
    /// Own mobile units that died short of the enemy's edge (shot down or self-destructed),
    /// and the enemy's, per unit name.
    pub units_lost: BTreeMap<String, usize>,
    pub units_destroyed: BTreeMap<String, usize>,
}

impl TurnRecap {
    /// The recap of `turn` from `player`'s side; `frames` are that turn's action frames (the
    /// turn frame itself may be among them: only deaths in action frames count).
    pub fn of<'a>(
        config: &Config,
        turn: i32,
        frames: impl IntoIterator<Item = &'a Frame>,
        player: Player,
    ) -> TurnRecap {
        let name = |t: u8| unit_name(usize::from(t), config.legacy).to_string();
        let is_structure = |t: u8| config.units.get(usize::from(t)).is_some_and(|u| u.is_structure);
        let mut r = TurnRecap { turn, ..TurnRecap::default() };
        let mut breached = std::collections::HashSet::new();
        for f in frames {
            for b in &f.events.breach {
                if b.owner == player {
                    r.breaches_made += 1;
                    r.hp_dealt += b.damage;
                } else {
                    *r.breaches_taken.entry(name(b.unit_type)).or_default().entry((b.tile.x, b.tile.y)).or_default() +=
                        1;
                    r.hp_lost += b.damage;
                }
            }
            breached.extend(f.events.breach.iter().map(|b| b.id));
            for d in f.events.death.iter().filter(|d| !d.removed) {
                let list = match (is_structure(d.unit_type), d.owner == player) {
                    (true, true) => &mut r.structures_lost,
                    (true, false) => &mut r.structures_destroyed,
                    // A unit that scored is removed with a death event: it was not lost.
                    _ if breached.contains(&d.id) => continue,
                    (false, true) => &mut r.units_lost,
                    (false, false) => &mut r.units_destroyed,
                };
                *list.entry(name(d.unit_type)).or_default() += 1;
            }
        }
        r
    }

    /// True when nothing got through and nothing was destroyed on either side.
    pub fn is_quiet(&self) -> bool {
        self.breaches_taken.is_empty()
            && self.breaches_made == 0
            && self.structures_lost.is_empty()
            && self.structures_destroyed.is_empty()
            && self.units_lost.is_empty()
            && self.units_destroyed.is_empty()
    }
}

/// "3 Scouts", "1 Wall".
fn counted(n: usize, name: &str) -> String {
    if n == 1 { format!("1 {name}") } else { format!("{n} {name}s") }
}

fn tile_text(t: (i32, i32)) -> String {
    format!("[{},{}]", t.0, t.1)
}

/// "2 Turrets, 1 Wall and 4 Scouts": structures first, then mobile units.
fn listed(structures: &BTreeMap<String, usize>, units: &BTreeMap<String, usize>) -> String {
    let all: Vec<String> = structures.iter().chain(units).map(|(name, n)| counted(*n, name)).collect();
    match all.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => all.join(""),
    }
}

/// A number of HP without a needless ".0".
pub(crate) fn hp_text(v: f32) -> String {
    if v.fract() == 0.0 { format!("{v:.0}") } else { format!("{v:.1}") }
}

impl fmt::Display for TurnRecap {
    /// "4 Scouts breached at [27,13]: -4 HP; lost 2 Turrets; dealt 6 HP (6 breaches); destroyed 1 Wall".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_quiet() {
            return write!(f, "Turn {}: no breach, nothing destroyed", self.turn);
        }
        let mut parts = Vec::new();
        if !self.breaches_taken.is_empty() {
            let units: Vec<String> = self
                .breaches_taken
                .iter()
                .map(|(name, tiles)| {
                    let n: usize = tiles.values().sum();
                    match tiles.keys().next() {
                        Some(t) if tiles.len() == 1 => format!("{} breached at {}", counted(n, name), tile_text(*t)),
                        _ => {
                            let at: Vec<String> =
                                tiles.iter().map(|(t, k)| format!("{k} at {}", tile_text(*t))).collect();
                            format!("{} breached ({})", counted(n, name), at.join(", "))
                        }
                    }
                })
                .collect();
            parts.push(format!("{}: -{} HP", units.join(", "), hp_text(self.hp_lost)));
        }
        if !(self.structures_lost.is_empty() && self.units_lost.is_empty()) {
            parts.push(format!("lost {}", listed(&self.structures_lost, &self.units_lost)));
        }
        if self.breaches_made > 0 {
            let times = if self.breaches_made == 1 {
                "1 breach".to_string()
            } else {
                format!("{} breaches", self.breaches_made)
            };
            parts.push(format!("dealt {} HP ({times})", hp_text(self.hp_dealt)));
        }
        if !(self.structures_destroyed.is_empty() && self.units_destroyed.is_empty()) {
            parts.push(format!("destroyed {}", listed(&self.structures_destroyed, &self.units_destroyed)));
        }
        write!(f, "Turn {}: {}", self.turn, parts.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::frame::{BreachEvent, DeathEvent};
    use crate::engine::geometry::Tile;
    use crate::engine::presets::load_config;

    fn breach(x: i32, y: i32, owner: Player, damage: f32) -> BreachEvent {
        BreachEvent { tile: Tile { x, y }, damage, unit_type: 3, id: 1, owner }
    }

    fn death(unit_type: u8, owner: Player, removed: bool) -> DeathEvent {
        DeathEvent { tile: Tile { x: 3, y: 12 }, unit_type, id: 9, owner, removed }
    }

    #[test]
    fn a_turn_is_told_from_one_side_with_counts_tiles_and_hp() -> Result<(), Box<dyn std::error::Error>> {
        let config = load_config("live-2022")?;
        let mut f = Frame::default();
        for _ in 0..4 {
            f.events.breach.push(breach(27, 13, Player::Two, 1.0));
        }
        f.events.breach.push(breach(0, 14, Player::One, 3.0));
        f.events.breach.push(breach(1, 15, Player::One, 3.0));
        f.events.death.push(death(2, Player::One, false));
        f.events.death.push(death(2, Player::One, false));
        // A removal is the owner's choice, not a loss; a unit that scored is not lost either.
        f.events.death.push(death(0, Player::One, true));
        f.events.death.push(death(3, Player::One, false));
        f.events.death.push(DeathEvent { id: 1, ..death(3, Player::Two, false) });
        f.events.death.push(death(0, Player::Two, false));
        let r = TurnRecap::of(&config, 7, &[f], Player::One);
        assert_eq!(
            r.to_string(),
            "Turn 7: 4 Scouts breached at [27,13]: -4 HP; lost 2 Turrets and 1 Scout; dealt 6 HP (2 breaches); \
             destroyed 1 Wall"
        );
        let quiet = TurnRecap::of(&config, 8, &[Frame::default()], Player::Two);
        assert_eq!(quiet.to_string(), "Turn 8: no breach, nothing destroyed");
        Ok(())
    }

    #[test]
    fn breaches_at_several_tiles_are_counted_per_tile() -> Result<(), Box<dyn std::error::Error>> {
        let config = load_config("live-2022")?;
        let mut f = Frame::default();
        f.events.breach.push(breach(27, 13, Player::Two, 1.0));
        f.events.breach.push(breach(26, 12, Player::Two, 1.0));
        f.events.breach.push(breach(26, 12, Player::Two, 1.0));
        let r = TurnRecap::of(&config, 3, &[f], Player::One);
        assert_eq!(r.to_string(), "Turn 3: 3 Scouts breached (2 at [26,12], 1 at [27,13]): -3 HP");
        Ok(())
    }
}
