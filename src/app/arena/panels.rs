//! The Arena tab drawn: the setup panel (algos, match and format fields, output folder,
//! controls) and the results side (live summary, progress, finished matches).

use super::results::summary;
use super::{ArenaAction, ArenaTab, arena_data_dir};
use crate::app::board::icons::IconTextures;
use crate::app::command::Command;
use crate::app::path_field::{PathField, Pick};
use egui::Ui;
use std::path::PathBuf;
use std::time::Duration;
use terminal_core::arena::algo_label;
use terminal_core::engine::presets::PRESETS;

impl ArenaTab {
    /// The tab, one frame: the setup panel on the left and the results, or the comparison alone.
    pub fn show(&mut self, ui: &mut Ui, icons: Option<&IconTextures>, dark: bool) -> Vec<Command> {
        self.poll();
        if self.is_running() {
            ui.ctx().request_repaint_after(Duration::from_millis(100));
        }
        let mut actions = Vec::new();
        // Two boards side by side need the width: the setup comes back with Close comparison.
        if self.compare.is_none() {
            egui::Panel::left("arena-setup").resizable(false).default_size(300.0).show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| actions.extend(self.setup(ui)));
            });
        }
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some(c) = self.compare.as_mut() {
                if c.show(ui, icons, dark) {
                    actions.push(ArenaAction::CloseCompare);
                }
            } else {
                actions.extend(self.results(ui));
            }
        });
        let mut commands = Vec::new();
        for a in actions {
            commands.extend(self.apply(a));
        }
        commands
    }

    fn setup(&mut self, ui: &mut Ui) -> Vec<ArenaAction> {
        let running = self.is_running();
        ui.heading("Arena");
        let mut out = self.algo_list(ui, running);
        ui.add_enabled_ui(!running, |ui| {
            out.extend(self.add_algo(ui));
            ui.separator();
            self.match_fields(ui);
            self.format_fields(ui);
            self.output_fields(ui);
        });
        ui.separator();
        out.extend(self.controls(ui, running));
        out
    }

    fn algo_list(&mut self, ui: &mut Ui, running: bool) -> Vec<ArenaAction> {
        let mut out = Vec::new();
        ui.label(egui::RichText::new("Algos").strong());
        if self.form.algos.is_empty() {
            ui.weak(match self.form.vs_ghosts {
                true => "No algo yet: add the one that meets the ghosts",
                false => "No algos yet: add two or more folders",
            });
        }
        for (i, a) in self.form.algos.iter().enumerate() {
            ui.horizontal(|ui| {
                if ui.add_enabled(!running, egui::Button::new("x")).on_hover_text("Remove").clicked() {
                    out.push(ArenaAction::RemoveAlgo(i));
                }
                ui.label(algo_label(a)).on_hover_text(a.display().to_string());
            });
        }
        out
    }

    fn add_algo(&mut self, ui: &mut Ui) -> Vec<ArenaAction> {
        let mut out = Vec::new();
        let label = ui.label("Algo path");
        ui.horizontal(|ui| {
            let field = PathField::new(&mut self.path_text, Pick::Folder)
                .hint("type, browse or drop a folder")
                .width(200.0)
                .labelled_by(label.id, "The algo folder to add")
                .show(ui);
            // A folder browsed to or dropped is the one to add: no second click.
            if field.filled {
                out.push(ArenaAction::AddAlgo(PathBuf::from(self.path_text.trim())));
            }
            let field = field.response;
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if enter {
                // Enter adds the path and keeps the field: the next path can be typed at once.
                field.request_focus();
            }
            if ui.button("Add").clicked() || enter {
                out.push(ArenaAction::AddAlgo(PathBuf::from(self.path_text.trim())));
            }
        });
        out
    }

    /// Games, jobs and the time limits.
    fn match_fields(&mut self, ui: &mut Ui) {
        egui::Grid::new("arena-form").num_columns(2).show(ui, |ui| {
            // Against ghosts every game is played once.
            if !self.form.vs_ghosts {
                let l = ui.label("Games per pairing");
                ui.add(egui::TextEdit::singleline(&mut self.form.games).desired_width(60.0)).labelled_by(l.id);
                ui.end_row();
            }
            let l = ui.label("Jobs");
            ui.add(egui::TextEdit::singleline(&mut self.form.jobs).desired_width(60.0))
                .labelled_by(l.id)
                .on_hover_text("Matches at once (0 = all cores)");
            ui.end_row();
            let timing = self.ruleset_timing();
            limit_field(
                ui,
                "Soft limit (ms)",
                &mut self.form.soft_ms,
                timing.soft_ms,
                "Per turn: beyond it an algo loses health (the ruleset's penalty). Empty: the ruleset's",
            );
            limit_field(
                ui,
                "Hard limit (ms)",
                &mut self.form.max_ms,
                timing.max_ms,
                "Per turn: beyond it the algo is timed out and loses. Empty: the ruleset's",
            );
        });
    }

    /// Round robin or gauntlet, SPRT, seed.
    fn format_fields(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let form = &mut self.form;
            if ui
                .radio(!form.vs_ghosts && !form.gauntlet, "Round robin")
                .on_hover_text("Every algo against every other")
                .clicked()
            {
                (form.vs_ghosts, form.gauntlet) = (false, false);
            }
            if ui
                .radio(!form.vs_ghosts && form.gauntlet, "Gauntlet")
                .on_hover_text("Every algo against the baseline only")
                .clicked()
            {
                (form.vs_ghosts, form.gauntlet) = (false, true);
            }
            if let Some(g) = &form.ghosts {
                let hint = format!("The one algo in {}'s seat against each game's opponent, as recorded", g.me);
                if ui.radio(form.vs_ghosts, "Against ghosts").on_hover_text(hint).clicked() {
                    form.vs_ghosts = true;
                }
            }
        });
        if let Some(g) = self.form.ghosts.as_ref().filter(|_| self.form.vs_ghosts) {
            ui.label(format!("Ghosts: the opponents of {} in {}", g.me, g.label));
        }
        if self.form.gauntlet && !self.form.vs_ghosts {
            let selected = self.form.algos.get(self.form.baseline).map(|p| algo_label(p)).unwrap_or_else(|| "–".into());
            egui::ComboBox::from_label("Baseline").selected_text(selected).show_ui(ui, |ui| {
                for (i, a) in self.form.algos.iter().enumerate() {
                    ui.selectable_value(&mut self.form.baseline, i, algo_label(a));
                }
            });
        }
        ui.checkbox(&mut self.form.confine, "Confine algos (recommended)").on_hover_text("Limits and file, network and process rules on the algos (docs/runner.md, Confinement). Off: they run as you do — only for an algo you trust that needs more.");
        // The SPRT compares two algos: against ghosts there is one.
        if !self.form.vs_ghosts {
            ui.checkbox(&mut self.form.sprt, "SPRT early stop")
                .on_hover_text("Two algos: stop when one is better with the confidence asked");
        }
        if self.form.sprt && !self.form.vs_ghosts {
            let l = ui.label("SPRT Elo0,Elo1,α,β");
            ui.add(egui::TextEdit::singleline(&mut self.form.sprt_params).desired_width(160.0))
                .labelled_by(l.id)
                .on_hover_text("H0: the first algo (the non-baseline) is Elo0 better; H1: Elo1 better");
        }
        egui::Grid::new("arena-seed").num_columns(2).show(ui, |ui| {
            let l = ui.label("Seed");
            ui.add(egui::TextEdit::singleline(&mut self.form.seed).desired_width(60.0))
                .labelled_by(l.id)
                .on_hover_text("Games 2k and 2k+1 get seed + k; keep it to resume");
            ui.end_row();
        });
    }

    /// Ruleset, output folder, resume.
    fn output_fields(&mut self, ui: &mut Ui) {
        if self.form.vs_ghosts {
            ui.weak("Each game is played once, under its replay's own ruleset");
        } else {
            egui::ComboBox::from_label("Ruleset").selected_text(self.form.ruleset.clone()).show_ui(ui, |ui| {
                for (slug, description, _) in PRESETS {
                    if ui.selectable_label(self.form.ruleset == *slug, *slug).on_hover_text(*description).clicked() {
                        self.form.ruleset = slug.to_string();
                    }
                }
            });
        }
        let l = ui.label("Output folder");
        ui.horizontal(|ui| {
            PathField::new(&mut self.form.out, Pick::Folder)
                .hint("automatic (data dir)")
                .width(200.0)
                .labelled_by(l.id, "The arena's output folder")
                .show(ui)
                .response
                .on_hover_text(format!("Empty: a new folder under {}", arena_data_dir().display()));
        });
        ui.checkbox(&mut self.resume, "Resume the output folder")
            .on_hover_text("Continue the arena in the output folder: its recorded matches are not played again");
    }

    /// Start, pause, cancel, and what the run says.
    fn controls(&mut self, ui: &mut Ui, running: bool) -> Vec<ArenaAction> {
        let mut out = Vec::new();
        ui.horizontal(|ui| {
            // Against ghosts one algo plays; otherwise algos play each other.
            let (ready, why) = match self.form.vs_ghosts {
                true => (self.form.algos.len() == 1, "Against ghosts: exactly one algo"),
                false => (self.form.algos.len() >= 2, "Add two algos or more"),
            };
            let start = ui.add_enabled(!running && ready, egui::Button::new("Start")).on_disabled_hover_text(why);
            if start.clicked() {
                out.push(ArenaAction::Start);
            }
            let paused = self.run.as_ref().is_some_and(|r| r.paused);
            let label = if paused { "Resume" } else { "Pause" };
            if ui.add_enabled(running, egui::Button::new(label)).clicked() {
                out.push(if paused { ArenaAction::Resume } else { ArenaAction::Pause });
            }
            if ui.add_enabled(running, egui::Button::new("Cancel")).clicked() {
                out.push(ArenaAction::Cancel);
            }
        });
        if !self.message.is_empty() {
            ui.label(&self.message);
        }
        for l in self.log.iter().rev().take(6) {
            ui.weak(l);
        }
        out
    }

    fn results(&mut self, ui: &mut Ui) -> Vec<ArenaAction> {
        let mut out = self.progress(ui);
        if let Some(s) = &self.summary {
            // The tables and the plot scroll within most of the height, leaving the finished
            // matches in view however many algos there are.
            let room = (ui.available_height() * 0.7).max(200.0);
            egui::ScrollArea::vertical()
                .id_salt("arena-summary")
                .max_height(room)
                .show(ui, |ui| summary(ui, s, self.outcome.is_some(), &self.ghosts, &self.records));
        }
        out.extend(self.finished_matches(ui));
        out
    }

    /// The progress bar and the matches playing now.
    fn progress(&self, ui: &mut Ui) -> Vec<ArenaAction> {
        let mut out = Vec::new();
        if let Some(run) = &self.run {
            let frac = if run.total > 0 { run.done as f32 / run.total as f32 } else { 0.0 };
            let eta = match (run.handle.is_some(), run.eta) {
                (false, _) => "done".to_string(),
                (true, Some(d)) => format!("ETA {}", crate::app::time_text::duration(d)),
                (true, None) => "ETA …".to_string(),
            };
            let state = match (run.handle.is_some(), run.paused) {
                (true, true) if run.in_flight > 0 => format!(" · pausing, {} running", run.in_flight),
                (true, true) => " · paused".to_string(),
                (true, false) => format!(" · {} running", run.in_flight),
                (false, _) => String::new(),
            };
            let text = format!(
                "{}/{} games · {} elapsed · {eta}{state}",
                run.done,
                run.total,
                crate::app::time_text::duration(run.elapsed.unwrap_or_else(|| run.started.elapsed())),
            );
            crate::app::job_progress::bar(ui, frac, text);
            if run.handle.is_some() && !run.running_jobs.is_empty() {
                ui.horizontal_wrapped(|ui| {
                    ui.weak("Playing now:");
                    for job in &run.running_jobs {
                        let path = run.out.join("matches").join(format!("{job}.replay"));
                        let hint = "Watch this match live in the Play view";
                        if ui.button(format!("Watch {job}")).on_hover_text(hint).clicked() {
                            out.push(ArenaAction::Watch(path));
                        }
                    }
                });
            }
        } else {
            ui.weak(
                "Add algos on the left and press Start. Results, a win-rate plot and the finished matches appear here.",
            );
        }
        out
    }

    /// The finished matches: click one to open it, tick two to compare them.
    fn finished_matches(&self, ui: &mut Ui) -> Vec<ArenaAction> {
        let mut out = Vec::new();
        if !self.records.is_empty() {
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new(format!("Finished matches ({})", self.records.len())).strong());
                let ready = self.selected.len() == 2;
                if ui
                    .add_enabled(ready, egui::Button::new("Compare two matches"))
                    .on_disabled_hover_text("Tick two matches (the boxes on the left)")
                    .clicked()
                {
                    out.push(ArenaAction::CompareSelected);
                }
                ui.weak("click a match to open its replay");
            });
            egui::ScrollArea::vertical().id_salt("arena-matches").show(ui, |ui| {
                for (i, r) in self.records.iter().enumerate().rev() {
                    ui.horizontal(|ui| {
                        let mut ticked = self.selected.contains(&i);
                        if ui.checkbox(&mut ticked, "").on_hover_text("Select for comparison").changed() {
                            out.push(ArenaAction::ToggleCompare(i));
                        }
                        let winner = r.winner_label().unwrap_or("none").to_string();
                        let text = format!(
                            "{} vs {} · g{} · winner {} · {} turns · HP {:.0} : {:.0}{}",
                            r.algo1,
                            r.algo2,
                            r.game,
                            winner,
                            r.turns,
                            r.players[0].hp,
                            r.players[1].hp,
                            r.error.as_deref().map(|e| format!(" · error: {e}")).unwrap_or_default()
                        );
                        if ui.selectable_label(false, text).on_hover_text(&r.replay).clicked() && !r.replay.is_empty() {
                            out.push(ArenaAction::OpenReplay(PathBuf::from(&r.replay)));
                        }
                    });
                }
            });
        }
        out
    }
}

/// One row of the form's grid: a time limit in ms, the ruleset's value as the grey hint.
fn limit_field(ui: &mut Ui, label: &str, text: &mut String, ruleset_ms: u64, hover: &str) {
    let l = ui.label(label);
    ui.add(egui::TextEdit::singleline(text).hint_text(ruleset_ms.to_string()).desired_width(60.0))
        .labelled_by(l.id)
        .on_hover_text(hover);
    ui.end_row();
}
