//! The board widget: the 28×28 diamond at any size, zoom (wheel) and pan (middle or right
//! drag), both halves tinted, unit icons with health bars. Overlays are painted by the caller
//! between the layers, using [`BoardGeometry`] to map tiles to screen rectangles.

pub mod frame_draw;
pub mod icons;
pub mod labels;
pub mod threat;

use super::model::{BoardView, MAX_ZOOM, MIN_ZOOM};
use egui::{Color32, Painter, PointerButton, Pos2, Rect, Response, Sense, Stroke, Ui, Vec2, pos2, vec2};
use icons::{Icon, IconTextures};
use terminal_core::engine::geometry::{BOARD_SIZE, Edge, HALF, Player, Tile, all_tiles};

/// Maps tiles to screen space for one frame. Row 27 is at the top (player 2), row 0 at the
/// bottom (player 1), as in the game's own viewer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardGeometry {
    /// The widget's rectangle.
    pub rect: Rect,
    /// Side of one tile in points.
    pub tile: f32,
    /// Screen position of the top-left corner of the bounding square.
    pub origin: Pos2,
}

impl BoardGeometry {
    pub fn new(rect: Rect, view: BoardView) -> BoardGeometry {
        let base = rect.width().min(rect.height()) * 0.97 / BOARD_SIZE as f32;
        // Whole-point tiles on a whole-point origin: tile edges fall on pixel boundaries, so
        // the grid stays crisp at any zoom (and at integer pixels-per-point).
        let tile = (base * view.zoom).round().max(2.0);
        let half = tile * BOARD_SIZE as f32 / 2.0;
        let origin = (rect.center() - vec2(half, half) + view.pan).round();
        BoardGeometry { rect, tile, origin }
    }

    pub fn tile_rect(&self, t: Tile) -> Rect {
        let min = self.origin + vec2(t.x as f32 * self.tile, (BOARD_SIZE - 1 - t.y) as f32 * self.tile);
        Rect::from_min_size(min, Vec2::splat(self.tile))
    }

    pub fn tile_center(&self, t: Tile) -> Pos2 {
        self.tile_rect(t).center()
    }

    /// The playable tile under a screen position, if any.
    pub fn tile_at(&self, pos: Pos2) -> Option<Tile> {
        let fx = ((pos.x - self.origin.x) / self.tile).floor();
        let fy = ((pos.y - self.origin.y) / self.tile).floor();
        if !fx.is_finite() || !fy.is_finite() {
            return None;
        }
        let t = Tile::new(fx as i32, BOARD_SIZE - 1 - fy as i32);
        t.in_play().then_some(t)
    }
}

/// Colours of the board, per theme.
#[derive(Clone, Copy, Debug)]
pub struct Palette {
    pub background: Color32,
    pub half: [Color32; 2],
    pub half_alt: [Color32; 2],
    pub edge: [Color32; 2],
    pub player: [Color32; 2],
    pub grid: Color32,
    pub text: Color32,
    /// Breach rings, edited tiles and titles on the board: yellow on the dark board, a dark
    /// amber on the light one (yellow all but vanishes there).
    pub highlight: Color32,
}

impl Palette {
    /// An empty tile's colour: its half's, lighter on the edges, checkered inside.
    pub fn tile_fill(&self, t: Tile) -> Color32 {
        let owner = t.owner_half().index();
        if Edge::ALL.iter().any(|e| e.contains(t)) {
            self.edge[owner]
        } else if (t.x + t.y) % 2 == 0 {
            self.half[owner]
        } else {
            self.half_alt[owner]
        }
    }

    pub fn new(dark: bool) -> Palette {
        if dark {
            Palette {
                background: Color32::from_rgb(18, 20, 26),
                half: [Color32::from_rgb(34, 46, 72), Color32::from_rgb(70, 38, 42)],
                half_alt: [Color32::from_rgb(38, 51, 79), Color32::from_rgb(77, 42, 46)],
                edge: [Color32::from_rgb(48, 66, 104), Color32::from_rgb(100, 52, 58)],
                player: [Color32::from_rgb(90, 160, 255), Color32::from_rgb(255, 110, 100)],
                grid: Color32::from_rgb(12, 14, 18),
                text: Color32::from_gray(220),
                highlight: Color32::from_rgb(255, 220, 0),
            }
        } else {
            Palette {
                background: Color32::from_rgb(236, 238, 242),
                half: [Color32::from_rgb(205, 220, 246), Color32::from_rgb(246, 212, 210)],
                half_alt: [Color32::from_rgb(196, 213, 242), Color32::from_rgb(242, 202, 200)],
                edge: [Color32::from_rgb(170, 195, 240), Color32::from_rgb(240, 180, 176)],
                player: [Color32::from_rgb(30, 100, 220), Color32::from_rgb(210, 50, 45)],
                grid: Color32::from_rgb(250, 250, 252),
                text: Color32::from_gray(30),
                highlight: Color32::from_rgb(170, 100, 0),
            }
        }
    }

    pub fn player(&self, p: Player) -> Color32 {
        self.player[p.index()]
    }
}

/// One unit to draw.
#[derive(Clone, Copy, Debug)]
pub struct BoardUnit {
    pub tile: Tile,
    pub icon: Icon,
    pub owner: Player,
    /// Health as a fraction of start health.
    pub health: f32,
    pub marked_for_removal: bool,
}

/// A board being drawn this frame.
pub struct BoardFrame {
    pub geometry: BoardGeometry,
    pub response: Response,
    pub painter: Painter,
    pub palette: Palette,
    /// The playable tile under the pointer.
    pub hovered: Option<Tile>,
}

/// Allocates the board in the remaining space, applies zoom/pan input and draws the tiles.
pub fn begin(ui: &mut Ui, view: &mut BoardView, palette: Palette) -> BoardFrame {
    begin_with(ui, view, palette, true)
}

/// [`begin`]; without `paint_background` the area around the diamond is left to what is
/// beneath (the window's clear colour), which saves half the board's pixels under llvmpipe.
pub fn begin_with(ui: &mut Ui, view: &mut BoardView, palette: Palette, paint_background: bool) -> BoardFrame {
    let rect = ui.available_rect_before_wrap();
    let response = ui.allocate_rect(rect, Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Board"));
    // Zoom around the pointer with the wheel (or pinch / ctrl+wheel).
    if response.hovered() {
        let (scroll, zoom_delta, pointer) =
            ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta(), i.pointer.hover_pos()));
        let factor = zoom_delta * (scroll * 0.0025).exp();
        if (factor - 1.0).abs() > 1e-4 {
            let new_zoom = (view.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
            let applied = new_zoom / view.zoom;
            if let Some(p) = pointer {
                // Keep the point under the cursor fixed: origin' = p - (p - origin) * applied.
                let centre = rect.center() + view.pan;
                let new_centre = p - (p - centre) * applied;
                view.pan = new_centre - rect.center();
            }
            view.zoom = new_zoom;
        }
    }
    if response.dragged_by(PointerButton::Middle) || response.dragged_by(PointerButton::Secondary) {
        view.pan += response.drag_delta();
    }
    let geometry = BoardGeometry::new(rect, *view);
    let painter = ui.painter_at(rect);
    if paint_background {
        draw_background(&painter, &geometry, &palette);
    }
    draw_tiles(&painter, &geometry, &palette);
    let hovered = response.hover_pos().and_then(|p| geometry.tile_at(p));
    BoardFrame { geometry, response, painter, palette, hovered }
}

/// The first and last playable column of row `y`.
fn row_extent(y: i32) -> (i32, i32) {
    if y < HALF { (13 - y, 14 + y) } else { (y - 14, 41 - y) }
}

/// Paints the background only where no tile will be: under software rendering (llvmpipe)
/// every covered pixel costs, so the board is painted in one layer rather than a full
/// background rectangle under the tiles.
fn draw_background(painter: &Painter, g: &BoardGeometry, palette: &Palette) {
    let rect = g.rect;
    let side = g.tile * BOARD_SIZE as f32;
    let square = Rect::from_min_size(g.origin, Vec2::splat(side));
    let mut mesh = egui::Mesh::default();
    let mut fill = |r: Rect| {
        let r = r.intersect(rect);
        if r.is_positive() {
            mesh.add_colored_rect(r, palette.background);
        }
    };
    // Strips around the bounding square.
    fill(Rect::from_min_max(rect.min, pos2(rect.max.x, square.min.y)));
    fill(Rect::from_min_max(pos2(rect.min.x, square.max.y), rect.max));
    fill(Rect::from_min_max(pos2(rect.min.x, square.min.y), pos2(square.min.x, square.max.y)));
    fill(Rect::from_min_max(pos2(square.max.x, square.min.y), pos2(rect.max.x, square.max.y)));
    // Inside the square, the unplayable corners row by row.
    for y in 0..BOARD_SIZE {
        let (first, last) = row_extent(y);
        let top = g.tile_rect(Tile::new(0, y)).min.y;
        let bottom = top + g.tile;
        fill(Rect::from_min_max(pos2(square.min.x, top), pos2(g.origin.x + first as f32 * g.tile, bottom)));
        fill(Rect::from_min_max(pos2(g.origin.x + (last + 1) as f32 * g.tile, top), pos2(square.max.x, bottom)));
    }
    painter.add(egui::Shape::mesh(mesh));
}

fn draw_tiles(painter: &Painter, g: &BoardGeometry, palette: &Palette) {
    // One mesh of plain quads: tile edges are on whole pixels, so they need no anti-aliasing
    // feathering, which would quintuple the triangles (llvmpipe pays per triangle).
    let mut mesh = egui::Mesh::default();
    for t in all_tiles() {
        mesh.add_colored_rect(g.tile_rect(t), palette.tile_fill(t));
    }
    painter.add(egui::Shape::mesh(mesh));
    // The grid as thin lines on the tile boundaries (not a layer under every tile).
    if g.tile >= 10.0 {
        let stroke = Stroke::new(1.0, palette.grid);
        // Horizontal boundary below row y (y = 0 is the bottom edge): spans both rows.
        for y in 0..=BOARD_SIZE {
            let rows = [y - 1, y].into_iter().filter(|r| (0..BOARD_SIZE).contains(r));
            let (first, last) = rows.map(row_extent).fold((BOARD_SIZE, -1), |a, b| (a.0.min(b.0), a.1.max(b.1)));
            let line_y = g.origin.y + (BOARD_SIZE - y) as f32 * g.tile;
            let x0 = g.origin.x + first as f32 * g.tile;
            let x1 = g.origin.x + (last + 1) as f32 * g.tile;
            painter.line_segment([pos2(x0, line_y), pos2(x1, line_y)], stroke);
        }
        // Vertical boundary left of column x: the diamond is symmetric, so columns have the
        // rows' extents.
        for x in 0..=BOARD_SIZE {
            let cols = [x - 1, x].into_iter().filter(|c| (0..BOARD_SIZE).contains(c));
            let (first, last) = cols.map(row_extent).fold((BOARD_SIZE, -1), |a, b| (a.0.min(b.0), a.1.max(b.1)));
            let line_x = g.origin.x + x as f32 * g.tile;
            let y_top = g.origin.y + (BOARD_SIZE - 1 - last) as f32 * g.tile;
            let y_bottom = g.origin.y + (BOARD_SIZE - first) as f32 * g.tile;
            painter.line_segment([pos2(line_x, y_top), pos2(line_x, y_bottom)], stroke);
        }
    }
    // The midline between the halves.
    let left = g.tile_rect(Tile::new(0, 14)).left_bottom();
    let right = g.tile_rect(Tile::new(27, 14)).right_bottom();
    painter.line_segment([left, right], Stroke::new(2.0, palette.grid));
}

impl BoardFrame {
    /// Fills a tile with a translucent colour (heat maps).
    pub fn fill_tile(&self, t: Tile, color: Color32) {
        self.painter.rect_filled(self.geometry.tile_rect(t), 0.0, color);
    }

    /// A small label centred on a tile, only when tiles are big enough to read it.
    pub fn tile_label(&self, t: Tile, text: &str, color: Color32) {
        if self.geometry.tile < 16.0 {
            return;
        }
        let size = (self.geometry.tile * 0.38).clamp(8.0, 16.0);
        self.painter.text(
            self.geometry.tile_center(t),
            egui::Align2::CENTER_CENTER,
            text,
            egui::FontId::monospace(size),
            color,
        );
    }

    /// Draws units: the icon tinted with the owner's colour, a removal cross, a health bar.
    pub fn draw_units(&self, icons: Option<&IconTextures>, units: impl IntoIterator<Item = BoardUnit>) {
        let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
        // Sorted by icon, and the bars after all icons, so that consecutive shapes share a
        // texture and batch into few draw calls; the bars are plain quads in one mesh.
        let mut units: Vec<BoardUnit> = units.into_iter().collect();
        units.sort_by_key(|u| u.icon as usize);
        let mut bars = egui::Mesh::default();
        for u in units {
            let r = self.geometry.tile_rect(u.tile).shrink(self.geometry.tile * 0.08);
            let color = self.palette.player(u.owner);
            match icons.and_then(|i| i.get(u.icon)) {
                Some(tex) => {
                    self.painter.image(tex.id(), r, uv, color);
                }
                None => {
                    self.painter.rect_filled(r, 2.0, color);
                }
            }
            if u.marked_for_removal {
                match icons.and_then(|i| i.get(Icon::Remove)) {
                    Some(tex) => {
                        self.painter.image(tex.id(), r, uv, Color32::WHITE);
                    }
                    None => {
                        self.painter.line_segment([r.left_top(), r.right_bottom()], Stroke::new(2.0, Color32::RED));
                        self.painter.line_segment([r.right_top(), r.left_bottom()], Stroke::new(2.0, Color32::RED));
                    }
                }
            }
            if self.geometry.tile >= 12.0 {
                let h = u.health.clamp(0.0, 1.0);
                let bar = Rect::from_min_size(
                    r.left_bottom() + vec2(0.0, -self.geometry.tile * 0.06),
                    vec2(r.width(), (self.geometry.tile * 0.09).max(2.0)),
                );
                bars.add_colored_rect(bar, Color32::from_black_alpha(160));
                let fill = Rect::from_min_size(bar.min, vec2(bar.width() * h, bar.height()));
                let c = if h > 0.6 {
                    Color32::from_rgb(80, 210, 90)
                } else if h > 0.3 {
                    Color32::from_rgb(240, 200, 50)
                } else {
                    Color32::from_rgb(240, 70, 60)
                };
                bars.add_colored_rect(fill, c);
            }
        }
        self.painter.add(egui::Shape::mesh(bars));
    }

    /// Outlines the hovered tile and writes its coordinates next to the pointer.
    pub fn draw_hover(&self, color: Color32) {
        if let Some(t) = self.hovered {
            let r = self.geometry.tile_rect(t);
            self.painter.rect_stroke(r, 0.0, Stroke::new(2.0, color), egui::StrokeKind::Inside);
            let at = r.right_top() + vec2(4.0, -4.0);
            let galley = self.painter.layout_no_wrap(
                format!("{},{}", t.x, t.y),
                egui::FontId::monospace(13.0),
                self.palette.text,
            );
            let bg = Rect::from_min_size(at - vec2(0.0, galley.size().y), galley.size()).expand(3.0);
            self.painter.rect_filled(bg, 3.0, self.palette.background.gamma_multiply(0.85));
            self.painter.galley(bg.min + vec2(3.0, 3.0), galley, self.palette.text);
        }
    }

    /// A polyline through tile centres.
    pub fn draw_path(&self, tiles: &[Tile], stroke: Stroke) {
        if tiles.len() < 2 {
            return;
        }
        let points: Vec<Pos2> = tiles.iter().map(|t| self.geometry.tile_center(*t)).collect();
        self.painter.add(egui::Shape::line(points, stroke));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_at_inverts_tile_rect() {
        let g = BoardGeometry::new(
            Rect::from_min_size(pos2(10.0, 20.0), vec2(600.0, 500.0)),
            BoardView { zoom: 1.7, pan: vec2(-30.0, 12.0) },
        );
        for t in all_tiles() {
            assert_eq!(g.tile_at(g.tile_center(t)), Some(t));
        }
        // The corners of the bounding square are off the diamond.
        assert_eq!(g.tile_at(g.tile_center(Tile::new(0, 0))), None);
    }

    #[test]
    fn row_extent_matches_in_play() {
        for y in 0..BOARD_SIZE {
            let (first, last) = row_extent(y);
            for x in 0..BOARD_SIZE {
                assert_eq!(Tile::new(x, y).in_play(), (first..=last).contains(&x), "{x},{y}");
            }
        }
    }

    #[test]
    fn player_one_is_at_the_bottom() {
        let g = BoardGeometry::new(Rect::from_min_size(Pos2::ZERO, vec2(560.0, 560.0)), BoardView::default());
        assert!(g.tile_center(Tile::new(13, 0)).y > g.tile_center(Tile::new(13, 27)).y);
    }
}
