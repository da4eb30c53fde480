//! The board in the centre: the frame's structures and mobile units with the debugger
//! overlays (paths, moved-from tiles, shields, attacks, fading markers, the algos'
//! annotations), or the what-if being edited.

use super::{Viewer, ViewerAction, whatif_board};
use crate::app::board::frame_draw::{self, FrameOverlay, draw_mobile, draw_path_with_end};
use crate::app::board::icons::{Icon, IconTextures};
use crate::app::board::labels::BoardLabels;
use crate::app::board::{self, BoardUnit, Palette};
use egui::{Color32, Stroke, Ui, vec2};
use terminal_core::engine::Player;
use terminal_core::engine::geometry::Tile;

impl Viewer {
    /// Draws the board with the frame's units and the overlays; a click selects a unit (or,
    /// on the what-if, applies its tool).
    pub(super) fn board(&mut self, ui: &mut Ui, icons: Option<&IconTextures>, dark: bool) -> Option<ViewerAction> {
        let frame = board::begin_with(ui, &mut self.board.view, Palette::new(dark), !self.panels_on_clear_color);
        self.board.geometry = Some(frame.geometry);
        self.board.hovered = frame.hovered;
        if self.whatif.board_whatif.is_some() {
            return self.draw_whatif(ui, frame, icons);
        }
        let Some((turn, v)) = &self.shown.current else {
            let hint = match (&self.empty_hint, self.shown.live) {
                (_, true) => "The match is starting…",
                (Some(h), false) => h.as_str(),
                // The default font has no arrow glyph: plain text only.
                (None, false) => "Open a replay: File > Open replay…, drag and drop, or `terminal-studio view FILE`",
            };
            // Wrapped to the board: a narrow window must not cut the hint at both ends.
            let rect = frame.geometry.rect;
            let font = egui::FontId::proportional(16.0);
            let galley = frame.painter.layout(hint.to_owned(), font, frame.palette.text, rect.width() * 0.9);
            frame.painter.galley(rect.center() - galley.size() / 2.0, galley, frame.palette.text);
            return None;
        };
        let g = frame.geometry;
        let pal = frame.palette;
        let o = self.prefs.overlays;
        let recent = self.board.recent_markers.iter().map(|(i, m)| (*i, m.as_slice()));
        let overlay = FrameOverlay {
            frame: &v.frame,
            debug: &v.debug,
            markers: frame_draw::fading_markers(recent, v.index),
            selected: self.board.selected,
        };
        let mut labels = BoardLabels::default();
        frame_draw::draw_overlays_under(&frame, o, &overlay);
        frame_draw::draw_units(&frame, &mut labels, icons, &v.frame, self.ruleset().as_deref());
        frame_draw::draw_overlays_over(&frame, &mut labels, o, &overlay);
        // The hovered edge tile's path and where each mobile type would die on it.
        if let Some(threat) = self.hovered_threat() {
            frame.draw_path(&threat.path, Stroke::new((g.tile * 0.2).clamp(2.0, 5.0), pal.highlight));
            crate::app::board::threat::draw_marks(&frame, threat);
        }
        if let Some(outcome) = self.planner.hovered() {
            draw_planned(&frame, outcome, pal.player(self.planner.result_seat()));
        }
        labels.paint(&frame.painter);
        self.board.labels = labels.into_placed();
        // The algos' annotations.
        if o.annotations {
            for a in self.shown.companions.annotations(*turn) {
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
    fn draw_whatif(&self, ui: &mut Ui, frame: board::BoardFrame, icons: Option<&IconTextures>) -> Option<ViewerAction> {
        let w = self.whatif.board_whatif.as_ref()?;
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
        // Over the structures: the played upgrades and removals concern them.
        super::played_draw::draw_played(&frame, icons, w);
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
        for ((tile, pi, t), n) in stacks {
            draw_mobile(&frame, tile, pal.player[pi], t as usize, n);
        }
        for path in w.paths() {
            draw_path_with_end(
                &frame,
                &path.tiles,
                path.end,
                Stroke::new(2.0, pal.player(path.owner).gamma_multiply(0.9)),
            );
        }
        if let Some(outcome) = self.planner.hovered() {
            draw_planned(&frame, outcome, pal.player(self.planner.result_seat()));
        }
        super::played_draw::legend(ui, &frame, w);
        frame.draw_hover(pal.text);
        let undo = frame.response.secondary_clicked();
        if frame.response.clicked() || undo {
            Some(frame.hovered.map_or(ViewerAction::WhatIfClickOff, |tile| ViewerAction::WhatIfClick { tile, undo }))
        } else {
            None
        }
    }
}

/// A planned attack's units' walks, the tiles where it breached and the structures it
/// destroyed.
fn draw_planned(frame: &board::BoardFrame, outcome: &terminal_core::layout::stress::AttackOutcome, color: Color32) {
    let width = (frame.geometry.tile * 0.18).clamp(1.5, 4.0);
    for track in &outcome.unit_paths {
        frame.draw_path(&track.tiles, Stroke::new(width, color));
    }
    for (tile, _) in &outcome.breach_tiles {
        frame.fill_tile(*tile, color.gamma_multiply(0.45));
    }
    for tile in &outcome.lost_tiles {
        frame.tile_label(*tile, "x", color);
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
