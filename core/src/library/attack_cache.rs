//! The Layout lab's prepared attacks, kept in the index beside the games: a replay read once
//! by the lab is not read or rebuilt again while the file stays as it was. Rows are loaded
//! before the lab's workers start (a connection is not shared between threads) and the
//! attacks of replays read during the run are written after it.

use super::LibraryError;
use super::index::{LibraryIndex, relative_name};
use super::update::Stamp;
use crate::engine::config::Config;
use crate::layout::stress::{
    Attack, AttackCache, AttackFilter, AttackSet, attacks_from_bytes, attacks_to_bytes, load_attacks_cached,
};
use crate::verify::ruleset_name;
use rusqlite::params;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};

/// One replay's kept attacks.
struct KeptRow {
    stamp: Stamp,
    config_id: i64,
    /// `attacks_to_bytes`, deflated.
    deflated: Vec<u8>,
}

/// Attacks of a replay read during the run, to write.
struct Fresh {
    file_id: i64,
    stamp: Stamp,
    config_raw: String,
    deflated: Vec<u8>,
}

/// The index's kept attacks for a run of the Layout lab over files of the indexed folder.
pub struct IndexedAttacks {
    root: PathBuf,
    /// The index's files, by path under the root.
    file_ids: HashMap<String, i64>,
    rows: HashMap<String, KeptRow>,
    /// Every kept config, by id: the config and its ruleset's name.
    configs: HashMap<i64, (Arc<Config>, String)>,
    fresh: Mutex<Vec<Fresh>>,
}

/// The Layout lab's attacks of `files`, taken from the index of `root` kept in `db` where it
/// has them, read from the replays (and then kept) where it does not.
pub fn load_attacks_indexed(
    db: &Path,
    root: &Path,
    files: &[PathBuf],
    filter: &AttackFilter,
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &AtomicBool,
) -> Result<AttackSet, LibraryError> {
    let mut index = LibraryIndex::open(db, root)?;
    let kept = index.kept_attacks()?;
    let set = load_attacks_cached(files, filter, jobs, progress, cancel, &kept)?;
    index.keep_attacks(kept)?;
    Ok(set)
}

impl LibraryIndex {
    /// Where the index of `root` is, when `root` has been indexed at the default place.
    pub fn existing_db(data_dir: &Path, root: &Path) -> Option<PathBuf> {
        Some(Self::default_db_path(data_dir, root)).filter(|db| db.is_file())
    }

    /// The attacks the index keeps for the Layout lab, to pass to `load_attacks_cached`.
    pub fn kept_attacks(&self) -> Result<IndexedAttacks, LibraryError> {
        let sql = |source| LibraryError::Sqlite { db: self.db.clone(), source };
        let mut configs = HashMap::new();
        let mut stmt = self.conn.prepare("SELECT id, raw FROM attack_configs").map_err(sql)?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))).map_err(sql)?;
        for row in rows {
            let (id, raw) = row.map_err(sql)?;
            // A config this studio no longer reads only costs its replays a new read.
            let value = serde_json::from_str(&raw).ok();
            if let Some(config) = value.and_then(|v| Config::from_value(v).ok()) {
                let name = ruleset_name(&config);
                configs.insert(id, (Arc::new(config), name));
            }
        }
        let file_ids = super::store::known_files(&self.conn, &self.db)?.into_iter().map(|(p, k)| (p, k.id)).collect();
        let mut stmt = self
            .conn
            .prepare("SELECT f.path, a.size, a.mtime_ns, a.config_id, a.bytes FROM attacks a JOIN files f ON f.id = a.file_id")
            .map_err(sql)?;
        let rows = stmt
            .query_map([], |r| {
                let stamp = Stamp { size: r.get(1)?, mtime_ns: r.get(2)? };
                Ok((r.get::<_, String>(0)?, KeptRow { stamp, config_id: r.get(3)?, deflated: r.get(4)? }))
            })
            .map_err(sql)?
            .collect::<Result<HashMap<_, _>, _>>()
            .map_err(sql)?;
        Ok(IndexedAttacks { root: self.root.clone(), file_ids, rows, configs, fresh: Mutex::new(Vec::new()) })
    }

    /// Writes the attacks of the replays read during a run; how many replays.
    pub fn keep_attacks(&mut self, kept: IndexedAttacks) -> Result<usize, LibraryError> {
        let sql = |source| LibraryError::Sqlite { db: self.db.clone(), source };
        let fresh = kept.fresh.into_inner().unwrap_or_else(PoisonError::into_inner);
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(sql)?;
        for f in &fresh {
            tx.execute("INSERT OR IGNORE INTO attack_configs (raw) VALUES (?1)", [&f.config_raw]).map_err(sql)?;
            let config_id: i64 = tx
                .query_row("SELECT id FROM attack_configs WHERE raw = ?1", [&f.config_raw], |r| r.get(0))
                .map_err(sql)?;
            tx.execute(
                "INSERT OR REPLACE INTO attacks (file_id, size, mtime_ns, config_id, bytes) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![f.file_id, f.stamp.size, f.stamp.mtime_ns, config_id, f.deflated],
            )
            .map_err(sql)?;
        }
        tx.commit().map_err(sql)?;
        Ok(fresh.len())
    }
}

impl IndexedAttacks {
    /// How many replays have attacks kept.
    pub fn kept_replays(&self) -> usize {
        self.rows.len()
    }

    /// `file`'s path under the root and its stamp now; `None` outside the root or unreadable.
    fn locate(&self, file: &Path) -> Option<(String, Stamp)> {
        file.strip_prefix(&self.root).ok()?;
        let meta = std::fs::metadata(file).ok()?;
        Some((relative_name(&self.root, file), Stamp::of(&meta)))
    }
}

impl AttackCache for IndexedAttacks {
    fn kept(&self, file: &Path, filter: &AttackFilter) -> Option<Vec<Attack>> {
        let (rel, stamp) = self.locate(file)?;
        let row = self.rows.get(&rel).filter(|row| row.stamp == stamp)?;
        let (config, ruleset) = self.configs.get(&row.config_id)?;
        if config.units != filter.config.units || config.resources != filter.config.resources {
            return None;
        }
        let mut bytes = Vec::with_capacity(row.deflated.len() * 8);
        flate2::read::DeflateDecoder::new(row.deflated.as_slice()).read_to_end(&mut bytes).ok()?;
        attacks_from_bytes(&bytes, file, ruleset, config)
    }

    fn keep(&self, file: &Path, recorded: &Config, attacks: &[Attack]) {
        let Some((rel, stamp)) = self.locate(file) else { return };
        let Some(&file_id) = self.file_ids.get(&rel) else { return };
        let mut encoder = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        // Writing to memory cannot fail; a failure would only cost this replay a new read.
        if encoder.write_all(&attacks_to_bytes(attacks)).is_err() {
            return;
        }
        let Ok(deflated) = encoder.finish() else { return };
        let fresh = Fresh { file_id, stamp, config_raw: recorded.raw.to_string(), deflated };
        self.fresh.lock().unwrap_or_else(PoisonError::into_inner).push(fresh);
    }
}
