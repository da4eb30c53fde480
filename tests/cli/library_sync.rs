//! `terminal-studio library sync` and `view <match>` against a stand-in for the game's website
//! on 127.0.0.1 (`common::site`): every match fetched and indexed with "me" from the site's
//! facts, a second sync that asks for no replay, each fault named or retried with nothing
//! lost, a killed sync resumed, and a match opened by its watch link.

use crate::common::corpus::replay;
use crate::common::site::{FakeSite, Fault, MY_ALGO, MY_ALGO_NAME, USER_ID, USER_NAME};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Six real games, won by player 1 in one and player 2 in five.
fn site() -> FakeSite {
    let mut files = terminal_core::verify::collect_replays(&[replay("special-2024")]);
    files.sort();
    assert_eq!(files.len(), 6, "special-2024 should hold six replays");
    FakeSite::start(&files, 1)
}

/// The arguments of `library` that sync `dir` from `site` at `rate` requests a second,
/// indexed in `dir`.sqlite.
fn sync_args(site: &FakeSite, dir: &Path, rate: &str) -> Vec<String> {
    let db = dir.with_extension("sqlite");
    let mut args: Vec<String> = vec!["sync".into(), dir.to_string_lossy().into_owned()];
    args.extend(["--api", &site.api, "--rate", rate, "--db"].map(String::from));
    args.push(db.to_string_lossy().into_owned());
    args
}

fn sync(site: &FakeSite, dir: &Path, who: &[&str], more: &[&str]) -> (Option<i32>, String, String) {
    let mut args = sync_args(site, dir, "0");
    args.extend(who.iter().chain(more).map(|a| (*a).to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    crate::run_studio("library", &args)
}

/// The games `library --json` lists for `dir` (indexed in the sync's database), and its summary.
fn library(dir: &Path) -> (Vec<serde_json::Value>, serde_json::Value) {
    let db = dir.with_extension("sqlite");
    let (code, out, err) =
        crate::run_studio("library", &[&dir.to_string_lossy(), "--db", &db.to_string_lossy(), "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let mut lines: Vec<serde_json::Value> =
        out.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}"))).collect();
    let summary = lines.pop().unwrap_or_else(|| panic!("no output: {err}"));
    (lines, summary["summary"].clone())
}

/// The match ids of the replays in `dir`, sorted.
fn replays_in(dir: &Path) -> Vec<u64> {
    let mut ids: Vec<u64> = std::fs::read_dir(dir)
        .map(|entries| {
            entries.filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".replay.gz")?.parse().ok()).collect()
        })
        .unwrap_or_default();
    ids.sort();
    ids
}

/// Files in `dir` that are neither a replay nor the facts file (a temporary file left over).
fn strays(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().to_str().map(str::to_string))
        .filter(|n| !n.ends_with(".replay.gz") && n != "site-matches.jsonl")
        .collect()
}

/// The index agrees with the folder: one game per replay kept, seen from my side, with the
/// site's result.
fn assert_indexed(site: &FakeSite, dir: &Path) {
    let kept = replays_in(dir);
    let (games, summary) = library(dir);
    assert_eq!(games.len(), kept.len(), "one game per replay in the folder: {summary}");
    if kept.is_empty() {
        return;
    }
    assert_eq!(summary["me"]["me"], USER_NAME, "me from the site's facts: {summary}");
    assert_eq!(summary["me"]["from_site"], true, "{summary}");
    for g in &games {
        let file = g["file"].as_str().unwrap_or_default();
        let id: u64 = file.trim_end_matches(".replay.gz").parse().unwrap_or_else(|_| panic!("file {file}"));
        let expected = if site.i_won(id) { "win" } else { "loss" };
        assert_eq!(g["result"], expected, "match {id}: {g}");
        let players = g["players"].as_array().unwrap_or_else(|| panic!("players: {g}"));
        assert!(players.iter().any(|p| p == MY_ALGO_NAME), "the site's algo names: {g}");
    }
}

#[test]
fn sync_fetches_every_match_and_a_second_sync_asks_for_no_replay() {
    let site = site();
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("ladder");
    let (code, out, err) = sync(&site, &dir, &["--user", USER_ID], &["--json"]);
    assert_eq!(code, Some(0), "{err}");
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{out}: {e}"));
    assert_eq!(report["sync"]["downloaded"], 6, "{report}");
    assert_eq!(report["index"]["added"], 6, "{report}");
    assert_eq!(replays_in(&dir), site.match_ids());
    assert!(err.contains("algo 700: 6 matches listed"), "{err}");
    assert!(err.contains("6 replays to download (0 already in the folder)"), "{err}");
    let facts = std::fs::read_to_string(dir.join("site-matches.jsonl")).expect("the facts file");
    assert_eq!(facts.lines().count(), 6, "{facts}");
    assert!(strays(&dir).is_empty(), "{:?}", strays(&dir));
    assert_indexed(&site, &dir);
    // I won three and lost three on the site, whatever seat I had in each replay.
    let (games, summary) = library(&dir);
    assert_eq!(games.iter().filter(|g| g["result"] == "win").count(), 3);
    let rivals = summary["rivals"].as_array().unwrap_or_else(|| panic!("no rivals: {summary}"));
    assert_eq!(rivals.len(), 3, "rival-0, rival-1, rival-2: {summary}");
    let total: u64 = rivals.iter().filter_map(|r| r["games"].as_u64()).sum();
    assert_eq!(total, 6, "{summary}");
    let db = dir.with_extension("sqlite");
    let (code, text, err) = crate::run_studio("library", &[&dir.to_string_lossy(), "--db", &db.to_string_lossy()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.starts_with(&format!("Me: {USER_NAME} (the synced algos' user")), "{text}");
    assert!(text.contains("Rivals (from the website's facts)"), "{text}");
    assert!(text.contains(&format!("Rating of {MY_ALGO_NAME}: ")), "{text}");

    site.clear_requests();
    let (code, out, err) = sync(&site, &dir, &["--algo", &MY_ALGO.to_string()], &["--json"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(site.requests(), vec![format!("/algo/{MY_ALGO}/matches")], "the list, and no replay");
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{out}: {e}"));
    assert_eq!((report["sync"]["present"].as_u64(), report["sync"]["downloaded"].as_u64()), (Some(6), Some(0)));
    assert_eq!(report["index"]["added"], 0, "{report}");
}

#[test]
fn unknown_users_and_algos_and_bad_lists_are_named() {
    let site = site();
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("ladder");

    let (code, _, err) = sync(&site, &dir, &["--user", "999"], &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("/user/999/algos?team=false: not found (404): user 999"), "{err}");

    let (code, _, err) = sync(&site, &dir, &["--algo", "12345"], &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("/algo/12345/matches: not found (404): algo 12345"), "{err}");

    let list = format!("/algo/{MY_ALGO}/matches");
    site.fault(&list, Fault::NotJson, 1);
    let (code, _, err) = sync(&site, &dir, &["--algo", &MY_ALGO.to_string()], &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(&format!("{list}: the body is not JSON")), "{err}");

    site.fault(&list, Fault::NoData, 1);
    let (code, _, err) = sync(&site, &dir, &["--algo", &MY_ALGO.to_string()], &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(&format!("{list}: the JSON has no field `data.matches`")), "{err}");
    assert!(replays_in(&dir).is_empty(), "nothing listed, nothing fetched");

    // 429 with Retry-After: 1, then the list: waited for, and the sync goes on.
    site.fault(&list, Fault::TooMany { retry_after: 1 }, 1);
    site.clear_requests();
    let started = Instant::now();
    let (code, _, err) = sync(&site, &dir, &["--algo", &MY_ALGO.to_string()], &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(started.elapsed() >= Duration::from_secs(1), "Retry-After honoured");
    assert_eq!(site.requests().iter().filter(|r| **r == list).count(), 2, "{:?}", site.requests());
    assert_eq!(replays_in(&dir), site.match_ids());
    assert_indexed(&site, &dir);
}

#[test]
fn bad_replays_are_named_and_not_kept_and_the_next_sync_fetches_only_them() {
    let site = site();
    let ids = site.match_ids();
    let replay_path = |k: usize| format!("/replayexpanded/{}", ids[k]);
    site.fault(&replay_path(0), Fault::Status(503), 100);
    site.fault(&replay_path(1), Fault::Html, 100);
    site.fault(&replay_path(2), Fault::TruncatedGzip, 100);
    site.fault(&replay_path(3), Fault::Slow(Duration::from_secs(4)), 100);
    site.fault(&replay_path(4), Fault::CutMidBody, 1);
    site.fault(&replay_path(5), Fault::Status(502), 1);
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("ladder");
    let algo = MY_ALGO.to_string();
    let (code, _, err) = sync(&site, &dir, &["--algo", &algo], &["--attempts", "3", "--timeout", "0.5"]);
    assert_eq!(code, Some(1), "{err}");
    let named = |k: usize, why: &str| {
        let line = format!("failed: {}{}: {why}", site.api, replay_path(k));
        assert!(err.contains(&line), "{line}\nnot in:\n{err}");
    };
    named(0, "the server answered 503 (tried 3 times)");
    named(1, "not a replay (an HTML page); not kept");
    named(2, "not a replay (");
    named(3, "no answer within 0.5 s (timeout) (tried 3 times)");
    assert!(err.contains("6 matches listed: 2 replays downloaded, 0 already in the folder, 4 failed"), "{err}");
    // The connection cut mid-body and the one 502 were tried again and kept.
    assert_eq!(replays_in(&dir), vec![ids[4], ids[5]]);
    assert!(strays(&dir).is_empty(), "{:?}", strays(&dir));
    assert_indexed(&site, &dir);

    for k in 0..4 {
        site.fault(&replay_path(k), Fault::Status(503), 0);
    }
    site.clear_requests();
    let (code, _, err) = sync(&site, &dir, &["--algo", &algo], &[]);
    assert_eq!(code, Some(0), "{err}");
    let mut asked: Vec<String> = site.requests().into_iter().filter(|r| r.starts_with("/replayexpanded/")).collect();
    asked.sort();
    assert_eq!(asked, (0..4).map(replay_path).collect::<Vec<_>>(), "only the missing replays");
    assert_eq!(replays_in(&dir), ids);
    assert_indexed(&site, &dir);
}

#[test]
fn a_sync_stops_after_failures_in_a_row_and_says_why() {
    let mut files = terminal_core::verify::collect_replays(&[replay("special-2024")]);
    files.sort();
    let site = FakeSite::start(&files, 3);
    for id in site.match_ids() {
        site.fault(&format!("/replayexpanded/{id}"), Fault::Status(500), 100);
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("ladder");
    let (code, _, err) = sync(&site, &dir, &["--algo", &MY_ALGO.to_string()], &["--attempts", "1"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("stopped after 5 failures in a row; the last: "), "{err}");
    let asked = site.replay_requests();
    assert!((5..18).contains(&asked), "{asked} of 18 replays asked for before stopping");
    assert!(replays_in(&dir).is_empty());
    assert_indexed(&site, &dir);
}

#[test]
fn a_killed_sync_resumes_without_asking_again() {
    let site = site();
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("ladder");
    let mut child = sync_until_two_replays(&site, &dir, "4", std::process::Stdio::null());
    child.kill().expect("kill the sync");
    let _ = child.wait();
    let before = replays_in(&dir);
    assert!((2..6).contains(&before.len()), "killed mid-way: {before:?}");
    site.clear_requests();
    let (code, _, err) = sync(&site, &dir, &["--algo", &MY_ALGO.to_string()], &[]);
    assert_eq!(code, Some(0), "{err}");
    let asked: Vec<u64> =
        site.requests().iter().filter_map(|r| r.strip_prefix("/replayexpanded/")?.parse().ok()).collect();
    assert!(asked.iter().all(|id| !before.contains(id)), "asked again for a kept replay: {asked:?} {before:?}");
    assert_eq!(asked.len(), 6 - before.len());
    assert_eq!(replays_in(&dir), site.match_ids());
    assert_indexed(&site, &dir);
}

fn view(site: &FakeSite, data: &Path, what: &str) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .args(["view", what, "--api", &site.api, "--download-only"])
        .env("TERMINAL_STUDIO_DATA_DIR", data)
        .output()
        .expect("run terminal-studio view");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn view_downloads_a_match_by_its_watch_link_once() {
    let site = site();
    let data = tempfile::tempdir().expect("temp dir");
    let id = site.match_ids()[2];
    let (code, out, err) = view(&site, data.path(), &format!("https://terminal.c1games.com/watch/{id}"));
    assert_eq!(code, Some(0), "{err}");
    let path = PathBuf::from(out.trim());
    assert_eq!(path, data.path().join("site-matches").join(format!("{id}.replay.gz")));
    let kept = terminal_core::replay::read_replay(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut files = terminal_core::verify::collect_replays(&[replay("special-2024")]);
    files.sort();
    let original = terminal_core::replay::read_replay(&files[2]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(kept.frames.len(), original.frames.len());
    assert_eq!(site.replay_requests(), 1);

    let (code, _, err) = view(&site, data.path(), &id.to_string());
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(site.replay_requests(), 1, "the cached match is not asked for again");

    let (code, _, err) = view(&site, data.path(), "https://terminal.c1games.com/watch/");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a match id or a watch link"), "{err}");
    let (code, _, err) = view(&site, data.path(), "123456");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("/replayexpanded/123456: not found (404): match 123456"), "{err}");
}

/// The figure for docs/library.md: 500 live-2022 matches (300 replays served again and again,
/// ~1.1 MB of JSON each) synced at `--rate 0` from the local site and indexed, timed and
/// measured by GNU time. Run with `cargo test --test cli bench_sync -- --ignored --nocapture`;
/// `TERMINAL_STUDIO_BIN=target/release/terminal-studio` measures a release build of the studio
/// (the site stays in this test process).
#[test]
#[ignore = "a benchmark: run it on purpose"]
fn bench_sync_500_matches() {
    let mut files = terminal_core::verify::collect_replays(&[replay("live-2022")]);
    files.sort();
    let site = FakeSite::start(&files, 2);
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("ladder");
    let db = dir.with_extension("sqlite");
    let count = 500;
    let algo = MY_ALGO.to_string();
    site.keep_only(count);
    let studio = std::env::var_os("TERMINAL_STUDIO_BIN")
        .map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_terminal-studio")), PathBuf::from);
    let started = Instant::now();
    let out = std::process::Command::new("/usr/bin/time")
        .args(["-f", "max RSS %M KB, %e s wall, %U s user, %S s system"])
        .arg(&studio)
        .args(["library", "sync", &dir.to_string_lossy(), "--api", &site.api, "--rate", "0", "--algo", &algo])
        .args(["--db", &db.to_string_lossy(), "--json"])
        .output()
        .expect("run /usr/bin/time terminal-studio");
    let seconds = started.elapsed().as_secs_f64();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(replays_in(&dir).len(), count);
    let measured = err.lines().last().unwrap_or_default();
    println!("{}: {count} matches synced and indexed: {seconds:.2} s; {measured}", studio.display());
    let rss_kb: f64 = measured.split_whitespace().nth(2).and_then(|v| v.parse().ok()).unwrap_or(f64::MAX);
    assert!(seconds < 15.0, "{seconds:.2} s");
    assert!(rss_kb < 200.0 * 1024.0, "{measured}");
}

/// A facts file with a line it cannot read is never rewritten (that line is the player's data):
/// the sync says which line, and keeps the file byte for byte.
#[test]
fn a_damaged_facts_file_is_named_and_left_as_it_is() {
    let site = site();
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("ladder");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let damaged = "{\"id\": 1, \"not\": \"a whole match\"}\n";
    std::fs::write(dir.join("site-matches.jsonl"), damaged).expect("write the facts");
    let (code, _, err) = sync(&site, &dir, &["--algo", &MY_ALGO.to_string()], &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("site-matches.jsonl:1: "), "{err}");
    assert!(err.contains("the facts file is left as it is"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("site-matches.jsonl")).expect("read"), damaged);
    assert_eq!(site.replay_requests(), 0, "nothing downloaded before the facts are kept");
}

/// A disk that fills mid-sync, as a file-size limit (RLIMIT_FSIZE, with SIGXFSZ ignored so a
/// write past it fails as a full disk's does, where `ENOSPC` would need a mount of our own):
/// the failing writes are named, nothing half-written is kept, what was written stays, and the
/// next sync with room completes the folder and its index.
#[cfg(unix)]
#[test]
fn a_full_disk_stops_the_sync_naming_the_write_and_the_next_sync_completes() {
    let site = site();
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("ladder");
    let algo = MY_ALGO.to_string();
    // 8 blocks of 512 bytes: the facts file fits, most replays do not.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 8 && exec \"$0\" \"$@\"")
        .args([env!("CARGO_BIN_EXE_terminal-studio"), "library"])
        .args(sync_args(&site, &dir, "0"))
        .args(["--algo", &algo])
        .output()
        .unwrap_or_else(|e| panic!("cannot run sh: {e}"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("File too large") && err.contains(".replay.gz"), "the failed write named:\n{err}");
    assert!(strays(&dir).is_empty(), "nothing half-written kept: {:?}", strays(&dir));
    let kept_before = replays_in(&dir);
    assert!(kept_before.len() < site.match_ids().len(), "the limit stopped some replays: {kept_before:?}");
    for id in &kept_before {
        let path = dir.join(format!("{id}.replay.gz"));
        terminal_core::replay::read_replay(&path).unwrap_or_else(|e| panic!("{} kept damaged: {e}", path.display()));
    }

    let (code, _, err) = sync(&site, &dir, &["--algo", &algo], &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(replays_in(&dir), site.match_ids(), "the next sync brings the rest");
    assert!(strays(&dir).is_empty(), "{:?}", strays(&dir));
    assert_indexed(&site, &dir);
}

/// Ctrl+C (SIGINT) mid-sync stops the downloads, keeps what arrived, and indexes it.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_sync_and_indexes_what_arrived() {
    let site = site();
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("ladder");
    let child = sync_until_two_replays(&site, &dir, "2", std::process::Stdio::piped());
    let status = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    assert!(status.is_ok_and(|s| s.success()), "kill -INT");
    let out = child.wait_with_output().expect("the sync ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stopped, said with exit status 1:\n{err}");
    assert!(err.contains("stopping the sync"), "{err}");
    let kept = replays_in(&dir);
    assert!((2..6).contains(&kept.len()), "stopped mid-way: {kept:?}\n{err}");
    assert!(err.contains(&format!("{} replays downloaded", kept.len())), "{err}");
    assert!(strays(&dir).is_empty(), "{:?}", strays(&dir));
    assert_indexed(&site, &dir);
}

/// A sync of my algo at `rate` requests a second, running once two replays have arrived.
fn sync_until_two_replays(site: &FakeSite, dir: &Path, rate: &str, stderr: std::process::Stdio) -> std::process::Child {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .arg("library")
        .args(sync_args(site, dir, rate))
        .args(["--algo", &MY_ALGO.to_string()])
        .stderr(stderr)
        .spawn()
        .expect("start terminal-studio");
    let started = Instant::now();
    while replays_in(dir).len() < 2 && started.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}
