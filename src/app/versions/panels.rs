//! The Versions view's panels: the form and the run's progress on top, the saved versions
//! on the left, the report in the middle (head to head, the same opponents, the flipped
//! games).

use super::{VersionsAction, VersionsView};
use crate::app::path_field::{FileKind, PathField, Pick};
use egui::{RichText, Ui};
use terminal_core::versions::{Flip, GameComparison, RegressReport, Stage};

/// The form: the algo, its opponents, Compare / Stop, and the run's progress.
pub(super) fn top(v: &mut VersionsView, ui: &mut Ui, out: &mut Vec<VersionsAction>) {
    egui::Panel::top("versions-top").show(ui, |ui| {
        // A flipped game side by side needs the height: the form folds to its algo.
        if v.rt.side_by_side.is_some() {
            ui.label(format!("Algo folder: {}", v.algo.trim()));
            if !v.rt.message.is_empty() {
                ui.label(&v.rt.message);
            }
            return;
        }
        egui::Grid::new("versions-form").num_columns(2).show(ui, |ui| {
            let text = |ui: &mut Ui, name: &str, text: &mut String, hint: &str| {
                let label = ui.label(name);
                ui.add(egui::TextEdit::singleline(text).hint_text(hint).desired_width(f32::INFINITY))
                    .labelled_by(label.id);
                ui.end_row();
            };
            let label = ui.label("Algo folder");
            PathField::new(&mut v.algo, Pick::Folder)
                .hint("the folder of the algo you changed")
                .labelled_by(label.id, "The folder of the algo you changed")
                .show(ui);
            ui.end_row();
            let label = ui.label("Ghost replays");
            PathField::new(&mut v.ghosts, Pick::Folder)
                .lines()
                .buttons(&[(Pick::Folder, "Folder…"), (Pick::Files(FileKind::Replay), "Replays…")])
                .hint("replay folders or files, one a line")
                .labelled_by(label.id, "Ghost replays")
                .show(ui);
            ui.end_row();
            text(ui, "Ghost is the opponent of", &mut v.opponent_of, "a player name; empty: player 2");
            let label = ui.label("Versus algos");
            PathField::new(&mut v.vs, Pick::Folder)
                .lines()
                .buttons(&[(Pick::Folder, "Folder…")])
                .hint("algo folders, one a line")
                .labelled_by(label.id, "Versus algos")
                .show(ui);
            ui.end_row();
            text(ui, "Label", &mut v.label, "the label of the version saved, if the folder changed");
        });
        ui.horizontal_wrapped(|ui| {
            ruleset_choice(v, ui);
            let label = ui.label("Head-to-head games at most");
            ui.add(egui::DragValue::new(&mut v.games).range(0..=400).speed(2)).labelled_by(label.id);
            let idle = v.rt.job.is_none();
            let hint = "Save the folder if it changed, then compare it with its newest other version";
            if ui.add_enabled(idle, egui::Button::new("Compare with previous")).on_hover_text(hint).clicked() {
                out.push(VersionsAction::Compare);
            }
            if ui.add_enabled(!idle, egui::Button::new("Stop")).clicked() {
                out.push(VersionsAction::Stop);
            }
            if !idle {
                ui.spinner();
            }
        });
        progress(v, ui);
        if !v.rt.message.is_empty() {
            ui.label(&v.rt.message);
        }
    });
}

/// The head-to-head ruleset: the ghosts' own unless one is chosen, as the verdict holds for the
/// ruleset its games were played under.
fn ruleset_choice(v: &mut VersionsView, ui: &mut Ui) {
    const GHOSTS: &str = "the first ghost's";
    let shown = if v.ruleset.is_empty() { GHOSTS.to_string() } else { v.ruleset.clone() };
    egui::ComboBox::from_label("Head-to-head ruleset").selected_text(shown).show_ui(ui, |ui| {
        ui.selectable_value(&mut v.ruleset, String::new(), GHOSTS)
            .on_hover_text("The ruleset of the first ghost replay (the default preset without ghosts)");
        for (slug, description, _) in terminal_core::engine::presets::PRESETS {
            ui.selectable_value(&mut v.ruleset, slug.to_string(), *slug).on_hover_text(*description);
        }
    });
}

/// The running comparison: versions, stage, games, the live LLR and Elo.
fn progress(v: &VersionsView, ui: &mut Ui) {
    if v.rt.job.is_none() {
        return;
    }
    let live = &v.rt.live;
    if let (Some(new), Some(base)) = (&live.new, &live.base) {
        ui.label(format!("{} against {}", new.name(), base.name()));
    }
    if let Some((stage, to_play, cached)) = live.stage {
        let what = match stage {
            Stage::HeadToHead => "head to head",
            Stage::Opponents => "the same opponents",
        };
        let fraction = live.finished as f32 / to_play.max(1) as f32;
        let text = format!("{what}: {} of {to_play} games ({cached} from earlier runs)", live.finished);
        crate::app::job_progress::bar(ui, fraction, text);
    }
    if let Some(h) = &live.head_to_head {
        ui.label(head_to_head_line(h));
    }
    for w in &live.warnings {
        ui.colored_label(ui.visuals().warn_fg_color, w);
    }
}

fn head_to_head_line(h: &terminal_core::versions::HeadToHead) -> String {
    let elo =
        h.elo.map_or("no pair yet".to_string(), |e| format!("Elo {:+.0} ({:+.0} to {:+.0})", e.elo, e.lower, e.upper));
    format!(
        "Head to head: new won {} of {} · {elo} · LLR {:.2} (bounds {:.2}, {:.2}): {}",
        h.wins,
        h.wins + h.losses,
        h.llr,
        h.lower,
        h.upper,
        h.verdict()
    )
}

/// The algo's saved versions, newest first, each with its verdict against the one before.
pub(super) fn versions_list(v: &VersionsView, ui: &mut Ui) {
    egui::Panel::left("versions-list").resizable(true).default_size(260.0).show(ui, |ui| {
        ui.heading("Versions");
        if v.rt.versions.is_empty() {
            ui.weak("No saved version of this algo yet: Compare with previous saves the first.");
        }
        egui::ScrollArea::vertical().show(ui, |ui| {
            for version in v.rt.versions.iter().rev() {
                ui.separator();
                ui.strong(version.name());
                ui.weak(format!("{} · {}", version.saved_at_text(), version.short()));
                match v.verdicts.get(&version.hash) {
                    Some(verdict) => {
                        let elo = verdict
                            .elo
                            .map_or(String::new(), |(e, lo, hi)| format!(", Elo {e:+.0} ({lo:+.0} to {hi:+.0})"));
                        let (new, base) = verdict.same_opponents;
                        ui.label(format!("{} against {}{elo}", verdict.verdict, verdict.base));
                        ui.weak(format!("same opponents: won {new}, the base {base}"));
                    }
                    None => {
                        ui.weak("not compared yet");
                    }
                }
            }
        });
    });
}

/// The report of the last comparison.
pub(super) fn results(v: &VersionsView, ui: &mut Ui, out: &mut Vec<VersionsAction>) {
    let Some(report) = &v.rt.report else {
        ui.weak("Type the algo's folder and the ghost replays, then Compare with previous.");
        return;
    };
    ui.heading(format!("{} against {}", report.new.name(), report.base.name()));
    ui.label(format!("Head to head under {}", report.ruleset));
    ui.label(head_to_head_line(&report.head_to_head));
    let (base_wins, new_wins) = report.wins();
    ui.label(format!(
        "The same opponents: {} games each; the new version won {new_wins}, the base {base_wins}",
        report.games.len()
    ));
    noise(report, ui);
    let p = &report.played;
    ui.weak(format!(
        "Played: {} head to head, {} by the new version, {} by the base, {} again for the noise check; {} from earlier runs",
        p.head_to_head, p.new, p.base, p.repeat, p.cached
    ));
    ui.separator();
    let flipped = report.flipped();
    let regressions = flipped.iter().filter(|g| g.flipped == Some(Flip::Regression)).count();
    let noise = if report.looks_unseeded() { " (may be noise: see above)" } else { "" };
    ui.strong(format!("Flipped games: {regressions} regressions, {} fixes{noise}", flipped.len() - regressions));
    egui::ScrollArea::vertical().show(ui, |ui| {
        for (i, g) in flipped.iter().enumerate() {
            flipped_row(ui, i, g, out);
        }
    });
}

fn noise(report: &RegressReport, ui: &mut Ui) {
    match &report.noise {
        Some(n) if n.deterministic => {
            ui.label("Deterministic: the new version played one game twice and it was the same game");
        }
        Some(n) => {
            let at = n.parted_at.as_ref().map_or(String::new(), |d| format!(" (they parted at turn {})", d.turn));
            let text =
                format!("Not deterministic: the same game played twice differed{at}; flipped games may be noise");
            ui.colored_label(ui.visuals().warn_fg_color, RichText::new(text).strong());
        }
        None => {
            ui.weak("Not checked for noise");
        }
    }
    let zero = report.parted_at_turn_zero();
    if zero > 0 {
        let text = format!(
            "{zero} flipped games parted at turn 0, before either version saw anything the other did not: chance, not the change"
        );
        ui.colored_label(ui.visuals().warn_fg_color, RichText::new(text).strong());
    }
    if report.looks_unseeded() {
        ui.label(format!("To compare the change rather than chance, {}.", terminal_core::versions::HOW_TO_SEED));
    }
}

fn flipped_row(ui: &mut Ui, i: usize, g: &GameComparison, out: &mut Vec<VersionsAction>) {
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        let kind = if g.flipped == Some(Flip::Regression) { "regression" } else { "fix" };
        let hint = "Both versions' replays side by side at the turn they parted";
        if ui.button("Side by side").on_hover_text(hint).clicked() {
            out.push(VersionsAction::OpenFlipped(i));
        }
        ui.strong(kind);
        ui.label(format!("{} (seat {})", g.opponent, g.seat));
    });
    let result = |r: &Option<terminal_core::versions::GameResult>| {
        r.as_ref().map_or("-".to_string(), |r| format!("{} (HP {:.0} vs {:.0})", r.word(), r.hp, r.opponent_hp))
    };
    let swing = g.hp_swing.map_or(String::new(), |s| format!(", HP swing {s:+.0}"));
    ui.label(format!("base {}, new {}{swing}", result(&g.base), result(&g.new)));
    if let Some(d) = &g.divergence {
        ui.weak(format!("parted at turn {}, action frame {}", d.turn, d.action_frame));
    }
}
