//! The Arena tab: pick algos, games, jobs, ruleset and output folder; run an arena on its own
//! threads (`terminal_core::arena::start_arena`) while the UI polls its events every frame; live
//! results table, win-rate plot with Wilson whiskers, progress with ETA, finished matches
//! (click: open the replay), and two matches side by side ([`crate::app::compare_view`]).
//!
//! Here the tab's state and what it does; drawn in `panels` (the setup and results sides)
//! and `results` (the tables and the plot); the form kept between runs in `form`.

mod form;
mod panels;
mod results;
pub use form::{ArenaForm, GhostSelection};

use super::command::{Command, FileCommand, StudioCommand};
use super::compare_view::CompareView;
use egui::Ui;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use terminal_core::arena::files::{ReadRecords, read_records};
use terminal_core::arena::{
    ArenaEvent, ArenaHandle, ArenaOutcome, MatchRecord, StopReason, Summary, algo_label, summarize,
};
use terminal_core::engine::config::TimingRules;
use terminal_core::engine::presets::load_config;
use terminal_core::replay::ReplayError;
use terminal_core::side_by_side::SideBySide;

/// What the arena panels ask for; applied after the panels are drawn.
#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum ArenaAction {
    AddAlgo(PathBuf),
    RemoveAlgo(usize),
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
    /// Play against the players of these replays (sent from the Library).
    UseGhosts(GhostSelection),
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
    form: ArenaForm,
    /// The algo path being typed.
    path_text: String,
    /// The ruleset's time limits, for the fields' hints (parsed once per ruleset picked).
    timing_of: Option<(String, TimingRules)>,
    /// Continue the arena already in the output folder (skip its recorded matches). Not
    /// kept: continuing a run is decided each time.
    resume: bool,
    run: Option<Run>,
    records: Vec<MatchRecord>,
    summary: Option<Summary>,
    /// The ghosts' games of the run (empty unless it is against ghosts).
    ghosts: form::GhostRun,
    /// The final outcome, once the Summary event has arrived.
    outcome: Option<ArenaOutcome>,
    log: Vec<String>,
    message: String,
    selected: Vec<usize>,
    compare: Option<CompareView>,
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

    /// The form, as its fields show it.
    pub fn form(&self) -> &ArenaForm {
        &self.form
    }

    /// Whether Start continues the arena in the output folder.
    pub fn resumes(&self) -> bool {
        self.resume
    }

    /// The matches recorded so far, in the order they finished.
    pub fn records(&self) -> &[MatchRecord] {
        &self.records
    }

    /// The statistics of the records so far.
    pub fn summary(&self) -> Option<&Summary> {
        self.summary.as_ref()
    }

    /// How the arena ended, once it has.
    pub fn outcome(&self) -> Option<&ArenaOutcome> {
        self.outcome.as_ref()
    }

    /// The Algo path field's text.
    pub fn path_text(&self) -> &str {
        &self.path_text
    }

    /// What the tab says under its controls.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Two matches side by side, when open.
    pub fn compare(&self) -> Option<&CompareView> {
        self.compare.as_ref()
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
        let form::BuiltForm { spec, order, ghosts } = match self.form.to_spec(self.resume, fresh_out_dir) {
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
                self.ghosts = ghosts;
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
                    self.message = "Type, browse or drop an algo folder first".into();
                } else if !p.exists() {
                    self.message = format!("No such folder: {}", p.display());
                } else if self.form.algos.iter().any(|a| algo_label(a) == algo_label(&p)) {
                    self.message = format!("{} is already in the list", algo_label(&p));
                } else {
                    self.form.algos.push(p);
                    self.path_text.clear();
                }
            }
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
            ArenaAction::UseGhosts(g) => {
                self.message = format!(
                    "Against ghosts: the opponents of {} in {}; one algo plays {}'s seat in each. Add it, then Start",
                    g.me, g.label, g.me
                );
                self.form.ghosts = Some(g);
                self.form.vs_ghosts = true;
            }
        }
        Vec::new()
    }

    /// Where the results go, as the output folder's dialog starts: the folder typed, else
    /// the arena's data folder.
    pub fn output_folder(&self) -> PathBuf {
        match self.form.out.trim() {
            "" => arena_data_dir(),
            typed => PathBuf::from(typed),
        }
    }

    /// Opens two replays side by side.
    pub fn open_compare(&mut self, a: &Path, b: &Path) -> Result<(), ReplayError> {
        self.compare = Some(CompareView::new(SideBySide::open(a, b)?));
        Ok(())
    }
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
