//! Reading the command table's shortcuts from the keyboard, for the view shown.

use super::Command;
use super::table::UiCommand;
use crate::app::model::View;

/// The table's commands whose keys were pressed this frame, for `view` (nothing while a text
/// field has focus: keys there are typing).
pub fn read(ctx: &egui::Context, view: View) -> Vec<Command> {
    if ctx.text_edit_focused() {
        return Vec::new();
    }
    let mut rows: Vec<(egui::KeyboardShortcut, UiCommand)> = UiCommand::ALL
        .into_iter()
        .filter(|c| c.info().scope.covers(view))
        .flat_map(|c| c.info().keys.iter().map(move |k| (*k, c)))
        .collect();
    // Longer combinations first: egui matches Ctrl+Z on Ctrl+Shift+Z too.
    rows.sort_by_key(|(k, _)| std::cmp::Reverse(modifier_count(k.modifiers)));
    let pressed: Vec<UiCommand> =
        ctx.input_mut(|i| rows.iter().filter(|(k, _)| i.consume_shortcut(k)).map(|(_, c)| *c).collect());
    if pressed.contains(&UiCommand::SwitchPlayer) {
        // Tab is ours there: drop the keyboard focus egui's Tab navigation gave a widget.
        ctx.memory_mut(|m| {
            if let Some(id) = m.focused() {
                m.surrender_focus(id);
            }
        });
    }
    pressed.into_iter().map(Command::Ui).collect()
}

fn modifier_count(m: egui::Modifiers) -> u8 {
    u8::from(m.alt) + u8::from(m.shift) + u8::from(m.command || m.ctrl || m.mac_cmd)
}
