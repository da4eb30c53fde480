//! The map editor as a view of the studio: its panels around the board, its keys, and the
//! editor's own commands (edits, undo, tools, import). What it keeps between runs is
//! [`EditorPrefs`]; the layout itself is autosaved, never kept in the settings.

use super::Editor;
use super::canvas::{self, Stroke};
use super::lab_state::{LabAction, LabState};
use crate::app::board::BoardGeometry;
use crate::app::command::{Command, EditorCommand, FileAction, FileCommand, StudioCommand, UiCommand};
use crate::app::model::{BoardView, Edit, NO_UPGRADES, Overlays, Tool, View};
use crate::app::view::{StudioView, ViewContext};
use egui::Ui;
use serde::{Deserialize, Serialize};
use terminal_core::engine::geometry::Tile;
use terminal_core::layout::{EditOutcome, Kind, Layout};

/// What the editor keeps between runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EditorPrefs {
    pub overlays: Overlays,
    pub board_view: BoardView,
    /// The right panel shows the Layout lab instead of the tallies and the hovered tile.
    pub lab_shown: bool,
}

/// The editor view: the editor's model, what it keeps, and the pointer's state on its board.
#[derive(Default)]
pub struct EditorView {
    pub(in crate::app) editor: Editor,
    pub(in crate::app) prefs: EditorPrefs,
    /// The Layout lab: stress tests and suggestions for the layout.
    pub(in crate::app) lab: LabState,
    stroke: Option<Stroke>,
    hovered: Option<Tile>,
    geometry: Option<BoardGeometry>,
}

impl Serialize for EditorView {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.prefs.serialize(s)
    }
}

impl<'de> Deserialize<'de> for EditorView {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        EditorPrefs::deserialize(d).map(EditorView::from)
    }
}

/// The view as the studio reopens it from what it kept.
impl From<EditorPrefs> for EditorView {
    fn from(prefs: EditorPrefs) -> EditorView {
        EditorView { prefs, ..EditorView::default() }
    }
}

impl EditorView {
    /// The Layout lab: its runs, report and suggestion.
    pub fn lab(&self) -> &LabState {
        &self.lab
    }

    /// What the editor keeps between runs (overlays, board view).
    pub fn prefs(&self) -> &EditorPrefs {
        &self.prefs
    }

    /// The tile under the pointer on the editor's board.
    pub fn hovered(&self) -> Option<Tile> {
        self.hovered
    }

    /// Screen position of a tile's centre on the board as last drawn (for tests and tools).
    pub fn tile_screen_pos(&self, t: Tile) -> Option<egui::Pos2> {
        self.geometry.map(|g| g.tile_center(t))
    }

    /// Carries out one of the editor's commands; the message says what it did.
    pub fn apply(&mut self, command: EditorCommand, message: &mut String) {
        let e = &mut self.editor;
        match command {
            EditorCommand::BeginStroke => e.begin(),
            EditorCommand::Edit(Edit::Upgrade(_)) if e.config.legacy => *message = NO_UPGRADES.into(),
            EditorCommand::Edit(edit) => {
                let outcome = e.apply_edit(edit);
                *message = edit_message(e, outcome, edit);
            }
            EditorCommand::EndStroke => {
                if let Err(err) = e.end() {
                    *message = format!("Autosave failed: {err}");
                }
            }
            EditorCommand::Rename(name) => {
                if name != e.layout.name {
                    e.layout.name = name;
                    e.dirty = true;
                }
            }
            EditorCommand::SetTool(Tool::Upgrade) if e.config.legacy => *message = NO_UPGRADES.into(),
            EditorCommand::SetTool(t) => e.tool = t,
            EditorCommand::SetPlayer(p) => e.player = p,
            EditorCommand::CloseImport => e.import = None,
            // Importing may change the studio's ruleset: the app takes it (file_ops).
            EditorCommand::ImportReplayTurn(_) => {}
        }
    }

    /// Replaces the layout as one undoable edit (New, an import): Ctrl+Z brings the old one back.
    pub fn replace_layout(&mut self, layout: Layout) -> Result<(), terminal_core::layout::files::LayoutFileError> {
        let e = &mut self.editor;
        e.begin();
        e.layout = layout;
        e.dirty = true;
        e.generation += 1;
        e.refresh();
        e.end()
    }

    fn history_step(&mut self, redo: bool) -> String {
        let (result, done, none) = if redo {
            (self.editor.redo(), "Redone", "Nothing to redo")
        } else {
            (self.editor.undo(), "Undone", "Nothing to undo")
        };
        match result {
            Ok(true) => done.into(),
            Ok(false) => none.into(),
            Err(e) => format!("{done}, but the autosave failed: {e}"),
        }
    }

    /// The editor's side panels and the board.
    fn panels(&mut self, ui: &mut Ui, cx: &mut ViewContext, ruleset: &str) -> Vec<Command> {
        let mut commands = Vec::new();
        egui::Panel::bottom("status-bar").show(ui, |ui| {
            super::status_bar::show(ui, &self.editor, self.hovered, cx.message);
        });
        egui::Panel::left("editor-tools").resizable(false).default_size(190.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                commands.extend(super::panels::tools(ui, &self.editor, ruleset, &mut self.prefs.overlays));
            });
        });
        self.editor.update_threat(self.hovered);
        // Its width changes only when the player drags its edge: what is hovered never moves
        // the board. The lab's lists read better wider.
        let mut lab_actions = Vec::new();
        let panel = egui::Panel::right("editor-info").resizable(true).default_size(230.0).min_size(230.0);
        panel.max_size((ui.available_width() * 0.5).max(230.0)).show(ui, |ui| {
            // The threat table and the lab can push the panel past a small window's height.
            ui.horizontal(|ui| {
                ui.selectable_value(&mut self.prefs.lab_shown, false, "Tallies and tile");
                ui.selectable_value(&mut self.prefs.lab_shown, true, "Layout lab");
            });
            ui.separator();
            egui::ScrollArea::vertical().show(ui, |ui| {
                if self.prefs.lab_shown {
                    lab_actions = self.lab.show(ui, &self.editor, ruleset, self.hovered);
                } else {
                    super::panels::info(ui, &self.editor, self.hovered);
                }
            });
        });
        // The lab's heatmap replaces the coverage figures while it is shown: both would write
        // on the same tiles.
        let lab_on_board = self.prefs.lab_shown && self.lab.has_results();
        let freshness = self.lab.freshness(&self.editor, ruleset);
        let coverage = self.prefs.overlays.coverage;
        if lab_on_board && self.lab.heatmap && freshness == super::lab_state::Freshness::Fresh {
            self.prefs.overlays.coverage = false;
        }
        egui::CentralPanel::no_frame().show(ui, |ui| {
            let lab = &self.lab;
            let draw_lab = |frame: &crate::app::board::BoardFrame| {
                if lab_on_board {
                    lab.draw(frame, freshness);
                }
            };
            let out = canvas::show(ui, &self.editor, &mut self.stroke, &mut self.prefs, cx.icons, cx.dark(), &draw_lab);
            commands.extend(out.commands);
            self.hovered = out.hovered;
            self.geometry = Some(out.geometry);
        });
        self.prefs.overlays.coverage = coverage;
        for action in lab_actions {
            commands.extend(self.lab.apply(action, &self.editor, ruleset, cx.window));
        }
        commands
    }
}

impl StudioView for EditorView {
    fn show(&mut self, ui: &mut Ui, cx: &mut ViewContext) -> Vec<Command> {
        self.lab.poll();
        let ruleset = cx.ruleset.to_string();
        let mut commands = Vec::new();
        if let Some(action) = self.lab.follow(&self.editor, &ruleset) {
            commands.extend(self.lab.apply(action, &self.editor, &ruleset, cx.window));
        }
        commands.extend(self.panels(ui, cx, &ruleset));
        commands.extend(super::panels::import_window(ui.ctx(), &mut self.editor));
        commands
    }

    fn run(&mut self, command: UiCommand, cx: &mut ViewContext) -> Vec<Command> {
        let tool = |t| vec![Command::Editor(EditorCommand::SetTool(t))];
        match command {
            UiCommand::Undo => *cx.message = self.history_step(false),
            UiCommand::Redo => *cx.message = self.history_step(true),
            UiCommand::WallTool => return tool(Tool::Place(Kind::Wall)),
            UiCommand::SupportTool => return tool(Tool::Place(Kind::Support)),
            UiCommand::TurretTool => return tool(Tool::Place(Kind::Turret)),
            UiCommand::UpgradeTool => return tool(Tool::Upgrade),
            UiCommand::RemoveTool => return tool(Tool::Remove),
            UiCommand::EraseTool => return tool(Tool::Erase),
            UiCommand::SwitchPlayer => self.editor.player = self.editor.player.opponent(),
            UiCommand::ResetBoard => self.prefs.board_view = BoardView::default(),
            // A mirror is one undo step of its own.
            UiCommand::Mirror => {
                return [EditorCommand::BeginStroke, EditorCommand::Edit(Edit::MirrorX), EditorCommand::EndStroke]
                    .map(Command::Editor)
                    .to_vec();
            }
            UiCommand::NewLayout => {
                // An empty layout holds no work: unsaved only if the one before it was (Undo
                // brings that one back).
                let unsaved_before = self.editor.dirty;
                *cx.message = match self.replace_layout(Layout::default()) {
                    Ok(()) => "New layout (Undo brings the previous one back)".into(),
                    Err(e) => format!("New layout; the autosave failed: {e}"),
                };
                self.editor.dirty = unsaved_before;
                self.editor.path = None;
            }
            UiCommand::Save => {
                return vec![match self.editor.path.clone() {
                    Some(p) => Command::File(FileCommand::SaveTo(p)),
                    None => Command::File(FileCommand::Ask(FileAction::SaveLayoutAs)),
                }];
            }
            UiCommand::SaveAs => return vec![Command::File(FileCommand::Ask(FileAction::SaveLayoutAs))],
            // From another view's menu: the editor comes forward, where the run shows.
            UiCommand::RunStressTest => {
                self.prefs.lab_shown = true;
                let mut out = vec![Command::Studio(StudioCommand::SetView(View::Editor))];
                out.extend(self.lab.apply(LabAction::Run, &self.editor, cx.ruleset, cx.window));
                return out;
            }
            other => *cx.message = format!("{} is not an editor command", other.info().label),
        }
        Vec::new()
    }
}

/// What an edit did, for the status line: an older message (say "Redone") would be stale.
fn edit_message(e: &Editor, outcome: EditOutcome, edit: Edit) -> String {
    let p = e.player.number();
    match (outcome, edit) {
        (EditOutcome::NotYours, Edit::Place(..) | Edit::Upgrade(_) | Edit::ToggleRemove(_) | Edit::Erase(_)) => {
            format!("That tile is not player {p}'s (Tab switches player)")
        }
        (EditOutcome::Unchanged, _) => "No change".into(),
        (_, Edit::MirrorX) => format!("Mirrored player {p}'s structures left/right"),
        (_, Edit::CopyToOpponent) => format!("Copied player {p}'s structures to the opponent"),
        (_, Edit::Clear) => format!("Cleared player {p}'s structures"),
        (_, Edit::Place(t, k)) => format!("{} at {},{}", k.label_for(e.config.legacy), t.x, t.y),
        (_, Edit::Upgrade(t)) => format!("Upgraded {},{}", t.x, t.y),
        (_, Edit::ToggleRemove(t) | Edit::SetRemove(t, _)) => format!("Removal mark on {},{} changed", t.x, t.y),
        (_, Edit::Erase(t)) => format!("Erased {},{}", t.x, t.y),
    }
}
