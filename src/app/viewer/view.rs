//! The viewer as a view of the studio (the Debugger and Replays tabs), and what the other
//! views and the tests read of it.

use super::{Viewer, action_for};
use crate::app::command::{Command, StudioCommand, UiCommand};
use crate::app::compare_view::CompareView;
use crate::app::model::{BoardView, DebugOverlays, View};
use crate::app::view::{StudioView, ViewContext};
use std::path::Path;
use terminal_core::engine::geometry::Player;
use terminal_core::session::FrameView;
use terminal_core::session::summary::ReplaySummary;
use terminal_core::session::whatif::WhatIfTry;

impl StudioView for Viewer {
    fn show(&mut self, ui: &mut egui::Ui, cx: &mut ViewContext) -> Vec<Command> {
        // What the studio said here is the viewer's newest message.
        if !cx.message.is_empty() {
            self.message = std::mem::take(cx.message);
        }
        crate::app::status_line::panel(ui, "viewer-status", &self.message);
        self.show(ui, cx.view == View::Debugger, cx.icons, cx.dark())
    }

    fn run(&mut self, command: UiCommand, _cx: &mut ViewContext) -> Vec<Command> {
        self.run_command(command)
    }
}

impl Viewer {
    /// A command of the table (a key, a menu item) on this viewer.
    pub fn run_command(&mut self, command: UiCommand) -> Vec<Command> {
        if command == UiCommand::CopyFrameJson {
            return self.copy_frame_json();
        }
        if command == UiCommand::PlayAgainstReplay {
            return match self.path() {
                Some(p) => vec![Command::Studio(StudioCommand::PlayAgainstGhost(p.to_path_buf()))],
                None => {
                    self.message = "No replay to play against: open one first".into();
                    Vec::new()
                }
            };
        }
        match action_for(command) {
            Some(action) => self.apply(action),
            None => {
                self.message = format!("{} is not a replay command", command.info().label);
                Vec::new()
            }
        }
    }

    /// The frame shown, as the engine writes it in a replay (one JSON line).
    fn copy_frame_json(&mut self) -> Vec<Command> {
        let Some((turn, view)) = &self.shown.current else {
            self.message = "No frame to copy: open a replay first".into();
            return Vec::new();
        };
        let legacy = self.ruleset().is_some_and(|c| c.legacy);
        let json = terminal_core::replay::writer::frame_to_json(&view.frame, legacy, true);
        self.message = format!("Copied turn {turn}, frame {} as JSON ({} bytes)", view.frame_in_turn, json.len());
        vec![Command::Studio(StudioCommand::CopyText(json))]
    }

    /// The replay (or live match) shown.
    pub fn path(&self) -> Option<&Path> {
        self.shown.path.as_deref()
    }

    pub fn summary(&self) -> Option<&ReplaySummary> {
        self.shown.summary.as_ref()
    }

    /// The frame shown, with its turn.
    pub fn current(&self) -> Option<&(i32, FrameView)> {
        self.shown.current.as_ref()
    }

    /// A live match is shown (its frames still arrive), and whether the board follows it.
    pub fn live(&self) -> (bool, bool) {
        (self.shown.live, self.shown.follow_live)
    }

    /// Replaces the Debugger's status line (what the page says of a file it was given).
    pub fn set_message(&mut self, message: String) {
        self.message = message;
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    pub fn playing(&self) -> bool {
        self.playback.playing
    }

    pub fn speed(&self) -> f32 {
        self.prefs.speed
    }

    pub fn overlays(&self) -> DebugOverlays {
        self.prefs.overlays
    }

    pub fn prefs(&self) -> &super::ViewerPrefs {
        &self.prefs
    }

    pub fn board_view(&self) -> BoardView {
        self.board.view
    }

    /// The board as last drawn.
    pub fn geometry(&self) -> Option<crate::app::board::BoardGeometry> {
        self.board.geometry
    }

    /// The figures written on the board in the last frame, and where.
    pub fn board_labels(&self) -> &[(String, egui::Rect)] {
        &self.board.labels
    }

    pub fn tries(&self) -> &[WhatIfTry] {
        &self.whatif.tries
    }

    pub fn tries_pov(&self) -> Player {
        self.whatif.tries_pov
    }

    pub fn compare_pick(&self) -> [usize; 2] {
        self.whatif.compare_pick
    }

    /// Two tries side by side, when open.
    pub fn compare(&self) -> Option<&CompareView> {
        self.whatif.compare.as_ref()
    }

    /// The what-if being edited on the board.
    pub fn board_whatif(&self) -> Option<&super::whatif_board::BoardWhatIf> {
        self.whatif.board_whatif.as_ref()
    }

    /// Starts (or replaces) the what-if on the board.
    /// Why the last click on the what-if's board was refused, if the last click was.
    pub fn last_refusal(&self) -> Option<&super::whatif_board::Refusal> {
        self.whatif.last_refusal.as_ref()
    }

    /// Takes the refusal shown by a view that keeps its own.
    pub fn take_refusal(&mut self) -> Option<super::whatif_board::Refusal> {
        self.whatif.last_refusal.take()
    }

    pub fn set_board_whatif(&mut self, whatif: Option<super::whatif_board::BoardWhatIf>) {
        self.whatif.board_whatif = whatif;
    }

    /// What the empty board says (default: how to open a replay).
    pub fn set_empty_hint(&mut self, hint: impl Into<String>) {
        self.empty_hint = Some(hint.into());
    }

    /// The window is cleared to the panel colour, so the panels can skip their fill.
    pub fn set_panels_on_clear_color(&mut self, on: bool) {
        self.panels_on_clear_color = on;
    }
}
