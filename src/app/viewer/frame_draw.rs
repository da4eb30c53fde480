//! One frame as the Debugger draws it — structures with health bars, mobile units, and the
//! debugger overlays (moved-from tiles, blast areas, paths, shields, attacks, fading markers)
//! — for the Debugger's board and for the boards of the side-by-side comparison alike.

use super::{DebugOverlays, MARKER_FRAMES};
use crate::app::board::{BoardFrame, BoardUnit};
use crate::app::icons::{Icon, IconTextures};
use egui::{Color32, Stroke, vec2};
use std::collections::{BTreeMap, HashSet};
use terminal_core::engine::Config;
use terminal_core::engine::Player;
use terminal_core::engine::config::{REMOVE, UPGRADE};
use terminal_core::engine::frame::Frame;
use terminal_core::engine::geometry::Tile;
use terminal_core::layout::Kind;
use terminal_core::session::debug::{FrameDebug, Marker, PathEnd};

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

/// The frame's structures (health against `config`'s, else a nominal 60) and mobile units.
pub fn draw_units(bf: &BoardFrame, icons: Option<&IconTextures>, frame: &Frame, config: Option<&Config>) {
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
    // Mobile units: one shape per tile and type, with the count.
    let mut stacks: BTreeMap<(i32, i32, usize, usize), u32> = Default::default();
    for p in Player::both() {
        for (t, u) in frame.real_units(p).filter(|(t, _)| *t >= 3) {
            *stacks.entry((u.tile.x, u.tile.y, p.index(), t)).or_default() += 1;
        }
    }
    for ((x, y, pi, t), n) in stacks {
        draw_mobile(bf, Tile::new(x, y), bf.palette.player[pi], t, n);
    }
}

/// What lies over the units: paths, shields, attacks and the death / breach / self-destruct
/// crosses.
pub fn draw_overlays_over(bf: &BoardFrame, o: DebugOverlays, f: &FrameOverlay) {
    let g = bf.geometry;
    let tile = g.tile;
    if o.paths {
        for m in &f.debug.mobiles {
            let c = bf.palette.player(m.owner).gamma_multiply(0.8);
            let width = if f.selected == Some(m.id) { 3.5 } else { 1.5 };
            draw_path_with_end(bf, &m.path, m.path_end, Stroke::new(width, c));
        }
    }
    // Shields: support → unit with the amount.
    if o.shields {
        let cyan = Color32::from_rgb(80, 220, 255);
        for s in &f.frame.events.shield {
            let (a, b) = (g.tile_center(s.from), g.tile_center(s.to));
            bf.painter.line_segment([a, b], Stroke::new(1.5, cyan));
            bf.painter.circle_filled(b, tile * 0.12, cyan);
            if tile >= 14.0 {
                let at = b + vec2(0.0, tile * 0.45);
                let text = format!("+{:.0}", s.amount);
                bf.painter.text(at, egui::Align2::CENTER_CENTER, text, egui::FontId::monospace(11.0), cyan);
            }
        }
    }
    // Attacks with damage.
    if o.attacks {
        for a in &f.debug.attacks {
            let (from, to) = (g.tile_center(a.from), g.tile_center(a.to));
            bf.painter.arrow(from, to - from, Stroke::new(1.5, Color32::from_rgb(255, 80, 60)));
            if tile >= 14.0 {
                bf.painter.text(
                    from.lerp(to, 0.6),
                    egui::Align2::CENTER_CENTER,
                    format!("{:.0}", a.damage),
                    egui::FontId::monospace(11.0),
                    Color32::from_rgb(255, 200, 190),
                );
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

/// A mobile unit (or a stack of `n`) on a tile: disc = scout, square = demolisher, triangle =
/// interceptor, with the count when tiles are big enough.
pub fn draw_mobile(frame: &BoardFrame, at: Tile, color: Color32, unit_type: usize, n: u32) {
    let tile = frame.geometry.tile;
    let c = frame.geometry.tile_center(at);
    let r = tile * 0.36;
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
