//! The viewer's panels: header, timeline, overlay toggles, inspector and event log (the
//! what-if section: `whatif_panel`; the Replays tab's side: `replays_panel`). They read the
//! viewer and return what the user asked for as [`ViewerAction`]s, applied after the
//! frame's UI.

use super::whatif_panel;
use super::{SPEEDS, Viewer, ViewerAction};
use crate::app::command::UiCommand;
use crate::app::model::{DebugOverlays, EventKind};
use egui::Ui;
use terminal_core::engine::Player;

/// Player names, HP, SP, MP and compute time of the shown turn.
pub fn header(ui: &mut Ui, v: &Viewer) {
    ui.horizontal(|ui| {
        let Some(s) = &v.shown.summary else {
            ui.label(if v.message.is_empty() { "No replay open" } else { &v.message });
            return;
        };
        let turn = v.turn().unwrap_or(0);
        let stats = s.turns.iter().find(|t| t.turn == turn);
        for p in Player::both() {
            let i = p.index();
            let (hp, sp, mp) = match &v.shown.current {
                Some((_, f)) => (f.frame.stats[i].hp, f.frame.stats[i].sp, f.frame.stats[i].mp),
                None => (0.0, 0.0, 0.0),
            };
            let time = stats.map_or(0, |t| t.time_ms[i]);
            let winner = if v.winner_shown() && s.winner == Some(p.number()) { " (winner)" } else { "" };
            ui.strong(format!("P{} {}{}", p.number(), s.names[i], winner));
            // A Layout lab attack runs without an HP limit (every breach counts).
            let hp = if hp > 1.0e30 { "no limit".to_string() } else { format!("{hp:.0}") };
            ui.label(format!("HP {hp}  SP {sp:.1}  MP {mp:.1}  time {time} ms"));
            ui.separator();
        }
        if s.legacy {
            ui.weak("2018–2019 rules and format");
        }
    });
}

/// Turn and frame sliders, play/pause, speed: of the replay (or watched try), or of the
/// side-by-side comparison while it is open — one timeline drives both its boards.
pub fn timeline(ui: &mut Ui, v: &Viewer) -> Vec<ViewerAction> {
    let mut out = Vec::new();
    if let Some(c) = &v.whatif.compare {
        let m = &c.model;
        ui.horizontal(|ui| {
            transport(ui, v, &mut out);
            ui.label(v.position_label());
            ui.separator();
            ui.weak("both boards");
        });
        out.extend(turn_slider(ui, m.min_turn(), m.max_turn(), m.turn));
        out.extend(frame_slider(ui, m.turn, m.frame.max(0) as usize, m.max_frame().max(0) as usize + 1));
        return out;
    }
    // A try of an editor layout is watched without a replay: the timeline still steps it.
    let s = &v.shown.summary;
    if s.is_none() && v.watching().is_none() {
        return out;
    }
    let turn = v.turn().unwrap_or(0);
    let frame = v.frame_in_turn().unwrap_or(0);
    let frames = v.shown.current.as_ref().map_or(1, |(_, f)| f.frames_in_turn);
    if let Some(index) = v.watching() {
        ui.horizontal(|ui| {
            let title = egui::RichText::new(v.try_title(index)).strong().color(egui::Color32::from_rgb(230, 170, 0));
            ui.label(title);
            if s.is_some() && ui.button("Back to replay").on_hover_text("Show the replay's turn again").clicked() {
                out.push(ViewerAction::BackToReplay);
            }
        });
    }
    // Wrapped: at 1000 px the row does not fit on one line, and an overflowing row would
    // widen the panel and push the sliders below off the window.
    ui.horizontal_wrapped(|ui| {
        transport(ui, v, &mut out);
        let zoomed = v.board.view != crate::app::model::BoardView::default();
        if ui
            .add_enabled(zoomed, egui::Button::new("Fit board"))
            .on_hover_text(with_keys(UiCommand::FitBoard))
            .clicked()
        {
            out.push(ViewerAction::FitBoard);
        }
        let hint = format!(
            "Hide it to give the board more room ({}: both panels)",
            UiCommand::ToggleSidePanels.shortcut_text()
        );
        if ui.selectable_label(v.prefs.left_panel, "Left panel").on_hover_text(&hint).clicked() {
            out.push(ViewerAction::ShowLeftPanel(!v.prefs.left_panel));
        }
        if ui.selectable_label(v.prefs.right_panel, "Right panel").on_hover_text(hint).clicked() {
            out.push(ViewerAction::ShowRightPanel(!v.prefs.right_panel));
        }
        if v.shown.live || v.shown.follow_live {
            live_controls(ui, v, &mut out);
        }
        // The message is on the view's own line, below: here it would wrap the row.
        ui.label(v.position_label());
    });
    if let Some(s) = s {
        let (first, last) = (s.turns.first().map_or(0, |t| t.turn), s.turns.last().map_or(0, |t| t.turn));
        out.extend(turn_slider(ui, first, last, turn));
    }
    out.extend(frame_slider(ui, turn, frame, frames));
    out
}

/// Following a live match: on or off, the pace, and how far the board is behind the match.
fn live_controls(ui: &mut Ui, v: &Viewer, out: &mut Vec<ViewerAction>) {
    let mut follow = v.shown.follow_live;
    let hint = "Show the match's frames as it plays them, at the pace; stepping back stops following";
    if ui.checkbox(&mut follow, "Follow live").on_hover_text(hint).changed() {
        out.push(ViewerAction::FollowLive(follow));
    }
    let pace = v.live_pace();
    egui::ComboBox::from_label("Pace").selected_text(pace.label()).show_ui(ui, |ui| {
        for p in crate::app::model::LivePace::ALL {
            if ui.selectable_label(p == pace, p.label()).clicked() {
                out.push(ViewerAction::SetLivePace(p));
            }
        }
    });
    let queued = v.frames_queued();
    if queued > 0 {
        ui.weak(format!("{queued} frames behind the match"));
        if ui
            .button("Skip to newest")
            .on_hover_text(format!("Show the match's newest frame now ({})", UiCommand::LastFrame.shortcut_text()))
            .clicked()
        {
            out.push(ViewerAction::End);
        }
    }
}

/// A button's hover text: its command's label and keys, as the table has them.
fn with_keys(command: UiCommand) -> String {
    format!("{} ({})", command.info().label, command.shortcut_text())
}

/// First / previous / play / next / last buttons and the speed.
fn transport(ui: &mut Ui, v: &Viewer, out: &mut Vec<ViewerAction>) {
    if ui.button("|<").on_hover_text(with_keys(UiCommand::FirstTurn)).clicked() {
        out.push(ViewerAction::Home);
    }
    if ui.button("<<").on_hover_text(with_keys(UiCommand::PreviousTurn)).clicked() {
        out.push(ViewerAction::StepTurn { forward: false });
    }
    if ui.button("<").on_hover_text(with_keys(UiCommand::PreviousFrame)).clicked() {
        out.push(ViewerAction::Step { forward: false });
    }
    let play = if v.playback.playing { "Pause" } else { "Play" };
    if ui.button(play).on_hover_text(with_keys(UiCommand::PlayPause)).clicked() {
        out.push(ViewerAction::TogglePlay);
    }
    if ui.button(">").on_hover_text(with_keys(UiCommand::NextFrame)).clicked() {
        out.push(ViewerAction::Step { forward: true });
    }
    if ui.button(">>").on_hover_text(with_keys(UiCommand::NextTurn)).clicked() {
        out.push(ViewerAction::StepTurn { forward: true });
    }
    if ui.button(">|").on_hover_text(with_keys(UiCommand::LastFrame)).clicked() {
        out.push(ViewerAction::End);
    }
    let mut speed = v.prefs.speed;
    egui::ComboBox::from_label("Speed").selected_text(format!("{}×", v.prefs.speed)).width(70.0).show_ui(ui, |ui| {
        for sp in SPEEDS {
            ui.selectable_value(&mut speed, sp, format!("{sp}×"));
        }
    });
    if speed != v.prefs.speed {
        out.push(ViewerAction::SetSpeed(speed));
    }
}

fn turn_slider(ui: &mut Ui, first_turn: i32, last_turn: i32, turn: i32) -> Option<ViewerAction> {
    let mut seek = None;
    ui.horizontal(|ui| {
        let l = ui.label("Turn");
        let mut t = turn;
        let w = ui.available_width();
        ui.spacing_mut().slider_width = (w - 120.0).max(100.0);
        if ui
            .add(egui::Slider::new(&mut t, first_turn..=last_turn.max(first_turn)).show_value(false))
            .labelled_by(l.id)
            .changed()
        {
            seek = Some(ViewerAction::Seek { turn: t, frame: 0 });
        }
    });
    seek
}

fn frame_slider(ui: &mut Ui, turn: i32, frame: usize, frames: usize) -> Option<ViewerAction> {
    let mut seek = None;
    ui.horizontal(|ui| {
        let l = ui.label("Frame");
        let mut f = frame;
        let w = ui.available_width();
        ui.spacing_mut().slider_width = (w - 120.0).max(100.0);
        if ui.add(egui::Slider::new(&mut f, 0..=frames.saturating_sub(1)).show_value(false)).labelled_by(l.id).changed()
        {
            seek = Some(ViewerAction::Seek { turn, frame: f });
        }
    });
    seek
}

/// Above the side-by-side boards: close, the overlays drawn on both, the right-hand panel.
pub fn compare_header(ui: &mut Ui, v: &Viewer) -> Vec<ViewerAction> {
    let mut out = Vec::new();
    ui.horizontal_wrapped(|ui| {
        if ui.button("Close comparison").clicked() {
            out.push(ViewerAction::CloseCompare);
        }
        let mut o = v.prefs.overlays;
        ui.menu_button("Overlays", |ui| overlay_toggles(ui, &mut o, false))
            .response
            .on_hover_text("Drawn on both boards");
        if o != v.prefs.overlays {
            out.push(ViewerAction::SetOverlays(o));
        }
        let (label, hint) = match v.whatif.compare_side_panel {
            true => ("Hide side panel", "Give the boards the whole width"),
            false => ("Show side panel", "The inspector, event log and tries beside the boards"),
        };
        if ui.button(label).on_hover_text(hint).clicked() {
            out.push(ViewerAction::ShowCompareSidePanel(!v.whatif.compare_side_panel));
        }
    });
    out
}

/// The overlays' checkboxes; the algos' annotations only where they are drawn (a replay's
/// board, not the tries compared).
fn overlay_toggles(ui: &mut Ui, o: &mut DebugOverlays, annotations: bool) {
    for (label, on) in o.toggles() {
        if annotations || label != DebugOverlays::ANNOTATIONS {
            ui.checkbox(on, label);
        }
    }
}

/// Open button, overlay toggles, event-log filters, counters.
pub fn left(ui: &mut Ui, v: &Viewer) -> Vec<ViewerAction> {
    let mut out = Vec::new();
    if ui.button("Open replay…").clicked() {
        out.push(ViewerAction::OpenReplayDialog);
    }
    let mut hide = v.prefs.hide_winner;
    let hint = "Watch a replay unspoiled: the result shows once the last turn is on screen";
    if ui.checkbox(&mut hide, "Hide the winner until the end").on_hover_text(hint).changed() {
        out.push(ViewerAction::HideWinner(hide));
    }
    ui.separator();
    ui.strong("Overlays");
    let mut o = v.prefs.overlays;
    overlay_toggles(ui, &mut o, true);
    if o != v.prefs.overlays {
        out.push(ViewerAction::SetOverlays(o));
    }
    ui.separator();
    ui.strong("Event log filter");
    ui.horizontal_wrapped(|ui| {
        for k in EventKind::ALL {
            let mut on = v.prefs.log_kinds.contains(&k);
            if ui.checkbox(&mut on, k.label()).changed() {
                out.push(ViewerAction::ShowLogKind(k, on));
            }
        }
    });
    ui.horizontal(|ui| {
        for p in Player::both() {
            let mut on = v.prefs.log_players[p.index()];
            if ui.checkbox(&mut on, format!("P{}", p.number())).changed() {
                out.push(ViewerAction::ShowLogPlayer(p, on));
            }
        }
    });
    ui.separator();
    ui.label(format!("Units on board: {}", v.unit_count()));
    ui.label(format!("Mobile units: {}", v.mobile_count()));
    if let Some((_, f)) = &v.shown.current {
        let d = &f.debug;
        ui.weak(if f.watching.is_some() {
            "engine data (what-if try)"
        } else if d.simulated {
            if d.engine_matches { "engine data (matches the replay)" } else { "engine data (differs from the replay)" }
        } else {
            "replay events only"
        });
    }
    egui::CollapsingHeader::new("Diagnostics").default_open(false).show(ui, |ui| {
        if let Some(s) = v.stats.open_seconds {
            ui.weak(format!("opened in {s:.2} s"));
        }
        ui.weak(format!("frames drawn {} · received {}", v.stats.ui_frames, v.stats.frames_received));
    });
    out
}

/// Path threat, inspector, what-if and the event log, which takes the panel's height down
/// to `bottom`.
pub fn debugger_side(ui: &mut Ui, v: &Viewer, bottom: f32) -> Vec<ViewerAction> {
    // The what-if being edited is not a frame: its board has no threat (yet).
    if v.whatif.board_whatif.is_none() {
        egui::CollapsingHeader::new("Path threat").default_open(true).show(ui, |ui| match v.hovered_threat() {
            Some(threat) => crate::app::board::threat::table(ui, threat),
            None => {
                ui.weak("Hover an edge tile");
            }
        });
    }
    egui::CollapsingHeader::new("Inspector").default_open(true).show(ui, |ui| {
        let text = v.inspector_text();
        if text.is_empty() {
            ui.weak("Hover or click a unit");
        } else {
            ui.label(egui::RichText::new(text).monospace());
        }
    });
    let out = egui::CollapsingHeader::new("What-if")
        .default_open(true)
        .show(ui, |ui| whatif_panel::whatif(ui, v))
        .body_returned
        .unwrap_or_default();
    egui::CollapsingHeader::new("Event log").default_open(true).show(ui, |ui| {
        let log = v.event_log();
        ui.label(format!("{} events", log.len()));
        // Down to the panel's bottom; when the sections above fill the panel, a few lines
        // still show and the panel scrolls.
        let height = (bottom - ui.cursor().top() - ui.spacing().item_spacing.y * 2.0).max(EVENT_LOG_MIN_HEIGHT);
        // One line per event (long ones cut, in full on hover), so that only the rows in view
        // are laid out: a busy frame has hundreds.
        let row = ui.text_style_height(&egui::TextStyle::Monospace);
        egui::ScrollArea::vertical().id_salt("event-log").max_height(height).auto_shrink([false, true]).show_rows(
            ui,
            row,
            log.len(),
            |ui, rows| {
                for e in &log[rows] {
                    let text = egui::RichText::new(format!("P{} {}", e.owner.number(), e.text)).monospace();
                    ui.add(egui::Label::new(text).truncate());
                }
            },
        );
    });
    out
}

/// The event log's height when the sections above it fill the panel.
pub const EVENT_LOG_MIN_HEIGHT: f32 = 160.0;
