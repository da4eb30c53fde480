//! What the page tells and takes from a script (a browser test, a tool around the page):
//! the studio's state after each frame as JSON, and the commands of the command table by
//! their labels — the same commands a menu gives.

use super::inbox;
use crate::app::StudioApp;
use crate::app::command::{Command, UiCommand};
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;

thread_local! {
    static STATUS: RefCell<String> = const { RefCell::new(String::new()) };
    /// A script has asked for the status: from then on it is kept after every frame (a page
    /// nobody scripts pays nothing).
    static ASKED: Cell<bool> = const { Cell::new(false) };
}

/// Keeps the studio's state as this frame left it, once a script has asked for it.
pub fn publish(app: &StudioApp) {
    if !ASKED.with(Cell::get) {
        return;
    }
    let viewer = app.viewer();
    let frame = viewer
        .current()
        .map(|(turn, view)| serde_json::json!({ "turn": turn, "index": view.index, "in_turn": view.frame_in_turn }));
    let replay = viewer
        .summary()
        .map(|s| serde_json::json!({ "path": s.path, "frames": s.frames, "turns": s.turns.len(), "names": s.names }));
    let lab = app.editor_view().lab().run().map(|run| {
        let t = &run.report.totals;
        serde_json::json!({
            "attacks": t.attacks, "attacks_breached": t.attacks_breached, "breaches": t.breaches,
            "hp_lost": t.hp_lost, "attackers_spawned": t.attackers_spawned,
            "attackers_destroyed": t.attackers_destroyed, "structures_lost": t.structures_lost,
            "sp_lost": t.sp_lost,
        })
    });
    let editor = app.editor();
    let status = serde_json::json!({
        "view": app.view().label(),
        "message": app.message(),
        "replay": replay,
        "frame": frame,
        "layout": { "name": editor.layout.name, "path": editor.path, "structures": editor.layout.len() },
        "frame_cpu_ms": app.last_frame_cpu().map(|s| f64::from(s) * 1000.0),
        "lab": lab,
        "lab_message": app.editor_view().lab().message,
        "lab_running": app.editor_view().lab().is_running(),
        "files": terminal_core::files::memory::list_all(),
    });
    STATUS.with(|s| *s.borrow_mut() = status.to_string());
}

/// The studio's state after the last frame, as JSON: the view, the status line, the replay
/// and frame shown, the layout, the Layout lab's last totals, the page's files. Empty until a
/// frame has been drawn since the first call.
#[wasm_bindgen(js_name = studioStatus)]
pub fn studio_status() -> String {
    if !ASKED.with(|a| a.replace(true)) {
        inbox::wake();
    }
    STATUS.with(|s| s.borrow().clone())
}

/// Runs the command of the table labelled `label` ("Next frame", "Run stress test"), as its
/// menu item does; false if no command has that label.
#[wasm_bindgen(js_name = studioRun)]
pub fn studio_run(label: &str) -> bool {
    let Some(command) = UiCommand::ALL.into_iter().find(|c| c.info().label == label) else { return false };
    inbox::push(Command::Ui(command));
    true
}
