//! Rows in and out of the index's tables.

use super::LibraryError;
use super::record::{BreachTotal, EndKind, GameRecord, SpawnCount, TurnState};
use super::site::SiteGame;
use super::update::{FileRead, Stamp, UpdateReport};
use rusqlite::{Connection, TransactionBehavior, params};
use std::collections::HashMap;
use std::path::Path;

/// A file the index already holds.
pub(super) struct KnownFile {
    pub id: i64,
    pub stamp: Stamp,
    pub crc32: u32,
}

fn sql(db: &Path) -> impl Fn(rusqlite::Error) -> LibraryError + '_ {
    move |source| LibraryError::Sqlite { db: db.to_path_buf(), source }
}

pub(super) fn known_files(conn: &Connection, db: &Path) -> Result<HashMap<String, KnownFile>, LibraryError> {
    let mut stmt = conn.prepare("SELECT id, path, size, mtime_ns, crc32 FROM files").map_err(sql(db))?;
    let rows = stmt
        .query_map([], |r| {
            let stamp = Stamp { size: r.get(2)?, mtime_ns: r.get(3)? };
            Ok((r.get::<_, String>(1)?, KnownFile { id: r.get(0)?, stamp, crc32: r.get(4)? }))
        })
        .map_err(sql(db))?;
    rows.collect::<Result<_, _>>().map_err(sql(db))
}

pub(super) fn remove_files(conn: &mut Connection, db: &Path, ids: &[i64]) -> Result<(), LibraryError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(sql(db))?;
    {
        let mut stmt = tx.prepare("DELETE FROM files WHERE id = ?1").map_err(sql(db))?;
        for id in ids {
            stmt.execute([id]).map_err(sql(db))?;
        }
    }
    tx.commit().map_err(sql(db))
}

/// Writes one batch of files read, in one transaction, and counts them in `report`.
pub(super) fn write_batch(
    conn: &mut Connection,
    db: &Path,
    known: &HashMap<String, KnownFile>,
    reads: &[FileRead],
    report: &mut UpdateReport,
) -> Result<(), LibraryError> {
    // Immediate: the write lock first (waited for), then a snapshot with every commit of
    // another process indexing the same folder.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(sql(db))?;
    for read in reads {
        let before = known.get(&read.path);
        let Some(game) = &read.game else {
            tx.execute("UPDATE files SET mtime_ns = ?1 WHERE path = ?2", params![read.stamp.mtime_ns, read.path])
                .map_err(sql(db))?;
            report.touched += 1;
            continue;
        };
        // By path, not by the id read before: another process may have indexed it since.
        tx.execute("DELETE FROM files WHERE path = ?1", [&read.path]).map_err(sql(db))?;
        let error = game.as_ref().err();
        tx.execute(
            "INSERT INTO files (path, size, mtime_ns, crc32, error) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![read.path, read.stamp.size, read.stamp.mtime_ns, read.crc32, error],
        )
        .map_err(sql(db))?;
        let id = tx.last_insert_rowid();
        match game {
            Ok(g) => insert_game(&tx, id, g).map_err(sql(db))?,
            Err(_) => report.damaged += 1,
        }
        if before.is_some() {
            report.changed += 1;
        } else {
            report.added += 1;
        }
    }
    tx.commit().map_err(sql(db))
}

fn insert_game(tx: &rusqlite::Transaction, id: i64, g: &GameRecord) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO games VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        params![
            id,
            g.ruleset,
            g.players[0],
            g.players[1],
            g.winner,
            g.end.name(),
            g.turns,
            g.start_hp[0],
            g.start_hp[1],
            g.final_hp[0],
            g.final_hp[1],
            g.duration_ms
        ],
    )?;
    let mut turn = tx.prepare_cached("INSERT INTO turns VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?;
    for t in &g.turn_states {
        turn.execute(params![id, t.turn, t.player, t.hp, t.sp, t.mp, t.structure_value])?;
    }
    let mut spawn = tx.prepare_cached("INSERT INTO spawns VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?;
    for s in &g.spawns {
        spawn.execute(params![id, s.turn, s.player, s.unit_type, s.x, s.y, s.count])?;
    }
    let mut breach = tx.prepare_cached("INSERT INTO breaches VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?;
    for b in &g.breaches {
        breach.execute(params![id, b.turn, b.player, b.x, b.y, b.damage, b.count])?;
    }
    Ok(())
}

/// A game as the index holds it, with the file it came from (relative to the root).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct IndexedGame {
    pub id: i64,
    pub file: String,
    #[serde(flatten)]
    pub record: GameRecord,
    /// The website's facts of the match, when `library sync` fetched it (read from the facts
    /// file beside the replays at load, never kept in the index).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<SiteGame>,
}

/// A file of the folder that could not be read, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DamagedFile {
    pub file: String,
    pub error: String,
}

/// Every game and damaged file of the index, in file order.
pub(super) fn load_all(conn: &Connection, db: &Path) -> Result<(Vec<IndexedGame>, Vec<DamagedFile>), LibraryError> {
    let mut games = load_games(conn).map_err(sql(db))?;
    let at: HashMap<i64, usize> = games.iter().enumerate().map(|(k, g)| (g.id, k)).collect();
    let turns = "SELECT * FROM turns ORDER BY file_id, turn, player";
    attach_rows(
        conn,
        turns,
        &at,
        &mut games,
        |g, t| g.turn_states.push(t),
        |r| {
            Ok(TurnState {
                turn: r.get(1)?,
                player: r.get(2)?,
                hp: r.get(3)?,
                sp: r.get(4)?,
                mp: r.get(5)?,
                structure_value: r.get(6)?,
            })
        },
    )
    .map_err(sql(db))?;
    attach_rows(
        conn,
        "SELECT * FROM spawns ORDER BY rowid",
        &at,
        &mut games,
        |g, s| g.spawns.push(s),
        |r| {
            Ok(SpawnCount {
                turn: r.get(1)?,
                player: r.get(2)?,
                unit_type: r.get(3)?,
                x: r.get(4)?,
                y: r.get(5)?,
                count: r.get(6)?,
            })
        },
    )
    .map_err(sql(db))?;
    attach_rows(
        conn,
        "SELECT * FROM breaches ORDER BY rowid",
        &at,
        &mut games,
        |g, b| g.breaches.push(b),
        |r| {
            Ok(BreachTotal {
                turn: r.get(1)?,
                player: r.get(2)?,
                x: r.get(3)?,
                y: r.get(4)?,
                damage: r.get(5)?,
                count: r.get(6)?,
            })
        },
    )
    .map_err(sql(db))?;
    let mut stmt =
        conn.prepare("SELECT path, error FROM files WHERE error IS NOT NULL ORDER BY path").map_err(sql(db))?;
    let damaged = stmt
        .query_map([], |r| Ok(DamagedFile { file: r.get(0)?, error: r.get(1)? }))
        .map_err(sql(db))?
        .collect::<Result<_, _>>()
        .map_err(sql(db))?;
    Ok((games, damaged))
}

fn load_games(conn: &Connection) -> rusqlite::Result<Vec<IndexedGame>> {
    let mut stmt = conn.prepare("SELECT g.*, f.path FROM games g JOIN files f ON f.id = g.file_id ORDER BY f.path")?;
    let rows = stmt.query_map([], |r| {
        let end: String = r.get(5)?;
        Ok(IndexedGame {
            id: r.get(0)?,
            file: r.get(12)?,
            record: GameRecord {
                ruleset: r.get(1)?,
                players: [r.get(2)?, r.get(3)?],
                winner: r.get(4)?,
                end: EndKind::from_name(&end).unwrap_or(EndKind::Unfinished),
                turns: r.get(6)?,
                start_hp: [r.get(7)?, r.get(8)?],
                final_hp: [r.get(9)?, r.get(10)?],
                duration_ms: r.get(11)?,
                turn_states: Vec::new(),
                spawns: Vec::new(),
                breaches: Vec::new(),
            },
            site: None,
        })
    })?;
    rows.collect()
}

/// The rows of a per-game table (`file_id` first), in the order `query` gives them, each
/// made by `read` and handed to its game's record by `add`.
fn attach_rows<T>(
    conn: &Connection,
    query: &str,
    at: &HashMap<i64, usize>,
    games: &mut [IndexedGame],
    add: impl Fn(&mut GameRecord, T),
    read: impl Fn(&rusqlite::Row) -> rusqlite::Result<T>,
) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare(query)?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let item = read(r)?;
        if let Some(&k) = at.get(&r.get(0)?) {
            add(&mut games[k].record, item);
        }
    }
    Ok(())
}
