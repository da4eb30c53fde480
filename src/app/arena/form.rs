//! The Arena form, kept between runs: the algos and every field a player sets once and
//! reuses (games, jobs, limits, ruleset, output folder, format, SPRT, seed). The form's
//! widgets edit it in place; `resume` is not part of it: continuing a run is decided each time.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use terminal_core::arena::{ArenaSpec, Entrant, Format, Plan, SprtParams, algo_label, default_jobs};
use terminal_core::engine::presets::load_config;

/// What is wrong with the form, in the words of its fields.
#[derive(Debug, thiserror::Error)]
pub enum FormError {
    #[error("Games per pairing: a positive number")]
    Games,
    #[error("Jobs: a number (0 = all cores)")]
    Jobs,
    #[error("Ruleset: {0}")]
    Ruleset(String),
    #[error("{0}: milliseconds (a positive number), or empty for the ruleset's")]
    Limit(&'static str),
    #[error("Seed: a whole number")]
    Seed,
    #[error("Gauntlet: pick the baseline")]
    Baseline,
    #[error("SPRT: only for exactly two algos")]
    SprtAlgos,
    #[error("SPRT: {0}")]
    Sprt(String),
    #[error("Resume: set the output folder of the arena to continue")]
    ResumeWithoutFolder,
    #[error("Arena: {0}")]
    Plan(String),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ArenaForm {
    pub algos: Vec<PathBuf>,
    pub games: String,
    pub jobs: String,
    /// Per-turn time limits in ms; empty: the ruleset's.
    pub soft_ms: String,
    pub max_ms: String,
    /// A preset or a config file; empty: the studio's ruleset.
    pub ruleset: String,
    /// Empty: a fresh folder under the app's data dir.
    pub out: String,
    /// Gauntlet: every algo against `baseline` (an index into `algos`) only.
    pub gauntlet: bool,
    pub baseline: usize,
    /// SPRT early stop (two algos) with `sprt_params` = `elo0,elo1,alpha,beta`.
    pub sprt: bool,
    pub sprt_params: String,
    /// Seed of the first pair of games: keep it when resuming, so the remaining games are the
    /// ones the first run planned.
    pub seed: String,
}

impl Default for ArenaForm {
    fn default() -> Self {
        ArenaForm {
            algos: Vec::new(),
            games: "10".into(),
            jobs: default_jobs().to_string(),
            soft_ms: String::new(),
            max_ms: String::new(),
            ruleset: String::new(),
            out: String::new(),
            gauntlet: false,
            baseline: 0,
            sprt: false,
            sprt_params: "0,100,0.05,0.05".into(),
            seed: "1".into(),
        }
    }
}

impl ArenaForm {
    /// Fields a form kept by an earlier version left empty take the fresh form's values
    /// (empty limits and output folder are meaningful and stay); the baseline stays in range.
    pub fn settle(&mut self) {
        let fresh = ArenaForm::default();
        let keep = |field: &mut String, default: String| {
            if field.trim().is_empty() {
                *field = default;
            }
        };
        keep(&mut self.games, fresh.games);
        keep(&mut self.jobs, fresh.jobs);
        keep(&mut self.sprt_params, fresh.sprt_params);
        keep(&mut self.seed, fresh.seed);
        self.baseline = self.baseline.min(self.algos.len().saturating_sub(1));
    }
}

impl ArenaForm {
    /// The arena the form describes, with the entrants' labels in the form's order; a fresh
    /// folder from `fresh_out` when no output folder is given.
    pub fn to_spec(&self, resume: bool, fresh_out: fn() -> PathBuf) -> Result<(ArenaSpec, Vec<String>), FormError> {
        let games: u32 = self.games.trim().parse().ok().filter(|g| *g > 0).ok_or(FormError::Games)?;
        let jobs: usize = self.jobs.trim().parse().map_err(|_| FormError::Jobs)?;
        let config = load_config(&self.ruleset).map_err(|e| FormError::Ruleset(e.to_string()))?;
        config.check_simulated().map_err(|e| FormError::Ruleset(e.to_string()))?;
        let soft_ms = limit(&self.soft_ms, "Soft limit")?;
        let max_ms = limit(&self.max_ms, "Hard limit")?;
        let seed = self.seed.trim().parse::<u64>().map_err(|_| FormError::Seed)?;
        let format = match self.gauntlet {
            true if self.baseline >= self.algos.len() => return Err(FormError::Baseline),
            true => Format::Gauntlet { baseline: self.baseline },
            false => Format::RoundRobin,
        };
        let sprt = match self.sprt {
            true if self.algos.len() != 2 => return Err(FormError::SprtAlgos),
            true => Some(SprtParams::parse(&self.sprt_params).map_err(|e| FormError::Sprt(e.to_string()))?),
            false => None,
        };
        if resume && self.out.trim().is_empty() {
            return Err(FormError::ResumeWithoutFolder);
        }
        let entrants: Vec<Entrant> =
            self.algos.iter().map(|p| Entrant { label: algo_label(p), path: p.clone() }).collect();
        let order = entrants.iter().map(|e| e.label.clone()).collect();
        let plan = Plan::new(entrants, format, games, seed).map_err(|e| FormError::Plan(e.to_string()))?;
        let out = if self.out.trim().is_empty() { fresh_out() } else { PathBuf::from(self.out.trim()) };
        let mut spec = ArenaSpec::new(plan, Arc::new(config), out);
        spec.jobs = jobs;
        spec.soft_ms = soft_ms;
        spec.max_ms = max_ms;
        spec.sprt = sprt;
        spec.resume = resume;
        Ok((spec, order))
    }
}

/// A per-turn time limit: empty for the ruleset's, else a positive number of milliseconds.
fn limit(text: &str, field: &'static str) -> Result<Option<u64>, FormError> {
    match text.trim() {
        "" => Ok(None),
        t => t.parse::<u64>().ok().filter(|&ms| ms > 0).map(Some).ok_or(FormError::Limit(field)),
    }
}
