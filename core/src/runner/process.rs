//! Algo processes: spawning the start script as a process tree of its own, the
//! stdin writer and stdout reader threads, and killing the whole tree at the end.
//!
//! The stdin writer holds each turn frame until the algo has read everything sent before
//! it (`progress.rs` says why).

use super::confine::SeatPlan;
use super::lines::BoundedLines;
use super::locate::AlgoLocation;
use super::os::{self, Pipe, PipeRef, ProcessTree, drain_watch, read_watch, unread, wait_readable};
use super::progress::{Progress, StartUpPart};
use crossbeam_channel::{Receiver, Sender};
use std::io::Write;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use web_time::Instant;

/// Longest stdout line kept (a reply line is a few KB at most; longer lines are cut and
/// then fail to parse, as garbage should).
const MAX_REPLY_LINE: usize = 4 << 20;
/// Polling steps while a turn frame waits for the algo to read what came before it, where
/// its reads cannot wake the writer. A long wait is the algo starting up, or busy with
/// many action frames.
const HOLD_STEP_MIN: Duration = Duration::from_micros(20);
const HOLD_STEP_MAX: Duration = Duration::from_micros(250);
const HOLD_LONG: Duration = Duration::from_millis(100);
const HOLD_STEP_LONG: Duration = Duration::from_millis(2);
/// Longest sleep of a held turn frame between the algo's reads, where they wake the writer.
const HOLD_WAKE: Duration = Duration::from_millis(5);
/// How often a turn frame's writer, waiting for the algo to start the turn, looks whether
/// the algo is still there (the start itself wakes it at once).
const AWAIT_START_STEP: Duration = Duration::from_millis(50);
/// Stdout lines queued but not yet consumed before the algo is blocked on its pipe.
const STDOUT_QUEUE: usize = 4096;
/// Bytes queued for an algo's stdin that it has not read yet; beyond this (an algo that
/// stopped reading, e.g. hung) further lines are dropped instead of piling up in memory.
const STDIN_BACKLOG: usize = 64 << 20;

/// What the stdout reader thread queues.
#[derive(Debug)]
pub enum StdoutMsg {
    /// A line and the moment it was read.
    Line(String, Instant),
    /// Output written before turn 0's frame reached the algo.
    StartUp(StartUpOutput),
    /// The algo closed its stdout (exited or crashed), at this moment.
    Eof(Instant),
}

/// Start-up output: a line written before turn 0's frame reached the algo (a library's
/// banner, say), never a reply; or, `unfinished`, the start of the next line, written
/// without a newline before the frame (that line is a reply line all the same).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartUpOutput {
    pub text: String,
    pub unfinished: bool,
}

/// A running algo. Dropping it kills the whole process group.
pub struct AlgoProcess {
    /// Process id of the start script's process (`bash run.sh`, `powershell run.ps1`, …).
    pub pid: u32,
    /// How the start script was run (which interpreter), in words.
    pub how: String,
    /// Its whole process tree, killed at the end.
    tree: Arc<ProcessTree>,
    stdin: Option<Sender<Input>>,
    /// Tells the stdin writer to stop holding a frame (the group is being killed).
    stop: Arc<AtomicBool>,
    backlog: Arc<AtomicUsize>,
    /// Lines not delivered because the backlog was full.
    pub dropped_lines: u64,
    pub stdout: Receiver<StdoutMsg>,
    /// Disconnected (always ready) once the script's process has exited and been reaped.
    exited: Receiver<()>,
    exit_status: Arc<Mutex<Option<ExitStatus>>>,
    threads: Vec<JoinHandle<()>>,
    /// Confined: the descendants are killed before the algo is asked to exit.
    confined: bool,
    /// The watch of its process count (Linux, confined); stopped when dropped.
    _watch: Option<CountWatch>,
}

impl AlgoProcess {
    /// Starts the script (`os::start_command`: on Unix the interpreter its `#!` line
    /// names, else bash) in the algo folder, as a process tree of its own, confined by
    /// `confine` when given. `on_stderr` runs on its own
    /// thread and consumes the stderr pipe; `progress` records what the runner sees of the
    /// algo's reading, and is shared with the stderr thread.
    pub fn spawn<F>(
        loc: &AlgoLocation,
        env: &[(String, String)],
        confine: Option<&SeatPlan>,
        progress: Arc<Progress>,
        on_stderr: F,
    ) -> std::io::Result<AlgoProcess>
    where
        F: FnOnce(std::process::ChildStderr) + Send + 'static,
    {
        let (mut cmd, how) = command(loc, env, confine)?;
        let mark = ProcessTree::prepare(&mut cmd);
        let mut child = cmd.spawn()?;
        let pid = child.id();
        let tree = match ProcessTree::of(&child, mark) {
            Ok(tree) => Arc::new(tree),
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(e);
            }
        };
        let count_watch = match confine_started(&tree, pid, confine) {
            Ok(watch) => watch,
            Err(e) => {
                tree.kill();
                let _ = child.wait();
                return Err(e);
            }
        };
        let missing = || std::io::Error::other("child pipe missing");
        let (stdin, stdout, stderr) = match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
            (Some(i), Some(o), Some(e)) => (i, o, e),
            _ => {
                tree.kill();
                let _ = child.wait();
                return Err(missing());
            }
        };
        let stop = Arc::new(AtomicBool::new(false));
        let watch = watch_pipes(&stdin, &stdout, &progress, &stop);
        // A start that fails halfway must not leave the algo running, nor its stdin open.
        let mut guard = StartGuard { tree: Arc::clone(&tree), progress: Arc::clone(&progress), armed: true };
        let mut threads = Vec::with_capacity(4);
        let (in_tx, in_rx) = crossbeam_channel::unbounded::<Input>();
        let backlog = Arc::new(AtomicUsize::new(0));
        let writer_backlog = Arc::clone(&backlog);
        let writer_progress = Arc::clone(&progress);
        threads.push(
            std::thread::Builder::new()
                .name(format!("algo-{pid}-stdin"))
                .spawn(move || write_stdin(stdin, in_rx, &writer_backlog, &writer_progress, watch))?,
        );
        let (out_tx, out_rx) = crossbeam_channel::bounded(STDOUT_QUEUE);
        threads.push(
            std::thread::Builder::new()
                .name(format!("algo-{pid}-stdout"))
                .spawn(move || read_stdout(stdout, out_tx, &progress))?,
        );
        threads.push(std::thread::Builder::new().name(format!("algo-{pid}-stderr")).spawn(move || on_stderr(stderr))?);
        let (exit_tx, exit_rx) = crossbeam_channel::bounded::<()>(0);
        let exit_status = Arc::new(Mutex::new(None));
        let status_slot = Arc::clone(&exit_status);
        threads.push(std::thread::Builder::new().name(format!("algo-{pid}-wait")).spawn(move || {
            let status = child.wait().ok();
            if let Ok(mut slot) = status_slot.lock() {
                *slot = status;
            }
            drop(exit_tx);
        })?);
        guard.armed = false;
        Ok(AlgoProcess {
            pid,
            how,
            tree,
            stdin: Some(in_tx),
            stop,
            backlog,
            dropped_lines: 0,
            stdout: out_rx,
            exited: exit_rx,
            exit_status,
            threads,
            confined: confine.is_some(),
            _watch: count_watch,
        })
    }

    /// Kills the algo's descendants (not its top process) if it is confined (Linux): a
    /// process that left its group and cleared its environment is still among them
    /// (`confine/watch.rs`). Returns how many had left its process group.
    pub(crate) fn end_descendants(&self) -> usize {
        #[cfg(target_os = "linux")]
        if self.confined {
            return super::confine::kill_descendants(self.pid);
        }
        #[cfg(not(target_os = "linux"))]
        let _ = self.confined;
        0
    }

    /// Becomes ready (disconnected) when the script's process has exited.
    pub(crate) fn exited(&self) -> &Receiver<()> {
        &self.exited
    }

    /// Queues one line for the algo's stdin (a newline is added). Lines for an algo that
    /// stopped reading are dropped.
    pub fn send(&mut self, line: Arc<str>) {
        self.queue(Input { line, turn_frame: None });
    }

    /// Queues turn `turn`'s frame: it is delivered once the algo has read everything sent
    /// before it.
    pub(crate) fn send_turn_frame(&mut self, line: Arc<str>, turn: i32) {
        self.queue(Input { line, turn_frame: Some(turn) });
    }

    fn queue(&mut self, input: Input) {
        let Some(tx) = &self.stdin else { return };
        let len = input.line.len() + 1;
        if self.backlog.load(Ordering::Relaxed) + len > STDIN_BACKLOG {
            self.dropped_lines += 1;
            return;
        }
        self.backlog.fetch_add(len, Ordering::Relaxed);
        let _ = tx.send(input);
    }

    /// Closes stdin once the queued lines are written (the algo then sees end of input).
    pub(crate) fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits until the process exits or the deadline passes; returns its status if it
    /// exited.
    pub(crate) fn wait_until(&mut self, deadline: Instant) -> Option<ExitStatus> {
        let _ = self.exited.recv_timeout(deadline.saturating_duration_since(Instant::now()));
        self.exit_status.lock().ok().and_then(|s| *s)
    }

    /// Kills every process of the algo's tree (the script, its interpreter and anything
    /// they started) and reaps the script. Safe to call more than once.
    pub fn kill(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.tree.kill();
        self.close_stdin();
    }

    /// Kills the group and waits (bounded) for the helper threads to finish.
    pub fn shutdown(mut self, deadline: Instant) -> Option<ExitStatus> {
        self.kill();
        let status = self.wait_until(deadline);
        // The pipes close when the tree dies; the helper threads then end on their own.
        for t in std::mem::take(&mut self.threads) {
            if Instant::now() >= deadline {
                break;
            }
            if t.is_finished() {
                let _ = t.join();
            } else {
                // Detach: a grandchild outside the group may still hold a pipe open.
                drop(t);
            }
        }
        status
    }
}

impl Drop for AlgoProcess {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.tree.kill();
    }
}

/// The command that starts the algo in its folder, its pipes, its environment, and its
/// confinement (Unix: applied in the child before it runs the script); and how it runs
/// the script, in words.
fn command(
    loc: &AlgoLocation,
    env: &[(String, String)],
    confine: Option<&SeatPlan>,
) -> std::io::Result<(std::process::Command, String)> {
    let os::StartCommand { command: mut cmd, how } = os::start_command(&loc.script);
    cmd.current_dir(&loc.dir)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(plan) = confine {
        cmd.envs(plan.env());
        #[cfg(unix)]
        super::confine::apply(plan, &mut cmd)?;
    }
    Ok((cmd, how))
}

#[cfg(target_os = "linux")]
type CountWatch = super::confine::Watch;
#[cfg(not(target_os = "linux"))]
type CountWatch = ();

/// What confinement adds once the algo runs: on Windows the Job Object's limits (the job's
/// report kept in the plan, where the seat asks it which rule was broken), on Linux the
/// watch of its process count (which kills the whole tree past the limit).
#[cfg_attr(not(target_os = "linux"), allow(unused_variables))]
fn confine_started(
    tree: &Arc<ProcessTree>,
    pid: u32,
    confine: Option<&SeatPlan>,
) -> std::io::Result<Option<CountWatch>> {
    let Some(plan) = confine else { return Ok(None) };
    #[cfg(windows)]
    {
        let job = tree.confine(plan.policy.memory, plan.policy.max_processes)?;
        // A plan confines one algo: its job is set once.
        let _ = plan.job.set(job);
    }
    #[cfg(target_os = "linux")]
    let watch = {
        let tree = Arc::clone(tree);
        super::confine::watch(plan, pid, move || {
            tree.kill();
            super::confine::kill_descendants(pid);
        })
    };
    #[cfg(not(target_os = "linux"))]
    let watch = None;
    Ok(watch)
}

/// Until disarmed, kills the algo's tree and lets go of its stdin pipe.
struct StartGuard {
    tree: Arc<ProcessTree>,
    progress: Arc<Progress>,
    armed: bool,
}

impl Drop for StartGuard {
    fn drop(&mut self) {
        if self.armed {
            self.progress.stop_observing();
            self.tree.kill();
        }
    }
}

/// One line for the algo's stdin; a turn frame carries its turn.
struct Input {
    line: Arc<str>,
    turn_frame: Option<i32>,
}

/// What the stdin writer needs to hold turn frames (`progress.rs`).
struct Watch {
    progress: Arc<Progress>,
    /// A copy of the read end of the algo's stdout pipe, to count what waits there.
    stdout: Pipe,
    /// Wakes the writer when the algo reads its stdin (inotify); without it, it polls.
    wake: Option<Pipe>,
    stop: Arc<AtomicBool>,
}

/// Sets up the looking into the algo's pipes, for the stdin writer and for the stderr
/// thread (a copy of the stdin write end, and its own wake-up on reads). `None` if the
/// pipes cannot be looked into here (then frames are delivered at once).
fn watch_pipes(
    stdin: &std::process::ChildStdin,
    stdout: &std::process::ChildStdout,
    progress: &Arc<Progress>,
    stop: &Arc<AtomicBool>,
) -> Option<Watch> {
    let stdin = os::as_pipe(stdin);
    unread(stdin).ok()?;
    let copy = stdin.try_clone_to_owned().ok()?;
    let stdout = os::as_pipe(stdout).try_clone_to_owned().ok()?;
    progress.observe_through(copy, read_watch(stdin));
    Some(Watch { progress: Arc::clone(progress), stdout, wake: read_watch(stdin), stop: Arc::clone(stop) })
}

impl Watch {
    /// Waits until the algo is seen to start turn `turn` (it read the frame's first byte),
    /// while the group lives and the algo's stdin is open.
    fn await_start(&self, progress: &Progress, turn: i32, stdin: PipeRef<'_>) {
        progress.wait_started(turn, AWAIT_START_STEP, || !self.stop.load(Ordering::SeqCst) && !os::reader_gone(stdin));
    }

    /// Waits until the algo has read everything written to its stdin; its reader being
    /// gone or the group being killed also end the wait. False if the pipe cannot be
    /// looked into.
    fn hold(&self, stdin: PipeRef<'_>) -> bool {
        let since = Instant::now();
        let mut step = HOLD_STEP_MIN;
        let mut yields = 0;
        loop {
            match unread(stdin) {
                Ok(0) => return true,
                Ok(_) => {}
                Err(_) => return false,
            }
            if self.stop.load(Ordering::SeqCst) || os::reader_gone(stdin) {
                return true;
            }
            if let Some(wake) = &self.wake {
                // Woken by the algo's next read; the timeout only bounds how late a kill is seen.
                if wait_readable([os::as_pipe(wake)], HOLD_WAKE)[0] {
                    drain_watch(wake);
                }
                continue;
            }
            // An algo that shares our core may only need to be let run.
            if yields < 3 {
                yields += 1;
                std::thread::yield_now();
                continue;
            }
            std::thread::sleep(step);
            step = if since.elapsed() > HOLD_LONG { HOLD_STEP_LONG } else { (step * 2).min(HOLD_STEP_MAX) };
        }
    }

    /// Stdout bytes the algo has written so far, at least: what the reader thread has taken,
    /// then what waits in the pipe.
    fn stdout_written(&self) -> u64 {
        let taken = self.progress.stdout_read.load(Ordering::SeqCst);
        taken + unread(os::as_pipe(&self.stdout)).unwrap_or(0)
    }
}

fn write_stdin(
    stdin: std::process::ChildStdin,
    rx: Receiver<Input>,
    backlog: &AtomicUsize,
    progress: &Progress,
    mut watch: Option<Watch>,
) {
    write_inputs(stdin, &rx, backlog, progress, &mut watch);
    // The algo must see the end of its input once this end is closed.
    progress.release_stdin();
}

fn write_inputs(
    stdin: std::process::ChildStdin,
    rx: &Receiver<Input>,
    backlog: &AtomicUsize,
    progress: &Progress,
    watch: &mut Option<Watch>,
) {
    let mut w = std::io::BufWriter::with_capacity(256 * 1024, stdin);
    // Bytes handed to `w`; equal to the bytes written to the pipe after each flush.
    let mut written = 0u64;
    let mut first_turn_frame = true;
    let flush = |w: &mut std::io::BufWriter<std::process::ChildStdin>, written: u64| {
        let ok = w.flush().is_ok();
        progress.set_stdin_written(written);
        ok
    };
    for input in rx.iter() {
        backlog.fetch_sub(input.line.len() + 1, Ordering::Relaxed);
        if let Some(turn) = input.turn_frame {
            if !flush(&mut w, written) {
                return;
            }
            let held = watch.as_ref().is_some_and(|watch| watch.hold(os::as_pipe(w.get_ref())));
            if !held && watch.is_some() {
                // The pipe cannot be looked into after all: deliver at once from now on.
                *watch = None;
                progress.stop_observing();
            }
            if first_turn_frame {
                first_turn_frame = false;
                progress.set_startup_end(watch.as_ref().map_or(0, Watch::stdout_written));
            }
            if let Some(watch) = watch.as_ref() {
                progress.delivering(turn, written);
                // Its first byte alone, until the algo is seen to start the turn: until the
                // rest comes it cannot act on the frame, so all it wrote to stderr by then is
                // an earlier turn's, wherever the runner's look falls (`progress.rs`).
                let (first, rest) = input.line.as_bytes().split_at(1.min(input.line.len()));
                if w.write_all(first).is_err() || !flush(&mut w, written + first.len() as u64) {
                    return;
                }
                watch.await_start(progress, turn, os::as_pipe(w.get_ref()));
                if w.write_all(rest).and_then(|_| w.write_all(b"\n")).is_err() {
                    return;
                }
                written += input.line.len() as u64 + 1;
                if !flush(&mut w, written) {
                    return;
                }
                continue;
            }
        }
        if w.write_all(input.line.as_bytes()).and_then(|_| w.write_all(b"\n")).is_err() {
            return;
        }
        written += input.line.len() as u64 + 1;
        // Batch frames that are already queued; flush when the queue is empty, and at once
        // after a turn frame (the algo is waiting for it).
        if (input.turn_frame.is_some() || rx.is_empty()) && !flush(&mut w, written) {
            return;
        }
    }
    let _ = flush(&mut w, written);
}

fn read_stdout(stdout: std::process::ChildStdout, tx: Sender<StdoutMsg>, progress: &Progress) {
    let mut lines = BoundedLines::new(stdout, MAX_REPLY_LINE).with_counter(Arc::clone(&progress.stdout_read));
    let mut buf = Vec::new();
    loop {
        let start = lines.offset();
        match lines.next_line(&mut buf) {
            Ok(Some(_)) => {
                let text = || String::from_utf8_lossy(&buf).into_owned();
                let msgs = match progress.startup_part(start, lines.offset()) {
                    StartUpPart::Whole => {
                        [Some(StdoutMsg::StartUp(StartUpOutput { text: text(), unfinished: false })), None]
                    }
                    StartUpPart::None => [Some(StdoutMsg::Line(text(), Instant::now())), None],
                    StartUpPart::Prefix(n) => {
                        let cut = usize::try_from(n).unwrap_or(usize::MAX).min(buf.len());
                        let prefix = String::from_utf8_lossy(&buf[..cut]).into_owned();
                        [
                            Some(StdoutMsg::StartUp(StartUpOutput { text: prefix, unfinished: true })),
                            Some(StdoutMsg::Line(text(), Instant::now())),
                        ]
                    }
                };
                if msgs.into_iter().flatten().any(|m| tx.send(m).is_err()) {
                    return;
                }
            }
            Ok(None) | Err(_) => {
                let _ = tx.send(StdoutMsg::Eof(Instant::now()));
                return;
            }
        }
    }
}
