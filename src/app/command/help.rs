//! The F1 help window: the shown view's keys and gestures, from the command table.

use super::table::{GESTURES, UiCommand};
use crate::app::model::View;

/// The rows the help lists for `view`: (keys, the command, what it does).
pub fn rows(view: View) -> Vec<(String, &'static str, &'static str)> {
    let mut rows: Vec<(String, &'static str, &'static str)> = UiCommand::ALL
        .into_iter()
        .filter(|c| c.info().scope.covers(view) && !c.info().keys.is_empty())
        .map(|c| (c.shortcut_text(), c.info().label, c.info().tooltip))
        .collect();
    rows.extend(
        GESTURES.iter().filter(|(scope, ..)| scope.covers(view)).map(|(_, keys, what)| (keys.to_string(), *what, "")),
    );
    if view == View::Arena {
        rows.push(("Enter (in Algo path)".into(), "Add the typed algo", ""));
    }
    rows
}

/// The help window. It opens below the tab bar, not over it.
pub fn window(ctx: &egui::Context, open: &mut bool, view: View) {
    egui::Window::new(format!("Keyboard shortcuts: {}", view.label()))
        .open(open)
        .resizable(false)
        .collapsible(false)
        .default_pos(egui::pos2(40.0, 60.0))
        .show(ctx, |ui| {
            egui::Grid::new("shortcuts").striped(true).num_columns(3).show(ui, |ui| {
                for (keys, label, what) in rows(view) {
                    ui.monospace(keys);
                    ui.label(label);
                    ui.weak(what);
                    ui.end_row();
                }
            });
        });
}
