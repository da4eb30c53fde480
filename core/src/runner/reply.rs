//! Waiting for an algo's two reply lines after a turn frame (docs/protocol.md: The reply,
//! Reading the reply, Time limits and crashes).
//!
//! The algo's stdout is a queue of lines (docs/protocol.md, Reading the reply): after a
//! turn frame the next two queued lines are the build and deploy lines, whenever they were
//! written; stray lines printed during action frames are therefore consumed as the next
//! turn's commands. Lines written
//! before turn 0's frame reached the algo are start-up output, not replies (`progress.rs`).

use super::process::{StartUpOutput, StdoutMsg};
use crate::engine::commands::Command;
use crossbeam_channel::{Receiver, select};
use std::time::Duration;
use web_time::Instant;

/// How a wait for a reply ended.
#[derive(Debug, PartialEq)]
pub enum Reply {
    /// Both lines; `at` is when the second one was read.
    Lines { build: String, deploy: String, at: Instant },
    /// The hard limit passed; `partial` lines had arrived (they are consumed and dropped).
    TimedOut { partial: usize },
    /// The algo closed its stdout (exited) before answering, at `at`.
    Dead { at: Instant },
    /// The match was cancelled.
    Cancelled,
    /// Commands from a seat without a process (a ghost or a person), in the seat's own
    /// view, with the compute time to charge and whether over-time is penalised.
    Commands { build: Vec<Command>, deploy: Vec<Command>, time_ms: i64, penalised: bool },
    /// A ghost's recorded crash in this turn, after `time_ms`.
    RecordedCrash { time_ms: i64 },
}

/// After the process exits, how long the rest of its stdout may take to arrive (a
/// background child can keep the pipe open, so end of file may never come).
const EXIT_DRAIN: Duration = Duration::from_millis(250);

/// Takes the next two lines from `stdout`, waiting until `deadline` (none: forever).
/// `exited` becomes ready when the algo's process has exited; `cancel` fires (message or
/// disconnect) when the match is cancelled. Start-up output met on the way goes to
/// `startup`.
pub fn collect(
    stdout: &Receiver<StdoutMsg>,
    exited: &Receiver<()>,
    deadline: Option<Instant>,
    cancel: &Receiver<()>,
    startup: &mut Vec<StartUpOutput>,
) -> Reply {
    // Timers by duration: the runner's clock is not std's everywhere (`web_time`).
    let mut timer = match deadline {
        Some(d) => crossbeam_channel::after(d.saturating_duration_since(Instant::now())),
        None => crossbeam_channel::never(),
    };
    let mut exited = exited.clone();
    let mut exited_at: Option<Instant> = None;
    let mut first: Option<String> = None;
    loop {
        // Lines already queued are taken without looking at the clock (they arrived in time).
        let msg = match stdout.try_recv() {
            Ok(m) => Ok(m),
            Err(_) => select! {
                recv(stdout) -> m => m,
                recv(cancel) -> _ => return Reply::Cancelled,
                recv(exited) -> _ => {
                    let now = Instant::now();
                    exited_at = Some(now);
                    exited = crossbeam_channel::never();
                    let drain = now + EXIT_DRAIN;
                    timer = crossbeam_channel::after(deadline.map_or(drain, |d| d.min(drain)).saturating_duration_since(now));
                    continue;
                }
                recv(timer) -> _ => {
                    return match exited_at {
                        Some(at) => Reply::Dead { at },
                        None => Reply::TimedOut { partial: usize::from(first.is_some()) },
                    };
                }
            },
        };
        match msg {
            Ok(StdoutMsg::Line(line, at)) => match first.take() {
                None => first = Some(line),
                Some(build) => {
                    return Reply::Lines { build, deploy: line, at };
                }
            },
            Ok(StdoutMsg::StartUp(line)) => startup.push(line),
            Ok(StdoutMsg::Eof(at)) => return Reply::Dead { at },
            // The reader thread is gone without an EOF message: treat as dead.
            Err(_) => return Reply::Dead { at: Instant::now() },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_lines_then_stray_lines_for_the_next_turn() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let (_ctx, crx) = crossbeam_channel::bounded::<()>(1);
        let (_alive_tx, alive) = crossbeam_channel::bounded::<()>(0);
        let now = Instant::now();
        for l in ["[]", "[[\"PI\",14,0]]", "stray 1", "stray 2", "[]"] {
            tx.send(StdoutMsg::Line(l.into(), now)).expect("send");
        }
        let r = collect(&rx, &alive, Some(now + Duration::from_millis(50)), &crx, &mut Vec::new());
        assert!(matches!(r, Reply::Lines { ref build, ref deploy, .. } if build == "[]" && deploy.contains("PI")));
        let r = collect(&rx, &alive, Some(now + Duration::from_millis(50)), &crx, &mut Vec::new());
        assert!(matches!(r, Reply::Lines { ref build, .. } if build == "stray 1"));
        assert_eq!(
            collect(&rx, &alive, Some(Instant::now() + Duration::from_millis(20)), &crx, &mut Vec::new()),
            Reply::TimedOut { partial: 1 }
        );
        tx.send(StdoutMsg::Eof(now)).expect("send");
        assert_eq!(collect(&rx, &alive, None, &crx, &mut Vec::new()), Reply::Dead { at: now });
    }

    #[test]
    fn start_up_output_is_set_aside() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let (_ctx, crx) = crossbeam_channel::bounded::<()>(1);
        let (_alive_tx, alive) = crossbeam_channel::bounded::<()>(0);
        let now = Instant::now();
        tx.send(StdoutMsg::StartUp(StartUpOutput { text: "banner".into(), unfinished: false })).expect("send");
        tx.send(StdoutMsg::Line("[]".into(), now)).expect("send");
        tx.send(StdoutMsg::Line("[]".into(), now)).expect("send");
        let mut startup = Vec::new();
        assert!(matches!(collect(&rx, &alive, None, &crx, &mut startup), Reply::Lines { .. }));
        assert_eq!(startup, [StartUpOutput { text: "banner".into(), unfinished: false }]);
    }

    #[test]
    fn cancel_interrupts_the_wait() {
        let (_tx, rx) = crossbeam_channel::unbounded::<StdoutMsg>();
        let (ctx, crx) = crossbeam_channel::bounded::<()>(1);
        let (_alive_tx, alive) = crossbeam_channel::bounded::<()>(0);
        drop(ctx);
        assert_eq!(collect(&rx, &alive, None, &crx, &mut Vec::new()), Reply::Cancelled);
    }

    #[test]
    fn an_exited_process_is_dead_once_its_pipe_is_drained() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let (_ctx, crx) = crossbeam_channel::bounded::<()>(1);
        let (alive_tx, exited) = crossbeam_channel::bounded::<()>(0);
        drop(alive_tx);
        // Its answer arrived: it counts; the exit is charged at the next turn.
        let now = Instant::now();
        tx.send(StdoutMsg::Line("[]".into(), now)).expect("send");
        tx.send(StdoutMsg::Line("[]".into(), now)).expect("send");
        assert!(matches!(collect(&rx, &exited, None, &crx, &mut Vec::new()), Reply::Lines { .. }));
        // No answer and no end of file (a child holds the pipe): dead after the drain time.
        let t0 = Instant::now();
        let r = collect(&rx, &exited, None, &crx, &mut Vec::new());
        assert!(matches!(r, Reply::Dead { .. }), "{r:?}");
        assert!(t0.elapsed() < Duration::from_secs(2));
    }
}
