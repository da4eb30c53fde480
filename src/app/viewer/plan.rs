//! The attack planner in the Debugger: the strongest deploys of one seat on the shown turn of
//! a replay, searched on a thread of its own (cancellable, with progress); a hovered
//! candidate's walks drawn on the board; a candidate tried as a what-if beside the turn as
//! played.

use super::Viewer;
use super::whatif::AS_PLAYED;
use crate::app::job_progress::JobProgress;
use crossbeam_channel::{Receiver, Sender, bounded};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use terminal_core::engine::Player;
use terminal_core::engine::game::Game;
use terminal_core::layout::stress::{AttackOutcome, AttackTry};
use terminal_core::planner::{self, AttackOption, Candidate, FrontierPoint, PlanBoard, PlanProgress, PlanRequest};
use terminal_core::session::whatif::WhatIfSpec;
use terminal_core::session::{Request, WhatIfSource};
use web_time::Instant;

/// Distinct attacks the panel lists, best first (the recorded deploy's row besides).
pub(super) const LISTED: usize = 10;

/// The planner's settings and its last search.
pub(super) struct AttackPlanner {
    /// The Debugger shows the planner's section.
    pub(super) open: bool,
    pub(super) seat: Player,
    /// MP given in place of what the seat has that turn.
    pub(super) mp: Option<f32>,
    /// Groups per deploy at most (1 to 3).
    pub(super) max_groups: usize,
    job: Option<PlanJob>,
    pub(super) progress: Option<JobProgress>,
    pub(super) result: Option<PlannedTurn>,
    /// The hovered candidate and its outcome with every unit's walk.
    hovered: Option<(usize, AttackOutcome)>,
    /// Tries to open side by side once both are back: the turn as played and a candidate.
    compare_after: Option<(usize, usize)>,
    /// Why the last search could not run.
    pub(super) error: Option<String>,
}

impl Default for AttackPlanner {
    fn default() -> Self {
        AttackPlanner {
            open: false,
            seat: Player::One,
            mp: None,
            max_groups: 3,
            job: None,
            progress: None,
            result: None,
            hovered: None,
            compare_after: None,
            error: None,
        }
    }
}

/// A search's answer for one turn and seat.
pub(super) struct PlannedTurn {
    pub(super) turn: i32,
    pub(super) seat: Player,
    pub(super) board: PlanBoard,
    /// The distinct attacks, best first (at most [`LISTED`] searched rows; the turn's
    /// recorded deploy a row of its own among them).
    pub(super) options: Vec<AttackOption>,
    /// Each row's best deploy, in the rows' order.
    pub(super) candidates: Vec<Candidate>,
    /// The cost to break the base (a replay turn): the best attack at each MP to the turn's.
    pub(super) frontier: Vec<FrontierPoint>,
    /// Deploys the engine ran.
    pub(super) evaluated: usize,
    pub(super) seconds: f64,
}

struct PlanJob {
    events: Receiver<PlanEvent>,
    cancel: Arc<AtomicBool>,
}

enum PlanEvent {
    Progress(JobProgress),
    Done(Box<Result<PlannedTurn, String>>),
}

impl AttackPlanner {
    pub(super) fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// The seat of the last search's attacker (the planner's seat before any).
    pub(super) fn result_seat(&self) -> Player {
        self.result.as_ref().map_or(self.seat, |r| r.seat)
    }

    pub(super) fn hovered_index(&self) -> Option<usize> {
        self.hovered.as_ref().map(|(i, _)| *i)
    }

    /// Forgets the search (a new replay is shown): a running one is stopped.
    pub(super) fn reset(&mut self) {
        self.cancel_job();
        (self.progress, self.result, self.hovered, self.compare_after, self.error) = (None, None, None, None, None);
    }

    /// Stops the running search, if any (its thread ends within one deploy); true if there was one.
    fn cancel_job(&mut self) -> bool {
        let Some(job) = self.job.take() else { return false };
        job.cancel.store(true, Ordering::Relaxed);
        self.progress = None;
        true
    }

    /// The hovered candidate's outcome with its walks, if one is hovered.
    pub(super) fn hovered(&self) -> Option<&AttackOutcome> {
        self.hovered.as_ref().map(|(_, o)| o)
    }
}

/// The board a search starts from.
pub enum PlanSource {
    /// A turn of a replay file, as the Layout lab takes it.
    ReplayTurn(PathBuf),
    /// A game in its deploy phase (a person's turn in Play, their builds made).
    Game(Box<Game>),
}

/// The search of one turn, on the calling thread: the board prepared (a replay read), every
/// deploy run.
fn search(
    source: &PlanSource,
    turn: i32,
    seat: Player,
    mp: Option<f32>,
    request: &PlanRequest,
    tx: &Sender<PlanEvent>,
    cancel: &AtomicBool,
) -> Result<PlannedTurn, String> {
    let started = Instant::now();
    let board = match source {
        PlanSource::ReplayTurn(path) => {
            let replay = terminal_core::replay::read_replay(path).map_err(|e| e.to_string())?;
            PlanBoard::from_replay(&replay, turn, seat).map_err(|e| e.to_string())?
        }
        PlanSource::Game(game) => PlanBoard::from_game(game, seat, &format!("turn {turn}")),
    };
    let board = match mp {
        Some(mp) => board.with_mp(mp),
        None => board,
    };
    // Progress is dropped when the panel is behind (only the newest matters), and leaves
    // the last place to the answer: run inline (the browser), nobody empties the channel.
    let progress = |p: JobProgress| {
        if tx.len() + 1 < tx.capacity().unwrap_or(usize::MAX) {
            let _ = tx.try_send(PlanEvent::Progress(p));
        }
    };
    let plan_progress = |p: PlanProgress| progress(JobProgress::of_plan(p));
    let plan = planner::plan(&board, request, &plan_progress, cancel).map_err(|e| e.to_string())?;
    let evaluated = plan.evaluated.iter().sum();
    let options = planner::options(&board, &plan, LISTED, request.jobs, cancel).map_err(|e| e.to_string())?;
    let candidates = options.iter().map(|o| o.best.clone()).collect();
    let frontier = match source {
        PlanSource::ReplayTurn(_) => {
            let levels = planner::frontier_levels(&board, board.mp());
            let request = planner::frontier_request(request.jobs);
            let levels_done = |done, total| progress(JobProgress::of_frontier(done, total));
            progress(JobProgress::of_frontier(0, levels.len()));
            planner::frontier(&board, &levels, &request, &levels_done, cancel).map_err(|e| e.to_string())?
        }
        PlanSource::Game(_) => Vec::new(),
    };
    let seconds = started.elapsed().as_secs_f64();
    Ok(PlannedTurn { turn, seat, board, options, candidates, frontier, evaluated, seconds })
}

impl Viewer {
    /// Searches the strongest deploys of the planner's seat on the shown turn.
    pub(super) fn plan_attack(&mut self) {
        let (Some(path), Some(turn)) = (self.shown.path.clone(), self.turn()) else {
            self.planner.error = Some("Open a replay and go to a turn first".into());
            return;
        };
        if self.shown.live {
            self.planner.error = Some("A live match is still being written: plan on its replay once it ends".into());
            return;
        }
        self.start_plan(PlanSource::ReplayTurn(path), turn, self.planner.seat);
    }

    /// Searches the strongest deploys of `seat` from `source` at `turn`, on a thread of its
    /// own; the panel shows its progress and its answer.
    pub fn start_plan(&mut self, source: PlanSource, turn: i32, seat: Player) {
        let mp = self.planner.mp;
        self.start_plan_with_mp(source, turn, seat, mp);
    }

    /// The same search with the attacker holding `mp` (`None`: the MP it has on the board).
    pub fn start_plan_with_mp(&mut self, source: PlanSource, turn: i32, seat: Player, mp: Option<f32>) {
        self.stop_plan();
        let planner = &mut self.planner;
        planner.seat = seat;
        let request = PlanRequest { max_groups: planner.max_groups.clamp(1, 3), ..PlanRequest::default() };
        let (tx, rx) = bounded(64);
        let cancel = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&cancel);
        let spawned = crate::app::background::spawn("attack-planner", move || {
            let result = search(&source, turn, seat, mp, &request, &tx, &stop);
            // A full channel must not lose the answer: wait for room.
            let _ = tx.send(PlanEvent::Done(Box::new(result)));
        });
        (planner.result, planner.hovered, planner.progress) = (None, None, None);
        match spawned {
            Ok(_) => {
                planner.error = None;
                planner.job = Some(PlanJob { events: rx, cancel });
                self.message = format!("Planning player {}'s attack on turn {turn}…", seat.number());
            }
            Err(e) => planner.error = Some(format!("cannot start the planner's thread: {e}")),
        }
    }

    /// Stops a running search (its thread ends within one deploy).
    /// Forgets the planner's search and its answer: they were for a turn that is over.
    pub fn clear_plan(&mut self) {
        self.planner.cancel_job();
        self.planner.result = None;
        self.planner.hovered = None;
        self.planner.error = None;
    }

    pub(super) fn stop_plan(&mut self) {
        if self.planner.cancel_job() {
            self.message = "Planning stopped".into();
        }
    }

    /// Takes what the planner's thread sent.
    pub(super) fn poll_plan(&mut self) {
        let Some(job) = &self.planner.job else { return };
        let (events, disconnected) = drain(&job.events);
        for e in events {
            match e {
                PlanEvent::Progress(p) => self.planner.progress = Some(p),
                PlanEvent::Done(result) => {
                    self.planner.job = None;
                    self.planner.progress = None;
                    match *result {
                        Ok(done) => {
                            self.message = planned_message(&done);
                            self.planner.result = Some(done);
                        }
                        Err(e) => self.planner.error = Some(e),
                    }
                }
            }
        }
        if disconnected && self.planner.job.is_some() {
            self.planner.job = None;
            self.planner.error = Some("the planner's thread ended without an answer".into());
        }
    }

    /// Draws the walks of candidate `index` (worked out once), or none.
    pub(super) fn hover_candidate(&mut self, index: Option<usize>) {
        let planner = &mut self.planner;
        let Some(index) = index else {
            planner.hovered = None;
            return;
        };
        if planner.hovered.as_ref().is_some_and(|(i, _)| *i == index) {
            return;
        }
        let Some(done) = &planner.result else { return };
        let Some(candidate) = done.candidates.get(index) else { return };
        let outcome = done.board.evaluate(&candidate.deploy(), true, &mut None);
        planner.hovered = Some((index, outcome));
    }

    /// Tries candidate `index` as a what-if of its turn (both players' builds as recorded,
    /// the attacker deploying the candidate, the defender nothing, as the planner counts),
    /// and opens it side by side with the turn as played.
    pub(super) fn try_candidate(&mut self, index: usize) {
        let Some(done) = &self.planner.result else { return };
        let Some(candidate) = done.candidates.get(index) else { return };
        let label = format!("plan #{}: {}", index + 1, self.describe_groups(candidate));
        self.try_deploy(candidate.deploy(), label);
    }

    /// Tries the frontier's level `i` as [`Viewer::try_candidate`] does a candidate.
    pub(super) fn try_frontier(&mut self, i: usize) {
        let Some(done) = &self.planner.result else { return };
        let Some(point) = done.frontier.get(i) else { return };
        let Some(candidate) = &point.best else { return };
        let label = format!("best at {} MP: {}", point.mp, self.describe_groups(candidate));
        self.try_deploy(candidate.deploy(), label);
    }

    /// Runs `deploy` as the planner's attacker's on its turn, beside the turn as played.
    fn try_deploy(&mut self, deploy: Vec<terminal_core::engine::Command>, label: String) {
        let Some(done) = &self.planner.result else { return };
        let (turn, seat) = (done.turn, done.seat);
        let mut spec = WhatIfSpec::default();
        spec.deploys[seat.index()] = Some(deploy);
        spec.deploys[seat.opponent().index()] = Some(Vec::new());
        let as_played = self.whatif.tries.iter().position(|t| t.turn == turn && t.label == AS_PLAYED);
        let next = self.whatif.tries.len();
        let a = as_played.unwrap_or_else(|| {
            let source = WhatIfSource::ReplayTurn(turn);
            self.request(Request::RunWhatIf { source, spec: Box::default(), label: AS_PLAYED.into() });
            next
        });
        let b = if as_played.is_some() { next } else { next + 1 };
        self.whatif.tries_pov = seat;
        self.planner.compare_after = Some((a, b));
        let source = WhatIfSource::ReplayTurn(turn);
        self.request(Request::RunWhatIf { source, spec: Box::new(spec), label });
    }

    /// Once the tries a candidate asked for are back, opens them side by side.
    pub(super) fn compare_planned_try(&mut self) {
        if let Some((a, b)) = self.planner.compare_after
            && b < self.whatif.tries.len()
        {
            self.planner.compare_after = None;
            self.whatif.compare_pick = [a, b];
            self.compare_tries(a, b);
        }
    }

    /// "8 scout at (13, 0) + 2 demolisher at (14, 0)".
    pub fn describe_groups(&self, c: &Candidate) -> String {
        describe_groups(c, self.is_legacy())
    }

    /// A row of the planner's list in words: "12 scout from any of 12 tiles of the left
    /// edge", "8 scout at (13, 0) + 2 demolisher at (14, 0) (and 3 alike deploys)".
    pub fn describe_option(&self, row: &AttackOption) -> String {
        let legacy = self.is_legacy();
        let unit = |t: u8| super::unit_name(t as usize, legacy);
        row.describe(&unit, &|t| t, &|c| describe_groups(c, legacy))
    }

    /// Runs a try against a layout (the Layout lab's searched attacks) and watches it.
    pub fn open_layout_attack(&mut self, attacker: Player, attack: AttackTry, ctx: Option<&egui::Context>) {
        self.ensure_backend(ctx);
        self.run_attack_try(attacker, attack);
    }
}

/// "8 scout at (13, 0) + 2 demolisher at (14, 0)": a candidate's groups, true-board tiles.
pub fn describe_groups(c: &Candidate, legacy: bool) -> String {
    let groups: Vec<String> = c
        .groups
        .iter()
        .map(|g| {
            format!("{} {} at ({}, {})", g.count, super::unit_name(g.unit_type as usize, legacy), g.tile.x, g.tile.y)
        })
        .collect();
    groups.join(" + ")
}

/// What the thread sent so far, and whether it has ended.
fn drain(events: &Receiver<PlanEvent>) -> (Vec<PlanEvent>, bool) {
    let mut got = Vec::new();
    loop {
        match events.try_recv() {
            Ok(e) => got.push(e),
            Err(crossbeam_channel::TryRecvError::Empty) => return (got, false),
            Err(crossbeam_channel::TryRecvError::Disconnected) => return (got, true),
        }
    }
}

fn planned_message(done: &PlannedTurn) -> String {
    match done.candidates.first() {
        Some(best) => format!(
            "Planned player {}'s attack on turn {}: {} deploys run in {:.1} s, the best deals {:.0} HP",
            done.seat.number(),
            done.turn,
            done.evaluated,
            done.seconds,
            best.damage
        ),
        None => format!("Turn {}: player {} can deploy nothing with its MP", done.turn, done.seat.number()),
    }
}

/// What the planner shows, read by the studio's other parts and its tests.
impl Viewer {
    /// A search is running.
    pub fn is_planning(&self) -> bool {
        self.planner.is_running()
    }

    /// The last search's turn, attacker and its rows' best deploys (best first).
    pub fn planned(&self) -> Option<(i32, Player, &[Candidate])> {
        self.planner.result.as_ref().map(|r| (r.turn, r.seat, r.candidates.as_slice()))
    }

    /// How far the running search is, as its bar reads.
    pub fn plan_progress_text(&self) -> Option<String> {
        self.planner.progress.as_ref().map(JobProgress::text)
    }

    /// The last search's frontier (a replay turn): the best attack at each MP level.
    pub fn planned_frontier(&self) -> Option<&[FrontierPoint]> {
        self.planner.result.as_ref().map(|r| r.frontier.as_slice())
    }

    /// The last search's distinct attacks (best first, the recorded deploy among them).
    pub fn planned_options(&self) -> Option<&[AttackOption]> {
        self.planner.result.as_ref().map(|r| r.options.as_slice())
    }

    /// Why the last search could not run.
    pub fn plan_error(&self) -> Option<&str> {
        self.planner.error.as_deref()
    }

    /// The candidate whose walks the board draws, and its outcome.
    pub fn planned_hover(&self) -> Option<(usize, &AttackOutcome)> {
        self.planner.hovered.as_ref().map(|(i, o)| (*i, o))
    }
}
