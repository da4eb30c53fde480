//! Keyboard shortcuts: one table, read each frame and shown in the help window.

use super::command::{Command, Edit, Tool};
use super::top_bar::View;
use egui::{Key, KeyboardShortcut, Modifiers};
use terminal_core::layout::Kind;

/// `(keys, what they do)` for the help window.
pub const HELP: &[(&str, &str)] = &[
    ("1 / 2 / 3", "Wall / Support / Turret tool"),
    ("U", "Upgrade tool"),
    ("R", "Mark-for-removal tool"),
    ("X", "Erase tool"),
    ("Tab", "Switch the active player"),
    ("Left click / drag", "Apply the tool (drag paints a line)"),
    ("Middle or right drag", "Pan the board"),
    ("Mouse wheel", "Zoom around the pointer"),
    ("0", "Reset zoom and pan"),
    ("M", "Mirror the active player's layout left/right"),
    ("Ctrl+Z", "Undo"),
    ("Ctrl+Shift+Z / Ctrl+Y", "Redo"),
    ("Ctrl+N", "New layout"),
    ("Ctrl+O", "Open a layout"),
    ("Ctrl+S", "Save"),
    ("Ctrl+Shift+S", "Save as"),
    ("F1", "Show or hide this help"),
];

/// Reads the shortcuts pressed this frame (nothing while a text field has focus).
/// The editor's keys when `editor` is the view shown; elsewhere only the studio's own (F1), so
/// that other views' keys (the Debugger's 0, arrows, Space) reach them.
pub fn read(ctx: &egui::Context, editor: bool) -> Vec<Command> {
    let mut out = Vec::new();
    if ctx.text_edit_focused() {
        return out;
    }
    if !editor {
        if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::F1)) {
            out.push(Command::ToggleHelp);
        }
        return out;
    }
    ctx.input_mut(|i| {
        let ctrl_shift = Modifiers::COMMAND | Modifiers::SHIFT;
        // Longer combinations first: consume_shortcut ignores extra shift otherwise.
        if i.consume_shortcut(&KeyboardShortcut::new(ctrl_shift, Key::Z)) {
            out.push(Command::Redo);
        }
        if i.consume_shortcut(&KeyboardShortcut::new(ctrl_shift, Key::S)) {
            out.push(Command::SaveAsDialog);
        }
        let ctrl = |key| KeyboardShortcut::new(Modifiers::COMMAND, key);
        let table = [
            (ctrl(Key::Z), Command::Undo),
            (ctrl(Key::Y), Command::Redo),
            (ctrl(Key::S), Command::Save),
            (ctrl(Key::O), Command::OpenDialog),
            (ctrl(Key::N), Command::New),
        ];
        for (shortcut, command) in table {
            if i.consume_shortcut(&shortcut) {
                out.push(command);
            }
        }
        let plain = [
            (Key::Num1, Command::SetTool(Tool::Place(Kind::Wall))),
            (Key::Num2, Command::SetTool(Tool::Place(Kind::Support))),
            (Key::Num3, Command::SetTool(Tool::Place(Kind::Turret))),
            (Key::U, Command::SetTool(Tool::Upgrade)),
            (Key::R, Command::SetTool(Tool::Remove)),
            (Key::X, Command::SetTool(Tool::Erase)),
            (Key::Tab, Command::SwitchPlayer),
            (Key::Num0, Command::ResetView),
            (Key::M, Command::Edit(Edit::MirrorX)),
            (Key::F1, Command::ToggleHelp),
        ];
        for (key, command) in plain {
            if i.consume_key(Modifiers::NONE, key) {
                out.push(command);
            }
        }
    });
    if out.contains(&Command::SwitchPlayer) {
        // Tab is ours: drop the keyboard focus egui's Tab navigation gave a widget.
        ctx.memory_mut(|m| {
            if let Some(id) = m.focused() {
                m.surrender_focus(id);
            }
        });
    }
    // A mirror is one undo step of its own.
    out.into_iter()
        .flat_map(|c| match c {
            Command::Edit(e) => vec![Command::BeginStroke, Command::Edit(e), Command::EndStroke],
            other => vec![other],
        })
        .collect()
}

/// The help window: the keys of the view shown, from the tables that read them. It opens
/// below the tab bar, not over it.
pub fn help_window(ctx: &egui::Context, open: &mut bool, view: View) {
    let rows: Vec<(&str, &str)> = match view {
        View::Editor => HELP.to_vec(),
        View::Debugger | View::Replays | View::Play => {
            let mut rows: Vec<(&str, &str)> =
                super::viewer::KEYS.iter().map(|(.., keys, what)| (*keys, *what)).collect();
            rows.extend([
                ("Mouse wheel / right drag", "Zoom / pan the board"),
                ("Click", "Select a unit for the inspector"),
                ("F1", "Show or hide this help"),
            ]);
            rows
        }
        View::Arena => vec![("Enter (in Algo path)", "Add the typed algo"), ("F1", "Show or hide this help")],
    };
    egui::Window::new(format!("Keyboard shortcuts: {}", view.label()))
        .open(open)
        .resizable(false)
        .collapsible(false)
        .default_pos(egui::pos2(40.0, 60.0))
        .show(ctx, |ui| {
            egui::Grid::new("shortcuts").striped(true).num_columns(2).show(ui, |ui| {
                for (keys, what) in rows {
                    ui.monospace(keys);
                    ui.label(what);
                    ui.end_row();
                }
            });
        });
}
