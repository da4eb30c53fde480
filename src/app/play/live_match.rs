//! A running match as the Play view follows it: its events read into what a person needs —
//! the newest turn frame, whom the match is waiting for and since when, each turn's recap from
//! the person's side, the end frame — and the turn being planned.

use super::super::viewer::whatif_board::BoardWhatIf;
use std::path::PathBuf;
use std::sync::Arc;
use terminal_core::engine::Config;
use terminal_core::engine::frame::{Frame, Phase};
use terminal_core::engine::geometry::Player;
use terminal_core::layout::threat::PathThreat;
use terminal_core::replay::recap::TurnRecap;
use terminal_core::runner::human::TurnCheck;
use terminal_core::runner::{HumanTurn, MatchHandle, TimeLimits};
use terminal_core::verify::rebuild::RebuildError;
use web_time::Instant;

/// Per seat, where a person's turns are sent (`None`: not a person's seat).
pub type HumanSenders = [Option<crossbeam_channel::Sender<HumanTurn>>; 2];

/// The match waiting for the seats' replies to a turn frame.
#[derive(Clone, Debug)]
pub struct Waiting {
    pub turn: i32,
    pub since: Instant,
    pub limits: TimeLimits,
    /// Per seat, after how long it replied (`None`: still thinking).
    pub replied: [Option<i64>; 2],
}

/// A running match.
pub struct LiveMatch {
    pub(super) handle: MatchHandle,
    pub(super) config: Arc<Config>,
    pub(super) humans: HumanSenders,
    /// When the match was started (the algos' start-up counts from here).
    pub(super) started: Instant,
    /// The newest turn frame.
    pub(super) turn_frame: Option<Arc<Frame>>,
    /// The last turn each person ended.
    pub(super) ended: [Option<i32>; 2],
    /// The turn being planned, and by which seat.
    pub(super) planning: Option<(i32, Player)>,
    /// The plan while the board looks back at a past frame (it returns with the present).
    pub(super) stashed_plan: Option<BoardWhatIf>,
    /// The plan's edits so far (for Undo): the board what-if before each.
    pub(super) undo: Vec<BoardWhatIf>,
    pub(super) last_plan: Option<BoardWhatIf>,
    /// The engine's verdict on the plan as it stands.
    pub(super) check: Option<Result<TurnCheck, RebuildError>>,
    /// Why the last edit of the plan was refused, in a player's words.
    pub(super) refusal: Option<String>,
    /// What the plan's deploys would go through, per deploy tile.
    pub(super) threats: Vec<(u8, usize, PathThreat)>,
    /// Action frames played (as the match's result counts them).
    pub(super) action_frames: usize,
    pub(super) names: [String; 2],
    pub(super) replay_path: Option<PathBuf>,
    pub(super) waiting: Option<Waiting>,
    /// The action frames of the turn being played, for its recap (shared with the board).
    turn_frames: Vec<Arc<Frame>>,
    /// One recap per turn played, in order.
    pub(super) recaps: Vec<TurnRecap>,
    /// The end frame, once the match has one.
    pub(super) end_frame: Option<Frame>,
}

impl LiveMatch {
    /// The ruleset the match is played under.
    pub fn config(&self) -> &Arc<Config> {
        &self.config
    }

    pub(super) fn new(handle: MatchHandle, config: Arc<Config>, humans: HumanSenders) -> LiveMatch {
        LiveMatch {
            handle,
            config,
            humans,
            started: Instant::now(),
            turn_frame: None,
            ended: [None, None],
            planning: None,
            stashed_plan: None,
            undo: Vec::new(),
            last_plan: None,
            check: None,
            refusal: None,
            threats: Vec::new(),
            action_frames: 0,
            names: Default::default(),
            replay_path: None,
            waiting: None,
            turn_frames: Vec::new(),
            recaps: Vec::new(),
            end_frame: None,
        }
    }

    /// Takes in one frame of the match: a turn frame closes the recap of the turn before.
    pub(super) fn take_frame(&mut self, frame: &Arc<Frame>) {
        match frame.turn_info.phase {
            Phase::End => {
                self.close_turn();
                self.end_frame = Some((**frame).clone());
            }
            Phase::Deploy => {
                self.close_turn();
                self.turn_frame = Some(Arc::clone(frame));
            }
            Phase::Action => {
                self.action_frames += 1;
                self.turn_frames.push(Arc::clone(frame));
            }
        }
    }

    fn close_turn(&mut self) {
        if self.turn_frames.is_empty() {
            return;
        }
        let turn = self.turn_frames[0].turn_info.turn;
        let frames = std::mem::take(&mut self.turn_frames);
        let recap = TurnRecap::of(&self.config, turn, frames.iter().map(|f| &**f), self.side());
        self.recaps.push(recap);
    }

    /// The seats' names as the match plays them.
    pub fn names(&self) -> &[String; 2] {
        &self.names
    }

    /// The turn being planned, and by which seat.
    pub fn planning(&self) -> Option<(i32, Player)> {
        self.planning
    }

    /// The engine's verdict on the plan as it stands.
    pub fn check(&self) -> Option<&Result<TurnCheck, RebuildError>> {
        self.check.as_ref()
    }

    /// Why the last edit of the plan was refused, in a player's words.
    pub fn refusal(&self) -> Option<&str> {
        self.refusal.as_deref()
    }

    /// Where the match's replay is written.
    pub fn replay_path(&self) -> Option<&std::path::Path> {
        self.replay_path.as_deref()
    }

    /// The match waiting for the seats' replies, if it is.
    pub fn waiting(&self) -> Option<&Waiting> {
        self.waiting.as_ref()
    }

    /// The newest turn, as the match has played it.
    pub fn turn(&self) -> i32 {
        self.turn_frame.as_ref().map_or(0, |f| f.turn_info.turn)
    }

    pub fn is_human(&self, p: Player) -> bool {
        self.humans[p.index()].is_some()
    }

    /// The side the recaps are told from: the person's seat, else player 1.
    pub fn side(&self) -> Player {
        if self.is_human(Player::Two) && !self.is_human(Player::One) { Player::Two } else { Player::One }
    }
}
