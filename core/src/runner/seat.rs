//! One player's seat in a match: the algo process (or why it could not start), its stderr
//! capture and what the runner records about it; or a ghost or a person, who answer
//! without a process.

use super::annotations::AnnotationSink;
use super::confine::{RuleHit, SeatPlan, Seen, diagnose};
use super::events::EventSink;
use super::ghost::Ghost;
use super::human::HumanSeat;
use super::locate::{AlgoLocation, LocateError};
use super::process::{AlgoProcess, StartUpOutput};
use super::progress::Progress;
use super::reply::{Reply, collect};
use super::result::PlayerResult;
use super::spec::{MatchSpec, sibling};
use super::stderr::{StderrCapture, StderrSummary};
use crate::engine::geometry::Player;
use crossbeam_channel::{Receiver, select};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;
use web_time::Instant;

/// The name of a player whose algo could not be started (docs/protocol.md, Starting an algo).
pub const FAILED_TO_LOAD: &str = "FailedToLoad";

pub struct Seat {
    pub player: Player,
    pub name: String,
    pub process: Option<AlgoProcess>,
    /// The process closed its stdout: it is charged a crash at the next turn it must answer.
    pub dead: bool,
    /// The turn of the latest turn frame sent (stderr is filed by it when the algo's
    /// reading cannot be seen).
    pub turn: Arc<AtomicI32>,
    stderr: Option<Receiver<StderrSummary>>,
    pub result: PlayerResult,
    /// A ghost and the recorded player it replays.
    ghost: Option<(Ghost, Player)>,
    human: Option<HumanSeat>,
    /// The algo's confinement (its temp folder lives as long as this).
    confine: Option<SeatPlan>,
    /// Its last stderr lines, once the stderr thread has ended.
    stderr_tail: Vec<String>,
}

/// Everything a seat needs to start its algo.
pub struct SeatContext<'a> {
    pub spec: &'a MatchSpec,
    /// The CPU limit per algo process (from the match's time limits).
    pub cpu_seconds: Option<u64>,
    pub env: &'a [(String, String)],
    pub replay_path: &'a Path,
    pub annotations: &'a Arc<AnnotationSink>,
    pub events: &'a EventSink,
}

impl Seat {
    /// Starts the algo; a seat whose algo cannot be started plays as `FailedToLoad`.
    pub fn start(
        player: Player,
        location: Result<AlgoLocation, LocateError>,
        algo_path: &Path,
        ctx: &SeatContext<'_>,
    ) -> Seat {
        let mut seat = Seat {
            player,
            name: FAILED_TO_LOAD.into(),
            process: None,
            dead: true,
            turn: Arc::new(AtomicI32::new(0)),
            stderr: None,
            result: PlayerResult { algo_path: algo_path.to_path_buf(), ..PlayerResult::default() },
            ghost: None,
            human: None,
            confine: None,
            stderr_tail: Vec::new(),
        };
        let loc = match location {
            Ok(loc) => loc,
            Err(e) => {
                seat.result.load_error = Some(e.to_string());
                return seat;
            }
        };
        let progress = Arc::new(Progress::default());
        let capture = StderrCapture {
            player,
            name: loc.name.clone(),
            log_path: sibling(ctx.replay_path, &format!(".p{}.stderr.log", player.number())),
            cap: ctx.spec.stderr_cap,
            verbose: ctx.spec.verbose,
            annotations: Arc::clone(ctx.annotations),
            turn: Arc::clone(&seat.turn),
            progress: Arc::clone(&progress),
            events: ctx.events.clone(),
        };
        if ctx.spec.confine.enabled {
            match SeatPlan::prepare(&ctx.spec.confine, &loc, ctx.env, ctx.cpu_seconds) {
                Ok(plan) => seat.confine = Some(plan),
                Err(e) => {
                    seat.result.load_error = Some(format!("{}: cannot confine: {e}", loc.script.display()));
                    return seat;
                }
            }
        }
        let (tx, rx) = crossbeam_channel::bounded(1);
        match AlgoProcess::spawn(&loc, ctx.env, seat.confine.as_ref(), progress, move |stream| {
            let _ = tx.send(capture.run(stream));
        }) {
            Ok(p) => {
                seat.result.pid = Some(p.pid);
                seat.result.launch = Some(format!("{}: {}", loc.script.display(), p.how));
                seat.process = Some(p);
                seat.stderr = Some(rx);
                seat.dead = false;
                seat.name = loc.name;
            }
            Err(e) => seat.result.load_error = Some(format!("{}: cannot start: {e}", loc.script.display())),
        }
        // Once started: the Job Object reports then whether its limits are in force.
        seat.result.confinement = seat.confine.as_ref().map(SeatPlan::describe);
        seat.result.name = seat.name.clone();
        seat
    }

    /// A seat that answers without a process, named `name`, recorded as `described`.
    fn without_process(player: Player, name: String, described: String) -> Seat {
        Seat {
            player,
            name: name.clone(),
            process: None,
            dead: false,
            turn: Arc::new(AtomicI32::new(0)),
            stderr: None,
            result: PlayerResult { name, algo_path: described.into(), ..PlayerResult::default() },
            ghost: None,
            human: None,
            confine: None,
            stderr_tail: Vec::new(),
        }
    }

    /// A seat played by a recorded player of a replay.
    pub fn ghost(player: Player, ghost: Ghost) -> Seat {
        let mut seat = Seat::without_process(player, ghost.name_in(player), ghost.describe());
        let recorded = ghost.player_in(player);
        seat.ghost = Some((ghost, recorded));
        seat
    }

    /// A seat played by a person at the studio.
    /// A person plays this seat (the match waits for them without a limit).
    pub fn is_human(&self) -> bool {
        self.human.is_some()
    }

    pub fn human(player: Player, human: HumanSeat) -> Seat {
        let mut seat = Seat::without_process(player, human.name.clone(), human.describe());
        seat.human = Some(human);
        seat
    }

    /// The ghost of this seat and the recorded player it replays.
    pub(crate) fn ghost_of(&self) -> Option<&(Ghost, Player)> {
        self.ghost.as_ref()
    }

    /// Waits for this seat's answer to the turn frame of `turn` sent at `sent`: an algo's two
    /// lines until `deadline`, a ghost's recorded commands at once, a person's when they end
    /// the turn (no limit). An algo's start-up output met on the way goes to `startup`.
    /// Without `block`, a person's reply not yet sent is `None` (an algo's is waited for).
    pub fn reply(
        &self,
        turn: i32,
        sent: Instant,
        deadline: Option<Instant>,
        cancel: &Receiver<()>,
        startup: &mut Vec<StartUpOutput>,
        block: bool,
    ) -> Option<Reply> {
        if let Some((ghost, recorded)) = &self.ghost {
            let i = recorded.index();
            return Some(match ghost.turn(turn) {
                Some(t) if t.crashed[i] => Reply::RecordedCrash { time_ms: t.time_ms[i] },
                Some(t) => Reply::Commands {
                    build: t.lines[i].0.clone(),
                    deploy: t.lines[i].1.clone(),
                    time_ms: t.time_ms[i],
                    penalised: t.penalised[i],
                },
                None => Reply::Commands { build: Vec::new(), deploy: Vec::new(), time_ms: 0, penalised: false },
            });
        }
        if let Some(h) = &self.human {
            return person_reply(h, turn, cancel, block);
        }
        Some(match (&self.process, self.dead) {
            (Some(p), false) => collect(&p.stdout, p.exited(), deadline, cancel, startup),
            _ => Reply::Dead { at: sent },
        })
    }

    pub(crate) fn set_turn(&self, turn: i32) {
        self.turn.store(turn, Ordering::Relaxed);
    }

    /// The exit status, if the process has exited by `deadline`.
    pub fn exit_status(&mut self, deadline: Instant) -> Option<String> {
        self.process.as_mut().and_then(|p| p.wait_until(deadline)).map(|s| s.to_string())
    }

    /// Ends a confined algo's descendants (not the algo itself). Called before the end frame
    /// is sent: the algo is their subreaper only while it runs, and once it has exited they
    /// belong to init, out of reach.
    pub(crate) fn end_descendants(&mut self) {
        let Some(p) = self.process.as_mut() else { return };
        let left = p.end_descendants();
        if left > 0
            && let Some(plan) = &self.confine
            && let Ok(mut hit) = plan.hit.lock()
        {
            hit.get_or_insert(RuleHit::LeftGroup { count: left });
        }
    }

    /// Sends end of input; the algo is expected to exit after the end frame. A confined
    /// algo's descendants are ended first: nothing it started outlives the match.
    pub(crate) fn close_stdin(&mut self) {
        self.end_descendants();
        if let Some(p) = self.process.as_mut() {
            p.close_stdin();
        }
    }

    /// The confinement rule the runner saw this seat's algo break (the watch, the Job
    /// Object), if it is confined.
    pub fn seen_rule_hit(&self) -> Option<RuleHit> {
        self.confine.as_ref()?.seen_hit()
    }

    /// The confinement rule this seat's algo most likely broke, as its end shows it: the
    /// exit status and last stderr lines (`confine/diagnose.rs`).
    pub fn rule_hit_from_its_end(&self) -> Option<RuleHit> {
        let plan = self.confine.as_ref()?;
        diagnose(&Seen {
            memory: plan.policy.memory,
            file_size: plan.policy.file_size,
            open_files: plan.policy.open_files,
            cpu_seconds: plan.cpu_seconds,
            algo_dir: &plan.algo_dir,
            read: &plan.read,
            write: &plan.write,
            exit_status: self.result.exit_status.as_deref(),
            stderr_tail: &self.stderr_tail,
        })
    }

    /// Adds a line at the end of the seat's stderr log (the stderr thread has ended).
    pub(crate) fn note_in_stderr_log(&self, line: &str) {
        use std::io::Write;
        if let Some(path) = &self.result.stderr_log
            && let Ok(mut f) = std::fs::OpenOptions::new().append(true).open(path)
        {
            let _ = writeln!(f, "[terminal-studio: {line}]");
        }
    }

    /// Waits for a clean exit until `grace`, then kills the whole process group and
    /// collects the stderr summary.
    pub(crate) fn shut_down(&mut self, grace: Instant) {
        if let Some(mut p) = self.process.take() {
            self.result.lines_not_delivered = p.dropped_lines;
            let clean = p.wait_until(grace);
            let status = p.shutdown(Instant::now() + Duration::from_millis(500));
            self.result.exit_status = clean.or(status).map(|s| s.to_string()).or(self.result.exit_status.take());
        }
        if let Some(rx) = self.stderr.take()
            && let Ok(sum) = rx.recv_timeout(Duration::from_millis(500))
        {
            {
                self.result.stderr_log = sum.log_path;
                self.result.stderr_bytes = sum.bytes_total;
                self.result.stderr_dropped_bytes = sum.bytes_dropped;
                self.result.annotations = sum.annotations;
                self.stderr_tail = sum.tail;
            }
        }
    }
}

/// A person's commands for `turn`, once they end it; `None` without `block` while they plan.
fn person_reply(h: &HumanSeat, turn: i32, cancel: &Receiver<()>, block: bool) -> Option<Reply> {
    let commands =
        |t: super::human::HumanTurn| Reply::Commands { build: t.build, deploy: t.deploy, time_ms: 0, penalised: false };
    loop {
        if block {
            select! {
                recv(h.turns) -> m => match m {
                    Ok(t) if t.turn == turn => return Some(commands(t)),
                    // A turn ended twice, or late: not this turn's commands.
                    Ok(_) => continue,
                    Err(_) => return Some(Reply::Dead { at: Instant::now() }),
                },
                recv(cancel) -> _ => return Some(Reply::Cancelled),
            }
        }
        if super::cancel::cancelled(cancel) {
            return Some(Reply::Cancelled);
        }
        match h.turns.try_recv() {
            Ok(t) if t.turn == turn => return Some(commands(t)),
            Ok(_) => continue,
            Err(crossbeam_channel::TryRecvError::Empty) => return None,
            Err(crossbeam_channel::TryRecvError::Disconnected) => return Some(Reply::Dead { at: Instant::now() }),
        }
    }
}
