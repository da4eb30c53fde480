//! The Play view's panels: the match form (seats, ruleset, Start) or the running match's
//! status, and the planned turn of a person's seat (SP/MP, the engine's objections, End turn).

use super::{PlayAction, PlayView, SeatKind};
use crate::app::model::Tool;
use crate::app::viewer::whatif_board::BoardTool;
use egui::{Color32, RichText, Ui};
use terminal_core::engine::geometry::Player;
use terminal_core::engine::presets::PRESETS;

/// The form before a match, the status during one.
pub fn setup(ui: &mut Ui, v: &mut PlayView) -> Vec<PlayAction> {
    let mut out = Vec::new();
    if let Some(m) = &v.running {
        ui.horizontal(|ui| {
            ui.strong(format!("Live: {} vs {}", m.names[0], m.names[1]));
            let turn = m.turn_frame.as_ref().map_or(0, |f| f.turn_info.turn);
            ui.label(format!("turn {turn}, {} frames", m.frames));
            if ui.button("Stop match").on_hover_text("End the match now; its replay keeps what was played").clicked() {
                out.push(PlayAction::Stop);
            }
            ui.separator();
            ui.label(&v.message);
        });
        return out;
    }
    if let Some(f) = &v.watching {
        ui.horizontal(|ui| {
            ui.strong(format!("Watching {}", f.path.display()));
            if ui.button("Stop watching").clicked() {
                out.push(PlayAction::StopWatching);
            }
        });
    }
    seat_forms(ui, v);
    // The ruleset and Start on a row of their own: the seats wrap first on a narrow window.
    ui.horizontal_wrapped(|ui| {
        ui.group(|ui| {
            let label = ui.label("Ruleset");
            ui.add(
                egui::TextEdit::singleline(&mut v.ruleset)
                    .hint_text("preset or config file (empty: the ghost's, else base-s6)")
                    .desired_width(200.0),
            )
            .labelled_by(label.id);
            egui::ComboBox::from_label("Presets").selected_text("pick").show_ui(ui, |ui| {
                for (slug, name, _) in PRESETS {
                    if ui.selectable_label(v.ruleset == *slug, *slug).on_hover_text(*name).clicked() {
                        v.ruleset = slug.to_string();
                    }
                }
            });
        });
        if ui.button(RichText::new("Start match").strong()).clicked() {
            out.push(PlayAction::Start);
        }
        if let Some(p) = v.finished_replay.clone()
            && ui.button("Open in Debugger").on_hover_text(p.display().to_string()).clicked()
        {
            out.push(PlayAction::OpenReplay(p));
        }
    });
    if !v.message.is_empty() {
        ui.label(&v.message);
    }
    out
}

/// Each seat: who sits in it, and the algo or replay.
fn seat_forms(ui: &mut Ui, v: &mut PlayView) {
    ui.horizontal_wrapped(|ui| {
        for (i, seat) in v.seats.iter_mut().enumerate() {
            ui.group(|ui| {
                ui.strong(format!("Seat {}", i + 1));
                for k in SeatKind::ALL {
                    ui.selectable_value(&mut seat.kind, k, k.label());
                }
                match seat.kind {
                    SeatKind::Human => {
                        ui.weak("you play this seat, with no time limit");
                    }
                    SeatKind::Algo => {
                        ui.add(
                            egui::TextEdit::singleline(&mut seat.path)
                                .hint_text("algo folder or run.sh")
                                .desired_width(180.0),
                        )
                        .labelled_by(ui.label(format!("Seat {} algo", i + 1)).id);
                    }
                    SeatKind::Ghost => {
                        ui.add(
                            egui::TextEdit::singleline(&mut seat.path).hint_text("a .replay[.gz]").desired_width(220.0),
                        )
                        .labelled_by(ui.label(format!("Seat {} replay", i + 1)).id);
                        let label = |p: Option<Player>| match p {
                            None => "its player of this seat".to_string(),
                            Some(p) => format!("its player {}", p.number()),
                        };
                        egui::ComboBox::from_label(format!("Seat {} plays", i + 1))
                            .selected_text(label(seat.ghost_player))
                            .show_ui(ui, |ui| {
                                for p in [None, Some(Player::One), Some(Player::Two)] {
                                    ui.selectable_value(&mut seat.ghost_player, p, label(p));
                                }
                            });
                    }
                }
            });
        }
    });
}

/// A person's planned turn: what it costs against what the player has, what the engine
/// refuses and why, Undo and End turn.
pub fn turn(ui: &mut Ui, v: &PlayView) -> Vec<PlayAction> {
    let mut out = Vec::new();
    let Some(m) = &v.running else { return out };
    let Some((turn, seat)) = m.planning else { return out };
    ui.heading(format!("Your turn {turn}"));
    ui.label(format!(
        "You are player {} (the {} half)",
        seat.number(),
        if seat == Player::One { "bottom" } else { "top" }
    ));
    if let Some(w) = v.viewer.board_whatif() {
        let mut tool = w.tool;
        ui.horizontal_wrapped(|ui| {
            for t in BoardTool::available(w.legacy) {
                // In a real turn an existing structure cannot vanish: it is marked for removal.
                let label = if t == BoardTool::Structure(Tool::Erase) { "Remove" } else { t.label_for(w.legacy) };
                ui.selectable_value(&mut tool, t, label);
            }
        });
        if tool != w.tool {
            out.push(PlayAction::SetTool(tool));
        }
        ui.weak("Click a tile: apply the tool · right click: take a deploy or a new structure back");
        ui.separator();
    }
    let (build, deploy) = v.planned_commands().unwrap_or_default();
    ui.label(format!("{} build command(s), {} deploy(s)", build.len(), deploy.len()));
    match &m.check {
        Some(Ok(c)) => {
            let line = |what: &str, spent: f32, have: f32| {
                let text = format!("{what}: spend {spent:.1} of {have:.1}");
                if spent > have + 1e-3 {
                    RichText::new(text).color(Color32::from_rgb(230, 80, 60))
                } else {
                    RichText::new(text)
                }
            };
            ui.label(line("SP", c.sp_spent, c.sp));
            ui.label(line("MP", c.mp_spent, c.mp));
            if c.rejected.is_empty() {
                ui.weak("The engine accepts every command.");
            } else {
                ui.label(
                    RichText::new(format!("The engine refuses {}:", c.rejected.len()))
                        .color(Color32::from_rgb(230, 80, 60)),
                );
                for (cmd, why) in &c.rejected {
                    ui.label(format!("{:?} at {},{}: {why}", cmd.kind, cmd.tile.x, cmd.tile.y));
                }
            }
        }
        Some(Err(e)) => {
            ui.colored_label(Color32::from_rgb(230, 80, 60), e.to_string());
        }
        None => {}
    }
    ui.weak("Predicted paths of your deploys are drawn on the board.");
    ui.horizontal(|ui| {
        if ui.button("Undo").on_hover_text("Take the last edit of this turn back").clicked() {
            out.push(PlayAction::UndoPlan);
        }
        if ui.button(RichText::new("End turn").strong()).clicked() {
            out.push(PlayAction::EndTurn);
        }
    });
    out
}
