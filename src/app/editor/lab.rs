//! The Layout lab: the layout being edited run against real recorded attacks (every turn of
//! the replays in a folder in which a player sent mobile units), and the engine's suggestions
//! of what to build. The engine work runs on a thread of its own (the window stays live,
//! progress is shown, Cancel stops it); results come back over a channel.

use crossbeam_channel::{Receiver, TryRecvError};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use terminal_core::engine::Config;
use terminal_core::engine::geometry::Player;
use terminal_core::layout::Layout;
use terminal_core::layout::stress::{
    AttackError, AttackFilter, AttackSet, Defence, HpModel, RunError, StressReport, load_attacks, run,
};
use terminal_core::planner::PlanError;
use terminal_core::suggest::{Against, SuggestOptions, SuggestStage, Suggestion, suggest};

/// Why a lab run gave no result.
#[derive(Debug, thiserror::Error)]
pub enum LabError {
    #[error("{}: {source}", folder.display())]
    Folder { folder: PathBuf, source: std::io::Error },
    #[error("no replay (.replay or .replay.gz) under {}", .0.display())]
    NoReplays(PathBuf),
    #[error("no attack of {ruleset} in {}: {}", .folder.display(), folder_holds(*.replays, .rulesets))]
    NoAttacks { folder: PathBuf, ruleset: String, replays: usize, rulesets: Vec<(String, usize)> },
    #[error(transparent)]
    Attacks(#[from] AttackError),
    #[error(transparent)]
    Run(#[from] RunError),
    #[cfg(not(target_arch = "wasm32"))]
    #[error(transparent)]
    Index(#[from] terminal_core::library::LibraryError),
    #[error("the lab's thread stopped without a result (a bug)")]
    WorkerGone,
    #[error("SP budget: a positive number")]
    Budget,
    #[error(transparent)]
    Plan(PlanError),
}

/// What a folder holds, by ruleset: "the folder holds 300 replays of live-2022 and 2 of
/// base-s6" (replays whose ruleset could not be read are counted apart).
pub fn folder_holds(replays: usize, rulesets: &[(String, usize)]) -> String {
    let named: usize = rulesets.iter().map(|(_, n)| n).sum();
    let mut parts: Vec<String> = rulesets
        .iter()
        .enumerate()
        .map(|(i, (r, n))| if i == 0 { format!("{n} replays of {r}") } else { format!("{n} of {r}") })
        .collect();
    if replays > named {
        parts.push(format!("{} unreadable", replays - named));
    }
    match parts.len() {
        0 => format!("{replays} replays, none readable"),
        _ => format!("the folder holds {}", parts.join(", ")),
    }
}

/// The attacks a run is over: where they were read, under which ruleset, and whether other
/// rulesets' attacks were let in. Two runs compare only over the same key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackKey {
    pub folder: PathBuf,
    /// Replays chosen elsewhere (the Library's games shown), read instead of the folder's.
    pub files: Option<Arc<[PathBuf]>>,
    pub ruleset: String,
    pub any_ruleset: bool,
}

/// What a finished job gives.
pub enum LabResult {
    Report {
        attacks: Arc<AttackSet>,
        report: StressReport,
        layout: Layout,
    },
    /// `attacks`: the recorded attacks read (none against the planner alone).
    Suggestion {
        attacks: Option<Arc<AttackSet>>,
        suggestion: Suggestion,
    },
}

/// A job on the lab's thread.
pub struct LabJob {
    pub what: &'static str,
    cancel: Arc<AtomicBool>,
    done: Arc<AtomicUsize>,
    total: Arc<AtomicUsize>,
    /// The suggestion's round being searched, from 1 (0: reading the attacks, or a stress run).
    round: Arc<AtomicUsize>,
    /// What the round is doing: a `SuggestStage` as its index in [`STAGES`].
    stage: Arc<AtomicUsize>,
    result: Receiver<Result<LabResult, LabError>>,
}

/// Rounds a suggestion searches at most (each adds the best change found, if any helps).
pub const SUGGEST_ROUNDS: usize = 5;

/// A suggestion's stages, in the order of `LabJob::stage`'s index.
const STAGES: [SuggestStage; 3] = [SuggestStage::Screening, SuggestStage::Replanning, SuggestStage::Replying];

impl LabJob {
    /// Work done, of how much (attacks run, or replays read, or candidates weighed).
    pub fn progress(&self) -> (usize, usize) {
        (self.done.load(Ordering::Relaxed), self.total.load(Ordering::Relaxed))
    }

    /// The suggestion's round being searched (from 1), once the attacks are read.
    pub fn round(&self) -> Option<usize> {
        Some(self.round.load(Ordering::Relaxed)).filter(|r| *r > 0)
    }

    /// What the job is at, for its progress bar: the round and the whole of a suggestion.
    pub fn progress_text(&self) -> String {
        let (done, total) = self.progress();
        let stage = STAGES.get(self.stage.load(Ordering::Relaxed)).copied().unwrap_or_default();
        match self.round() {
            Some(r) => {
                let step = format!("{}: change {r} of at most {SUGGEST_ROUNDS}", self.what);
                match stage {
                    SuggestStage::Screening => format!("{step}, candidate {done} of {total}"),
                    SuggestStage::Replanning => format!("{step}, planner's answer {done} of at most {total}"),
                    SuggestStage::Replying => format!("{step}, the planner's replies to the layout"),
                }
            }
            None if self.what == "Suggesting" => format!("{}: reading the attacks, {done}/{total}", self.what),
            None => format!("{}: {done}/{total}", self.what),
        }
    }

    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The result, once there is one.
    pub fn poll(&self) -> Option<Result<LabResult, LabError>> {
        match self.result.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(LabError::WorkerGone)),
        }
    }
}

/// What a job is asked to do.
pub struct LabRequest {
    pub key: AttackKey,
    pub layout: Layout,
    pub seat: Player,
    pub config: Arc<Config>,
    /// Attacks already read from this folder under this ruleset.
    pub cached: Option<Arc<AttackSet>>,
    /// `Some`: suggest within this SP budget; `None`: a stress run.
    pub budget: Option<f32>,
    /// What a suggestion weighs, and the planner's MP levels.
    pub against: Against,
    pub mp_levels: Vec<f32>,
    /// The library index (database, folder) of the replays, when they have been indexed:
    /// attacks are kept there.
    pub index: Option<(PathBuf, PathBuf)>,
    /// Wakes the window when the job ends (None in tests).
    pub repaint: Option<egui::Context>,
}

/// Starts a job on its own thread.
pub fn start(request: LabRequest) -> std::io::Result<LabJob> {
    let (tx, rx) = crossbeam_channel::bounded(1);
    let job = LabJob {
        what: if request.budget.is_some() { "Suggesting" } else { "Stress test" },
        cancel: Arc::new(AtomicBool::new(false)),
        done: Arc::new(AtomicUsize::new(0)),
        total: Arc::new(AtomicUsize::new(0)),
        round: Arc::new(AtomicUsize::new(0)),
        stage: Arc::new(AtomicUsize::new(0)),
        result: rx,
    };
    let (cancel, done, total) = (job.cancel.clone(), job.done.clone(), job.total.clone());
    let (round, stage) = (job.round.clone(), job.stage.clone());
    crate::app::background::spawn("layout-lab", move || {
        let repaint = request.repaint.clone();
        let progress = |d: usize, t: usize| {
            done.store(d, Ordering::Relaxed);
            total.store(t, Ordering::Relaxed);
            if let Some(ctx) = &repaint {
                ctx.request_repaint();
            }
        };
        let result = work(request, &progress, (&round, &stage), &cancel);
        let _ = tx.send(result);
        if let Some(ctx) = &repaint {
            ctx.request_repaint();
        }
    })?;
    Ok(job)
}

fn work(
    request: LabRequest,
    progress: &(dyn Fn(usize, usize) + Sync),
    (round, stage): (&AtomicUsize, &AtomicUsize),
    cancel: &AtomicBool,
) -> Result<LabResult, LabError> {
    let jobs = crate::app::background::jobs();
    // Against the planner alone, no recorded attack is read (no folder is needed).
    let needs_attacks = request.budget.is_none() || request.against.recorded();
    let attacks = match request.cached {
        Some(a) => a,
        None if needs_attacks => {
            Arc::new(read_attacks(&request.key, request.index.as_ref(), &request.config, jobs, progress, cancel)?)
        }
        None => Arc::new(AttackSet::default()),
    };
    match request.budget {
        None => {
            let defence = Defence::from_layout(&request.layout, request.seat, &request.config);
            let report = run(&attacks.attacks, &defence, HpModel::Unlimited, jobs, progress, cancel)?;
            Ok(LabResult::Report { attacks, report, layout: request.layout })
        }
        Some(budget) => {
            let options = SuggestOptions {
                budget,
                max_steps: SUGGEST_ROUNDS,
                jobs,
                against: request.against,
                mp_levels: request.mp_levels.clone(),
                ..SuggestOptions::default()
            };
            let step_progress = |p: terminal_core::suggest::SuggestProgress| {
                round.store(p.step + 1, Ordering::Relaxed);
                stage.store(STAGES.iter().position(|s| *s == p.stage).unwrap_or(0), Ordering::Relaxed);
                progress(p.candidates_done, p.candidates);
            };
            let suggestion = suggest(
                &attacks.attacks,
                &request.layout,
                request.seat,
                &request.config,
                &options,
                &step_progress,
                cancel,
            )
            .map_err(|e| match e {
                PlanError::Run(run) => LabError::Run(run),
                other => LabError::Plan(other),
            })?;
            Ok(LabResult::Suggestion { attacks: needs_attacks.then_some(attacks), suggestion })
        }
    }
}

fn read_attacks(
    key: &AttackKey,
    index: Option<&(PathBuf, PathBuf)>,
    config: &Arc<Config>,
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &AtomicBool,
) -> Result<AttackSet, LabError> {
    let folder = key.folder.as_path();
    let files = match &key.files {
        Some(chosen) => chosen.to_vec(),
        None => {
            // A folder that cannot be read says why; the walk below skips what it cannot read.
            terminal_core::files::list_dir(folder)
                .map_err(|source| LabError::Folder { folder: folder.to_path_buf(), source })?;
            terminal_core::verify::collect_replays(&[folder.to_path_buf()])
        }
    };
    if files.is_empty() {
        return Err(LabError::NoReplays(folder.to_path_buf()));
    }
    let filter = AttackFilter { config: Arc::clone(config), any_ruleset: key.any_ruleset };
    // The browser has no library index: its replays are read each time.
    let set = match index {
        #[cfg(not(target_arch = "wasm32"))]
        Some((db, root)) => {
            terminal_core::library::load_attacks_indexed(db, root, &files, &filter, jobs, progress, cancel)?
        }
        _ => load_attacks(&files, &filter, jobs, progress, cancel)?,
    };
    if cancel.load(Ordering::Relaxed) {
        return Err(LabError::Run(RunError::Cancelled));
    }
    if set.attacks.is_empty() {
        return Err(LabError::NoAttacks {
            folder: folder.to_path_buf(),
            ruleset: key.ruleset.clone(),
            replays: files.len(),
            rulesets: set.skipped_rulesets(),
        });
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(what: &'static str, round: usize, done: usize, total: usize) -> LabJob {
        staged(what, round, 0, done, total)
    }

    fn staged(what: &'static str, round: usize, stage: usize, done: usize, total: usize) -> LabJob {
        let (_, result) = crossbeam_channel::bounded(1);
        LabJob {
            what,
            cancel: Arc::new(AtomicBool::new(false)),
            done: Arc::new(AtomicUsize::new(done)),
            total: Arc::new(AtomicUsize::new(total)),
            round: Arc::new(AtomicUsize::new(round)),
            stage: Arc::new(AtomicUsize::new(stage)),
            result,
        }
    }

    #[test]
    fn a_suggestions_progress_names_its_round_and_the_whole() {
        assert_eq!(job("Suggesting", 0, 12, 300).progress_text(), "Suggesting: reading the attacks, 12/300");
        assert_eq!(
            job("Suggesting", 2, 40, 180).progress_text(),
            format!("Suggesting: change 2 of at most {SUGGEST_ROUNDS}, candidate 40 of 180")
        );
        assert_eq!(
            staged("Suggesting", 2, 1, 3, 8).progress_text(),
            format!("Suggesting: change 2 of at most {SUGGEST_ROUNDS}, planner's answer 3 of at most 8")
        );
        assert_eq!(job("Stress test", 0, 5, 9).progress_text(), "Stress test: 5/9");
    }
}
