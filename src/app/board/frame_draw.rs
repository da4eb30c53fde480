//! One frame as the Debugger draws it — structures with health bars, mobile units, and the
//! debugger overlays (moved-from tiles, blast areas, paths, shields, attacks, fading markers)
//! — for the Debugger's board and for the boards of the side-by-side comparison alike.

use crate::app::board::icons::{Icon, IconTextures};
use crate::app::board::labels::BoardLabels;
use crate::app::board::{BoardFrame, BoardUnit};
use crate::app::model::DebugOverlays;
use egui::{Color32, Stroke, vec2};
use std::collections::{BTreeMap, HashSet};
use terminal_core::engine::Config;
use terminal_core::engine::Player;
use terminal_core::engine::config::{REMOVE, UPGRADE};
use terminal_core::engine::frame::Frame;
use terminal_core::engine::geometry::Tile;
use terminal_core::layout::Kind;
use terminal_core::session::debug::{FrameDebug, Marker, PathEnd};

/// Frames a death/breach/self-destruct marker stays visible.
pub const MARKER_FRAMES: usize = 4;

/// What the overlays of one frame are drawn from.
pub struct FrameOverlay<'a> {
    pub frame: &'a Frame,
    pub debug: &'a FrameDebug,
    /// The markers of this frame and the few before it, each with how visible it still is
    /// (1 = this frame's).
    pub markers: Vec<(f32, &'a Marker)>,
    /// The selected unit, whose path is drawn bolder.
    pub selected: Option<u32>,
}

/// The markers of recent frames `(frame index, markers)` as seen at frame `index`, fading
/// over [`MARKER_FRAMES`] frames.
pub fn fading_markers<'a>(recent: impl Iterator<Item = (usize, &'a [Marker])>, index: usize) -> Vec<(f32, &'a Marker)> {
    recent
        .filter(|(i, _)| *i <= index && index - *i < MARKER_FRAMES)
        .flat_map(|(i, markers)| {
            let alpha = 1.0 - (index - i) as f32 / MARKER_FRAMES as f32;
            markers.iter().map(move |m| (alpha, m))
        })
        .collect()
}

/// What lies under the units: moved-from tiles and blast areas.
pub fn draw_overlays_under(bf: &BoardFrame, o: DebugOverlays, f: &FrameOverlay) {
    if o.moved_from {
        for m in &f.debug.mobiles {
            if let Some(from) = m.moved_from {
                bf.fill_tile(from, bf.palette.player(m.owner).gamma_multiply(0.25));
            }
        }
    }
    if o.markers {
        for (alpha, mk) in &f.markers {
            if let Marker::SelfDestruct { blast, .. } = mk {
                for t in blast {
                    bf.fill_tile(*t, Color32::from_rgb(255, 140, 0).gamma_multiply(0.25 * alpha));
                }
            }
        }
    }
}

/// The frame's structures (health against `config`'s, else a nominal 60) and mobile units,
/// each stack with its size × health in `labels`.
pub fn draw_units(
    bf: &BoardFrame,
    labels: &mut BoardLabels,
    icons: Option<&IconTextures>,
    frame: &Frame,
    config: Option<&Config>,
) {
    let max_health = config.map_or([[60.0; 2]; 3], terminal_core::session::summary::structure_max_health);
    let mut units = Vec::new();
    for p in Player::both() {
        let lists = frame.units_of(p);
        let ids = |list: usize| -> HashSet<u32> {
            lists.get(list).map(|l| l.iter().map(|u| u.id).collect()).unwrap_or_default()
        };
        let (upgraded, removing) = (ids(UPGRADE), ids(REMOVE));
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
    bf.draw_units(icons, units);
    // Mobile units: a shape per stack (same tile, owner and type), with its size and health.
    let mut stacks: BTreeMap<Tile, Vec<Stack>> = Default::default();
    for p in Player::both() {
        for (t, u) in frame.real_units(p).filter(|(t, _)| *t >= 3) {
            let on_tile = stacks.entry(u.tile).or_default();
            match on_tile.iter_mut().find(|s| s.owner == p && s.unit_type == t) {
                Some(s) => s.health.push(u.health),
                None => on_tile.push(Stack { owner: p, unit_type: t, health: vec![u.health] }),
            }
        }
    }
    for (tile, on_tile) in &stacks {
        draw_stacks(bf, labels, *tile, on_tile);
    }
}

/// The labels' font on the board.
pub const LABEL_FONT: egui::FontId = egui::FontId::monospace(11.0);

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
fn draw_stacks(bf: &BoardFrame, labels: &mut BoardLabels, at: Tile, stacks: &[Stack]) {
    let tile = bf.geometry.tile;
    let centre = bf.geometry.tile_center(at);
    let n = stacks.len() as f32;
    let r = if stacks.len() > 1 { tile * 0.26 } else { tile * 0.36 };
    for (i, s) in stacks.iter().enumerate() {
        let c = centre + vec2((i as f32 - (n - 1.0) / 2.0) * r * 1.6, 0.0);
        draw_mobile_shape(bf, c, r, bf.palette.player(s.owner), s.unit_type);
        if tile >= 12.0 && (s.health.len() > 1 || stacks.len() > 1) {
            labels.add(&bf.painter, &s.label(), c - vec2(0.0, tile * 0.55), LABEL_FONT, Color32::WHITE);
        }
    }
}

/// What lies over the units: paths, shields, attacks and the death / breach / self-destruct
/// crosses; the figures go to `labels`, which places them apart.
pub fn draw_overlays_over(bf: &BoardFrame, labels: &mut BoardLabels, o: DebugOverlays, f: &FrameOverlay) {
    let g = bf.geometry;
    let tile = g.tile;
    if o.paths {
        for m in &f.debug.mobiles {
            let c = bf.palette.player(m.owner).gamma_multiply(0.8);
            let width = if f.selected == Some(m.id) { 3.5 } else { 1.5 };
            draw_path_with_end(bf, &m.path, m.path_end, Stroke::new(width, c));
        }
    }
    // Attacks with damage: one figure per attacker and tile hit (a turret's shots at one
    // stack add up).
    if o.attacks {
        let mut hits: BTreeMap<(Tile, Tile), f32> = Default::default();
        for a in &f.debug.attacks {
            let (from, to) = (g.tile_center(a.from), g.tile_center(a.to));
            bf.painter.arrow(from, to - from, Stroke::new(1.5, Color32::from_rgb(255, 80, 60)));
            *hits.entry((a.from, a.to)).or_default() += a.damage;
        }
        if tile >= 14.0 {
            for ((from, to), damage) in hits {
                let at = g.tile_center(from).lerp(g.tile_center(to), 0.6);
                labels.add(&bf.painter, &format!("{damage:.0}"), at, LABEL_FONT, Color32::from_rgb(255, 200, 190));
            }
        }
    }
    // Shields: support → unit, with the amount each tile's units got this frame.
    if o.shields {
        let cyan = Color32::from_rgb(80, 220, 255);
        let mut given: BTreeMap<Tile, f32> = Default::default();
        for s in &f.frame.events.shield {
            let (a, b) = (g.tile_center(s.from), g.tile_center(s.to));
            bf.painter.line_segment([a, b], Stroke::new(1.5, cyan));
            bf.painter.circle_filled(b, tile * 0.12, cyan);
            *given.entry(s.to).or_default() += s.amount;
        }
        if tile >= 14.0 {
            for (to, amount) in given {
                let at = g.tile_center(to) + vec2(0.0, tile * 0.6);
                labels.add(&bf.painter, &format!("+{amount:.0}"), at, LABEL_FONT, cyan);
            }
        }
    }
    if o.markers {
        for (alpha, mk) in &f.markers {
            let (t, color) = match mk {
                Marker::Death { tile, .. } => (*tile, Color32::from_rgb(240, 240, 240)),
                Marker::Breach { tile, .. } => (*tile, bf.palette.highlight),
                Marker::SelfDestruct { tile, .. } => (*tile, Color32::from_rgb(255, 140, 0)),
            };
            let c = g.tile_center(t);
            let d = tile * 0.4;
            let s = Stroke::new(2.5, color.gamma_multiply(*alpha));
            bf.painter.line_segment([c - vec2(d, d), c + vec2(d, d)], s);
            bf.painter.line_segment([c + vec2(-d, d), c + vec2(d, -d)], s);
        }
    }
}

/// A mobile unit (or a stack of `n`) on a tile, with the count when tiles are big enough.
pub fn draw_mobile(frame: &BoardFrame, at: Tile, color: Color32, unit_type: usize, n: u32) {
    let tile = frame.geometry.tile;
    let c = frame.geometry.tile_center(at);
    draw_mobile_shape(frame, c, tile * 0.36, color, unit_type);
    if n > 1 && tile >= 12.0 {
        frame.painter.text(
            c,
            egui::Align2::CENTER_CENTER,
            n.to_string(),
            egui::FontId::monospace((tile * 0.4).clamp(8.0, 14.0)),
            Color32::BLACK,
        );
    }
}

/// A mobile unit's shape of radius `r` at `c`: disc = scout, square = demolisher,
/// triangle = interceptor.
fn draw_mobile_shape(frame: &BoardFrame, c: egui::Pos2, r: f32, color: Color32, unit_type: usize) {
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
pub fn draw_path_with_end(frame: &BoardFrame, path: &[Tile], end: PathEnd, stroke: Stroke) {
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
