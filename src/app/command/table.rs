//! The command table: every command a person can give from a menu, a key or the help window,
//! with its label, tooltip, shortcuts and where it applies. Menus, keyboard handling and the
//! F1 help all read this one table, so a command added here is offered everywhere at once.

use crate::app::model::View;
use egui::{Key, KeyboardShortcut, Modifiers};

/// A command of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UiCommand {
    NewLayout,
    OpenLayout,
    Save,
    SaveAs,
    OpenReplay,
    ImportReplay,
    ExportPython,
    CopyPython,
    ExportPng,
    CompareReplays,
    Undo,
    Redo,
    WallTool,
    SupportTool,
    TurretTool,
    UpgradeTool,
    RemoveTool,
    EraseTool,
    SwitchPlayer,
    Mirror,
    ResetBoard,
    NextTurn,
    PreviousTurn,
    NextFrame,
    PreviousFrame,
    PlayPause,
    FirstTurn,
    LastFrame,
    FitBoard,
    ToggleSidePanels,
    CopyFrameJson,
    ToggleTheme,
    ToggleHelp,
    ScoutTool,
    DemolisherTool,
    InterceptorTool,
    EndTurn,
    UndoTurnEdit,
}

/// Where a command applies: the views whose keys and menus offer it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every view.
    Studio,
    /// The map editor.
    Editor,
    /// A replay on the board: the Debugger, Replays and Play.
    Replay,
    /// A person's turn in the Play view.
    Play,
    /// The structure tools: the map editor, and a person's turn in Play.
    Tools,
}

impl Scope {
    pub fn covers(self, view: View) -> bool {
        match self {
            Scope::Studio => true,
            Scope::Editor => view == View::Editor,
            Scope::Replay => matches!(view, View::Debugger | View::Replays | View::Play),
            Scope::Play => view == View::Play,
            Scope::Tools => matches!(view, View::Editor | View::Play),
        }
    }
}

/// The top-bar menu a command is listed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Menu {
    File,
    Edit,
    Replay,
}

impl Menu {
    pub const ALL: [Menu; 3] = [Menu::File, Menu::Edit, Menu::Replay];

    pub fn label(self) -> &'static str {
        match self {
            Menu::File => "File",
            Menu::Edit => "Edit",
            Menu::Replay => "Playback",
        }
    }
}

/// One row of the table.
pub struct CommandInfo {
    pub command: UiCommand,
    pub label: &'static str,
    pub tooltip: &'static str,
    /// The keys that give it; the first is the one menus show.
    pub keys: &'static [KeyboardShortcut],
    pub scope: Scope,
    pub menu: Option<Menu>,
}

const fn key(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::NONE, key)
}

const fn ctrl(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND, key)
}

const fn ctrl_shift(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), key)
}

const fn row(
    command: UiCommand,
    label: &'static str,
    tooltip: &'static str,
    keys: &'static [KeyboardShortcut],
    scope: Scope,
    menu: Option<Menu>,
) -> CommandInfo {
    CommandInfo { command, label, tooltip, keys, scope, menu }
}

use Menu::{Edit, File, Replay as ReplayMenu};
use Scope::{Editor, Play, Replay, Studio, Tools};

/// The table.
const TABLE: [CommandInfo; 38] = [
    row(
        UiCommand::NewLayout,
        "New layout",
        "Start an empty layout (Undo brings the old one back)",
        &[ctrl(Key::N)],
        Editor,
        Some(File),
    ),
    row(
        UiCommand::OpenLayout,
        "Open…",
        "Open a layout (in the Editor) or a replay (in the Debugger)",
        &[ctrl(Key::O)],
        Studio,
        Some(File),
    ),
    row(UiCommand::Save, "Save", "Save the layout", &[ctrl(Key::S)], Editor, Some(File)),
    row(UiCommand::SaveAs, "Save as…", "Save the layout under a new name", &[ctrl_shift(Key::S)], Editor, Some(File)),
    row(UiCommand::OpenReplay, "Open replay…", "Open a .replay or .replay.gz in the Debugger", &[], Studio, Some(File)),
    row(
        UiCommand::ImportReplay,
        "Import from replay…",
        "Take a player's structures from a replay turn",
        &[],
        Studio,
        Some(File),
    ),
    row(
        UiCommand::ExportPython,
        "Export Python…",
        "Write the active player's layout as a Python snippet",
        &[],
        Studio,
        Some(File),
    ),
    row(
        UiCommand::CopyPython,
        "Copy Python snippet",
        "Put the active player's layout on the clipboard as Python",
        &[],
        Studio,
        Some(File),
    ),
    row(UiCommand::ExportPng, "Export PNG…", "Write the board with its overlays as an image", &[], Studio, Some(File)),
    row(
        UiCommand::CompareReplays,
        "Compare replays…",
        "Two replays side by side, differing tiles outlined",
        &[],
        Studio,
        Some(File),
    ),
    row(UiCommand::Undo, "Undo", "Take the last edit back", &[ctrl(Key::Z)], Editor, Some(Edit)),
    row(UiCommand::Redo, "Redo", "Do the undone edit again", &[ctrl_shift(Key::Z), ctrl(Key::Y)], Editor, Some(Edit)),
    row(UiCommand::WallTool, "Wall tool", "Place walls", &[key(Key::Num1)], Tools, None),
    row(UiCommand::SupportTool, "Support tool", "Place supports", &[key(Key::Num2)], Tools, None),
    row(UiCommand::TurretTool, "Turret tool", "Place turrets", &[key(Key::Num3)], Tools, None),
    row(UiCommand::UpgradeTool, "Upgrade tool", "Upgrade structures", &[key(Key::U)], Tools, None),
    row(
        UiCommand::RemoveTool,
        "Mark-for-removal tool",
        "Mark structures for removal (refunded next turn)",
        &[key(Key::R)],
        Tools,
        None,
    ),
    row(UiCommand::EraseTool, "Erase tool", "Erase structures from the layout", &[key(Key::X)], Editor, None),
    row(UiCommand::SwitchPlayer, "Switch player", "Edit the other player's half", &[key(Key::Tab)], Editor, Some(Edit)),
    row(
        UiCommand::Mirror,
        "Mirror",
        "Mirror the active player's layout left/right",
        &[key(Key::M)],
        Editor,
        Some(Edit),
    ),
    row(UiCommand::ResetBoard, "Reset zoom", "Reset zoom and pan", &[key(Key::Num0)], Editor, Some(Edit)),
    row(
        UiCommand::NextTurn,
        "Next turn",
        "The next turn's first frame",
        &[ctrl(Key::ArrowRight)],
        Replay,
        Some(ReplayMenu),
    ),
    row(
        UiCommand::PreviousTurn,
        "Previous turn",
        "The previous turn's first frame",
        &[ctrl(Key::ArrowLeft)],
        Replay,
        Some(ReplayMenu),
    ),
    row(UiCommand::NextFrame, "Next frame", "One frame forward", &[key(Key::ArrowRight)], Replay, Some(ReplayMenu)),
    row(UiCommand::PreviousFrame, "Previous frame", "One frame back", &[key(Key::ArrowLeft)], Replay, Some(ReplayMenu)),
    row(
        UiCommand::PlayPause,
        "Play / pause",
        "Play the replay at the chosen speed",
        &[key(Key::Space)],
        Replay,
        Some(ReplayMenu),
    ),
    row(UiCommand::FirstTurn, "First turn", "Back to the first turn", &[key(Key::Home)], Replay, Some(ReplayMenu)),
    row(
        UiCommand::LastFrame,
        "Last frame",
        "The last frame (a live match: follow it again)",
        &[key(Key::End)],
        Replay,
        Some(ReplayMenu),
    ),
    row(
        UiCommand::FitBoard,
        "Fit the board",
        "Zoom and pan back to the whole board",
        &[key(Key::Num0)],
        Replay,
        Some(ReplayMenu),
    ),
    row(
        UiCommand::ToggleSidePanels,
        "Board only",
        "Hide or show the side panels",
        &[key(Key::B)],
        Replay,
        Some(ReplayMenu),
    ),
    row(
        UiCommand::CopyFrameJson,
        "Copy frame as JSON",
        "Put the shown frame on the clipboard as the engine's JSON line",
        &[ctrl_shift(Key::C)],
        Replay,
        Some(ReplayMenu),
    ),
    row(UiCommand::ToggleTheme, "Light / dark theme", "Switch between the light and the dark theme", &[], Studio, None),
    row(UiCommand::ToggleHelp, "Keyboard shortcuts", "Show or hide this help", &[key(Key::F1)], Studio, None),
    row(UiCommand::ScoutTool, "Scout tool", "Deploy scouts on your edges", &[key(Key::Num4)], Play, None),
    row(UiCommand::DemolisherTool, "Demolisher tool", "Deploy demolishers", &[key(Key::Num5)], Play, None),
    row(UiCommand::InterceptorTool, "Interceptor tool", "Deploy interceptors", &[key(Key::Num6)], Play, None),
    row(UiCommand::EndTurn, "End turn", "Send your planned turn to the match", &[key(Key::Enter)], Play, None),
    row(UiCommand::UndoTurnEdit, "Undo", "Take the last edit of your turn back", &[ctrl(Key::Z)], Play, None),
];

impl UiCommand {
    pub const ALL: [UiCommand; TABLE.len()] = {
        let mut all = [UiCommand::ToggleHelp; TABLE.len()];
        let mut i = 0;
        while i < TABLE.len() {
            all[i] = TABLE[i].command;
            i += 1;
        }
        all
    };

    /// The command's row.
    pub fn info(self) -> &'static CommandInfo {
        // Rows are in the order of the variants (checked by a test).
        &TABLE[self as usize]
    }

    /// The shortcut as menus and the help show it ("Ctrl+Shift+Z"; on a Mac "⇧⌘Z").
    pub fn shortcut_text(self) -> String {
        let keys = self.info().keys;
        keys.iter().map(format_shortcut).collect::<Vec<_>>().join(" / ")
    }
}

/// A shortcut in the words of the platform.
pub fn format_shortcut(shortcut: &KeyboardShortcut) -> String {
    let names = if cfg!(target_os = "macos") { egui::ModifierNames::SYMBOLS } else { egui::ModifierNames::NAMES };
    shortcut.format(&names, cfg!(target_os = "macos"))
}

/// Gestures the help window lists beside the keys: pointer actions, per scope.
pub const GESTURES: &[(Scope, &str, &str)] = &[
    (Scope::Editor, "Left click / drag", "Apply the tool (drag paints a line)"),
    (Scope::Editor, "Middle or right drag", "Pan the board"),
    (Scope::Editor, "Mouse wheel", "Zoom around the pointer"),
    (Scope::Replay, "Mouse wheel / right drag", "Zoom / pan the board"),
    (Scope::Replay, "Click", "Select a unit for the inspector"),
    (Scope::Play, "Click (your turn)", "Apply the tool to the tile"),
    (Scope::Play, "Right click (your turn)", "Take a deploy or a new structure back"),
];

/// The shortcuts two commands of one view share, as "Ctrl+Z: Undo and Redo in the Editor view".
pub fn clashes(rows: &[(&str, Scope, &[KeyboardShortcut])]) -> Vec<String> {
    let mut found = Vec::new();
    for view in View::ALL {
        let mut seen: Vec<(KeyboardShortcut, &str)> = Vec::new();
        for (label, _, keys) in rows.iter().filter(|(_, scope, _)| scope.covers(view)) {
            for key in keys.iter() {
                match seen.iter().find(|(k, _)| k == key) {
                    Some((_, other)) => found.push(format!(
                        "{}: {other} and {label} in the {} view",
                        format_shortcut(key),
                        view.label()
                    )),
                    None => seen.push((*key, label)),
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Vec<(&'static str, Scope, &'static [KeyboardShortcut])> {
        UiCommand::ALL.iter().map(|c| (c.info().label, c.info().scope, c.info().keys)).collect()
    }

    #[test]
    fn no_two_commands_of_one_view_share_a_shortcut() {
        assert_eq!(clashes(&table()), Vec::<String>::new());
    }

    #[test]
    fn a_shortcut_given_twice_in_one_view_is_a_clash() {
        const CTRL_Z: &[KeyboardShortcut] = &[KeyboardShortcut::new(Modifiers::COMMAND, Key::Z)];
        let mut rows = table();
        rows.push(("Another undo", Scope::Studio, CTRL_Z));
        // Editor-only Ctrl+Z meets a studio-wide one in the Editor view only.
        let found = clashes(&rows);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("Undo and Another undo in the Editor view"), "{found:?}");
    }

    #[test]
    fn every_command_is_listed_once_with_a_label() {
        for (i, row) in TABLE.iter().enumerate() {
            assert_eq!(row.command as usize, i, "{:?} is out of the variants' order", row.command);
        }
        for (i, c) in UiCommand::ALL.iter().enumerate() {
            assert!(!c.info().label.is_empty(), "{c:?}");
            assert!(!UiCommand::ALL[..i].contains(c), "{c:?} listed twice");
        }
    }
}
