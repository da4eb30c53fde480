//! Confinement of the algos the runner starts (docs/runner.md, Confinement): players run
//! algos they did not write, so by default every algo process tree gets resource limits
//! and, where the system can, file, network and signal rules.
//!
//! Files: `policy` (what is asked for, the defaults and why), `paths` (which folders an
//! algo may read and write), `landlock` (Linux file, network and signal rules), `limits`
//! (rlimits set in the child before it runs the start script, Unix), `watch` (the
//! process-count watch and the end-of-match sweep of descendants, Linux), `seat_temp`
//! (the per-seat temp folder), `diagnose` (which rule a crashed algo broke).

mod diagnose;
#[cfg(target_os = "linux")]
mod landlock;
#[cfg(unix)]
mod limits;
#[cfg(unix)]
mod paths;
mod policy;
mod seat_temp;
#[cfg(target_os = "linux")]
mod watch;

pub(crate) use diagnose::diagnose;
pub use diagnose::{RuleHit, Seen};
pub use policy::Confinement;
pub use seat_temp::SeatTemp;

use super::locate::AlgoLocation;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The rule that stopped an algo, as the watch saw it (it killed the tree).
pub type HitSlot = Arc<Mutex<Option<RuleHit>>>;

/// Everything one seat's confinement needs, prepared before its algo starts: the limits
/// in numbers, the folders, the per-seat temp folder (removed with the plan).
#[derive(Debug)]
pub struct SeatPlan {
    pub policy: Confinement,
    /// CPU seconds per process (`None` without a hard time limit).
    pub cpu_seconds: Option<u64>,
    pub temp: SeatTemp,
    /// The algo's folder (its working directory).
    pub algo_dir: PathBuf,
    /// Folders the algo may read (and run programs from).
    pub read: Vec<PathBuf>,
    /// Folders the algo may write (its temp folder; its own folder if allowed).
    pub write: Vec<PathBuf>,
    /// What could not be granted or set, in words, for the log.
    pub notes: Vec<String>,
    /// Set by the watch when it stopped the algo for a rule.
    pub hit: HitSlot,
    /// The algo's confined Job Object, once it runs (Windows): whether its limits are in
    /// force, and its messages naming the limits it enforced.
    #[cfg(windows)]
    pub job: std::sync::OnceLock<super::os::ConfinedJob>,
}

impl SeatPlan {
    /// Prepares the confinement of the algo at `loc` under `policy`; `cpu_seconds` from the
    /// match's time limits, `env` the algo's extra environment (its `PATH` decides which
    /// interpreter it finds). An error is a temp folder that cannot be made: the seat then
    /// cannot start (it never runs unconfined by accident).
    pub fn prepare(
        policy: &Confinement,
        loc: &AlgoLocation,
        env: &[(String, String)],
        cpu_seconds: Option<u64>,
    ) -> std::io::Result<SeatPlan> {
        let temp = SeatTemp::create()?;
        #[cfg_attr(not(unix), allow(unused_mut))]
        let mut plan = SeatPlan {
            policy: policy.clone(),
            cpu_seconds,
            read: Vec::new(),
            write: vec![temp.path().to_path_buf()],
            notes: Vec::new(),
            hit: Arc::new(Mutex::new(None)),
            #[cfg(windows)]
            job: std::sync::OnceLock::new(),
            algo_dir: loc.dir.clone(),
            temp,
        };
        #[cfg(unix)]
        paths::fill(&mut plan, loc, env);
        #[cfg(not(unix))]
        let _ = (loc, env);
        Ok(plan)
    }

    /// The environment the algo gets on top of the match's: its temp folder everywhere a
    /// program looks for one.
    pub fn env(&self) -> Vec<(String, String)> {
        let t = self.temp.path().to_string_lossy().into_owned();
        ["TMPDIR", "TMP", "TEMP", "TEMPDIR"].iter().map(|k| ((*k).to_string(), t.clone())).collect()
    }

    /// What is enforced for this seat, in one line for the match log (which rules took
    /// effect on this system, which did not).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        #[cfg(target_os = "linux")]
        parts.push(landlock::describe(self));
        #[cfg(all(unix, not(target_os = "linux")))]
        parts.push("files and network: not confined on this system (no Landlock)".to_string());
        #[cfg(windows)]
        parts.push(
            "files and network: not confined on Windows (Job Object limits only: memory, processes, UI)".to_string(),
        );
        #[cfg(unix)]
        parts.push(self.describe_limits());
        #[cfg(windows)]
        parts.push(self.describe_job_limits());
        parts.extend(self.notes.iter().cloned());
        parts.join("; ")
    }

    /// The rule the runner itself saw broken: the watch's kill and the descendants that had
    /// left the group (Linux), the Job Object's refusals (Windows). Unlike a rule read from
    /// the algo's stderr, it counts even if the algo played on.
    pub(crate) fn seen_hit(&self) -> Option<RuleHit> {
        #[cfg(windows)]
        self.note_job_hits();
        self.hit.lock().ok().and_then(|hit| hit.clone())
    }

    /// Reads the Job Object's messages into the hit slot, if nothing is there yet.
    #[cfg(windows)]
    fn note_job_hits(&self) {
        let Some(job) = self.job.get() else { return };
        if let Ok(mut hit) = self.hit.lock()
            && hit.is_none()
        {
            *hit = job_rule_hit(job.events.limit_hits(), &self.policy);
        }
    }

    #[cfg(unix)]
    fn describe_limits(&self) -> String {
        let p = &self.policy;
        let cpu = self.cpu_seconds.map_or_else(|| "no CPU limit (no hard time limit)".into(), |s| format!("CPU {s} s"));
        #[cfg(target_os = "linux")]
        let procs = format!(
            "{} processes (the algo's process tree, watched every {} ms{})",
            p.max_processes,
            watch::STEP.as_millis(),
            limits::nproc_note()
        );
        #[cfg(all(unix, not(target_os = "linux")))]
        let procs = format!("processes not limited{}", limits::nproc_note());
        format!(
            "limits: memory {} per process, {procs}, {} open files, files up to {}, {cpu}",
            bytes(p.memory),
            p.open_files,
            bytes(p.file_size)
        )
    }

    /// The Job Object's limits, and, once the algo runs, whether the system reports them in
    /// force. Open files, file size and CPU time have no per-process limit there.
    #[cfg(windows)]
    fn describe_job_limits(&self) -> String {
        let p = &self.policy;
        let mut text = format!(
            "limits: memory {} per process, {} processes (the Job Object); open files, file size and CPU time not \
             limited on Windows",
            bytes(p.memory),
            p.max_processes
        );
        if let Some(why) = self.job.get().and_then(|job| job.limits_not_in_force.as_deref()) {
            text.push_str(&format!(
                "; memory and process limits not known to be in force: {why} (Wine's Job Objects report none and \
                 enforce neither)"
            ));
        }
        text
    }
}

/// The rule a Job Object's messages show it enforced (Windows): a refused allocation, which
/// most likely ended the algo, before refused processes.
#[cfg(windows)]
fn job_rule_hit(hits: super::os::JobLimitHits, policy: &Confinement) -> Option<RuleHit> {
    if hits.memory_refused > 0 {
        return Some(RuleHit::Memory { limit: policy.memory });
    }
    (hits.processes_refused > 0)
        .then_some(RuleHit::ProcessesRefused { limit: policy.max_processes, refused: hits.processes_refused })
}

/// Bytes in the largest whole binary unit (`2 GiB`, `64 MiB`).
pub fn bytes(n: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (size, name) in UNITS {
        if n >= size && n.is_multiple_of(size) {
            return format!("{} {name}", n / size);
        }
    }
    format!("{n} bytes")
}

/// Applies the plan to the command that starts the algo: the rlimits and (Linux) the
/// Landlock rules in the child before it runs the start script, and the child becomes the
/// reaper of its orphans (so a descendant that leaves its group stays in its tree).
#[cfg(unix)]
pub fn apply(plan: &SeatPlan, cmd: &mut std::process::Command) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    let ruleset = landlock::ruleset(plan)?;
    #[cfg(not(target_os = "linux"))]
    let ruleset: Option<()> = None;
    limits::install(plan, cmd, ruleset);
    Ok(())
}

/// Starts the watch of the algo's process count (Linux): the tree is killed, and the rule
/// recorded in `plan.hit`, when it holds more processes than allowed.
#[cfg(target_os = "linux")]
pub fn watch(plan: &SeatPlan, pgid: u32, kill: impl Fn() + Send + 'static) -> Option<watch::Watch> {
    Some(watch::Watch::start(pgid, plan.policy.max_processes, Arc::clone(&plan.hit), kill))
}

/// Kills every descendant of `pid` but `pid` itself (Linux; the algo's top process reaps
/// its orphans, so a process that left the group is still found under it); returns how
/// many had left the algo's process group.
#[cfg(target_os = "linux")]
pub(crate) fn kill_descendants(pid: u32) -> usize {
    watch::kill_descendants(pid)
}

#[cfg(target_os = "linux")]
pub use watch::Watch;
