//! The index's tables, and what opening a database made by another studio version does: an
//! older schema is rebuilt (the replays are read again), a newer one is refused.

use super::LibraryError;
use rusqlite::{Connection, TransactionBehavior};
use std::path::Path;

/// Raised whenever a table changes; stored in SQLite's `user_version`.
pub const SCHEMA_VERSION: i32 = 2;

const TABLES: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- Every replay file under the root, read or not: size, mtime and CRC-32 tell a changed file;
-- `error` is set for a file that could not be read (and it then has no game).
CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    crc32 INTEGER NOT NULL,
    error TEXT
);
CREATE TABLE games (
    file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
    ruleset TEXT NOT NULL,
    player1 TEXT NOT NULL,
    player2 TEXT NOT NULL,
    winner INTEGER,
    end_kind TEXT NOT NULL,
    turns INTEGER NOT NULL,
    start_hp1 REAL NOT NULL,
    start_hp2 REAL NOT NULL,
    final_hp1 REAL NOT NULL,
    final_hp2 REAL NOT NULL,
    duration_ms INTEGER NOT NULL
);
CREATE TABLE turns (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    player INTEGER NOT NULL,
    hp REAL NOT NULL,
    sp REAL NOT NULL,
    mp REAL NOT NULL,
    structure_value REAL NOT NULL,
    PRIMARY KEY (file_id, turn, player)
) WITHOUT ROWID;
CREATE TABLE spawns (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    player INTEGER NOT NULL,
    unit_type INTEGER NOT NULL,
    x INTEGER NOT NULL,
    y INTEGER NOT NULL,
    count INTEGER NOT NULL
);
CREATE INDEX spawns_by_file ON spawns(file_id);
CREATE TABLE breaches (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    player INTEGER NOT NULL,
    x INTEGER NOT NULL,
    y INTEGER NOT NULL,
    damage REAL NOT NULL,
    count INTEGER NOT NULL
);
CREATE INDEX breaches_by_file ON breaches(file_id);
";

/// Added in version 2: the Layout lab's prepared attacks, kept per replay file.
const ATTACK_TABLES: &str = "
CREATE TABLE attack_configs (id INTEGER PRIMARY KEY, raw TEXT NOT NULL UNIQUE);
-- A replay's attacks (deflated), prepared when the file had this size and mtime.
CREATE TABLE attacks (
    file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    config_id INTEGER NOT NULL REFERENCES attack_configs(id),
    bytes BLOB NOT NULL
);
";

const DROP: &str = "
DROP TABLE IF EXISTS attacks; DROP TABLE IF EXISTS attack_configs; DROP TABLE IF EXISTS breaches; DROP TABLE IF EXISTS spawns; DROP TABLE IF EXISTS turns;
DROP TABLE IF EXISTS games; DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS meta;
";

/// What opening found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaState {
    /// A new database: tables made.
    Created,
    /// The schema this studio writes.
    Current,
    /// An older studio's schema, brought up to date with what it held kept.
    Migrated { from: i32 },
    /// An older studio's schema: the tables were made again and every replay is read again.
    Rebuilt { from: i32 },
}

/// Opens (or creates) the database at `db` with this studio's schema. A file SQLite finds
/// damaged (not a database, truncated) is an error `LibraryError::damage` names; another
/// process writing it is waited for.
pub fn open(db: &Path) -> Result<(Connection, SchemaState), LibraryError> {
    let sql = |source| LibraryError::Sqlite { db: db.to_path_buf(), source };
    if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| LibraryError::Io { path: dir.to_path_buf(), source })?;
    }
    // WAL: a reader (the studio) and an indexing run do not block each other, and a killed
    // run loses at most the batch it was writing.
    let mut conn = crate::sqlite_file::open(db).map_err(sql)?;
    conn.pragma_update(None, "synchronous", "NORMAL").map_err(sql)?;
    conn.pragma_update(None, "foreign_keys", true).map_err(sql)?;
    match version(&conn).map_err(sql)? {
        v if v == SCHEMA_VERSION => return Ok((conn, SchemaState::Current)),
        v if v > SCHEMA_VERSION => {
            return Err(LibraryError::NewerSchema { db: db.to_path_buf(), found: v, supported: SCHEMA_VERSION });
        }
        _ => {}
    }
    // Tables to make or change: under the write lock, looked at again (another process on
    // the same index may have just made them).
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(sql)?;
    let has_tables: bool = tx
        .query_row("SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'files')", [], |r| r.get(0))
        .map_err(sql)?;
    let state = match version(&tx).map_err(sql)? {
        0 if !has_tables => SchemaState::Created,
        v if v == SCHEMA_VERSION => SchemaState::Current,
        1 => SchemaState::Migrated { from: 1 },
        v => SchemaState::Rebuilt { from: v },
    };
    match state {
        SchemaState::Current => {}
        SchemaState::Migrated { .. } => {
            tx.execute_batch(&format!("{ATTACK_TABLES} PRAGMA user_version = {SCHEMA_VERSION};")).map_err(sql)?;
        }
        SchemaState::Created | SchemaState::Rebuilt { .. } => tx
            .execute_batch(&format!("{DROP} {TABLES} {ATTACK_TABLES} PRAGMA user_version = {SCHEMA_VERSION};"))
            .map_err(sql)?,
    }
    tx.commit().map_err(sql)?;
    Ok((conn, state))
}

fn version(conn: &Connection) -> rusqlite::Result<i32> {
    conn.pragma_query_value(None, "user_version", |r| r.get(0))
}
