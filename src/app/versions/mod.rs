//! The Versions view: the saved versions of an algo with each one's verdict against the one
//! before; "Compare with previous" saves the folder if it changed and compares it with its
//! newest other version (head to head in game pairs with a live LLR and Elo, and against the
//! same ghosts and algos); the flipped games, each opening both versions' replays side by
//! side at the turn they parted, with both versions' commands of that turn and both HP curves.

mod panels;
mod run;
mod side_by_side;

use super::command::{Command, UiCommand};
use super::view::{StudioView, ViewContext};
use run::LiveRun;
use serde::{Deserialize, Serialize};
use side_by_side::FlippedGame;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use terminal_core::versions::{RegressHandle, RegressReport, Version, VersionStore};

/// A version's verdict against the version it was compared with (kept between runs).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct VersionVerdict {
    /// The base's name ("label (hash)").
    pub base: String,
    /// `worse`, `not worse` or `undecided`.
    pub verdict: String,
    /// Head-to-head Elo with its 95 % interval.
    pub elo: Option<(f64, f64, f64)>,
    /// Games the new version and the base won against the same opponents.
    pub same_opponents: (usize, usize),
}

/// The view: the form's fields and the verdicts are kept; the run and its report are not.
#[derive(Serialize, Deserialize)]
#[serde(default)]
pub struct VersionsView {
    /// The algo folder.
    pub algo: String,
    /// The label a version saved by the next run takes.
    pub label: String,
    /// Replay folders or files whose recorded players both versions meet, one a line.
    pub ghosts: String,
    /// The ghost is the opponent of this name in each replay; empty: player 2 of every one.
    pub opponent_of: String,
    /// Other algo folders both versions meet from both seats, one a line.
    pub vs: String,
    /// Head-to-head games at most (whole pairs).
    pub games: u32,
    /// The head-to-head ruleset: a preset; empty: the first ghost replay's (else the default).
    pub ruleset: String,
    /// Verdicts by version hash.
    pub verdicts: BTreeMap<String, VersionVerdict>,
    /// Where versions and their results are kept; None: the studio's data folder.
    pub store_dir: Option<PathBuf>,
    #[serde(skip)]
    rt: Runtime,
}

impl Default for VersionsView {
    fn default() -> Self {
        VersionsView {
            algo: String::new(),
            label: String::new(),
            ghosts: String::new(),
            opponent_of: String::new(),
            vs: String::new(),
            games: 24,
            ruleset: String::new(),
            verdicts: BTreeMap::new(),
            store_dir: None,
            rt: Runtime::default(),
        }
    }
}

#[derive(Default)]
struct Runtime {
    job: Option<RegressHandle>,
    live: LiveRun,
    report: Option<RegressReport>,
    /// The saved versions of the algo, newest last, and the folder they were read for.
    versions: Vec<Version>,
    versions_of: String,
    /// A flipped game open side by side.
    side_by_side: Option<FlippedGame>,
    message: String,
}

/// What the panels ask for, applied after the frame.
#[must_use]
#[derive(Clone, Debug, PartialEq)]
enum VersionsAction {
    Compare,
    Stop,
    /// Open flipped game `i` (in the report's flipped order) side by side.
    OpenFlipped(usize),
    CloseSideBySide,
    /// Open one version's replay of a game in the Debugger at a turn.
    OpenReplay(std::path::PathBuf, i32),
}

impl VersionsView {
    pub fn is_running(&self) -> bool {
        self.rt.job.is_some()
    }

    pub fn report(&self) -> Option<&RegressReport> {
        self.rt.report.as_ref()
    }

    /// The saved versions of the algo, oldest first.
    pub fn versions(&self) -> &[Version] {
        &self.rt.versions
    }

    pub fn message(&self) -> &str {
        &self.rt.message
    }

    /// The flipped game shown side by side: the report's flipped index and the turn shown.
    pub fn side_by_side(&self) -> Option<(usize, i32)> {
        self.rt.side_by_side.as_ref().map(|f| (f.index, f.view.model.turn))
    }

    /// The store of versions: in the studio's data folder, or `store_dir`.
    fn store(&self) -> VersionStore {
        VersionStore::in_data_dir(&self.store_dir.clone().unwrap_or_else(crate::app::paths::data_dir))
    }

    /// Reads the algo's saved versions again (when the folder typed changes, after a run).
    fn refresh_versions(&mut self) {
        let algo = self.algo.trim().to_string();
        self.rt.versions_of = algo.clone();
        self.rt.versions =
            if algo.is_empty() { Vec::new() } else { self.store().list(Path::new(&algo)).unwrap_or_default() };
    }

    fn apply(&mut self, action: VersionsAction) -> Vec<Command> {
        match action {
            VersionsAction::Compare => self.start(),
            VersionsAction::Stop => self.stop(),
            VersionsAction::OpenFlipped(i) => self.open_flipped(i),
            VersionsAction::CloseSideBySide => self.rt.side_by_side = None,
            VersionsAction::OpenReplay(replay, turn) => {
                return vec![Command::Studio(super::command::StudioCommand::OpenReplayAt { replay, turn })];
            }
        }
        Vec::new()
    }
}

impl StudioView for VersionsView {
    fn show(&mut self, ui: &mut egui::Ui, cx: &mut ViewContext) -> Vec<Command> {
        self.poll_run();
        if self.rt.versions_of != self.algo.trim() {
            self.refresh_versions();
        }
        let mut actions = Vec::new();
        panels::top(self, ui, &mut actions);
        if self.rt.job.is_some() {
            // The games end without any input: look again soon.
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(200));
        }
        // A flipped game side by side takes the width the versions list had.
        if self.rt.side_by_side.is_none() {
            panels::versions_list(self, ui);
        }
        match self.rt.side_by_side.as_mut() {
            Some(flipped) => {
                if flipped.show(ui, cx.icons, cx.dark(), &mut actions) {
                    actions.push(VersionsAction::CloseSideBySide);
                }
            }
            None => {
                egui::CentralPanel::default().show(ui, |ui| panels::results(self, ui, &mut actions));
            }
        }
        let mut out = Vec::new();
        for a in actions {
            out.extend(self.apply(a));
        }
        out
    }

    fn run(&mut self, _command: UiCommand, _cx: &mut ViewContext) -> Vec<Command> {
        Vec::new()
    }

    fn poll(&mut self, _cx: &mut ViewContext) {
        self.poll_run();
    }
}
