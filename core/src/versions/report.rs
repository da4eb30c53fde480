//! What a comparison found, as typed results: each opponent's game for both versions, the
//! flipped games and why they flipped, the head-to-head test, the noise check.

use super::divergence::{GameDivergence, explain};
use super::games::OpponentGame;
use super::noise::NoiseCheck;
use super::store::Version;
use crate::arena::{EloEstimate, MatchRecord, PairCounts, SprtDecision, SprtParams};
use crate::engine::geometry::Player;
use crate::replay::read_replay;
use serde::Serialize;
use std::path::PathBuf;

/// One version's game against an opponent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameResult {
    pub won: bool,
    /// The version's HP and the opponent's at the end.
    pub hp: f32,
    pub opponent_hp: f32,
    pub turns: i32,
    pub crashed: bool,
    /// The match could not be played (then `won` is false and the game is not compared).
    pub error: Option<String>,
    pub replay: PathBuf,
}

impl GameResult {
    pub fn of(rec: &MatchRecord, seat: Player) -> GameResult {
        let (me, them) = (&rec.players[seat.index()], &rec.players[seat.opponent().index()]);
        GameResult {
            won: rec.error.is_none() && rec.winner == seat.number(),
            hp: me.hp,
            opponent_hp: them.hp,
            turns: rec.turns,
            crashed: me.crashed || me.failed_to_load,
            error: rec.error.clone(),
            replay: PathBuf::from(&rec.replay),
        }
    }

    /// HP ahead of the opponent at the end.
    pub fn margin(&self) -> f32 {
        self.hp - self.opponent_hp
    }

    /// `won` or `lost`, or `error` for a match that could not be played.
    pub fn word(&self) -> &'static str {
        match (&self.error, self.won) {
            (Some(_), _) => "error",
            (None, true) => "won",
            (None, false) => "lost",
        }
    }
}

/// A game whose result changed between the versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Flip {
    /// The base won, the new version lost.
    Regression,
    /// The base lost, the new version won.
    Fix,
}

/// Both versions' games against one opponent from one seat.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameComparison {
    pub opponent: String,
    pub opponent_identity: String,
    pub seat: u8,
    pub base: Option<GameResult>,
    pub new: Option<GameResult>,
    pub flipped: Option<Flip>,
    /// The change in HP margin (own HP − the opponent's) from the base's game to the new one.
    pub hp_swing: Option<f32>,
    /// For a flipped game: where the two games part and what each version did then.
    pub divergence: Option<GameDivergence>,
    /// Why the divergence could not be worked out (a replay gone or unreadable).
    pub divergence_error: Option<String>,
}

impl GameComparison {
    /// Pairs both versions' records of one opponent's game; a flipped game's replays are
    /// read and compared.
    pub fn new(opp: &OpponentGame, base: Option<&MatchRecord>, new: Option<&MatchRecord>) -> GameComparison {
        let (base, new) = (base.map(|r| GameResult::of(r, opp.seat)), new.map(|r| GameResult::of(r, opp.seat)));
        let flipped = match (&base, &new) {
            (Some(b), Some(n)) if b.error.is_none() && n.error.is_none() && b.won != n.won => {
                Some(if b.won { Flip::Regression } else { Flip::Fix })
            }
            _ => None,
        };
        let hp_swing = base.as_ref().zip(new.as_ref()).map(|(b, n)| n.margin() - b.margin());
        let mut row = GameComparison {
            opponent: opp.label.clone(),
            opponent_identity: opp.identity.clone(),
            seat: opp.seat.number(),
            base,
            new,
            flipped,
            hp_swing,
            divergence: None,
            divergence_error: None,
        };
        if flipped.is_some() {
            row.explain(opp.seat);
        }
        row
    }

    fn explain(&mut self, seat: Player) {
        let (Some(b), Some(n)) = (&self.base, &self.new) else { return };
        match (read_replay(&b.replay), read_replay(&n.replay)) {
            (Ok(b), Ok(n)) => self.divergence = explain(&b, &n, seat),
            (Err(e), _) | (_, Err(e)) => self.divergence_error = Some(e.to_string()),
        }
    }
}

/// The head-to-head test, from the new version's side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeadToHead {
    pub params: SprtParams,
    pub pairs: PairCounts,
    pub wins: u32,
    pub losses: u32,
    /// Games that could not be played (left out of the pairs).
    pub errors: u32,
    pub elo: Option<EloEstimate>,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub decision: SprtDecision,
}

impl HeadToHead {
    pub fn new(params: SprtParams, pairs: PairCounts, wins: u32, losses: u32, errors: u32) -> HeadToHead {
        let (lower, upper) = params.bounds();
        HeadToHead {
            params,
            pairs,
            wins,
            losses,
            errors,
            elo: pairs.elo(),
            llr: params.llr_pentanomial(&pairs),
            lower,
            upper,
            decision: params.decide_pentanomial(&pairs),
        }
    }

    /// `not worse` (H1), `worse` (H0) or `undecided` (the games ran out first).
    pub fn verdict(&self) -> &'static str {
        match self.decision {
            SprtDecision::AcceptH1 => "not worse",
            SprtDecision::AcceptH0 => "worse",
            SprtDecision::Continue => "undecided",
        }
    }
}

/// Games played by this run, by kind (the others came from the cache).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Played {
    pub head_to_head: usize,
    pub base: usize,
    pub new: usize,
    /// The new version's game played a second time for the noise check.
    pub repeat: usize,
    /// Games found in the cache.
    pub cached: usize,
}

impl Played {
    pub fn total(&self) -> usize {
        self.head_to_head + self.base + self.new + self.repeat
    }
}

/// Everything a comparison found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RegressReport {
    pub new: Version,
    pub base: Version,
    /// The new version was saved by this run (the folder had changed).
    pub saved: bool,
    pub games: Vec<GameComparison>,
    pub head_to_head: HeadToHead,
    pub noise: Option<NoiseCheck>,
    pub played: Played,
    /// The run was cancelled: what was recorded so far is reported, the rest resumes later.
    pub cancelled: bool,
    /// Replays the ghosts could not use, each with the reason.
    pub skipped_replays: crate::arena::ghosts::Skipped,
    /// The ruleset of the head-to-head and versus-algo games, and where it came from.
    pub ruleset: RulesetUsed,
}

/// The ruleset a comparison's head-to-head games were played under: a verdict holds for it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RulesetUsed {
    /// Its name (a preset's, else the config's own description).
    pub name: String,
    pub from: RulesetSource,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum RulesetSource {
    /// The one asked for.
    Chosen,
    /// None asked for: the first ghost replay's (each ghost game keeps its own).
    FirstGhost,
    /// None asked for and no ghosts: the default preset.
    Default,
}

impl std::fmt::Display for RulesetUsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.from {
            RulesetSource::Chosen => write!(f, "{} (chosen)", self.name),
            RulesetSource::FirstGhost => write!(f, "{} (the first ghost replay's; none chosen)", self.name),
            RulesetSource::Default => write!(f, "{} (the default; none chosen, no ghosts)", self.name),
        }
    }
}

impl RegressReport {
    /// Flipped games whose versions parted at turn 0, before either saw anything the other
    /// did not: they differ by chance, not by the change.
    pub fn parted_at_turn_zero(&self) -> usize {
        self.games.iter().filter(|g| g.flipped.is_some() && g.divergence.as_ref().is_some_and(|d| d.turn == 0)).count()
    }

    /// Whether the report has reason to think the algo is unseeded (or plays by the clock):
    /// its noise check parted, or flipped games parted at turn 0.
    pub fn looks_unseeded(&self) -> bool {
        self.noise.as_ref().is_some_and(|n| !n.deterministic) || self.parted_at_turn_zero() > 0
    }
}

/// How to make an algo play the same game twice, for the reports that find it does not.
pub const HOW_TO_SEED: &str = "seed its randomness at its start from the ALGO_SEED the runner sets \
     (random.seed(int(os.environ.get(\"ALGO_SEED\", \"1\"))), numpy's too if it uses numpy), and keep its \
     choices independent of the time it has left";

impl RegressReport {
    /// The flipped games: regressions first, then fixes, each by the size of its HP swing.
    pub fn flipped(&self) -> Vec<&GameComparison> {
        let mut rows: Vec<&GameComparison> = self.games.iter().filter(|g| g.flipped.is_some()).collect();
        rows.sort_by(|a, b| {
            let rank = |g: &GameComparison| u8::from(g.flipped == Some(Flip::Fix));
            let swing = |g: &GameComparison| g.hp_swing.unwrap_or(0.0).abs();
            rank(a).cmp(&rank(b)).then(swing(b).total_cmp(&swing(a)))
        });
        rows
    }

    /// Games both versions won, by version.
    pub fn wins(&self) -> (usize, usize) {
        let count = |f: fn(&GameComparison) -> Option<&GameResult>| {
            self.games.iter().filter(|g| f(g).is_some_and(|r| r.won)).count()
        };
        (count(|g| g.base.as_ref()), count(|g| g.new.as_ref()))
    }
}
