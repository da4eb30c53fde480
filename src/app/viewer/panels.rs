//! The viewer's panels: header, timeline, overlay toggles, inspector, event log, plots,
//! end-of-game statistics, the algos' logs and the what-if editor. They read the viewer and
//! return what the user asked for as [`ViewerAction`]s, applied after the frame's UI.

use super::whatif_board::{BoardTool, WhatIfBase};
use super::{SPEEDS, Viewer, ViewerAction};
use crate::app::model::{EventKind, PlotMetric};
use egui::Ui;
use terminal_core::engine::Player;
use terminal_core::session::summary::ReplaySummary;
use terminal_core::session::whatif::WhatIfSummary;

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
        if ui.add_enabled(zoomed, egui::Button::new("Fit board")).on_hover_text("Whole board in view (0)").clicked() {
            out.push(ViewerAction::FitBoard);
        }
        let hint = "Hide it to give the board more room (B: both panels)";
        if ui.selectable_label(v.prefs.left_panel, "Left panel").on_hover_text(hint).clicked() {
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
        if ui.button("Skip to newest").on_hover_text("Show the match's newest frame now (End)").clicked() {
            out.push(ViewerAction::End);
        }
    }
}

/// First / previous / play / next / last buttons and the speed.
fn transport(ui: &mut Ui, v: &Viewer, out: &mut Vec<ViewerAction>) {
    if ui.button("|<").on_hover_text("First turn (Home)").clicked() {
        out.push(ViewerAction::Home);
    }
    if ui.button("<<").on_hover_text("Previous turn (Ctrl+←)").clicked() {
        out.push(ViewerAction::StepTurn { forward: false });
    }
    if ui.button("<").on_hover_text("Previous frame (←)").clicked() {
        out.push(ViewerAction::Step { forward: false });
    }
    let play = if v.playback.playing { "Pause" } else { "Play" };
    if ui.button(play).on_hover_text("Space").clicked() {
        out.push(ViewerAction::TogglePlay);
    }
    if ui.button(">").on_hover_text("Next frame (→)").clicked() {
        out.push(ViewerAction::Step { forward: true });
    }
    if ui.button(">>").on_hover_text("Next turn (Ctrl+→)").clicked() {
        out.push(ViewerAction::StepTurn { forward: true });
    }
    if ui.button(">|").on_hover_text("Last frame (End)").clicked() {
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
fn overlay_toggles(ui: &mut Ui, o: &mut crate::app::model::DebugOverlays, annotations: bool) {
    ui.checkbox(&mut o.paths, "Unit paths");
    ui.checkbox(&mut o.moved_from, "Moved-from tiles");
    ui.checkbox(&mut o.attacks, "Attack lines");
    ui.checkbox(&mut o.shields, "Shield events");
    ui.checkbox(&mut o.markers, "Deaths / breaches / blasts");
    if annotations {
        ui.checkbox(&mut o.annotations, "Algo annotations");
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
        .show(ui, |ui| whatif(ui, v))
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

fn whatif(ui: &mut Ui, v: &Viewer) -> Vec<ViewerAction> {
    let mut out = Vec::new();
    match v.whatif.board_whatif.as_ref() {
        None => {
            let can = v.shown.summary.is_some() && v.shown.current.is_some();
            if ui.add_enabled(can, egui::Button::new("Edit what-if on the board")).clicked() {
                out.push(ViewerAction::EditWhatIfOnBoard);
            }
            ui.weak("Change structures and deploys of either player on the board, from this turn's start.");
            if ui.add_enabled(can, egui::Button::new("Run what-if on this turn")).clicked() {
                out.push(ViewerAction::RunWhatIf);
            }
        }
        Some(w) if w.seat.is_some() => {
            // A person's turn is planned in the Play view's turn panel.
            ui.weak("The board shows your turn's plan: its tools are in the turn panel.");
        }
        Some(w) => out.extend(whatif_editing(ui, v, w)),
    }
    if !v.whatif.tries.is_empty() {
        out.extend(tries_table(ui, v));
    }
    out
}

/// The what-if being edited on the board: its tools, budget, edits per player, run and leave.
fn whatif_editing(ui: &mut Ui, v: &Viewer, w: &super::whatif_board::BoardWhatIf) -> Vec<ViewerAction> {
    let mut out = Vec::new();
    let base = match &w.base {
        WhatIfBase::ReplayTurn(t) => format!("Start of turn {t} of the replay"),
        WhatIfBase::Layout(_) => "The editor's layout (turn 0)".to_string(),
    };
    ui.label(base);
    let mut tool = w.tool;
    ui.horizontal_wrapped(|ui| {
        for t in BoardTool::available(w.legacy) {
            ui.selectable_value(&mut tool, t, t.label_for(w.legacy));
        }
    });
    if tool != w.tool {
        out.push(ViewerAction::SetWhatIfTool(tool));
    }
    let mut player = w.player;
    ui.horizontal(|ui| {
        for p in Player::both() {
            ui.selectable_value(&mut player, p, format!("Player {}", p.number()));
        }
    });
    if player != w.player {
        out.push(ViewerAction::SetWhatIfPlayer(player));
    }
    budget(ui, v, w);
    ui.weak("Click: apply the tool · right click: take a deploy or structure back");
    let from_replay = matches!(w.base, WhatIfBase::ReplayTurn(_));
    for p in Player::both() {
        let i = p.index();
        let edits = w.structure_edits(p);
        ui.label(format!(
            "Player {}: {} structure edit{}, {} deploy{}",
            p.number(),
            edits.len(),
            if edits.len() == 1 { "" } else { "s" },
            w.deploys[i].len(),
            if w.deploys[i].len() == 1 { "" } else { "s" }
        ));
        if from_replay {
            let mut replace = w.replace_commands[i];
            let label = format!("Player {}: replace the turn's commands with these deploys", p.number());
            if ui.checkbox(&mut replace, label).changed() {
                out.push(ViewerAction::ReplaceCommands(p, replace));
            }
        }
    }
    let mut leave = false;
    ui.horizontal(|ui| {
        if ui.button("Clear deploys").clicked() {
            out.push(ViewerAction::ClearDeploys);
        }
        leave = ui.button("Leave what-if").clicked();
    });
    if ui.button("Run what-if").clicked() {
        out.push(ViewerAction::RunWhatIf);
    }
    // Left after the run, so that both in one frame still run the what-if being left.
    if leave {
        out.push(ViewerAction::LeaveWhatIf);
    }

    out
}

/// What the acting player's turn in the what-if spends against what that player has; a
/// warning, not a refusal, when it is more.
fn budget(ui: &mut Ui, v: &Viewer, w: &super::whatif_board::BoardWhatIf) {
    let Some(config) = v.ruleset() else { return };
    let p = w.acting();
    let b = super::whatif_budget::Budget::of(w, p, &config);
    let kept = if w.keeps_played(p) { " (with the turn's played commands)" } else { "" };
    let hint = format!("Player {}'s edits and deploys at the ruleset's prices{kept}", p.number());
    match b.available {
        Some((sp, mp)) => {
            ui.label(format!("SP spent {:.1} / {sp:.1} available", b.sp_spent)).on_hover_text(&hint);
            ui.label(format!("MP spent {:.1} / {mp:.1}", b.mp_spent)).on_hover_text(&hint);
        }
        None => {
            let text = format!("SP spent {:.1} · MP spent {:.1} (a layout has no budget)", b.sp_spent, b.mp_spent);
            ui.label(text).on_hover_text(&hint);
        }
    }
    let (sp, mp) = b.overspent();
    for (over, what) in [(sp, "SP"), (mp, "MP")] {
        // Tenths are what the labels show: a smaller excess is rounding.
        if over >= 0.05 {
            ui.colored_label(ui.visuals().warn_fg_color, format!("over by {over:.1} {what} — allowed as a what-if"));
        }
    }
}

/// The history of tries: one row each with its outcome and a "Watch" button, then the
/// side-by-side comparison of two of them.
fn tries_table(ui: &mut Ui, v: &Viewer) -> Vec<ViewerAction> {
    let mut out = Vec::new();
    let watching = v.watching();
    let mut pov = v.whatif.tries_pov;
    ui.horizontal_wrapped(|ui| {
        ui.label("Seen from");
        for p in Player::both() {
            ui.selectable_value(&mut pov, p, format!("Player {}", p.number()));
        }
    });
    if pov != v.whatif.tries_pov {
        out.push(ViewerAction::SetTriesPov(pov));
    }
    ui.weak(format!(
        "dealt: by player {}'s units · taken: by player {}'s · hover a try for what it changed",
        pov.number(),
        pov.opponent().number()
    ));
    if let Some(i) = tries_list(ui, v, watching, pov) {
        out.push(ViewerAction::WatchTry(i));
    }
    let names: Vec<String> = (0..v.whatif.tries.len()).map(|i| v.try_title(i)).collect();
    let last = names.len() - 1;
    let mut pick = v.whatif.compare_pick.map(|i| i.min(last));
    let before = pick;
    ui.horizontal_wrapped(|ui| {
        for (side, slot) in ["A", "B"].into_iter().zip(pick.iter_mut()) {
            egui::ComboBox::from_label(side).selected_text(format!("Try {}", *slot + 1)).show_ui(ui, |ui| {
                for (i, name) in names.iter().enumerate() {
                    ui.selectable_value(slot, i, name);
                }
            });
        }
        if ui.button("Compare side by side").on_hover_text("The two tries synchronised by frame").clicked() {
            out.push(ViewerAction::CompareTries(pick[0], pick[1]));
        }
    });
    if pick != before {
        out.push(ViewerAction::SetComparePick(pick));
    }
    out
}

/// A try's figures as `pov` sees them, each a phrase that names its side ("breaches dealt 3 /
/// taken 1"), with a hover text naming the players.
pub fn try_figures(s: &WhatIfSummary, pov: Player) -> [(String, String); 5] {
    let (us, them) = (pov.index(), pov.opponent().index());
    let (p, o) = (pov.number(), pov.opponent().number());
    [
        (
            format!(
                "breaches dealt {} (−{:.0} HP) / taken {} (−{:.0} HP)",
                s.breaches[us], s.hp_damage[us], s.breaches[them], s.hp_damage[them]
            ),
            format!("Player {p}'s units breached {} times, player {o}'s {}", s.breaches[us], s.breaches[them]),
        ),
        (
            format!("structure damage dealt {:.0} / taken {:.0}", s.structure_damage[us], s.structure_damage[them]),
            format!("Damage to player {o}'s structures / to player {p}'s"),
        ),
        (
            format!("unit damage dealt {:.0} / taken {:.0}", s.unit_damage[us], s.unit_damage[them]),
            format!("Damage to player {o}'s mobile units / to player {p}'s"),
        ),
        (
            format!(
                "structures destroyed dealt {} ({:.1} SP) / taken {} ({:.1} SP)",
                s.structures_destroyed[us], s.sp_destroyed[us], s.structures_destroyed[them], s.sp_destroyed[them]
            ),
            format!(
                "Player {o}'s structures that player {p} destroyed, with the SP invested in them / the other way round"
            ),
        ),
        (
            format!("MP lost ours {:.1} / theirs {:.1}", s.mp_lost[us], s.mp_lost[them]),
            format!("MP of player {p}'s units that died without breaching / of player {o}'s"),
        ),
    ]
}

/// The tries, one block each: "Watch", its name and turn, then its figures as `pov` sees
/// them one a line (a table would be wider than the panel, widen it and shrink the board);
/// the try whose "Watch" button was clicked.
fn tries_list(ui: &mut Ui, v: &Viewer, watching: Option<usize>, pov: Player) -> Option<usize> {
    let mut watch = None;
    for (i, t) in v.whatif.tries.iter().enumerate() {
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            let button = ui.add_enabled(watching != Some(i), egui::Button::new("Watch"));
            if button.on_hover_text("Play this try on the board, frame by frame").clicked() {
                watch = Some(i);
            }
            // What a try changed is its label: on hover here, in its title when watched or compared.
            ui.strong(format!("Try {}", i + 1)).on_hover_text(&t.label);
            ui.label(format!("turn {}", t.turn));
        });
        // One figure a line: a phrase broken across lines reads as two figures.
        ui.indent(("try-figures", i), |ui| {
            for (text, hover) in try_figures(&t.summary, pov) {
                ui.label(text).on_hover_text(hover);
            }
        });
    }
    ui.separator();
    watch
}

/// Plots, end-of-game statistics and the algos' logs.
pub fn replays_side(ui: &mut Ui, v: &Viewer) -> Vec<ViewerAction> {
    let Some(s) = &v.shown.summary else {
        ui.weak("No replay open");
        return Vec::new();
    };
    let out = metric_plot(ui, v, s);
    end_of_game(ui, v, s);
    algo_logs(ui, v);
    out
}

/// A figure per player over the turns; a click jumps to that turn.
fn metric_plot(ui: &mut Ui, v: &Viewer, s: &ReplaySummary) -> Vec<ViewerAction> {
    let mut out = Vec::new();
    let mut metric = v.prefs.plot_metric;
    ui.horizontal(|ui| {
        for m in PlotMetric::ALL {
            ui.selectable_value(&mut metric, m, m.label());
        }
    });
    if metric != v.prefs.plot_metric {
        out.push(ViewerAction::SetPlotMetric(metric));
    }
    // With the result hidden, the plot stops at the turn shown: its end would tell the result.
    let upto = if v.winner_shown() { i32::MAX } else { v.turn().unwrap_or(0) };
    let series = |p: usize| -> Vec<[f64; 2]> {
        s.turns
            .iter()
            .filter(|t| t.turn <= upto)
            .map(|t| {
                let y = match metric {
                    PlotMetric::Hp => t.hp[p],
                    PlotMetric::Sp => t.sp[p],
                    PlotMetric::Mp => t.mp[p],
                    PlotMetric::StructureValue => t.structure_value[p],
                };
                [t.turn as f64, y as f64]
            })
            .collect()
    };
    let current = v.turn().unwrap_or(0) as f64;
    // The players' colours are the board's; their key sits above the plot, not over the data.
    let colours = crate::app::board::Palette::new(ui.visuals().dark_mode).player;
    ui.horizontal(|ui| {
        for (p, colour) in colours.iter().enumerate() {
            ui.colored_label(*colour, format!("P{} {}", p + 1, s.names[p]));
        }
    });
    let plot = egui_plot::Plot::new("viewer-plot").height(200.0).allow_scroll(false);
    let r = plot.show(ui, |pu| {
        for (p, colour) in colours.iter().enumerate() {
            pu.line(egui_plot::Line::new(format!("P{} {}", p + 1, s.names[p]), series(p)).color(*colour));
        }
        pu.vline(egui_plot::VLine::new("current turn", current));
        (pu.response().clicked(), pu.pointer_coordinate())
    });
    if let (true, Some(pt)) = r.inner {
        let turn = pt.x.round() as i32;
        if s.turns.iter().any(|t| t.turn == turn) {
            out.push(ViewerAction::Seek { turn, frame: 0 });
        }
    }
    ui.weak("Click the plot to jump to a turn");
    out
}

/// The end frame's figures (hidden until the last turn when the result is hidden).
fn end_of_game(ui: &mut Ui, v: &Viewer, s: &ReplaySummary) {
    egui::CollapsingHeader::new("End of game").default_open(true).show(ui, |ui| {
        if !v.winner_shown() {
            ui.weak("Hidden until the last turn is shown (Hide the winner until the end)");
            return;
        }
        let last = s.turns.last();
        // The end frame is the game's true end; a replay cut short ends at its last turn frame.
        let end = s.end.unwrap_or_else(|| {
            last.map_or_else(Default::default, |t| terminal_core::session::summary::EndState {
                hp: t.hp,
                sp: t.sp,
                structure_value: t.structure_value,
            })
        });
        egui::Grid::new("end-stats").striped(true).show(ui, |ui| {
            ui.label("");
            ui.strong(&s.names[0]);
            ui.strong(&s.names[1]);
            ui.end_row();
            ui.label("Winner");
            for p in 1..=2u8 {
                ui.label(match (v.winner_shown(), s.winner == Some(p)) {
                    (false, _) => "hidden",
                    (true, true) => "yes",
                    (true, false) => "",
                });
            }
            ui.end_row();
            let rows: [(&str, [f32; 2]); 3] =
                [("Final HP", end.hp), ("Structure value", end.structure_value), ("Unspent SP", end.sp)];
            for (name, vals) in rows {
                ui.label(name);
                ui.label(format!("{:.1}", vals[0]));
                ui.label(format!("{:.1}", vals[1]));
                ui.end_row();
            }
            let total: [i64; 2] = [0, 1].map(|p| s.turns.iter().map(|t| t.time_ms[p]).sum());
            ui.label("Compute time");
            ui.label(format!("{} ms", total[0]));
            ui.label(format!("{} ms", total[1]));
            ui.end_row();
            ui.label("Turns / frames");
            ui.label(format!("{} / {}", s.turns.len(), s.frames));
            ui.end_row();
        });
        ui.weak(format!("history: {:.1} MB", s.history_bytes as f64 / 1e6));
    });
}

/// The algos' stderr for the turn shown.
fn algo_logs(ui: &mut Ui, v: &Viewer) {
    egui::CollapsingHeader::new("Algo logs").default_open(true).show(ui, |ui| {
        let turn = v.turn().unwrap_or(0);
        let mut any = false;
        for p in Player::both() {
            let lines = v.shown.companions.log_lines(p, turn);
            if lines.is_empty() {
                continue;
            }
            any = true;
            ui.strong(format!("P{} stderr, turn {turn}", p.number()));
            egui::ScrollArea::vertical().id_salt(("algo-log", p.index())).max_height(160.0).show(ui, |ui| {
                for l in lines {
                    ui.monospace(l);
                }
            });
        }
        if !any {
            ui.weak("No companion logs for this turn");
        }
    });
}
