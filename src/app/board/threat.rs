//! The threat along a hovered edge tile's path, shared by the editor and the Debugger: a
//! compact table (damage, shields, how each mobile type ends) and its marks on the board.

use super::BoardFrame;
use egui::{Color32, RichText, Stroke, Ui};
use terminal_core::engine::config::unit_name;
use terminal_core::engine::geometry::{Edge, Tile};
use terminal_core::layout::threat::{PathThreat, ThreatEnd, UnitThreat};

const DEATH_RED: Color32 = Color32::from_rgb(255, 70, 60);

/// True for the tiles a mobile unit can be deployed on (either player's edges).
pub fn is_edge_tile(t: Tile) -> bool {
    Edge::ALL.iter().any(|e| e.contains(t))
}

/// A health or damage amount: whole numbers without decimals, others with one.
pub fn amount(v: f32) -> String {
    if (v - v.round()).abs() < 0.05 { format!("{:.0}", v.round()) } else { format!("{v:.1}") }
}

/// How a unit's walk ends, in words.
pub fn outcome(end: &ThreatEnd) -> String {
    match *end {
        ThreatEnd::Breach { health, .. } => format!("survives with {}", amount(health)),
        ThreatEnd::SelfDestruct { tile, health, .. } => {
            format!("self-destructs at [{}, {}] with {}", tile.x, tile.y, amount(health))
        }
        ThreatEnd::Killed { tile, steps, .. } => format!("dies at [{}, {}], step {steps}", tile.x, tile.y),
        ThreatEnd::Stalled { .. } => "never arrives".to_string(),
    }
}

/// What hit the unit and what shielded it, for the row's tooltip.
fn details(u: &UnitThreat) -> String {
    let mut lines = Vec::new();
    for h in &u.hits {
        let who = terminal_core::layout::Kind::from_unit_type(h.attacker_type as usize).map_or("Unit", |k| k.label());
        lines.push(format!("{who} [{}, {}]: {} hits, {}", h.tile.x, h.tile.y, h.hits, amount(h.damage)));
    }
    for s in &u.shields {
        lines.push(format!("Support [{}, {}]: +{} shield", s.support.x, s.support.y, amount(s.amount)));
    }
    if lines.is_empty() {
        lines.push("Nothing reaches it".to_string());
    }
    lines.join("\n")
}

/// The table: a line per mobile type with damage and shields, and how it ends beneath.
pub fn table(ui: &mut Ui, threat: &PathThreat) {
    ui.label(RichText::new("Threat along the path").strong());
    ui.weak(format!("player {}, a path of {} tiles", threat.owner.number(), threat.path.len()));
    // No grid: the outcome wraps under its type, so the table never widens its panel.
    for u in &threat.units {
        let tip = details(u);
        ui.horizontal(|ui| {
            ui.label(RichText::new(unit_name(u.unit_type, false)).strong()).on_hover_text(&tip);
            ui.label(format!("{} dmg, +{} shield", amount(u.damage_taken), amount(u.shield_received)))
                .on_hover_text(&tip);
        });
        let color = match u.end {
            ThreatEnd::Breach { .. } => Color32::from_rgb(90, 200, 110),
            ThreatEnd::Killed { .. } => DEATH_RED,
            ThreatEnd::SelfDestruct { .. } | ThreatEnd::Stalled { .. } => Color32::from_rgb(240, 170, 50),
        };
        ui.indent(("threat-outcome", u.unit_type), |ui| {
            ui.label(RichText::new(outcome(&u.end)).color(color)).on_hover_text(&tip);
        });
    }
}

/// Marks on the board: the attackers that hit any of the units, and where each one dies
/// (the types' initials on the tile).
pub fn draw_marks(frame: &BoardFrame, threat: &PathThreat) {
    let g = &frame.geometry;
    let mut attackers: Vec<Tile> = threat.units.iter().flat_map(|u| u.hits.iter().map(|h| h.tile)).collect();
    attackers.sort();
    attackers.dedup();
    for t in attackers {
        frame.painter.rect_stroke(g.tile_rect(t), 0.0, Stroke::new(2.0, DEATH_RED), egui::StrokeKind::Inside);
    }
    let mut deaths: Vec<(Tile, String)> = Vec::new();
    for u in threat.units.iter().filter(|u| u.end.is_killed()) {
        let initial = &unit_name(u.unit_type, false)[..1];
        match deaths.iter_mut().find(|(t, _)| *t == u.end.tile()) {
            Some((_, s)) => s.push_str(initial),
            None => deaths.push((u.end.tile(), initial.to_string())),
        }
    }
    for (t, initials) in deaths {
        let c = g.tile_center(t);
        frame.painter.circle(c, g.tile * 0.45, Color32::from_black_alpha(170), Stroke::new(2.0, DEATH_RED));
        frame.painter.text(
            c,
            egui::Align2::CENTER_CENTER,
            initials,
            egui::FontId::monospace((g.tile * 0.45).clamp(8.0, 14.0)),
            Color32::WHITE,
        );
    }
}
