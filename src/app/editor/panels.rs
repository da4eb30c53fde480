//! The editor's side panels: tool palette, player, actions, ruleset, overlays (left); tallies
//! and the hovered tile (right); the replay-import window.

use super::Editor;
use crate::app::command::{Command, EditorCommand, FileAction, FileCommand, StudioCommand, UiCommand};
use crate::app::model::{Edit, NO_UPGRADES, Overlays, Tool};
use egui::{RichText, Ui};
use terminal_core::engine::geometry::{Edge, Player, Tile};
use terminal_core::engine::presets::PRESETS;
use terminal_core::layout::Kind;

fn stroke_of(edit: Edit) -> [Command; 3] {
    [EditorCommand::BeginStroke.into(), EditorCommand::Edit(edit).into(), EditorCommand::EndStroke.into()]
}

/// The left panel: name, tool palette, player, editing actions, ruleset and overlays.
pub fn tools(ui: &mut Ui, editor: &Editor, ruleset: &str, overlays: &mut Overlays) -> Vec<Command> {
    let mut out = name_field(ui, editor);
    ui.separator();
    out.extend(tool_palette(ui, editor));
    ui.separator();
    out.extend(player_picker(ui, editor));
    ui.separator();
    out.extend(edit_actions(ui, editor));
    ui.separator();
    out.extend(ruleset_picker(ui, ruleset));
    ui.separator();
    overlay_toggles(ui, overlays, editor.config.legacy);
    out
}

fn name_field(ui: &mut Ui, editor: &Editor) -> Vec<Command> {
    let mut out = Vec::new();
    ui.horizontal(|ui| {
        let label = ui.label("Name");
        let mut name = editor.layout.name.clone();
        let r = ui
            .add(egui::TextEdit::singleline(&mut name).hint_text("untitled").desired_width(120.0))
            .labelled_by(label.id);
        if r.changed() {
            out.extend([EditorCommand::BeginStroke.into(), EditorCommand::Rename(name).into()]);
        }
        if r.lost_focus() {
            // Typing a name is one undo step.
            out.push(EditorCommand::EndStroke.into());
        }
    });
    out
}

/// The tools, each with the table command whose key selects it.
const TOOLS: [(Tool, UiCommand); 6] = [
    (Tool::Place(Kind::Wall), UiCommand::WallTool),
    (Tool::Place(Kind::Support), UiCommand::SupportTool),
    (Tool::Place(Kind::Turret), UiCommand::TurretTool),
    (Tool::Upgrade, UiCommand::UpgradeTool),
    (Tool::Remove, UiCommand::RemoveTool),
    (Tool::Erase, UiCommand::EraseTool),
];

fn tool_palette(ui: &mut Ui, editor: &Editor) -> Vec<Command> {
    let mut out = Vec::new();
    ui.heading("Tools");
    let legacy = editor.config.legacy;
    for (tool, command) in TOOLS {
        let selected = editor.tool == tool;
        let enabled = !(legacy && tool == Tool::Upgrade);
        let resp = ui
            .add_enabled(enabled, egui::Button::selectable(selected, tool.label_for(legacy)))
            .on_hover_text(format!("Shortcut: {}", command.shortcut_text()))
            .on_disabled_hover_text(NO_UPGRADES);
        if resp.clicked() {
            out.push(EditorCommand::SetTool(tool).into());
        }
    }
    if let Tool::Place(k) = editor.tool {
        let stats = editor.config.form(k.unit_type(), false);
        if legacy {
            ui.weak(format!("costs {} SP", stats.cost_sp));
        } else {
            ui.weak(format!(
                "costs {} SP, upgrade +{} SP",
                stats.cost_sp,
                editor.config.invested_sp(k.unit_type(), true) - stats.cost_sp
            ));
        }
    }
    out
}

fn player_picker(ui: &mut Ui, editor: &Editor) -> Vec<Command> {
    let mut out = Vec::new();
    ui.heading("Player");
    ui.horizontal(|ui| {
        for p in Player::both() {
            if ui
                .selectable_label(editor.player == p, format!("Player {}", p.number()))
                .on_hover_text("Tab switches")
                .clicked()
            {
                out.push(EditorCommand::SetPlayer(p).into());
            }
        }
    });
    out
}

fn edit_actions(ui: &mut Ui, editor: &Editor) -> Vec<Command> {
    let mut out = Vec::new();
    ui.heading("Edit");
    ui.horizontal(|ui| {
        for (command, enabled) in
            [(UiCommand::Undo, editor.history.can_undo()), (UiCommand::Redo, editor.history.can_redo())]
        {
            let button = ui.add_enabled(enabled, egui::Button::new(command.info().label));
            if button.on_hover_text(command.shortcut_text()).clicked() {
                out.push(Command::Ui(command));
            }
        }
    });
    let mirror = UiCommand::Mirror;
    if ui
        .button("Mirror left/right")
        .on_hover_text(format!("{}: {}", mirror.shortcut_text(), mirror.info().tooltip))
        .clicked()
    {
        out.push(Command::Ui(mirror));
    }
    if ui
        .button("Copy to opponent")
        .on_hover_text("Replaces the other player's structures with these, rotated")
        .clicked()
    {
        out.extend(stroke_of(Edit::CopyToOpponent));
    }
    if ui.button("Clear player").on_hover_text("Removes all of the active player's structures").clicked() {
        out.extend(stroke_of(Edit::Clear));
    }
    if ui
        .button("Simulate in debugger")
        .on_hover_text("Opens this layout as the start of a turn in the Debugger's what-if: deploy and run")
        .clicked()
    {
        out.push(StudioCommand::SimulateLayout.into());
    }
    out
}

fn ruleset_picker(ui: &mut Ui, ruleset: &str) -> Vec<Command> {
    let mut out = Vec::new();
    ui.heading("Ruleset");
    let current = PRESETS.iter().find(|(s, _, _)| *s == ruleset).map(|(s, _, _)| s.to_string()).unwrap_or_else(|| {
        std::path::Path::new(ruleset)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| ruleset.to_string())
    });
    egui::ComboBox::from_label("Rules").selected_text(current).show_ui(ui, |ui| {
        for (slug, description, _) in PRESETS {
            if ui.selectable_label(ruleset == *slug, *slug).on_hover_text(*description).clicked() {
                out.push(StudioCommand::SetRuleset(slug.to_string()).into());
            }
        }
        if ui.selectable_label(false, "Open game-configs.json…").clicked() {
            out.push(FileCommand::Ask(FileAction::Ruleset).into());
        }
    });
    out
}

fn overlay_toggles(ui: &mut Ui, overlays: &mut Overlays, legacy: bool) {
    ui.heading("Overlays");
    ui.checkbox(&mut overlays.coverage, format!("{} coverage", Kind::Turret.label_for(legacy)));
    ui.checkbox(&mut overlays.shields, format!("{} shields", Kind::Support.label_for(legacy)));
    ui.checkbox(&mut overlays.hover_path, "Path from hovered edge");
    ui.checkbox(&mut overlays.all_paths, "All edge paths");
    ui.checkbox(&mut overlays.both_players, "Both players' ranges");
}

/// Tallies per player and what is under the pointer.
pub fn info(ui: &mut Ui, editor: &Editor, hovered: Option<Tile>) {
    ui.heading("Tallies");
    for p in Player::both() {
        let t = editor.layout.tally(p, &editor.config);
        let active = if p == editor.player { " (active)" } else { "" };
        ui.label(RichText::new(format!("Player {}{active}", p.number())).strong());
        egui::Grid::new(format!("tally-{}", p.number())).num_columns(2).show(ui, |ui| {
            ui.label("SP spent");
            ui.monospace(format!("{:.1}", t.sp_spent));
            ui.end_row();
            for k in Kind::ALL {
                ui.label(format!("{}s", k.label_for(editor.config.legacy)));
                if editor.config.legacy {
                    ui.monospace(format!("{}", t.count[k as usize]));
                } else {
                    ui.monospace(format!("{} ({} up)", t.count[k as usize], t.upgraded[k as usize]));
                }
                ui.end_row();
            }
            ui.label("Marked for removal");
            ui.monospace(format!("{}", t.marked));
            ui.end_row();
            ui.label("Removal refund");
            ui.monospace(format!("{:.1} SP", t.removal_refund));
            ui.end_row();
        });
        ui.add_space(6.0);
    }
    ui.separator();
    ui.heading("Tile");
    let Some(t) = hovered else {
        ui.weak("Hover the board");
        return;
    };
    ui.monospace(format!("[{}, {}]  half of player {}", t.x, t.y, t.owner_half().number()));
    if let Some(s) = editor.layout.get(t) {
        let mut what = s.kind.label_for(editor.config.legacy).to_string();
        if s.upgraded {
            what.push_str(", upgraded");
        }
        if s.remove {
            what.push_str(", marked for removal");
        }
        ui.label(what);
    }
    let a = &editor.analysis;
    let turrets = Kind::Turret.label_for(editor.config.legacy);
    ui.label(format!("{turrets}s reaching: P1 {}, P2 {}", a.coverage[0][t.index()], a.coverage[1][t.index()]));
    ui.label(format!("Shield: P1 {:.1}, P2 {:.1}", a.shield[0][t.index()], a.shield[1][t.index()]));
    if Edge::ALL.iter().any(|e| e.contains(t)) {
        match a.path_from(t) {
            Some(p) => {
                let end = p.tiles.last().copied().unwrap_or(t);
                let how = match p.end {
                    terminal_core::layout::analysis::PathEnd::Breach => "breaches",
                    terminal_core::layout::analysis::PathEnd::SelfDestruct => "self-destructs",
                };
                ui.label(format!("Path: {} steps, {how} at [{}, {}]", p.tiles.len().saturating_sub(1), end.x, end.y));
                if let Some(threat) = editor.threat_from(t) {
                    ui.add_space(4.0);
                    crate::app::board::threat::table(ui, threat);
                }
            }
            None => {
                ui.label("Edge tile blocked: no deploy");
            }
        }
    }
}

/// The replay-import window (pick a turn, import).
pub fn import_window(ctx: &egui::Context, editor: &mut Editor) -> Vec<Command> {
    let mut out = Vec::new();
    let Some(import) = editor.import.as_mut() else {
        return out;
    };
    let mut open = true;
    let title = format!("Import from {}", import.replay.file_name());
    egui::Window::new(title).open(&mut open).collapsible(false).show(ctx, |ui| {
        let last = import.turn_starts.len().saturating_sub(1);
        ui.add(egui::Slider::new(&mut import.chosen_turn, 0..=last).text("turn"));
        let frame_index = import.turn_starts.get(import.chosen_turn).copied().unwrap_or(0);
        if let Some(f) = import.replay.frames.get(frame_index) {
            let count: usize = f.units.iter().map(|lists| lists.iter().take(3).map(Vec::len).sum::<usize>()).sum();
            ui.label(format!("Turn {}: {count} structures", f.turn_info.turn));
        }
        ui.horizontal(|ui| {
            if ui.button("Import").clicked() {
                out.push(EditorCommand::ImportReplayTurn(import.chosen_turn).into());
            }
            if ui.button("Cancel").clicked() {
                out.push(EditorCommand::CloseImport.into());
            }
        });
    });
    if !open {
        out.push(EditorCommand::CloseImport.into());
    }
    out
}
