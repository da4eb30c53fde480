//! `terminal-studio library` on real replays: one JSON object per game then a summary, the
//! filters, a killed indexing run that the next run completes, and the errors.

use crate::common::corpus::{replay, replays};
use std::path::Path;
use std::time::{Duration, Instant};

fn library(dir: &Path, db: &Path, more: &[&str]) -> (Option<i32>, String, String) {
    let (dir, db) = (dir.to_string_lossy(), db.to_string_lossy());
    let mut args = vec![dir.as_ref(), "--db", db.as_ref()];
    args.extend_from_slice(more);
    crate::run_studio("library", &args)
}

/// The live-2022 replays, indexed once into a temporary folder: the folder, its files, the
/// index's folder and the index.
fn indexed_live_2022() -> (std::path::PathBuf, Vec<std::path::PathBuf>, tempfile::TempDir, std::path::PathBuf) {
    let dir = replay("live-2022");
    let files = terminal_core::verify::collect_replays(std::slice::from_ref(&dir));
    let db_dir = tempfile::tempdir().expect("temp dir");
    let db = db_dir.path().join("lib.sqlite");
    let (code, _, err) = library(&dir, &db, &["--json"]);
    assert_eq!(code, Some(0), "{err}");
    (dir, files, db_dir, db)
}

fn json_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}"))).collect()
}

#[test]
fn json_gives_every_game_then_a_summary() {
    let dir = replay("live-2022");
    let files = terminal_core::verify::collect_replays(std::slice::from_ref(&dir));
    let db = tempfile::tempdir().expect("temp dir");
    let (code, out, err) = library(&dir, &db.path().join("lib.sqlite"), &["--json"]);
    assert_eq!(code, Some(0), "{err}");
    let lines = json_lines(&out);
    let (summary, games) = lines.split_last().unwrap_or_else(|| panic!("no output; stderr: {err}"));
    assert_eq!(games.len(), files.len());
    for g in games {
        for key in ["file", "ruleset", "players", "winner", "turns", "end", "hp", "breaches"] {
            assert!(!g[key].is_null(), "{key} missing from {g}");
        }
        assert!(matches!(g["winner"].as_u64(), Some(1 | 2)), "{g}");
        assert!(["hp", "turns", "crash", "timeout"].contains(&g["end"].as_str().unwrap_or("")), "{g}");
        for b in g["breaches"].as_array().into_iter().flatten() {
            let b = b.as_array().unwrap_or_else(|| panic!("a breach is [turn, x, y, damage, player]: {b}"));
            assert_eq!(b.len(), 5, "{b:?}");
            assert!(matches!(b[4].as_u64(), Some(1 | 2)), "{b:?}");
        }
    }
    let s = &summary["summary"];
    assert_eq!(s["games"].as_u64(), Some(files.len() as u64), "{s}");
    assert_eq!(s["index"]["added"].as_u64(), Some(files.len() as u64), "{s}");
    assert_eq!(s["me"]["most_frequent"].as_bool(), Some(true), "{s}");
    let wins = games.iter().filter(|g| g["result"] == "win").count();
    assert_eq!(s["wins"].as_u64(), Some(wins as u64), "{s}");

    // Filtered: only my losses, each a loss.
    let me = s["me"]["me"].as_str().unwrap_or_else(|| panic!("no name: {s}")).to_string();
    let (code, out, err) = library(&dir, &db.path().join("lib.sqlite"), &["--json", "--me", &me, "--result", "loss"]);
    assert_eq!(code, Some(0), "{err}");
    let lines = json_lines(&out);
    let (summary, losses) = lines.split_last().unwrap_or_else(|| panic!("no output"));
    assert!(losses.iter().all(|g| g["result"] == "loss"), "{out}");
    assert_eq!(summary["summary"]["losses"].as_u64(), Some(losses.len() as u64));
    assert_eq!(summary["summary"]["index"]["added"].as_u64(), Some(0), "the second run reads nothing again");
}

#[test]
fn the_table_names_me_and_sums_up_by_opponent() {
    let dir = replay("base-s6");
    let db = tempfile::tempdir().expect("temp dir");
    let (code, out, err) = library(&dir, &db.path().join("lib.sqlite"), &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("Me: "), "{out}");
    assert!(out.contains("the name in the most games"), "{out}");
    assert!(out.contains("Results by opponent"), "{out}");
    assert!(err.contains("replays, index"), "{err}");
}

/// A game "me" did not play shows both names, no result and no HP of mine.
#[test]
fn a_game_i_did_not_play_shows_no_side_of_mine() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mine = terminal_core::verify::collect_replays(&[replay("live-2022")]);
    let other = replay("live-2022/archen2019__terminal-ai__p1-29-02-2020-11-39-59-1582994399525-906230231.replay.gz");
    for (i, f) in mine.iter().take(2).chain([&other]).enumerate() {
        std::fs::copy(f, dir.path().join(format!("{i}.replay.gz"))).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    }
    let db = tempfile::tempdir().expect("temp dir");
    let (code, out, err) = library(dir.path(), &db.path().join("lib.sqlite"), &["--me", "algo_0"]);
    assert_eq!(code, Some(0), "{err}");
    let row =
        out.lines().find(|l| l.starts_with("2.replay.gz")).unwrap_or_else(|| panic!("no row of 2.replay.gz: {out}"));
    assert!(row.contains("python-algo vs test-a"), "{row}");
    let tail: Vec<&str> = row.split_whitespace().rev().take(2).collect();
    assert_eq!(tail, ["-", "-"], "{row}");
}

#[test]
fn a_killed_run_leaves_an_index_the_next_run_completes() {
    let dir = replays();
    let files = terminal_core::verify::collect_replays(std::slice::from_ref(&dir));
    let db_dir = tempfile::tempdir().expect("temp dir");
    let db = db_dir.path().join("lib.sqlite");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .args(["library", &dir.to_string_lossy(), "--db", &db.to_string_lossy(), "--json"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run terminal-studio: {e}"));
    // Killed as soon as its write-ahead log holds a batch.
    let wal = db_dir.path().join("lib.sqlite-wal");
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::metadata(&wal).map_or(0, |m| m.len()) == 0 && Instant::now() < deadline {
        if child.try_wait().ok().flatten().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    let (code, out, err) = library(&dir, &db, &["--json"]);
    assert_eq!(code, Some(0), "the index opens after a kill: {err}");
    let lines = json_lines(&out);
    let summary = &lines.last().unwrap_or_else(|| panic!("no output"))["summary"];
    assert_eq!(summary["games"].as_u64(), Some(files.len() as u64), "{summary}");
    let read_now = summary["index"]["added"].as_u64().unwrap_or(0) + summary["index"]["changed"].as_u64().unwrap_or(0);
    assert!(read_now <= files.len() as u64, "{summary}");
}

#[test]
fn a_missing_folder_is_a_usage_error_naming_it() {
    let db = tempfile::tempdir().expect("temp dir");
    let missing = db.path().join("no-such-folder");
    let (code, _, err) = library(&missing, &db.path().join("lib.sqlite"), &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no-such-folder") && err.contains("not a folder"), "{err}");
}

#[test]
fn the_layout_lab_on_an_indexed_folder_keeps_its_attacks_in_the_index() {
    let (dir, files, _db_dir, db) = indexed_live_2022();
    let layout = crate::common::corpus::layouts().join("funnel.json");
    let (layout, dir_s, db_s) = (layout.to_string_lossy(), dir.to_string_lossy(), db.to_string_lossy());
    let stress = || {
        let args = ["--config", "live-2022", "--attacks", dir_s.as_ref(), "--db", db_s.as_ref(), "--json"];
        let (code, out, err) = crate::run_studio("stress", &[&[layout.as_ref()], &args[..]].concat());
        assert_eq!(code, Some(1), "the funnel loses HP to these attacks: {err}");
        (out, err)
    };
    let (first_out, first_err) = stress();
    let (second_out, second_err) = stress();
    let n = files.len();
    assert!(first_err.contains(&format!("attacks of 0 of {n} replays taken from the library index")), "{first_err}");
    assert!(
        second_err.contains(&format!("attacks of {n} of {n} replays taken from the library index")),
        "{second_err}"
    );
    assert_eq!(first_out, second_out, "the same attacks give the same report");

    let (code, _, err) = crate::run_studio(
        "stress",
        &[layout.as_ref(), "--attacks", dir_s.as_ref(), dir_s.as_ref(), "--db", db_s.as_ref()],
    );
    assert_eq!(code, Some(2), "--db with two folders is refused: {err}");
    assert!(err.contains("--db needs one folder"), "{err}");
}

/// Two processes on one index at once (the CLI while the studio indexes, two windows): both
/// end with every game, neither fails with "database is locked".
#[test]
fn two_processes_on_one_index_both_answer() {
    let dir = replays();
    let files = terminal_core::verify::collect_replays(std::slice::from_ref(&dir));
    let db_dir = tempfile::tempdir().expect("temp dir");
    let db = db_dir.path().join("lib.sqlite");
    let start = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
            .args(["library", &dir.to_string_lossy(), "--db", &db.to_string_lossy(), "--json"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run terminal-studio: {e}"))
    };
    let children = [start(), start(), start()];
    for child in children {
        let out = child.wait_with_output().unwrap_or_else(|e| panic!("terminal-studio: {e}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert!(!err.contains("locked"), "{err}");
        let lines = json_lines(&String::from_utf8_lossy(&out.stdout));
        let summary = &lines.last().unwrap_or_else(|| panic!("no output; stderr: {err}"))["summary"];
        assert_eq!(summary["games"].as_u64(), Some(files.len() as u64), "{summary}");
    }
}

/// An index that is not a database, or one cut short, is moved aside and rebuilt from the
/// replays, saying so in one line.
#[test]
fn a_garbage_or_truncated_index_is_moved_aside_and_rebuilt() {
    let (dir, files, db_dir, db) = indexed_live_2022();
    let whole = std::fs::read(&db).expect("the index");
    assert!(whole.len() > 16 * 1024, "an index of more than a few pages: {} bytes", whole.len());
    let damages: [(&str, Vec<u8>); 2] = [
        ("garbage", b"these bytes were never a database ".repeat(300)),
        ("truncated", whole[..whole.len() / 3].to_vec()),
    ];
    for (what, bytes) in damages {
        std::fs::write(&db, &bytes).expect("the index damaged");
        let (code, out, err) = library(&dir, &db, &["--json"]);
        assert_eq!(code, Some(0), "a {what} index is rebuilt, not fatal: {err}");
        let said: Vec<&str> = err.lines().filter(|l| l.contains("damaged") && l.contains("moved aside")).collect();
        assert_eq!(said.len(), 1, "one line says so ({what}): {err}");
        assert!(said[0].contains("lib.sqlite") && said[0].contains("rebuilding it from the replays"), "{err}");
        let summary = &json_lines(&out).last().cloned().unwrap_or_default()["summary"];
        assert_eq!(summary["games"].as_u64(), Some(files.len() as u64), "{what}: {summary}");
        assert_eq!(summary["index"]["added"].as_u64(), Some(files.len() as u64), "{what}: read again: {summary}");
    }
    let aside = std::fs::read_dir(db_dir.path())
        .expect("the index's folder")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("lib.sqlite.damaged-"))
        .count();
    assert_eq!(aside, 2, "each damaged index kept aside");
}
