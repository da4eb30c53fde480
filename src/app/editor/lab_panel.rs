//! The Layout lab in the editor: where the attacks come from, Run / Suggest / Cancel with
//! live progress, the totals (and the change from the last run: two layouts compared over
//! the same attacks), the worst attacks (each opens at its turn in the Debugger), the
//! suggested changes (each shown faded on the board with its gain, accepted with a click as
//! an undoable edit), and the heatmap on the board.

use super::Editor;
use super::lab::{self, LabError, LabJob, LabRequest, LabResult};
use crate::app::board::BoardFrame;
use crate::app::command::{Command, EditorCommand, StudioCommand};
use crate::app::model::Edit;
use egui::{Color32, RichText, Stroke, Ui};
use std::path::PathBuf;
use std::sync::Arc;
use terminal_core::engine::geometry::{Player, Tile, all_tiles};
use terminal_core::layout::stress::{AttackSet, StressReport, Totals};
use terminal_core::layout::suggest::{Change, Suggestion};

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
    /// Open the worst attack `i` (index in the attack set) in the Debugger at its turn.
    OpenAttack(usize),
}

/// The lab's state (runtime: the attack folder is offered again each run).
pub struct LabState {
    pub folder: String,
    pub budget: String,
    pub heatmap: bool,
    job: Option<LabJob>,
    /// Attacks read, by the folder and ruleset they were read for.
    attacks: Option<(PathBuf, String, Arc<AttackSet>)>,
    /// The folder and ruleset of the running job: its attacks are kept under them.
    job_key: Option<(PathBuf, String)>,
    report: Option<StressReport>,
    /// The layout the report was run on.
    report_layout: Option<terminal_core::layout::Layout>,
    /// The totals of the run before the last one (comparing two layouts).
    previous: Option<Totals>,
    suggestion: Option<Suggestion>,
    /// The seat the layout under test was drawn for.
    seat: Player,
    pub message: String,
}

impl Default for LabState {
    fn default() -> Self {
        LabState {
            folder: String::new(),
            budget: "10".into(),
            heatmap: true,
            job: None,
            attacks: None,
            job_key: None,
            report: None,
            report_layout: None,
            previous: None,
            suggestion: None,
            seat: Player::One,
            message: String::new(),
        }
    }
}

impl LabState {
    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    pub fn report(&self) -> Option<&StressReport> {
        self.report.as_ref()
    }

    /// A run or a suggestion to show on the board.
    pub fn has_results(&self) -> bool {
        self.report.is_some() || self.suggestion.as_ref().is_some_and(|s| !s.steps.is_empty())
    }

    /// The button text of attack `i` in the worst list: turn, harm, and the replay's name
    /// shortened (the whole name is in its tooltip).
    pub fn attack_label(&self, i: usize) -> Option<String> {
        let (_, _, set) = self.attacks.as_ref()?;
        let a = set.attacks.get(i)?;
        let o = self.report.as_ref()?.outcomes.get(i)?;
        let name = a.file_name();
        let stem = name.trim_end_matches(".gz").trim_end_matches(".replay");
        let short: String = stem.chars().rev().take(14).collect::<Vec<_>>().into_iter().rev().collect();
        let dots = if short.len() < stem.len() { "…" } else { "" };
        Some(format!("turn {}: -{:.0} HP, {} lost ({dots}{short})", a.turn, o.hp_lost, o.structures_lost))
    }

    /// Attack `i` of the set last read.
    pub fn attack(&self, i: usize) -> Option<&terminal_core::layout::stress::Attack> {
        self.attacks.as_ref().and_then(|(_, _, set)| set.attacks.get(i))
    }

    pub fn suggestion(&self) -> Option<&Suggestion> {
        self.suggestion.as_ref()
    }

    /// The folder offered at first: the shared corpus's folder of the ruleset, if it is there.
    fn default_folder(ruleset: &str) -> String {
        let shared = PathBuf::from("..").join("shared").join("replays").join(ruleset);
        if shared.is_dir() { shared.display().to_string() } else { "replays".into() }
    }

    /// Takes a finished job's result.
    pub fn poll(&mut self) {
        let Some(result) = self.job.as_ref().and_then(|j| j.poll()) else { return };
        self.job = None;
        match result {
            Ok(LabResult::Report { attacks, report, layout }) => {
                self.report_layout = Some(layout);
                self.keep_attacks(attacks);
                self.previous = self.report.as_ref().map(|r| r.totals);
                let t = &report.totals;
                self.message = format!(
                    "{} attacks: {} breached, {:.0} HP lost, {} of {} attackers destroyed, {} structures lost ({:.1} SP)",
                    t.attacks,
                    t.attacks_breached,
                    t.hp_lost,
                    t.attackers_destroyed,
                    t.attackers_spawned,
                    t.structures_lost,
                    t.sp_lost
                );
                self.report = Some(report);
            }
            Ok(LabResult::Suggestion { attacks, suggestion }) => {
                self.keep_attacks(attacks);
                self.message = match suggestion.steps.len() {
                    0 => "No change within the budget lowers the HP lost".into(),
                    n => format!(
                        "{n} suggested changes: HP lost from {:.0} to {:.0} over {} attacks, {:.1} SP",
                        suggestion.hp_lost_before, suggestion.hp_lost_after, suggestion.attacks, suggestion.spent
                    ),
                };
                self.suggestion = Some(suggestion);
            }
            Err(e) => {
                self.job_key = None;
                self.message = format!("Layout lab: {e}");
            }
        }
    }

    fn keep_attacks(&mut self, attacks: Arc<AttackSet>) {
        if let Some((folder, ruleset)) = self.job_key.take() {
            self.attacks = Some((folder, ruleset, attacks));
        }
    }

    /// Starts a run or a suggestion on the editor's layout, for its active player's seat.
    fn start(&mut self, editor: &Editor, ruleset: &str, budget: Option<f32>, window: Option<&egui::Context>) {
        if self.job.is_some() {
            self.message = "The lab is already running: Cancel first".into();
            return;
        }
        let folder = PathBuf::from(self.folder.trim());
        let cached = match &self.attacks {
            Some((f, r, set)) if *f == folder && r == ruleset => Some(Arc::clone(set)),
            _ => None,
        };
        // The next run reuses what this one reads.
        self.job_key = Some((folder.clone(), ruleset.to_string()));
        self.seat = editor.player;
        let request = LabRequest {
            folder,
            layout: editor.layout.clone(),
            seat: editor.player,
            config: Arc::new(editor.config.clone()),
            cached,
            budget,
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
            LabAction::Accept(i) => return self.accept(i),
            LabAction::Reject(i) => {
                if let Some(s) = self.suggestion.as_mut().filter(|s| i < s.steps.len()) {
                    s.steps.remove(i);
                }
            }
            LabAction::OpenAttack(i) => return self.open_attack(i),
        }
        Vec::new()
    }

    /// Step `i` as an edit of the seat it was suggested for, one undo step.
    fn accept(&mut self, i: usize) -> Vec<Command> {
        let Some(s) = self.suggestion.as_mut().filter(|s| i < s.steps.len()) else { return Vec::new() };
        let step = s.steps.remove(i);
        let edit = match step.change {
            Change::Place { tile, kind } => Edit::Place(tile, kind),
            Change::Upgrade { tile } => Edit::Upgrade(tile),
            Change::Remove { tile } => Edit::Erase(tile),
        };
        self.message = format!("Accepted: {} ({:+.0} % HP lost)", step.label, step.percent());
        [
            EditorCommand::SetPlayer(self.seat),
            EditorCommand::BeginStroke,
            EditorCommand::Edit(edit),
            EditorCommand::EndStroke,
        ]
        .map(Command::Editor)
        .to_vec()
    }

    /// The attack as a what-if in the Debugger, the tested layout in the defender's half
    /// (turned into that seat when the layout is the other seat's).
    fn open_attack(&mut self, i: usize) -> Vec<Command> {
        let (Some(attack), Some(layout)) = (self.attack(i), self.report_layout.as_ref()) else { return Vec::new() };
        let defender = attack.defender();
        let mut defence = terminal_core::layout::Layout { name: layout.name.clone(), ..Default::default() };
        let turned = |t: Tile| if defender == self.seat { t } else { t.rotated() };
        defence.structures.extend(layout.of(self.seat).map(|(t, s)| (turned(t), *s)));
        vec![Command::Studio(StudioCommand::OpenAttackWhatIf {
            replay: attack.replay.clone(),
            turn: attack.turn,
            defender,
            defence: Box::new(defence),
        })]
    }

    /// The lab's section of the editor's right panel.
    pub fn show(&mut self, ui: &mut Ui, ruleset: &str) -> Vec<LabAction> {
        let mut out = Vec::new();
        if self.folder.is_empty() {
            self.folder = LabState::default_folder(ruleset);
        }
        ui.heading("Layout lab");
        ui.weak("Your layout against every recorded attack of the replays in a folder");
        let label = ui.label("Attacks from");
        ui.add(egui::TextEdit::singleline(&mut self.folder).desired_width(200.0)).labelled_by(label.id);
        ui.horizontal(|ui| {
            let idle = self.job.is_none();
            if ui.add_enabled(idle, egui::Button::new("Run stress test")).clicked() {
                out.push(LabAction::Run);
            }
            if ui.add_enabled(!idle, egui::Button::new("Cancel")).clicked() {
                out.push(LabAction::Cancel);
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Budget (SP)");
            ui.add(egui::TextEdit::singleline(&mut self.budget).desired_width(40.0)).labelled_by(label.id);
            if ui.add_enabled(self.job.is_none(), egui::Button::new("Suggest")).clicked() {
                out.push(LabAction::Suggest);
            }
        });
        if let Some(job) = &self.job {
            let (done, total) = job.progress();
            let frac = if total > 0 { done as f32 / total as f32 } else { 0.0 };
            ui.add(egui::ProgressBar::new(frac).text(format!("{}: {done}/{total}", job.what)));
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
        }
        if !self.message.is_empty() {
            ui.label(&self.message);
        }
        out.extend(self.report_section(ui));
        out.extend(self.suggestion_section(ui));
        out
    }

    fn report_section(&mut self, ui: &mut Ui) -> Vec<LabAction> {
        let mut out = Vec::new();
        let Some(report) = &self.report else { return out };
        if let Some(prev) = &self.previous {
            let t = &report.totals;
            ui.label(format!(
                "Against the run before: HP lost {:.0} then {:.0}, structures lost {} then {}",
                prev.hp_lost, t.hp_lost, prev.structures_lost, t.structures_lost
            ));
        }
        ui.checkbox(&mut self.heatmap, "Heatmap on the board");
        ui.label(RichText::new("Worst attacks").strong());
        for i in report.worst(5) {
            let (Some(text), Some(a)) = (self.attack_label(i), self.attack(i)) else { continue };
            let hint = format!("{}: open this turn in the Debugger as a what-if with your layout", a.file_name());
            if ui.button(text).on_hover_text(hint).clicked() {
                out.push(LabAction::OpenAttack(i));
            }
        }
        out
    }

    fn suggestion_section(&mut self, ui: &mut Ui) -> Vec<LabAction> {
        let mut out = Vec::new();
        let Some(s) = &self.suggestion else { return out };
        if s.steps.is_empty() {
            return out;
        }
        ui.label(RichText::new("Suggested (greedy, best HP saved per SP)").strong());
        for (i, step) in s.steps.iter().enumerate() {
            ui.horizontal_wrapped(|ui| {
                ui.label(format!("{}: {:+.0} % HP lost over {} attacks", step.label, step.percent(), s.attacks));
                if ui.small_button("Accept").clicked() {
                    out.push(LabAction::Accept(i));
                }
                if ui.small_button("Reject").clicked() {
                    out.push(LabAction::Reject(i));
                }
            });
        }
        out
    }

    /// The heatmap and the suggested changes on the editor's board.
    pub fn draw(&self, frame: &BoardFrame) {
        if let Some(report) = self.report.as_ref().filter(|_| self.heatmap) {
            let h = &report.heatmap;
            for t in all_tiles() {
                let i = t.index();
                if h.damage_taken[i] > 0.0 {
                    let a = (30.0 + h.damage_taken[i].sqrt() * 4.0).min(160.0) as u8;
                    frame.fill_tile(t, Color32::from_rgba_unmultiplied(200, 40, 200, a));
                }
                if h.attacker_deaths[i] > 0 {
                    frame.tile_label(t, &format!("x{}", h.attacker_deaths[i]), Color32::from_rgb(255, 90, 70));
                }
                if h.breaches[i] > 0 {
                    ring(frame, t, Color32::from_rgb(255, 220, 60));
                    frame.tile_label(t, &h.breaches[i].to_string(), Color32::from_rgb(255, 220, 60));
                }
            }
        }
        if let Some(s) = &self.suggestion {
            for step in &s.steps {
                let t = step.change.tile();
                frame.fill_tile(t, Color32::from_rgba_unmultiplied(120, 220, 120, 70));
                ring(frame, t, Color32::from_rgba_unmultiplied(120, 220, 120, 180));
            }
        }
    }
}

fn ring(frame: &BoardFrame, t: Tile, colour: Color32) {
    let r = frame.geometry.tile_rect(t).shrink(1.0);
    frame.painter.rect_stroke(r, 2.0, Stroke::new(2.0, colour), egui::StrokeKind::Inside);
}
