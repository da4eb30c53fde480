//! Hostile algos (`tests/algos/py-hostile-*`) under the default confinement and without it
//! (docs/runner.md, Confinement). Each test plays the same hostile algo twice against
//! `py-idle`: confined, its act is refused or stopped, it crashes at the turn of the act
//! (as the official engine charges a crash), the match finishes, its replay verifies exact,
//! and the rule is named in the match log, the summary and the seat's stderr log;
//! unconfined, the act succeeds, which proves the confined run's refusal was confinement's.
//! Every target is in a folder the test owns; every act is bounded (lib/hostile.py).
//!
//! Rules that need Landlock (files, network) fail, naming what is missing, on a kernel
//! without it: the match log then says the rules were not enforced, and the test says so
//! instead of passing on a check it could not make.
#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use terminal_core::engine::presets::preset;
use terminal_core::runner::{Confinement, MatchResult, MatchSpec, ReplayTarget, run_match_blocking};
use terminal_core::verify::{Status, verify_file};

#[path = "../../tests/common/corpus.rs"]
mod corpus;
#[path = "../../tests/common/processes.rs"]
mod processes;
use corpus::algo;
use processes::assert_no_leftovers;

/// The turn the hostile algos act at (their default).
const ACT_TURN: i32 = 1;

struct Run {
    result: MatchResult,
    log: String,
    /// What the algo reported it achieved (`HOSTILE_REPORT`), if it could write it.
    report: Option<String>,
}

/// Plays `hostile` (player 1) against py-idle, confined or not, with `env` on top of the
/// report file's.
/// One hostile match at a time: a fork bomb, 3 GiB of memory and 200 MiB of disk at once
/// (unconfined) would starve each other's algos past their time limits.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn play(hostile: &str, dir: &Path, confined: bool, env: &[(&str, String)]) -> Run {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let out = dir.join(if confined { "confined" } else { "unconfined" });
    std::fs::create_dir_all(&out).expect("replay folder");
    let report = out.join("report.txt");
    let config = Arc::new(preset("base-s6").expect("base-s6 preset"));
    let mut s = MatchSpec::new(algo(hostile), algo("py-idle"), config);
    s.replay = ReplayTarget::Dir(out.clone());
    s.env.push(("HOSTILE_REPORT".into(), report.display().to_string()));
    s.env.extend(env.iter().map(|(k, v)| ((*k).to_string(), v.clone())));
    s.confine = if confined { Confinement::default() } else { Confinement::off() };
    let result = run_match_blocking(s).expect("the match runs");
    assert_no_leftovers(&result);
    let report_text = verify_file(&result.replay_path);
    assert_eq!(report_text.status, Status::Exact, "{report_text:?}");
    let log = std::fs::read_to_string(result.match_log.as_ref().expect("a match log")).expect("match log text");
    Run { result, log, report: std::fs::read_to_string(&report).ok() }
}

/// The confined run: the algo crashed at the act's turn, the rule is named where the user
/// looks, and the game ended there with player 2 the winner.
fn assert_contained(run: &Run, rule: &str) {
    let p = &run.result.players[0];
    assert!(p.crashed, "not crashed: {p:?}\n{}", run.log);
    assert_eq!(p.crash_turn, Some(ACT_TURN), "{}", run.log);
    assert_eq!((run.result.turns, run.result.winner), (ACT_TURN, 2));
    let hit = p.rule_hit.as_deref().unwrap_or_else(|| panic!("no rule named: {p:?}\n{}", run.log));
    assert!(hit.contains(rule), "rule {hit:?}, expected {rule:?}");
    assert!(run.log.lines().any(|l| l.contains("p1: confinement: ") && l.contains(rule)), "{}", run.log);
    assert!(run.result.summary().contains(&format!("confinement: {hit}")), "{}", run.result.summary());
    let stderr = std::fs::read_to_string(p.stderr_log.as_ref().expect("stderr log")).expect("stderr text");
    assert!(stderr.contains(&format!("[terminal-studio: confinement: {hit}]")), "{stderr}");
}

/// The unconfined run: the algo did what it came to do and played on.
fn assert_damage(run: &Run, report_starts: &str) {
    let p = &run.result.players[0];
    assert!(!p.crashed && p.rule_hit.is_none(), "{p:?}\n{}", run.log);
    assert!(p.confinement.is_none());
    assert!(run.log.contains("p1: not confined"), "{}", run.log);
    let report = run.report.as_deref().unwrap_or_else(|| panic!("no report: {}", run.log));
    assert!(report.starts_with(report_starts), "{report:?}");
}

/// The Landlock ABI the match log says was in force for player 1; fails, naming it, where
/// the kernel has none (the file and network rules cannot be checked there).
fn landlock_in_force(run: &Run, needs: u32, what: &str) {
    let line = run.log.lines().find(|l| l.contains("p1: confined: ")).unwrap_or_else(|| panic!("{}", run.log));
    assert!(
        !line.contains("landlock: not supported"),
        "this kernel has no Landlock: {what} cannot be enforced, so this test cannot pass here ({line})"
    );
    let abi: u32 = line
        .split("landlock ABI ")
        .nth(1)
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no Landlock ABI in {line}"));
    assert!(abi >= needs, "Landlock ABI {abi} < {needs}: {what} is not enforced by this kernel ({line})");
}

#[test]
fn a_write_outside_its_folder_is_denied() {
    let dir = tempfile::tempdir().expect("tempdir");
    let target = dir.path().join("outside.txt");
    let env = [("HOSTILE_TARGET", target.display().to_string())];
    let confined = play("py-hostile-write", dir.path(), true, &env);
    landlock_in_force(&confined, 1, "the file rule");
    assert_contained(&confined, &format!("denied write to {}", target.display()));
    assert!(!target.exists());
    let free = play("py-hostile-write", dir.path(), false, &env);
    assert_damage(&free, "wrote ");
    assert!(target.is_file());
}

#[test]
fn a_file_in_the_home_folder_cannot_be_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    std::fs::create_dir(&home).expect("home");
    std::fs::write(home.join("secret.txt"), "s3cret\n").expect("secret");
    let env = [("HOME", home.display().to_string())];
    let confined = play("py-hostile-read-home", dir.path(), true, &env);
    landlock_in_force(&confined, 1, "the file rule");
    let secret = home.join("secret.txt").canonicalize().expect("secret path");
    assert_contained(&confined, &format!("denied access to {}", secret.display()));
    assert!(!confined.log.contains("s3cret"));
    let free = play("py-hostile-read-home", dir.path(), false, &env);
    assert_damage(&free, "read: s3cret");
}

#[test]
fn a_tcp_connection_is_refused() {
    use std::io::Read;
    let dir = tempfile::tempdir().expect("tempdir");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a local listener");
    let env = [("HOSTILE_PORT", listener.local_addr().expect("port").port().to_string())];
    listener.set_nonblocking(true).expect("non-blocking");
    let confined = play("py-hostile-socket", dir.path(), true, &env);
    landlock_in_force(&confined, 4, "the TCP rule");
    assert_contained(&confined, "denied a network connection");
    assert!(listener.accept().is_err(), "nothing connected while confined");
    let free = play("py-hostile-socket", dir.path(), false, &env);
    assert_damage(&free, "connected");
    let (mut stream, _) = listener.accept().expect("the unconfined algo connected");
    stream.set_nonblocking(false).expect("blocking");
    let mut line = String::new();
    stream.read_to_string(&mut line).expect("its line");
    assert_eq!(line, "py-hostile-socket was here\n");
}

#[test]
fn a_fork_bomb_is_stopped_at_the_process_limit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let confined = play("py-hostile-fork-bomb", dir.path(), true, &[]);
    assert_contained(&confined, "process limit 64 reached");
    let free = play("py-hostile-fork-bomb", dir.path(), false, &[]);
    assert_damage(&free, "forked 200");
}

#[test]
fn an_allocation_without_end_stops_at_the_memory_limit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let confined = play("py-hostile-memory", dir.path(), true, &[]);
    assert_contained(&confined, "memory limit 2 GiB reached");
    let free = play("py-hostile-memory", dir.path(), false, &[]);
    assert_damage(&free, "allocated 3072 MiB");
}

#[test]
fn a_log_that_fills_the_disk_stops_at_the_file_size_limit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).expect("tmp");
    // Confined, the runner's own temp folder replaces this one (and is removed after).
    let env = [("TMPDIR", tmp.display().to_string())];
    let confined = play("py-hostile-fill-disk", dir.path(), true, &env);
    assert_contained(&confined, "file size limit 64 MiB reached");
    assert!(!tmp.join("py-hostile-fill-disk.log").exists(), "written in the seat's own temp folder");
    let seat_temp = temp_folder_in(&confined.log);
    assert!(!seat_temp.exists(), "the seat's temp folder {} is removed with the seat", seat_temp.display());
    let free = play("py-hostile-fill-disk", dir.path(), false, &env);
    assert_damage(&free, "wrote 200 MiB");
    assert_eq!(std::fs::metadata(tmp.join("py-hostile-fill-disk.log")).expect("the log").len(), 200 << 20);
}

/// The seat's temp folder the match log names (`write only <folder>`).
fn temp_folder_in(log: &str) -> PathBuf {
    let line = log.lines().find(|l| l.contains("p1: confined: ")).expect("the confinement line");
    let rest = line.split("write only ").nth(1).expect("the write folders");
    PathBuf::from(rest.split([',', ' ']).next().expect("a folder"))
}

#[test]
fn a_child_meant_to_outlive_the_algo_ends_with_the_match() {
    let dir = tempfile::tempdir().expect("tempdir");
    let confined = play("py-hostile-orphan", dir.path(), true, &[]);
    let orphan = orphan_pid(&confined);
    let p = &confined.result.players[0];
    assert!(!p.crashed && confined.result.turns == 100, "{p:?}");
    assert_eq!(p.rule_hit.as_deref(), Some("1 process(es) it started outside its process group ended with the match"));
    assert!(confined.log.contains("p1: confinement: 1 process(es)"), "{}", confined.log);
    assert!(gone_soon(orphan), "the orphan {orphan} outlived the confined match");
    let free = play("py-hostile-orphan", dir.path(), false, &[]);
    let orphan = orphan_pid(&free);
    let alive = !gone_soon(orphan);
    // The damage, then undone: it would sleep for 10 minutes.
    let _ = std::process::Command::new("kill").args(["-9", &orphan.to_string()]).status();
    assert!(alive, "unconfined, the orphan {orphan} outlives the match (the sweep cannot find it)");
}

/// The orphan's pid from the algo's stderr log (`hostile: orphan pid N`).
fn orphan_pid(run: &Run) -> u32 {
    let path = run.result.players[0].stderr_log.as_ref().expect("stderr log");
    let text = std::fs::read_to_string(path).expect("stderr text");
    text.lines()
        .find_map(|l| l.split("hostile: orphan pid ").nth(1))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no orphan pid in {text}"))
}

/// Whether the process is gone (or a zombie) within a second: SIGKILL is asynchronous.
fn gone_soon(pid: u32) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        if stat.is_empty() || stat.contains(") Z ") {
            return true;
        }
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
