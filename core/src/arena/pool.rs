//! Running an arena: a pool of worker threads each playing one match at a time, and a
//! collector that appends every result to `results.jsonl` as it ends.

use super::error::{ArenaError, panic_text};
use super::events::{ArenaEvent, ArenaOutcome, SprtStatus, StopReason};
use super::files::{ReadRecords, append_record, read_records};
use super::plan::{Format, Job, Plan};
use super::record::{MatchRecord, RecordHead};
use super::report::write_csv;
use super::sprt::{SprtDecision, SprtParams};
use super::stats::summarize;
use crate::engine::config::Config;
use crate::panics::{Panicked, catch_panic};
use crate::runner::{Confinement, MatchResult, MatchSpec, ReplayTarget, RunnerError, SeatSpec, run_match_until};
use crossbeam_channel::{Receiver, Sender};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Instant;

/// What to run.
#[derive(Debug, Clone)]
pub struct ArenaSpec {
    pub plan: Plan,
    pub config: Arc<Config>,
    /// Output folder: `results.jsonl`, `summary.csv`, `pairs.csv`, `matches/`.
    pub out: PathBuf,
    /// Worker threads (matches at once); 0 = the number of cores.
    pub jobs: usize,
    /// Skip the jobs already in `results.jsonl`. Without it, an existing non-empty
    /// `results.jsonl` is an error (never mixed by accident).
    pub resume: bool,
    pub soft_ms: Option<u64>,
    pub max_ms: Option<u64>,
    pub startup_ms: Option<u64>,
    /// Early stop for two-algo arenas.
    pub sprt: Option<SprtParams>,
    /// Extra environment for every algo.
    pub env: Vec<(String, String)>,
    /// A match with a ghost plays under the ghost's replay config, not `config`.
    pub ghost_rulesets: bool,
    /// How every algo is confined (on by default).
    pub confine: Confinement,
}

impl ArenaSpec {
    pub fn new(plan: Plan, config: Arc<Config>, out: impl Into<PathBuf>) -> ArenaSpec {
        ArenaSpec {
            plan,
            config,
            out: out.into(),
            jobs: 0,
            resume: false,
            soft_ms: None,
            max_ms: None,
            startup_ms: None,
            sprt: None,
            env: Vec::new(),
            ghost_rulesets: false,
            confine: Confinement::default(),
        }
    }

    pub fn results_path(&self) -> PathBuf {
        self.out.join(RESULTS_FILE)
    }
}

pub const RESULTS_FILE: &str = "results.jsonl";

/// The number of workers `jobs = 0` means.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// Shared by the handle, the collector and the workers. Nothing here is polled: paused
/// workers sleep on `wake`, and a worker waiting for its match also waits on `cancelled`.
#[derive(Debug)]
struct Control {
    cancel: AtomicBool,
    /// Dropped by `cancel`: `cancelled` then becomes ready for every worker at once.
    cancel_tx: Mutex<Option<Sender<()>>>,
    cancelled: Receiver<()>,
    paused: Mutex<bool>,
    wake: Condvar,
    /// No new matches (SPRT decided, or a write failed).
    stop: AtomicBool,
}

impl Control {
    fn new() -> Control {
        let (tx, rx) = crossbeam_channel::bounded(0);
        Control {
            cancel: AtomicBool::new(false),
            cancel_tx: Mutex::new(Some(tx)),
            cancelled: rx,
            paused: Mutex::new(false),
            wake: Condvar::new(),
            stop: AtomicBool::new(false),
        }
    }

    fn cancel(&self) {
        self.cancel.store(true, Ordering::SeqCst);
        self.cancel_tx.lock().unwrap_or_else(PoisonError::into_inner).take();
        // Under the lock, so a worker between its check and its wait cannot miss it.
        let _guard = self.paused.lock().unwrap_or_else(PoisonError::into_inner);
        self.wake.notify_all();
    }

    fn set_paused(&self, paused: bool) {
        *self.paused.lock().unwrap_or_else(PoisonError::into_inner) = paused;
        self.wake.notify_all();
    }

    fn is_paused(&self) -> bool {
        *self.paused.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }

    /// Blocks while paused (returns at once when cancelled).
    fn wait_while_paused(&self) {
        let mut paused = self.paused.lock().unwrap_or_else(PoisonError::into_inner);
        while *paused && !self.is_cancelled() {
            paused = self.wake.wait(paused).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// A running arena. Dropping the handle does not stop it; call `cancel`.
pub struct ArenaHandle {
    /// Unbounded (one event per match and a few more): never drops a result.
    pub events: Receiver<ArenaEvent>,
    control: Arc<Control>,
    thread: Option<JoinHandle<Result<ArenaOutcome, ArenaError>>>,
}

impl ArenaHandle {
    /// Kills the matches in flight (they are not recorded, so `--resume` replays them)
    /// and starts no more; the arena then ends with a `Summary`.
    pub fn cancel(&self) {
        self.control.cancel();
    }
    /// No new matches start until `resume`; the matches in flight finish.
    pub fn pause(&self) {
        self.control.set_paused(true);
    }
    pub fn resume(&self) {
        self.control.set_paused(false);
    }
    pub fn is_paused(&self) -> bool {
        self.control.is_paused()
    }
    /// Waits for the end (events not yet received are discarded).
    pub fn wait(mut self) -> Result<ArenaOutcome, ArenaError> {
        match self.thread.take() {
            Some(t) => t.join().map_err(|p| ArenaError::Panicked(panic_text(p.as_ref())))?,
            // `start_arena` only hands out handles with a thread; a second wait is impossible
            // (it consumes the handle).
            None => Err(ArenaError::Panicked("the arena thread is gone".into())),
        }
    }
}

/// Checks the output folder and the results so far, then starts the arena on its own
/// thread. Errors here (bad folder, results present without `resume`) come back at once.
pub fn start_arena(spec: ArenaSpec) -> Result<ArenaHandle, ArenaError> {
    std::fs::create_dir_all(spec.out.join("matches")).map_err(ArenaError::io(&spec.out))?;
    let results = spec.results_path();
    let mut prior = ReadRecords::default();
    read_records(&results, &mut prior)?;
    if !spec.resume && !prior.records.is_empty() {
        return Err(ArenaError::ResultsPresent { results, count: prior.records.len() });
    }
    end_with_newline(&results)?;
    let (tx, rx) = crossbeam_channel::unbounded();
    let control = Arc::new(Control::new());
    let c = Arc::clone(&control);
    let thread = std::thread::Builder::new()
        .name("arena".into())
        .spawn(move || {
            catch_panic(|| run(spec, prior, &tx, &c)).unwrap_or_else(|Panicked { message }| {
                let _ = tx.send(ArenaEvent::Warning(format!("the arena stopped on a bug: {message}")));
                Err(ArenaError::Panicked(message))
            })
        })
        .map_err(|source| ArenaError::Thread { what: "main", source })?;
    Ok(ArenaHandle { events: rx, control, thread: Some(thread) })
}

/// Runs an arena on the calling thread, handing each event to `on_event`.
pub fn run_arena(spec: ArenaSpec, mut on_event: impl FnMut(&ArenaEvent)) -> Result<ArenaOutcome, ArenaError> {
    let h = start_arena(spec)?;
    for ev in h.events.iter() {
        on_event(&ev);
    }
    h.wait()
}

/// A line torn by a kill has no newline: add one so the next record starts a line.
fn end_with_newline(path: &Path) -> Result<(), ArenaError> {
    use std::io::{Read, Seek, SeekFrom, Write};
    let Ok(mut f) = std::fs::OpenOptions::new().read(true).append(true).open(path) else {
        return Ok(());
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    if len == 0 {
        return Ok(());
    }
    let mut last = [0u8; 1];
    f.seek(SeekFrom::Start(len - 1)).and_then(|_| f.read_exact(&mut last)).map_err(ArenaError::io(path))?;
    if last[0] != b'\n' {
        f.write_all(b"\n").and_then(|_| f.sync_data()).map_err(ArenaError::io(path))?;
    }
    Ok(())
}

/// The first replay path of `<job>.replay`, `<job>.retry1.replay`, … not taken (a killed
/// attempt leaves its partial replay and logs; they are kept, not overwritten).
fn replay_path(dir: &Path, job: &Job) -> PathBuf {
    let first = dir.join(format!("{}.replay", job.id));
    if !first.exists() {
        return first;
    }
    (1u32..).map(|k| dir.join(format!("{}.retry{k}.replay", job.id))).find(|p| !p.exists()).unwrap_or(first)
}

/// The two algos an SPRT compares, as entrant indices: (tested, reference).
fn sprt_sides(plan: &Plan) -> Option<(usize, usize)> {
    if plan.entrants.len() != 2 {
        return None;
    }
    match plan.format {
        Format::Gauntlet { baseline } => Some((1 - baseline, baseline)),
        Format::RoundRobin => Some((0, 1)),
        Format::VsGhosts => None,
    }
}

fn sprt_status(plan: &Plan, params: &SprtParams, records: &[MatchRecord]) -> Option<SprtStatus> {
    let (a, b) = sprt_sides(plan)?;
    let (first, second) = (plan.entrants[a].label.clone(), plan.entrants[b].label.clone());
    let mut wins = 0;
    let mut losses = 0;
    for r in records {
        match r.winner_label() {
            Some(w) if w == first && r.seat_of(&second).is_some() => wins += 1,
            Some(w) if w == second && r.seat_of(&first).is_some() => losses += 1,
            _ => {}
        }
    }
    let (lower, upper) = params.bounds();
    Some(SprtStatus {
        first,
        second,
        wins,
        losses,
        llr: params.llr(wins, losses),
        lower,
        upper,
        decision: params.decide(wins, losses),
    })
}

enum WorkerMsg {
    Started(String, usize),
    /// A result, and where to say it has been counted: a worker takes its next job only
    /// after that, so an SPRT decision stops every worker before its next match, however
    /// late the collector gets the CPU.
    Done(Box<MatchRecord>, Sender<()>),
}

fn run(
    spec: ArenaSpec,
    prior: ReadRecords,
    tx: &Sender<ArenaEvent>,
    control: &Arc<Control>,
) -> Result<ArenaOutcome, ArenaError> {
    let started = Instant::now();
    let results_path = spec.results_path();
    let records = distinct_records(prior.records);
    let planned: HashSet<&str> = spec.plan.jobs.iter().map(|j| j.id.as_str()).collect();
    let done_ids: HashSet<String> =
        records.iter().filter(|r| planned.contains(r.job_id.as_str())).map(|r| r.job_id.clone()).collect();
    let total = spec.plan.jobs.len();
    let todo: Vec<Job> = spec.plan.jobs.iter().filter(|j| !done_ids.contains(&j.id)).cloned().collect();
    let already = total - todo.len();
    let workers = (if spec.jobs == 0 { default_jobs() } else { spec.jobs }).clamp(1, todo.len().max(1));
    let _ = tx.send(ArenaEvent::Started { total, already_done: already, workers });
    let outside = records.iter().filter(|r| !planned.contains(r.job_id.as_str())).count();
    if outside > 0 {
        let _ = tx.send(ArenaEvent::Warning(format!(
            "{outside} records in {} are not jobs of this plan (another number of games or other algos?): kept in the summary",
            results_path.display()
        )));
    }
    for (path, line) in &prior.bad_lines {
        let _ = tx.send(ArenaEvent::Warning(format!("{}:{line}: not a result record (skipped)", path.display())));
    }
    let stop = stop_already_decided(&spec, &records, control, tx);
    let (threads, results) = start_workers(&spec, todo, workers, control, tx)?;
    let mut collector = Collector {
        spec: &spec,
        tx,
        control,
        results_path,
        started,
        total,
        records,
        stop,
        played_now: 0,
        done: already,
    };
    for msg in results.iter() {
        collector.take(msg);
    }
    for t in threads {
        let _ = t.join();
    }
    Ok(collector.finish())
}

/// The records read before the arena starts, a job id recorded twice (two runs appending by
/// hand) counted once.
fn distinct_records(prior: Vec<MatchRecord>) -> Vec<MatchRecord> {
    let mut seen: HashSet<String> = HashSet::new();
    prior.into_iter().filter(|r| seen.insert(r.job_id.clone())).collect()
}

/// An SPRT already decided by the records read (no match starts then), or `Completed`.
fn stop_already_decided(
    spec: &ArenaSpec,
    records: &[MatchRecord],
    control: &Control,
    tx: &Sender<ArenaEvent>,
) -> StopReason {
    let Some(p) = &spec.sprt else { return StopReason::Completed };
    match sprt_status(&spec.plan, p, records) {
        Some(s) if s.decision != SprtDecision::Continue => {
            control.stop.store(true, Ordering::SeqCst);
            StopReason::Sprt(s.decision)
        }
        Some(_) => StopReason::Completed,
        None => {
            let _ = tx.send(ArenaEvent::Warning("an SPRT early stop needs exactly two algos: ignored".into()));
            StopReason::Completed
        }
    }
}

/// The worker threads, each taking jobs from `todo` until none is left, and the channel
/// their results come back on. Only a pool without a single worker is an error.
fn start_workers(
    spec: &ArenaSpec,
    todo: Vec<Job>,
    workers: usize,
    control: &Arc<Control>,
    tx: &Sender<ArenaEvent>,
) -> Result<(Vec<JoinHandle<()>>, Receiver<WorkerMsg>), ArenaError> {
    let (job_tx, job_rx) = crossbeam_channel::unbounded::<Job>();
    for j in todo {
        let _ = job_tx.send(j);
    }
    drop(job_tx);
    let (res_tx, res_rx) = crossbeam_channel::unbounded::<WorkerMsg>();
    let shared = Arc::new(spec.clone());
    let mut threads = Vec::new();
    for w in 0..workers {
        let (jobs, results, ctl, sp) = (job_rx.clone(), res_tx.clone(), Arc::clone(control), Arc::clone(&shared));
        let t = std::thread::Builder::new()
            .name(format!("arena-worker-{w}"))
            .spawn(move || worker(w, &sp, &jobs, &results, &ctl))
            .map_err(|source| ArenaError::Thread { what: "worker", source });
        match t {
            Ok(t) => threads.push(t),
            Err(e) if threads.is_empty() => return Err(e),
            Err(e) => {
                let _ = tx.send(ArenaEvent::Warning(e.to_string()));
            }
        }
    }
    Ok((threads, res_rx))
}

/// Takes the workers' messages in the arena's thread: appends each result to the results
/// file, decides the SPRT, and says how far the arena is.
struct Collector<'a> {
    spec: &'a ArenaSpec,
    tx: &'a Sender<ArenaEvent>,
    control: &'a Control,
    results_path: PathBuf,
    started: Instant,
    total: usize,
    records: Vec<MatchRecord>,
    stop: StopReason,
    played_now: usize,
    done: usize,
}

impl Collector<'_> {
    fn take(&mut self, msg: WorkerMsg) {
        let (rec, counted) = match msg {
            WorkerMsg::Started(id, w) => {
                let _ = self.tx.send(ArenaEvent::MatchStarted { job_id: id, worker: w });
                return;
            }
            WorkerMsg::Done(r, counted) => (r, counted),
        };
        self.records.push((*rec).clone());
        let decided = match (&self.spec.sprt, self.control.stop.load(Ordering::SeqCst)) {
            (Some(p), false) => {
                sprt_status(&self.spec.plan, p, &self.records).filter(|st| st.decision != SprtDecision::Continue)
            }
            _ => None,
        };
        if let Some(st) = &decided {
            self.control.stop.store(true, Ordering::SeqCst);
            self.stop = StopReason::Sprt(st.decision);
        }
        // Decided before the (slow) fsync, so the worker waits for the count, not the disk.
        let _ = counted.send(());
        if let Err(e) = append_record(&self.results_path, &rec) {
            // Without a place for results, running on would lose them: stop everything.
            self.records.pop();
            self.control.cancel();
            self.stop = StopReason::Error(e.to_string());
            let _ = self.tx.send(ArenaEvent::Warning(format!("cannot write the result of {}: {e}", rec.job_id)));
            return;
        }
        self.played_now += 1;
        self.done += 1;
        let _ = self.tx.send(ArenaEvent::MatchFinished(rec));
        let (done, total, played_now) = (self.done, self.total, self.played_now);
        let remaining = total.saturating_sub(done);
        let eta = (played_now > 0).then(|| self.started.elapsed().mul_f64(remaining as f64 / played_now as f64));
        let _ = self.tx.send(ArenaEvent::Progress { done, total, eta });
        if let Some(st) = decided {
            let _ = self.tx.send(ArenaEvent::SprtStop { decision: st.decision, llr: st.llr });
        }
    }

    /// The outcome once every worker is done: the summary, its CSV files, and why it stopped.
    fn finish(self) -> ArenaOutcome {
        let mut stop = self.stop;
        if self.control.is_cancelled() && stop == StopReason::Completed {
            stop = StopReason::Cancelled;
        }
        let order: Vec<String> = self.spec.plan.entrants.iter().map(|e| e.label.clone()).collect();
        let summary = summarize(&self.records, &order);
        let csv_paths = match write_csv(&self.spec.out, &summary) {
            Ok(p) => p,
            Err(e) => {
                let _ = self.tx.send(ArenaEvent::Warning(format!("cannot write the CSV summary: {e}")));
                Vec::new()
            }
        };
        let outcome = ArenaOutcome {
            stop,
            sprt: self.spec.sprt.as_ref().and_then(|p| sprt_status(&self.spec.plan, p, &self.records)),
            summary,
            records: self.records,
            planned: self.total,
            played_now: self.played_now,
            elapsed: self.started.elapsed(),
            results_path: self.results_path,
            csv_paths,
        };
        let _ = self.tx.send(ArenaEvent::Summary(Box::new(outcome.clone())));
        outcome
    }
}

fn worker(w: usize, spec: &ArenaSpec, jobs: &Receiver<Job>, results: &Sender<WorkerMsg>, control: &Control) {
    let dir = spec.out.join("matches");
    let (counted_tx, counted_rx) = crossbeam_channel::bounded::<()>(1);
    // False when the collector is gone.
    let report = |rec: MatchRecord| {
        results.send(WorkerMsg::Done(Box::new(rec), counted_tx.clone())).is_ok() && counted_rx.recv().is_ok()
    };
    loop {
        control.wait_while_paused();
        if control.is_cancelled() || control.stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(job) = jobs.try_recv() else { return };
        let _ = results.send(WorkerMsg::Started(job.id.clone(), w));
        let (e1, e2) = (&spec.plan.entrants[job.seat1], &spec.plan.entrants[job.seat2]);
        let replay = replay_path(&dir, &job);
        let head = RecordHead {
            job_id: job.id.clone(),
            game: job.game,
            algo1: e1.label.clone(),
            algo2: e2.label.clone(),
            algo1_path: e1.path.to_string_lossy().into_owned(),
            algo2_path: e2.path.to_string_lossy().into_owned(),
            seed: Some(job.seed),
            replay: replay.to_string_lossy().into_owned(),
        };
        // A bug while preparing or playing the job is recorded as its error, and the worker
        // takes the next job: the arena never loses a worker silently.
        let played = catch_panic(|| play_job(spec, &job, replay, control)).unwrap_or_else(|Panicked { message }| {
            Err(RunnerError::Panicked { doing: format!("playing {} (job {})", head.replay, job.id), message })
        });
        let rec = match played {
            Ok(r) => MatchRecord::from_result(head, &r),
            // Not recorded: `--resume` plays it again.
            Err(RunnerError::Cancelled) => return,
            Err(e) => MatchRecord::from_error(head, &e),
        };
        // Labels are the arena's (the folder names), whatever the runner called them.
        if !report(rec) {
            return;
        }
    }
}

/// Plays one job of the arena: its seats, its ruleset, its replay file.
fn play_job(spec: &ArenaSpec, job: &Job, replay: PathBuf, control: &Control) -> Result<MatchResult, RunnerError> {
    let (e1, e2) = (&spec.plan.entrants[job.seat1], &spec.plan.entrants[job.seat2]);
    #[cfg(test)]
    if [e1, e2].iter().any(|e| e.label == tests::PANIC_ON_PURPOSE) {
        panic!("a job broke on purpose");
    }
    let seats = [e1, e2].map(|e| SeatSpec::parse(&e.path.to_string_lossy()));
    let [seat1, seat2] = match seats {
        [Ok(a), Ok(b)] => [a, b],
        [Err(e), _] | [_, Err(e)] => return Err(RunnerError::Replay(e.to_string())),
    };
    // A ghost plays under its replay's ruleset unless the arena names one.
    let config = match (&spec.ghost_rulesets, seat1.ghost().or(seat2.ghost())) {
        (true, Some(g)) => Arc::clone(&g.config),
        _ => Arc::clone(&spec.config),
    };
    let mut ms = MatchSpec::new(seat1, seat2, config);
    ms.replay = ReplayTarget::File(replay);
    ms.seed = Some(job.seed);
    ms.soft_ms = spec.soft_ms;
    ms.max_ms = spec.max_ms;
    ms.startup_ms = spec.startup_ms;
    ms.env = spec.env.clone();
    ms.confine = spec.confine.clone();
    // The result line is synced by the collector; syncing every replay too would put
    // one fsync (≈ 10 ms here, more under load) on each match's critical path.
    ms.sync_replay = false;
    // Played on this worker's thread, which has nothing else to do while it lasts.
    run_match_until(&ms, &control.cancelled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::plan::Entrant;

    /// An entrant with this label makes its jobs panic (`play_job`).
    pub(super) const PANIC_ON_PURPOSE: &str = "panic-on-purpose";

    #[test]
    fn a_job_that_panics_is_recorded_with_what_it_was_doing_and_the_arena_goes_on() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let entrants = vec![
            Entrant { path: dir.path().join("a"), label: PANIC_ON_PURPOSE.into() },
            Entrant { path: dir.path().join("b"), label: "b".into() },
        ];
        let plan = Plan::new(entrants, Format::RoundRobin, 2, 1).expect("a plan");
        let config = Arc::new(crate::engine::presets::preset("base-s6").expect("the base-s6 preset"));
        let mut spec = ArenaSpec::new(plan, config, dir.path().join("out"));
        spec.jobs = 2;
        let outcome = run_arena(spec, |_| {}).expect("the arena ends");
        assert_eq!(outcome.records.len(), 2, "every job recorded");
        for r in &outcome.records {
            let error = r.error.as_deref().unwrap_or_default();
            assert!(
                error.starts_with("the match stopped on a bug while playing ")
                    && error.ends_with(": a job broke on purpose"),
                "{error}"
            );
            assert!(error.contains(&r.job_id), "{error}");
        }
    }
}
