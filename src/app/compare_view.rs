//! Two replays side by side on two boards, drawn from the core's [`SideBySide`] model, with
//! the differing tiles outlined and a short diff summary (HP, SP, MP, units per type).

use crate::app::board::{self, BoardUnit, BoardView, Palette};
use crate::app::icons::{Icon, IconTextures};
use egui::{Color32, Rect, Stroke, Ui, UiBuilder, vec2};
use std::collections::BTreeMap;
use terminal_core::engine::config::{Config, REMOVE, UPGRADE};
use terminal_core::engine::frame::Frame;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::layout::Kind;
use terminal_core::side_by_side::{SideBySide, UNIT_NAMES};

/// The comparison and each board's own zoom and pan.
pub struct CompareView {
    pub model: SideBySide,
    views: [BoardView; 2],
}

impl CompareView {
    pub fn new(model: SideBySide) -> CompareView {
        CompareView { model, views: [BoardView::default(); 2] }
    }

    /// The whole view: controls, summary, two boards. Returns true when "Close" was pressed.
    pub fn show(&mut self, ui: &mut Ui, icons: Option<&IconTextures>, dark: bool) -> bool {
        let mut close = false;
        ui.horizontal(|ui| {
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
            let frame = self.model.frame_of(replay);
            let title = self.model.titles[i].clone();
            let mut view = self.views[i];
            ui.scope_builder(UiBuilder::new().max_rect(side).id_salt(("compare-side", i)), |ui| {
                ui.label(egui::RichText::new(title).strong()).on_hover_text(replay.source.display().to_string());
                let bf = board::begin(ui, &mut view, Palette::new(dark));
                if let Some(f) = frame {
                    draw_frame(&bf, f, icons, &replay.config);
                }
                for t in &diff {
                    bf.painter.rect_stroke(
                        bf.geometry.tile_rect(*t).expand(1.0),
                        2.0,
                        Stroke::new(2.5, bf.palette.highlight),
                        egui::StrokeKind::Outside,
                    );
                }
                bf.draw_hover(bf.palette.text);
            });
            self.views[i] = view;
        }
        ui.allocate_rect(rect, egui::Sense::hover());
        close
    }

    fn summary(&self, ui: &mut Ui, diff: usize) {
        let (fa, fb) = (self.model.frame_of(&self.model.a), self.model.frame_of(&self.model.b));
        ui.horizontal(|ui| {
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
                        (ca + cb > 0).then(|| format!("{} {ca}/{cb}", UNIT_NAMES[t]))
                    })
                    .collect();
                let text = if parts.is_empty() { "none".to_string() } else { parts.join(", ") };
                ui.label(format!("P{}: {text}", p.number()));
                ui.separator();
            }
        });
    }
}

/// Draws one frame's units: structures with icons, mobile units as dots with a count.
fn draw_frame(bf: &board::BoardFrame, f: &Frame, icons: Option<&IconTextures>, config: &Config) {
    let mut structures = Vec::new();
    let mut mobiles: BTreeMap<(i32, i32, u8), (usize, usize)> = BTreeMap::new();
    for p in Player::both() {
        let lists = f.units_of(p);
        let has = |list: usize, t: Tile| lists.get(list).is_some_and(|l| l.iter().any(|u| u.tile == t));
        for (ty, u) in f.real_units(p) {
            if ty < 3 {
                let kind = [Kind::Wall, Kind::Support, Kind::Turret][ty];
                let upgraded = has(UPGRADE, u.tile);
                structures.push(BoardUnit {
                    tile: u.tile,
                    icon: Icon::of(kind, upgraded),
                    owner: p,
                    health: (u.health / config.form(ty, upgraded).start_health.max(1.0)).min(1.0),
                    marked_for_removal: has(REMOVE, u.tile),
                });
            } else {
                let e = mobiles.entry((u.tile.x, u.tile.y, p.number())).or_insert((ty, 0));
                e.1 += 1;
            }
        }
    }
    bf.draw_units(icons, structures);
    for ((x, y, owner), (ty, n)) in mobiles {
        let t = Tile::new(x, y);
        let player = if owner == 1 { Player::One } else { Player::Two };
        let c = bf.geometry.tile_center(t);
        let r = bf.geometry.tile * 0.32;
        bf.painter.circle(c, r, bf.palette.player(player), Stroke::new(1.0, Color32::BLACK));
        let letter = ["S", "D", "I"][ty.saturating_sub(3).min(2)];
        let text = if n > 1 { format!("{letter}{n}") } else { letter.to_string() };
        if bf.geometry.tile >= 10.0 {
            bf.painter.text(
                c,
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional((bf.geometry.tile * 0.4).max(7.0)),
                Color32::WHITE,
            );
        }
    }
}
