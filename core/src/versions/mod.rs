//! Versions of an algo and their comparison: `store` (immutable copies named by the hash of
//! their content, in the studio's data folder), `results` (the cache of every game a version
//! played), `games` (the opponents, the head-to-head pairs, each game's cache key),
//! `divergence` (the first frame two games differ in, and each side's commands that turn),
//! `noise` (a game played twice), `report` (the typed results), `regress` (the run: a thread
//! with events and cancel), `watch` (a folder polled for changes).
//!
//! ```no_run
//! use terminal_core::versions::{RegressSpec, VersionStore, run_regress};
//! # fn main() -> Result<(), terminal_core::versions::VersionsError> {
//! let store = VersionStore::in_data_dir("data".as_ref());
//! let mut spec = RegressSpec::new("my-algo", store);
//! spec.ghosts = vec!["ladder-replays".into()];
//! let report = run_regress(spec, |event| println!("{event:?}"))?;
//! for game in report.flipped() {
//!     println!("{} {:?} at turn {:?}", game.opponent, game.flipped, game.divergence.as_ref().map(|d| d.turn));
//! }
//! # Ok(()) }
//! ```

mod divergence;
mod error;
mod games;
mod noise;
mod regress;
mod report;
mod results;
mod store;
mod watch;

pub use divergence::{Action, Divergence, GameDivergence, IssuedCommand, commands_in_turn, explain, first_divergence};
pub use error::VersionsError;
pub use games::GameTerms;
pub use noise::{NoiseCheck, compare_plays};
pub use regress::{BaseChoice, RegressEvent, RegressHandle, RegressSpec, Stage, run_regress, start_regress};
pub use report::{
    Flip, GameComparison, GameResult, HOW_TO_SEED, HeadToHead, Played, RegressReport, RulesetSource, RulesetUsed,
};
pub use results::{GameKey, Play, ResultCache};
pub use store::{FolderContent, SHORT_HASH, Saved, Version, VersionStore, folder_content, utc_text};
pub use watch::{FolderWatch, POLL};
