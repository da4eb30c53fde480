//! The arena's results as tables and a plot: a row per algo, a row per pairing, the win
//! rates with their Wilson intervals.

use super::form::GhostRun;
use egui::{Color32, Ui};
use terminal_core::arena::ghosts::{GhostComparison, compare, totals};
use terminal_core::arena::{MatchRecord, Summary};

/// The results table, the pairings and the win-rate plot; against ghosts, the games compared
/// with the recorded player's first, and only the algo's row (a ghost's own W/L is its
/// replayed player's, which says nothing of the algo).
pub(super) fn summary(ui: &mut Ui, s: &Summary, final_summary: bool, ghosts: &GhostRun, records: &[MatchRecord]) {
    ui.add_space(4.0);
    ui.label(egui::RichText::new(if final_summary { "Summary" } else { "Live results" }).strong());
    if !ghosts.games.is_empty() {
        ghost_comparison(ui, ghosts, records);
        let ghost_labels: std::collections::HashSet<&str> = ghosts.games.iter().map(|g| g.label.as_str()).collect();
        let mut algo_only = s.clone();
        algo_only.algos.retain(|a| !ghost_labels.contains(a.label.as_str()));
        algo_only.pairs.clear();
        egui::ScrollArea::horizontal().id_salt("arena-results-scroll").show(ui, |ui| results_table(ui, &algo_only));
        return;
    }
    // Wide tables scroll sideways rather than being cut at the panel's edge.
    egui::ScrollArea::horizontal().id_salt("arena-results-scroll").show(ui, |ui| results_table(ui, s));
    if s.pairs.len() > 1 {
        egui::CollapsingHeader::new(format!("Pairings ({})", s.pairs.len())).id_salt("arena-pairings").show(ui, |ui| {
            egui::ScrollArea::horizontal().id_salt("arena-pairings-scroll").show(ui, |ui| pairings_table(ui, s));
        });
    }
    ui.add_space(4.0);
    win_rate_plot(ui, s);
}

/// Against ghosts: how the algo did in the games the recorded player lost and won, then
/// each game as recorded and as played now.
fn ghost_comparison(ui: &mut Ui, ghosts: &GhostRun, records: &[MatchRecord]) {
    let rows = compare(&ghosts.games, records);
    let t = totals(&rows);
    let me = if ghosts.me.is_empty() { "the recorded player" } else { ghosts.me.as_str() };
    ui.label(format!(
        "My algo won {} of the {} games {me} lost, and lost {} of the {} {me} won ({} of {} games played).",
        t.won_where_recorded_lost, t.recorded_losses, t.lost_where_recorded_won, t.recorded_wins, t.played, t.games
    ));
    ui.label(format!(
        "Alive at the end in {} (recorded: {}); breaches conceded {} (recorded: {}).",
        t.survived, t.recorded_survived, t.breaches_conceded, t.recorded_breaches_conceded
    ));
    if t.decided_by_crash > 0 {
        ui.weak(format!(
            "{} games decided by a crash are left out ({} of them the ghost repeating its recorded crash).",
            t.decided_by_crash, t.ghost_crashed
        ));
    }
    egui::CollapsingHeader::new(format!("The {} games, as recorded and now", rows.len()))
        .id_salt("arena-ghost-games")
        .show(ui, |ui| ghost_games_table(ui, &rows, me));
}

fn ghost_games_table(ui: &mut Ui, rows: &[GhostComparison], me: &str) {
    let outcome = |won: bool, hp: f32, breaches: u32| {
        format!("{} · {hp:.0} HP · {breaches} breaches conceded", if won { "won" } else { "lost" })
    };
    egui::ScrollArea::horizontal().id_salt("arena-ghost-games-scroll").show(ui, |ui| {
        egui::Grid::new("arena-ghost-games-grid").striped(true).num_columns(3).show(ui, |ui| {
            for h in ["Replay", &format!("{me} (recorded)"), "My algo (now)"] {
                ui.label(egui::RichText::new(h).strong());
            }
            ui.end_row();
            for r in rows {
                let g = &r.game;
                let name = g.replay.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                ui.label(name).on_hover_text(g.replay.display().to_string());
                ui.label(outcome(g.recorded.won, g.recorded.hp, g.recorded.breaches_conceded));
                match &r.now {
                    Some(now) => {
                        let flipped = now.won && !g.recorded.won;
                        let text = outcome(now.won, now.hp, now.breaches_conceded);
                        if flipped {
                            ui.colored_label(Color32::from_rgb(90, 190, 110), text);
                        } else {
                            ui.label(text);
                        }
                    }
                    None => {
                        ui.weak("not played yet (or the match failed)");
                    }
                }
                ui.end_row();
            }
        });
    });
}

fn results_table(ui: &mut Ui, s: &Summary) {
    egui::Grid::new("arena-results").striped(true).num_columns(11).show(ui, |ui| {
        for h in [
            "Algo",
            "Games",
            "W/L",
            "Win rate (95 %)",
            "Crashes",
            "Timeouts",
            "Penalties",
            "HP margin",
            "Turns",
            "ms/turn",
            "Rating",
        ] {
            ui.label(egui::RichText::new(h).strong());
        }
        ui.end_row();
        for a in &s.algos {
            ui.label(&a.label);
            ui.label(a.games.to_string());
            ui.label(format!("{}/{}", a.wins, a.losses));
            ui.label(rate_with_interval(a.figures.win_rate, a.figures.wilson_lo, a.figures.wilson_hi));
            // `crashes` already counts the matches it failed to load.
            match a.failed_to_load {
                0 => ui.label(a.crashes.to_string()),
                n => ui.label(format!("{} ({n} FTL)", a.crashes)).on_hover_text("FTL: failed to load"),
            };
            match a.timeout_deaths {
                0 => ui.label(a.hard_timeouts.to_string()),
                n => ui.label(format!("{} ({n} deaths)", a.hard_timeouts)),
            }
            .on_hover_text("Turns skipped at the hard limit; deaths: time penalties reached the starting HP");
            ui.label(format!("{} ({} HP)", a.time_penalty_turns, a.time_penalty_hp));
            ui.label(format!("{:+.1}", a.figures.mean_hp_margin));
            ui.label(format!("{:.1}", a.figures.mean_turns));
            ui.label(format!("{:.0}", a.figures.mean_compute_ms)).on_hover_text("Mean compute time per turn");
            match s.rating_of(&a.label) {
                Some(r) => ui.label(format!("{:.0} ± {:.0}", r.elo, r.sd)),
                None => ui.label("–"),
            };
            ui.end_row();
        }
    });
}

/// "62 % [41–79]": a win rate with its 95 % interval, in percent.
fn rate_with_interval(rate: f64, lo: f64, hi: f64) -> String {
    format!("{:.0} % [{:.0}–{:.0}]", rate * 100.0, lo * 100.0, hi * 100.0)
}

/// One row per pairing, from the first algo's side: its wins by seat, so a seat bias shows.
fn pairings_table(ui: &mut Ui, s: &Summary) {
    egui::Grid::new("arena-pairings-grid").striped(true).num_columns(8).show(ui, |ui| {
        for h in ["Pairing", "Games", "W/L", "A win rate (95 %)", "A as P1", "A as P2", "HP margin", "ms/turn A : B"] {
            ui.label(egui::RichText::new(h).strong());
        }
        ui.end_row();
        for p in &s.pairs {
            ui.label(format!("{} vs {}", p.a, p.b));
            ui.label(p.games.to_string());
            ui.label(format!("{}/{}", p.a_wins, p.b_wins));
            ui.label(rate_with_interval(p.figures.win_rate, p.figures.wilson_lo, p.figures.wilson_hi));
            ui.label(format!("{}/{}", p.a_as_p1.wins, p.a_as_p1.games));
            ui.label(format!("{}/{}", p.a_as_p2.wins, p.a_as_p2.games));
            ui.label(format!("{:+.1}", p.figures.mean_hp_margin));
            ui.label(format!("{:.0} : {:.0}", p.figures.mean_compute_ms, p.b_mean_compute_ms));
            ui.end_row();
        }
    });
}

fn win_rate_plot(ui: &mut Ui, s: &Summary) {
    use egui_plot::{Bar, BarChart, Line, Plot, PlotPoints};
    let bars: Vec<Bar> = s
        .algos
        .iter()
        .enumerate()
        .map(|(i, a)| Bar::new(i as f64, a.figures.win_rate * 100.0).width(0.5).name(&a.label))
        .collect();
    let labels: Vec<String> = s.algos.iter().map(|a| a.label.clone()).collect();
    Plot::new("arena-win-rate")
        .height(180.0)
        .include_y(0.0)
        .include_y(100.0)
        .include_x(-0.6)
        .include_x(s.algos.len() as f64 - 0.4)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .y_axis_label("win rate %")
        .x_axis_formatter(move |m, _| {
            let i = m.value.round();
            if (m.value - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("win rate", bars).color(Color32::from_rgb(90, 140, 220)));
            for (i, a) in s.algos.iter().enumerate() {
                let (lo, hi) = (a.figures.wilson_lo, a.figures.wilson_hi);
                let x = i as f64;
                let whisker = |pts: Vec<[f64; 2]>| {
                    Line::new("95 % interval", PlotPoints::from(pts)).color(Color32::from_rgb(240, 170, 40)).width(2.0)
                };
                plot.line(whisker(vec![[x, lo * 100.0], [x, hi * 100.0]]));
                plot.line(whisker(vec![[x - 0.1, lo * 100.0], [x + 0.1, lo * 100.0]]));
                plot.line(whisker(vec![[x - 0.1, hi * 100.0], [x + 0.1, hi * 100.0]]));
            }
        });
}
