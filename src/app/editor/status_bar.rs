//! The status bar: tile under the cursor, tool and player, short tallies, the last message.

use super::Editor;
use egui::Ui;
use terminal_core::engine::geometry::{Player, Tile};

pub fn show(ui: &mut Ui, editor: &Editor, hovered: Option<Tile>, message: &str) {
    ui.horizontal(|ui| {
        let tile = hovered.map(|t| format!("[{:>2},{:>2}]", t.x, t.y)).unwrap_or_else(|| "[ -, -]".into());
        ui.monospace(tile);
        ui.separator();
        ui.label(format!("{} · Player {}", editor.tool.label_for(editor.config.legacy), editor.player.number()));
        ui.separator();
        for p in Player::both() {
            let t = editor.layout.tally(p, &editor.config);
            ui.label(format!("P{}: {:.0} SP, {} structures", p.number(), t.sp_spent, t.count.iter().sum::<u32>()));
        }
        ui.separator();
        crate::app::status_line::show(ui, message);
    });
}
