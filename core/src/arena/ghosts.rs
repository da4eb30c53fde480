//! A gauntlet against ghosts: an algo against one recorded player of every replay in a
//! folder, each game compared with what the other recorded player achieved in the same
//! seat (result, HP at the end, turns, breaches conceded).

use super::error::ArenaError;
use super::record::MatchRecord;
use crate::engine::frame::Frame;
use crate::engine::geometry::Player;
use crate::replay::read_replay_summary;
use crate::runner::GHOST_PREFIX;
use crate::verify::collect_replays;
use std::collections::HashMap;
use std::path::PathBuf;

/// Which recorded player becomes the ghost.
#[derive(Debug, Clone, PartialEq)]
pub enum GhostChoice {
    /// Player N of every replay.
    Seat(Player),
    /// In each replay, the opponent of the player named so (a player's own ladder replays:
    /// the algo takes that player's seat).
    OpponentOf(String),
    /// The ghost's seat in each replay, given by file (a synced game's seat comes from the
    /// website's facts, as the names inside its replay may be anonymised).
    PerReplay(HashMap<PathBuf, Player>),
}

/// How a seat's game went.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SeatOutcome {
    pub won: bool,
    pub hp: f32,
    pub turns: i32,
    /// Breaches the other seat scored against this one.
    pub breaches_conceded: u32,
    /// This seat crashed (or failed to load); the game ended at that turn.
    pub crashed: bool,
    /// The other seat crashed: for the algo's game, the ghost repeated a recorded crash.
    pub other_crashed: bool,
}

impl SeatOutcome {
    /// Alive at the end (HP above 0).
    pub(crate) fn survived(&self) -> bool {
        self.hp > 0.0
    }

    /// A crash decided the game, not the play.
    pub(crate) fn decided_by_crash(&self) -> bool {
        self.crashed || self.other_crashed
    }
}

/// One replay of the gauntlet: the ghost's seat and what the recorded player facing it did.
#[derive(Debug, Clone, PartialEq)]
pub struct GhostGame {
    pub replay: PathBuf,
    /// The recorded player replayed by the ghost (it keeps its seat).
    pub ghost: Player,
    /// Unique within the gauntlet, from the replay's file name.
    pub label: String,
    /// The recorded player in the algo's seat.
    pub recorded: SeatOutcome,
    /// That player's recorded name.
    pub recorded_name: String,
}

impl GhostGame {
    /// The seat the algo plays.
    pub(crate) fn algo_seat(&self) -> Player {
        self.ghost.opponent()
    }

    /// The ghost as a seat argument: `ghost:PATH:N`.
    pub(crate) fn seat_arg(&self) -> PathBuf {
        PathBuf::from(format!("{GHOST_PREFIX}{}:{}", self.replay.display(), self.ghost.number()))
    }
}

/// Replays a gauntlet cannot use, each with the reason.
pub type Skipped = Vec<(PathBuf, String)>;

/// The games of a gauntlet against the replays among `paths` (files, or folders searched
/// recursively), by file name. Legacy replays and replays the choice does not apply to (no
/// player of that name) are listed as skipped.
pub fn ghost_games(paths: &[PathBuf], choice: &GhostChoice) -> Result<(Vec<GhostGame>, Skipped), ArenaError> {
    if let Some(missing) = paths.iter().find(|p| !p.exists()) {
        return Err(ArenaError::NotFound(missing.clone()));
    }
    let mut files = collect_replays(paths);
    files.sort();
    let mut games = Vec::new();
    let mut skipped = Vec::new();
    let mut labels: HashMap<String, usize> = HashMap::new();
    for f in files {
        let replay = match read_replay_summary(&f) {
            Ok(r) => r,
            Err(e) => {
                skipped.push((f, e.to_string()));
                continue;
            }
        };
        let Some(end) = replay.end_frame().and_then(|f| f.end_stats.clone()) else {
            skipped.push((f, "no end frame (an unfinished match)".into()));
            continue;
        };
        let names = end.players.clone().map(|p| p.name);
        let ghost = match choice {
            GhostChoice::Seat(p) => *p,
            GhostChoice::OpponentOf(name) => match names.iter().position(|n| n == name) {
                Some(i) => Player::both()[i].opponent(),
                None => {
                    skipped.push((f, format!("no player named {name:?} (players: {} and {})", names[0], names[1])));
                    continue;
                }
            },
            GhostChoice::PerReplay(seats) => match seats.get(&f) {
                Some(p) => *p,
                None => {
                    skipped.push((f, "no seat given for this replay".into()));
                    continue;
                }
            },
        };
        let seat = ghost.opponent();
        let recorded = SeatOutcome {
            won: end.winner == seat.number(),
            hp: replay.frames.last().map_or(0.0, |f| f.stats[seat.index()].hp),
            turns: end.turns,
            breaches_conceded: breaches_by(&replay.frames, ghost),
            crashed: end.players[seat.index()].crashed,
            other_crashed: end.players[ghost.index()].crashed,
        };
        let stem = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let stem = stem.trim_end_matches(".gz").trim_end_matches(".replay").replace("__", "_");
        let n = labels.entry(stem.clone()).or_default();
        *n += 1;
        let label = if *n == 1 { format!("ghost-{stem}") } else { format!("ghost-{stem}-{n}") };
        games.push(GhostGame { replay: f, ghost, label, recorded, recorded_name: names[seat.index()].clone() });
    }
    Ok((games, skipped))
}

/// Breach events scored by `p`'s units over a match.
pub(crate) fn breaches_by(frames: &[Frame], p: Player) -> u32 {
    let n = frames.iter().flat_map(|f| &f.events.breach).filter(|b| b.owner == p).count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The algo's outcome in a finished gauntlet game, from its record.
pub(crate) fn outcome_of(rec: &MatchRecord, seat: Player) -> SeatOutcome {
    let i = seat.index();
    SeatOutcome {
        won: rec.winner == seat.number(),
        hp: rec.players[i].hp,
        turns: rec.turns,
        breaches_conceded: rec.players[1 - i].breaches,
        crashed: rec.players[i].crashed || rec.players[i].failed_to_load,
        other_crashed: rec.players[1 - i].crashed || rec.players[1 - i].failed_to_load,
    }
}

/// One line of the comparison: a game as recorded and as the algo played it (if played).
#[derive(Debug, Clone, PartialEq)]
pub struct GhostComparison {
    pub game: GhostGame,
    pub now: Option<SeatOutcome>,
}

/// Pairs every game with its record (by the ghost's label).
pub fn compare(games: &[GhostGame], records: &[MatchRecord]) -> Vec<GhostComparison> {
    games
        .iter()
        .map(|g| {
            let rec = records.iter().rev().find(|r| r.error.is_none() && (r.algo1 == g.label || r.algo2 == g.label));
            GhostComparison { game: g.clone(), now: rec.map(|r| outcome_of(r, g.algo_seat())) }
        })
        .collect()
}

/// Totals of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GhostTotals {
    pub games: usize,
    pub played: usize,
    pub recorded_wins: usize,
    pub wins: usize,
    /// Games the recorded player lost that the algo won.
    pub won_where_recorded_lost: usize,
    pub recorded_losses: usize,
    /// Games the recorded player lost (or died in) that the algo ended alive.
    pub survived_where_recorded_lost: usize,
    pub recorded_survived: usize,
    pub survived: usize,
    /// Games the recorded player won that the algo lost.
    pub lost_where_recorded_won: usize,
    pub recorded_breaches_conceded: u64,
    pub breaches_conceded: u64,
    /// Games a crash decided (the ghost repeating a recorded crash, the algo's own, or both):
    /// counted here and left out of every comparison above, where they would say nothing
    /// of the play.
    pub decided_by_crash: usize,
    /// Of those, games the ghost lost by repeating its recorded crash.
    pub ghost_crashed: usize,
}

pub fn totals(rows: &[GhostComparison]) -> GhostTotals {
    let mut t = GhostTotals { games: rows.len(), ..GhostTotals::default() };
    for r in rows {
        let rec = &r.game.recorded;
        let Some(now) = &r.now else { continue };
        t.played += 1;
        if now.decided_by_crash() || rec.decided_by_crash() {
            t.decided_by_crash += 1;
            t.ghost_crashed += usize::from(now.other_crashed);
            continue;
        }
        t.recorded_wins += usize::from(rec.won);
        t.wins += usize::from(now.won);
        t.recorded_losses += usize::from(!rec.won);
        t.won_where_recorded_lost += usize::from(!rec.won && now.won);
        t.survived_where_recorded_lost += usize::from(!rec.won && now.survived());
        t.lost_where_recorded_won += usize::from(rec.won && !now.won);
        t.recorded_survived += usize::from(rec.survived());
        t.survived += usize::from(now.survived());
        t.recorded_breaches_conceded += u64::from(rec.breaches_conceded);
        t.breaches_conceded += u64::from(now.breaches_conceded);
    }
    t
}

fn outcome_text(o: &SeatOutcome, other: &str) -> String {
    let result = if o.won { "won" } else { "lost" };
    let how = match (o.crashed, o.other_crashed) {
        (true, true) => format!("both crashed at turn {}: {result} on the tie rule", o.turns),
        (true, false) => format!("{result}: crashed at turn {}", o.turns),
        (false, true) => format!("{result}: {other} crashed at turn {}", o.turns),
        (false, false) => {
            return format!(
                "{result:<4} HP {:>5.1}  {:>3} turns  {:>3} breaches conceded",
                o.hp, o.turns, o.breaches_conceded
            );
        }
    };
    format!("{how} (HP {:.1}; not compared)", o.hp)
}

/// The comparison as text: one line per replay, then the totals.
pub fn report(algo: &str, rows: &[GhostComparison]) -> String {
    let mut s = String::new();
    for r in rows {
        let g = &r.game;
        let name = g.replay.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        s.push_str(&format!(
            "{name}\n  recorded p{} {:<20} {}\n",
            g.algo_seat().number(),
            g.recorded_name,
            outcome_text(&g.recorded, "the other player")
        ));
        match &r.now {
            Some(now) => s.push_str(&format!(
                "  now      p{} {:<20} {}\n",
                g.algo_seat().number(),
                algo,
                outcome_text(now, "the ghost")
            )),
            None => s.push_str("  now      not played (or the match failed)\n"),
        }
    }
    let t = totals(rows);
    s.push_str(&format!(
        "{algo} against {} ghosts ({} played): won {} (recorded players: {}); won {} of the {} games the recorded player lost, \
         lost {} of the {} it won; alive at the end in {} (recorded: {}), alive in {} of the {} games the recorded player lost; \
         breaches conceded {} (recorded: {}); {} games decided by a crash left out ({} the ghost repeating its recorded \
         crash)\n",
        t.games,
        t.played,
        t.wins,
        t.recorded_wins,
        t.won_where_recorded_lost,
        t.recorded_losses,
        t.lost_where_recorded_won,
        t.recorded_wins,
        t.survived,
        t.recorded_survived,
        t.survived_where_recorded_lost,
        t.recorded_losses,
        t.breaches_conceded,
        t.recorded_breaches_conceded,
        t.decided_by_crash,
        t.ghost_crashed
    ));
    s
}

/// The comparison as CSV (`ghosts.csv`).
pub fn csv(rows: &[GhostComparison]) -> String {
    let mut s = String::from(
        "replay,algo_seat,recorded_won,recorded_hp,recorded_turns,recorded_breaches_conceded,recorded_crashed,\
         recorded_other_crashed,won,hp,turns,breaches_conceded,crashed,ghost_crashed\n",
    );
    for r in rows {
        let g = &r.game;
        let rec = &g.recorded;
        let now = r
            .now
            .map(|n| {
                format!("{},{},{},{},{},{}", n.won, n.hp, n.turns, n.breaches_conceded, n.crashed, n.other_crashed)
            })
            .unwrap_or(",,,,,".into());
        s.push_str(&format!(
            "{},{},{},{},{},{},{},{},{now}\n",
            g.replay.display(),
            g.algo_seat().number(),
            rec.won,
            rec.hp,
            rec.turns,
            rec.breaches_conceded,
            rec.crashed,
            rec.other_crashed
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(recorded: SeatOutcome) -> GhostGame {
        GhostGame {
            replay: PathBuf::from("r.replay"),
            ghost: Player::Two,
            label: "ghost-r".into(),
            recorded,
            recorded_name: "kit".into(),
        }
    }

    fn seat(won: bool, hp: f32, turns: i32, crashed: bool, other_crashed: bool) -> SeatOutcome {
        SeatOutcome { won, hp, turns, breaches_conceded: 0, crashed, other_crashed }
    }

    /// A ghost that repeats its recorded turn-0 crash hands the algo a win that says nothing
    /// of its play; a recording where both crashed has a "winner" with HP ≤ 0. The report says
    /// what happened, and the totals leave such games out.
    #[test]
    fn games_decided_by_a_crash_are_named_and_left_out() {
        let rows = [
            GhostComparison {
                game: game(seat(true, 30.0, 0, false, true)),
                now: Some(seat(true, 30.0, 0, false, true)),
            },
            GhostComparison {
                game: game(seat(true, -1.0, 0, true, true)),
                now: Some(seat(false, 30.0, 40, false, false)),
            },
            GhostComparison {
                game: game(seat(false, 0.0, 30, false, false)),
                now: Some(seat(true, 12.0, 60, false, false)),
            },
        ];
        let t = totals(&rows);
        assert_eq!((t.played, t.decided_by_crash, t.ghost_crashed), (3, 2, 1));
        assert_eq!((t.wins, t.recorded_wins, t.won_where_recorded_lost), (1, 0, 1));
        let text = report("mine", &rows);
        assert!(text.contains("now      p1 mine                 won: the ghost crashed at turn 0"), "{text}");
        assert!(text.contains("both crashed at turn 0: won on the tie rule (HP -1.0; not compared)"), "{text}");
        assert!(!text.contains("won  HP  -1.0"), "{text}");
        assert!(
            text.contains("2 games decided by a crash left out (1 the ghost repeating its recorded crash)"),
            "{text}"
        );
    }
}
