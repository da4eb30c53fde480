//! The games of a comparison: the opponents both versions meet (ghosts in their recorded
//! seats, other algos from both seats), the head-to-head pairs, and the key each game is
//! cached under.

use super::error::VersionsError;
use super::results::GameKey;
use super::store::{SHORT_HASH, Version};
use crate::arena::ghosts::{GhostChoice, GhostGame, Skipped, ghost_games};
use crate::arena::plan::Entrant;
use crate::engine::config::Config;
use crate::engine::geometry::Player;
use crate::runner::GHOST_PREFIX;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// An opponent both versions play, from one seat.
#[derive(Debug, Clone)]
pub struct OpponentGame {
    /// For people: the replay's file name, or the algo's folder name.
    pub label: String,
    /// The identity the cache knows it by: `ghost:PATH#HASH:pN` or `algo:HASH`.
    pub identity: String,
    /// How the arena seats it: `ghost:REPLAY:N`, or the saved copy of the algo.
    pub seat_arg: PathBuf,
    /// The versions' seat.
    pub seat: Player,
    /// The ruleset the game is played under.
    pub config: Arc<Config>,
}

/// What besides the players decides a game: the ruleset, the time limits, the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameTerms {
    pub soft_ms: Option<u64>,
    pub max_ms: Option<u64>,
    pub startup_ms: Option<u64>,
    pub seed: u64,
}

impl GameTerms {
    /// The cache's `config` field for a game under `config` with these terms and `seed`.
    pub fn key_text(&self, config: &Config, seed: u64) -> String {
        let rules = blake3::hash(config.raw.to_string().as_bytes()).to_hex();
        let limit = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
        format!(
            "rules:{};soft:{};max:{};startup:{};seed:{seed}",
            &rules[..SHORT_HASH],
            limit(self.soft_ms),
            limit(self.max_ms),
            limit(self.startup_ms)
        )
    }
}

impl OpponentGame {
    /// The key of `version`'s game against this opponent.
    pub fn key(&self, version: &Version, terms: &GameTerms) -> GameKey {
        GameKey {
            version: version.hash.clone(),
            opponent: self.identity.clone(),
            seat: self.seat.number(),
            config: terms.key_text(&self.config, terms.seed),
        }
    }
}

/// A replay's identity: its path and the hash of its bytes.
fn replay_identity(path: &Path, ghost: Player) -> Result<String, VersionsError> {
    let bytes = std::fs::read(path).map_err(VersionsError::io(path))?;
    let hash = blake3::hash(&bytes).to_hex();
    Ok(format!("ghost:{}#{}:p{}", path.display(), &hash[..SHORT_HASH], ghost.number()))
}

/// The ghosts of the replays among `paths`, each in its recorded seat (as the arena's
/// gauntlet against ghosts seats them), and the replays skipped with the reason.
pub fn ghost_opponents(
    paths: &[PathBuf],
    choice: &GhostChoice,
    ruleset: Option<&Arc<Config>>,
) -> Result<(Vec<OpponentGame>, Skipped), VersionsError> {
    let (games, skipped) = ghost_games(paths, choice).map_err(VersionsError::Ghosts)?;
    let mut out = Vec::with_capacity(games.len());
    for g in games {
        let config = match ruleset {
            Some(c) => Arc::clone(c),
            None => Arc::new(
                crate::replay::read_replay_summary(&g.replay)
                    .map(|r| r.config)
                    .map_err(|e| VersionsError::Replay { path: g.replay.clone(), message: e.to_string() })?,
            ),
        };
        out.push(ghost_opponent(&g, config)?);
    }
    Ok((out, skipped))
}

/// A ghost by the replay's full path, so the same file is the same opponent from any folder.
fn ghost_opponent(g: &GhostGame, config: Arc<Config>) -> Result<OpponentGame, VersionsError> {
    let name = g.replay.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| g.label.clone());
    let replay = crate::arena::builder::absolute(&g.replay);
    Ok(OpponentGame {
        label: name,
        identity: replay_identity(&replay, g.ghost)?,
        seat_arg: PathBuf::from(format!("{GHOST_PREFIX}{}:{}", replay.display(), g.ghost.number())),
        seat: g.ghost.opponent(),
        config,
    })
}

/// An algo both versions play, from both seats: known by the hash of its folder's content (a
/// changed opponent is another opponent), and run from its own folder, as the arena runs it
/// (an opponent may share files with the folders beside it).
pub fn algo_opponents(folder: &Path, config: &Arc<Config>) -> Result<[OpponentGame; 2], VersionsError> {
    if !folder.is_dir() {
        return Err(VersionsError::NotAFolder(folder.to_path_buf()));
    }
    let hash = super::store::folder_content(folder)?.hash;
    let path = crate::arena::builder::absolute(folder);
    let label = crate::arena::algo_label(&path);
    Ok(Player::both().map(|seat| OpponentGame {
        label: label.clone(),
        identity: format!("algo:{hash}"),
        seat_arg: path.clone(),
        seat,
        config: Arc::clone(config),
    }))
}

/// The two versions as arena entrants: labels that say which is which.
pub fn version_entrant(role: &str, v: &Version) -> Entrant {
    Entrant { path: v.path.clone(), label: format!("{role}-{}", &v.hash[..8]) }
}

/// One game of the head-to-head: pair `pair`, the new version in `new_seat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DuelGame {
    pub pair: u32,
    pub new_seat: Player,
}

impl DuelGame {
    /// The games of `pairs` pairs, in order: each seed from both seats.
    pub fn all(pairs: u32) -> Vec<DuelGame> {
        (0..pairs).flat_map(|pair| Player::both().map(|new_seat| DuelGame { pair, new_seat })).collect()
    }

    pub fn seed(&self, terms: &GameTerms) -> u64 {
        terms.seed.wrapping_add(u64::from(self.pair))
    }

    /// Cached under the new version, the base as the opponent.
    pub fn key(&self, new: &Version, base: &Version, config: &Config, terms: &GameTerms) -> GameKey {
        GameKey {
            version: new.hash.clone(),
            opponent: format!("algo:{}", base.hash),
            seat: self.new_seat.number(),
            config: terms.key_text(config, self.seed(terms)),
        }
    }

    pub fn job_id(&self) -> String {
        format!("duel-p{}-new{}", self.pair, self.new_seat.number())
    }
}
