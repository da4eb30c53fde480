//! The Layout lab's state: the runs and the suggestion it holds, each tied to the layout, the
//! seat and the attacks it was computed for. Figures for another layout or other attacks are
//! never shown as current: another layout clears them (the last run is kept to compare
//! with), an edit marks them stale, and a suggestion is only accepted onto the layout it was
//! made for. Undo and Redo of an accepted suggestion move it back into the list and out.

use super::Editor;
use super::lab::{self, AttackKey, LabError, LabJob, LabRequest, LabResult};
use super::lab_planner::{LayoutPlans, PLANNED_MP, PlansJob};
use crate::app::command::{Command, EditorCommand, StudioCommand};
use crate::app::model::Edit;
use std::path::PathBuf;
use std::sync::Arc;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::layout::Layout;
use terminal_core::layout::stress::{Attack, AttackSet, Defence, HpModel, StressReport};
use terminal_core::suggest::{Against, Change, Step, Suggestion, parse_mp_schedule};

/// What the lab's widgets ask for.
#[derive(Clone, Debug, PartialEq)]
pub enum LabAction {
    Run,
    Suggest,
    Cancel,
    /// Take suggested step `i` into the layout (an undoable edit).
    Accept(usize),
    /// Drop suggested step `i`.
    Reject(usize),
    /// Open attack `i` of the current run in the Debugger at its turn, as the lab ran it.
    OpenAttack(usize),
    /// Switch the studio to this ruleset, then run.
    SwitchRulesetAndRun(String),
    /// Run the folder's attacks under the studio's ruleset, whatever theirs.
    RunAnyRuleset,
    /// Read the folder's attacks again, not the replays chosen in the Library.
    UseFolder,
    /// Search the strongest attacks on the layout at each MP of `PLANNED_MP`.
    PlanAttacks,
    /// Stop the search of the layout.
    StopPlanning,
    /// Open searched attack `k` of MP row `row` in the Debugger as a what-if try.
    OpenPlanned(usize, usize),
    /// Open level `i` of the cost to break the layout in the Debugger as a what-if try.
    OpenFrontier(usize),
    /// Open the suggestion's strongest reply at level `i`, before (`false`) or after (`true`)
    /// its changes, in the Debugger as a what-if try.
    OpenReply(usize, bool),
}

/// The lab's line when a suggestion ends: its steps and what they save, against what.
fn suggestion_message(s: &Suggestion) -> String {
    let n = s.steps.len();
    if n == 0 {
        return "No change within the budget lowers the HP lost".into();
    }
    let recorded = format!("HP lost from {:.0} to {:.0} over {} attacks", s.hp_lost_before, s.hp_lost_after, s.attacks);
    let planner = s.planner.as_ref().map(|p| {
        format!("the planner's strongest replies from {:.0} to {:.0} HP", p.damage_sum(false), p.damage_sum(true))
    });
    let what = match (s.against, planner) {
        (Against::Planner, Some(p)) => p,
        (Against::Both, Some(p)) => format!("{recorded}, {p}"),
        _ => recorded,
    };
    format!("{n} suggested changes: {what}, {:.1} SP", s.spent)
}

/// One finished stress run: what it tested, over which attacks.
pub struct LabRun {
    pub key: AttackKey,
    pub layout: Layout,
    pub seat: Player,
    pub attacks: Arc<AttackSet>,
    pub report: StressReport,
}

impl LabRun {
    /// The layout's name for the panel ("maze", or "untitled").
    pub fn name(&self) -> &str {
        if self.layout.name.trim().is_empty() { "untitled" } else { self.layout.name.trim() }
    }
}

/// A step accepted onto the board, with the layouts around it (to follow Undo and Redo).
struct Accepted {
    index: usize,
    step: Step,
    before: Layout,
    after: Layout,
}

/// The suggestion and where it stands: the layout its remaining steps apply to.
pub struct LabSuggestion {
    pub key: AttackKey,
    pub seat: Player,
    pub suggestion: Suggestion,
    /// The layout the remaining steps were weighed on (as it is after the accepted ones).
    expected: Layout,
    accepted: Vec<Accepted>,
    undone: Vec<Accepted>,
}

/// Whether shown results belong to the editor's layout and the lab's attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Freshness {
    Fresh,
    /// The layout or the seat was edited since.
    LayoutEdited,
    /// The folder, the ruleset or the any-ruleset choice changed since.
    AttacksChanged,
}

impl Freshness {
    /// What the panel says of stale results.
    pub fn warning(self) -> Option<&'static str> {
        match self {
            Freshness::Fresh => None,
            Freshness::LayoutEdited => Some("Stale: the layout changed since this run. Run again for current figures."),
            Freshness::AttacksChanged => {
                Some("Stale: these figures are over other attacks (folder or ruleset changed). Run again.")
            }
        }
    }
}

/// The lab's state (runtime: nothing of it is kept between sessions but the folder field).
pub struct LabState {
    pub folder: String,
    /// Replays chosen in the Library (a label for them, and the files), read instead of the
    /// folder's until the folder is asked for again.
    pub selection: Option<(String, Arc<[PathBuf]>)>,
    /// The library index (database, folder) the selection came from: its attacks are kept there.
    selection_index: Option<(PathBuf, PathBuf)>,
    pub budget: String,
    /// What a suggestion weighs, and the planner's MP levels as typed ("5-30", "8,16").
    pub against: Against,
    pub mp_schedule: String,
    pub heatmap: bool,
    /// Show the difference from the compared run on the board instead of the heatmap.
    pub show_difference: bool,
    /// Run attacks recorded under other rulesets too, under the studio's.
    pub any_ruleset: bool,
    pub(super) job: Option<LabJob>,
    /// Attacks read, by the key they were read under (reused by the next run).
    attacks: Option<(AttackKey, Arc<AttackSet>)>,
    /// The key and seat of the running job.
    job_for: Option<(AttackKey, Player, Layout)>,
    pub(super) run: Option<LabRun>,
    /// The run before, over the same attacks: what the current one is compared with.
    pub(super) compared: Option<LabRun>,
    pub(super) suggestion: Option<LabSuggestion>,
    /// The editor generation the results belong to.
    generation: u64,
    /// "Attack this layout": the search running, and the last one's answer.
    pub(super) plans_job: Option<PlansJob>,
    pub(super) plans: Option<LayoutPlans>,
    /// The folder's rulesets when it held no attack of the studio's (the panel offers both ways out).
    pub(super) mismatch: Option<Vec<(String, usize)>>,
    /// A run to start as soon as the studio's ruleset is this one.
    run_under: Option<String>,
    pub message: String,
}

impl Default for LabState {
    fn default() -> Self {
        LabState {
            folder: String::new(),
            selection: None,
            selection_index: None,
            budget: "10".into(),
            against: Against::Recorded,
            mp_schedule: "5-30".into(),
            heatmap: true,
            show_difference: false,
            any_ruleset: false,
            job: None,
            attacks: None,
            job_for: None,
            run: None,
            compared: None,
            suggestion: None,
            generation: 0,
            mismatch: None,
            run_under: None,
            plans_job: None,
            plans: None,
            message: String::new(),
        }
    }
}

impl LabState {
    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// The current run's report.
    pub fn report(&self) -> Option<&StressReport> {
        self.run.as_ref().map(|r| &r.report)
    }

    /// The current run.
    pub fn run(&self) -> Option<&LabRun> {
        self.run.as_ref()
    }

    /// The run the current one is compared with (same attacks, another layout or seat).
    pub fn compared(&self) -> Option<&LabRun> {
        self.compared.as_ref()
    }

    pub fn suggestion(&self) -> Option<&Suggestion> {
        self.suggestion.as_ref().map(|s| &s.suggestion)
    }

    /// A run or a suggestion to show on the board.
    pub fn has_results(&self) -> bool {
        self.run.is_some() || self.suggestion().is_some_and(|s| !s.steps.is_empty())
    }

    /// The key the lab's fields describe now.
    pub fn current_key(&self, ruleset: &str) -> AttackKey {
        AttackKey {
            folder: PathBuf::from(self.folder.trim()),
            files: self.selection.as_ref().map(|(_, files)| Arc::clone(files)),
            ruleset: ruleset.to_string(),
            any_ruleset: self.any_ruleset,
        }
    }

    /// Whether the current run belongs to the editor's layout and the lab's attacks.
    pub fn freshness(&self, editor: &Editor, ruleset: &str) -> Freshness {
        let Some(run) = &self.run else { return Freshness::Fresh };
        if run.key != self.current_key(ruleset) {
            Freshness::AttacksChanged
        } else if run.layout != editor.layout || run.seat != editor.player {
            Freshness::LayoutEdited
        } else {
            Freshness::Fresh
        }
    }

    /// Takes replays chosen elsewhere as the attacks of the next run.
    /// `ruleset`: the one most of them were played under; `empty_layout`: there is nothing on
    /// the board to test yet, so the message says what to open first.
    pub fn use_selection(
        &mut self,
        label: String,
        files: Vec<PathBuf>,
        index: Option<(PathBuf, PathBuf)>,
        ruleset: Option<&str>,
        empty_layout: bool,
    ) {
        let of = ruleset.map(|r| format!(" of {r}")).unwrap_or_default();
        self.message = if empty_layout {
            format!(
                "Attacks from {label}. The board is empty: open a layout{of} (File menu, Open layout…: Ctrl+O) \
                 or build one, then Run stress test."
            )
        } else {
            format!("Attacks from {label}: Run stress test")
        };
        self.selection = Some((label, files.into()));
        self.selection_index = index;
    }

    /// Attack `i` of the current run.
    pub fn attack(&self, i: usize) -> Option<&Attack> {
        self.run.as_ref().and_then(|r| r.attacks.attacks.get(i))
    }

    /// The button text of attack `i` in the worst list: turn, the harm as the Debugger's try
    /// counts it, and the replay's whole name on a line of its own.
    pub fn attack_label(&self, i: usize) -> Option<String> {
        let run = self.run.as_ref()?;
        let (a, o) = (run.attacks.attacks.get(i)?, run.report.outcomes.get(i)?);
        let stem = a.stem();
        Some(format!(
            "turn {}: −{:.0} HP ({} breaches), {} structures lost ({:.1} SP)\n{stem}",
            a.turn, o.hp_lost, o.breaches, o.structures_lost, o.sp_lost
        ))
    }

    /// The folder offered at first: the shared corpus's folder of the ruleset, if it is there.
    fn default_folder(ruleset: &str) -> String {
        if cfg!(target_arch = "wasm32") {
            return crate::app::paths::browser_replays_dir().display().to_string();
        }
        let shared = PathBuf::from("..").join("shared").join("replays").join(ruleset);
        if shared.is_dir() { shared.display().to_string() } else { "replays".into() }
    }

    /// Fills the folder field once, and keeps the results tied to the editor: another layout
    /// clears them (the last run kept to compare with), Undo/Redo of an accepted step moves
    /// it back into the list or out. Returns a run to start now (after a ruleset switch).
    pub fn follow(&mut self, editor: &Editor, ruleset: &str) -> Option<LabAction> {
        if self.folder.is_empty() {
            self.folder = LabState::default_folder(ruleset);
        }
        if editor.generation != self.generation {
            self.generation = editor.generation;
            if self.run.is_some() || self.suggestion.is_some() {
                if let Some(run) = self.run.take() {
                    self.compared = Some(run);
                }
                self.suggestion = None;
                self.message = "Another layout: the last run's figures are kept only to compare with".into();
            }
        }
        self.follow_history(&editor.layout);
        match &self.run_under {
            Some(r) if r == ruleset && self.job.is_none() => {
                self.run_under = None;
                Some(LabAction::Run)
            }
            _ => None,
        }
    }

    fn follow_history(&mut self, layout: &Layout) {
        let Some(s) = self.suggestion.as_mut() else { return };
        if s.expected == *layout {
            return;
        }
        if s.accepted.last().is_some_and(|a| a.before == *layout) {
            let Some(a) = s.accepted.pop() else { return };
            self.message = format!("Undone: “{}” is back in the suggested changes", a.step.label);
            s.suggestion.steps.insert(a.index.min(s.suggestion.steps.len()), a.step.clone());
            s.expected = a.before.clone();
            s.undone.push(a);
        } else if s.undone.last().is_some_and(|a| a.after == *layout) {
            let Some(a) = s.undone.pop() else { return };
            if let Some(i) = s.suggestion.steps.iter().position(|x| x.change == a.step.change) {
                s.suggestion.steps.remove(i);
            }
            self.message = format!("Redone: “{}” accepted again", a.step.label);
            s.expected = a.after.clone();
            s.accepted.push(a);
        }
    }

    /// Takes a finished job's result.
    pub fn poll(&mut self) {
        self.poll_plans();
        let Some(result) = self.job.as_ref().and_then(|j| j.poll()) else { return };
        self.job = None;
        let Some((key, seat, layout)) = self.job_for.take() else { return };
        match result {
            Ok(LabResult::Report { attacks, report, layout }) => {
                self.attacks = Some((key.clone(), Arc::clone(&attacks)));
                self.message = totals_message(&report);
                if attacks.kept_replays > 0 {
                    let n = attacks.kept_replays;
                    self.message += &format!(" · attacks of {n} replays from the library index");
                }
                let run = LabRun { key, layout, seat, attacks, report };
                // The run before is the comparison only over the same attacks, on another layout.
                let before = self.run.take().or_else(|| self.compared.take());
                self.compared = before.filter(|b| b.key == run.key && (b.layout != run.layout || b.seat != run.seat));
                self.run = Some(run);
            }
            Ok(LabResult::Suggestion { attacks, suggestion }) => {
                if let Some(attacks) = attacks {
                    self.attacks = Some((key.clone(), attacks));
                }
                self.message = suggestion_message(&suggestion);
                let (accepted, undone) = (Vec::new(), Vec::new());
                self.suggestion = Some(LabSuggestion { key, seat, suggestion, expected: layout, accepted, undone });
            }
            Err(e) => {
                if let LabError::NoAttacks { rulesets, .. } = &e
                    && rulesets.iter().any(|(r, _)| *r != key.ruleset)
                {
                    self.mismatch = Some(rulesets.clone());
                }
                self.message = format!("Layout lab: {e}");
            }
        }
        // The job's threads and the results replaced above freed a read's worth of heap.
        terminal_core::heap::return_freed_memory();
    }

    /// Starts a run or a suggestion on the editor's layout, for its active player's seat.
    fn start(&mut self, editor: &Editor, ruleset: &str, budget: Option<f32>, window: Option<&egui::Context>) {
        let mp_levels = if budget.is_some() && self.against.planner() {
            match parse_mp_schedule(&self.mp_schedule) {
                Ok(levels) => levels,
                Err(e) => {
                    self.message = format!("Layout lab: MP levels: {e}");
                    return;
                }
            }
        } else {
            Vec::new()
        };
        if self.job.is_some() {
            self.message = "The lab is already running: Cancel first".into();
            return;
        }
        let key = self.current_key(ruleset);
        let cached = match &self.attacks {
            Some((k, set)) if *k == key => Some(Arc::clone(set)),
            _ => None,
        };
        self.mismatch = None;
        self.job_for = Some((key.clone(), editor.player, editor.layout.clone()));
        let index = match &self.selection {
            Some(_) => self.selection_index.clone(),
            #[cfg(not(target_arch = "wasm32"))]
            None => terminal_core::library::LibraryIndex::existing_db(&crate::app::paths::data_dir(), &key.folder)
                .map(|db| (db, key.folder.clone())),
            #[cfg(target_arch = "wasm32")]
            None => None,
        };
        let request = LabRequest {
            key,
            layout: editor.layout.clone(),
            seat: editor.player,
            config: Arc::new(editor.config.clone()),
            cached,
            budget,
            against: self.against,
            mp_levels,
            index,
            repaint: window.cloned(),
        };
        match lab::start(request) {
            Ok(job) => {
                self.message = format!("{}…", job.what);
                self.job = Some(job);
            }
            Err(e) => self.message = format!("Layout lab: could not start its thread: {e}"),
        }
    }

    /// Carries out an action; commands for the app come back.
    pub fn apply(
        &mut self,
        action: LabAction,
        editor: &Editor,
        ruleset: &str,
        window: Option<&egui::Context>,
    ) -> Vec<Command> {
        match action {
            LabAction::Run => self.start(editor, ruleset, None, window),
            LabAction::Suggest => match self.budget.trim().parse::<f32>() {
                Ok(b) if b > 0.0 && b.is_finite() => self.start(editor, ruleset, Some(b), window),
                _ => self.message = format!("Layout lab: {}", LabError::Budget),
            },
            LabAction::Cancel => {
                if let Some(job) = &self.job {
                    job.cancel();
                    self.message = "Cancelling…".into();
                }
            }
            LabAction::Accept(i) => return self.accept(i, editor),
            LabAction::Reject(i) => {
                if let Some(s) = self.suggestion.as_mut().filter(|s| i < s.suggestion.steps.len()) {
                    let step = s.suggestion.steps.remove(i);
                    self.message = format!("Rejected: {}", step.label);
                }
            }
            LabAction::OpenAttack(i) => return self.open_attack(i),
            LabAction::UseFolder => {
                self.selection = None;
                self.selection_index = None;
                self.message = format!("Attacks from {}", self.folder.trim());
            }
            LabAction::SwitchRulesetAndRun(r) => {
                self.message = format!("Switching the studio to {r}, then running…");
                self.run_under = Some(r.clone());
                return vec![Command::Studio(StudioCommand::SetRuleset(r))];
            }
            LabAction::RunAnyRuleset => {
                self.any_ruleset = true;
                self.start(editor, ruleset, None, window);
            }
            LabAction::PlanAttacks => self.plan_attacks(editor),
            LabAction::StopPlanning => {
                if let Some(job) = self.plans_job.take() {
                    job.cancel();
                    self.message = "Attack this layout: stopped".into();
                }
            }
            LabAction::OpenPlanned(row, k) => return self.open_planned(row, k, editor),
            LabAction::OpenFrontier(i) => return self.open_frontier(i, editor),
            LabAction::OpenReply(i, after) => return self.open_reply(i, after),
        }
        Vec::new()
    }

    /// Starts "Attack this layout" on the editor's layout, its active seat defending.
    fn plan_attacks(&mut self, editor: &Editor) {
        if let Some(job) = self.plans_job.take() {
            job.cancel();
        }
        let config = Arc::new(editor.config.clone());
        match PlansJob::start(editor.layout.clone(), editor.player, config) {
            Ok(job) => {
                self.plans_job = Some(job);
                self.message = format!("Searching attacks on the layout at {} MP…", mp_list());
            }
            Err(e) => self.message = format!("Attack this layout: could not start its thread: {e}"),
        }
    }

    fn poll_plans(&mut self) {
        let Some(result) = self.plans_job.as_mut().and_then(PlansJob::poll) else { return };
        self.plans_job = None;
        match result {
            Ok(plans) => {
                self.message = format!("Searched attacks on the layout at {} MP", mp_list());
                self.plans = Some(plans);
            }
            Err(e) => self.message = format!("Attack this layout: {e}"),
        }
    }

    /// Searched attack `k` at MP row `row`, run in the Debugger against the layout.
    fn open_planned(&mut self, row: usize, k: usize, editor: &Editor) -> Vec<Command> {
        let Some(plans) = &self.plans else { return Vec::new() };
        let legacy = editor.config.legacy;
        let describe = |c: &terminal_core::planner::Candidate| crate::app::viewer::describe_groups(c, legacy);
        let Some(attack_try) = plans.attack_try(row, k, describe) else { return Vec::new() };
        let attacker = plans.seat.opponent();
        vec![Command::Studio(StudioCommand::RunAttackTry { attacker, attack_try: Box::new(attack_try) })]
    }

    /// Level `i` of the cost to break the layout, run in the Debugger against the layout.
    fn open_frontier(&mut self, i: usize, editor: &Editor) -> Vec<Command> {
        let Some(plans) = &self.plans else { return Vec::new() };
        let legacy = editor.config.legacy;
        let describe = |c: &terminal_core::planner::Candidate| crate::app::viewer::describe_groups(c, legacy);
        let Some(attack_try) = plans.frontier_try(i, describe) else { return Vec::new() };
        let attacker = plans.seat.opponent();
        vec![Command::Studio(StudioCommand::RunAttackTry { attacker, attack_try: Box::new(attack_try) })]
    }

    /// The suggestion's strongest reply at level `i`, before or after its changes, run in the
    /// Debugger against the layout it was found on.
    fn open_reply(&mut self, i: usize, after: bool) -> Vec<Command> {
        let Some(s) = &self.suggestion else { return Vec::new() };
        let Some(report) = &s.suggestion.planner else { return Vec::new() };
        let Some(attack_try) = report.what_if(i, after) else {
            self.message = "That level has no reply: the MP buys nothing against this layout".into();
            return Vec::new();
        };
        let attacker = s.seat.opponent();
        vec![Command::Studio(StudioCommand::RunAttackTry { attacker, attack_try: Box::new(attack_try) })]
    }

    /// A search of the layout is running.
    pub fn is_planning(&self) -> bool {
        self.plans_job.is_some()
    }

    /// The last search of the layout.
    pub fn plans(&self) -> Option<&LayoutPlans> {
        self.plans.as_ref()
    }

    /// Step `i` as an edit of the seat it was suggested for, one undo step; refused when the
    /// layout is no longer the one the step was weighed on.
    fn accept(&mut self, i: usize, editor: &Editor) -> Vec<Command> {
        let Some(s) = self.suggestion.as_mut().filter(|s| i < s.suggestion.steps.len()) else { return Vec::new() };
        if s.expected != editor.layout {
            self.message = "Not accepted: the layout changed since these suggestions were made. Suggest again.".into();
            return Vec::new();
        }
        let step = s.suggestion.steps.remove(i);
        let edit = match step.change {
            Change::Place { tile, kind } => Edit::Place(tile, kind),
            Change::Upgrade { tile } => Edit::Upgrade(tile),
            Change::Remove { tile } => Edit::Erase(tile),
        };
        let before = s.expected.clone();
        edit.apply_to(&mut s.expected, s.seat);
        let after = s.expected.clone();
        self.message = format!("Accepted: {} ({:+.0} % HP lost); Undo puts it back", step.label, step.percent());
        s.accepted.push(Accepted { index: i, step, before, after });
        s.undone.clear();
        [
            EditorCommand::SetPlayer(s.seat),
            EditorCommand::BeginStroke,
            EditorCommand::Edit(edit),
            EditorCommand::EndStroke,
        ]
        .map(Command::Editor)
        .to_vec()
    }

    /// The attack as the lab ran it, as a what-if try in the Debugger: the same start game
    /// and deploy, HP counted without limit, so the try shows the row's figures.
    fn open_attack(&mut self, i: usize) -> Vec<Command> {
        let Some(run) = self.run.as_ref() else { return Vec::new() };
        let Some(attack) = run.attacks.attacks.get(i) else { return Vec::new() };
        let defence = Defence::from_layout(&run.layout, run.seat, attack.config());
        let attack_try = attack.what_if_try(&defence, HpModel::Unlimited);
        vec![Command::Studio(StudioCommand::OpenAttackWhatIf {
            replay: attack.replay.to_path_buf(),
            turn: attack.turn,
            attacker: attack.attacker,
            attack_try: Box::new(attack_try),
        })]
    }

    /// Whether the suggestion's remaining steps were weighed on the editor's layout as it is.
    pub fn suggestion_applies(&self, editor: &Editor) -> bool {
        self.suggestion.as_ref().is_some_and(|s| s.expected == editor.layout)
    }

    /// The tiles of the current suggestion's steps.
    pub fn suggested_tiles(&self) -> impl Iterator<Item = (Tile, &Step)> {
        self.suggestion.iter().flat_map(|s| s.suggestion.steps.iter().map(|st| (st.change.tile(), st)))
    }
}

/// "5, 10, 15 and 20".
fn mp_list() -> String {
    let mp: Vec<String> = PLANNED_MP.iter().map(|m| format!("{m:.0}")).collect();
    let (last, rest) = mp.split_last().map_or((String::new(), &[][..]), |(l, r)| (l.clone(), r));
    format!("{} and {last}", rest.join(", "))
}

/// The run's totals in one line.
fn totals_message(report: &StressReport) -> String {
    let t = &report.totals;
    format!(
        "{} attacks: {} breached, {:.0} HP lost, {} of {} attackers destroyed, {} structures lost ({:.1} SP)",
        t.attacks,
        t.attacks_breached,
        t.hp_lost,
        t.attackers_destroyed,
        t.attackers_spawned,
        t.structures_lost,
        t.sp_lost
    )
}
