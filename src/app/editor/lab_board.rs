//! The Layout lab on the editor's board: the heatmap of the current run, or its difference
//! from the compared run, and the suggested changes drawn over either. Numbers are written
//! only where a tile is big enough to read them (with a dark backing); the hovered tile's
//! figures are in the panel, so a small window loses nothing.

use super::lab_state::{Freshness, LabState};
use crate::app::board::BoardFrame;
use egui::{Color32, Stroke, StrokeKind};
use terminal_core::engine::geometry::{Tile, all_tiles};
use terminal_core::layout::Kind;
use terminal_core::layout::stress::{Heatmap, StressReport};
use terminal_core::suggest::Change;

/// Tiles narrower than this get marks but no numbers.
const NUMBERS_FROM: f32 = 20.0;
const BREACH: Color32 = Color32::from_rgb(255, 220, 60);
const DEATH: Color32 = Color32::from_rgb(255, 80, 60);
const SUGGESTED: Color32 = Color32::from_rgb(60, 230, 255);
const BETTER: Color32 = Color32::from_rgb(80, 220, 110);
const WORSE: Color32 = Color32::from_rgb(240, 70, 70);

/// The hovered tile's heat, in words.
pub fn tile_heat(report: &StressReport, t: Tile) -> String {
    let h = &report.heatmap;
    let i = t.index();
    let mut parts = Vec::new();
    if h.breaches[i] > 0 {
        parts.push(format!("{} breaches", h.breaches[i]));
    }
    if h.attacker_deaths[i] > 0 {
        parts.push(format!("{} attackers destroyed", h.attacker_deaths[i]));
    }
    if h.damage_taken[i] > 0.0 {
        parts.push(format!("{:.0} damage taken", h.damage_taken[i]));
    }
    if h.structures_lost[i] > 0 {
        parts.push(format!("lost in {} attacks", h.structures_lost[i]));
    }
    if parts.is_empty() {
        format!("{},{}: nothing happened here", t.x, t.y)
    } else {
        format!("{},{}: {}", t.x, t.y, parts.join(", "))
    }
}

impl LabState {
    /// The lab's marks on the editor's board (`fresh`: the run belongs to the layout shown).
    pub fn draw(&self, frame: &BoardFrame, freshness: Freshness) {
        if let Some(run) = self.run().filter(|_| freshness == Freshness::Fresh) {
            match self.compared().filter(|_| self.show_difference) {
                Some(before) => draw_difference(frame, &before.report.heatmap, &run.report.heatmap),
                None if self.heatmap => draw_heatmap(frame, &run.report.heatmap),
                None => {}
            }
        }
        for (t, step) in self.suggested_tiles() {
            draw_suggested(frame, t, step.change);
        }
    }
}

fn draw_heatmap(frame: &BoardFrame, h: &Heatmap) {
    let numbers = frame.geometry.tile >= NUMBERS_FROM;
    for t in all_tiles() {
        let i = t.index();
        if h.damage_taken[i] > 0.0 {
            let a = (30.0 + h.damage_taken[i].sqrt() * 4.0).min(160.0) as u8;
            frame.fill_tile(t, Color32::from_rgba_unmultiplied(200, 40, 200, a));
        }
        if h.attacker_deaths[i] > 0 {
            // A dot in the corner, bigger with the count: it never covers a breach's number.
            let r = frame.geometry.tile_rect(t);
            let radius = (1.5 + (h.attacker_deaths[i] as f32).ln_1p() * 1.2).min(r.width() * 0.3);
            frame.painter.circle_filled(r.right_bottom() - egui::vec2(radius + 1.0, radius + 1.0), radius, DEATH);
        }
        if h.breaches[i] > 0 {
            ring(frame, t, BREACH, 2.0);
            if numbers {
                backed_label(frame, t, &h.breaches[i].to_string(), BREACH);
            }
        }
    }
}

/// Per tile, breaches and structures lost of the current run against the compared one:
/// green where the current layout does better, red where it does worse.
fn draw_difference(frame: &BoardFrame, before: &Heatmap, now: &Heatmap) {
    let numbers = frame.geometry.tile >= NUMBERS_FROM;
    for t in all_tiles() {
        let i = t.index();
        let breaches = now.breaches[i] as i64 - before.breaches[i] as i64;
        let lost = now.structures_lost[i] as i64 - before.structures_lost[i] as i64;
        let change = breaches + lost;
        if change == 0 {
            continue;
        }
        let colour = if change < 0 { BETTER } else { WORSE };
        let a = (60.0 + (change.unsigned_abs() as f32).sqrt() * 25.0).min(170.0) as u8;
        frame.fill_tile(t, Color32::from_rgba_unmultiplied(colour.r(), colour.g(), colour.b(), a));
        if numbers {
            backed_label(frame, t, &format!("{change:+}"), Color32::WHITE);
        }
    }
}

fn draw_suggested(frame: &BoardFrame, t: Tile, change: Change) {
    frame.fill_tile(t, Color32::from_rgba_unmultiplied(20, 60, 70, 150));
    ring(frame, t, SUGGESTED, 3.0);
    let letter = match change {
        Change::Place { kind: Kind::Wall, .. } => "W",
        Change::Place { kind: Kind::Support, .. } => "S",
        Change::Place { kind: Kind::Turret, .. } => "T",
        Change::Upgrade { .. } => "U",
        Change::Remove { .. } => "R",
    };
    if frame.geometry.tile >= 12.0 {
        frame.tile_label(t, letter, SUGGESTED);
    }
}

fn ring(frame: &BoardFrame, t: Tile, colour: Color32, width: f32) {
    let r = frame.geometry.tile_rect(t).shrink(width / 2.0);
    frame.painter.rect_stroke(r, 2.0, Stroke::new(width, colour), StrokeKind::Inside);
}

/// A number on a dark backing, so that it reads over any fill.
fn backed_label(frame: &BoardFrame, t: Tile, text: &str, colour: Color32) {
    let centre = frame.geometry.tile_center(t);
    let size = (frame.geometry.tile * 0.45).clamp(9.0, 15.0);
    let font = egui::FontId::monospace(size);
    let galley = frame.painter.layout_no_wrap(text.to_string(), font, colour);
    let rect = egui::Rect::from_center_size(centre, galley.size() + egui::vec2(2.0, 0.0));
    frame.painter.rect_filled(rect, 2.0, Color32::from_black_alpha(190));
    frame.painter.galley(rect.min + egui::vec2(1.0, 0.0), galley, colour);
}
