//! The board in the centre: the frame's structures and mobile units with the debugger
//! overlays (paths, moved-from tiles, shields, attacks, fading markers, the algos'
//! annotations), or the what-if being edited.

use super::{MARKER_FRAMES, Viewer, ViewerAction, whatif_board};
use crate::app::board::{self, BoardUnit, Palette};
use crate::app::board_labels::BoardLabels;
use crate::app::icons::{Icon, IconTextures};
use egui::{Color32, Stroke, Ui, vec2};
use std::collections::HashSet;
use terminal_core::engine::Player;
use terminal_core::engine::config::{REMOVE, UPGRADE};
use terminal_core::engine::geometry::Tile;
use terminal_core::layout::Kind;
use terminal_core::session::debug::{Marker, PathEnd};

impl Viewer {
    /// Draws the board with the frame's units and the overlays; a click selects a unit (or,
    /// on the what-if, applies its tool).
    pub(super) fn board(&mut self, ui: &mut Ui, icons: Option<&IconTextures>, dark: bool) -> Option<ViewerAction> {
        let frame = board::begin_with(ui, &mut self.board_view, Palette::new(dark), !self.panels_on_clear_color);
        self.geometry = Some(frame.geometry);
        self.hovered = frame.hovered;
        if self.board_whatif.is_some() {
            return self.draw_whatif(frame, icons);
        }
        let Some((turn, v)) = &self.current else {
            let hint = match (&self.empty_hint, self.live) {
                (_, true) => "The match is starting…",
                (Some(h), false) => h.as_str(),
                // The default font has no arrow glyph: plain text only.
                (None, false) => "Open a replay: File > Open replay…, drag and drop, or `terminal-studio view FILE`",
            };
            frame.painter.text(
                frame.geometry.rect.center(),
                egui::Align2::CENTER_CENTER,
                hint,
                egui::FontId::proportional(16.0),
                frame.palette.text,
            );
            return None;
        };
        let g = frame.geometry;
        let tile = g.tile;
        let pal = frame.palette;
        let o = self.overlays;
        // Moved-from tiles under the units.
        if o.moved_from {
            for m in &v.debug.mobiles {
                if let Some(from) = m.moved_from {
                    frame.fill_tile(from, pal.player(m.owner).gamma_multiply(0.25));
                }
            }
        }
        // Fading markers (blast areas under the units).
        if o.markers {
            for (i, markers) in self.recent_markers.iter() {
                let age = v.index.saturating_sub(*i);
                let alpha = 1.0 - age as f32 / MARKER_FRAMES as f32;
                for mk in markers {
                    if let Marker::SelfDestruct { blast, .. } = mk {
                        for t in blast {
                            frame.fill_tile(*t, Color32::from_rgb(255, 140, 0).gamma_multiply(0.25 * alpha));
                        }
                    }
                }
            }
        }
        // Structures, their health bars against the replay's own ruleset.
        let max_health =
            self.ruleset().map_or([[60.0; 2]; 3], |c| terminal_core::session::summary::structure_max_health(&c));
        let mut units = Vec::new();
        for p in Player::both() {
            let lists = v.frame.units_of(p);
            let upgraded: HashSet<u32> =
                lists.get(UPGRADE).map(|l| l.iter().map(|u| u.id).collect()).unwrap_or_default();
            let removing: HashSet<u32> =
                lists.get(REMOVE).map(|l| l.iter().map(|u| u.id).collect()).unwrap_or_default();
            for (t, kind) in [(0, Kind::Wall), (1, Kind::Support), (2, Kind::Turret)] {
                for u in lists.get(t).into_iter().flatten() {
                    let up = upgraded.contains(&u.id);
                    units.push(BoardUnit {
                        tile: u.tile,
                        icon: Icon::of(kind, up),
                        owner: p,
                        health: u.health / max_health.get(t).map_or(0.0, |m| m[usize::from(up)]).max(1.0),
                        marked_for_removal: removing.contains(&u.id),
                    });
                }
            }
        }
        frame.draw_units(icons, units);
        let mut labels = BoardLabels::default();
        // Mobile units: a shape per stack (same tile, owner and type), with its size and health.
        let mut stacks: std::collections::BTreeMap<(i32, i32), Vec<Stack>> = Default::default();
        for p in Player::both() {
            for (t, u) in v.frame.real_units(p).filter(|(t, _)| *t >= 3) {
                let on_tile = stacks.entry((u.tile.x, u.tile.y)).or_default();
                match on_tile.iter_mut().find(|s| s.owner == p && s.unit_type == t) {
                    Some(s) => s.health.push(u.health),
                    None => on_tile.push(Stack { owner: p, unit_type: t, health: vec![u.health] }),
                }
            }
        }
        for ((x, y), on_tile) in &stacks {
            draw_stacks(&frame, &mut labels, Tile::new(*x, *y), on_tile);
        }
        // Paths.
        if o.paths {
            for m in &v.debug.mobiles {
                let c = pal.player(m.owner).gamma_multiply(0.8);
                let width = if self.selected == Some(m.id) { 3.5 } else { 1.5 };
                draw_path_with_end(&frame, &m.path, m.path_end, Stroke::new(width, c));
            }
        }
        // The hovered edge tile's path and where each mobile type would die on it.
        if let Some(threat) = self.hovered_threat() {
            frame.draw_path(&threat.path, Stroke::new((tile * 0.2).clamp(2.0, 5.0), pal.highlight));
            crate::app::threat_view::draw_marks(&frame, threat);
        }
        // Attacks with damage: one figure per attacker and tile hit (a turret's shots at one
        // stack add up).
        if o.attacks {
            let mut hits: std::collections::BTreeMap<(Tile, Tile), f32> = Default::default();
            for a in &v.debug.attacks {
                let from = g.tile_center(a.from);
                let to = g.tile_center(a.to);
                frame.painter.arrow(from, to - from, Stroke::new(1.5, Color32::from_rgb(255, 80, 60)));
                *hits.entry((a.from, a.to)).or_default() += a.damage;
            }
            if tile >= 14.0 {
                for ((from, to), damage) in hits {
                    let at = g.tile_center(from).lerp(g.tile_center(to), 0.6);
                    let text = format!("{damage:.0}");
                    labels.add(&frame.painter, &text, at, LABEL_FONT, Color32::from_rgb(255, 200, 190));
                }
            }
        }
        // Shields: support → unit, with the amount each tile's units got this frame.
        if o.shields {
            let cyan = Color32::from_rgb(80, 220, 255);
            let mut given: std::collections::BTreeMap<Tile, f32> = Default::default();
            for s in &v.frame.events.shield {
                let a = g.tile_center(s.from);
                let b = g.tile_center(s.to);
                frame.painter.line_segment([a, b], Stroke::new(1.5, cyan));
                frame.painter.circle_filled(b, tile * 0.12, cyan);
                *given.entry(s.to).or_default() += s.amount;
            }
            if tile >= 14.0 {
                for (to, amount) in given {
                    let at = g.tile_center(to) + vec2(0.0, tile * 0.6);
                    labels.add(&frame.painter, &format!("+{amount:.0}"), at, LABEL_FONT, cyan);
                }
            }
        }
        labels.paint(&frame.painter);
        self.board_labels = labels.placed().to_vec();
        // Death, breach and self-destruct markers, fading.
        if o.markers {
            for (i, markers) in self.recent_markers.iter() {
                let age = v.index.saturating_sub(*i);
                let alpha = 1.0 - age as f32 / MARKER_FRAMES as f32;
                for mk in markers {
                    let (t, color) = match mk {
                        Marker::Death { tile, .. } => (*tile, Color32::from_rgb(240, 240, 240)),
                        Marker::Breach { tile, .. } => (*tile, pal.highlight),
                        Marker::SelfDestruct { tile, .. } => (*tile, Color32::from_rgb(255, 140, 0)),
                    };
                    let c = g.tile_center(t);
                    let d = tile * 0.4;
                    let s = Stroke::new(2.5, color.gamma_multiply(alpha));
                    frame.painter.line_segment([c - vec2(d, d), c + vec2(d, d)], s);
                    frame.painter.line_segment([c + vec2(-d, d), c + vec2(d, -d)], s);
                }
            }
        }
        // The algos' annotations.
        if o.annotations {
            for a in self.companions.annotations(*turn) {
                draw_annotation(&frame, a);
            }
        }
        if let Some(index) = v.watching {
            frame.painter.text(
                g.rect.left_top() + vec2(8.0, 6.0),
                egui::Align2::LEFT_TOP,
                self.try_title(index),
                egui::FontId::proportional(16.0),
                pal.highlight,
            );
        }
        frame.draw_hover(pal.text);
        // Click selects a unit.
        frame.response.clicked().then(|| {
            ViewerAction::Select(frame.hovered.and_then(|t| {
                v.debug.mobiles.iter().find(|m| m.tile == t).map(|m| m.id).or_else(|| {
                    Player::both()
                        .iter()
                        .find_map(|p| v.frame.real_units(*p).find(|(_, u)| u.tile == t).map(|(_, u)| u.id))
                })
            }))
        })
    }

    /// Draws the what-if being edited (structures, deploys, their predicted paths); a click
    /// applies the tool (a right click takes a deploy or a placed structure back).
    fn draw_whatif(&self, frame: board::BoardFrame, icons: Option<&IconTextures>) -> Option<ViewerAction> {
        let w = self.board_whatif.as_ref()?;
        let pal = frame.palette;
        if let whatif_board::BoardTool::Deploy(_) = w.tool {
            for e in terminal_core::engine::geometry::Edge::ALL.iter().filter(|e| e.owner() == w.player) {
                for t in terminal_core::engine::geometry::all_tiles().filter(|t| e.contains(*t)) {
                    frame.fill_tile(t, pal.player(w.player).gamma_multiply(0.3));
                }
            }
        }
        let units = w.layout.structures.iter().map(|(tile, s)| BoardUnit {
            tile: *tile,
            icon: Icon::of(s.kind, s.upgraded),
            owner: tile.owner_half(),
            health: s.health,
            marked_for_removal: s.remove,
        });
        frame.draw_units(icons, units);
        // Changed tiles outlined, so the edits stand out from the turn's own structures.
        let changed = Player::both().into_iter().flat_map(|p| w.structure_edits(p));
        for e in changed {
            use terminal_core::session::whatif::StructureEdit;
            let (StructureEdit::Add { tile, .. } | StructureEdit::Remove { tile } | StructureEdit::Upgrade { tile }) =
                e;
            let r = frame.geometry.tile_rect(tile);
            frame.painter.rect_stroke(r, 0.0, Stroke::new(2.0, pal.highlight), egui::StrokeKind::Inside);
        }
        let mut stacks: std::collections::BTreeMap<(Tile, usize, u8), u32> = Default::default();
        for p in Player::both() {
            for (t, tile) in &w.deploys[p.index()] {
                *stacks.entry((*tile, p.index(), *t)).or_default() += 1;
            }
        }
        let mut labels = BoardLabels::default();
        for ((tile, pi, t), n) in stacks {
            let color = pal.player[pi];
            draw_mobile(&frame, frame.geometry.tile_center(tile), frame.geometry.tile * 0.36, color, t as usize);
            if n > 1 && frame.geometry.tile >= 12.0 {
                let at = frame.geometry.tile_center(tile) - vec2(0.0, frame.geometry.tile * 0.55);
                labels.add(&frame.painter, &format!("×{n}"), at, LABEL_FONT, Color32::WHITE);
            }
        }
        labels.paint(&frame.painter);
        for path in w.paths() {
            draw_path_with_end(
                &frame,
                &path.tiles,
                path.end,
                Stroke::new(2.0, pal.player(path.owner).gamma_multiply(0.9)),
            );
        }
        frame.draw_hover(pal.text);
        let undo = frame.response.secondary_clicked();
        if frame.response.clicked() || undo {
            frame.hovered.map(|tile| ViewerAction::WhatIfClick { tile, undo })
        } else {
            None
        }
    }
}

/// The labels' font on the board.
const LABEL_FONT: egui::FontId = egui::FontId::monospace(11.0);

/// Units of one owner and type on one tile.
struct Stack {
    owner: Player,
    unit_type: usize,
    health: Vec<f32>,
}

impl Stack {
    /// "5×15": five units of 15 health each; "3×8–15" when their health differs.
    fn label(&self) -> String {
        let lo = self.health.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = self.health.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let n = self.health.len();
        if hi - lo < 0.05 {
            format!("{n}×{}", health_text(lo))
        } else {
            format!("{n}×{}–{}", health_text(lo), health_text(hi))
        }
    }
}

/// Health as a player reads it: whole numbers without decimals.
fn health_text(h: f32) -> String {
    if (h - h.round()).abs() < 0.05 { format!("{h:.0}") } else { format!("{h:.1}") }
}

/// The stacks on one tile, side by side when more than one (both players' units can share a
/// tile, and so can two types); each with its size × health above it when tiles are big
/// enough to read.
fn draw_stacks(frame: &board::BoardFrame, labels: &mut BoardLabels, at: Tile, stacks: &[Stack]) {
    let tile = frame.geometry.tile;
    let centre = frame.geometry.tile_center(at);
    let n = stacks.len() as f32;
    let r = if stacks.len() > 1 { tile * 0.26 } else { tile * 0.36 };
    for (i, s) in stacks.iter().enumerate() {
        let c = centre + vec2((i as f32 - (n - 1.0) / 2.0) * r * 1.6, 0.0);
        draw_mobile(frame, c, r, frame.palette.player(s.owner), s.unit_type);
        if tile >= 12.0 && (s.health.len() > 1 || stacks.len() > 1) {
            let text = s.label();
            labels.add(&frame.painter, &text, c - vec2(0.0, tile * 0.55), LABEL_FONT, Color32::WHITE);
        }
    }
}

/// A mobile unit's shape of radius `r` at `c`: disc = scout, square = demolisher,
/// triangle = interceptor.
fn draw_mobile(frame: &board::BoardFrame, c: egui::Pos2, r: f32, color: Color32, unit_type: usize) {
    match unit_type {
        3 => {
            frame.painter.circle_filled(c, r, color);
        }
        4 => {
            frame.painter.rect_filled(egui::Rect::from_center_size(c, vec2(r * 1.8, r * 1.8)), 2.0, color);
        }
        _ => {
            let pts = vec![c + vec2(0.0, -r), c + vec2(r, r * 0.8), c + vec2(-r, r * 0.8)];
            frame.painter.add(egui::Shape::convex_polygon(pts, color, Stroke::NONE));
        }
    }
    frame.painter.circle_stroke(c, r, Stroke::new(1.0, Color32::BLACK));
}

/// A predicted path with its end marked: a yellow ring = breach, an orange cross = self-destruct.
fn draw_path_with_end(frame: &board::BoardFrame, path: &[Tile], end: PathEnd, stroke: Stroke) {
    let tile = frame.geometry.tile;
    frame.draw_path(path, stroke);
    let Some(last) = path.last() else { return };
    let p = frame.geometry.tile_center(*last);
    match end {
        PathEnd::Breach => {
            frame.painter.circle_stroke(p, tile * 0.3, Stroke::new(2.0, frame.palette.highlight));
        }
        PathEnd::SelfDestruct => {
            let d = tile * 0.3;
            let s = Stroke::new(2.0, Color32::from_rgb(255, 140, 0));
            frame.painter.line_segment([p - vec2(d, d), p + vec2(d, d)], s);
            frame.painter.line_segment([p + vec2(-d, d), p + vec2(d, -d)], s);
        }
    }
}

fn draw_annotation(frame: &board::BoardFrame, a: &terminal_core::session::companions::Annotation) {
    use terminal_core::session::companions::AnnotationKind;
    // `#rrggbb` (ANNOTATIONS.md); a missing or unreadable colour draws in the default violet.
    let color = a.color.as_deref().and_then(|c| Color32::from_hex(c).ok()).unwrap_or(Color32::from_rgb(200, 120, 255));
    let g = frame.geometry;
    match &a.kind {
        AnnotationKind::Tile { tile, label } => {
            frame.fill_tile(*tile, color.gamma_multiply(0.45));
            if let Some(l) = label {
                frame.tile_label(*tile, l, Color32::WHITE);
            }
        }
        AnnotationKind::Line { from, to } => {
            frame.painter.line_segment([g.tile_center(*from), g.tile_center(*to)], Stroke::new(2.0, color));
        }
        AnnotationKind::Text { tile, text } => {
            frame.painter.text(
                g.tile_center(*tile),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(12.0),
                color,
            );
        }
    }
}
