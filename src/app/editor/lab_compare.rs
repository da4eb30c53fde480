//! Two layouts over the same attacks, attack by attack: the current run against the run
//! before it (another layout, or the same layout for the other seat, over the same folder
//! and ruleset). The attacks where they differ, most different first; the difference on the
//! board is drawn by `lab_board`.

use super::lab_state::{LabAction, LabRun, LabState};
use egui::{RichText, Ui};

/// One attack whose HP lost differs between the two runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttackDifference {
    /// The attack's index in both runs' attack set.
    pub index: usize,
    pub hp_before: f32,
    pub hp_now: f32,
    pub lost_before: u32,
    pub lost_now: u32,
}

impl AttackDifference {
    /// HP lost now minus before: negative when the current layout does better.
    pub fn hp_change(&self) -> f32 {
        self.hp_now - self.hp_before
    }
}

/// The attacks where the two runs differ (HP lost or structures lost), the largest change
/// in HP first, then in structures lost. Empty when the runs are not over the same attacks.
pub fn differences(before: &LabRun, now: &LabRun) -> Vec<AttackDifference> {
    let (a, b) = (&before.report.outcomes, &now.report.outcomes);
    if before.key != now.key || a.len() != b.len() {
        return Vec::new();
    }
    let mut out: Vec<AttackDifference> = a
        .iter()
        .zip(b)
        .enumerate()
        .filter(|(_, (x, y))| x.hp_lost != y.hp_lost || x.structures_lost != y.structures_lost)
        .map(|(index, (x, y))| AttackDifference {
            index,
            hp_before: x.hp_lost,
            hp_now: y.hp_lost,
            lost_before: x.structures_lost,
            lost_now: y.structures_lost,
        })
        .collect();
    out.sort_by(|x, y| {
        let lost = |d: &AttackDifference| (d.lost_now as i64 - d.lost_before as i64).abs();
        y.hp_change().abs().total_cmp(&x.hp_change().abs()).then(lost(y).cmp(&lost(x))).then(x.index.cmp(&y.index))
    });
    out
}

impl LabState {
    /// The comparison with the run before, when both are over the same attacks.
    pub(super) fn compare_section(&mut self, ui: &mut Ui) -> Vec<LabAction> {
        let mut out = Vec::new();
        let (Some(before), Some(now)) = (self.compared(), self.run()) else { return out };
        let diffs = differences(before, now);
        let (tb, tn) = (&before.report.totals, &now.report.totals);
        ui.separator();
        ui.label(RichText::new(format!("Compared with {} (player {})", before.name(), before.seat.number())).strong());
        ui.label(format!(
            "Same {} attacks: HP lost {:.0} then {:.0}, structures lost {} then {}",
            tn.attacks, tb.hp_lost, tn.hp_lost, tb.structures_lost, tn.structures_lost
        ));
        let better = diffs.iter().filter(|d| d.hp_change() < 0.0).count();
        let worse = diffs.iter().filter(|d| d.hp_change() > 0.0).count();
        ui.label(format!("{} attacks differ: {better} lose less HP now, {worse} more", diffs.len()));
        let mut show = self.show_difference;
        ui.checkbox(&mut show, "Difference on the board (green: better now)");
        for d in diffs.iter().take(8) {
            let Some(a) = now.attacks.attacks.get(d.index) else { continue };
            let text = format!(
                "turn {}: HP lost {:.0}, now {:.0}; structures {}, now {}\n{}",
                a.turn,
                d.hp_before,
                d.hp_now,
                d.lost_before,
                d.lost_now,
                a.file_name().trim_end_matches(".gz").trim_end_matches(".replay")
            );
            let hint = "Open this attack in the Debugger against the current layout";
            if ui.add(egui::Button::new(text).wrap()).on_hover_text(hint).clicked() {
                out.push(LabAction::OpenAttack(d.index));
            }
        }
        self.show_difference = show;
        out
    }
}
