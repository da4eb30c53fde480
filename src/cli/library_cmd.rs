//! `terminal-studio library DIR`: a folder of replays indexed (incrementally) and summed up
//! from one player's side: every game, results by opponent, where the opponents breached.

use super::error::{CliError, Outcome};
use super::index_folder::{index_folder, index_line};
use std::io::Write;
use std::path::PathBuf;
use terminal_core::library::query::{self, Seen, seen_from};
use terminal_core::library::site_query;
use terminal_core::library::{
    EndKind, GameFilter, IndexedGame, Library, LibraryError, Outcome as GameOutcome, Perspective,
};

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct LibraryArgs {
    #[command(subcommand)]
    pub action: Option<LibraryAction>,
    /// The folder of replays (searched recursively).
    #[arg(required = true)]
    pub dir: Option<PathBuf>,
    /// The player the games are seen from (default: the name in the most games).
    #[arg(long, value_name = "NAME")]
    pub me: Option<String>,
    /// One JSON object per game, then one summary object.
    #[arg(long)]
    pub json: bool,
    /// Only games against an opponent whose name holds this (any case).
    #[arg(long, value_name = "NAME")]
    pub opponent: Option<String>,
    /// Only games with this result for me.
    #[arg(long, value_parser = ["win", "loss", "unfinished"])]
    pub result: Option<String>,
    /// Only games of this ruleset (as `verify` names them, e.g. live-2022).
    #[arg(long)]
    pub ruleset: Option<String>,
    /// Only games that ended this way.
    #[arg(long, value_parser = ["hp", "turns", "crash", "timeout", "unfinished"])]
    pub end: Option<String>,
    #[arg(long, value_name = "N")]
    pub min_turns: Option<i32>,
    #[arg(long, value_name = "N")]
    pub max_turns: Option<i32>,
    /// Only games I played in.
    #[arg(long)]
    pub mine: bool,
    /// The index file (default: one per folder in the studio's data folder).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

/// What else the library command does than answer.
#[derive(clap::Subcommand, Debug)]
pub enum LibraryAction {
    /// Fetch a player's ladder games from the game's website into a folder (each replay not
    /// already there, and the site's facts of each match), then index the new games.
    Sync(super::library_sync_cmd::SyncArgs),
}

impl LibraryArgs {
    fn filter(&self) -> GameFilter {
        GameFilter {
            opponent: self.opponent.clone(),
            outcome: self.result.as_deref().and_then(|r| match r {
                "win" => Some(GameOutcome::Win),
                "loss" => Some(GameOutcome::Loss),
                "unfinished" => Some(GameOutcome::Unfinished),
                _ => None,
            }),
            ruleset: self.ruleset.clone(),
            end: self.end.as_deref().and_then(EndKind::from_name),
            min_turns: self.min_turns,
            max_turns: self.max_turns,
            file: None,
            mine_only: self.mine,
        }
    }
}

pub fn run(args: &LibraryArgs) -> Result<Outcome, CliError> {
    let Some(dir) = args.dir.as_deref() else { return Err(CliError::Usage("library: name the folder of replays")) };
    let (index, report, seconds) = index_folder(dir, args.db.as_deref())?;
    let library = Library::load(&index)?;
    let me = Perspective::choose(&library.games, args.me.as_deref());
    let kept = args.filter().apply(&library.games, &me.me);
    let out = std::io::stdout().lock();
    let written = if args.json {
        print_json(out, &library, &kept, &me, &report)
    } else {
        eprintln!("{}", index_line(dir, &index, &report, seconds));
        print_text(out, &library, &kept, &me)
    };
    written.map_err(CliError::write("write the library to", "stdout"))?;
    Ok(Outcome::Done)
}

/// A result as the table shows it.
fn result_word(seen: Option<Seen>) -> &'static str {
    seen.map_or("-", |s| s.outcome.name())
}

fn print_text(mut out: impl Write, library: &Library, kept: &[usize], me: &Perspective) -> std::io::Result<()> {
    if me.most_frequent {
        writeln!(
            out,
            "Me: {} (the name in the most games: {} of {}; choose with --me)",
            me.me,
            me.games,
            library.games.len()
        )?;
    } else if me.from_site {
        writeln!(
            out,
            "Me: {} (the synced algos' user, from the website's facts: {} of {} games; choose with --me)",
            me.me,
            me.games,
            library.games.len()
        )?;
    } else {
        writeln!(out, "Me: {} ({} of {} games)", me.me, me.games, library.games.len())?;
    }
    writeln!(
        out,
        "\n{:<48} {:<14} {:<22} {:<10} {:>5}  {:<10} {:>6} {:>6}",
        "file", "ruleset", "opponent", "result", "turns", "end", "my HP", "opp HP"
    )?;
    for &k in kept {
        let g = &library.games[k];
        let seen = seen_from(g, &me.me);
        // A game "me" did not play has no side of mine: its HP columns say so.
        let (opponent, my_hp, their_hp) = match seen {
            Some(s) => {
                let hp = |p: usize| format!("{:.1}", g.record.final_hp[p]);
                (s.opponent.to_string(), hp(s.seat), hp(1 - s.seat))
            }
            None => (format!("{} vs {}", g.record.players[0], g.record.players[1]), "-".into(), "-".into()),
        };
        writeln!(
            out,
            "{:<48} {:<14} {:<22} {:<10} {:>5}  {:<10} {:>6} {:>6}",
            clip_start(&g.file, 48),
            clip(&g.record.ruleset, 14),
            clip(&opponent, 22),
            result_word(seen),
            g.record.turns,
            g.record.end.name(),
            my_hp,
            their_hp,
        )?;
    }
    writeln!(out, "\n{} of {} games shown", kept.len(), library.games.len())?;
    print_opponents(&mut out, library, kept, me)?;
    print_breach_tiles(&mut out, library, kept, me)?;
    print_site(&mut out, library, kept)?;
    for d in &library.damaged {
        writeln!(out, "damaged: {}: {}", d.file, d.error)?;
    }
    Ok(())
}

fn print_opponents(out: &mut impl Write, library: &Library, kept: &[usize], me: &Perspective) -> std::io::Result<()> {
    let rows = query::by_opponent(&library.games, kept, &me.me);
    if rows.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "\nResults by opponent\n{:<30} {:>6} {:>5} {:>7} {:>13}",
        "opponent", "games", "wins", "losses", "mean HP lost"
    )?;
    for r in rows {
        writeln!(
            out,
            "{:<30} {:>6} {:>5} {:>7} {:>13.1}",
            clip(&r.opponent, 30),
            r.games,
            r.wins,
            r.losses,
            r.mean_hp_lost
        )?;
    }
    Ok(())
}

fn print_breach_tiles(
    out: &mut impl Write,
    library: &Library,
    kept: &[usize],
    me: &Perspective,
) -> std::io::Result<()> {
    let heat = query::breach_heat(&library.games, kept, &me.me);
    let tiles = query::hottest(&heat, 8);
    if tiles.is_empty() {
        return Ok(());
    }
    let listed: Vec<String> = tiles.iter().map(|(x, y, v)| format!("{x},{y}: {v:.0}")).collect();
    writeln!(out, "\nWhere I was breached (HP, most first; tiles from my side, as player 1): {}", listed.join("  "))
}

/// With the website's facts (`library sync`): my rivals by user, and each of my algos'
/// rating from its first synced match to its last.
fn print_site(out: &mut impl Write, library: &Library, kept: &[usize]) -> std::io::Result<()> {
    let rivals = site_query::rivals(&library.games, kept);
    if rivals.is_empty() {
        return Ok(());
    }
    writeln!(out, "\nRivals (from the website's facts)\n{:<30} {:>6} {:>7}", "user", "games", "W-L")?;
    for r in rivals.iter().take(20) {
        writeln!(out, "{:<30} {:>6} {:>7}", clip(&r.user, 30), r.games, format!("{}-{}", r.wins, r.losses))?;
    }
    for algo in site_query::my_ratings(&library.games, kept) {
        if let (Some(first), Some(last)) = (algo.points.first(), algo.points.last()) {
            let n = algo.points.len();
            writeln!(out, "Rating of {}: {:.0} to {:.0} over {n} matches", algo.name, first.rating, last.rating)?;
        }
    }
    Ok(())
}

/// The end of `s` in `width` characters: replay names differ at their end.
fn clip_start(s: &str, width: usize) -> String {
    let n = s.chars().count();
    if n <= width { s.to_string() } else { ['…'].into_iter().chain(s.chars().skip(n - width + 1)).collect() }
}

fn clip(s: &str, width: usize) -> String {
    if s.chars().count() <= width { s.to_string() } else { s.chars().take(width - 1).chain(['…']).collect() }
}

/// One game as `--json` prints it.
#[derive(serde::Serialize)]
struct GameJson<'a> {
    file: &'a str,
    ruleset: &'a str,
    players: &'a [String; 2],
    winner: Option<u8>,
    turns: i32,
    end: EndKind,
    hp: [f32; 2],
    /// `[turn, x, y, damage, player]`, the player (1 or 2) who scored.
    breaches: Vec<(i32, i32, i32, f32, u8)>,
    /// The game from `me`'s side: win, loss or unfinished (absent when `me` did not play).
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<GameOutcome>,
}

impl<'a> GameJson<'a> {
    fn of(g: &'a IndexedGame, me: &str) -> GameJson<'a> {
        let r = &g.record;
        GameJson {
            file: &g.file,
            ruleset: &r.ruleset,
            players: &r.players,
            winner: r.winner,
            turns: r.turns,
            end: r.end,
            hp: r.final_hp,
            breaches: r.breaches.iter().map(|b| (b.turn, b.x, b.y, b.damage, b.player + 1)).collect(),
            result: seen_from(g, me).map(|s| s.outcome),
        }
    }
}

#[derive(serde::Serialize)]
struct SummaryJson<'a> {
    me: &'a Perspective,
    games: usize,
    shown: usize,
    wins: usize,
    losses: usize,
    by_opponent: Vec<query::OpponentResults>,
    /// From the website's facts (`library sync`); empty without them.
    rivals: Vec<site_query::Rival>,
    damaged: &'a [terminal_core::library::DamagedFile],
    index: &'a terminal_core::library::UpdateReport,
}

fn print_json(
    mut out: impl Write,
    library: &Library,
    kept: &[usize],
    me: &Perspective,
    report: &terminal_core::library::UpdateReport,
) -> std::io::Result<()> {
    let mut counts = [0usize; 2];
    for &k in kept {
        let g = &library.games[k];
        serde_json::to_writer(&mut out, &GameJson::of(g, &me.me))?;
        writeln!(out)?;
        match seen_from(g, &me.me).map(|s| s.outcome) {
            Some(GameOutcome::Win) => counts[0] += 1,
            Some(GameOutcome::Loss) => counts[1] += 1,
            _ => {}
        }
    }
    let summary = SummaryJson {
        me,
        games: library.games.len(),
        shown: kept.len(),
        wins: counts[0],
        losses: counts[1],
        by_opponent: query::by_opponent(&library.games, kept, &me.me),
        rivals: site_query::rivals(&library.games, kept),
        damaged: &library.damaged,
        index: report,
    };
    serde_json::to_writer(&mut out, &serde_json::json!({ "summary": summary }))?;
    writeln!(out)
}

impl From<LibraryError> for CliError {
    fn from(e: LibraryError) -> CliError {
        CliError::Library(e)
    }
}
