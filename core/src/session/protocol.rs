//! The typed messages between the UI and the simulation worker.

use super::debug::{FrameDebug, PlayedCommands};
use super::summary::ReplaySummary;
use super::whatif::{WhatIfError, WhatIfSpec, WhatIfTry};
use crate::engine::frame::Frame;
use crate::engine::frame_check::FrameError;
use crate::engine::{Config, Game};
use crate::replay::ReplayError;
use std::path::PathBuf;
use std::sync::Arc;

/// Where a what-if run takes its starting state from.
#[derive(Clone)]
pub enum WhatIfSource {
    /// The turn the session is showing.
    CurrentTurn,
    /// The turn frame of this turn of the loaded replay.
    ReplayTurn(i32),
    /// A game built from an editor layout (`whatif::game_from_structures`), in its deploy phase.
    Layout(Box<Game>),
}

/// What the UI asks of the worker.
pub enum Request {
    /// Open a `.replay` / `.replay.gz` file (current or legacy format).
    LoadReplay(PathBuf),
    /// Show the turn frame of a turn.
    LoadTurn { turn: i32 },
    /// Show frame `frame` of `turn` (0 = turn frame, k = action frame k − 1).
    Seek { turn: i32, frame: usize },
    /// One frame forward (into the next turn after the last frame of a turn).
    Step,
    /// One frame back.
    StepBack,
    /// Show the last frame of the current turn.
    RunToEndOfTurn,
    /// Simulate a turn from `source` with the structure edits and commands of `spec` (the
    /// default spec: the turn as played); the try is kept in the history under `label`. The
    /// spec is boxed: requests are queued by value, and it is far larger than the others.
    RunWhatIf { source: WhatIfSource, spec: Box<WhatIfSpec>, label: String },
    /// Show frame `frame` (clamped) of the try at `index` of the history of tries; `Step`,
    /// `StepBack` and `RunToEndOfTurn` then move within the try until a `Seek` or `LoadTurn`
    /// returns to the replay.
    WatchTry { index: usize, frame: usize },
    /// Follow a live match: an empty history under `config`, whose frames arrive with
    /// `AppendFrames`; `source` is the replay being written (for the algos' companion files).
    StartLive { config: Arc<Config>, source: PathBuf, names: [String; 2] },
    /// The next frames of the live match, in order. Answered by `LiveUpdate`.
    AppendFrames(Vec<Frame>),
    /// Stop the worker.
    Shutdown,
    /// Panics with this message: lets the tests (the core's and the studio's) check that a
    /// panic in the worker reaches the user. Only in test builds.
    #[cfg(any(test, feature = "panic-for-test"))]
    #[doc(hidden)]
    PanicForTest(String),
}

impl Request {
    /// What the worker is doing while it handles this request, for a report if it fails.
    pub fn describe(&self) -> String {
        match self {
            Request::LoadReplay(path) => format!("opening {}", path.display()),
            Request::LoadTurn { turn } => format!("showing turn {turn}"),
            Request::Seek { turn, frame } => format!("showing frame {frame} of turn {turn}"),
            Request::Step => "stepping forward".into(),
            Request::StepBack => "stepping back".into(),
            Request::RunToEndOfTurn => "running to the end of the turn".into(),
            Request::RunWhatIf { source, label, .. } => {
                let from = match source {
                    WhatIfSource::CurrentTurn => "the turn shown".to_string(),
                    WhatIfSource::ReplayTurn(turn) => format!("turn {turn}"),
                    WhatIfSource::Layout(game) => format!("a layout at turn {}", game.turn),
                };
                format!("running what-if \"{label}\" from {from}")
            }
            Request::WatchTry { index, frame } => format!("showing frame {frame} of try {}", index + 1),
            Request::StartLive { source, .. } => format!("starting to follow the live match {}", source.display()),
            Request::AppendFrames(frames) => format!("adding {} frames of the live match", frames.len()),
            Request::Shutdown => "stopping".into(),
            #[cfg(any(test, feature = "panic-for-test"))]
            Request::PanicForTest(_) => "a test of the panic report".into(),
        }
    }
}

/// One frame as the viewer shows it: the replay's frame plus the debugger data.
#[derive(Debug, Clone)]
pub struct FrameView {
    /// Index of the frame in the replay.
    pub index: usize,
    /// Frame number within the turn (0 = turn frame).
    pub frame_in_turn: usize,
    /// Frames in this turn.
    pub frames_in_turn: usize,
    /// The replay's frame (what is shown).
    pub frame: Frame,
    pub debug: FrameDebug,
    /// The what-if try (index in the history of tries) this frame comes from; `None` for
    /// the replay's own frames. For a try, `index` is the frame's position in the try.
    pub watching: Option<usize>,
    /// The commands the players gave in this turn of the replay (empty for a try's frames).
    pub played: Arc<PlayedCommands>,
}

/// What the worker reports back.
#[derive(Debug, Clone)]
pub enum Event {
    ReplayLoaded(Box<ReplaySummary>),
    Frame {
        turn: i32,
        frame: usize,
        view: Box<FrameView>,
    },
    WhatIfResult(Box<WhatIfTry>),
    Progress {
        what: String,
        done: usize,
        total: usize,
    },
    Error(SessionError),
    /// The live match's history grew: the summary of what has arrived so far.
    LiveUpdate(Box<ReplaySummary>),
}

/// Why a request could not be carried out; the session goes on.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("{}: no turn frames", .0.display())]
    NoTurnFrames(PathBuf),
    #[error("no replay loaded")]
    NoReplay,
    #[error("the replay has no turn {0}")]
    NoSuchTurn(i32),
    #[error("there is no try {}", .0 + 1)]
    NoSuchTry(usize),
    #[error("{0} kept no frames")]
    TryWithoutFrames(String),
    #[error(transparent)]
    WhatIf(#[from] WhatIfError),
    #[error("frames arrived for a live match that was not started")]
    NotLive,
    /// A frame of the live match lies (a tile off the board…): left out of the history.
    #[error("{}: live frame {index}: {error}", file.display())]
    InvalidLiveFrame { file: PathBuf, index: usize, error: FrameError },
    /// The worker stopped on a bug while handling a request; it goes on with the next one.
    #[error("the simulation stopped on a bug while {doing}: {message}")]
    WorkerPanicked { doing: String, message: String },
}
