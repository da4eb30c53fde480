//! The one way a user's arena settings become an [`ArenaSpec`]: the command line and the
//! studio's Arena tab both fill an [`ArenaBuilder`], and `build` checks everything before a
//! match starts. Its errors speak of algos, games and rulesets, never of a flag or a field,
//! so each front end can show them as they are.

use super::error::{ArenaError, PlanError, SprtParseError};
use super::ghosts::{GhostChoice, GhostGame, Skipped, ghost_games};
use super::plan::{Entrant, Format, Plan};
use super::pool::ArenaSpec;
use super::record::algo_label;
use super::sprt::SprtParams;
use crate::engine::config::{ConfigLoadError, UnsimulatedRules};
use crate::engine::presets::{DEFAULT_PRESET, load_config};
use crate::runner::{Confinement, LocateError, check_algo_arg};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Who the algos play.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Opponents {
    /// Every algo against every other.
    #[default]
    RoundRobin,
    /// Every algo against the one at this index of the algos.
    Gauntlet { baseline: usize },
    /// The one algo against a recorded player of every replay among `replays` (files, or
    /// folders searched recursively), one game each.
    Ghosts { replays: Vec<PathBuf>, choice: GhostChoice },
}

/// Which per-turn time limit an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeLimit {
    Soft,
    Hard,
}

impl std::fmt::Display for TimeLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TimeLimit::Soft => "soft",
            TimeLimit::Hard => "hard",
        })
    }
}

/// Why arena settings cannot make an arena.
#[derive(Debug, thiserror::Error)]
pub enum ArenaSpecError {
    #[error(transparent)]
    Algo(#[from] LocateError),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error("an arena needs at least one game per pairing")]
    NoGames,
    #[error("the {0} time limit per turn must be a positive number of milliseconds")]
    ZeroTimeLimit(TimeLimit),
    #[error("ruleset: {0}")]
    Ruleset(#[from] ConfigLoadError),
    #[error(transparent)]
    Unsimulated(#[from] UnsimulatedRules),
    #[error("SPRT setting: {0}")]
    Sprt(#[from] SprtParseError),
    #[error("an SPRT early stop compares exactly two algos ({given} given)")]
    SprtNeedsTwoAlgos { given: usize },
    #[error("an SPRT early stop compares two algos, not an algo against ghosts")]
    SprtWithGhosts,
    #[error("a gauntlet against ghosts plays exactly one algo ({given} given)")]
    GhostsNeedOneAlgo { given: usize },
    #[error("replays for the ghosts: {0}")]
    GhostReplays(#[source] ArenaError),
    #[error("no replay of {replays} can be played by a ghost")]
    NoPlayableGhosts { replays: String },
}

/// An arena ready to start, and what a gauntlet against ghosts found on the way.
#[derive(Debug, Clone)]
pub struct BuiltArena {
    pub spec: ArenaSpec,
    /// The games against ghosts, for comparing each with its recorded player afterwards
    /// ([`super::ghosts::compare`]); empty unless the opponents are ghosts.
    pub ghost_games: Vec<GhostGame>,
    /// Replays the ghosts could not use, each with the reason.
    pub skipped_replays: Skipped,
}

/// Arena settings as a user gives them; [`ArenaBuilder::build`] checks them.
#[derive(Debug, Clone)]
pub struct ArenaBuilder {
    algos: Vec<PathBuf>,
    out: PathBuf,
    opponents: Opponents,
    games: u32,
    seed: u64,
    ruleset: Option<String>,
    jobs: usize,
    resume: bool,
    soft_ms: Option<u64>,
    max_ms: Option<u64>,
    startup_ms: Option<u64>,
    sprt: Option<String>,
    env: Vec<(String, String)>,
    confine: Confinement,
}

/// Games per pairing unless set.
pub const DEFAULT_GAMES: u32 = 10;
/// The seed of the first pair of games unless set.
pub const DEFAULT_SEED: u64 = 1;

impl ArenaSpec {
    /// Settings for an arena among `algos` (folders or start scripts) writing into `out`:
    /// a round-robin of [`DEFAULT_GAMES`] games per pairing under the default ruleset, on
    /// every core, until a setter says otherwise.
    pub fn builder(algos: impl IntoIterator<Item = PathBuf>, out: impl Into<PathBuf>) -> ArenaBuilder {
        ArenaBuilder {
            algos: algos.into_iter().collect(),
            out: out.into(),
            opponents: Opponents::RoundRobin,
            games: DEFAULT_GAMES,
            seed: DEFAULT_SEED,
            ruleset: None,
            jobs: 0,
            resume: false,
            soft_ms: None,
            max_ms: None,
            startup_ms: None,
            sprt: None,
            env: Vec::new(),
            confine: Confinement::default(),
        }
    }
}

impl ArenaBuilder {
    pub fn opponents(mut self, opponents: Opponents) -> Self {
        self.opponents = opponents;
        self
    }

    /// Games per pairing, rounded up to even so both seat orders are played equally
    /// (ghost games are always one each).
    pub fn games(mut self, games: u32) -> Self {
        self.games = games;
        self
    }

    /// The seed of the first pair of games; games 2k and 2k + 1 get `seed + k`.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// A preset name or a `game-configs.json` file. Without one, the default preset, and a
    /// match against a ghost plays under its replay's own ruleset.
    pub fn ruleset(mut self, ruleset: Option<String>) -> Self {
        self.ruleset = ruleset;
        self
    }

    /// Matches at once; 0 means one per core.
    pub fn jobs(mut self, jobs: usize) -> Self {
        self.jobs = jobs;
        self
    }

    /// Continue the arena already in the output folder, skipping its recorded games.
    /// Without it, a folder that already holds results is refused when the arena starts.
    pub fn resume(mut self, resume: bool) -> Self {
        self.resume = resume;
        self
    }

    /// Per-turn soft limit in ms (the ruleset's `waitTimeBotSoft` when `None`).
    pub fn soft_ms(mut self, ms: Option<u64>) -> Self {
        self.soft_ms = ms;
        self
    }

    /// Per-turn hard limit in ms (the ruleset's `waitTimeBotMax` when `None`).
    pub fn max_ms(mut self, ms: Option<u64>) -> Self {
        self.max_ms = ms;
        self
    }

    /// Start-up allowance in ms taken off turn 0's time (the ruleset's
    /// `waitTimeStartGame` when `None`).
    pub fn startup_ms(mut self, ms: Option<u64>) -> Self {
        self.startup_ms = ms;
        self
    }

    /// Stop early once the SPRT decides, with `elo0,elo1,alpha,beta` (empty: the defaults
    /// 0,100,0.05,0.05); `None` plays every game.
    pub fn sprt(mut self, setting: Option<String>) -> Self {
        self.sprt = setting;
        self
    }

    /// Extra environment for every algo.
    pub fn env(mut self, env: Vec<(String, String)>) -> Self {
        self.env = env;
        self
    }

    /// How every algo is confined (default: on, docs/runner.md, Confinement).
    pub fn confine(mut self, confine: Confinement) -> Self {
        self.confine = confine;
        self
    }

    /// Checks every setting (algos found, names distinct, ruleset loadable and simulated,
    /// SPRT and ghosts applicable) and plans the games.
    pub fn build(self) -> Result<BuiltArena, ArenaSpecError> {
        if self.games == 0 {
            return Err(ArenaSpecError::NoGames);
        }
        for (limit, ms) in [(TimeLimit::Soft, self.soft_ms), (TimeLimit::Hard, self.max_ms)] {
            if ms == Some(0) {
                return Err(ArenaSpecError::ZeroTimeLimit(limit));
            }
        }
        let sprt = self.sprt.as_deref().map(SprtParams::parse).transpose()?;
        let config = load_config(self.ruleset.as_deref().unwrap_or(DEFAULT_PRESET))?;
        config.check_simulated()?;
        let entrants = self.algos.iter().map(|p| entrant(p)).collect::<Result<Vec<_>, _>>()?;
        let (plan, ghost_games, skipped_replays) = match &self.opponents {
            Opponents::Ghosts { replays, choice } => {
                if sprt.is_some() {
                    return Err(ArenaSpecError::SprtWithGhosts);
                }
                let [algo]: [Entrant; 1] = entrants
                    .try_into()
                    .map_err(|e: Vec<Entrant>| ArenaSpecError::GhostsNeedOneAlgo { given: e.len() })?;
                let (games, skipped) = ghost_games(replays, choice).map_err(ArenaSpecError::GhostReplays)?;
                if games.is_empty() {
                    return Err(ArenaSpecError::NoPlayableGhosts { replays: describe(replays) });
                }
                (Plan::vs_ghosts(algo, &games, self.seed)?, games, skipped)
            }
            opponents => {
                let format = match opponents {
                    Opponents::Gauntlet { baseline } => Format::Gauntlet { baseline: *baseline },
                    _ => Format::RoundRobin,
                };
                if sprt.is_some() && entrants.len() != 2 {
                    return Err(ArenaSpecError::SprtNeedsTwoAlgos { given: entrants.len() });
                }
                (Plan::new(entrants, format, self.games, self.seed)?, Vec::new(), Vec::new())
            }
        };
        let mut spec = ArenaSpec::new(plan, Arc::new(config), self.out);
        spec.jobs = self.jobs;
        spec.resume = self.resume;
        spec.soft_ms = self.soft_ms;
        spec.max_ms = self.max_ms;
        spec.startup_ms = self.startup_ms;
        spec.sprt = sprt;
        spec.env = self.env;
        spec.confine = self.confine;
        spec.ghost_rulesets = self.ruleset.is_none();
        Ok(BuiltArena { spec, ghost_games, skipped_replays })
    }
}

/// An algo found on disk, by its absolute path (results and job lines stay valid from any
/// folder), labelled with its folder name. A folder without a start script is an entrant
/// all the same: it fails to load in each of its games, as on the official engine (front
/// ends warn with `runner::check_algo_arg`); a path that does not exist is refused.
fn entrant(path: &Path) -> Result<Entrant, LocateError> {
    check_algo_arg(path)?;
    let path = absolute(path);
    Ok(Entrant { label: algo_label(&path), path })
}

/// `path` made absolute: canonical when it exists, else joined to the current folder.
pub fn absolute(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// The replays of a gauntlet against ghosts, for an error: the folder or file, or how many.
fn describe(replays: &[PathBuf]) -> String {
    match replays {
        [one] => one.display().to_string(),
        many => format!("the {} files and folders given", many.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn algos_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/algos")
    }

    fn algos(names: &[&str]) -> Vec<PathBuf> {
        names.iter().map(|n| algos_dir().join(n)).collect()
    }

    #[test]
    fn a_round_robin_gets_every_setting() {
        let built = ArenaSpec::builder(algos(&["py-idle", "py-builder"]), "out")
            .games(3)
            .seed(5)
            .jobs(2)
            .resume(true)
            .soft_ms(Some(100))
            .max_ms(Some(900))
            .startup_ms(Some(50))
            .sprt(Some(String::new()))
            .ruleset(Some("base-s6".into()))
            .build()
            .expect("a valid arena");
        let s = &built.spec;
        assert_eq!((s.plan.games, s.plan.jobs.len(), s.plan.jobs[0].seed), (4, 4, 5));
        assert_eq!((s.jobs, s.resume, s.soft_ms, s.max_ms, s.startup_ms), (2, true, Some(100), Some(900), Some(50)));
        assert_eq!(s.sprt, Some(SprtParams::default()));
        assert!(!s.ghost_rulesets, "a named ruleset applies to ghost matches too");
        assert!(s.plan.entrants.iter().all(|e| e.path.is_absolute()));
        assert_eq!(s.plan.entrants[1].label, "py-builder");
    }

    #[test]
    fn bad_settings_are_refused_before_anything_starts() {
        let two = || ArenaSpec::builder(algos(&["py-idle", "py-builder"]), "out");
        let three = || ArenaSpec::builder(algos(&["py-idle", "py-builder", "py-random"]), "out");
        let err = |b: ArenaBuilder| b.build().expect_err("refused");
        assert!(matches!(err(two().games(0)), ArenaSpecError::NoGames));
        assert!(matches!(err(two().max_ms(Some(0))), ArenaSpecError::ZeroTimeLimit(TimeLimit::Hard)));
        assert!(matches!(err(two().sprt(Some("1,2".into()))), ArenaSpecError::Sprt(_)));
        assert!(matches!(err(three().sprt(Some(String::new()))), ArenaSpecError::SprtNeedsTwoAlgos { given: 3 }));
        assert!(matches!(err(two().ruleset(Some("no-such-ruleset".into()))), ArenaSpecError::Ruleset(_)));
        assert!(matches!(err(three().opponents(Opponents::Gauntlet { baseline: 3 })), ArenaSpecError::Plan(_)));
        let missing = ArenaSpec::builder(algos(&["py-idle", "no-such-algo"]), "out");
        assert!(matches!(err(missing), ArenaSpecError::Algo(LocateError::Missing(_))));
        let ghosts =
            Opponents::Ghosts { replays: vec![algos_dir()], choice: GhostChoice::Seat(crate::engine::Player::Two) };
        assert!(matches!(err(two().opponents(ghosts)), ArenaSpecError::GhostsNeedOneAlgo { given: 2 }));
    }

    #[test]
    fn no_message_names_a_command_line_flag() {
        let texts = [
            ArenaSpecError::SprtNeedsTwoAlgos { given: 3 }.to_string(),
            ArenaSpecError::SprtWithGhosts.to_string(),
            ArenaSpecError::GhostsNeedOneAlgo { given: 2 }.to_string(),
            ArenaSpecError::NoGames.to_string(),
            ArenaSpecError::ZeroTimeLimit(TimeLimit::Soft).to_string(),
            ArenaSpecError::NoPlayableGhosts { replays: "d".into() }.to_string(),
        ];
        for t in texts {
            assert!(!t.contains("--"), "{t}");
        }
    }
}
