//! The Arena tab: pick algos, games, jobs, ruleset and output folder; run an arena on its own
//! threads (`terminal_core::arena::start_arena`) while the UI polls its events every frame; live
//! results table, win-rate plot with Wilson whiskers, progress with ETA, finished matches
//! (click: open the replay), and two matches side by side ([`crate::app::compare_view`]).

mod form;
pub use form::ArenaForm;

use super::board::icons::IconTextures;
use super::command::{Command, FileCommand, StudioCommand};
use super::compare_view::CompareView;
use egui::{Color32, Ui};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use terminal_core::arena::files::{ReadRecords, read_records};
use terminal_core::arena::{
    ArenaEvent, ArenaHandle, ArenaOutcome, MatchRecord, StopReason, Summary, algo_label, summarize,
};
use terminal_core::engine::config::TimingRules;
use terminal_core::engine::presets::{PRESETS, load_config};
use terminal_core::replay::ReplayError;
use terminal_core::side_by_side::SideBySide;

/// What the arena panels ask for; applied after the panels are drawn.
#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum ArenaAction {
    AddAlgo(PathBuf),
    AddAlgoDialog,
    RemoveAlgo(usize),
    OutputDialog,
    Start,
    Pause,
    Resume,
    Cancel,
    /// Toggle a finished match (by index) in the two-match comparison selection.
    ToggleCompare(usize),
    CompareSelected,
    CloseCompare,
    OpenReplay(PathBuf),
    /// Watch a running match in the Play view (its replay as it is written).
    Watch(PathBuf),
}

impl crate::app::view::StudioView for ArenaTab {
    fn show(&mut self, ui: &mut Ui, cx: &mut crate::app::view::ViewContext) -> Vec<Command> {
        // The editor's tile, tool and tallies mean nothing here: the last message only.
        crate::app::status_line::panel(ui, "status-bar", cx.message);
        self.show(ui, cx.icons, cx.dark())
    }

    fn run(&mut self, command: crate::app::command::UiCommand, cx: &mut crate::app::view::ViewContext) -> Vec<Command> {
        *cx.message = format!("{} is not an Arena command", command.info().label);
        Vec::new()
    }
}

// What is kept of the tab is its form.
impl serde::Serialize for ArenaTab {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.form.serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for ArenaTab {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(ArenaTab { form: ArenaForm::deserialize(d)?, ..ArenaTab::default() })
    }
}

impl Run {
    fn new(handle: ArenaHandle, order: Vec<String>, out: PathBuf) -> Run {
        Run {
            handle: Some(handle),
            order,
            out,
            started: Instant::now(),
            elapsed: None,
            total: 0,
            done: 0,
            eta: None,
            paused: false,
            in_flight: 0,
            running_jobs: Vec::new(),
        }
    }
}

/// The results table, the pairings and the win-rate plot.
fn summary(ui: &mut Ui, s: &Summary, final_summary: bool) {
    ui.add_space(4.0);
    ui.label(egui::RichText::new(if final_summary { "Summary" } else { "Live results" }).strong());
    results_table(ui, s);
    if s.pairs.len() > 1 {
        egui::CollapsingHeader::new(format!("Pairings ({})", s.pairs.len()))
            .id_salt("arena-pairings")
            .show(ui, |ui| pairings_table(ui, s));
    }
    ui.add_space(4.0);
    win_rate_plot(ui, s);
}

/// A running (or finished) arena.
struct Run {
    handle: Option<ArenaHandle>,
    order: Vec<String>,
    out: PathBuf,
    started: Instant,
    /// Set when the Summary arrives.
    elapsed: Option<Duration>,
    total: usize,
    done: usize,
    eta: Option<Duration>,
    paused: bool,
    /// Matches started and not yet finished.
    pub in_flight: usize,
    /// Their job ids, in start order.
    running_jobs: Vec<String>,
}

/// The tab: the form (what is kept between runs), the run, the results, the comparison.
#[derive(Default)]
pub struct ArenaTab {
    pub form: ArenaForm,
    /// The algo path being typed.
    pub path_text: String,
    /// The ruleset's time limits, for the fields' hints (parsed once per ruleset picked).
    timing_of: Option<(String, TimingRules)>,
    /// Continue the arena already in the output folder (skip its recorded matches). Not
    /// kept: continuing a run is decided each time.
    pub resume: bool,
    run: Option<Run>,
    pub records: Vec<MatchRecord>,
    pub summary: Option<Summary>,
    /// The final outcome, once the Summary event has arrived.
    pub outcome: Option<ArenaOutcome>,
    pub log: Vec<String>,
    pub message: String,
    selected: Vec<usize>,
    pub compare: Option<CompareView>,
}

impl ArenaTab {
    /// A fresh tab whose form uses `ruleset`.
    pub fn new(ruleset: &str) -> ArenaTab {
        let mut tab = ArenaTab::default();
        tab.form.ruleset = ruleset.to_string();
        tab
    }

    /// A kept form from an earlier version may lack fields: those take the fresh form's
    /// values, and an empty ruleset is the studio's.
    pub fn settle(&mut self, studio_ruleset: &str) {
        self.form.settle();
        if self.form.ruleset.trim().is_empty() {
            self.form.ruleset = studio_ruleset.to_string();
        }
    }

    fn ruleset_timing(&mut self) -> TimingRules {
        match &self.timing_of {
            Some((slug, t)) if *slug == self.form.ruleset => t.clone(),
            _ => {
                let t = load_config(&self.form.ruleset).map(|c| c.timing).unwrap_or_default();
                self.timing_of = Some((self.form.ruleset.clone(), t.clone()));
                t
            }
        }
    }

    pub fn is_running(&self) -> bool {
        self.run.as_ref().is_some_and(|r| r.handle.is_some())
    }

    /// Pause asked (no new matches start; those in flight finish).
    pub fn is_paused(&self) -> bool {
        self.run.as_ref().is_some_and(|r| r.paused)
    }

    /// Matches running right now.
    pub fn in_flight(&self) -> usize {
        self.run.as_ref().map_or(0, |r| r.in_flight)
    }

    /// Drains the arena's events (never blocks).
    pub fn poll(&mut self) {
        let Some(run) = self.run.as_mut() else { return };
        let Some(handle) = run.handle.as_ref() else { return };
        let mut changed = false;
        let mut finished = false;
        let mut gone = false;
        loop {
            let ev = match handle.events.try_recv() {
                Ok(ev) => ev,
                Err(crossbeam_channel::TryRecvError::Empty) => break,
                // The arena's thread ended without its summary: it failed; say why below.
                Err(crossbeam_channel::TryRecvError::Disconnected) => {
                    gone = true;
                    break;
                }
            };
            match ev {
                ArenaEvent::Started { total, already_done, workers } => {
                    run.total = total;
                    run.done = already_done;
                    self.log.push(format!("Started: {total} games on {workers} workers"));
                }
                ArenaEvent::MatchStarted { job_id, .. } => {
                    run.in_flight += 1;
                    run.running_jobs.push(job_id);
                }
                ArenaEvent::MatchFinished(r) => {
                    run.in_flight = run.in_flight.saturating_sub(1);
                    run.running_jobs.retain(|j| *j != r.job_id);
                    self.records.push(*r);
                    changed = true;
                }
                ArenaEvent::Progress { done, total, eta } => {
                    run.done = done;
                    run.total = total;
                    run.eta = eta;
                }
                ArenaEvent::SprtStop { decision, llr } => {
                    self.log.push(format!("SPRT stop: {decision:?} (LLR {llr:.2})"));
                }
                ArenaEvent::Warning(w) => self.log.push(format!("Warning: {w}")),
                ArenaEvent::Summary(outcome) => {
                    self.summary = Some(outcome.summary.clone());
                    self.message = match &outcome.stop {
                        StopReason::Completed => format!(
                            "Arena finished: {} matches in {:.1} s, results in {}",
                            outcome.summary.matches,
                            outcome.elapsed.as_secs_f64(),
                            run.out.display()
                        ),
                        StopReason::Cancelled => format!("Arena cancelled after {} matches", outcome.summary.matches),
                        StopReason::Sprt(d) => format!("Arena stopped by the SPRT: {d:?}"),
                        StopReason::Error(e) => format!("Arena stopped: {e}"),
                    };
                    run.elapsed = Some(outcome.elapsed);
                    run.in_flight = 0;
                    self.outcome = Some(*outcome);
                    finished = true;
                    changed = false;
                }
            }
        }
        if changed {
            self.summary = Some(summarize(&self.records, &run.order));
        }
        if (finished || gone)
            && let Some(h) = run.handle.take()
        {
            // The Summary is the last event: the threads are ending. Without it, the arena failed.
            if let Err(e) = h.wait() {
                self.message = format!("The arena stopped: {e}");
                self.log.push(self.message.clone());
                run.in_flight = 0;
            }
        }
    }

    fn start(&mut self) {
        if self.is_running() {
            return;
        }
        let (spec, order) = match self.form.to_spec(self.resume, fresh_out_dir) {
            Ok(s) => s,
            Err(e) => {
                self.message = e.to_string();
                return;
            }
        };
        // The records of the run being resumed, for the live table (the arena skips them).
        let mut earlier = ReadRecords::default();
        if self.resume
            && let Err(e) = read_records(&spec.results_path(), &mut earlier)
        {
            self.message = format!("Resume: {e}");
            return;
        }
        let out = spec.out.clone();
        match terminal_core::arena::start_arena(spec) {
            Ok(handle) => {
                self.records = earlier.records;
                self.summary = (!self.records.is_empty()).then(|| summarize(&self.records, &order));
                self.outcome = None;
                self.selected.clear();
                self.log.clear();
                self.message = format!("Arena running, results in {}", out.display());
                self.run = Some(Run::new(handle, order, out));
            }
            Err(e) => self.message = format!("Arena not started: {e}"),
        }
    }

    /// Applies one action; commands for the app come back.
    pub fn apply(&mut self, action: ArenaAction) -> Vec<Command> {
        match action {
            ArenaAction::AddAlgo(p) => {
                if p.as_os_str().is_empty() {
                } else if !p.exists() {
                    self.message = format!("No such folder: {}", p.display());
                } else if self.form.algos.iter().any(|a| algo_label(a) == algo_label(&p)) {
                    self.message = format!("{} is already in the list", algo_label(&p));
                } else {
                    self.form.algos.push(p);
                    self.path_text.clear();
                }
            }
            ArenaAction::AddAlgoDialog => match crate::app::file_prompt::native_dialogs_available()
                .then(|| rfd::FileDialog::new().pick_folder())
                .flatten()
            {
                Some(p) => return self.apply(ArenaAction::AddAlgo(p)),
                None => self.message = "No folder picked (no file dialog here?): type the path in Algo path".into(),
            },
            ArenaAction::RemoveAlgo(i) => {
                if i < self.form.algos.len() {
                    self.form.algos.remove(i);
                    // The baseline stays the same algo when an earlier one is removed.
                    if i < self.form.baseline {
                        self.form.baseline -= 1;
                    }
                    self.form.baseline = self.form.baseline.min(self.form.algos.len().saturating_sub(1));
                }
            }
            ArenaAction::OutputDialog => match crate::app::file_prompt::native_dialogs_available()
                .then(|| rfd::FileDialog::new().pick_folder())
                .flatten()
            {
                Some(p) => self.form.out = p.display().to_string(),
                None => self.message = "No folder picked (no file dialog here?): type it in Output folder".into(),
            },
            ArenaAction::Start => self.start(),
            ArenaAction::Pause | ArenaAction::Resume => {
                if let Some(run) = self.run.as_mut()
                    && let Some(h) = run.handle.as_ref()
                {
                    if action == ArenaAction::Pause {
                        h.pause();
                    } else {
                        h.resume();
                    }
                    run.paused = action == ArenaAction::Pause;
                }
            }
            ArenaAction::Cancel => {
                if let Some(h) = self.run.as_ref().and_then(|r| r.handle.as_ref()) {
                    h.resume();
                    h.cancel();
                    self.message = "Cancelling: the matches in flight are stopped".into();
                }
            }
            ArenaAction::ToggleCompare(i) => {
                if let Some(pos) = self.selected.iter().position(|&s| s == i) {
                    self.selected.remove(pos);
                } else {
                    self.selected.push(i);
                    if self.selected.len() > 2 {
                        self.selected.remove(0);
                    }
                }
            }
            ArenaAction::CompareSelected => {
                if let [a, b] = self.selected[..] {
                    let (pa, pb) = (self.records[a].replay.clone(), self.records[b].replay.clone());
                    return vec![Command::File(FileCommand::Compare(pa.into(), pb.into()))];
                }
                self.message = "Pick two finished matches to compare".into();
            }
            ArenaAction::CloseCompare => self.compare = None,
            ArenaAction::OpenReplay(p) => return vec![Command::File(FileCommand::OpenReplay(p))],
            ArenaAction::Watch(p) => return vec![Command::Studio(StudioCommand::WatchReplay(p))],
        }
        Vec::new()
    }

    /// Opens two replays side by side.
    pub fn open_compare(&mut self, a: &Path, b: &Path) -> Result<(), ReplayError> {
        self.compare = Some(CompareView::new(SideBySide::open(a, b)?));
        Ok(())
    }

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
            out.extend(self.output_fields(ui));
        });
        ui.separator();
        out.extend(self.controls(ui, running));
        out
    }

    fn algo_list(&mut self, ui: &mut Ui, running: bool) -> Vec<ArenaAction> {
        let mut out = Vec::new();
        ui.label(egui::RichText::new("Algos").strong());
        if self.form.algos.is_empty() {
            ui.weak("No algos yet: add two or more folders");
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
        if ui.button("Add algo folder…").clicked() {
            out.push(ArenaAction::AddAlgoDialog);
        }
        let label = ui.label("Algo path");
        ui.horizontal(|ui| {
            let field = ui
                .add(
                    egui::TextEdit::singleline(&mut self.path_text)
                        .hint_text("paste a folder path")
                        .desired_width(200.0),
                )
                .labelled_by(label.id);
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
            let l = ui.label("Games per pairing");
            ui.add(egui::TextEdit::singleline(&mut self.form.games).desired_width(60.0)).labelled_by(l.id);
            ui.end_row();
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
            ui.radio_value(&mut self.form.gauntlet, false, "Round robin")
                .on_hover_text("Every algo against every other");
            ui.radio_value(&mut self.form.gauntlet, true, "Gauntlet")
                .on_hover_text("Every algo against the baseline only");
        });
        if self.form.gauntlet {
            let selected = self.form.algos.get(self.form.baseline).map(|p| algo_label(p)).unwrap_or_else(|| "–".into());
            egui::ComboBox::from_label("Baseline").selected_text(selected).show_ui(ui, |ui| {
                for (i, a) in self.form.algos.iter().enumerate() {
                    ui.selectable_value(&mut self.form.baseline, i, algo_label(a));
                }
            });
        }
        ui.checkbox(&mut self.form.confine, "Confine algos (recommended)").on_hover_text("Limits and file, network and process rules on the algos (docs/runner.md, Confinement). Off: they run as you do — only for an algo you trust that needs more.");
        ui.checkbox(&mut self.form.sprt, "SPRT early stop")
            .on_hover_text("Two algos: stop when one is better with the confidence asked");
        if self.form.sprt {
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
    fn output_fields(&mut self, ui: &mut Ui) -> Vec<ArenaAction> {
        let mut out = Vec::new();
        egui::ComboBox::from_label("Ruleset").selected_text(self.form.ruleset.clone()).show_ui(ui, |ui| {
            for (slug, description, _) in PRESETS {
                if ui.selectable_label(self.form.ruleset == *slug, *slug).on_hover_text(*description).clicked() {
                    self.form.ruleset = slug.to_string();
                }
            }
        });
        let l = ui.label("Output folder");
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.form.out).hint_text("automatic (data dir)").desired_width(200.0),
            )
            .labelled_by(l.id)
            .on_hover_text(format!("Empty: a new folder under {}", arena_data_dir().display()));
            if ui.button("…").on_hover_text("Pick a folder").clicked() {
                out.push(ArenaAction::OutputDialog);
            }
        });
        ui.checkbox(&mut self.resume, "Resume the output folder")
            .on_hover_text("Continue the arena in the output folder: its recorded matches are not played again");
        out
    }

    /// Start, pause, cancel, and what the run says.
    fn controls(&mut self, ui: &mut Ui, running: bool) -> Vec<ArenaAction> {
        let mut out = Vec::new();
        ui.horizontal(|ui| {
            if ui.add_enabled(!running && self.form.algos.len() >= 2, egui::Button::new("Start")).clicked() {
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
            summary(ui, s, self.outcome.is_some());
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
                (true, Some(d)) => format!("ETA {}", fmt_duration(d)),
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
                fmt_duration(run.elapsed.unwrap_or_else(|| run.started.elapsed())),
            );
            ui.add(egui::ProgressBar::new(frac).text(text));
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
            ui.label(rate_with_interval(a.win_rate(), a.wilson95()));
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
            ui.label(format!("{:+.1}", a.mean_hp_margin()));
            ui.label(format!("{:.1}", a.mean_turns()));
            ui.label(format!("{:.0}", a.mean_compute_ms())).on_hover_text("Mean compute time per turn");
            match s.ratings.iter().find(|r| r.label == a.label) {
                Some(r) => ui.label(format!("{:.0} ± {:.0}", r.elo, r.sd)),
                None => ui.label("–"),
            };
            ui.end_row();
        }
    });
}

/// One row of the form's grid: a time limit in ms, the ruleset's value as the grey hint.
fn limit_field(ui: &mut Ui, label: &str, text: &mut String, ruleset_ms: u64, hover: &str) {
    let l = ui.label(label);
    ui.add(egui::TextEdit::singleline(text).hint_text(ruleset_ms.to_string()).desired_width(60.0))
        .labelled_by(l.id)
        .on_hover_text(hover);
    ui.end_row();
}

/// "62 % [41–79]": a win rate with its 95 % interval, in percent.
fn rate_with_interval(rate: f64, (lo, hi): (f64, f64)) -> String {
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
            ui.label(rate_with_interval(p.a_win_rate(), p.a_wilson95()));
            ui.label(format!("{}/{}", p.a_as_p1.wins, p.a_as_p1.games));
            ui.label(format!("{}/{}", p.a_as_p2.wins, p.a_as_p2.games));
            ui.label(format!("{:+.1}", p.mean_hp_margin()));
            ui.label(format!("{:.0} : {:.0}", p.a_mean_compute_ms(), p.b_mean_compute_ms()));
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
        .map(|(i, a)| Bar::new(i as f64, a.win_rate() * 100.0).width(0.5).name(&a.label))
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
                let (lo, hi) = a.wilson95();
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

fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 { format!("{}h{:02}m", s / 3600, (s / 60) % 60) } else { format!("{}m{:02}s", s / 60, s % 60) }
}

/// `<the studio's data folder>/arena`.
pub fn arena_data_dir() -> PathBuf {
    super::paths::arena_dir()
}

/// A new, unique output folder for one run.
fn fresh_out_dir() -> PathBuf {
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
    arena_data_dir().join(format!("run-{stamp}"))
}
