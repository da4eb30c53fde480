//! The typed messages between the UI and the simulation worker.

use super::debug::{FrameDebug, PlayedCommands};
use super::summary::ReplaySummary;
use super::whatif::{WhatIfError, WhatIfSpec, WhatIfTry};
use crate::engine::frame::Frame;
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
}
