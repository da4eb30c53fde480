//! What a view that needs the desktop shows where it cannot run (the browser): one line
//! saying why, and where to get the desktop studio.

use super::command::{Command, UiCommand};
use super::model::View;
use super::view::{StudioView, ViewContext};

/// Where the desktop studio is described and built.
pub const DESKTOP_STUDIO: &str = "the desktop studio (README: \"Set up\")";

/// Why `view` needs the desktop, in one line.
pub fn reason(view: View) -> &'static str {
    match view {
        View::Arena => "The arena runs algos: programs, which a web page cannot start.",
        View::Library => "The replay library indexes folders of replays on disk, which a web page cannot read.",
        View::Versions => "Versions save copies of your algo and play them: files and programs a web page has not.",
        _ => "This view needs the desktop.",
    }
}

/// The view in place of one that needs the desktop.
#[derive(Debug, Default)]
pub struct DesktopOnly;

impl StudioView for DesktopOnly {
    fn show(&mut self, ui: &mut egui::Ui, cx: &mut ViewContext) -> Vec<Command> {
        egui::CentralPanel::default().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(ui.available_height() / 3.0);
                ui.heading(cx.view.label());
                ui.label(format!("{} Use {DESKTOP_STUDIO} for it.", reason(cx.view)));
            });
        });
        Vec::new()
    }

    fn run(&mut self, command: UiCommand, cx: &mut ViewContext) -> Vec<Command> {
        *cx.message = format!("{}: {}", command.info().label, reason(cx.view));
        Vec::new()
    }
}
