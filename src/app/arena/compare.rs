//! Two replays side by side, synchronised by turn and action frame, with the tiles whose
//! unit lists differ highlighted and a short diff summary (HP, SP, MP, units per type).

use crate::app::board::{self, BoardUnit, BoardView, Palette};
use crate::app::editor::layout::Kind;
use crate::app::icons::{Icon, IconTextures};
use crate::engine::config::Config;
use crate::engine::frame::Frame;
use crate::engine::geometry::{Player, Tile};
use crate::replay::{Replay, read_replay};
use crate::session::whatif::WhatIfTry;
use egui::{Color32, Rect, Stroke, Ui, UiBuilder, vec2};
use std::collections::BTreeMap;
use std::path::Path;

/// Unit type names by list index (0–5 real units).
pub const UNIT_NAMES: [&str; 6] = ["Wall", "Support", "Turret", "Scout", "Demolisher", "Interceptor"];
const REMOVE_LIST: usize = 6;
const UPGRADE_LIST: usize = 7;

/// One unit on a tile as compared: owner, type, health rounded to 0.1.
type TileUnit = (u8, usize, i64);

/// Two loaded replays and the shared position.
pub struct Compare {
    pub a: Replay,
    pub b: Replay,
    /// Shared position: turn and action frame within the turn.
    pub turn: i32,
    pub frame: i32,
    /// The boards' titles (file names, or the tries' labels).
    pub titles: [String; 2],
    views: [BoardView; 2],
}

impl Compare {
    pub fn open(a: &Path, b: &Path) -> Result<Compare, String> {
        let a = read_replay(a).map_err(|e| e.to_string())?;
        let b = read_replay(b).map_err(|e| e.to_string())?;
        Ok(Compare::new(a, b))
    }

    pub fn new(a: Replay, b: Replay) -> Compare {
        let turn = a.frames.first().map(|f| f.turn_info.turn).unwrap_or(0);
        let titles = [format!("A: {}", a.file_name()), format!("B: {}", b.file_name())];
        Compare { a, b, turn, frame: 0, titles, views: [BoardView::default(); 2] }
    }

    /// Two what-if tries side by side (the baseline try stands for the turn as played): each
    /// try's frames become a small in-memory replay, so the comparison works as for matches.
    pub fn from_tries(a: (&WhatIfTry, String), b: (&WhatIfTry, String)) -> Compare {
        let replay = |t: &WhatIfTry| Replay {
            source: Default::default(),
            config: (*t.config).clone(),
            config_line: 0,
            frames: t.frames.to_vec(),
            frame_lines: vec![0; t.frames.len()],
            legacy: false,
        };
        let mut c = Compare::new(replay(a.0), replay(b.0));
        c.turn = a.0.turn;
        c.titles = [format!("A: {}", a.1), format!("B: {}", b.1)];
        c
    }

    /// The last turn of either replay.
    pub fn max_turn(&self) -> i32 {
        [&self.a, &self.b].iter().filter_map(|r| r.frames.iter().map(|f| f.turn_info.turn).max()).max().unwrap_or(0)
    }

    /// The last frame index within the current turn in either replay (frame 0 is the
    /// turn's deploy frame, then one per action tick).
    pub fn max_frame(&self) -> i32 {
        [&self.a, &self.b]
            .iter()
            .map(|r| r.frames.iter().filter(|f| f.turn_info.turn == self.turn).count())
            .max()
            .unwrap_or(0)
            .saturating_sub(1) as i32
    }

    /// The frame a replay shows at the shared position: the `frame`-th frame of the turn
    /// (its last one if the turn is shorter), or the last frame before the turn.
    pub fn frame_of<'r>(&self, r: &'r Replay) -> Option<&'r Frame> {
        let of_turn: Vec<&Frame> = r.frames.iter().filter(|f| f.turn_info.turn == self.turn).collect();
        if let Some(last) = of_turn.last() {
            return Some(of_turn.get(self.frame.max(0) as usize).copied().unwrap_or(last));
        }
        r.frames.iter().rev().find(|f| f.turn_info.turn < self.turn).or(r.frames.first())
    }

    /// Tiles whose unit lists differ between the two current frames.
    pub fn differing_tiles(&self) -> Vec<Tile> {
        let (fa, fb) = (self.frame_of(&self.a), self.frame_of(&self.b));
        let (ma, mb) = (fa.map(tile_units).unwrap_or_default(), fb.map(tile_units).unwrap_or_default());
        let mut keys: Vec<(i32, i32)> = ma.keys().chain(mb.keys()).copied().collect();
        keys.sort_unstable();
        keys.dedup();
        keys.retain(|k| ma.get(k) != mb.get(k));
        keys.into_iter().map(|(x, y)| Tile::new(x, y)).collect()
    }

    /// The number of highlighted tiles.
    pub fn diff_count(&self) -> usize {
        self.differing_tiles().len()
    }

    pub fn step_frame(&mut self, forward: bool) {
        if forward {
            if self.frame < self.max_frame() {
                self.frame += 1;
            } else if self.turn < self.max_turn() {
                self.turn += 1;
                self.frame = 0;
            }
        } else if self.frame > 0 {
            self.frame -= 1;
        } else if self.turn > 0 {
            self.turn -= 1;
            self.frame = self.max_frame();
        }
    }

    pub fn step_turn(&mut self, forward: bool) {
        self.turn = if forward { (self.turn + 1).min(self.max_turn()) } else { (self.turn - 1).max(0) };
        self.frame = 0;
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
                self.step_turn(false);
            }
            if ui.button("< Frame").on_hover_text("Previous frame").clicked() {
                self.step_frame(false);
            }
            if ui.button("Frame >").on_hover_text("Next frame").clicked() {
                self.step_frame(true);
            }
            if ui.button("Turn >>").on_hover_text("Next turn").clicked() {
                self.step_turn(true);
            }
            let max_turn = self.max_turn();
            ui.add(egui::Slider::new(&mut self.turn, 0..=max_turn).text("Turn"));
            let max_frame = self.max_frame();
            self.frame = self.frame.min(max_frame);
            ui.add(egui::Slider::new(&mut self.frame, 0..=max_frame).text("Frame"));
            if ui.input(|i| i.key_pressed(egui::Key::ArrowRight)) {
                self.step_frame(true);
            }
            if ui.input(|i| i.key_pressed(egui::Key::ArrowLeft)) {
                self.step_frame(false);
            }
        });
        let diff = self.differing_tiles();
        self.summary(ui, diff.len());
        let rect = ui.available_rect_before_wrap();
        let half = (rect.width() - 8.0) / 2.0;
        let sides = [
            Rect::from_min_size(rect.min, vec2(half, rect.height())),
            Rect::from_min_size(rect.min + vec2(half + 8.0, 0.0), vec2(half, rect.height())),
        ];
        for (i, side) in sides.into_iter().enumerate() {
            let replay = if i == 0 { &self.a } else { &self.b };
            let frame = self.frame_of(replay);
            let title = self.titles[i].clone();
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
                        Stroke::new(2.5, Color32::from_rgb(255, 200, 0)),
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
        let (fa, fb) = (self.frame_of(&self.a), self.frame_of(&self.b));
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

/// Per tile, the sorted units on it (owner, type, health).
fn tile_units(f: &Frame) -> BTreeMap<(i32, i32), Vec<TileUnit>> {
    let mut map: BTreeMap<(i32, i32), Vec<TileUnit>> = BTreeMap::new();
    for p in Player::both() {
        for (t, u) in f.real_units(p) {
            map.entry((u.tile.x, u.tile.y)).or_default().push((p.number(), t, (u.health * 10.0).round() as i64));
        }
    }
    for v in map.values_mut() {
        v.sort_unstable();
    }
    map
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
                let upgraded = has(UPGRADE_LIST, u.tile);
                structures.push(BoardUnit {
                    tile: u.tile,
                    icon: Icon::of(kind, upgraded),
                    owner: p,
                    health: (u.health / config.form(ty, upgraded).start_health.max(1.0)).min(1.0),
                    marked_for_removal: has(REMOVE_LIST, u.tile),
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
