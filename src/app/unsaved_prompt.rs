//! Asking before a layout with unsaved changes is replaced by another one: opening a file
//! empties the editor's history, so those changes could not be undone back.

use super::command::{Command, FileCommand};
use std::path::PathBuf;

/// A layout waiting to be opened over unsaved changes.
#[derive(Clone, Debug, PartialEq)]
pub struct UnsavedPrompt {
    /// The layout being edited, by name.
    pub current: String,
    /// Where the current layout is saved, if it has a file (Save writes there first).
    pub saved_at: Option<PathBuf>,
    /// The layout to open.
    pub next: PathBuf,
}

/// Draws the question; returns what the person chose (nothing while it stays open).
pub fn show(ctx: &egui::Context, prompt: &mut Option<UnsavedPrompt>) -> Vec<Command> {
    let Some(p) = prompt.as_ref() else { return Vec::new() };
    let mut out = Vec::new();
    let mut close = false;
    let next_name = p.next.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    egui::Window::new("Unsaved changes")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(format!("{} has changes that are not saved.", p.current));
            ui.label(format!("Opening {next_name} replaces it, and Undo cannot bring them back."));
            ui.horizontal(|ui| {
                if let Some(path) = &p.saved_at
                    && ui.button("Save, then open").clicked()
                {
                    out.push(Command::File(FileCommand::SaveTo(path.clone())));
                    out.push(Command::File(FileCommand::OpenDiscarding(p.next.clone())));
                    close = true;
                }
                if ui.button("Open without saving").clicked() {
                    out.push(Command::File(FileCommand::OpenDiscarding(p.next.clone())));
                    close = true;
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
    if close {
        *prompt = None;
    }
    out
}
