//! The replay library's index against the real replays of `../shared/replays`: what it holds
//! matches a plain reading of the same files, and it follows the folder as files are touched,
//! added, truncated, damaged and deleted.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use terminal_core::layout::stress::{self, AttackFilter, AttackSet, Defence, HpModel, attacks_to_bytes};
use terminal_core::library::query;
use terminal_core::library::{EndKind, Library, LibraryError, LibraryIndex, SCHEMA_VERSION, SchemaState};
use terminal_core::replay::read_replay;
use terminal_core::verify::collect_replays;

#[path = "../../tests/common/corpus.rs"]
mod corpus;

fn index(db: &Path, root: &Path) -> (LibraryIndex, terminal_core::library::UpdateReport) {
    let mut index = LibraryIndex::open(db, root).unwrap_or_else(|e| panic!("{e}"));
    let report = index.update(&|_, _| {}, &AtomicBool::new(false)).unwrap_or_else(|e| panic!("{e}"));
    (index, report)
}

fn load(index: &LibraryIndex) -> Library {
    Library::load(index).unwrap_or_else(|e| panic!("{e}"))
}

/// Breach damage per (scoring player, x, y), summed, as a plain reading of a replay gives it.
fn breach_tiles_read(replay: &terminal_core::replay::Replay) -> BTreeMap<(u8, i32, i32), f64> {
    let mut out = BTreeMap::new();
    for f in &replay.frames {
        for b in &f.events.breach {
            *out.entry((b.owner.index() as u8, b.tile.x, b.tile.y)).or_default() += f64::from(b.damage);
        }
    }
    out
}

#[test]
fn the_index_of_the_shared_replays_matches_a_plain_reading() {
    let root = corpus::replays();
    let files = collect_replays(std::slice::from_ref(&root));
    assert!(files.len() >= 400, "expected the shared corpus, found {} replays under {}", files.len(), root.display());
    let dir = tempfile::tempdir().expect("temp dir");
    let (idx, report) = index(&dir.path().join("lib.sqlite"), &root);
    assert_eq!(report.files, files.len());
    assert_eq!(report.added, files.len(), "every file read once: {report:?}");
    let library = load(&idx);
    assert_eq!(library.games.len() + library.damaged.len(), files.len(), "damaged: {:?}", library.damaged);
    assert_eq!(library.games.len(), files.len(), "the shared replays all read: {:?}", library.damaged);
    let mut breached_games = 0;
    for (game, file) in library.games.iter().zip(&files) {
        assert_eq!(root.join(&game.file), *file, "games in file order");
        let replay = read_replay(file).unwrap_or_else(|e| panic!("{e}"));
        let end = replay.end_frame().and_then(|f| f.end_stats.as_ref());
        assert_eq!(game.record.winner, end.map(|e| e.winner), "{}", game.file);
        assert_eq!(game.record.turns, end.map_or(game.record.turns, |e| e.turns), "{}", game.file);
        let deploy_frames = replay.frames.iter().filter(|f| f.turn_info.phase.number() == 0).count();
        assert_eq!(game.record.turn_states.len(), 2 * deploy_frames, "{}", game.file);
        let mut indexed: BTreeMap<(u8, i32, i32), f64> = BTreeMap::new();
        for b in &game.record.breaches {
            *indexed.entry((b.player, b.x, b.y)).or_default() += f64::from(b.damage);
        }
        let read = breach_tiles_read(&replay);
        assert_eq!(indexed.keys().collect::<Vec<_>>(), read.keys().collect::<Vec<_>>(), "{}", game.file);
        for (k, v) in &read {
            assert!((indexed[k] - v).abs() < 1e-3, "{} breach total at {k:?}: {} vs {v}", game.file, indexed[k]);
        }
        breached_games += usize::from(!read.is_empty());
    }
    assert!(breached_games > 300, "most real games have breaches; {breached_games}");
    // Seen from any player, every breach on them is on their own (bottom) half of the board:
    // games where they were player 2 are turned around.
    let all: Vec<usize> = (0..library.games.len()).collect();
    for me in ["python-algo", "algo_0", "algo_1"] {
        let heat = query::breach_heat(&library.games, &all, me);
        let total: f32 = heat.iter().flatten().sum();
        assert!(total > 0.0, "{me} was breached somewhere");
        let top: f32 = heat[14..].iter().flatten().sum();
        assert_eq!(top, 0.0, "{me}: breaches on the top half of the board");
    }
    // Reopening reads nothing again.
    drop(idx);
    let (_, again) = index(&dir.path().join("lib.sqlite"), &root);
    assert_eq!((again.added, again.changed, again.touched, again.removed), (0, 0, 0, 0), "{again:?}");
}

/// A folder holding copies of the first `n` live-2022 replays.
fn small_folder(n: usize) -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let sources = collect_replays(&[corpus::replay("live-2022")]);
    assert!(sources.len() >= n, "need {n} live-2022 replays, found {}", sources.len());
    let copies = sources[..n]
        .iter()
        .map(|src| {
            let to = dir.path().join(src.file_name().expect("file name"));
            // Written anew rather than copied: a copy keeps the source's read-only mark, and
            // Windows refuses to delete a read-only file.
            let bytes = std::fs::read(src).unwrap_or_else(|e| panic!("read {}: {e}", src.display()));
            std::fs::write(&to, bytes).unwrap_or_else(|e| panic!("write {}: {e}", to.display()));
            to
        })
        .collect();
    (dir, copies)
}

fn set_mtime(file: &Path, secs_ago: u64) {
    let f = std::fs::File::options().write(true).open(file).expect("open");
    let t = std::time::SystemTime::now() - std::time::Duration::from_secs(secs_ago);
    f.set_modified(t).expect("set mtime");
}

#[test]
fn touching_adding_truncating_damaging_and_deleting_files_update_the_index() {
    let (folder, files) = small_folder(5);
    let db_dir = tempfile::tempdir().expect("temp dir");
    let db = db_dir.path().join("lib.sqlite");
    let (_, first) = index(&db, folder.path());
    assert_eq!((first.files, first.added, first.damaged), (5, 5, 0), "{first:?}");

    // Touched: a new mtime, the same bytes.
    set_mtime(&files[0], 3600);
    // Truncated: a match killed while writing (cut mid-line, no end frame).
    let bytes = std::fs::read(&files[1]).expect("read");
    let text = terminal_core::replay::maybe_gunzip(&bytes).expect("gunzip").into_owned();
    let cut = &text[..text.len() / 2];
    std::fs::remove_file(&files[1]).expect("remove");
    let truncated = folder.path().join("cut.replay");
    std::fs::write(&truncated, cut).expect("write");
    // Damaged: not a replay at all.
    std::fs::write(folder.path().join("junk.replay"), b"this is not json\n").expect("write");
    // Deleted.
    std::fs::remove_file(&files[2]).expect("remove");

    let (idx, second) = index(&db, folder.path());
    assert_eq!(second.touched, 1, "{second:?}");
    assert_eq!(second.added, 2, "cut.replay and junk.replay: {second:?}");
    assert_eq!(second.removed, 2, "the deleted file and the one replaced by cut.replay: {second:?}");
    assert_eq!(second.damaged, 1, "{second:?}");
    let library = load(&idx);
    assert_eq!(library.games.len(), 4, "games: {:?}", library.games.iter().map(|g| &g.file).collect::<Vec<_>>());
    let cut_game = library.games.iter().find(|g| g.file == "cut.replay").expect("the truncated replay is a game");
    assert_eq!(cut_game.record.end, EndKind::Unfinished);
    assert_eq!(cut_game.record.winner, None);
    assert_eq!(library.damaged.len(), 1);
    assert_eq!(library.damaged[0].file, "junk.replay");
    assert!(library.damaged[0].error.contains("junk.replay"), "the error names the file: {}", library.damaged[0].error);

    // Changed content under the same name is read again.
    std::fs::write(folder.path().join("junk.replay"), cut).expect("write");
    let (idx, third) = index(&db, folder.path());
    assert_eq!((third.changed, third.damaged, third.added), (1, 0, 0), "{third:?}");
    assert!(load(&idx).damaged.is_empty());
}

#[test]
fn a_stopped_run_leaves_a_usable_index_that_the_next_run_completes() {
    let (folder, files) = small_folder(70);
    let db_dir = tempfile::tempdir().expect("temp dir");
    let db = db_dir.path().join("lib.sqlite");
    let cancel = AtomicBool::new(false);
    let mut idx = LibraryIndex::open(&db, folder.path()).unwrap_or_else(|e| panic!("{e}"));
    // Stopped after the first file of the first batch: that batch is written, no other.
    let report = idx
        .update(
            &|done, _| {
                if done >= 1 {
                    cancel.store(true, Ordering::Relaxed);
                }
            },
            &cancel,
        )
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.cancelled, "{report:?}");
    let partial = load(&idx).games.len();
    assert!(partial < files.len(), "stopped before the end: {partial} of {}", files.len());
    drop(idx);
    let (idx, rest) = index(&db, folder.path());
    assert_eq!(rest.added, files.len() - partial, "{rest:?}");
    assert_eq!(load(&idx).games.len(), files.len());
}

#[test]
fn an_older_index_is_migrated_or_rebuilt_and_a_newer_one_refused() {
    let (folder, _) = small_folder(2);
    let db_dir = tempfile::tempdir().expect("temp dir");
    let db = db_dir.path().join("lib.sqlite");
    let (idx, _) = index(&db, folder.path());
    assert_eq!(idx.schema, SchemaState::Created);
    drop(idx);
    // Version 1 had no attack tables: they are added and the games kept.
    let conn = rusqlite::Connection::open(&db).expect("open db");
    conn.execute_batch("DROP TABLE attacks; DROP TABLE attack_configs; PRAGMA user_version = 1;").expect("make v1");
    drop(conn);
    let (idx, report) = index(&db, folder.path());
    assert_eq!(idx.schema, SchemaState::Migrated { from: 1 });
    assert_eq!(report.added, 0, "no replay read again: {report:?}");
    assert!(idx.kept_attacks().is_ok(), "the attack tables exist after the migration");
    drop(idx);
    set_user_version(&db, 0);
    let (idx, report) = index(&db, folder.path());
    assert_eq!(idx.schema, SchemaState::Rebuilt { from: 0 });
    assert_eq!(report.added, 2, "every replay read again: {report:?}");
    drop(idx);
    set_user_version(&db, SCHEMA_VERSION + 1);
    match LibraryIndex::open(&db, folder.path()) {
        Err(e @ LibraryError::NewerSchema { .. }) => assert!(e.to_string().contains("newer"), "{e}"),
        Err(e) => panic!("expected NewerSchema, got {e}"),
        Ok(_) => panic!("a newer schema was opened"),
    }
}

/// Sets SQLite's `user_version`, as another studio version would have left it.
fn set_user_version(db: &Path, version: i32) {
    let conn = rusqlite::Connection::open(db).unwrap_or_else(|e| panic!("{}: {e}", db.display()));
    conn.pragma_update(None, "user_version", version).unwrap_or_else(|e| panic!("{}: {e}", db.display()));
}

/// The attacks of `files` as the Layout lab loads them, through the index's kept attacks;
/// and how many replays' attacks the run wrote into the index.
fn lab_attacks(idx: &mut LibraryIndex, files: &[PathBuf], filter: &AttackFilter) -> (AttackSet, usize) {
    let kept = idx.kept_attacks().unwrap_or_else(|e| panic!("{e}"));
    let set = stress::load_attacks_cached(files, filter, 2, &|_, _| {}, &AtomicBool::new(false), &kept)
        .unwrap_or_else(|e| panic!("{e}"));
    let written = idx.keep_attacks(kept).unwrap_or_else(|e| panic!("{e}"));
    (set, written)
}

#[test]
fn the_layout_lab_reads_attacks_kept_in_the_index_while_the_replays_stay_unchanged() {
    let (folder, files) = small_folder(3);
    let db_dir = tempfile::tempdir().expect("temp dir");
    let (mut idx, _) = index(&db_dir.path().join("lib.sqlite"), folder.path());
    let config = Arc::new(read_replay(&files[0]).unwrap_or_else(|e| panic!("{e}")).config);
    let filter = AttackFilter { config: Arc::clone(&config), any_ruleset: false };
    let plain =
        stress::load_attacks(&files, &filter, 2, &|_, _| {}, &AtomicBool::new(false)).unwrap_or_else(|e| panic!("{e}"));
    assert!(plain.attacks.len() >= 10, "{} attacks in 3 live-2022 replays", plain.attacks.len());

    let (first, written) = lab_attacks(&mut idx, &files, &filter);
    assert_eq!(written, 3, "the attacks of every replay read are kept");
    assert_eq!(attacks_to_bytes(&first.attacks), attacks_to_bytes(&plain.attacks));

    // Damage one replay but keep its size and mtime: only a kept copy can still give its attacks.
    let meta = std::fs::metadata(&files[1]).expect("metadata");
    let when = meta.modified().expect("mtime");
    std::fs::write(&files[1], vec![b'x'; meta.len() as usize]).expect("overwrite");
    std::fs::File::options().write(true).open(&files[1]).and_then(|f| f.set_modified(when)).expect("set mtime");
    let (second, written) = lab_attacks(&mut idx, &files, &filter);
    assert_eq!(written, 0, "nothing read again");
    assert_eq!((first.kept_replays, second.kept_replays), (0, 3));
    assert!(second.skipped.is_empty(), "{:?}", second.skipped);
    assert_eq!(attacks_to_bytes(&second.attacks), attacks_to_bytes(&plain.attacks));
    let layout_path = corpus::layouts().join("funnel.json");
    let layout = terminal_core::layout::files::load_layout(&layout_path).unwrap_or_else(|e| panic!("{e}"));
    let defence = Defence::from_layout(&layout, terminal_core::engine::geometry::Player::One, &config);
    let cancel = AtomicBool::new(false);
    let run = |set: &AttackSet| {
        stress::run(&set.attacks, &defence, HpModel::Unlimited, 2, &|_, _| {}, &cancel)
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let (from_replays, from_index) = (run(&plain), run(&second));
    assert!(from_replays.totals.hp_lost > 0.0, "the funnel lets some of these attacks through");
    assert_eq!(from_index.totals, from_replays.totals);

    // A changed mtime: the replay is read again, and now it says what is wrong with it.
    set_mtime(&files[1], 5);
    let (third, written) = lab_attacks(&mut idx, &files, &filter);
    assert_eq!(written, 0, "the damaged replay has no attacks to keep");
    assert_eq!(third.skipped.len(), 1, "{:?}", third.skipped);
    assert_eq!(third.skipped[0].file, files[1]);
}
