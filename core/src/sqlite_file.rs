//! What the two SQLite files of the studio (the library index and the versions' results)
//! share: waiting for another process that writes the file rather than failing with
//! "database is locked" (a message on stderr when the wait is long), and a damaged file
//! (not a database, truncated) told from every other error and moved aside so a fresh one
//! can be started.

use rusqlite::{Connection, ErrorCode};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long one wait for the lock sleeps.
const STEP: Duration = Duration::from_millis(10);
/// After this many waits (about 2 s), say so on stderr, once.
const SAY_AFTER: i32 = 200;
/// After this many (about 10 minutes), give up: the other process is stuck.
const GIVE_UP_AFTER: i32 = 60_000;

/// SQLite's busy handler: sleeps while another connection holds the lock, says once on stderr
/// that it is waiting when the wait passes 2 s, gives up after 10 minutes.
fn wait_for_writer(count: i32) -> bool {
    if count == SAY_AFTER {
        eprintln!(
            "terminal-studio: waiting for another process that is writing the same database (a second studio or \
             command on the same folder)…"
        );
    }
    std::thread::sleep(STEP);
    count < GIVE_UP_AFTER
}

/// Opens `db` (made if missing) in WAL mode, so readers read the last committed state while
/// a writer writes, with a connection that waits for another writer rather than failing. A
/// file that was there is checked whole first: damage found is an error `is_damage` knows.
pub(crate) fn open(db: &Path) -> rusqlite::Result<Connection> {
    let existed = std::fs::metadata(db).is_ok_and(|m| m.len() > 0);
    let conn = Connection::open(db)?;
    // Before anything else: even switching to WAL takes a lock another process may hold.
    conn.busy_handler(Some(wait_for_writer))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    if existed {
        check(&conn)?;
    }
    Ok(conn)
}

/// Whether an error says the file itself is damaged: not a database, or corrupt.
pub(crate) fn is_damage(e: &rusqlite::Error) -> bool {
    matches!(e.sqlite_error_code(), Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt))
}

/// SQLite's own quick check of the whole file: a "corrupt" error with what it found.
fn check(conn: &Connection) -> rusqlite::Result<()> {
    let first: String = conn.query_row("PRAGMA quick_check(1)", [], |r| r.get(0))?;
    if first == "ok" {
        return Ok(());
    }
    let corrupt = rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CORRUPT);
    Err(rusqlite::Error::SqliteFailure(corrupt, Some(first)))
}

/// Opens `db` with `open`; when that fails because the file is damaged (`damage` says why),
/// moves the file aside and opens a fresh one in its place.
pub(crate) fn open_replacing_damaged<T, E>(
    db: &Path,
    open: impl Fn(&Path) -> Result<T, E>,
    damage: impl Fn(&E) -> Option<String>,
    io_error: impl FnOnce(std::io::Error) -> E,
) -> Result<(T, Option<MovedAside>), E> {
    match open(db) {
        Ok(opened) => Ok((opened, None)),
        Err(e) => {
            let Some(why) = damage(&e) else { return Err(e) };
            let moved = move_aside(db, why).map_err(io_error)?;
            Ok((open(db)?, Some(moved)))
        }
    }
}

/// A damaged file moved aside: where it went, and what was wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovedAside {
    pub from: PathBuf,
    pub to: PathBuf,
    pub why: String,
}

/// Moves `db` (and its `-wal` and `-shm` files) aside to `<name>.damaged-<unix seconds>`.
fn move_aside(db: &Path, why: String) -> std::io::Result<MovedAside> {
    let to = crate::files::move_aside(db)?;
    let name = db.file_name().map_or_else(|| "database".into(), |n| n.to_string_lossy().into_owned());
    for suffix in ["-wal", "-shm"] {
        let side = db.with_file_name(format!("{name}{suffix}"));
        if side.exists() {
            let mut moved = to.clone().into_os_string();
            moved.push(suffix);
            let _ = std::fs::rename(&side, PathBuf::from(moved));
        }
    }
    Ok(MovedAside { from: db.to_path_buf(), to, why })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_damage_and_is_moved_aside_with_its_side_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("x.sqlite");
        std::fs::write(&db, vec![0x5a; 8192]).expect("garbage written");
        std::fs::write(dir.path().join("x.sqlite-wal"), b"junk").expect("wal written");
        let err = open(&db).expect_err("garbage is not a database");
        assert!(is_damage(&err), "{err}");
        let moved = move_aside(&db, err.to_string()).expect("moved");
        assert!(!db.exists() && moved.to.is_file(), "{moved:?}");
        assert!(moved.to.to_string_lossy().contains("x.sqlite.damaged-"), "{moved:?}");
        assert!(!dir.path().join("x.sqlite-wal").exists(), "the WAL goes with it");
    }
}
