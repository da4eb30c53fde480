//! A ghost: one player of a recorded replay, replayed turn by turn. Its commands are
//! recovered from the replay's spawn events (builds, upgrades, removal marks, then mobile
//! deploys, in the recorded order), with the compute time and the crash the replay records,
//! so two ghosts of one replay reproduce it frame for frame.

use crate::engine::commands::Command;
use crate::engine::config::Config;
use crate::engine::geometry::Player;
use crate::replay::{Replay, ReplayError, read_replay, read_replay_summary};
use crate::verify::rebuild::{RebuildError, game_at_turn_frame, running_max_ids};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The prefix that names a ghost seat on the command line and in the arena.
pub(crate) const GHOST_PREFIX: &str = "ghost:";

/// Why a replay cannot be a ghost.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GhostError {
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("{}: the replay has no turn to replay", .0.display())]
    NoTurns(PathBuf),
    #[error("{}: {source}", path.display())]
    Rebuild { path: PathBuf, source: RebuildError },
}

/// What both players did in one recorded turn.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RecordedTurn {
    pub turn: i32,
    /// Per player: (build line, deploy line), in that player's own view (as its algo sent
    /// them: player 2's coordinates are flipped).
    pub lines: [(Vec<Command>, Vec<Command>); 2],
    pub time_ms: [i64; 2],
    /// Whether the engine charged time penalties (it does not for a player named `ByHand`).
    pub penalised: [bool; 2],
    /// The player crashed in this turn.
    pub crashed: [bool; 2],
}

/// A recorded replay's players, ready to be seated.
#[derive(Debug, Clone)]
pub struct Ghost {
    pub replay: PathBuf,
    /// The recorded player this ghost replays; `None`: the seat it sits in.
    pub player: Option<Player>,
    /// The replay's own config (the ruleset the players played under).
    pub config: Arc<Config>,
    /// The recorded players' names.
    pub names: [String; 2],
    /// The replay echoes upgrades as spawns (the early-2020 engine build).
    pub early_2020: bool,
    turns: Arc<Vec<RecordedTurn>>,
}

impl Ghost {
    /// Reads `path` and recovers every turn's commands for both players. The action frames'
    /// unit lists are not read: the commands come from the turn frames and the spawn events, and
    /// a match against a ghost then holds a fraction of the replay's size while the ghost loads.
    pub fn load(path: &Path, player: Option<Player>) -> Result<Ghost, GhostError> {
        Ghost::from_replay(&read_replay_summary(path)?, player)
    }

    /// The ghost of a replay already read (its `source` names the file).
    pub fn from_replay(replay: &Replay, player: Option<Player>) -> Result<Ghost, GhostError> {
        let path = replay.source.as_path();
        let config = Arc::new(replay.config.clone());
        let ids = running_max_ids(&replay.frames);
        // Any turn echoing an upgrade as a spawn marks the whole replay as early 2020 (as the
        // verifier's `is_early_2020`, from the same rebuilt turns).
        let mut early_2020 = false;
        let mut turns = Vec::new();
        for start in replay.turn_starts() {
            let (game, inputs) = game_at_turn_frame(replay, &config, start, &ids, None)
                .map_err(|source| GhostError::Rebuild { path: path.to_path_buf(), source })?;
            early_2020 |= inputs.early_2020;
            let mut lines = inputs.lines;
            super::view::rotate_commands(&mut lines[1].0);
            super::view::rotate_commands(&mut lines[1].1);
            turns.push(RecordedTurn {
                turn: game.turn,
                lines,
                time_ms: inputs.time_ms,
                penalised: inputs.penalised,
                crashed: inputs.crashed,
            });
        }
        if turns.is_empty() {
            return Err(GhostError::NoTurns(path.to_path_buf()));
        }
        let names = replay
            .end_frame()
            .and_then(|f| f.end_stats.as_ref())
            .map(|e| e.players.clone().map(|p| p.name))
            .unwrap_or_default();
        Ok(Ghost { replay: path.to_path_buf(), player, config, names, early_2020, turns: Arc::new(turns) })
    }

    /// The recorded player replayed by a ghost sitting in `seat`.
    pub(crate) fn player_in(&self, seat: Player) -> Player {
        self.player.unwrap_or(seat)
    }

    /// The recorded turn `turn`, if the replay has it (after its last turn a ghost is idle).
    pub fn turn(&self, turn: i32) -> Option<&RecordedTurn> {
        self.turns.iter().find(|t| t.turn == turn)
    }

    /// The replay's last turn.
    pub fn last_turn(&self) -> i32 {
        self.turns.last().map_or(0, |t| t.turn)
    }

    /// The seat's name in a match: the recorded player's name, marked as a ghost.
    pub fn name_in(&self, seat: Player) -> String {
        let p = self.player_in(seat);
        let name = &self.names[p.index()];
        if name.is_empty() { format!("ghost-p{}", p.number()) } else { format!("ghost-{name}") }
    }

    /// `ghost:PATH:N` (with N when a player was chosen).
    pub fn describe(&self) -> String {
        match self.player {
            Some(p) => format!("{}{}:{}", GHOST_PREFIX, self.replay.display(), p.number()),
            None => format!("{}{}", GHOST_PREFIX, self.replay.display()),
        }
    }
}

/// Why a ghost-against-ghost replay could not be checked.
#[derive(Debug, thiserror::Error)]
pub enum ReproduceError {
    #[error(transparent)]
    Ghost(#[from] GhostError),
    #[error(transparent)]
    Runner(#[from] super::RunnerError),
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// Plays the two recorded players of `path` against each other through the runner (the
/// replay written into `out`) and compares the new replay with the recorded one.
pub fn reproduce(path: &Path, out: &Path) -> Result<(super::MatchResult, crate::verify::ReplayMatch), ReproduceError> {
    reproduce_replay(&read_replay(path)?, out)
}

/// [`reproduce`] for a replay already read: the file is read once for both the ghosts and the
/// comparison.
pub fn reproduce_replay(
    recorded: &Replay,
    out: &Path,
) -> Result<(super::MatchResult, crate::verify::ReplayMatch), ReproduceError> {
    let one = Ghost::from_replay(recorded, Some(Player::One))?;
    let mut two = one.clone();
    two.player = Some(Player::Two);
    let mut spec = super::MatchSpec::new(
        super::SeatSpec::Ghost(one.clone()),
        super::SeatSpec::Ghost(two),
        Arc::clone(&one.config),
    );
    spec.replay = super::ReplayTarget::Dir(out.to_path_buf());
    spec.sync_replay = false;
    let result = super::run_match_blocking(spec)?;
    let played = read_replay(&result.replay_path)?;
    // A recording without an end frame (an unfinished match) is checked as far as it goes,
    // as plain `verify` checks it: the game played on is not in it to compare.
    let compared = match recorded.end_frame() {
        Some(_) => played.frames.as_slice(),
        None => &played.frames[..played.frames.len().min(recorded.frames.len())],
    };
    let m = crate::verify::compare_replays(&recorded.frames, compared);
    Ok((result, m))
}

/// A verifier report for `path` played ghost against ghost (replay written into `out`):
/// exact when every frame of the new replay equals the recorded one (every recorded frame,
/// for a recording without an end frame, as plain `verify` does).
pub fn ghost_report(path: &Path, out: &Path) -> crate::verify::ReplayReport {
    use crate::verify::{ReplayReport, Status, ruleset_name};
    let mut report = ReplayReport::new(path);
    let reproduced = read_replay(path).map_err(ReproduceError::from).and_then(|r| {
        report.ruleset = Some(ruleset_name(&r.config));
        reproduce_replay(&r, out)
    });
    match reproduced {
        Ok((result, m)) => {
            report.frames_total = m.frames_total;
            report.frames_exact = m.frames_exact;
            report.status = if m.is_exact() { Status::Exact } else { Status::Diverged };
            report.first_divergence = m.first_difference.map(|(k, d)| format!("frame {k}: {d}"));
            // The new replay has served its purpose; a diverged one is kept for a look.
            if report.status == Status::Exact {
                let _ = std::fs::remove_file(&result.replay_path);
                if let Some(log) = &result.match_log {
                    let _ = std::fs::remove_file(log);
                }
            } else {
                report.reason = Some(format!("ghost replay kept at {}", result.replay_path.display()));
            }
        }
        Err(e) => report.reason = Some(e.to_string()),
    }
    report
}
