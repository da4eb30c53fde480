//! The verifier: re-simulates every turn of a real replay from its turn frame and compares
//! every following frame (docs/replay-format.md, A replay as ground truth).

pub mod bench;
mod compare;
pub mod rebuild;

pub use compare::{FrameDifference, ReplayMatch, compare_frames, compare_replays};
pub use rebuild::{TurnInputs, game_at_turn_frame, turn_inputs};

use crate::engine::frame::{Frame, Phase, TurnInfo};
use crate::replay::{Replay, read_replay};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Exact,
    Diverged,
    Skipped,
    Error,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Exact => "exact",
            Status::Diverged => "diverged",
            Status::Skipped => "skipped",
            Status::Error => "error",
        }
    }
}

/// The verdict on one replay.
#[derive(Debug, Clone)]
pub struct ReplayReport {
    pub file: PathBuf,
    pub ruleset: Option<String>,
    pub frames_total: usize,
    pub frames_exact: usize,
    pub status: Status,
    pub first_divergence: Option<String>,
    /// Why a replay was skipped or could not be read.
    pub reason: Option<String>,
}

impl ReplayReport {
    /// The report as one line of JSON (`verify --json`).
    pub fn to_json(&self) -> String {
        let line = ReportLine {
            file: self.file.display().to_string(),
            ruleset: self.ruleset.as_deref(),
            frames_total: self.frames_total,
            frames_exact: self.frames_exact,
            status: self.status.as_str(),
            first_divergence: self.first_divergence.as_deref(),
            reason: self.reason.as_deref(),
        };
        serde_json::to_string(&line).unwrap_or_default()
    }
}

/// A report as `verify --json` writes it.
#[derive(serde::Serialize)]
struct ReportLine<'a> {
    file: String,
    ruleset: Option<&'a str>,
    frames_total: usize,
    frames_exact: usize,
    status: &'static str,
    first_divergence: Option<&'a str>,
    reason: Option<&'a str>,
}

/// The name of a replay's ruleset: the preset its config matches, `legacy-2018-august` for
/// a replay of the August 2018 build, `legacy` for another config in the 2018–2019 format,
/// else `custom`. Read from the config, so files outside our folder layout are named
/// correctly.
pub fn ruleset_name(config: &crate::engine::Config) -> String {
    let august = config.legacy_build() == crate::engine::mechanics::LegacyBuild::August2018;
    match crate::engine::presets::identify(config) {
        Some(slug) => slug.to_string(),
        None if august => "legacy-2018-august".to_string(),
        None if config.legacy => "legacy".to_string(),
        None => "custom".to_string(),
    }
}

impl ReplayReport {
    /// A report on `file` with nothing checked yet (an error until a check says otherwise).
    pub fn new(file: &Path) -> ReplayReport {
        ReplayReport {
            file: file.to_path_buf(),
            ruleset: None,
            frames_total: 0,
            frames_exact: 0,
            status: Status::Error,
            first_divergence: None,
            reason: None,
        }
    }
}

/// Verifies one replay file.
pub fn verify_file(path: &Path) -> ReplayReport {
    let mut report = ReplayReport::new(path);
    match read_replay(path) {
        Err(e) => report.reason = Some(e.to_string()),
        Ok(replay) => {
            report.ruleset = Some(ruleset_name(&replay.config));
            verify_replay(&replay, &mut report);
            if let Some(line) = replay.truncated_at {
                let why = format!("truncated at line {line}: the frames before it were checked");
                report.reason = Some(report.reason.take().map_or(why.clone(), |r| format!("{r}; {why}")));
            }
        }
    }
    report
}

/// Verifies a replay in memory, filling `report`.
pub fn verify_replay(replay: &Replay, report: &mut ReplayReport) {
    let config = Arc::new(replay.config.clone());
    let frames = &replay.frames;
    report.frames_total = frames.len();
    let mut carry = None;
    let mut found = Findings::default();
    // Turn 0's turn frame is compared with a fresh game.
    if let Some(f0) = frames.first() {
        let mut fresh = crate::engine::Game::new(Arc::clone(&config));
        found.compared(compare_frames(f0, &fresh.turn_frame()), || "turn 0, turn frame".to_string());
    }
    let ids = rebuild::running_max_ids(frames);
    let early_2020 = rebuild::is_early_2020(replay, &config, &ids);
    for start in replay.turn_starts() {
        let (mut game, inputs) = match game_at_turn_frame(replay, &config, start, &ids, carry.take()) {
            Ok((game, mut inputs)) => {
                inputs.early_2020 |= early_2020;
                (game, inputs)
            }
            Err(e) => {
                found.first = found.first.or(Some(e.to_string()));
                continue;
            }
        };
        inputs.apply(&mut game);
        let k = check_action_phase(&mut game, frames, start + 1, &mut found);
        if let Some(next) = frames.get(k) {
            check_next_turn_frame(&mut game, next, frames[k - 1].turn_info, &mut found);
        }
        carry = Some(game.players.clone());
    }
    report.frames_exact = found.exact.min(report.frames_total);
    report.status = if found.first.is_none() && report.frames_exact == report.frames_total {
        Status::Exact
    } else {
        Status::Diverged
    };
    report.first_divergence = found.first;
    if early_2020 {
        report.reason = Some(
            "early-2020 engine build (upgrades echoed as base-type spawns, docs/replay-format.md): simulated with its targeting rules (health without shields, ids compared as text; docs/fidelity.md)".into(),
        );
    }
}

/// What a verification found so far: the frames that matched, and the first divergence.
#[derive(Default)]
struct Findings {
    exact: usize,
    first: Option<String>,
}

impl Findings {
    /// Counts a matching frame, or keeps the divergence (named by `what`) if it is the first.
    fn compared(&mut self, result: Result<(), impl std::fmt::Display>, what: impl FnOnce() -> String) {
        match result {
            Ok(()) => self.exact += 1,
            Err(d) => self.first = self.first.take().or_else(|| Some(format!("{}: {d}", what()))),
        }
    }
}

/// Plays the action phase from the replay's frame `k` on, comparing each frame; returns the
/// index of the first frame after the replay's action phase.
fn check_action_phase(game: &mut crate::engine::Game, frames: &[Frame], mut k: usize, found: &mut Findings) -> usize {
    while k < frames.len() && frames[k].turn_info.phase == Phase::Action {
        let ours = game.action_frame();
        let theirs = &frames[k];
        let result = compare_frames(theirs, &ours);
        if result.is_err() && found.first.is_none() && std::env::var_os("TS_VERIFY_DUMP").is_some() {
            eprintln!("expected: {}", crate::replay::frame_to_json(theirs, false, true));
            eprintln!("actual:   {}", crate::replay::frame_to_json(&ours, false, true));
        }
        found.compared(result, || {
            format!("turn {}, action frame {}", theirs.turn_info.turn, theirs.turn_info.action_frame)
        });
        k += 1;
        if game.action_phase_done() {
            break;
        }
    }
    // Frames the replay has in this action phase that we did not produce.
    while k < frames.len() && frames[k].turn_info.phase == Phase::Action {
        found.first = found.first.take().or_else(|| {
            Some(format!(
                "turn {}, action frame {}: the engine ended the action phase earlier",
                frames[k].turn_info.turn, frames[k].turn_info.action_frame
            ))
        });
        k += 1;
    }
    k
}

/// Ends the turn and compares the next turn frame (or the end frame) with the replay's.
fn check_next_turn_frame(game: &mut crate::engine::Game, next: &Frame, last_info: TurnInfo, found: &mut Findings) {
    if !game.over {
        game.end_turn();
    }
    let ours = if game.over { game.end_frame(&last_info, 0) } else { game.turn_frame() };
    found.compared(compare_frames(next, &ours), || {
        if next.turn_info.phase == Phase::End {
            "end frame".to_string()
        } else {
            format!("turn {}, turn frame", next.turn_info.turn)
        }
    });
}

/// Finds replay files under the given paths (files, or folders searched recursively).
pub fn collect_replays(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if crate::files::is_dir(p) {
            let mut stack = vec![p.clone()];
            while let Some(dir) = stack.pop() {
                let Ok(entries) = crate::files::list_dir(&dir) else { continue };
                for path in entries {
                    if crate::files::is_dir(&path) {
                        stack.push(path);
                    } else if crate::files::is_replay(&path) {
                        out.push(path);
                    }
                }
            }
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    out
}
