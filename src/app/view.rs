//! What every view of the studio is to the app: something that draws itself below the top
//! bar, carries out the command-table commands meant for it, and keeps its background work
//! going. Views talk to the app and to each other only through the [`Command`]s they return.

use super::board::icons::IconTextures;
use super::command::{Command, UiCommand};
use super::model::{Theme, View};

/// What a view is given for a frame.
pub struct ViewContext<'a> {
    /// The view shown (the Debugger and Replays share one viewer).
    pub view: View,
    /// The window's context, for background threads to wake the UI (None in tests).
    pub window: Option<&'a egui::Context>,
    pub icons: Option<&'a IconTextures>,
    pub theme: Theme,
    /// The studio's ruleset: a preset slug or the path of a `game-configs.json`.
    pub ruleset: &'a str,
    /// The studio's status line.
    pub message: &'a mut String,
}

impl ViewContext<'_> {
    pub fn dark(&self) -> bool {
        self.theme.is_dark()
    }
}

pub trait StudioView {
    /// Draws the view in the space below the top bar; returns what the app is to do.
    fn show(&mut self, ui: &mut egui::Ui, cx: &mut ViewContext) -> Vec<Command>;

    /// Carries out a command of the table meant for this view (a key, a menu item).
    fn run(&mut self, command: UiCommand, cx: &mut ViewContext) -> Vec<Command>;

    /// Called every frame whether the view is shown or not (a live match is read even
    /// while another tab is shown).
    fn poll(&mut self, _cx: &mut ViewContext) {}
}
