//! The result cache: every game a saved version played, keyed by what decides it (the
//! version, the opponent, the version's seat, the ruleset, limits and seed), so no game is
//! played twice and an interrupted comparison resumes where it stopped.
//!
//! SQLite rather than a JSON-lines file: a result is looked up by its key, many times per
//! comparison, over every game of every version ever compared; each result is written in a
//! transaction of its own as the game ends (a kill loses at most the games in flight, never
//! tears a row); and two comparisons running at once (a watch beside a manual run) share the
//! file safely under SQLite's locking, where appends to one text file would need a lock of
//! our own. SQLite is already compiled in for the replay library.

use super::error::VersionsError;
use crate::arena::MatchRecord;
use crate::sqlite_file::MovedAside;
use rusqlite::{Connection, OptionalExtension, params};
use std::path::{Path, PathBuf};

/// Raised whenever a table changes; stored in SQLite's `user_version`. An older cache is
/// dropped and filled again (its games are played again), never misread.
const SCHEMA_VERSION: i32 = 1;

const TABLES: &str = "
CREATE TABLE IF NOT EXISTS results (
    version TEXT NOT NULL,
    opponent TEXT NOT NULL,
    seat INTEGER NOT NULL,
    config TEXT NOT NULL,
    -- The arena's record of the game (JSON), its replay path included.
    record TEXT NOT NULL,
    saved_at_ms INTEGER NOT NULL,
    PRIMARY KEY (version, opponent, seat, config)
) WITHOUT ROWID;
-- A version's game played a second time, to tell whether it plays the same game again.
CREATE TABLE IF NOT EXISTS repeats (
    version TEXT NOT NULL,
    opponent TEXT NOT NULL,
    seat INTEGER NOT NULL,
    config TEXT NOT NULL,
    record TEXT NOT NULL,
    saved_at_ms INTEGER NOT NULL,
    PRIMARY KEY (version, opponent, seat, config)
) WITHOUT ROWID;
";

/// What decides a game: who plays, from which seat, under which rules.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GameKey {
    /// The version's full hash.
    pub version: String,
    /// `ghost:PATH#HASH:pN` (the replay's path and content hash, the recorded player) or
    /// `algo:HASH` (a saved version).
    pub opponent: String,
    /// The version's seat, 1 or 2.
    pub seat: u8,
    /// The ruleset's hash, the time limits and the seed.
    pub config: String,
}

/// Which table a result belongs in: a game, or the same game played again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Play {
    First,
    Repeat,
}

impl Play {
    fn table(self) -> &'static str {
        match self {
            Play::First => "results",
            Play::Repeat => "repeats",
        }
    }
}

/// The open cache.
pub struct ResultCache {
    conn: Connection,
    db: PathBuf,
    /// The damaged file this cache replaced (moved aside), when opening found one.
    pub moved_aside: Option<MovedAside>,
}

impl ResultCache {
    /// The cache beside the saved versions.
    pub fn default_path(store_root: &Path) -> PathBuf {
        store_root.join("results.sqlite")
    }

    /// Opens (or makes) the cache at `db`, waiting for another comparison writing it. A
    /// damaged file (not a database, truncated) is moved aside and a fresh cache started
    /// (`moved_aside` says so: every game it held is played again when asked for).
    pub fn open(db: &Path) -> Result<ResultCache, VersionsError> {
        if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(VersionsError::io(dir))?;
        }
        let damage = |e: &VersionsError| match e {
            VersionsError::Cache { source, .. } if crate::sqlite_file::is_damage(source) => Some(source.to_string()),
            _ => None,
        };
        let (conn, moved_aside) =
            crate::sqlite_file::open_replacing_damaged(db, Self::open_tables, damage, VersionsError::io(db))?;
        Ok(ResultCache { conn, db: db.to_path_buf(), moved_aside })
    }

    /// The connection to `db`, its tables made (or remade for another schema).
    fn open_tables(db: &Path) -> Result<Connection, VersionsError> {
        let sql = sql_error(db);
        let conn = crate::sqlite_file::open(db).map_err(&sql)?;
        let found: i32 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(&sql)?;
        if found != SCHEMA_VERSION {
            conn.execute_batch("DROP TABLE IF EXISTS results; DROP TABLE IF EXISTS repeats;").map_err(&sql)?;
        }
        conn.execute_batch(TABLES).map_err(&sql)?;
        conn.pragma_update(None, "user_version", SCHEMA_VERSION).map_err(&sql)?;
        Ok(conn)
    }

    /// What to tell the player when a damaged cache was moved aside.
    pub fn moved_aside_message(&self) -> Option<String> {
        self.moved_aside.as_ref().map(|m| {
            format!(
                "the results database {} was damaged ({}): moved aside to {} and a fresh one started; \
                 every result it held is lost, so every game of every version must be played again \
                 (this comparison plays the ones it needs)",
                m.from.display(),
                m.why,
                m.to.display()
            )
        })
    }

    pub fn path(&self) -> &Path {
        &self.db
    }

    /// The game recorded under `key`, if any.
    pub fn get(&self, play: Play, key: &GameKey) -> Result<Option<MatchRecord>, VersionsError> {
        let query = format!(
            "SELECT record FROM {} WHERE version = ?1 AND opponent = ?2 AND seat = ?3 AND config = ?4",
            play.table()
        );
        let text: Option<String> = self
            .conn
            .query_row(&query, params![key.version, key.opponent, key.seat, key.config], |r| r.get(0))
            .optional()
            .map_err(sql_error(&self.db))?;
        text.map(|t| {
            serde_json::from_str(&t)
                .map_err(|e| VersionsError::CachedRecord { db: self.db.clone(), message: e.to_string() })
        })
        .transpose()
    }

    /// Records a finished game (a newer result under the same key replaces the older).
    pub fn put(&self, play: Play, key: &GameKey, record: &MatchRecord) -> Result<(), VersionsError> {
        let text = record
            .to_line()
            .map_err(|e| VersionsError::CachedRecord { db: self.db.clone(), message: e.to_string() })?;
        let query = format!("INSERT OR REPLACE INTO {} VALUES (?1, ?2, ?3, ?4, ?5, ?6)", play.table());
        let now = i64::try_from(super::store::now_ms()).unwrap_or(i64::MAX);
        self.conn
            .execute(&query, params![key.version, key.opponent, key.seat, key.config, text, now])
            .map_err(sql_error(&self.db))?;
        Ok(())
    }

    /// How many games a version has recorded (first plays only).
    pub fn count(&self, version: &str) -> Result<usize, VersionsError> {
        let n: i64 = self
            .conn
            .query_row("SELECT COUNT(*) FROM results WHERE version = ?1", [version], |r| r.get(0))
            .map_err(sql_error(&self.db))?;
        Ok(usize::try_from(n).unwrap_or(0))
    }
}

fn sql_error(db: &Path) -> impl Fn(rusqlite::Error) -> VersionsError + '_ {
    move |source| VersionsError::Cache { db: db.to_path_buf(), source }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(seat: u8) -> GameKey {
        GameKey { version: "v1".into(), opponent: "algo:v0".into(), seat, config: "c".into() }
    }

    #[test]
    fn a_result_is_found_again_after_the_cache_is_reopened() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("cache").join("results.sqlite");
        let rec = MatchRecord { job_id: "a".into(), winner: 2, turns: 17, ..MatchRecord::default() };
        {
            let cache = ResultCache::open(&db).expect("open");
            assert_eq!(cache.get(Play::First, &key(1)).expect("get"), None);
            cache.put(Play::First, &key(1), &rec).expect("put");
        }
        let cache = ResultCache::open(&db).expect("reopen");
        assert_eq!(cache.get(Play::First, &key(1)).expect("get"), Some(rec.clone()));
        assert_eq!(cache.get(Play::First, &key(2)).expect("get"), None, "the other seat is another game");
        assert_eq!(cache.get(Play::Repeat, &key(1)).expect("get"), None, "a repeat is kept apart");
        assert_eq!(cache.count("v1").expect("count"), 1);
    }

    #[test]
    fn a_damaged_cache_is_moved_aside_and_a_fresh_one_started() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("results.sqlite");
        let rec = MatchRecord { job_id: "a".into(), winner: 1, turns: 9, ..MatchRecord::default() };
        ResultCache::open(&db).expect("open").put(Play::First, &key(1), &rec).expect("put");
        // Truncated to its first page: the header says more pages than there are.
        let bytes = std::fs::read(&db).expect("read");
        assert!(bytes.len() > 4096, "a cache of more than one page");
        std::fs::write(&db, &bytes[..4096]).expect("truncated");
        let cache = ResultCache::open(&db).expect("a damaged cache is not fatal");
        let moved = cache.moved_aside.clone().expect("the damage is reported");
        assert!(moved.to.is_file(), "{moved:?}");
        let message = cache.moved_aside_message().unwrap_or_default();
        assert!(message.contains("every game of every version must be played again"), "{message}");
        assert_eq!(cache.get(Play::First, &key(1)).expect("get"), None, "a fresh cache");
        cache.put(Play::First, &key(1), &rec).expect("the fresh cache is written");
        drop(cache);

        std::fs::write(&db, b"not a database at all, not even close to one ".repeat(100)).expect("garbage");
        let cache = ResultCache::open(&db).expect("garbage is not fatal either");
        assert!(cache.moved_aside.is_some());
    }
}
