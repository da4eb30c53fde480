//! A player's replays as a library: every game of a folder indexed in an embedded SQLite
//! database (kept in the studio's data folder unless another place is asked for), updated
//! incrementally, then searched and summed up in memory (`query`).
//!
//! ```no_run
//! use terminal_core::library::{Library, LibraryIndex};
//! use std::sync::atomic::AtomicBool;
//! # fn main() -> Result<(), terminal_core::library::LibraryError> {
//! let root = std::path::Path::new("replays");
//! let mut index = LibraryIndex::open(&LibraryIndex::default_db_path("data".as_ref(), root), root)?;
//! index.update(&|_, _| {}, &AtomicBool::new(false))?;
//! let library = Library::load(&index)?;
//! println!("{} games", library.games.len());
//! # Ok(()) }
//! ```

mod attack_cache;
pub mod facts;
mod index;
pub mod query;
pub mod record;
mod schema;
pub mod site;
pub mod site_query;
mod store;
#[cfg(not(target_arch = "wasm32"))]
pub mod sync;
mod update;

pub use attack_cache::{IndexedAttacks, load_attacks_indexed};
pub use index::LibraryIndex;
pub use query::{GameFilter, OpponentResults, Outcome, Perspective};
pub use record::{BreachTotal, EndKind, GameRecord, SpawnCount, TurnState};
pub use schema::{SCHEMA_VERSION, SchemaState};
pub use site::{SiteAlgo, SiteGame, SiteMatch};
pub use store::{DamagedFile, IndexedGame};
pub use update::UpdateReport;

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    #[error("{}: the library index: {source}", db.display())]
    Sqlite { db: PathBuf, source: rusqlite::Error },
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    Attacks(#[from] crate::layout::stress::AttackError),
    #[error("{}: not a folder of replays", path.display())]
    NotAFolder { path: PathBuf },
    #[error(
        "{}: made by a newer Terminal Studio (index schema {found}; this one reads {supported}): \
         update the studio, or index into another file with --db",
        db.display()
    )]
    NewerSchema { db: PathBuf, found: i32, supported: i32 },
}

impl LibraryError {
    /// What a damaged index file said, if this error is one.
    fn damage(&self) -> Option<String> {
        match self {
            LibraryError::Sqlite { source, .. } if crate::sqlite_file::is_damage(source) => Some(source.to_string()),
            _ => None,
        }
    }
}

/// Everything the index holds, in memory: games in file order, and the files that could not
/// be read.
#[derive(Debug, Clone, Default)]
pub struct Library {
    pub root: PathBuf,
    pub games: Vec<IndexedGame>,
    pub damaged: Vec<DamagedFile>,
}

impl Library {
    /// The index's games, each with the website's facts of its match when the folder's
    /// facts file has them (`facts`); unreadable lines of that file are listed as damaged.
    pub fn load(index: &LibraryIndex) -> Result<Library, LibraryError> {
        let (mut games, mut damaged) = store::load_all(&index.conn, &index.db)?;
        let (site_facts, bad_lines) = facts::read_facts(&index.root);
        facts::attach(&mut games, &site_facts);
        damaged.extend(bad_lines);
        Ok(Library { root: index.root.clone(), games, damaged })
    }
}
