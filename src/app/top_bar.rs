//! The top bar: the menus (from the command table), the studio's views as tabs, theme and
//! help buttons.

use super::command::{Command, FileCommand, Menu, StudioCommand, UiCommand};
use super::model::{Theme, View};
use egui::Ui;
use std::path::PathBuf;

/// The bar; `recent` feeds File ▸ Open recent.
pub fn show(ui: &mut Ui, view: View, theme: Theme, recent: &[PathBuf]) -> Vec<Command> {
    let mut out = Vec::new();
    ui.horizontal(|ui| {
        for menu in Menu::ALL {
            ui.menu_button(menu.label(), |ui| {
                out.extend(menu_items(ui, menu, view));
                if menu == Menu::File {
                    ui.separator();
                    out.extend(recent_files(ui, recent));
                }
            });
        }
        ui.separator();
        for v in View::ALL {
            if ui.add(egui::Button::selectable(v == view, v.label())).clicked() && v != view {
                out.push(Command::Studio(StudioCommand::SetView(v)));
            }
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let help = UiCommand::ToggleHelp;
            if ui.button("Help").on_hover_text(format!("{}: {}", help.shortcut_text(), help.info().label)).clicked() {
                out.push(Command::Ui(help));
            }
            let label = match theme {
                Theme::Dark => "Light theme",
                Theme::Light => "Dark theme",
            };
            if ui.button(label).on_hover_text(UiCommand::ToggleTheme.info().tooltip).clicked() {
                out.push(Command::Ui(UiCommand::ToggleTheme));
            }
        });
    });
    out
}

/// The table's commands of one menu; those of other views are greyed out, saying where they work.
fn menu_items(ui: &mut Ui, menu: Menu, view: View) -> Vec<Command> {
    let mut out = Vec::new();
    for command in UiCommand::ALL.into_iter().filter(|c| c.info().menu == Some(menu)) {
        let info = command.info();
        let first_key = info.keys.first().map(super::command::table::format_shortcut).unwrap_or_default();
        let enabled = info.scope.covers(view);
        let button = egui::Button::new(info.label).shortcut_text(first_key);
        let response =
            ui.add_enabled(enabled, button).on_hover_text(info.tooltip).on_disabled_hover_text(match info.scope {
                super::command::Scope::Editor => "In the Editor view",
                super::command::Scope::Play => "In the Play view, on your turn",
                super::command::Scope::Tools => "In the Editor and Play views",
                _ => "In the Debugger, Replays and Play views",
            });
        if response.clicked() {
            out.push(Command::Ui(command));
            ui.close();
        }
    }
    out
}

fn recent_files(ui: &mut Ui, recent: &[PathBuf]) -> Vec<Command> {
    let mut out = Vec::new();
    ui.menu_button("Open recent", |ui| {
        if recent.is_empty() {
            ui.weak("No recent files");
        }
        for path in recent {
            if ui.button(path.display().to_string()).clicked() {
                out.push(Command::File(FileCommand::Open(path.clone())));
                ui.close();
            }
        }
    });
    out
}
