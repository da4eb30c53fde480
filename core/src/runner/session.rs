//! The match loop: start both algos, send the config line and every frame (player 2 gets
//! its own view), collect the replies under the time rules, drive the engine, write the
//! replay frame by frame, and end both process groups.
//!
//! A deviation from the official start-up (docs/protocol.md, Starting an algo): the
//! official engine waits `waitTimeStartGame` ms after starting the algos, drops what they
//! printed, then sends the config line. We send the config line
//! at once; each turn frame reaches an algo once it has read everything before it, and
//! what an algo printed before turn 0's frame reached it is start-up output, logged and
//! never taken as a reply (`progress.rs`). To keep the official treatment of slow
//! start-ups, turn 0's measured time is reduced by a start-up allowance
//! (`waitTimeStartGame` unless overridden), and turn 0's hard limit is extended by it.

use super::annotations::AnnotationSink;
use super::cancel::cancelled;
use super::events::{EventSink, FrameSummary, MatchEvent};
use super::locate::locate;
use super::match_end::{final_seat_result, shut_down_seats};
use super::match_log::MatchLog;
use super::match_setup::{algo_env, limits_text, log_seats, new_game, open_replay, seat_names, start_seats};
use super::process::StartUpOutput;
use super::reply::Reply;
use super::result::{LineIssue, MatchResult, Overhead, RejectedCommand, RunnerError};
use super::seat::{Seat, SeatContext};
use super::spec::{MatchSpec, TimeLimits, effective_config, sibling, time_limits};
use super::view::{flip_frame, rotate_commands};
use crate::engine::commands::{Command, parse_line, to_line};
use crate::engine::config::Config;
use crate::engine::frame::{Frame, Phase, TurnInfo};
use crate::engine::game::Game;
use crate::engine::geometry::Player;
use crate::replay::{ReplayWriter, frame_to_json};
use crossbeam_channel::Receiver;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use web_time::Instant;

/// Problems and rejections logged in full per player and turn; the rest are counted.
const LOG_DETAIL: usize = 20;
/// Longest start-up output line quoted in the match log.
const STARTUP_QUOTE: usize = 300;

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// CPU time used so far by the calling thread, in µs (0 if unavailable).
fn thread_cpu_us() -> u64 {
    super::os::thread_cpu_time().map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
}

struct Session {
    every_frame_event: bool,
    config: Arc<Config>,
    limits: TimeLimits,
    writer: ReplayWriter,
    seats: [Seat; 2],
    events: EventSink,
    log: MatchLog,
    rejected: Vec<RejectedCommand>,
    line_issues: Vec<LineIssue>,
}

impl Session {
    /// Writes a frame to the replay and sends it to both algos (player 2's view flipped).
    fn emit(&mut self, frame: Frame) -> Result<TurnInfo, RunnerError> {
        let legacy = self.config.legacy;
        let times = self.config.timing.store_bot_times;
        let line: Arc<str> = frame_to_json(&frame, legacy, times).into();
        self.writer.write_line(&line).map_err(|source| RunnerError::Io {
            doing: "write the replay",
            path: self.writer.path().to_path_buf(),
            source: Arc::new(source),
        })?;
        // Turn frames are held until the algo has read what came before (`progress.rs`).
        let turn_frame = (frame.turn_info.phase == Phase::Deploy).then_some(frame.turn_info.turn);
        let send = |p: &mut super::process::AlgoProcess, line: Arc<str>| match turn_frame {
            Some(turn) => p.send_turn_frame(line, turn),
            None => p.send(line),
        };
        if let Some(p) = self.seats[0].process.as_mut() {
            send(p, line);
        }
        if let Some(p) = self.seats[1].process.as_mut() {
            send(p, frame_to_json(&flip_frame(&frame), legacy, times).into());
        }
        for b in &frame.events.breach {
            self.seats[b.owner.index()].result.breaches += 1;
        }
        let info = frame.turn_info;
        if self.events.is_some() {
            let event = MatchEvent::Frame { summary: FrameSummary::of(&frame), frame: Arc::new(frame) };
            if self.every_frame_event { self.events.send(event) } else { self.events.try_send(event) }
        }
        Ok(info)
    }

    /// Parses a reply line in the player's own view and returns true-board commands.
    fn read_line(&mut self, turn: i32, p: Player, which: u8, text: &str) -> Vec<Command> {
        let (mut commands, problems) = parse_line(&self.config, text);
        let n = problems.len();
        for (k, pr) in problems.into_iter().enumerate() {
            let name = if which == 0 { "build" } else { "deploy" };
            if k < LOG_DETAIL {
                self.log.line(Some(turn), Some(p), &format!("{name} line: {}", pr.message));
            } else if k == LOG_DETAIL {
                self.log.line(Some(turn), Some(p), &format!("{name} line: … and {} more problems", n - LOG_DETAIL));
            }
            self.line_issues.push(LineIssue { turn, player: p, line: which, message: pr.message });
        }
        if p == Player::Two {
            rotate_commands(&mut commands);
        }
        commands
    }

    /// Charges a reply's time and returns its commands `(build, deploy)`.
    fn take_reply(
        &mut self,
        game: &mut Game,
        p: Player,
        reply: Reply,
        sent: Instant,
    ) -> Result<(Vec<Command>, Vec<Command>), RunnerError> {
        let turn = game.turn;
        let i = p.index();
        let allowance = if turn == 0 { i64::try_from(self.limits.startup_ms).unwrap_or(i64::MAX) } else { 0 };
        let charged = |raw: i64| raw.saturating_sub(allowance).max(0);
        match reply {
            Reply::Cancelled => {
                self.log.line(Some(turn), None, "match cancelled");
                self.log.flush();
                Err(RunnerError::Cancelled)
            }
            Reply::Commands { mut build, mut deploy, time_ms, penalised } => {
                self.charge(game, p, time_ms, penalised);
                if p == Player::Two {
                    rotate_commands(&mut build);
                    rotate_commands(&mut deploy);
                }
                Ok((build, deploy))
            }
            Reply::RecordedCrash { time_ms } => {
                let ps = game.player_mut(p);
                ps.stats.time_ms = time_ms;
                ps.total_computation_time += time_ms;
                game.crash(p);
                self.seats[i].result.crash_turn = Some(turn);
                let damage = self.config.resources.starting_hp + 1.0;
                self.log.line(Some(turn), Some(p), &format!("the recorded player crashed in this turn: −{damage} HP"));
                Ok((Vec::new(), Vec::new()))
            }
            Reply::Lines { build, deploy, at } => {
                let raw = ms(at.saturating_duration_since(sent));
                if turn == 0 {
                    self.seats[i].result.turn0_raw_ms = Some(raw);
                }
                self.charge(game, p, charged(raw), true);
                let b = self.read_line(turn, p, 0, &build);
                let d = self.read_line(turn, p, 1, &deploy);
                Ok((b, d))
            }
            Reply::TimedOut { partial } => {
                let t = charged(ms(sent.elapsed()));
                self.seats[i].result.hard_timeouts.push(turn);
                let max = self.limits.max_ms.unwrap_or(0);
                self.log.line(
                    Some(turn),
                    Some(p),
                    &format!("no answer within the hard limit ({max} ms; {partial} of 2 lines arrived): turn skipped"),
                );
                self.charge(game, p, t, true);
                Ok((Vec::new(), Vec::new()))
            }
            Reply::Dead { at } => {
                let t = charged(ms(at.saturating_duration_since(sent)));
                if self.config.timing.wait_forever && self.seats[i].result.load_error.is_none() {
                    self.read_as_empty_replies(game, p, t);
                    return Ok((Vec::new(), Vec::new()));
                }
                let status = self.seats[i].exit_status(Instant::now() + Duration::from_millis(100));
                let seat = &mut self.seats[i];
                let was_loaded = seat.result.load_error.is_none();
                seat.dead = true;
                seat.result.crash_turn = Some(turn);
                seat.result.exit_status = status.clone();
                let ps = game.player_mut(p);
                ps.stats.time_ms = t;
                ps.total_computation_time += t;
                game.crash(p);
                let damage = self.config.resources.starting_hp + 1.0;
                let why = match (was_loaded, status) {
                    (false, _) => {
                        format!("failed to load ({})", self.seats[i].result.load_error.clone().unwrap_or_default())
                    }
                    (true, Some(s)) => format!("process ended ({s}) before answering"),
                    (true, None) => "closed its stdout before answering".into(),
                };
                self.log.line(Some(turn), Some(p), &format!("{why}: crashed, −{damage} HP"));
                Ok((Vec::new(), Vec::new()))
            }
        }
    }

    /// With `waitForever`, an algo whose process ended is not charged a crash: its closed
    /// stdout is read as empty replies, turn after turn, and the game is played out (what the
    /// official engine did in the real `compat-mode-4` replays, docs/runner.md).
    fn read_as_empty_replies(&mut self, game: &mut Game, p: Player, t: i64) {
        let turn = game.turn;
        let i = p.index();
        if self.seats[i].result.silent_from_turn.is_none() {
            let status = self.seats[i].exit_status(Instant::now() + Duration::from_millis(100));
            let seat = &mut self.seats[i];
            seat.dead = true;
            seat.result.silent_from_turn = Some(turn);
            seat.result.exit_status = status.clone();
            let why = match status {
                Some(s) => format!("process ended ({s}) before answering"),
                None => "closed its stdout before answering".into(),
            };
            self.log.line(
                Some(turn),
                Some(p),
                &format!(
                    "{why}: with waitForever no crash is charged; its closed stdout is read as empty replies \
                     from this turn on and the game is played out"
                ),
            );
        }
        self.charge(game, p, t, true);
    }

    /// Logs what an algo printed to stdout before turn 0's frame reached it.
    fn log_startup(&mut self, turn: i32, p: Player, output: Vec<StartUpOutput>) {
        if output.is_empty() {
            return;
        }
        let r = &mut self.seats[p.index()].result;
        let before = r.startup_lines;
        r.startup_lines += output.iter().filter(|o| !o.unfinished).count() as u64;
        let n = output.len();
        for (k, out) in output.into_iter().enumerate() {
            let shown = before as usize + k;
            if shown < LOG_DETAIL {
                let quoted: String = out.text.chars().take(STARTUP_QUOTE).collect();
                let what = if out.unfinished {
                    "start-up output on stdout without a newline (printed before turn 0's frame); the reply \
                     line written after it continues that line and is read whole"
                } else {
                    "start-up output on stdout (printed before turn 0's frame), not a reply"
                };
                self.log.line(Some(turn), Some(p), &format!("{what}: {quoted}"));
            } else if shown == LOG_DETAIL {
                let more = n - k;
                self.log.line(Some(turn), Some(p), &format!("… and {more} more lines of start-up output"));
            }
        }
    }

    fn charge(&mut self, game: &mut Game, p: Player, t: i64, penalise: bool) {
        let turn = game.turn;
        let lost = game.charge_time(p, t, penalise);
        let r = &mut self.seats[p.index()].result;
        r.turn_times_ms.push(t);
        if lost > 0 {
            r.time_penalties.push((turn, lost));
            let soft = self.limits.soft_ms;
            self.log.line(Some(turn), Some(p), &format!("took {t} ms, over the {soft} ms soft limit: −{lost} HP"));
            if game.player(p).timeout_death {
                self.log.line(Some(turn), Some(p), "time penalty ≥ starting HP: timeout death");
            }
        }
    }

    fn log_rejections(&mut self, turn: i32, p: Player, rejected: Vec<(Command, crate::engine::game::Rejection)>) {
        let n = rejected.len();
        for (k, (mut c, reason)) in rejected.into_iter().enumerate() {
            if p == Player::Two {
                c.tile = c.tile.rotated();
            }
            if k < LOG_DETAIL {
                let entry = to_line(&self.config, &[c]);
                self.log.line(
                    Some(turn),
                    Some(p),
                    &format!(
                        "rejected {}: {reason}",
                        entry.strip_prefix('[').and_then(|e| e.strip_suffix(']')).unwrap_or(&entry)
                    ),
                );
            } else if k == LOG_DETAIL {
                self.log.line(Some(turn), Some(p), &format!("… and {} more rejected commands", n - LOG_DETAIL));
            }
            self.rejected.push(RejectedCommand { turn, player: p, command: c, reason });
        }
    }
}

/// Runs one match to the end on the calling thread.
pub fn run(spec: &MatchSpec, events: &EventSink, cancel: &Receiver<()>) -> Result<MatchResult, RunnerError> {
    let mut run = MatchRun::start(spec, events.clone())?;
    loop {
        match run.advance(cancel, Wait::Block)? {
            Step::Over(result) => return Ok(*result),
            Step::Waiting(next) | Step::Played(next) => run = next,
        }
    }
}

/// Whether [`MatchRun::advance`] waits for a person's reply, or comes back without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wait {
    /// Wait for every reply and play the match to its end (the match's own thread).
    Block,
    /// Play at most one turn, and come back while a person has not ended theirs (a match
    /// played inline, where the caller is the UI: the browser, which has no threads). An
    /// algo's reply is still waited for.
    ForNoPerson,
}

/// What [`MatchRun::advance`] came to.
pub(crate) enum Step {
    /// A person's reply to the turn frame is not in yet.
    Waiting(MatchRun),
    /// A turn was played; the match goes on.
    Played(MatchRun),
    Over(Box<MatchResult>),
}

/// A turn frame sent, and the replies read so far.
struct PendingTurn {
    turn: i32,
    turn_start: Instant,
    sent: Instant,
    deadline: Option<Instant>,
    replies: [Option<Reply>; 2],
    startup: [Vec<StartUpOutput>; 2],
}

/// A match under way: the seats started, the replay open, the game at a turn.
pub(crate) struct MatchRun {
    session: Session,
    game: Game,
    started: Instant,
    replay_path: PathBuf,
    annotations: Arc<AnnotationSink>,
    sync_replay: bool,
    seed: Option<u64>,
    overhead: Overhead,
    /// The turn frame sent whose replies are awaited.
    pending: Option<PendingTurn>,
    /// The last frame's turn info (the end frame's numbering follows it).
    last_info: TurnInfo,
}

impl MatchRun {
    /// Starts the seats (algos, ghosts, people) and opens the replay: `Started` is sent.
    pub(crate) fn start(spec: &MatchSpec, events: EventSink) -> Result<MatchRun, RunnerError> {
        let started = Instant::now();
        let config = effective_config(spec).map_err(|e| RunnerError::Config(e.to_string()))?;
        config.check_simulated().map_err(|e| RunnerError::Config(e.to_string()))?;
        let limits = time_limits(spec, &config);
        let locations = spec.seats.each_ref().map(|s| s.algo_path().map(locate));
        let names = seat_names(spec, &locations);
        let writer = open_replay(spec, &config, &names)?;
        let replay_path = writer.path().to_path_buf();
        let annotations = Arc::new(AnnotationSink::new(sibling(&replay_path, ".annotations.jsonl")));
        let mut log = MatchLog::create(&sibling(&replay_path, ".match.log"), spec.verbose, events.clone());
        let env = algo_env(spec);
        let turns = u64::try_from(crate::engine::game::TURN_LIMIT).unwrap_or(100);
        let cpu_seconds = super::confine::Confinement::cpu_seconds(limits.max_ms, limits.startup_ms, turns);
        let ctx = SeatContext {
            spec,
            cpu_seconds,
            env: &env,
            replay_path: &replay_path,
            annotations: &annotations,
            events: &events,
        };
        let mut seats = start_seats(spec, locations, &ctx);
        let limits_text = limits_text(spec, &config, &limits);
        log.line(None, None, &format!("match {} vs {}; {limits_text}", seats[0].name, seats[1].name));
        log_seats(&mut log, &seats);
        events.send(MatchEvent::Started {
            replay_path: replay_path.clone(),
            names: [seats[0].name.clone(), seats[1].name.clone()],
        });
        let game = new_game(&config, &mut seats);
        let session = Session {
            every_frame_event: spec.every_frame_event,
            config,
            limits,
            writer,
            seats,
            events,
            log,
            rejected: Vec::new(),
            line_issues: Vec::new(),
        };
        Ok(MatchRun {
            session,
            game,
            started,
            replay_path,
            annotations,
            sync_replay: spec.sync_replay,
            seed: spec.seed,
            overhead: Overhead::default(),
            pending: None,
            last_info: TurnInfo::default(),
        })
    }

    /// Plays on as `wait` says: to the end, or one turn at most.
    pub(crate) fn advance(mut self, cancel: &Receiver<()>, wait: Wait) -> Result<Step, RunnerError> {
        let cpu_start = thread_cpu_us();
        loop {
            let mut pending = match self.pending.take() {
                Some(p) => p,
                None => self.session.send_turn(&mut self.game)?,
            };
            let all_in = self.session.read_replies(&mut pending, cancel, wait);
            if !all_in {
                self.pending = Some(pending);
                self.overhead.cpu_us += thread_cpu_us().saturating_sub(cpu_start);
                return Ok(Step::Waiting(self));
            }
            self.last_info = self.session.finish_turn(&mut self.game, pending, cancel, &mut self.overhead)?;
            if self.game.over {
                self.overhead.cpu_us += thread_cpu_us().saturating_sub(cpu_start);
                return self.finish().map(|r| Step::Over(Box::new(r)));
            }
            if wait == Wait::ForNoPerson {
                self.overhead.cpu_us += thread_cpu_us().saturating_sub(cpu_start);
                return Ok(Step::Played(self));
            }
        }
    }

    /// The end frame out, the replay finished, the seats shut down: the result.
    fn finish(self) -> Result<MatchResult, RunnerError> {
        let MatchRun {
            mut session,
            mut game,
            started,
            replay_path,
            annotations,
            sync_replay,
            seed,
            overhead,
            last_info,
            ..
        } = self;
        let duration_ms = ms(started.elapsed());
        let end = game.end_frame(&last_info, duration_ms);
        let end_stats = end.end_stats.clone().unwrap_or_default();
        for s in session.seats.iter_mut() {
            s.end_descendants();
        }
        session.emit(end)?;
        let Session { writer, mut seats, mut log, rejected, line_issues, config, .. } = session;
        let replay_path: PathBuf =
            writer.finish(sync_replay).map_err(RunnerError::io("finish the replay", &replay_path))?;
        shut_down_seats(&mut seats, &mut log, &config);
        let players = seats.map(|s| final_seat_result(&game, s));
        let result = MatchResult {
            winner: end_stats.winner,
            turns: end_stats.turns,
            frames: end_stats.frames,
            players,
            replay_path,
            match_log: log.path().map(PathBuf::from),
            annotations_path: annotations.finish(),
            duration_ms,
            seed,
            rejected,
            line_issues,
            overhead,
        };
        log.line(None, None, &result.summary());
        log.flush();
        Ok(result)
    }
}

impl Session {
    /// A turn's start: the turn frame out to both seats, the clock started.
    fn send_turn(&mut self, game: &mut Game) -> Result<PendingTurn, RunnerError> {
        let turn_start = Instant::now();
        let turn = game.turn;
        for s in &self.seats {
            s.set_turn(turn);
        }
        self.emit(game.turn_frame())?;
        let sent = Instant::now();
        let limits = self.limits;
        let extra = if turn == 0 { limits.startup_ms } else { 0 };
        // A limit too large to represent means no limit.
        let deadline = limits.max_ms.and_then(|m| sent.checked_add(Duration::from_millis(m.saturating_add(extra))));
        self.events.try_send(MatchEvent::TurnSent { turn, at: sent, limits });
        Ok(PendingTurn { turn, turn_start, sent, deadline, replies: [None, None], startup: [Vec::new(), Vec::new()] })
    }

    /// Reads the seats' replies still missing; false if a person's is not in and `wait`
    /// does not wait for it.
    fn read_replies(&mut self, t: &mut PendingTurn, cancel: &Receiver<()>, wait: Wait) -> bool {
        // Both seats think at once; a person is read last, so that an algo's reply is
        // known (and said) while the person still plans.
        let order = if self.seats[0].is_human() { [Player::Two, Player::One] } else { [Player::One, Player::Two] };
        for p in order {
            let i = p.index();
            if t.replies[i].is_some() {
                continue;
            }
            let block = wait == Wait::Block;
            let Some(reply) = self.seats[i].reply(t.turn, t.sent, t.deadline, cancel, &mut t.startup[i], block) else {
                return false;
            };
            t.replies[i] = Some(reply);
            self.events.try_send(MatchEvent::Replied { turn: t.turn, player: p, after_ms: ms(t.sent.elapsed()) });
        }
        true
    }

    /// A turn's end, both replies in: their time charged and commands applied, the action
    /// frames out. Returns the last frame's turn info.
    fn finish_turn(
        &mut self,
        game: &mut Game,
        t: PendingTurn,
        cancel: &Receiver<()>,
        overhead: &mut Overhead,
    ) -> Result<TurnInfo, RunnerError> {
        let PendingTurn { turn, turn_start, sent, replies, startup, .. } = t;
        let [Some(r1), Some(r2)] = replies else {
            return Err(RunnerError::Internal("a seat's reply was not read".into()));
        };
        let [o1, o2] = startup;
        self.log_startup(turn, Player::One, o1);
        self.log_startup(turn, Player::Two, o2);
        let answered = Instant::now();
        let c1 = self.take_reply(game, Player::One, r1, sent)?;
        let c2 = self.take_reply(game, Player::Two, r2, sent)?;
        let [rej1, rej2] = game.apply_turn_commands([(&c1.0, &c1.1), (&c2.0, &c2.1)]);
        self.log_rejections(turn, Player::One, rej1);
        self.log_rejections(turn, Player::Two, rej2);
        let last_info = loop {
            let info = self.emit(game.action_frame())?;
            if game.action_phase_done() {
                break info;
            }
        };
        if cancelled(cancel) {
            self.log.line(Some(turn), None, "match cancelled");
            self.log.flush();
            return Err(RunnerError::Cancelled);
        }
        game.end_turn();
        let busy = (sent - turn_start) + answered.elapsed();
        let us = u64::try_from(busy.as_micros()).unwrap_or(u64::MAX);
        overhead.turns += 1;
        overhead.total_us += us;
        overhead.max_turn_us = overhead.max_turn_us.max(us);
        self.log.flush();
        Ok(last_info)
    }
}
