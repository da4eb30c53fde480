//! The Arena form, kept between runs: the algos and every field a player sets once and
//! reuses (games, jobs, limits, ruleset, output folder, format, SPRT, seed). The form's
//! widgets edit it in place; `resume` is not part of it: continuing a run is decided each time.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use terminal_core::arena::builder::{DEFAULT_GAMES, DEFAULT_SEED};
use terminal_core::arena::ghosts::GhostChoice;
use terminal_core::arena::{ArenaSpec, ArenaSpecError, Opponents, SprtParams, default_jobs};
use terminal_core::engine::geometry::Player;
use terminal_core::runner::Confinement;

/// What is wrong with the form: a field that does not read, or what the arena's builder
/// refuses (in the words of algos, games and rulesets, as the command line says it too).
#[derive(Debug, thiserror::Error)]
pub enum FormError {
    #[error("Games per pairing: a positive number")]
    Games,
    #[error("Jobs: a number (0 = all cores)")]
    Jobs,
    #[error("{0}: milliseconds (a positive number), or empty for the ruleset's")]
    Limit(&'static str),
    #[error("Seed: a whole number")]
    Seed,
    #[error("Gauntlet: pick the baseline")]
    Baseline,
    #[error("Against ghosts: send games from the Library first")]
    NoGhosts,
    #[error("Resume: set the output folder of the arena to continue")]
    ResumeWithoutFolder,
    #[error("Arena not started: {0}")]
    Spec(#[from] ArenaSpecError),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ArenaForm {
    pub(super) algos: Vec<PathBuf>,
    pub(super) games: String,
    pub(super) jobs: String,
    /// Per-turn time limits in ms; empty: the ruleset's.
    pub(super) soft_ms: String,
    pub(super) max_ms: String,
    /// A preset or a config file; empty: the studio's ruleset.
    pub(super) ruleset: String,
    /// Empty: a fresh folder under the app's data dir.
    pub(super) out: String,
    /// Gauntlet: every algo against `baseline` (an index into `algos`) only.
    pub(super) gauntlet: bool,
    pub(super) baseline: usize,
    /// SPRT early stop (two algos) with `sprt_params` = `elo0,elo1,alpha,beta`.
    pub(super) sprt: bool,
    pub(super) sprt_params: String,
    /// Seed of the first pair of games: keep it when resuming, so the remaining games are the
    /// ones the first run planned.
    pub(super) seed: String,
    /// The algos run confined (the default; docs/runner.md, Confinement).
    pub(super) confine: bool,
    /// Games sent from the Library: the algo meets each game's opponent of `me`.
    pub(super) ghosts: Option<GhostSelection>,
    /// Play the algo against `ghosts` (instead of round robin or gauntlet).
    pub(super) vs_ghosts: bool,
}

/// Replays chosen in the Library, whose players the algo meets as ghosts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GhostSelection {
    /// What they are, for the form ("12 games from the Library").
    pub label: String,
    pub files: Vec<PathBuf>,
    /// The player whose opponents become the ghosts (the algo takes this player's seat).
    pub me: String,
    /// `me`'s seat in each file (1 or 2), when the Library knew it from the website's facts;
    /// empty: found by `me`'s name in each replay.
    #[serde(default)]
    pub my_seats: Vec<u8>,
}

impl GhostSelection {
    /// Which player of each replay is the ghost: the opponent of my seat where it is known,
    /// else of the player named `me`.
    pub fn choice(&self) -> GhostChoice {
        if self.my_seats.len() != self.files.len() {
            return GhostChoice::OpponentOf(self.me.clone());
        }
        let ghost_of = |seat: u8| if seat == 1 { Player::Two } else { Player::One };
        GhostChoice::PerReplay(self.files.iter().cloned().zip(self.my_seats.iter().map(|&s| ghost_of(s))).collect())
    }
}

// The builder's defaults, so the form starts where the command line does; jobs show the
// number of cores the builder's 0 stands for.
impl Default for ArenaForm {
    fn default() -> Self {
        ArenaForm {
            algos: Vec::new(),
            games: DEFAULT_GAMES.to_string(),
            jobs: default_jobs().to_string(),
            soft_ms: String::new(),
            max_ms: String::new(),
            ruleset: String::new(),
            out: String::new(),
            gauntlet: false,
            baseline: 0,
            sprt: false,
            sprt_params: SprtParams::default().to_string(),
            seed: DEFAULT_SEED.to_string(),
            confine: Confinement::default().enabled,
            ghosts: None,
            vs_ghosts: false,
        }
    }
}

impl ArenaForm {
    /// The games sent from the Library, if any.
    pub fn ghosts(&self) -> Option<&GhostSelection> {
        self.ghosts.as_ref()
    }

    /// Whether the algo plays the ghosts (rather than the other algos).
    pub fn vs_ghosts(&self) -> bool {
        self.vs_ghosts
    }

    /// The algos' folders (or start scripts), in the list's order.
    pub fn algos(&self) -> &[PathBuf] {
        &self.algos
    }

    /// Games per pairing, as typed.
    pub fn games(&self) -> &str {
        &self.games
    }

    /// Matches at once, as typed (0: one per core).
    pub fn jobs(&self) -> &str {
        &self.jobs
    }

    /// Every algo against the baseline only, and which algo that is.
    pub fn gauntlet(&self) -> Option<usize> {
        self.gauntlet.then_some(self.baseline)
    }

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
    /// folder from `fresh_out` when no output folder is given. Built by the core's builder,
    /// as the command line builds its arenas.
    pub fn to_spec(&self, resume: bool, fresh_out: fn() -> PathBuf) -> Result<BuiltForm, FormError> {
        let games: u32 = self.games.trim().parse().ok().filter(|g| *g > 0).ok_or(FormError::Games)?;
        let jobs: usize = self.jobs.trim().parse().map_err(|_| FormError::Jobs)?;
        let soft_ms = limit(&self.soft_ms, "Soft limit")?;
        let max_ms = limit(&self.max_ms, "Hard limit")?;
        let seed = self.seed.trim().parse::<u64>().map_err(|_| FormError::Seed)?;
        let opponents = match (self.vs_ghosts, self.gauntlet) {
            (true, _) => {
                let g = self.ghosts.as_ref().ok_or(FormError::NoGhosts)?;
                Opponents::Ghosts { replays: g.files.clone(), choice: g.choice() }
            }
            (false, true) if self.baseline >= self.algos.len() => return Err(FormError::Baseline),
            (false, true) => Opponents::Gauntlet { baseline: self.baseline },
            (false, false) => Opponents::RoundRobin,
        };
        if resume && self.out.trim().is_empty() {
            return Err(FormError::ResumeWithoutFolder);
        }
        let out = if self.out.trim().is_empty() { fresh_out() } else { PathBuf::from(self.out.trim()) };
        // Against ghosts, every game keeps its replay's ruleset.
        let ruleset = Some(self.ruleset.trim().to_string()).filter(|r| !r.is_empty() && !self.vs_ghosts);
        let built = ArenaSpec::builder(self.algos.clone(), out)
            .opponents(opponents)
            .games(games)
            .seed(seed)
            .jobs(jobs)
            .ruleset(ruleset)
            .resume(resume)
            .soft_ms(soft_ms)
            .max_ms(max_ms)
            .sprt((self.sprt && !self.vs_ghosts).then(|| self.sprt_params.clone()))
            .confine(if self.confine { Confinement::default() } else { Confinement::off() })
            .build()?;
        let order = built.spec.plan.entrants.iter().map(|e| e.label.clone()).collect();
        let me = self.ghosts.as_ref().filter(|_| self.vs_ghosts).map(|g| g.me.clone()).unwrap_or_default();
        Ok(BuiltForm { spec: built.spec, order, ghosts: GhostRun { games: built.ghost_games, me } })
    }
}

/// The arena a form describes, and what its results are read with.
pub struct BuiltForm {
    pub spec: ArenaSpec,
    /// The entrants' labels in the form's order.
    pub order: Vec<String>,
    pub ghosts: GhostRun,
}

/// The games of a run against ghosts (none otherwise), each with what the recorded player in
/// the algo's seat did, and that player's name.
#[derive(Clone, Debug, Default)]
pub struct GhostRun {
    pub games: Vec<terminal_core::arena::ghosts::GhostGame>,
    pub me: String,
}

/// A per-turn time limit: empty for the ruleset's, else a positive number of milliseconds.
fn limit(text: &str, field: &'static str) -> Result<Option<u64>, FormError> {
    match text.trim() {
        "" => Ok(None),
        t => t.parse::<u64>().ok().filter(|&ms| ms > 0).map(Some).ok_or(FormError::Limit(field)),
    }
}
