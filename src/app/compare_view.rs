//! Two replays side by side on two boards, drawn from the core's [`SideBySide`] model as the
//! Debugger draws a frame (with its overlays where the sides have debugger data), with the
//! differing tiles outlined and a short diff summary (HP, SP, MP, units per type).

use crate::app::board::frame_draw::MARKER_FRAMES;
use crate::app::board::frame_draw::{self, FrameOverlay};
use crate::app::board::icons::IconTextures;
use crate::app::board::labels::BoardLabels;
use crate::app::board::{self, BoardGeometry, Palette};
use crate::app::model::BoardView;
use crate::app::model::DebugOverlays;
use egui::{Color32, Rect, Stroke, Ui, UiBuilder, vec2};
use std::sync::Arc;
use terminal_core::engine::config::unit_name;
use terminal_core::engine::frame::Frame;
use terminal_core::engine::geometry::Player;
use terminal_core::session::debug::FrameDebug;
use terminal_core::side_by_side::SideBySide;

/// The comparison and each board's own zoom and pan.
pub struct CompareView {
    pub model: SideBySide,
    views: [BoardView; 2],
    /// Per side, the debugger data of each frame of its replay (two what-if tries have it),
    /// drawn as the Debugger's overlays.
    debug: [Option<Arc<Vec<FrameDebug>>>; 2],
    /// The two boards as last drawn.
    pub geometry: [Option<BoardGeometry>; 2],
}

impl CompareView {
    pub fn new(model: SideBySide) -> CompareView {
        CompareView { model, views: [BoardView::default(); 2], debug: [None, None], geometry: [None; 2] }
    }

    /// A comparison whose boards also show the debugger overlays, from each side's data per frame.
    pub fn with_debug(model: SideBySide, debug: [Arc<Vec<FrameDebug>>; 2]) -> CompareView {
        CompareView { debug: debug.map(Some), ..CompareView::new(model) }
    }

    /// The whole view with its own controls (the Arena's): controls, summary, two boards.
    /// Returns true when "Close" was pressed.
    pub fn show(&mut self, ui: &mut Ui, icons: Option<&IconTextures>, dark: bool) -> bool {
        let mut close = false;
        // Wrapped: on a narrow window the sliders go to a line of their own, never past the edge.
        ui.horizontal_wrapped(|ui| {
            if ui.button("Close comparison").clicked() {
                close = true;
            }
            ui.separator();
            if ui.button("<< Turn").on_hover_text("Previous turn").clicked() {
                self.model.step_turn(false);
            }
            if ui.button("< Frame").on_hover_text("Previous frame").clicked() {
                self.model.step_frame(false);
            }
            if ui.button("Frame >").on_hover_text("Next frame").clicked() {
                self.model.step_frame(true);
            }
            if ui.button("Turn >>").on_hover_text("Next turn").clicked() {
                self.model.step_turn(true);
            }
            let max_turn = self.model.max_turn();
            ui.add(egui::Slider::new(&mut self.model.turn, 0..=max_turn).text("Turn"));
            let max_frame = self.model.max_frame();
            self.model.frame = self.model.frame.min(max_frame);
            ui.add(egui::Slider::new(&mut self.model.frame, 0..=max_frame).text("Frame"));
            if ui.input(|i| i.key_pressed(egui::Key::ArrowRight)) {
                self.model.step_frame(true);
            }
            if ui.input(|i| i.key_pressed(egui::Key::ArrowLeft)) {
                self.model.step_frame(false);
            }
        });
        self.boards(ui, icons, dark, None);
        close
    }

    /// The summary and the two boards in the rest of `ui`, with `overlays` where the sides
    /// have debugger data.
    pub fn boards(&mut self, ui: &mut Ui, icons: Option<&IconTextures>, dark: bool, overlays: Option<DebugOverlays>) {
        let diff = self.model.differing_tiles();
        self.summary(ui, diff.len());
        let rect = ui.available_rect_before_wrap();
        let half = (rect.width() - 8.0) / 2.0;
        let sides = [
            Rect::from_min_size(rect.min, vec2(half, rect.height())),
            Rect::from_min_size(rect.min + vec2(half + 8.0, 0.0), vec2(half, rect.height())),
        ];
        for (i, side) in sides.into_iter().enumerate() {
            let replay = if i == 0 { &self.model.a } else { &self.model.b };
            let index = self.model.frame_index_of(replay);
            let frame = index.and_then(|k| replay.frames.get(k));
            let title = self.model.titles[i].clone();
            let debug = self.debug[i].as_deref().map(Vec::as_slice).unwrap_or_default();
            let mut view = self.views[i];
            ui.scope_builder(UiBuilder::new().max_rect(side).id_salt(("compare-side", i)), |ui| {
                ui.label(egui::RichText::new(title).strong()).on_hover_text(replay.source.display().to_string());
                let bf = board::begin(ui, &mut view, Palette::new(dark));
                let overlay = match (frame, index, overlays) {
                    (Some(f), Some(k), Some(o)) => debug.get(k).map(|d| (o, overlay_of(f, d, debug, k))),
                    _ => None,
                };
                let mut labels = BoardLabels::default();
                if let Some((o, ov)) = &overlay {
                    frame_draw::draw_overlays_under(&bf, *o, ov);
                }
                if let Some(f) = frame {
                    frame_draw::draw_units(&bf, &mut labels, icons, f, Some(&replay.config));
                }
                if let Some((o, ov)) = &overlay {
                    frame_draw::draw_overlays_over(&bf, &mut labels, *o, ov);
                }
                labels.paint(&bf.painter);
                for t in &diff {
                    bf.painter.rect_stroke(
                        bf.geometry.tile_rect(*t).expand(1.0),
                        2.0,
                        Stroke::new(2.5, bf.palette.highlight),
                        egui::StrokeKind::Outside,
                    );
                }
                bf.draw_hover(bf.palette.text);
                self.geometry[i] = Some(bf.geometry);
            });
            self.views[i] = view;
        }
        ui.allocate_rect(rect, egui::Sense::hover());
    }

    fn summary(&self, ui: &mut Ui, diff: usize) {
        let (fa, fb) = (self.model.frame_of(&self.model.a), self.model.frame_of(&self.model.b));
        // Wrapped: at 1000 px the two players' figures do not fit on one line.
        ui.horizontal_wrapped(|ui| {
            let text = format!("{diff} differing tiles");
            let label = if diff > 0 {
                egui::RichText::new(text).color(Color32::from_rgb(230, 170, 0)).strong()
            } else {
                egui::RichText::new(text).strong()
            };
            ui.label(label);
            ui.separator();
            for p in Player::both() {
                let s = |f: Option<&Frame>| f.map(|f| *f.stats_of(p)).unwrap_or_default();
                let (sa, sb) = (s(fa), s(fb));
                ui.label(format!(
                    "P{}  HP {:.0}/{:.0} ({:+.0})  SP {:.1}/{:.1} ({:+.1})  MP {:.1}/{:.1} ({:+.1})",
                    p.number(),
                    sa.hp,
                    sb.hp,
                    sb.hp - sa.hp,
                    sa.sp,
                    sb.sp,
                    sb.sp - sa.sp,
                    sa.mp,
                    sb.mp,
                    sb.mp - sa.mp
                ));
                ui.separator();
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.weak("Units A/B:");
            for p in Player::both() {
                let count =
                    |f: Option<&Frame>, t: usize| f.and_then(|f| f.units_of(p).get(t)).map(|l| l.len()).unwrap_or(0);
                let parts: Vec<String> = (0..6)
                    .filter_map(|t| {
                        let (ca, cb) = (count(fa, t), count(fb, t));
                        (ca + cb > 0).then(|| format!("{} {ca}/{cb}", unit_name(t, false)))
                    })
                    .collect();
                let text = if parts.is_empty() { "none".to_string() } else { parts.join(", ") };
                ui.label(format!("P{}: {text}", p.number()));
                ui.separator();
            }
        });
    }
}

/// The overlays of frame `k` of a side, with the markers of the frames just before it fading.
fn overlay_of<'a>(f: &'a Frame, d: &'a FrameDebug, all: &'a [FrameDebug], k: usize) -> FrameOverlay<'a> {
    let recent = (k.saturating_sub(MARKER_FRAMES)..=k).filter_map(|j| all.get(j).map(|d| (j, d.markers.as_slice())));
    FrameOverlay { frame: f, debug: d, markers: frame_draw::fading_markers(recent, k), selected: None }
}
