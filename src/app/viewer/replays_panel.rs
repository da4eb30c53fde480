//! The Replays tab's side: plots of a metric over the turns, end-of-game statistics and the
//! algos' logs.

use super::{Viewer, ViewerAction};
use crate::app::model::PlotMetric;
use egui::Ui;
use terminal_core::engine::Player;
use terminal_core::session::summary::ReplaySummary;

/// Plots, end-of-game statistics and the algos' logs.
pub fn replays_side(ui: &mut Ui, v: &Viewer) -> Vec<ViewerAction> {
    let Some(s) = &v.shown.summary else {
        ui.weak("No replay open");
        return Vec::new();
    };
    let out = metric_plot(ui, v, s);
    end_of_game(ui, v, s);
    algo_logs(ui, v);
    out
}

/// A figure per player over the turns; a click jumps to that turn.
fn metric_plot(ui: &mut Ui, v: &Viewer, s: &ReplaySummary) -> Vec<ViewerAction> {
    let mut out = Vec::new();
    let mut metric = v.prefs.plot_metric;
    ui.horizontal(|ui| {
        for m in PlotMetric::ALL {
            ui.selectable_value(&mut metric, m, m.label());
        }
    });
    if metric != v.prefs.plot_metric {
        out.push(ViewerAction::SetPlotMetric(metric));
    }
    // With the result hidden, the plot stops at the turn shown: its end would tell the result.
    let upto = if v.winner_shown() { i32::MAX } else { v.turn().unwrap_or(0) };
    let series = |p: usize| -> Vec<[f64; 2]> {
        s.turns
            .iter()
            .filter(|t| t.turn <= upto)
            .map(|t| {
                let y = match metric {
                    PlotMetric::Hp => t.hp[p],
                    PlotMetric::Sp => t.sp[p],
                    PlotMetric::Mp => t.mp[p],
                    PlotMetric::StructureValue => t.structure_value[p],
                };
                [t.turn as f64, y as f64]
            })
            .collect()
    };
    let current = v.turn().unwrap_or(0) as f64;
    // The players' colours are the board's; their key sits above the plot, not over the data.
    let colours = crate::app::board::Palette::new(ui.visuals().dark_mode).player;
    ui.horizontal(|ui| {
        for (p, colour) in colours.iter().enumerate() {
            ui.colored_label(*colour, format!("P{} {}", p + 1, s.names[p]));
        }
    });
    let plot = egui_plot::Plot::new("viewer-plot").height(200.0).allow_scroll(false);
    let r = plot.show(ui, |pu| {
        for (p, colour) in colours.iter().enumerate() {
            pu.line(egui_plot::Line::new(format!("P{} {}", p + 1, s.names[p]), series(p)).color(*colour));
        }
        pu.vline(egui_plot::VLine::new("current turn", current));
        (pu.response().clicked(), pu.pointer_coordinate())
    });
    if let (true, Some(pt)) = r.inner {
        let turn = pt.x.round() as i32;
        if s.turns.iter().any(|t| t.turn == turn) {
            out.push(ViewerAction::Seek { turn, frame: 0 });
        }
    }
    ui.weak("Click the plot to jump to a turn");
    out
}

/// The end frame's figures (hidden until the last turn when the result is hidden).
fn end_of_game(ui: &mut Ui, v: &Viewer, s: &ReplaySummary) {
    egui::CollapsingHeader::new("End of game").default_open(true).show(ui, |ui| {
        if !v.winner_shown() {
            ui.weak("Hidden until the last turn is shown (Hide the winner until the end)");
            return;
        }
        let last = s.turns.last();
        // The end frame is the game's true end; a replay cut short ends at its last turn frame.
        let end = s.end.unwrap_or_else(|| {
            last.map_or_else(Default::default, |t| terminal_core::session::summary::EndState {
                hp: t.hp,
                sp: t.sp,
                structure_value: t.structure_value,
            })
        });
        egui::Grid::new("end-stats").striped(true).show(ui, |ui| {
            ui.label("");
            ui.strong(&s.names[0]);
            ui.strong(&s.names[1]);
            ui.end_row();
            ui.label("Winner");
            for p in 1..=2u8 {
                ui.label(match (v.winner_shown(), s.winner == Some(p)) {
                    (false, _) => "hidden",
                    (true, true) => "yes",
                    (true, false) => "",
                });
            }
            ui.end_row();
            let rows: [(&str, [f32; 2]); 3] =
                [("Final HP", end.hp), ("Structure value", end.structure_value), ("Unspent SP", end.sp)];
            for (name, vals) in rows {
                ui.label(name);
                ui.label(format!("{:.1}", vals[0]));
                ui.label(format!("{:.1}", vals[1]));
                ui.end_row();
            }
            let total: [i64; 2] = [0, 1].map(|p| s.turns.iter().map(|t| t.time_ms[p]).sum());
            ui.label("Compute time");
            ui.label(format!("{} ms", total[0]));
            ui.label(format!("{} ms", total[1]));
            ui.end_row();
            ui.label("Turns / frames");
            ui.label(format!("{} / {}", s.turns.len(), s.frames));
            ui.end_row();
        });
        ui.weak(format!("history: {:.1} MB", s.history_bytes as f64 / 1e6));
    });
}

/// The algos' stderr for the turn shown.
fn algo_logs(ui: &mut Ui, v: &Viewer) {
    egui::CollapsingHeader::new("Algo logs").default_open(true).show(ui, |ui| {
        let turn = v.turn().unwrap_or(0);
        let mut any = false;
        for p in Player::both() {
            let lines = v.shown.companions.log_lines(p, turn);
            if lines.is_empty() {
                continue;
            }
            any = true;
            ui.strong(format!("P{} stderr, turn {turn}", p.number()));
            egui::ScrollArea::vertical().id_salt(("algo-log", p.index())).max_height(160.0).show(ui, |ui| {
                for l in lines {
                    ui.monospace(l);
                }
            });
        }
        if !any {
            ui.weak("No companion logs for this turn");
        }
    });
}
