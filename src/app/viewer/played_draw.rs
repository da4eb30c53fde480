//! The replay's own commands of the turn on the what-if's board: faded and hatched, so that
//! what the player really did reads at a glance beside (and apart from) the what-if's edits,
//! with a legend saying so.

use super::whatif_board::{BoardWhatIf, PlayedMark};
use crate::app::board::BoardFrame;
use crate::app::board::frame_draw::{draw_mobile, draw_path_with_end};
use crate::app::board::icons::{Icon, IconTextures};
use egui::{Color32, Pos2, Rect, Stroke, Ui, pos2, vec2};
use terminal_core::engine::Player;

/// How strongly the played commands show (they are context, the edits are the subject).
const FADE: f32 = 0.45;

/// The legend's text: the marks are explained by it, and tests find it by it.
pub const LEGEND: &str = "played this turn";

/// Draws the turn's played commands of the players whose commands the what-if keeps.
pub(super) fn draw_played(frame: &BoardFrame, icons: Option<&IconTextures>, w: &BoardWhatIf) {
    let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
    let tile = frame.geometry.tile;
    for mark in w.played_marks() {
        let (owner, at) = match mark {
            PlayedMark::Structure { owner, tile, .. }
            | PlayedMark::Upgrade { owner, tile }
            | PlayedMark::Removal { owner, tile }
            | PlayedMark::Mobile { owner, tile, .. } => (owner, tile),
        };
        let colour = frame.palette.player(owner);
        let r = frame.geometry.tile_rect(at);
        hatch(frame, r, colour.gamma_multiply(0.8));
        match mark {
            PlayedMark::Structure { kind, upgraded, .. } => {
                let inner = r.shrink(tile * 0.14);
                match icons.and_then(|i| i.get(Icon::of(kind, upgraded))) {
                    Some(tex) => frame.painter.image(tex.id(), inner, uv, colour.gamma_multiply(FADE)),
                    None => frame.painter.rect_filled(inner, 2.0, colour.gamma_multiply(FADE)),
                };
            }
            // Over the structure's own icon, in the text colour to stand out from it.
            PlayedMark::Upgrade { .. } => frame.tile_label(at, "UP", frame.palette.text),
            PlayedMark::Removal { .. } => {
                let s = Stroke::new(2.0, frame.palette.text);
                let c = r.shrink(tile * 0.2);
                frame.painter.line_segment([c.left_top(), c.right_bottom()], s);
                frame.painter.line_segment([c.right_top(), c.left_bottom()], s);
            }
            PlayedMark::Mobile { unit_type, count, .. } => {
                draw_mobile(frame, at, colour.gamma_multiply(FADE), unit_type as usize, count);
            }
        }
        frame.painter.rect_stroke(r, 0.0, Stroke::new(1.0, colour), egui::StrokeKind::Inside);
    }
    for path in w.played_paths() {
        let stroke = Stroke::new(1.5, frame.palette.player(path.owner).gamma_multiply(FADE));
        draw_path_with_end(frame, &path.tiles, path.end, stroke);
    }
}

/// The legend in the board's top-left corner, naming whose played commands are shown; nothing
/// when no player's are.
pub(super) fn legend(ui: &mut Ui, frame: &BoardFrame, w: &BoardWhatIf) {
    let shown: Vec<Player> = Player::both().into_iter().filter(|p| w.keeps_played(*p)).collect();
    if shown.is_empty() || w.played.iter().all(|(b, d)| b.is_empty() && d.is_empty()) {
        return;
    }
    let who: Vec<String> = shown.iter().map(|p| format!("P{}", p.number())).collect();
    let text = format!("{LEGEND} ({})", who.join(", "));
    let area = Rect::from_min_size(frame.geometry.rect.left_top() + vec2(8.0, 8.0), vec2(320.0, 28.0));
    let hint = "The replay's own structures, upgrades, removals and deploys of this turn, played with the \
                what-if. Tick \"replace the turn's commands\" to leave a player's out.";
    let layout = egui::Layout::left_to_right(egui::Align::Center);
    ui.scope_builder(egui::UiBuilder::new().max_rect(area).layout(layout), |ui| {
        let background = frame.palette.background.gamma_multiply(0.85);
        egui::Frame::new().fill(background).corner_radius(3.0).inner_margin(4.0).show(ui, |ui| {
            let (swatch, _) = ui.allocate_exact_size(vec2(16.0, 16.0), egui::Sense::hover());
            hatch(frame, swatch, frame.palette.text);
            ui.add(egui::Label::new(egui::RichText::new(text).color(frame.palette.text)).selectable(false))
                .on_hover_text(hint);
        });
    });
}

/// Diagonal hatching across a rectangle.
fn hatch(frame: &BoardFrame, r: Rect, colour: Color32) {
    let stroke = Stroke::new(1.0, colour);
    let side = r.width().min(r.height());
    // Lines x − y = c across the square, a third of its side apart.
    for k in [-2.0f32, -1.0, 0.0, 1.0, 2.0] {
        let c = k * side / 3.0;
        let a: Pos2 = if c >= 0.0 { pos2(r.min.x + c, r.max.y) } else { pos2(r.min.x, r.max.y + c) };
        let b: Pos2 = if c >= 0.0 { pos2(r.max.x, r.min.y + c) } else { pos2(r.max.x + c, r.min.y) };
        frame.painter.line_segment([a, b], stroke);
    }
}
