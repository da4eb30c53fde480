//! Answers from the games of a library, seen from one player ("me"): filters, results by
//! opponent, where the opponents breached and spawned, and the HP curve. All in memory: the
//! games are loaded once, and a filter over ten thousand of them is a plain scan.

use super::record::EndKind;
use super::store::IndexedGame;
use crate::engine::geometry::BOARD_SIZE;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A game's result for the player it is seen from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Win,
    Loss,
    /// No winner recorded (an unfinished game).
    Unfinished,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Unfinished => "unfinished",
        }
    }
}

/// Who "me" is, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Perspective {
    pub me: String,
    /// True when no name was asked for and the most frequent one was taken.
    pub most_frequent: bool,
    /// True when no name was asked for and the website's facts named me: the user of the
    /// synced algos (`library sync`).
    #[serde(default)]
    pub from_site: bool,
    /// Games with `me` as a player.
    pub games: usize,
}

impl Perspective {
    /// `asked` if given; else the user of the synced algos in the most games the website's
    /// facts cover; else the name that plays in the most games (ties: the first by name).
    pub fn choose(games: &[IndexedGame], asked: Option<&str>) -> Perspective {
        if asked.is_none()
            && let Some((me, _)) = most_common(games.iter().filter_map(|g| g.site.as_ref()).map(|s| s.my_user()))
        {
            let games = games.iter().filter(|g| seen_from(g, me).is_some()).count();
            return Perspective { me: me.to_string(), most_frequent: false, from_site: true, games };
        }
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for g in games {
            let [a, b] = &g.record.players;
            *counts.entry(a).or_default() += 1;
            if b != a {
                *counts.entry(b).or_default() += 1;
            }
        }
        match asked {
            Some(name) => Perspective {
                me: name.to_string(),
                most_frequent: false,
                from_site: false,
                games: games.iter().filter(|g| seen_from(g, name).is_some()).count(),
            },
            None => {
                let best =
                    counts.into_iter().filter(|(n, _)| !n.is_empty()).max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)));
                let (me, games) = best.map(|(n, c)| (n.to_string(), c)).unwrap_or_default();
                Perspective { me, most_frequent: true, from_site: false, games }
            }
        }
    }
}

/// The most frequent non-empty name (ties: the first by name), and its count.
fn most_common<'a>(names: impl Iterator<Item = &'a str>) -> Option<(&'a str, usize)> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for n in names.filter(|n| !n.is_empty()) {
        *counts.entry(n).or_default() += 1;
    }
    counts.into_iter().max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
}

/// One game seen from `me`: my seat (0 or 1), the opponent and the result.
#[derive(Debug, Clone, Copy)]
pub struct Seen<'a> {
    pub seat: usize,
    pub opponent: &'a str,
    pub outcome: Outcome,
    /// HP I lost over the game.
    pub hp_lost: f32,
}

/// The game seen from `me`, if `me` played in it: `me` is a player's name in the replay, or
/// the user the website's facts give my seat.
pub fn seen_from<'a>(game: &'a IndexedGame, me: &str) -> Option<Seen<'a>> {
    let r = &game.record;
    let site_seat = game.site.as_ref().filter(|s| !me.is_empty() && s.my_user() == me).map(|s| s.my_seat);
    let seat = r.seat_of(me).or(site_seat)?;
    let outcome = match r.winner {
        Some(w) if usize::from(w) == seat + 1 => Outcome::Win,
        Some(_) => Outcome::Loss,
        None => Outcome::Unfinished,
    };
    let hp_lost = (r.start_hp[seat] - r.final_hp[seat].max(0.0)).max(0.0);
    Some(Seen { seat, opponent: &r.players[1 - seat], outcome, hp_lost })
}

/// Which games to keep; every field left `None` keeps all.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameFilter {
    /// Part of the opponent's name (any case).
    pub opponent: Option<String>,
    pub outcome: Option<Outcome>,
    pub ruleset: Option<String>,
    pub end: Option<EndKind>,
    pub min_turns: Option<i32>,
    pub max_turns: Option<i32>,
    /// Part of the file's path (any case).
    pub file: Option<String>,
    /// Keep only games `me` played in.
    pub mine_only: bool,
}

fn contains_any_case(hay: &str, needle: &str) -> bool {
    hay.to_lowercase().contains(&needle.to_lowercase())
}

impl GameFilter {
    pub fn keeps(&self, game: &IndexedGame, me: &str) -> bool {
        let r = &game.record;
        let seen = seen_from(game, me);
        if (self.mine_only || self.outcome.is_some()) && seen.is_none() {
            return false;
        }
        let opponent_ok = self.opponent.as_deref().is_none_or(|o| match seen {
            Some(s) => contains_any_case(s.opponent, o),
            None => r.players.iter().any(|p| contains_any_case(p, o)),
        });
        opponent_ok
            && self.outcome.is_none_or(|o| seen.is_some_and(|s| s.outcome == o))
            && self.ruleset.as_deref().is_none_or(|rs| r.ruleset == rs)
            && self.end.is_none_or(|e| r.end == e)
            && self.min_turns.is_none_or(|t| r.turns >= t)
            && self.max_turns.is_none_or(|t| r.turns <= t)
            && self.file.as_deref().is_none_or(|f| contains_any_case(&game.file, f))
    }

    /// The indices of the games kept, in order.
    pub fn apply(&self, games: &[IndexedGame], me: &str) -> Vec<usize> {
        games.iter().enumerate().filter(|(_, g)| self.keeps(g, me)).map(|(k, _)| k).collect()
    }
}

/// My results against one opponent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpponentResults {
    pub opponent: String,
    pub games: usize,
    pub wins: usize,
    pub losses: usize,
    pub mean_hp_lost: f32,
}

/// My results by opponent over the `selected` games, most games first.
pub fn by_opponent(games: &[IndexedGame], selected: &[usize], me: &str) -> Vec<OpponentResults> {
    let mut rows: Vec<OpponentResults> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for s in selected.iter().filter_map(|&k| seen_from(&games[k], me)) {
        let k = *at.entry(s.opponent).or_insert_with(|| {
            rows.push(OpponentResults {
                opponent: s.opponent.to_string(),
                games: 0,
                wins: 0,
                losses: 0,
                mean_hp_lost: 0.0,
            });
            rows.len() - 1
        });
        let row = &mut rows[k];
        row.games += 1;
        row.wins += usize::from(s.outcome == Outcome::Win);
        row.losses += usize::from(s.outcome == Outcome::Loss);
        row.mean_hp_lost += s.hp_lost;
    }
    for row in &mut rows {
        row.mean_hp_lost /= row.games.max(1) as f32;
    }
    rows.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.opponent.cmp(&b.opponent)));
    rows
}

/// A tile as seen from `seat`'s side: player 2's games are turned around, so that "me" is at
/// the bottom of the board in every game (what the heatmaps and the tile lookup use).
pub fn from_my_side(seat: usize, x: i32, y: i32) -> (i32, i32) {
    if seat == 1 { (BOARD_SIZE - 1 - x, BOARD_SIZE - 1 - y) } else { (x, y) }
}

/// A value per board tile, indexed `[y][x]`.
pub type TileHeat = [[f32; BOARD_SIZE as usize]; BOARD_SIZE as usize];

/// The `n` tiles of most heat, most first (ties in board order): `(x, y, value)`.
pub fn hottest(heat: &TileHeat, n: usize) -> Vec<(usize, usize, f32)> {
    let mut tiles: Vec<(usize, usize, f32)> = heat
        .iter()
        .enumerate()
        .flat_map(|(y, row)| row.iter().enumerate().map(move |(x, v)| (x, y, *v)))
        .filter(|t| t.2 > 0.0)
        .collect();
    tiles.sort_by(|a, b| b.2.total_cmp(&a.2));
    tiles.truncate(n);
    tiles
}

fn add(heat: &mut TileHeat, x: i32, y: i32, v: f32) {
    if let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y))
        && let Some(cell) = heat.get_mut(y).and_then(|row| row.get_mut(x))
    {
        *cell += v;
    }
}

/// HP the opponents took from me on each tile, over the `selected` games (from my side).
pub fn breach_heat(games: &[IndexedGame], selected: &[usize], me: &str) -> TileHeat {
    let mut heat = [[0.0; BOARD_SIZE as usize]; BOARD_SIZE as usize];
    for &k in selected {
        let Some(s) = seen_from(&games[k], me) else { continue };
        for b in games[k].record.breaches.iter().filter(|b| usize::from(b.player) != s.seat) {
            let (x, y) = from_my_side(s.seat, b.x, b.y);
            add(&mut heat, x, y, b.damage);
        }
    }
    heat
}

/// Mobile units the opponents spawned on each tile, over the `selected` games (from my side).
pub fn spawn_heat(games: &[IndexedGame], selected: &[usize], me: &str) -> TileHeat {
    let mut heat = [[0.0; BOARD_SIZE as usize]; BOARD_SIZE as usize];
    for &k in selected {
        let Some(s) = seen_from(&games[k], me) else { continue };
        for sp in games[k].record.spawns.iter().filter(|sp| usize::from(sp.player) != s.seat) {
            let (x, y) = from_my_side(s.seat, sp.x, sp.y);
            add(&mut heat, x, y, sp.count as f32);
        }
    }
    heat
}

/// The games among `selected` where an opponent breached me on (x, y) (from my side), each
/// with the first turn it did: where a click on a heat tile leads.
pub fn breached_at(games: &[IndexedGame], selected: &[usize], me: &str, x: i32, y: i32) -> Vec<(usize, i32)> {
    let mut out = Vec::new();
    for &k in selected {
        let Some(s) = seen_from(&games[k], me) else { continue };
        let first = games[k]
            .record
            .breaches
            .iter()
            .filter(|b| usize::from(b.player) != s.seat && from_my_side(s.seat, b.x, b.y) == (x, y))
            .map(|b| b.turn)
            .min();
        if let Some(turn) = first {
            out.push((k, turn));
        }
    }
    out
}

/// The first turn an opponent breached me in a game, if one did.
pub fn first_breach_against(game: &IndexedGame, me: &str) -> Option<i32> {
    let s = seen_from(game, me)?;
    game.record.breaches.iter().filter(|b| usize::from(b.player) != s.seat).map(|b| b.turn).min()
}

/// My mean HP at the start of each turn over the `selected` games that reached it, and how
/// many did: `(turn, mean HP, games)`.
pub fn hp_curve(games: &[IndexedGame], selected: &[usize], me: &str) -> Vec<(i32, f32, usize)> {
    let mut sums: Vec<(f32, usize)> = Vec::new();
    for &k in selected {
        let Some(s) = seen_from(&games[k], me) else { continue };
        for t in games[k].record.turn_states.iter().filter(|t| usize::from(t.player) == s.seat) {
            let Ok(turn) = usize::try_from(t.turn) else { continue };
            if sums.len() <= turn {
                sums.resize(turn + 1, (0.0, 0));
            }
            sums[turn].0 += t.hp;
            sums[turn].1 += 1;
        }
    }
    sums.into_iter()
        .enumerate()
        .filter(|(_, (_, n))| *n > 0)
        .map(|(t, (sum, n))| (t as i32, sum / n as f32, n))
        .collect()
}
