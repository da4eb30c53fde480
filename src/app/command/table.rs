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
    RunStressTest,
    PlayAgainstReplay,
    StopMatch,
    OpenMatch,
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
    label: &'static str,
    tooltip: &'static str,
    keys: &'static [KeyboardShortcut],
    scope: Scope,
    menu: Option<Menu>,
) -> CommandInfo {
    CommandInfo { label, tooltip, keys, scope, menu }
}

// ALL lists the variants in their order, each once: the position of each is its value.
const _: () = {
    let mut i = 0;
    while i < UiCommand::ALL.len() {
        assert!(UiCommand::ALL[i] as usize == i, "UiCommand::ALL is out of the variants' order");
        i += 1;
    }
};

use Menu::{Edit, File, Replay as ReplayMenu};
use Scope::{Editor, Play, Replay, Studio, Tools};

// The rows, one per command.
const NEW_LAYOUT: CommandInfo =
    row("New layout", "Start an empty layout (Undo brings the old one back)", &[ctrl(Key::N)], Editor, Some(File));
const OPEN_LAYOUT: CommandInfo =
    row("Open…", "Open a layout (in the Editor) or a replay (in the Debugger)", &[ctrl(Key::O)], Studio, Some(File));
const SAVE: CommandInfo = row("Save", "Save the layout", &[ctrl(Key::S)], Editor, Some(File));
const SAVE_AS: CommandInfo =
    row("Save as…", "Save the layout under a new name", &[ctrl_shift(Key::S)], Editor, Some(File));
const OPEN_REPLAY: CommandInfo =
    row("Open replay…", "Open a .replay or .replay.gz in the Debugger", &[], Studio, Some(File));
const IMPORT_REPLAY: CommandInfo =
    row("Import from replay…", "Take a player's structures from a replay turn", &[], Studio, Some(File));
const EXPORT_PYTHON: CommandInfo =
    row("Export Python…", "Write the active player's layout as a Python snippet", &[], Studio, Some(File));
const COPY_PYTHON: CommandInfo =
    row("Copy Python snippet", "Put the active player's layout on the clipboard as Python", &[], Studio, Some(File));
const EXPORT_PNG: CommandInfo =
    row("Export PNG…", "Write the board with its overlays as an image", &[], Studio, Some(File));
const COMPARE_REPLAYS: CommandInfo =
    row("Compare replays…", "Two replays side by side, differing tiles outlined", &[], Studio, Some(File));
const UNDO: CommandInfo = row("Undo", "Take the last edit back", &[ctrl(Key::Z)], Editor, Some(Edit));
const REDO: CommandInfo =
    row("Redo", "Do the undone edit again", &[ctrl_shift(Key::Z), ctrl(Key::Y)], Editor, Some(Edit));
const WALL_TOOL: CommandInfo = row("Wall tool", "Place walls", &[key(Key::Num1)], Tools, None);
const SUPPORT_TOOL: CommandInfo = row("Support tool", "Place supports", &[key(Key::Num2)], Tools, None);
const TURRET_TOOL: CommandInfo = row("Turret tool", "Place turrets", &[key(Key::Num3)], Tools, None);
const UPGRADE_TOOL: CommandInfo = row("Upgrade tool", "Upgrade structures", &[key(Key::U)], Tools, None);
const REMOVE_TOOL: CommandInfo =
    row("Mark-for-removal tool", "Mark structures for removal (refunded next turn)", &[key(Key::R)], Tools, None);
const ERASE_TOOL: CommandInfo = row("Erase tool", "Erase structures from the layout", &[key(Key::X)], Editor, None);
const SWITCH_PLAYER: CommandInfo =
    row("Switch player", "Edit the other player's half", &[key(Key::Tab)], Editor, Some(Edit));
const MIRROR: CommandInfo =
    row("Mirror", "Mirror the active player's layout left/right", &[key(Key::M)], Editor, Some(Edit));
const RESET_BOARD: CommandInfo = row("Reset zoom", "Reset zoom and pan", &[key(Key::Num0)], Editor, Some(Edit));
const NEXT_TURN: CommandInfo =
    row("Next turn", "The next turn's first frame", &[ctrl(Key::ArrowRight)], Replay, Some(ReplayMenu));
const PREVIOUS_TURN: CommandInfo =
    row("Previous turn", "The previous turn's first frame", &[ctrl(Key::ArrowLeft)], Replay, Some(ReplayMenu));
const NEXT_FRAME: CommandInfo =
    row("Next frame", "One frame forward", &[key(Key::ArrowRight)], Replay, Some(ReplayMenu));
const PREVIOUS_FRAME: CommandInfo =
    row("Previous frame", "One frame back", &[key(Key::ArrowLeft)], Replay, Some(ReplayMenu));
const PLAY_PAUSE: CommandInfo =
    row("Play / pause", "Play the replay at the chosen speed", &[key(Key::Space)], Replay, Some(ReplayMenu));
const FIRST_TURN: CommandInfo =
    row("First turn", "Back to the first turn", &[key(Key::Home)], Replay, Some(ReplayMenu));
const LAST_FRAME: CommandInfo =
    row("Last frame", "The last frame (a live match: follow it again)", &[key(Key::End)], Replay, Some(ReplayMenu));
const FIT_BOARD: CommandInfo =
    row("Fit the board", "Zoom and pan back to the whole board", &[key(Key::Num0)], Replay, Some(ReplayMenu));
const TOGGLE_SIDE_PANELS: CommandInfo =
    row("Board only", "Hide or show the side panels", &[key(Key::B)], Replay, Some(ReplayMenu));
const COPY_FRAME_JSON: CommandInfo = row(
    "Copy frame as JSON",
    "Put the shown frame on the clipboard as the engine's JSON line",
    &[ctrl_shift(Key::C)],
    Replay,
    Some(ReplayMenu),
);
const TOGGLE_THEME: CommandInfo =
    row("Light / dark theme", "Switch between the light and the dark theme", &[], Studio, None);
const TOGGLE_HELP: CommandInfo = row("Keyboard shortcuts", "Show or hide this help", &[key(Key::F1)], Studio, None);
const SCOUT_TOOL: CommandInfo = row("Scout tool", "Deploy scouts on your edges", &[key(Key::Num4)], Play, None);
const DEMOLISHER_TOOL: CommandInfo = row("Demolisher tool", "Deploy demolishers", &[key(Key::Num5)], Play, None);
const INTERCEPTOR_TOOL: CommandInfo = row("Interceptor tool", "Deploy interceptors", &[key(Key::Num6)], Play, None);
const END_TURN: CommandInfo = row("End turn", "Send your planned turn to the match", &[key(Key::Enter)], Play, None);
const UNDO_TURN_EDIT: CommandInfo = row("Undo", "Take the last edit of your turn back", &[ctrl(Key::Z)], Play, None);
const RUN_STRESS_TEST: CommandInfo =
    row("Run stress test", "The Layout lab: every attack of its replays against this layout", &[], Editor, Some(Edit));

const PLAY_AGAINST_REPLAY: CommandInfo = row(
    "Play against this replay",
    "You take player 1's seat, from turn 0, against player 2 of this replay replaying its moves (a ghost), in the Play view",
    &[ctrl(Key::G)],
    Replay,
    Some(ReplayMenu),
);

const STOP_MATCH: CommandInfo = row(
    "Stop match",
    "End the Play view's match now; its replay keeps what was played",
    &[ctrl_shift(Key::X)],
    Play,
    None,
);

const OPEN_MATCH: CommandInfo = row(
    "Open match…",
    "Download a match of the game's website, by its id or its watch link, and open it in the Debugger",
    &[],
    Studio,
    Some(File),
);

impl UiCommand {
    /// Every command, in the order of the variants: menus and the help list them so. A new
    /// command goes at the end of the enum and of this list (a const check below holds the
    /// order; `info` does not compile without its row).
    pub const ALL: [UiCommand; 42] = [
        UiCommand::NewLayout,
        UiCommand::OpenLayout,
        UiCommand::Save,
        UiCommand::SaveAs,
        UiCommand::OpenReplay,
        UiCommand::ImportReplay,
        UiCommand::ExportPython,
        UiCommand::CopyPython,
        UiCommand::ExportPng,
        UiCommand::CompareReplays,
        UiCommand::Undo,
        UiCommand::Redo,
        UiCommand::WallTool,
        UiCommand::SupportTool,
        UiCommand::TurretTool,
        UiCommand::UpgradeTool,
        UiCommand::RemoveTool,
        UiCommand::EraseTool,
        UiCommand::SwitchPlayer,
        UiCommand::Mirror,
        UiCommand::ResetBoard,
        UiCommand::NextTurn,
        UiCommand::PreviousTurn,
        UiCommand::NextFrame,
        UiCommand::PreviousFrame,
        UiCommand::PlayPause,
        UiCommand::FirstTurn,
        UiCommand::LastFrame,
        UiCommand::FitBoard,
        UiCommand::ToggleSidePanels,
        UiCommand::CopyFrameJson,
        UiCommand::ToggleTheme,
        UiCommand::ToggleHelp,
        UiCommand::ScoutTool,
        UiCommand::DemolisherTool,
        UiCommand::InterceptorTool,
        UiCommand::EndTurn,
        UiCommand::UndoTurnEdit,
        UiCommand::RunStressTest,
        UiCommand::PlayAgainstReplay,
        UiCommand::StopMatch,
        UiCommand::OpenMatch,
    ];

    /// The command's row: label, tooltip, keys, scope and menu. A command without its row
    /// does not compile.
    pub fn info(self) -> &'static CommandInfo {
        match self {
            UiCommand::NewLayout => &NEW_LAYOUT,
            UiCommand::OpenLayout => &OPEN_LAYOUT,
            UiCommand::Save => &SAVE,
            UiCommand::SaveAs => &SAVE_AS,
            UiCommand::OpenReplay => &OPEN_REPLAY,
            UiCommand::ImportReplay => &IMPORT_REPLAY,
            UiCommand::ExportPython => &EXPORT_PYTHON,
            UiCommand::CopyPython => &COPY_PYTHON,
            UiCommand::ExportPng => &EXPORT_PNG,
            UiCommand::CompareReplays => &COMPARE_REPLAYS,
            UiCommand::Undo => &UNDO,
            UiCommand::Redo => &REDO,
            UiCommand::WallTool => &WALL_TOOL,
            UiCommand::SupportTool => &SUPPORT_TOOL,
            UiCommand::TurretTool => &TURRET_TOOL,
            UiCommand::UpgradeTool => &UPGRADE_TOOL,
            UiCommand::RemoveTool => &REMOVE_TOOL,
            UiCommand::EraseTool => &ERASE_TOOL,
            UiCommand::SwitchPlayer => &SWITCH_PLAYER,
            UiCommand::Mirror => &MIRROR,
            UiCommand::ResetBoard => &RESET_BOARD,
            UiCommand::NextTurn => &NEXT_TURN,
            UiCommand::PreviousTurn => &PREVIOUS_TURN,
            UiCommand::NextFrame => &NEXT_FRAME,
            UiCommand::PreviousFrame => &PREVIOUS_FRAME,
            UiCommand::PlayPause => &PLAY_PAUSE,
            UiCommand::FirstTurn => &FIRST_TURN,
            UiCommand::LastFrame => &LAST_FRAME,
            UiCommand::FitBoard => &FIT_BOARD,
            UiCommand::ToggleSidePanels => &TOGGLE_SIDE_PANELS,
            UiCommand::CopyFrameJson => &COPY_FRAME_JSON,
            UiCommand::ToggleTheme => &TOGGLE_THEME,
            UiCommand::ToggleHelp => &TOGGLE_HELP,
            UiCommand::ScoutTool => &SCOUT_TOOL,
            UiCommand::DemolisherTool => &DEMOLISHER_TOOL,
            UiCommand::InterceptorTool => &INTERCEPTOR_TOOL,
            UiCommand::EndTurn => &END_TURN,
            UiCommand::UndoTurnEdit => &UNDO_TURN_EDIT,
            UiCommand::RunStressTest => &RUN_STRESS_TEST,
            UiCommand::PlayAgainstReplay => &PLAY_AGAINST_REPLAY,
            UiCommand::StopMatch => &STOP_MATCH,
            UiCommand::OpenMatch => &OPEN_MATCH,
        }
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
        // The Editor's Ctrl+Z and Play's meet a studio-wide one in those two views only.
        let found = clashes(&rows);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found.iter().any(|f| f.contains("Undo and Another undo in the Editor view")), "{found:?}");
        assert!(found.iter().any(|f| f.ends_with("Another undo in the Play view")), "{found:?}");
    }

    #[test]
    fn every_command_is_listed_once_with_a_label() {
        for (i, c) in UiCommand::ALL.iter().enumerate() {
            assert!(!c.info().label.is_empty(), "{c:?}");
            assert!(!UiCommand::ALL[..i].contains(c), "{c:?} listed twice");
        }
    }
}
