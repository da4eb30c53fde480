//! The Layout lab's section of the editor's right panel: where the attacks come from, Run /
//! Suggest / Cancel with live progress, the way out of a ruleset mismatch, the totals, the
//! worst attacks (each opens in the Debugger as the lab ran it), the comparison with the run
//! before and the suggested changes. Stale figures say so.

use super::Editor;
use super::lab::folder_holds;
use super::lab_state::{Freshness, LabAction, LabState};
use crate::app::path_field::{PathField, Pick};
use egui::{Color32, RichText, Ui};
use terminal_core::engine::geometry::Tile;
use terminal_core::suggest::{Against, PlannerReport, Suggestion};

const STALE: Color32 = Color32::from_rgb(230, 150, 40);

impl LabState {
    /// The lab's section; `hovered` is the board tile under the pointer (its heat is told).
    pub fn show(&mut self, ui: &mut Ui, editor: &Editor, ruleset: &str, hovered: Option<Tile>) -> Vec<LabAction> {
        let mut out = Vec::new();
        ui.heading("Layout lab");
        ui.weak("Your layout against every recorded attack of the replays in a folder");
        let label = ui.label("Attacks from");
        if let Some((what, _)) = &self.selection {
            ui.horizontal(|ui| {
                ui.strong(what.as_str());
                if ui.button("Use the folder").on_hover_text(self.folder.as_str()).clicked() {
                    out.push(LabAction::UseFolder);
                }
            });
        } else {
            PathField::new(&mut self.folder, Pick::Folder).labelled_by(label.id, "The folder of the attacks").show(ui);
        }
        ui.checkbox(&mut self.any_ruleset, format!("Also other rulesets' attacks, run under {ruleset}"));
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
            ui.label("Against");
            for against in Against::ALL {
                ui.radio_value(&mut self.against, against, against.label());
            }
        });
        if self.against.planner() {
            ui.horizontal(|ui| {
                let label = ui.label("MP levels");
                let hint = "The attacker's MP at which the planner answers: 5,10,15 or a range 5-30 (every 5 MP)";
                ui.add(egui::TextEdit::singleline(&mut self.mp_schedule).desired_width(90.0))
                    .labelled_by(label.id)
                    .on_hover_text(hint);
            });
        }
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
            crate::app::job_progress::bar(ui, frac, job.progress_text());
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
        }
        if !self.message.is_empty() {
            ui.label(&self.message);
        }
        out.extend(self.mismatch_section(ui, ruleset));
        out.extend(self.report_section(ui, editor, ruleset, hovered));
        out.extend(self.plans_section(ui, editor));
        out.extend(self.compare_section(ui));
        out.extend(self.suggestion_section(ui, editor));
        out
    }

    /// A folder without attacks of the studio's ruleset: what it holds, and both ways out.
    fn mismatch_section(&self, ui: &mut Ui, ruleset: &str) -> Vec<LabAction> {
        let mut out = Vec::new();
        let Some(rulesets) = &self.mismatch else { return out };
        let total = rulesets.iter().map(|(_, n)| n).sum();
        ui.label(RichText::new(folder_holds(total, rulesets)).color(STALE));
        for (r, _) in rulesets.iter().filter(|(r, _)| r != ruleset).take(3) {
            let hint =
                "The studio's ruleset becomes this one (the editor's costs and health with it), then the lab runs";
            if ui.button(format!("Switch the studio to {r} and run")).on_hover_text(hint).clicked() {
                out.push(LabAction::SwitchRulesetAndRun(r.clone()));
            }
        }
        let hint = "The recorded spawns are kept; the attackers' resources are topped up to afford them";
        if ui.button(format!("Run these attacks under {ruleset}")).on_hover_text(hint).clicked() {
            out.push(LabAction::RunAnyRuleset);
        }
        out
    }

    fn report_section(&mut self, ui: &mut Ui, editor: &Editor, ruleset: &str, hovered: Option<Tile>) -> Vec<LabAction> {
        let mut out = Vec::new();
        let freshness = self.freshness(editor, ruleset);
        let Some(run) = &self.run else { return out };
        ui.separator();
        ui.label(RichText::new(format!("Run on {} (player {})", run.name(), run.seat.number())).strong());
        if let Some(warning) = freshness.warning() {
            ui.label(RichText::new(warning).color(STALE));
        }
        ui.checkbox(&mut self.heatmap, "Heatmap on the board");
        if freshness == Freshness::Fresh
            && let Some(t) = hovered
        {
            ui.label(super::lab_board::tile_heat(&run.report, t));
        }
        ui.label(RichText::new("Worst attacks").strong());
        let worst: Vec<usize> = run.report.worst(5).collect();
        for i in worst {
            let (Some(text), Some(a)) = (self.attack_label(i), self.attack(i)) else { continue };
            let hint = format!("{}: open this turn in the Debugger, run as the lab ran it", a.file_name());
            let button = egui::Button::new(text).wrap();
            if ui.add(button).on_hover_text(hint).clicked() {
                out.push(LabAction::OpenAttack(i));
            }
        }
        out
    }

    /// "Attack this layout": the strongest searched attack at each MP (the worst recorded
    /// ones are above), each opening in the Debugger as a what-if.
    fn plans_section(&self, ui: &mut Ui, editor: &Editor) -> Vec<LabAction> {
        let mut out = Vec::new();
        ui.separator();
        let attacker = editor.player.opponent().number();
        ui.horizontal(|ui| {
            let hint = format!("The attack planner against this layout, player {attacker} attacking");
            let idle = !self.is_planning();
            if ui.add_enabled(idle, egui::Button::new("Attack this layout")).on_hover_text(hint).clicked() {
                out.push(LabAction::PlanAttacks);
            }
            if !idle {
                if ui.button("Stop attacking").clicked() {
                    out.push(LabAction::StopPlanning);
                }
                ui.spinner();
                ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
            }
        });
        if let Some(progress) = self.plans_job.as_ref().and_then(|job| job.progress()) {
            progress.show(ui);
        }
        let Some(plans) = &self.plans else { return out };
        if plans.layout != editor.layout || plans.seat != editor.player {
            let stale = "Stale: searched on another layout or seat (Attack this layout again)";
            ui.label(RichText::new(stale).color(STALE));
        }
        ui.label(RichText::new("Worst searched attacks").strong());
        let legacy = editor.config.legacy;
        for (row, planned) in plans.by_mp.iter().enumerate() {
            let Some(best) = planned.best.first() else {
                ui.label(format!("{:.0} MP: nothing to deploy", planned.mp));
                continue;
            };
            let hp = if best.breaches == 0 { "no HP".to_string() } else { format!("−{:.0} HP", best.damage) };
            let text = format!(
                "{:.0} MP: {hp} ({} breaches), {} structures lost ({:.1} SP)\n{}",
                planned.mp,
                best.breaches,
                best.structures_destroyed,
                best.sp_destroyed,
                crate::app::viewer::describe_groups(best, legacy)
            );
            let hint = "Open it in the Debugger as a what-if against this layout";
            if ui.add(egui::Button::new(text).wrap()).on_hover_text(hint).clicked() {
                out.push(LabAction::OpenPlanned(row, 0));
            }
        }
        if let Some(i) = crate::app::viewer::frontier_chart(ui, "lab-frontier", &plans.frontier) {
            out.push(LabAction::OpenFrontier(i));
        }
        out
    }

    fn suggestion_section(&mut self, ui: &mut Ui, editor: &Editor) -> Vec<LabAction> {
        let mut out = Vec::new();
        let Some(s) = &self.suggestion else { return out };
        if let Some(report) = &s.suggestion.planner {
            ui.separator();
            out.extend(before_after_table(ui, &s.suggestion, report));
        }
        if s.suggestion.steps.is_empty() {
            return out;
        }
        ui.separator();
        ui.label(RichText::new("Suggested (greedy, best HP saved per SP)").strong());
        if !self.suggestion_applies(editor) {
            let stale = "Stale: the layout changed since these were suggested (Undo back, or Suggest again)";
            ui.label(RichText::new(stale).color(STALE));
        }
        for (i, step) in s.suggestion.steps.iter().enumerate() {
            ui.horizontal_wrapped(|ui| {
                let attacks = s.suggestion.attacks;
                let recorded = format!("{:+.0} % HP lost over {attacks} attacks", step.percent());
                let planner = format!("replies {:.0} to {:.0} HP", step.planner_before, step.planner_after);
                let what = match s.suggestion.against {
                    Against::Recorded => recorded,
                    Against::Planner => planner,
                    Against::Both => format!("{recorded}, {planner}"),
                };
                let prepares = if step.prepares { " (prepares the next)" } else { "" };
                ui.label(format!("{}: {what}{prepares}", step.label));
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
}

/// The planner's strongest reply at each MP level before and after the suggestion (HP damage
/// and SP destroyed), and the recorded attacks' HP lost when they were weighed too. Each
/// reply opens in the Debugger from its row's *before* or *after* button. Narrow enough for
/// the lab's panel at 1000×700.
fn before_after_table(ui: &mut Ui, s: &Suggestion, report: &PlannerReport) -> Vec<LabAction> {
    let mut out = Vec::new();
    ui.label(RichText::new("Strongest attack at each MP, before and after").strong());
    egui::Grid::new("lab-suggest-before-after").striped(true).show(ui, |ui| {
        for head in ["MP", "HP taken", "SP destroyed", "open as a what-if"] {
            ui.strong(head);
        }
        ui.end_row();
        for (i, level) in report.levels.iter().enumerate() {
            let ((hb, sb), (ha, sa)) = (level.figures(false), level.figures(true));
            ui.label(format!("{} MP", level.mp));
            ui.label(format!("{hb:.0} to {ha:.0} HP"));
            ui.label(format!("{sb:.1} to {sa:.1} SP"));
            ui.horizontal(|ui| {
                if reply_button(ui, level.before.is_some(), "before") {
                    out.push(LabAction::OpenReply(i, false));
                }
                if reply_button(ui, level.after.is_some(), "after") {
                    out.push(LabAction::OpenReply(i, true));
                }
            });
            ui.end_row();
        }
    });
    ui.label(format!(
        "In all: {:.0} to {:.0} HP ({} candidates searched again by the planner)",
        report.damage_sum(false),
        report.damage_sum(true),
        report.researched
    ));
    if s.against.recorded() {
        ui.label(format!(
            "Recorded attacks: {:.0} to {:.0} HP lost over {}",
            s.hp_lost_before, s.hp_lost_after, s.attacks
        ));
    }
    if s.against == Against::Both {
        let why = "so that the planner's few replies weigh as much as the recorded attacks in all";
        ui.label(format!("Each reply counted as {:.0} recorded attacks", s.reply_weight)).on_hover_text(why);
    }
    out
}

/// A reply's button; disabled on a level whose MP buys nothing (it has no reply), so that
/// every row has both.
fn reply_button(ui: &mut Ui, has_reply: bool, text: &str) -> bool {
    let hint = "Open this attack in the Debugger as a what-if against the layout";
    let button = ui.add_enabled(has_reply, egui::Button::new(text).small());
    button.on_hover_text(hint).on_disabled_hover_text("This MP buys no attack").clicked()
}
