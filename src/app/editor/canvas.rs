//! The editor's board: the layout's units, the overlays, and mouse editing (click, and drag
//! to paint a line of tiles as one undo step).

use super::Editor;
use crate::app::board::icons::{Icon, IconTextures};
use crate::app::board::{self, BoardFrame, BoardGeometry, BoardUnit, Palette};
use crate::app::command::{Command, EditorCommand};
use crate::app::model::{Edit, Overlays, Tool};
use egui::{Color32, Stroke as PenStroke, Ui};
use terminal_core::engine::geometry::{Edge, Player, Tile, all_tiles};
use terminal_core::layout::analysis::PathEnd;

/// A drag in progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    pub last: Tile,
    /// For the removal tool: the flag the stroke sets (decided by the first tile).
    pub remove_value: Option<bool>,
}

/// What the canvas reports back.
pub struct CanvasOutput {
    pub commands: Vec<Command>,
    pub hovered: Option<Tile>,
    pub geometry: BoardGeometry,
}

/// The tiles on the straight line from `a` to `b` (both included), in order.
pub fn line(a: Tile, b: Tile) -> Vec<Tile> {
    let n = (b.x - a.x).abs().max((b.y - a.y).abs());
    if n == 0 {
        return vec![a];
    }
    let mut out: Vec<Tile> = Vec::with_capacity(n as usize + 1);
    for i in 0..=n {
        let f = i as f32 / n as f32;
        let t = Tile::new(a.x + ((b.x - a.x) as f32 * f).round() as i32, a.y + ((b.y - a.y) as f32 * f).round() as i32);
        if out.last() != Some(&t) {
            out.push(t);
        }
    }
    out
}

fn tool_edit(tool: Tool, tile: Tile, remove_value: Option<bool>) -> Edit {
    match tool {
        Tool::Place(k) => Edit::Place(tile, k),
        Tool::Upgrade => Edit::Upgrade(tile),
        Tool::Remove => match remove_value {
            Some(v) => Edit::SetRemove(tile, v),
            None => Edit::ToggleRemove(tile),
        },
        Tool::Erase => Edit::Erase(tile),
    }
}

pub fn show(
    ui: &mut Ui,
    editor: &Editor,
    stroke: &mut Option<Stroke>,
    prefs: &mut super::EditorPrefs,
    icons: Option<&IconTextures>,
    dark: bool,
    extra: &dyn Fn(&BoardFrame),
) -> CanvasOutput {
    let palette = Palette::new(dark);
    let overlays = &prefs.overlays;
    let frame = board::begin(ui, &mut prefs.board_view, palette);
    draw_overlays_under(&frame, editor, overlays);
    let units = editor.layout.structures.iter().map(|(t, s)| BoardUnit {
        tile: *t,
        icon: Icon::of(s.kind, s.upgraded),
        owner: t.owner_half(),
        health: s.health,
        marked_for_removal: s.remove,
    });
    frame.draw_units(icons, units);
    extra(&frame);
    draw_paths(&frame, editor, overlays);
    let hover_color = palette.player(editor.player);
    frame.draw_hover(hover_color);

    let mut commands = Vec::new();
    let hovered = frame.hovered;
    let r = &frame.response;
    let primary_down = ui.input(|i| i.pointer.primary_down());
    let pressed = r.is_pointer_button_down_on() && primary_down;
    let first_edit = |t: Tile| {
        let remove_value = match editor.tool {
            Tool::Remove => Some(!editor.layout.get(t).is_some_and(|s| s.remove)),
            _ => None,
        };
        (tool_edit(editor.tool, t, remove_value), remove_value)
    };
    match (*stroke, pressed, hovered) {
        // A press starts a stroke on the tile under the pointer.
        (None, true, Some(t)) => {
            let (edit, remove_value) = first_edit(t);
            commands.extend([EditorCommand::BeginStroke.into(), EditorCommand::Edit(edit).into()]);
            *stroke = Some(Stroke { last: t, remove_value });
        }
        // Dragging paints every tile on the line from the last painted one.
        (Some(s), true, Some(t)) if t != s.last => {
            for tile in line(s.last, t).into_iter().skip(1) {
                if tile.in_play() {
                    commands.push(EditorCommand::Edit(tool_edit(editor.tool, tile, s.remove_value)).into());
                }
            }
            *stroke = Some(Stroke { last: t, ..s });
        }
        (Some(_), false, _) => {
            commands.push(EditorCommand::EndStroke.into());
            *stroke = None;
        }
        // A press and release within one frame (fast clicks, synthetic input).
        (None, false, Some(t)) if r.clicked() => {
            let (edit, _) = first_edit(t);
            commands.extend([
                EditorCommand::BeginStroke.into(),
                EditorCommand::Edit(edit).into(),
                EditorCommand::EndStroke.into(),
            ]);
        }
        _ => {}
    }
    CanvasOutput { commands, hovered, geometry: frame.geometry }
}

fn heat(count: u8, base: Color32) -> Color32 {
    let a = (40 + 45 * count.min(4) as u32).min(220) as u8;
    Color32::from_rgba_unmultiplied(base.r(), base.g(), base.b(), a)
}

fn players(editor: &Editor, overlays: &Overlays) -> Vec<Player> {
    if overlays.both_players { Player::both().to_vec() } else { vec![editor.player] }
}

fn draw_overlays_under(frame: &BoardFrame, editor: &Editor, overlays: &Overlays) {
    let a = &editor.analysis;
    let label = frame.palette.text;
    for p in players(editor, overlays) {
        if overlays.coverage {
            let base = Color32::from_rgb(255, 150, 30);
            for t in all_tiles() {
                let c = a.coverage[p.index()][t.index()];
                if c > 0 {
                    frame.fill_tile(t, heat(c, base));
                    if editor.layout.get(t).is_none() && !overlays.shields {
                        frame.tile_label(t, &c.to_string(), label);
                    }
                }
            }
        }
        if overlays.shields {
            let base = Color32::from_rgb(60, 220, 200);
            for t in all_tiles() {
                let n = a.shield_sources[p.index()][t.index()];
                if n > 0 {
                    frame.fill_tile(t, heat(n, base).gamma_multiply(0.8));
                    if editor.layout.get(t).is_none() {
                        let amount = a.shield[p.index()][t.index()];
                        frame.tile_label(t, &format!("{amount:.0}"), label);
                    }
                }
            }
        }
    }
}

fn draw_paths(frame: &BoardFrame, editor: &Editor, overlays: &Overlays) {
    let a = &editor.analysis;
    let width = (frame.geometry.tile * 0.12).clamp(1.5, 4.0);
    let hovered_edge = frame.hovered.filter(|t| Edge::ALL.iter().any(|e| e.contains(*t)));
    let mut shown: Vec<&terminal_core::layout::analysis::EdgePath> = Vec::new();
    if overlays.all_paths {
        shown.extend(a.paths.iter());
    }
    if overlays.hover_path
        && let Some(p) = hovered_edge.and_then(|t| a.path_from(t))
    {
        shown.push(p);
    }
    let threat = hovered_edge.filter(|_| overlays.hover_path).and_then(|t| editor.threat_from(t));
    for p in &shown {
        let highlighted = Some(p.start) == hovered_edge;
        let base = frame.palette.player(p.owner);
        let color =
            if highlighted || !overlays.all_paths { frame.palette.highlight } else { base.gamma_multiply(0.75) };
        let w = if highlighted { width * 1.8 } else { width };
        frame.draw_path(&p.tiles, PenStroke::new(w, color));
        if let Some(end) = p.tiles.last() {
            let c = frame.geometry.tile_center(*end);
            let r = frame.geometry.tile * 0.3;
            match p.end {
                PathEnd::Breach => {
                    frame.painter.circle(c, r, color, PenStroke::new(1.5, Color32::BLACK));
                }
                PathEnd::SelfDestruct => {
                    let s = PenStroke::new(w.max(2.5), Color32::from_rgb(255, 60, 60));
                    frame.painter.line_segment([c + egui::vec2(-r, -r), c + egui::vec2(r, r)], s);
                    frame.painter.line_segment([c + egui::vec2(r, -r), c + egui::vec2(-r, r)], s);
                }
            }
        }
    }
    if let Some(threat) = threat {
        crate::app::board::threat::draw_marks(frame, threat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_covers_every_step() {
        let l = line(Tile::new(5, 10), Tile::new(12, 10));
        assert_eq!(l.len(), 8);
        assert_eq!(l.first(), Some(&Tile::new(5, 10)));
        assert_eq!(l.last(), Some(&Tile::new(12, 10)));
        let d = line(Tile::new(5, 5), Tile::new(8, 8));
        assert_eq!(d.len(), 4);
        assert_eq!(line(Tile::new(3, 3), Tile::new(3, 3)), vec![Tile::new(3, 3)]);
    }
}
