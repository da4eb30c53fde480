//! The top bar: file menu, the studio's views as tabs, theme and help buttons.

use super::command::Command;
use super::settings::{Settings, Theme};
use egui::Ui;

/// The studio's views.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum View {
    Editor,
    Debugger,
    Replays,
    Arena,
    Play,
}

impl View {
    pub const ALL: [View; 5] = [View::Editor, View::Debugger, View::Replays, View::Arena, View::Play];

    pub fn label(self) -> &'static str {
        match self {
            View::Editor => "Editor",
            View::Debugger => "Debugger",
            View::Replays => "Replays",
            View::Arena => "Arena",
            View::Play => "Play",
        }
    }

    pub fn available(self) -> bool {
        true
    }
}

pub fn show(ui: &mut Ui, view: View, settings: &Settings) -> Vec<Command> {
    let mut out = Vec::new();
    ui.horizontal(|ui| {
        ui.menu_button("File", |ui| {
            let items = [
                ("New", "Ctrl+N", Command::New),
                ("Open…", "Ctrl+O", Command::OpenDialog),
                ("Save", "Ctrl+S", Command::Save),
                ("Save as…", "Ctrl+Shift+S", Command::SaveAsDialog),
                ("Open replay…", "", Command::OpenReplayDialog),
                ("Import from replay…", "", Command::ImportReplayDialog),
                ("Export Python…", "", Command::ExportPythonDialog),
                ("Copy Python snippet", "", Command::CopyPythonToClipboard),
                ("Export PNG…", "", Command::ExportPngDialog),
                ("Compare replays…", "", Command::CompareDialog),
            ];
            for (label, shortcut, command) in items {
                let button = egui::Button::new(label).shortcut_text(shortcut);
                if ui.add(button).clicked() {
                    out.push(command);
                    ui.close();
                }
            }
            ui.separator();
            ui.menu_button("Open recent", |ui| {
                if settings.recent_files.is_empty() {
                    ui.weak("No recent files");
                }
                for path in &settings.recent_files {
                    if ui.button(path.display().to_string()).clicked() {
                        out.push(Command::Open(path.clone()));
                        ui.close();
                    }
                }
            });
        });
        ui.separator();
        for v in View::ALL {
            let tab = ui.add_enabled(v.available(), egui::Button::selectable(v == view, v.label()));
            if tab.clicked() && v != view {
                out.push(Command::SetView(v));
            }
            if !v.available() {
                tab.on_disabled_hover_text("Coming in a later version");
            }
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui.button("Help").on_hover_text("F1: keyboard shortcuts").clicked() {
                out.push(Command::ToggleHelp);
            }
            let (label, next) = match settings.theme {
                Theme::Dark => ("Light theme", Theme::Light),
                Theme::Light => ("Dark theme", Theme::Dark),
            };
            if ui.button(label).clicked() {
                out.push(Command::SetTheme(next));
            }
        });
    });
    out
}
