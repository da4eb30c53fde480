//! `terminal-studio verify`: fidelity on real replays.

use super::error::{CliError, Outcome};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use terminal_core::runner::ghost::ghost_report;
use terminal_core::verify::{ReplayReport, Status, collect_replays, verify_file};

/// Verifies files on `jobs` threads with `check`, keeping the input order in the output.
pub fn verify_all(
    files: &[PathBuf],
    jobs: usize,
    check: impl Fn(&Path) -> ReplayReport + Sync,
    mut each: impl FnMut(&ReplayReport),
) -> Vec<ReplayReport> {
    let (tx, rx) = crossbeam_channel::unbounded();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut reports: Vec<Option<ReplayReport>> = vec![None; files.len()];
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            let tx = tx.clone();
            let (next, check) = (&next, &check);
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(f) = files.get(i) else { break };
                    if tx.send((i, check(f))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut printed = 0;
        for (i, r) in rx {
            reports[i] = Some(r);
            while let Some(Some(r)) = reports.get(printed) {
                each(r);
                printed += 1;
            }
        }
    });
    reports.into_iter().flatten().collect()
}

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// Replay files or folders (searched recursively for *.replay and *.replay.gz).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// One JSON object per replay, then a summary object.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Print only diverged replays and the summary.
    #[arg(long, short)]
    pub quiet: bool,
    /// Play each replay's two players as ghosts against each other through the runner
    /// and compare the new replay with the recorded one, frame by frame.
    #[arg(long)]
    pub ghosts: bool,
}

/// Verifies every replay; a diverged replay or one that cannot be read is [`Outcome::Found`].
pub fn run(args: &VerifyArgs) -> Result<Outcome, CliError> {
    let (json, quiet) = (args.json, args.quiet);
    let files = collect_replays(&args.paths);
    if files.is_empty() {
        return Err(CliError::NoReplays { paths: args.paths.clone() });
    }
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let started = std::time::Instant::now();
    let scratch = if args.ghosts { Some(tempfile_dir()?) } else { None };
    let check = |f: &Path| match &scratch {
        Some(dir) => ghost_report(f, dir),
        None => verify_file(f),
    };
    let reports = verify_all(&files, jobs, check, |r| print_report(r, json, quiet));
    let (by_ruleset, total) = tally(&reports);
    let seconds = started.elapsed().as_secs_f64();
    if json {
        let summary = JsonSummary {
            summary: true,
            total: &total,
            fidelity_percent: total.percent(),
            rulesets: &by_ruleset,
            seconds,
        };
        out!("{}", serde_json::to_string(&summary).unwrap_or_default());
    } else {
        print_summary(&by_ruleset, &total, seconds);
    }
    // Only a folder left empty goes: diverged ghost replays are kept there for a look.
    if let Some(dir) = &scratch {
        let _ = std::fs::remove_dir(dir);
    }
    Ok(if total.diverged == 0 && total.errors == 0 { Outcome::Done } else { Outcome::Found })
}

/// One replay's line (or JSON object), as soon as it and those before it are verified.
fn print_report(r: &ReplayReport, json: bool, quiet: bool) {
    if json {
        out!("{}", r.to_json());
        return;
    }
    if quiet && matches!(r.status, Status::Exact | Status::Skipped) {
        return;
    }
    let pct = if r.frames_total > 0 { 100.0 * r.frames_exact as f64 / r.frames_total as f64 } else { 100.0 };
    out!("{:<8} {:>6}/{:<6} {:>7.3}%  {}", r.status.as_str(), r.frames_exact, r.frames_total, pct, r.file.display());
    if let Some(d) = &r.first_divergence {
        out!("    first divergence: {d}");
    }
    if let Some(reason) = &r.reason {
        out!("    {reason}");
    }
}

/// The counts of a set of replays (one ruleset, or all of them).
#[derive(Default, serde::Serialize)]
struct Tally {
    replays: usize,
    exact: usize,
    diverged: usize,
    skipped: usize,
    errors: usize,
    frames_total: usize,
    frames_exact: usize,
}

impl Tally {
    fn add(&mut self, r: &ReplayReport) {
        self.replays += 1;
        match r.status {
            Status::Exact => self.exact += 1,
            Status::Diverged => self.diverged += 1,
            Status::Skipped => self.skipped += 1,
            Status::Error => self.errors += 1,
        }
        if r.status != Status::Skipped {
            self.frames_total += r.frames_total;
            self.frames_exact += r.frames_exact;
        }
    }

    /// The share of exact frames, in percent (100 when there is none to compare).
    fn percent(&self) -> f64 {
        if self.frames_total > 0 { 100.0 * self.frames_exact as f64 / self.frames_total as f64 } else { 100.0 }
    }
}

/// The `--json` summary object, after the one object per replay.
#[derive(serde::Serialize)]
struct JsonSummary<'a> {
    summary: bool,
    #[serde(flatten)]
    total: &'a Tally,
    fidelity_percent: f64,
    rulesets: &'a BTreeMap<String, Tally>,
    seconds: f64,
}

/// The tallies by ruleset (`-` for a replay whose ruleset is unknown) and over all replays.
fn tally(reports: &[ReplayReport]) -> (BTreeMap<String, Tally>, Tally) {
    let mut by_ruleset: BTreeMap<String, Tally> = BTreeMap::new();
    let mut total = Tally::default();
    for r in reports {
        let key = r.ruleset.clone().unwrap_or_else(|| "-".into());
        by_ruleset.entry(key).or_default().add(r);
        total.add(r);
    }
    (by_ruleset, total)
}

/// The text summary: a line per ruleset, then the totals.
fn print_summary(by_ruleset: &BTreeMap<String, Tally>, total: &Tally, seconds: f64) {
    out!();
    let width = by_ruleset.keys().map(|k| k.chars().count()).max().unwrap_or(0).max(16);
    for (k, t) in by_ruleset {
        out!(
            "  {k:<width$} {:>4} replays: {:>4} exact, {:>3} diverged, {:>3} skipped, {:>3} errors; frames {}/{} ({:.3}%)",
            t.replays,
            t.exact,
            t.diverged,
            t.skipped,
            t.errors,
            t.frames_exact,
            t.frames_total,
            t.percent()
        );
    }
    out!(
        "summary: {} replays: {} exact, {} diverged, {} skipped, {} errors; frames exact {}/{} ({:.3}%) in {:.1}s",
        total.replays,
        total.exact,
        total.diverged,
        total.skipped,
        total.errors,
        total.frames_exact,
        total.frames_total,
        total.percent(),
        seconds
    );
}

/// A fresh folder under the system's temp folder for the ghost replays of one run.
fn tempfile_dir() -> Result<PathBuf, CliError> {
    let dir = std::env::temp_dir().join(format!("terminal-studio-ghosts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(CliError::write("make the folder for the ghost replays", &dir))?;
    Ok(dir)
}
