//! The Debugger's what-if section: the editing tools and their budget, then the table of
//! tries (watch one, compare two).

use super::whatif_board::{BoardTool, BoardWhatIf, WhatIfBase};
use super::{Viewer, ViewerAction};
use egui::Ui;
use terminal_core::engine::Player;
use terminal_core::session::whatif::WhatIfSummary;

/// The what-if section: start or edit a what-if of the shown turn, its budget, the tries.
pub(super) fn whatif(ui: &mut Ui, v: &Viewer) -> Vec<ViewerAction> {
    let mut out = Vec::new();
    match v.whatif.board_whatif.as_ref() {
        None => {
            let can = v.shown.summary.is_some() && v.shown.current.is_some();
            if ui.add_enabled(can, egui::Button::new("Edit what-if on the board")).clicked() {
                out.push(ViewerAction::EditWhatIfOnBoard);
            }
            ui.weak("Change structures and deploys of either player on the board, from this turn's start.");
            ui.horizontal_wrapped(|ui| {
                if ui.add_enabled(can, egui::Button::new("Run what-if on this turn")).clicked() {
                    out.push(ViewerAction::RunWhatIf);
                }
                let hint = "The strongest deploys of a seat on this turn, searched by the engine";
                let planner_open = v.planner.open;
                if ui.selectable_label(planner_open, "Plan attack…").on_hover_text(hint).clicked() {
                    out.push(ViewerAction::ShowPlanner(!planner_open));
                }
            });
            if v.planner.open {
                ui.separator();
                out.extend(super::plan_panel::planner(ui, v, super::plan_panel::PlannerIn::Debugger));
                ui.separator();
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
fn whatif_editing(ui: &mut Ui, v: &Viewer, w: &BoardWhatIf) -> Vec<ViewerAction> {
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
fn budget(ui: &mut Ui, v: &Viewer, w: &BoardWhatIf) {
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
            format!("breaches dealt {} / taken {}", s.breaches[us], s.breaches[them]),
            format!(
                "Player {p}'s units breached {} times (−{:.0} HP), player {o}'s {} (−{:.0} HP)",
                s.breaches[us], s.hp_damage[us], s.breaches[them], s.hp_damage[them]
            ),
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
