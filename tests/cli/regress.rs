//! `terminal-studio versions` and `regress` as a player runs them, with the studio's data
//! folder in a temporary folder: a save that changes nothing says so, the list shows label,
//! date and hash, and `regress --json` gives one object per game against the ghosts (the
//! flipped ones with the turn the versions parted at) and a summary, reusing every game it
//! played before.

use crate::common::corpus::{algo, replay, root};
use std::path::Path;
use std::process::Command;

/// The ghosts: the recorded player 2 of the first replays of this ruleset.
const GHOSTS: &str = "special-2025";
const GHOST_COUNT: usize = 3;

/// Runs `terminal-studio ARGS` with the data folder `data`: exit code, stdout, stderr.
fn studio(data: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .args(args)
        .env("TERMINAL_STUDIO_DATA_DIR", data)
        .output()
        .unwrap_or_else(|e| panic!("cannot run terminal-studio {args:?}: {e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `tests/algos/py-turn-switch` as a self-contained folder, selling its base from `turn`.
fn write_algo(dir: &Path, change_from_turn: Option<u32>) {
    std::fs::create_dir_all(dir).expect("the algo's folder");
    for name in ["terminal_algo.py", "strategies.py"] {
        std::fs::copy(root().join("tests/algos/lib").join(name), dir.join(name)).expect("a helper copied");
    }
    std::fs::copy(algo("py-turn-switch").join("run.sh"), dir.join("run.sh")).expect("run.sh");
    let text = std::fs::read_to_string(algo("py-turn-switch").join("algo.py")).expect("algo.py");
    let change = change_from_turn.map_or("None".to_string(), |k| k.to_string());
    std::fs::write(
        dir.join("algo.py"),
        text.replace("CHANGE_FROM_TURN = None", &format!("CHANGE_FROM_TURN = {change}")),
    )
    .expect("algo.py written");
}

fn ghosts(dir: &Path) {
    let mut all = terminal_core::verify::collect_replays(&[replay(GHOSTS)]);
    all.sort();
    std::fs::create_dir_all(dir).expect("the ghosts' folder");
    for f in all.iter().take(GHOST_COUNT) {
        std::fs::copy(f, dir.join(f.file_name().expect("a name"))).expect("a replay copied");
    }
}

fn json_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}"))).collect()
}

#[test]
fn saving_an_unchanged_folder_says_so_and_the_list_shows_label_date_and_hash() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (dir, data) = (tmp.path().join("my-algo"), tmp.path().join("data"));
    write_algo(&dir, None);
    let before: Vec<_> = std::fs::read_dir(&dir).expect("the folder").flatten().map(|e| e.file_name()).collect();
    let d = dir.to_string_lossy();
    let (code, out, err) = studio(&data, &["versions", "save", &d, "--label", "first try"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("saved ") && out.contains("first try"), "{out}");
    let (code, out, err) = studio(&data, &["versions", "save", &d, "--label", "again"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("unchanged: ") && out.contains("nothing saved") && out.contains("first try"), "{out}");

    let (_, out, _) = studio(&data, &["versions", "list", &d, "--json"]);
    let versions = json_lines(&out);
    assert_eq!(versions.len(), 1, "{out}");
    let hash = versions[0]["hash"].as_str().unwrap_or_default().to_string();
    assert_eq!(hash.len(), 64, "{out}");
    let copy = Path::new(versions[0]["path"].as_str().unwrap_or_default()).to_path_buf();
    assert!(copy.starts_with(&data) && copy.join("algo.py").is_file(), "{}", copy.display());
    let (_, text, _) = studio(&data, &["versions", "list", &d]);
    let line = text.lines().next().unwrap_or_default();
    assert!(line.starts_with(&hash[..16]) && line.ends_with("first try"), "{text}");
    assert!(line.contains(" 20") && line.contains(':'), "a date: {text}");
    let after: Vec<_> = std::fs::read_dir(&dir).expect("the folder").flatten().map(|e| e.file_name()).collect();
    assert_eq!(before, after, "nothing is written into the algo's folder");
}

#[test]
fn regress_json_gives_each_game_and_a_summary_and_plays_no_game_twice() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (dir, data, ghost_dir) = (tmp.path().join("switch"), tmp.path().join("data"), tmp.path().join("ghosts"));
    ghosts(&ghost_dir);
    write_algo(&dir, None);
    let (d, g) = (dir.to_string_lossy().into_owned(), ghost_dir.to_string_lossy().into_owned());
    let (code, _, err) = studio(&data, &["regress", &d, "--ghosts", &g]);
    // The first comparison saves the first version and says what to do next: not a failure.
    assert_eq!(code, Some(0), "the first version saved is not a failure: {err}");
    assert!(err.contains("saved as its first version"), "{err}");
    assert!(err.contains("Change the algo and compare again"), "{err}");
    assert!(!err.contains("no saved version differs") && !err.contains("error"), "{err}");
    assert_eq!(studio(&data, &["versions", "save", &d]).0, Some(0));

    write_algo(&dir, Some(3));
    let (code, out, err) = studio(&data, &["regress", &d, "--ghosts", &g, "--games", "2", "--jobs", "2", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let lines = json_lines(&out);
    let (summary, games) = lines.split_last().unwrap_or_else(|| panic!("no output; stderr: {err}"));
    assert_eq!(games.len(), GHOST_COUNT, "{out}");
    let mut flipped = 0;
    for game in games {
        for key in [
            "opponent",
            "seat",
            "base_result",
            "new_result",
            "flipped",
            "first_divergent_turn",
            "base_replay",
            "new_replay",
        ] {
            assert!(game.get(key).is_some(), "{key} missing from {game}");
        }
        if game["flipped"] == "regression" {
            flipped += 1;
            assert_eq!(game["first_divergent_turn"].as_i64(), Some(3), "{game}");
            assert!(Path::new(game["new_replay"].as_str().unwrap_or_default()).is_file(), "{game}");
        }
    }
    assert!(flipped > 0, "{out}");
    let s = &summary["summary"];
    assert_eq!(s["games"].as_u64(), Some(GHOST_COUNT as u64), "{s}");
    assert!(s["elo"].is_f64() && s["elo_ci"].as_array().is_some_and(|ci| ci.len() == 2), "{s}");
    assert!(s["llr"].is_f64() && s["verdict"].is_string(), "{s}");
    assert_eq!(s["deterministic"].as_bool(), Some(true), "{s}");
    assert_eq!((s["played"]["new"].as_u64(), s["played"]["base"].as_u64()), (Some(3), Some(3)), "{s}");

    // A third version against the second: only its own games are played.
    write_algo(&dir, Some(20));
    let (code, out, err) = studio(&data, &["regress", &d, "--ghosts", &g, "--games", "2", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let s = json_lines(&out).pop().map(|v| v["summary"].clone()).unwrap_or_default();
    assert_eq!((s["played"]["new"].as_u64(), s["played"]["base"].as_u64()), (Some(3), Some(0)), "{s}");
    assert!(
        err.contains(&format!("against the same opponents: {} games to play, 3 from the cache", GHOST_COUNT + 1)),
        "{err}"
    );
}

/// `regress --watch` compares, waits, and compares again once the folder has changed; a
/// signal stops it with 130.
#[cfg(unix)]
#[test]
fn watch_compares_again_when_the_folder_changes() {
    use std::time::{Duration, Instant};
    let tmp = tempfile::tempdir().expect("temp dir");
    let (dir, data, ghost_dir) = (tmp.path().join("switch"), tmp.path().join("data"), tmp.path().join("ghosts"));
    ghosts(&ghost_dir);
    write_algo(&dir, None);
    let d = dir.to_string_lossy().into_owned();
    assert_eq!(studio(&data, &["versions", "save", &d]).0, Some(0));
    write_algo(&dir, Some(3));
    let log = tmp.path().join("watch.log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .args(["regress", &d, "--ghosts", &ghost_dir.to_string_lossy(), "--games", "2", "--watch"])
        .env("TERMINAL_STUDIO_DATA_DIR", &data)
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).expect("a log file"))
        .spawn()
        .expect("terminal-studio runs");
    let wait_for = |what: &str, times: usize| {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            if text.matches(what).count() >= times {
                return text;
            }
            assert!(Instant::now() < deadline, "no {times} × {what:?} within 120 s:\n{text}");
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    wait_for("watching", 1);
    write_algo(&dir, Some(20));
    let text = wait_for("watching", 2);
    assert_eq!(text.matches("saved as version").count(), 2, "{text}");
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).expect("pid"));
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).expect("a signal sent");
    assert_eq!(child.wait().expect("it ends").code(), Some(130));
    let (_, out, _) = studio(&data, &["versions", "list", &d]);
    assert_eq!(out.lines().count(), 3, "{out}");
}

/// A `regress` killed with SIGKILL mid-run, run again, plays only the games it had not
/// recorded and reaches the verdict of a run never interrupted.
#[cfg(unix)]
#[test]
fn a_regress_killed_mid_run_resumes_with_only_the_missing_games() {
    use std::io::BufRead;
    let tmp = tempfile::tempdir().expect("temp dir");
    let (dir, ghost_dir) = (tmp.path().join("switch"), tmp.path().join("ghosts"));
    let (killed_data, whole_data) = (tmp.path().join("killed"), tmp.path().join("whole"));
    ghosts(&ghost_dir);
    write_algo(&dir, None);
    let (d, g) = (dir.to_string_lossy().into_owned(), ghost_dir.to_string_lossy().into_owned());
    for data in [&killed_data, &whole_data] {
        assert_eq!(studio(data, &["versions", "save", &d]).0, Some(0));
    }
    write_algo(&dir, Some(3));
    let args = ["regress", &d, "--ghosts", &g, "--games", "2", "--jobs", "1", "--json"];

    let mut child = Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .args(args)
        .env("TERMINAL_STUDIO_DATA_DIR", &killed_data)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("terminal-studio runs");
    let stderr = child.stderr.take().expect("its stderr");
    // Killed once two games are recorded (a game's line comes after its result is kept).
    let mut finished = 0;
    let mut seen = String::new();
    for line in std::io::BufReader::new(stderr).lines() {
        let line = line.unwrap_or_default();
        seen.push_str(&line);
        seen.push('\n');
        if line.starts_with("  ") && line.contains(" won, ") {
            finished += 1;
            if finished == 2 {
                break;
            }
        }
    }
    assert_eq!(finished, 2, "two games before the end: {seen}");
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).expect("pid"));
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL).expect("SIGKILL sent");
    let status = child.wait().expect("it ends");
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(9), "killed, not ended: {seen}");

    let (code, resumed_out, resumed_err) = studio(&killed_data, &args);
    assert_eq!(code, Some(0), "{resumed_err}");
    let (code, whole_out, whole_err) = studio(&whole_data, &args);
    assert_eq!(code, Some(0), "{whole_err}");
    let (resumed, whole) = (json_lines(&resumed_out), json_lines(&whole_out));
    let played = |v: &[serde_json::Value], key: &str| -> u64 {
        let p = v.last().map(|s| s["summary"]["played"].clone()).unwrap_or_default();
        match key {
            "cached" => p["cached"].as_u64().unwrap_or(0),
            _ => ["head_to_head", "new", "base", "repeat"].iter().map(|k| p[*k].as_u64().unwrap_or(0)).sum(),
        }
    };
    assert!(
        played(&resumed, "cached") >= 2,
        "the two games recorded before the kill come from the cache: {resumed_out}"
    );
    assert_eq!(
        played(&resumed, "played") + played(&resumed, "cached"),
        played(&whole, "played") + played(&whole, "cached"),
        "the games played again are only those missing:\n{resumed_out}\n{whole_out}"
    );
    assert_eq!(
        played(&resumed, "played") + 2,
        played(&whole, "played"),
        "only the two recorded games are not played again:\n{resumed_err}"
    );
    let facts = |v: &[serde_json::Value]| -> Vec<String> {
        v.iter()
            .map(|g| match g.get("summary") {
                Some(s) => format!("{} {} {}", s["verdict"], s["games"], s["elo"]),
                None => {
                    format!("{} {} {} {} {}", g["opponent"], g["seat"], g["base_result"], g["new_result"], g["flipped"])
                }
            })
            .collect()
    };
    assert_eq!(facts(&resumed), facts(&whole), "the same games and the same verdict");
}

/// A damaged results database is moved aside, a fresh one started, and the player told that
/// every result it held must be played again; the comparison goes on.
#[test]
fn a_damaged_results_database_is_moved_aside_and_said() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (dir, data, ghost_dir) = (tmp.path().join("switch"), tmp.path().join("data"), tmp.path().join("ghosts"));
    ghosts(&ghost_dir);
    write_algo(&dir, None);
    let (d, g) = (dir.to_string_lossy().into_owned(), ghost_dir.to_string_lossy().into_owned());
    assert_eq!(studio(&data, &["versions", "save", &d]).0, Some(0));
    write_algo(&dir, Some(3));
    let args = ["regress", &d, "--ghosts", &g, "--games", "0", "--no-noise-check", "--json"];
    let (code, _, err) = studio(&data, &args);
    assert_eq!(code, Some(0), "{err}");
    let db = walk_for(&data, "results.sqlite").unwrap_or_else(|| panic!("no results.sqlite under {}", data.display()));
    std::fs::write(&db, b"this was a results database ".repeat(200)).expect("damaged");
    let (code, out, err) = studio(&data, &args);
    assert_eq!(code, Some(0), "a damaged results database is not fatal: {err}");
    let said: Vec<&str> = err.lines().filter(|l| l.contains("results database") && l.contains("damaged")).collect();
    assert_eq!(said.len(), 1, "{err}");
    assert!(said[0].contains("moved aside") && said[0].contains("must be played again"), "{err}");
    let s = json_lines(&out).pop().map(|v| v["summary"].clone()).unwrap_or_default();
    assert_eq!(s["played"]["cached"].as_u64(), Some(0), "every game played again: {s}");
    assert_eq!(s["games"].as_u64(), Some(GHOST_COUNT as u64), "{s}");
}

/// The first file named `name` under `dir`.
fn walk_for(dir: &Path, name: &str) -> Option<std::path::PathBuf> {
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        if p.file_name().is_some_and(|n| n == name) {
            return Some(p);
        }
        if p.is_dir()
            && let Some(found) = walk_for(&p, name)
        {
            return Some(found);
        }
    }
    None
}
