//! How far a background search is, in the words its panel shows: what it is doing, and n of N.

use terminal_core::planner::PlanProgress;

/// One step of a long job: "10 MP (2 of 4), pairs: 300 of 1,200 deploys".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobProgress {
    /// What the job is doing now, without the counts.
    pub doing: String,
    pub done: usize,
    pub total: usize,
    /// What is counted ("deploys", "MP levels").
    pub unit: &'static str,
}

impl JobProgress {
    /// A planner search's stage: "pairs: 300 of 1200 deploys".
    pub fn of_plan(p: PlanProgress) -> JobProgress {
        let stage = ["singles", "pairs", "triples"].get(p.stage.saturating_sub(1)).copied().unwrap_or("deploys");
        JobProgress { doing: stage.into(), done: p.done, total: p.total, unit: "deploys" }
    }

    /// The cost-to-break chart's search: `done` of `total` MP levels.
    pub fn of_frontier(done: usize, total: usize) -> JobProgress {
        JobProgress { doing: "cost to break it".into(), done, total, unit: "MP levels" }
    }

    /// The same step within a larger whole: "10 MP (2 of 4), pairs: …".
    #[must_use]
    pub fn within(mut self, whole: &str) -> JobProgress {
        self.doing = format!("{whole}, {}", self.doing);
        self
    }

    pub fn text(&self) -> String {
        format!("{}: {} of {} {}", self.doing, self.done, self.total, self.unit)
    }

    pub fn fraction(&self) -> f32 {
        self.done as f32 / self.total.max(1) as f32
    }

    /// The bar with its text.
    pub fn show(&self, ui: &mut egui::Ui) {
        bar(ui, self.fraction(), self.text());
    }
}

/// A progress bar with `text` inside when it fits the panel's width, else with its percent
/// inside and the text wrapped below it: a narrow panel must not cut the words off.
pub fn bar(ui: &mut egui::Ui, fraction: f32, text: String) {
    let font = egui::TextStyle::Button.resolve(ui.style());
    let width = ui.painter().layout_no_wrap(text.clone(), font, egui::Color32::WHITE).size().x;
    // The bar pads its text on both sides.
    if width + 2.0 * ui.spacing().button_padding.x <= ui.available_width() {
        ui.add(egui::ProgressBar::new(fraction).text(text));
    } else {
        ui.add(egui::ProgressBar::new(fraction).show_percentage());
        ui.label(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_stage_reads_as_its_name_and_counts_within_its_whole() {
        let p = JobProgress::of_plan(PlanProgress { stage: 2, done: 300, total: 1200 }).within("10 MP (2 of 4)");
        assert_eq!(p.text(), "10 MP (2 of 4), pairs: 300 of 1200 deploys");
        assert!((p.fraction() - 0.25).abs() < 1e-6);
        assert_eq!(JobProgress::of_frontier(3, 39).text(), "cost to break it: 3 of 39 MP levels");
        assert_eq!(JobProgress::of_frontier(0, 0).fraction(), 0.0);
    }
}
