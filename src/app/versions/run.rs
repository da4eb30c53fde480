//! A comparison running behind the Versions view: the spec made from the form, the events
//! taken each frame into live figures (games played, the head-to-head LLR and Elo), and the
//! report at the end.

use super::{VersionVerdict, VersionsView};
use std::path::PathBuf;
use terminal_core::arena::ghosts::GhostChoice;
use terminal_core::engine::geometry::Player;
use terminal_core::versions::{HeadToHead, RegressEvent, RegressReport, RegressSpec, Stage, Version, start_regress};

/// What the running comparison has said so far.
#[derive(Default)]
pub struct LiveRun {
    pub new: Option<Version>,
    pub base: Option<Version>,
    /// The stage being played, its games to play and those taken from the cache.
    pub stage: Option<(Stage, usize, usize)>,
    /// Games finished in the stage.
    pub finished: usize,
    pub head_to_head: Option<HeadToHead>,
    pub warnings: Vec<String>,
}

/// Paths typed one per line (or separated by `;`), blanks left out.
pub fn paths_of(text: &str) -> Vec<PathBuf> {
    text.split(['\n', ';']).map(str::trim).filter(|s| !s.is_empty()).map(PathBuf::from).collect()
}

impl VersionsView {
    /// The comparison the form asks for.
    fn spec(&self) -> Result<RegressSpec, String> {
        let algo = PathBuf::from(self.algo.trim());
        if self.algo.trim().is_empty() {
            return Err("Type the algo's folder first".into());
        }
        if !algo.is_dir() {
            return Err(format!("{} is not a folder", algo.display()));
        }
        let mut spec = RegressSpec::new(algo, self.store());
        spec.ghosts = paths_of(&self.ghosts);
        spec.ghost_choice = match self.opponent_of.trim() {
            "" => GhostChoice::Seat(Player::Two),
            name => GhostChoice::OpponentOf(name.to_string()),
        };
        spec.vs = paths_of(&self.vs);
        spec.games = self.games;
        spec.ruleset = Some(self.ruleset.trim().to_string()).filter(|r| !r.is_empty());
        spec.label = Some(self.label.trim().to_string()).filter(|l| !l.is_empty());
        Ok(spec)
    }

    /// Saves the algo if it changed and compares it with its newest other version.
    pub(super) fn start(&mut self) {
        if self.rt.job.is_some() {
            self.rt.message = "A comparison is running: Stop it first".into();
            return;
        }
        let spec = match self.spec() {
            Ok(spec) => spec,
            Err(e) => {
                self.rt.message = e;
                return;
            }
        };
        match start_regress(spec) {
            Ok(handle) => {
                self.rt.job = Some(handle);
                self.rt.live = LiveRun::default();
                self.rt.report = None;
                self.rt.side_by_side = None;
                self.rt.message = "Comparing…".into();
            }
            Err(e) => self.rt.message = format!("Cannot start the comparison: {e}"),
        }
    }

    pub(super) fn stop(&mut self) {
        if let Some(job) = &self.rt.job {
            job.cancel();
            self.rt.message = "Stopping: the games in flight are dropped, the next run plays them".into();
        }
    }

    /// Takes the comparison's events; at its end, its report (or why it failed).
    pub(super) fn poll_run(&mut self) {
        let Some(job) = &self.rt.job else { return };
        // Asked before the events are taken: a run that had ended has sent them all.
        let ended = job.is_finished();
        let events: Vec<RegressEvent> = job.events.try_iter().collect();
        for e in events {
            self.take_event(e);
        }
        if !ended {
            return;
        }
        let Some(job) = self.rt.job.take() else { return };
        match job.wait() {
            Ok(report) => self.finished(report),
            Err(terminal_core::versions::VersionsError::FirstVersion { version, .. }) => {
                self.rt.message = format!(
                    "Saved {version} as the first version of this algo: there is nothing earlier to compare it \
                     with yet. Change the algo, then Compare with previous again to see what the change does."
                );
            }
            Err(e) => self.rt.message = format!("The comparison failed: {e}"),
        }
        self.refresh_versions();
    }

    fn take_event(&mut self, e: RegressEvent) {
        let live = &mut self.rt.live;
        match e {
            RegressEvent::Saved { version, created } => {
                self.rt.message = if created {
                    format!("Saved {} as a new version", version.name())
                } else {
                    format!("Unchanged since {}: nothing saved", version.name())
                };
                live.new = Some(version);
            }
            RegressEvent::Base(v) => live.base = Some(v),
            RegressEvent::Stage { stage, to_play, cached } => {
                live.stage = Some((stage, to_play, cached));
                live.finished = 0;
            }
            RegressEvent::GameFinished { .. } => live.finished += 1,
            RegressEvent::HeadToHead(h) => live.head_to_head = Some(*h),
            RegressEvent::Warning(w) => live.warnings.push(w),
            RegressEvent::Finished(_) => {}
        }
    }

    fn finished(&mut self, report: RegressReport) {
        let verdict = VersionVerdict::of(&report);
        let (new_wins, base_wins) = verdict.same_opponents;
        self.rt.message = format!(
            "{} against {}: {} head to head; the same opponents won {new_wins} (base {base_wins}); {} flipped{}",
            report.new.name(),
            verdict.base,
            verdict.verdict,
            report.flipped().len(),
            if report.cancelled { " (stopped early)" } else { "" }
        );
        self.verdicts.insert(report.new.hash.clone(), verdict);
        self.rt.report = Some(report);
    }
}

impl VersionVerdict {
    fn of(report: &RegressReport) -> VersionVerdict {
        let h = &report.head_to_head;
        let (base_wins, new_wins) = report.wins();
        VersionVerdict {
            base: report.base.name(),
            verdict: h.verdict().to_string(),
            elo: h.elo.map(|e| (e.elo, e.lower, e.upper)),
            same_opponents: (new_wins, base_wins),
        }
    }
}
