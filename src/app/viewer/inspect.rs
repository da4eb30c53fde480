//! What the shown frame holds, as text: unit counts, the frame's event log and the inspector
//! of the selected (or hovered) unit.

use super::Viewer;
use crate::app::model::EventKind;
use std::collections::HashSet;
use terminal_core::engine::config::{REMOVE, UPGRADE};
use terminal_core::engine::targeting::TargetRules;
use terminal_core::engine::{Player, Tile};
use terminal_core::session::FrameView;
use terminal_core::session::debug::{PathEnd, UnitDebug};

/// One line of the event log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    pub kind: EventKind,
    pub owner: Player,
    pub text: String,
}

impl Viewer {
    /// Units listed in the shown frame (both players, real unit types).
    pub fn unit_count(&self) -> usize {
        self.shown
            .current
            .as_ref()
            .map_or(0, |(_, v)| Player::both().iter().map(|p| v.frame.real_units(*p).count()).sum())
    }

    pub fn mobile_count(&self) -> usize {
        self.shown.current.as_ref().map_or(0, |(_, v)| {
            Player::both().iter().map(|p| v.frame.real_units(*p).filter(|(t, _)| *t >= 3).count()).sum()
        })
    }

    /// True when the open replay is played under the 2018–2019 rules.
    pub fn is_legacy(&self) -> bool {
        self.shown.summary.as_ref().is_some_and(|s| s.legacy)
    }

    /// The event log of the shown frame, filtered.
    pub fn event_log(&self) -> Vec<LogEntry> {
        let Some((_, v)) = &self.shown.current else { return Vec::new() };
        let e = &v.frame.events;
        let mut out = Vec::new();
        let legacy = self.is_legacy();
        let name = |t: u8| unit_name(t as usize, legacy);
        for s in &e.spawn {
            // Types 6 and 7 are the removal mark and the upgrade echoed as spawns (docs/replay-format.md, Eras).
            let text = match s.unit_type {
                REMOVE_TYPE => format!("marks {},{} for removal (#{})", s.tile.x, s.tile.y, s.id),
                UPGRADE_TYPE => format!("upgrades {},{} (new id #{})", s.tile.x, s.tile.y, s.id),
                t => format!("{} #{} at {},{}", name(t), s.id, s.tile.x, s.tile.y),
            };
            out.push((EventKind::Spawn, s.owner, text));
        }
        for m in &e.moves {
            out.push((
                EventKind::Move,
                m.owner,
                format!("{} #{} {},{} → {},{}", name(m.unit_type), m.id, m.from.x, m.from.y, m.to.x, m.to.y),
            ));
        }
        for a in &e.attack {
            out.push((
                EventKind::Attack,
                a.owner,
                format!("{} #{} hits #{} for {:.1}", name(a.attacker_type), a.attacker_id, a.target_id, a.damage),
            ));
        }
        for d in &e.damage {
            out.push((EventKind::Damage, d.owner, format!("{} #{} takes {:.1}", name(d.unit_type), d.id, d.damage)));
        }
        for s in &e.shield {
            out.push((
                EventKind::Shield,
                s.owner,
                format!("support #{} shields #{} +{:.1}", s.support_id, s.target_id, s.amount),
            ));
        }
        for d in &e.death {
            out.push((
                EventKind::Death,
                d.owner,
                format!(
                    "{} #{} {} at {},{}",
                    name(d.unit_type),
                    d.id,
                    if d.removed { "removed" } else { "dies" },
                    d.tile.x,
                    d.tile.y
                ),
            ));
        }
        for b in &e.breach {
            out.push((
                EventKind::Breach,
                b.owner,
                format!("#{} breaches at {},{} ({:.0})", b.id, b.tile.x, b.tile.y, b.damage),
            ));
        }
        for s in &e.self_destruct {
            out.push((
                EventKind::SelfDestruct,
                s.owner,
                format!("#{} self-destructs at {},{} ({:.1})", s.id, s.tile.x, s.tile.y, s.damage),
            ));
        }
        out.into_iter()
            .filter(|(k, p, _)| self.prefs.log_kinds.contains(k) && self.prefs.log_players[p.index()])
            .map(|(kind, owner, text)| LogEntry { kind, owner, text })
            .collect()
    }

    /// The inspector's text: every unit on the selected unit's tile (else on the hovered
    /// tile), the selected one first: health against its maximum, shields, and what it
    /// targets this frame (a mobile's target with the deciding criterion, a turret's shot).
    pub fn inspector_text(&self) -> String {
        let Some((_, v)) = &self.shown.current else { return String::new() };
        let Some(tile) = self.inspected_tile(v) else { return String::new() };
        let mut out = String::new();
        let mut stack: Vec<_> = v.debug.mobiles.iter().filter(|m| m.tile == tile).collect();
        stack.sort_by_key(|m| (Some(m.id) != self.board.selected, m.owner.index(), m.unit_type, m.id));
        if stack.len() > 1 {
            out.push_str(&format!("{} mobile units on {},{}\n", stack.len(), tile.x, tile.y));
        }
        self.describe_mobiles(&mut out, &stack);
        self.describe_units_on(&mut out, v, tile, !stack.is_empty());
        out
    }

    /// The selected unit's tile, else the hovered one.
    fn inspected_tile(&self, v: &FrameView) -> Option<Tile> {
        let selected_tile = self.board.selected.and_then(|id| {
            v.debug.mobiles.iter().find(|m| m.id == id).map(|m| m.tile).or_else(|| {
                Player::both()
                    .iter()
                    .find_map(|p| v.frame.real_units(*p).find(|(_, u)| u.id == id).map(|(_, u)| u.tile))
            })
        });
        selected_tile.or(self.board.hovered)
    }

    /// The targeting rules of what is shown (their names for the criteria).
    fn target_rules(&self) -> TargetRules {
        self.shown
            .summary
            .as_ref()
            .map_or(TargetRules::default(), |s| TargetRules::of(s.early_2020, s.legacy, s.config.legacy_build()))
    }

    /// A unit type's start health under the ruleset shown.
    fn max_health(&self, t: usize, upgraded: bool) -> Option<f32> {
        self.ruleset().filter(|c| t < c.units.len()).map(|c| c.form(t, upgraded).start_health)
    }

    /// The mobile units of a tile with the engine's data: health, shields, target, path.
    fn describe_mobiles(&self, out: &mut String, stack: &[&UnitDebug]) {
        let rules = self.target_rules();
        let mut last_path = None;
        for m in stack {
            let t = m.unit_type as usize;
            out.push_str(&format!("#{} {} (player {})\n", m.id, unit_name(t, self.is_legacy()), m.owner.number()));
            out.push_str(&format!("  health {}", of_max(m.health, self.max_health(t, false).map(|h| h + m.shield))));
            if m.shield > 0.0 {
                out.push_str(&format!(" (shield +{:.1})", m.shield));
            }
            out.push('\n');
            for g in &m.shields {
                out.push_str(&format!(
                    "  shielded +{:.1} by support #{} at {},{}\n",
                    g.amount, g.support_id, g.support_tile.x, g.support_tile.y
                ));
            }
            match &m.target {
                Some(t) => out.push_str(&format!(
                    "  target #{} at {},{}: {}\n",
                    t.target_id,
                    t.target_tile.x,
                    t.target_tile.y,
                    t.criterion.label_for(rules)
                )),
                None => out.push_str("  no target this frame\n"),
            }
            // A stack shares its path: said once, unless a unit's differs.
            let path = (&m.path, m.path_end, m.steps);
            if last_path != Some(path) {
                let end = match m.path_end {
                    PathEnd::Breach => "breach",
                    PathEnd::SelfDestruct => "self-destruct",
                };
                out.push_str(&format!(
                    "  {} steps taken, {} tiles to {}\n",
                    m.steps,
                    m.path.len().saturating_sub(1),
                    end
                ));
                last_path = Some(path);
            }
        }
    }

    /// The units the frame lists on a tile (structures; mobiles without engine data).
    fn describe_units_on(&self, out: &mut String, v: &FrameView, tile: Tile, mobiles_listed: bool) {
        let rules = self.target_rules();
        for p in Player::both() {
            let lists = v.frame.units_of(p);
            let ids = |k: usize| -> HashSet<u32> {
                lists.get(k).map(|l| l.iter().map(|u| u.id).collect()).unwrap_or_default()
            };
            let upgraded = ids(UPGRADE);
            // A 2018–2019 removal mark is a unit of its own on the structure's tile.
            let marked_tiles: HashSet<Tile> =
                lists.get(REMOVE).map(|l| l.iter().map(|u| u.tile).collect()).unwrap_or_default();
            let removing = ids(REMOVE);
            for (t, u) in v.frame.real_units(p).filter(|(_, u)| u.tile == tile) {
                // Mobiles with engine data are listed above.
                if t >= 3 && mobiles_listed {
                    continue;
                }
                let up = upgraded.contains(&u.id);
                out.push_str(&format!(
                    "#{} {}{} (player {})\n  health {}\n",
                    u.id,
                    if up { "upgraded " } else { "" },
                    unit_name(t, self.is_legacy()),
                    p.number(),
                    of_max(u.health, self.max_health(t, up && t < 3)),
                ));
                if removing.contains(&u.id) || (self.is_legacy() && t < 3 && marked_tiles.contains(&u.tile)) {
                    out.push_str("  marked for removal\n");
                }
                if t == 2 {
                    let shot = v.debug.attacks.iter().find(|a| a.attacker_id == u.id);
                    match shot {
                        Some(a) => {
                            out.push_str(&format!(
                                "  shoots #{} at {},{} for {:.1}",
                                a.target_id, a.to.x, a.to.y, a.damage
                            ));
                            if let Some(c) = a.criterion {
                                out.push_str(&format!(": {}", c.label_for(rules)));
                            }
                            out.push('\n');
                        }
                        None => out.push_str("  no target this frame\n"),
                    }
                }
            }
        }
    }
}

fn of_max(health: f32, max: Option<f32>) -> String {
    match max {
        Some(m) => format!("{health:.1} / {m:.1}"),
        None => format!("{health:.1}"),
    }
}

/// Spawn-event types that are not units: the removal mark and the upgrade.
const REMOVE_TYPE: u8 = 6;
const UPGRADE_TYPE: u8 = 7;

/// A unit type's name in the names of its era, as the event log writes it in a sentence:
/// "scout", "destructor" (an acronym, "EMP", stays as it is).
pub fn unit_name(t: usize, legacy: bool) -> String {
    let name = terminal_core::engine::config::unit_name(t, legacy);
    if name.chars().all(|c| c.is_ascii_uppercase()) { name.to_string() } else { name.to_lowercase() }
}
