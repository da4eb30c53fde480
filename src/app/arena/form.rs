//! The Arena form as kept between runs: the algos and every field a player sets once and
//! reuses (games, jobs, limits, ruleset, output folder, format, SPRT, seed). `resume` is not
//! kept: continuing a run is decided each time.

use super::ArenaTab;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ArenaForm {
    pub algos: Vec<PathBuf>,
    pub games: String,
    pub jobs: String,
    pub soft_ms: String,
    pub max_ms: String,
    /// Empty: the studio's ruleset.
    pub ruleset: String,
    pub out: String,
    pub gauntlet: bool,
    pub baseline: usize,
    pub sprt: bool,
    pub sprt_params: String,
    pub seed: String,
}

impl ArenaTab {
    pub fn form(&self) -> ArenaForm {
        ArenaForm {
            algos: self.algos.clone(),
            games: self.games_text.clone(),
            jobs: self.jobs_text.clone(),
            soft_ms: self.soft_ms_text.clone(),
            max_ms: self.max_ms_text.clone(),
            ruleset: self.ruleset.clone(),
            out: self.out_text.clone(),
            gauntlet: self.gauntlet,
            baseline: self.baseline,
            sprt: self.sprt,
            sprt_params: self.sprt_text.clone(),
            seed: self.seed_text.clone(),
        }
    }

    /// Fills the form from a kept one; empty fields keep the fresh form's defaults (a form
    /// kept before a field existed).
    pub fn set_form(&mut self, f: ArenaForm) {
        let keep = |field: &mut String, kept: String| {
            if !kept.trim().is_empty() {
                *field = kept;
            }
        };
        keep(&mut self.games_text, f.games);
        keep(&mut self.jobs_text, f.jobs);
        keep(&mut self.ruleset, f.ruleset);
        keep(&mut self.sprt_text, f.sprt_params);
        keep(&mut self.seed_text, f.seed);
        // Empty is meaningful here (the ruleset's limits, a fresh folder).
        self.soft_ms_text = f.soft_ms;
        self.max_ms_text = f.max_ms;
        self.out_text = f.out;
        self.algos = f.algos;
        self.gauntlet = f.gauntlet;
        self.baseline = f.baseline.min(self.algos.len().saturating_sub(1));
        self.sprt = f.sprt;
    }
}
