//! What the page tells and takes from a script (a browser test, a tool around the page):
//! the studio's state after each frame as JSON, and the commands of the command table by
//! their labels — the same commands a menu gives. Part of the page's entry point, not of
//! the app: the page's app (`super::PageApp`) publishes after each frame the studio draws, so
//! the app never imports what reads it.

use crate::app::StudioApp;
use crate::app::browser::inbox;
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
pub fn publish(app: &StudioApp, ctx: &egui::Context) {
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
    let play = app.play();
    let running = play.running();
    let plan = running.and_then(|m| m.check()).and_then(|c| c.as_ref().ok());
    // The planned builds' tiles, in the seat's own view.
    let builds = play.planned_commands().map(|(b, _)| b.iter().map(|c| [c.tile.x, c.tile.y]).collect::<Vec<_>>());
    // Player 1's structures on the Play view's board, as the frame shown has them.
    let structures = play.viewer().current().map(|(_, v)| v.frame.units[0].iter().take(3).map(Vec::len).sum::<usize>());
    let play = serde_json::json!({
        "running": running.is_some(),
        "plan": plan.map(|c| serde_json::json!({ "sp_spent": c.sp_spent, "mp_spent": c.mp_spent, "rejected": c.rejected.len(), "builds": builds })),
        "p1_structures_shown": structures,
        "turn": running.map(|m| m.turn()),
        "planning": running.and_then(|m| m.planning()).map(|(turn, seat)| serde_json::json!({ "turn": turn, "seat": seat.number() })),
        "finished_replay": play.finished_replay(),
        // Where the Play view's board was last drawn, for a script to click a tile.
        "board": play.viewer().geometry().map(|g| serde_json::json!({
            "origin": [g.origin.x, g.origin.y], "tile": g.tile, "pixels_per_point": ctx.pixels_per_point(),
        })),
        "message": play.message(),
    });
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
        "play": play,
        "files": terminal_core::files::memory::list_all(),
    });
    STATUS.with(|s| *s.borrow_mut() = status.to_string());
}

/// The studio's state after the last frame, as JSON: the view, the status line, the replay
/// and frame shown, the layout, the Layout lab's last totals, the Play view's match, the
/// page's files. Empty until a frame has been drawn since the first call. `play.board`
/// places the Play view's board on the page (its top-left corner and tile side in points),
/// for a script to click a tile.
#[wasm_bindgen(js_name = studioStatus)]
pub fn studio_status() -> String {
    if !ASKED.with(|a| a.replace(true)) {
        inbox::wake();
    }
    STATUS.with(|s| s.borrow().clone())
}

/// A file of the page as text (a replay the studio wrote, a layout), or `None` if the page
/// has no such file or it is not text.
#[wasm_bindgen(js_name = studioFile)]
pub fn studio_file(path: &str) -> Option<String> {
    terminal_core::files::read_to_string(std::path::Path::new(path)).ok()
}

/// Runs the command of the table labelled `label` ("Next frame", "Run stress test"), as its
/// menu item does; false if no command has that label.
#[wasm_bindgen(js_name = studioRun)]
pub fn studio_run(label: &str) -> bool {
    let Some(command) = UiCommand::ALL.into_iter().find(|c| c.info().label == label) else { return false };
    inbox::push(Command::Ui(command));
    true
}
