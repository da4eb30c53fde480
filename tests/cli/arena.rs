//! The arena on the command line: a killed arena resumed without duplicates, a `--plan` run
//! with GNU parallel (locally, through the ssh recipe, and the Slurm array script) merged
//! with `--merge`.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use terminal_core::arena::{MatchRecord, RESULTS_FILE};

use crate::common::corpus::algo;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
}

fn read_results(path: &Path) -> Vec<MatchRecord> {
    let text = std::fs::read_to_string(path).expect("results file");
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("record")).collect()
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
    let script = crate::common::corpus::root().join("docs/arena.sbatch");
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
