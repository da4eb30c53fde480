//! Integration tests of the arena (issue 6): a small parallel arena among the test algos
//! checked against statistics recomputed by hand from its records, the resume after a
//! kill, the accounting of crashes / timeouts / penalties / failed loads, and a `--plan`
//! run with GNU parallel merged with `--merge`.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use terminal_studio::arena::{
    ArenaEvent, ArenaSpec, Entrant, Format, MatchRecord, Plan, RESULTS_FILE, StopReason, run_arena,
};
use terminal_studio::engine::presets::preset;

fn algo(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/algos").join(name)
}

fn entrant(name: &str) -> Entrant {
    Entrant { path: algo(name), label: name.into() }
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
}

fn read_results(path: &Path) -> Vec<MatchRecord> {
    let text = std::fs::read_to_string(path).expect("results file");
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("record")).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-4
}

#[test]
fn a_parallel_round_robin_matches_hand_computed_statistics() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan =
        Plan::new(vec![entrant("py-builder"), entrant("py-idle"), entrant("py-random")], Format::RoundRobin, 2, 1)
            .expect("plan");
    let mut spec = ArenaSpec::new(plan, Arc::new(preset("base-s6").expect("preset")), dir.path());
    spec.jobs = 2;
    let mut finished = 0;
    let mut last_progress = None;
    let mut started_workers = BTreeSet::new();
    let outcome = run_arena(spec, |ev| match ev {
        ArenaEvent::MatchFinished(_) => finished += 1,
        ArenaEvent::Progress { done, total, .. } => last_progress = Some((*done, *total)),
        ArenaEvent::MatchStarted { worker, .. } => {
            started_workers.insert(*worker);
        }
        _ => {}
    })
    .expect("arena");
    assert_eq!(outcome.stop, StopReason::Completed);
    assert_eq!((finished, last_progress), (6, Some((6, 6))));
    assert_eq!(started_workers.len(), 2, "both workers played");
    let records = read_results(&dir.path().join(RESULTS_FILE));
    assert_eq!(records.len(), 6);
    let ids: BTreeSet<&str> = records.iter().map(|r| r.job_id.as_str()).collect();
    assert_eq!(ids.len(), 6, "no duplicate job ids");
    for r in &records {
        assert!(r.error.is_none(), "{r:?}");
        assert!(Path::new(&r.replay).is_file(), "replay {} written", r.replay);
    }

    // By hand from the records: wins, seats, HP margins, turns, compute per turn.
    let s = &outcome.summary;
    for a in &s.algos {
        let mine: Vec<&MatchRecord> = records.iter().filter(|r| r.seat_of(&a.label).is_some()).collect();
        let wins = mine.iter().filter(|r| r.winner_label() == Some(a.label.as_str())).count() as u32;
        let p1_wins = mine.iter().filter(|r| r.algo1 == a.label && r.winner == 1).count() as u32;
        let margin: f64 = mine
            .iter()
            .map(|r| {
                let seat = r.seat_of(&a.label).unwrap_or(0);
                f64::from(r.players[seat].hp) - f64::from(r.players[1 - seat].hp)
            })
            .sum();
        let turns: i64 = mine.iter().map(|r| i64::from(r.turns)).sum();
        let (ms, tt) = mine.iter().fold((0i64, 0u64), |(m, t), r| {
            let seat = r.seat_of(&a.label).unwrap_or(0);
            (m + r.players[seat].compute_ms, t + u64::from(r.players[seat].timed_turns))
        });
        assert_eq!((a.games, a.wins, a.losses), (4, wins, 4 - wins), "{}", a.label);
        assert_eq!((a.as_p1.games, a.as_p2.games, a.as_p1.wins), (2, 2, p1_wins), "{}: seats swapped equally", a.label);
        assert!(close(a.mean_hp_margin(), margin / 4.0));
        assert!(close(a.mean_turns(), turns as f64 / 4.0));
        assert!(close(a.mean_compute_ms(), ms as f64 / tt as f64));
        // Wilson 95 % for k of 4, by hand (z = 1.959964, z² = 3.841459, denom = 1.960365):
        // k=0 → [0, 0.4899]; k=1 → [0.0456, 0.6994]; k=2 → [0.1500, 0.8500];
        // k=3 → [0.3006, 0.9544]; k=4 → [0.5101, 1].
        let hand = [(0.0, 0.4899), (0.0456, 0.6994), (0.1500, 0.8500), (0.3006, 0.9544), (0.5101, 1.0)];
        let (lo, hi) = a.wilson95();
        let (hlo, hhi) = hand[wins as usize];
        assert!((lo - hlo).abs() < 1e-4 && (hi - hhi).abs() < 1e-4, "{}: {lo} {hi}", a.label);
    }
    assert_eq!(s.pairs.len(), 3);
    for p in &s.pairs {
        let games: Vec<&MatchRecord> =
            records.iter().filter(|r| r.seat_of(&p.a).is_some() && r.seat_of(&p.b).is_some()).collect();
        let a_wins = games.iter().filter(|r| r.winner_label() == Some(p.a.as_str())).count() as u32;
        assert_eq!((p.games, p.a_wins, p.b_wins), (2, a_wins, 2 - a_wins));
        assert_eq!((p.a_as_p1.games, p.a_as_p2.games), (1, 1));
    }
    // py-builder's fixed defence and scouts beat both others in these games (a regression
    // check of the engine and algos as much as of the arena).
    assert_eq!(s.algos[0].wins, 4, "{:?}", s.algos[0]);
    // The ratings are ordered by the results and centred on 0.
    let elo: HashMap<&str, f64> = s.ratings.iter().map(|r| (r.label.as_str(), r.elo)).collect();
    assert!(elo["py-builder"] > elo["py-random"] && elo["py-random"] >= elo["py-idle"], "{elo:?}");
    assert!(elo.values().sum::<f64>().abs() < 1e-6);
    let csv = std::fs::read_to_string(dir.path().join("summary.csv")).expect("summary.csv");
    assert_eq!(csv.lines().count(), 4);
    assert!(csv.lines().nth(1).is_some_and(|l| l.starts_with("py-builder,4,4,0,0,1.0000,0.5101,1.0000,")), "{csv}");
}

#[test]
fn crashes_timeouts_penalties_and_failed_loads_are_counted_apart() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A folder without run.sh: the runner reports FailedToLoad (the CLI refuses it up front).
    let missing = dir.path().join("py-missing");
    std::fs::create_dir_all(&missing).expect("mkdir");
    let entrants = vec![
        entrant("py-crash"),
        entrant("py-hang"),
        entrant("py-slow"),
        Entrant { path: missing, label: "py-missing".into() },
        entrant("py-builder"),
    ];
    let plan = Plan::new(entrants, Format::Gauntlet { baseline: 4 }, 2, 1).expect("plan");
    let out = dir.path().join("out");
    let mut spec = ArenaSpec::new(plan, Arc::new(preset("base-s6").expect("preset")), &out);
    spec.jobs = 2;
    spec.soft_ms = Some(200);
    spec.max_ms = Some(2500);
    // py-slow sleeps 1.3 s on turn 1: floor((1300 − 200) / 1000) = 1 HP (more if the
    // machine is very busy), well under the hard limit.
    spec.env = vec![("SLOW_SECONDS".into(), "1.3".into())];
    let outcome = run_arena(spec, |_| {}).expect("arena");
    assert_eq!(outcome.stop, StopReason::Completed);
    let s = &outcome.summary;
    let get = |l: &str| s.algos.iter().find(|a| a.label == l).expect("algo");
    let crash = get("py-crash");
    assert_eq!((crash.games, crash.losses, crash.crashes, crash.failed_to_load), (2, 2, 2, 0));
    let hang = get("py-hang");
    assert_eq!(hang.matches_with_timeouts, 2, "{hang:?}");
    assert!(hang.hard_timeouts >= 2 && hang.time_penalty_hp >= 2, "{hang:?}");
    assert_eq!(hang.crashes, 0, "a hang is a timeout, not a crash");
    let slow = get("py-slow");
    assert!(slow.time_penalty_turns >= 2 && slow.time_penalty_hp >= 2 && slow.hard_timeouts == 0, "{slow:?}");
    assert_eq!(slow.crashes, 0);
    let missing = get("py-missing");
    assert_eq!((missing.games, missing.losses, missing.failed_to_load, missing.crashes), (2, 2, 2, 2));
    let builder = get("py-builder");
    assert_eq!(
        (builder.crashes, builder.hard_timeouts, builder.time_penalty_hp, builder.failed_to_load),
        (0, 0, 0, 0),
        "the opponent's incidents are not charged to the baseline"
    );
    assert_eq!(builder.games, 8);
    // The winners are the engine's: the table never turns an incident into a win or a
    // loss of its own.
    let records = read_results(&out.join(RESULTS_FILE));
    assert_eq!(records.len(), 8);
    assert_eq!(builder.wins as usize, records.iter().filter(|r| r.winner_label() == Some("py-builder")).count());
    let table = terminal_studio::arena::report::table(s);
    assert!(table.contains("crash") && table.contains("timeouts"), "{table}");
}

#[test]
fn a_killed_arena_resumes_without_duplicates() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let results = out.join(RESULTS_FILE);
    let args = |resume: bool| {
        let mut c = bin();
        c.arg("arena")
            .arg(algo("py-builder"))
            .arg(algo("py-random"))
            .args(["--games", "8", "--jobs", "1", "--out"])
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if resume {
            c.arg("--resume");
        }
        c
    };
    let mut child = args(false).spawn().expect("spawn arena");
    let t0 = Instant::now();
    loop {
        let lines = std::fs::read_to_string(&results).map(|t| t.lines().count()).unwrap_or(0);
        if lines >= 1 {
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "no result line within 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("kill");
    let _ = child.wait();
    let after_kill = read_results(&results).len();
    assert!((1..8).contains(&after_kill), "killed after {after_kill} results");
    // Without --resume the results are never mixed by accident.
    let refused = args(false).status().expect("run");
    assert_eq!(refused.code(), Some(2));
    let status = args(true).status().expect("resume");
    assert!(status.success());
    let records = read_results(&results);
    let ids: Vec<&str> = records.iter().map(|r| r.job_id.as_str()).collect();
    let unique: BTreeSet<&str> = ids.iter().copied().collect();
    assert_eq!(ids.len(), unique.len(), "duplicate job ids: {ids:?}");
    let expected: BTreeSet<String> =
        (0..8)
            .map(|g| {
                if g % 2 == 0 { format!("py-builder__py-random__g{g}") } else { format!("py-random__py-builder__g{g}") }
            })
            .collect();
    assert_eq!(unique.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>(), expected);
    let csv = std::fs::read_to_string(out.join("summary.csv")).expect("csv");
    assert!(csv.lines().any(|l| l.starts_with("py-builder,8,")), "{csv}");
}

#[test]
fn a_plan_runs_with_gnu_parallel_and_merges() {
    let have_parallel = Command::new("parallel").arg("--version").stdout(Stdio::null()).status();
    assert!(
        have_parallel.is_ok_and(|s| s.success()),
        "GNU parallel is not installed: `apt-get install -y parallel` (.ci/run installs it)"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("plan");
    let plan = bin()
        .arg("arena")
        .arg(algo("py-builder"))
        .arg(algo("py-idle"))
        .args(["--games", "2", "--plan", "--max-ms", "20000", "--out"])
        .arg(&out)
        .output()
        .expect("plan");
    assert!(plan.status.success(), "{}", String::from_utf8_lossy(&plan.stderr));
    let text = String::from_utf8_lossy(&plan.stdout).into_owned();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.lines().all(|l| l.contains(" match ") && l.contains("--result-json")), "{text}");
    assert_eq!(std::fs::read_to_string(out.join("plan.txt")).expect("plan.txt"), text);

    let run = Command::new("parallel")
        .args(["--will-cite", "-j", "2", "--halt", "now,fail=1", "::::"])
        .arg(out.join("plan.txt"))
        .output()
        .expect("parallel");
    assert!(run.status.success(), "{}\n{}", String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));

    let merged_dir = dir.path().join("merged");
    let merged = bin().args(["arena", "--merge"]).arg(&out).arg("--out").arg(&merged_dir).output().expect("merge");
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    let stdout = String::from_utf8_lossy(&merged.stdout);
    assert!(stdout.contains("merged 2 records from 2 files (0 duplicates dropped)"), "{stdout}");
    let records = read_results(&merged_dir.join("merged.jsonl"));
    let ids: BTreeSet<&str> = records.iter().map(|r| r.job_id.as_str()).collect();
    assert_eq!(ids, BTreeSet::from(["py-builder__py-idle__g0", "py-idle__py-builder__g1"]));
    assert!(records.iter().all(|r| r.winner_label() == Some("py-builder") && Path::new(&r.replay).is_file()));
    let csv = std::fs::read_to_string(merged_dir.join("summary.csv")).expect("csv");
    assert!(csv.lines().any(|l| l.starts_with("py-builder,2,2,0,0,")), "{csv}");
    // Merging the same folder twice counts each match once.
    let twice = bin().args(["arena", "--merge"]).arg(&out).arg(&out).output().expect("merge");
    assert!(String::from_utf8_lossy(&twice.stdout).contains("merged 2 records"));
}

/// A two-game plan of py-builder against py-idle in `out` (its `plan.txt`).
fn write_plan(out: &Path) {
    let plan = bin()
        .arg("arena")
        .arg(algo("py-builder"))
        .arg(algo("py-idle"))
        .args(["--games", "2", "--plan", "--max-ms", "20000", "--out"])
        .arg(out)
        .output()
        .expect("plan");
    assert!(plan.status.success(), "{}", String::from_utf8_lossy(&plan.stderr));
}

/// The first two lines `arena --merge OUT` prints: the count, and the plan's progress.
fn merge_lines(out: &Path) -> (String, String) {
    let merged = bin().args(["arena", "--merge"]).arg(out).output().expect("merge");
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    let stdout = String::from_utf8_lossy(&merged.stdout);
    let mut lines = stdout.lines().map(str::to_string);
    (lines.next().unwrap_or_default(), lines.next().unwrap_or_default())
}

/// One merge of a two-game plan run to the end: both records, and the plan complete.
fn assert_plan_complete(out: &Path) {
    let (count, progress) = merge_lines(out);
    assert_eq!(count, "merged 2 records from 2 files (0 duplicates dropped)");
    assert_eq!(progress, format!("plan {}: 2 of 2 planned games have a result", out.join("plan.txt").display()));
}

#[test]
fn the_ssh_recipe_runs_a_plan_through_gnu_parallels_remote_wrapper() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("plan");
    write_plan(&out);
    // Stands in for ssh: drops the options, the host and `--`, and runs the rest through a
    // shell, as sshd does with the words it receives. sshd also sets SHELL to the login
    // shell; parallel's remote wrapper needs it (without it every job silently does nothing,
    // as CI found: its environment has no SHELL).
    let fake_ssh = dir.path().join("fake-ssh");
    std::fs::write(
        &fake_ssh,
        "#!/bin/bash\nwhile [ $# -gt 0 ]; do case \"$1\" in -l|-p|-o|-i|-F) shift 2;; -*) shift;; *) break;; esac; done\n\
         echo \"$1\" >> \"$0.hosts\"; shift\n[ \"$1\" = -- ] && shift\nexport SHELL=/bin/bash\nexec bash -c \"$*\"\n",
    )
    .expect("fake ssh");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake_ssh, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let hosts = dir.path().join("hosts.txt");
    std::fs::write(&hosts, "1/host-a\n1/host-b\n").expect("hosts");
    assert_eq!(
        merge_lines(&out).1,
        format!(
            "plan {}: 0 of 2 planned games have a result; without result: py-builder__py-idle__g0, py-idle__py-builder__g1",
            out.join("plan.txt").display()
        )
    );
    let run = Command::new("parallel")
        .env_remove("SHELL")
        .args(["--will-cite", "--halt", "now,fail=1", "--ssh"])
        .arg(&fake_ssh)
        .arg("--sshloginfile")
        .arg(&hosts)
        .arg("::::")
        .arg(out.join("plan.txt"))
        .output()
        .expect("parallel");
    assert!(run.status.success(), "{}\n{}", String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    let used = std::fs::read_to_string(dir.path().join("fake-ssh.hosts")).expect("the stand-in ssh was used");
    assert!(used.lines().all(|h| h == "host-a" || h == "host-b") && used.lines().count() >= 2, "{used}");
    assert_plan_complete(&out);
}

#[test]
fn the_slurm_script_plays_the_line_of_its_array_task() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("plan");
    write_plan(&out);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/arena.sbatch");
    let task = |id: &str, offset: &str| {
        Command::new("bash")
            .arg(&script)
            .env("PLAN", out.join("plan.txt"))
            .env("SLURM_ARRAY_TASK_ID", id)
            .env("OFFSET", offset)
            .output()
            .expect("sbatch script")
    };
    // Task 1 plays line 1 only.
    assert!(task("1", "0").status.success());
    assert!(out.join("results/py-builder__py-idle__g0.jsonl").is_file());
    assert!(!out.join("results/py-idle__py-builder__g1.jsonl").exists());
    // Task 1 with OFFSET=1 plays line 2; past the end of the plan is an error.
    assert!(task("1", "1").status.success());
    let past = task("3", "0");
    assert!(!past.status.success());
    assert!(String::from_utf8_lossy(&past.stderr).contains("no line 3"));
    assert_plan_complete(&out);
}

#[test]
fn the_sprt_stops_a_clear_result_early_and_cancel_stops_the_rest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = Plan::new(vec![entrant("py-builder"), entrant("py-idle")], Format::RoundRobin, 40, 1).expect("plan");
    let mut spec = ArenaSpec::new(plan, Arc::new(preset("base-s6").expect("preset")), dir.path().join("sprt"));
    spec.jobs = 2;
    spec.sprt = Some(terminal_studio::arena::SprtParams::default());
    let outcome = run_arena(spec, |_| {}).expect("arena");
    // py-builder wins every game: each win adds ln(0.640065 / 0.5) = 0.246962 to the LLR,
    // so 12 straight wins (2.9635) pass ln(0.95 / 0.05) = 2.9444. Matches already taken
    // by the two workers when the 12th result arrives still finish (at most 2 more).
    assert_eq!(outcome.stop, StopReason::Sprt(terminal_studio::arena::SprtDecision::AcceptH1));
    let n = outcome.records.len();
    assert!((12..=14).contains(&n), "{n} matches");
    let sprt = outcome.sprt.expect("sprt status");
    assert_eq!((sprt.wins as usize, sprt.losses), (n, 0));

    // Cancel after the first result: the matches in flight are not recorded.
    let plan = Plan::new(vec![entrant("py-builder"), entrant("py-random")], Format::RoundRobin, 40, 1).expect("plan");
    let mut spec = ArenaSpec::new(plan, Arc::new(preset("base-s6").expect("preset")), dir.path().join("cancel"));
    spec.jobs = 2;
    let handle = terminal_studio::arena::start_arena(spec).expect("start");
    let mut summary = None;
    for ev in handle.events.iter() {
        match ev {
            ArenaEvent::MatchFinished(_) => handle.cancel(),
            ArenaEvent::Summary(o) => summary = Some(o),
            _ => {}
        }
    }
    let o = summary.expect("a summary event ends the stream");
    assert_eq!(o.stop, StopReason::Cancelled);
    assert!(o.records.len() < 40 && !o.records.is_empty());
    assert_eq!(read_results(&o.results_path).len(), o.records.len());
}

#[test]
fn a_paused_arena_starts_no_new_match_until_resumed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = Plan::new(vec![entrant("py-builder"), entrant("py-idle")], Format::RoundRobin, 10, 1).expect("plan");
    let mut spec = ArenaSpec::new(plan, Arc::new(preset("base-s6").expect("preset")), dir.path());
    spec.jobs = 1;
    let handle = terminal_studio::arena::start_arena(spec).expect("start");
    // Pause at the first result; the one worker may already hold the next match.
    loop {
        match handle.events.recv_timeout(Duration::from_secs(60)).expect("event") {
            ArenaEvent::MatchFinished(_) => break,
            _ => continue,
        }
    }
    handle.pause();
    assert!(handle.is_paused());
    let mut started_while_paused = 0;
    let mut finished_while_paused = 0;
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(3) {
        match handle.events.recv_timeout(Duration::from_millis(100)) {
            Ok(ArenaEvent::MatchStarted { .. }) => started_while_paused += 1,
            Ok(ArenaEvent::MatchFinished(_)) => finished_while_paused += 1,
            _ => {}
        }
    }
    assert!(started_while_paused <= 1 && finished_while_paused <= 1, "{started_while_paused} {finished_while_paused}");
    handle.resume();
    let mut summary = None;
    for ev in handle.events.iter() {
        if let ArenaEvent::Summary(o) = ev {
            summary = Some(o);
        }
    }
    let o = summary.expect("summary");
    assert_eq!((o.stop.clone(), o.records.len()), (StopReason::Completed, 10));
}
