//! Everything the UI can ask for, as plain data. Views return commands; the app applies them
//! after the frame's UI is built, so no panel mutates state another panel is still reading,
//! and no view needs to know another view to ask something of it.

pub mod help;
pub mod keys;
pub mod table;

pub use table::{Menu, Scope, UiCommand};

use super::model::{Edit, Theme, Tool, View};
use std::path::PathBuf;
use terminal_core::engine::geometry::Player;

#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A row of the command table: a key, a menu item, or a button that has one.
    Ui(UiCommand),
    /// The map editor's own commands.
    Editor(EditorCommand),
    /// Opening, saving, exporting and importing files.
    File(FileCommand),
    /// The studio itself: views, theme, ruleset, what the views hand each other.
    Studio(StudioCommand),
}

/// What the map editor does.
#[derive(Clone, Debug, PartialEq)]
pub enum EditorCommand {
    /// Start a stroke: the edits until `EndStroke` form one undo step.
    BeginStroke,
    Edit(Edit),
    EndStroke,
    /// Rename the layout (an edit: wrap in BeginStroke/EndStroke like the others).
    Rename(String),
    SetTool(Tool),
    SetPlayer(Player),
    /// Take a turn of the replay open in the import window.
    ImportReplayTurn(usize),
    CloseImport,
}

/// A file the studio is to read or write.
#[derive(Clone, Debug, PartialEq)]
pub enum FileCommand {
    /// Ask for a path (the native dialog, or the in-app window), then act on it.
    Ask(FileAction),
    /// A layout, or a replay (opened in the Debugger), by extension and content. A layout
    /// over unsaved changes asks first.
    Open(PathBuf),
    /// Open a layout over the editor's unsaved changes (the person said so).
    OpenDiscarding(PathBuf),
    SaveTo(PathBuf),
    ExportPython(PathBuf),
    ExportPng(PathBuf),
    /// Open a replay in the editor's import window.
    ImportReplay(PathBuf),
    /// Open a replay in the Debugger.
    OpenReplay(PathBuf),
    /// Two replays side by side (the Arena tab's comparison view).
    Compare(PathBuf, PathBuf),
    /// Ask for two replays, then compare them.
    CompareDialog,
    /// Offer a file of the page as a download (in a browser; on the desktop it is on disk).
    Download(PathBuf),
}

/// The studio's own state, and what one view hands another.
#[derive(Clone, Debug, PartialEq)]
pub enum StudioCommand {
    /// Switch the studio's view (top-bar tabs).
    SetView(View),
    SetTheme(Theme),
    /// A preset slug or the path of a `game-configs.json`.
    SetRuleset(String),
    /// Follow a replay file while a match writes it (the Play view).
    WatchReplay(PathBuf),
    /// Play a match in the Play view: you as player 1, against player 2 of this replay.
    PlayAgainstGhost(PathBuf),
    /// Open the editor's layout in the Debugger's what-if (a turn without a replay).
    SimulateLayout,
    /// Open a recorded attack in the Debugger: the replay at `turn`, and the attack run as
    /// the Layout lab ran it against a layout (a what-if try, watched on the board).
    OpenAttackWhatIf {
        replay: PathBuf,
        turn: i32,
        attacker: Player,
        attack_try: Box<terminal_core::layout::stress::AttackTry>,
    },
    /// Run an attack against a layout in the Debugger as a what-if try, and watch it (the
    /// Layout lab's searched attacks).
    RunAttackTry {
        attacker: Player,
        attack_try: Box<terminal_core::layout::stress::AttackTry>,
    },
    /// Open a replay in the Debugger at the turn frame of `turn`.
    OpenReplayAt {
        replay: PathBuf,
        turn: i32,
    },
    /// Give the Layout lab these replays as its attacks (instead of its folder's).
    LabAttacks {
        label: String,
        files: Vec<PathBuf>,
        /// The library index (database, folder) they are in: the lab keeps their attacks there.
        index: Option<(PathBuf, PathBuf)>,
        /// The ruleset most of them were played under, when known.
        ruleset: Option<String>,
    },
    /// Put text on the clipboard.
    CopyText(String),
    /// Remember a file in the recent-files menu.
    Remember(PathBuf),
    /// Give the Arena these replays: an algo meets, in each, the opponent of `me`.
    ArenaGhosts {
        label: String,
        files: Vec<PathBuf>,
        me: String,
        /// `me`'s seat (1 or 2) in each file, when known from the website's facts; else empty.
        my_seats: Vec<u8>,
    },
}

/// What a path is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileAction {
    OpenLayout,
    SaveLayoutAs,
    OpenReplay,
    ImportReplay,
    ExportPython,
    ExportPng,
    Ruleset,
}

impl FileAction {
    pub fn title(self) -> &'static str {
        match self {
            FileAction::OpenLayout => "Open a layout",
            FileAction::SaveLayoutAs => "Save the layout as",
            FileAction::OpenReplay => "Open a replay",
            FileAction::ImportReplay => "Import a turn of a replay",
            FileAction::ExportPython => "Export the layout as Python",
            FileAction::ExportPng => "Export the board as PNG",
            FileAction::Ruleset => "Use a game-configs.json",
        }
    }

    /// Whether the action writes the file (else it reads it).
    pub fn writes(self) -> bool {
        matches!(self, FileAction::SaveLayoutAs | FileAction::ExportPython | FileAction::ExportPng)
    }

    /// What the studio does with the path.
    pub fn command(self, path: PathBuf) -> Command {
        match self {
            FileAction::OpenLayout => Command::File(FileCommand::Open(path)),
            FileAction::SaveLayoutAs => Command::File(FileCommand::SaveTo(path)),
            FileAction::OpenReplay => Command::File(FileCommand::OpenReplay(path)),
            FileAction::ImportReplay => Command::File(FileCommand::ImportReplay(path)),
            FileAction::ExportPython => Command::File(FileCommand::ExportPython(path)),
            FileAction::ExportPng => Command::File(FileCommand::ExportPng(path)),
            FileAction::Ruleset => Command::Studio(StudioCommand::SetRuleset(path.display().to_string())),
        }
    }
}

impl From<EditorCommand> for Command {
    fn from(c: EditorCommand) -> Command {
        Command::Editor(c)
    }
}

impl From<FileCommand> for Command {
    fn from(c: FileCommand) -> Command {
        Command::File(c)
    }
}

impl From<StudioCommand> for Command {
    fn from(c: StudioCommand) -> Command {
        Command::Studio(c)
    }
}

impl From<UiCommand> for Command {
    fn from(c: UiCommand) -> Command {
        Command::Ui(c)
    }
}
