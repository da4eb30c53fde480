//! Simulating without Python: the action phase of one state, and a batch of candidate turns
//! from one state on several threads. Nothing here touches a Python object, so the callers
//! run it with the GIL released.

use crate::commands::Rejection;
use crate::tally::{EndStats, PathLog, Tally};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use terminal_core::engine::frame::{Frame, Recording};
use terminal_core::engine::{Command, Game, Player};

/// What one run of the action phase did.
pub struct Run {
    pub tally: Tally,
    pub stats: EndStats,
    pub frames_run: usize,
    pub turn_finished: bool,
    pub game_over: bool,
    /// With `record_frames`: the action frames, then the next turn frame.
    pub frames: Option<Vec<Frame>>,
    pub paths: Option<PathLog>,
}

/// The action phase has run and is over, or the game has ended.
pub fn action_phase_over(game: &Game) -> bool {
    game.over || (game.action_frame >= 0 && game.action_phase_done())
}

/// Runs the action phase of `game`, or at most `limit` action frames of it; when the phase
/// ends, the end-of-turn restore runs too (the state is then at the next turn's deploy
/// phase, its turn frame counted as sent).
pub fn run(game: &mut Game, limit: Option<usize>, record_frames: bool, record_paths: bool) -> Run {
    let mut tally = Tally::new(game);
    let facts = *tally.facts();
    let mut paths = record_paths.then(PathLog::default);
    let mut frames = record_frames.then(Vec::new);
    let mut frames_run = 0usize;
    // The engine always plays action frame 0, even with no mobile unit on the board.
    while !action_phase_over(game) && limit.is_none_or(|l| frames_run < l) {
        match frames.as_mut() {
            Some(list) => {
                let frame = game.action_frame();
                tally.add(&frame.events);
                if let Some(p) = paths.as_mut() {
                    p.add(&facts, &frame.events);
                }
                list.push(frame);
            }
            // The tally reads what each tick did to both players; the walks only if asked.
            None => game.action_tick_recording(Recording::OUTCOMES.with_moves(record_paths), |events| {
                tally.add(events);
                if let Some(p) = paths.as_mut() {
                    p.add(&facts, events);
                }
            }),
        }
        frames_run += 1;
    }
    let turn_finished = !game.over && action_phase_over(game);
    if turn_finished {
        game.end_turn();
        if !game.over {
            // The next turn frame carries the turn start's removals.
            match frames.as_mut() {
                Some(list) => list.push(game.turn_frame()),
                None => {
                    game.events.clear();
                    game.frames_sent += 1;
                }
            }
        }
    }
    let stats = [Player::One, Player::Two].map(|p| {
        let s = game.player(p).stats;
        (s.hp, s.sp, s.mp)
    });
    Run { tally, stats, frames_run, turn_finished, game_over: game.over, frames, paths }
}

/// One candidate turn: the algo's build and deploy lines, the opponent's build and deploy.
pub type Lines = [Arc<[Command]>; 4];

/// Applies the four lines in the official order. `seat` 1: the algo is player 1 and its
/// lines go first; 2: the algo is the true player 2, so the opponent's lines go first.
pub fn apply_lines(game: &mut Game, lines: &Lines, seat: u8) -> Vec<Rejection> {
    let [build, deploy, opponent_build, opponent_deploy] = lines;
    let order = if seat == 2 {
        [(Player::Two, opponent_build), (Player::One, build), (Player::Two, opponent_deploy), (Player::One, deploy)]
    } else {
        [(Player::One, build), (Player::Two, opponent_build), (Player::One, deploy), (Player::Two, opponent_deploy)]
    };
    // Named with the config once the lines are in (no clone of its `Arc` held meanwhile:
    // see `Game::tick_config` in the core).
    let mut refused = Vec::new();
    for (player, line) in order {
        refused.extend(game.apply_line(player, line).into_iter().map(|(command, why)| (player, command, why)));
    }
    refused.into_iter().map(|(player, command, why)| Rejection::new(&game.config, player, command, why)).collect()
}

/// Simulates every candidate from `base` (which is left as it is) on up to `threads`
/// threads, each taking the next candidate when done with one. Results are in candidate
/// order.
pub fn simulate_many(
    base: &Game,
    candidates: &[Lines],
    seat: u8,
    threads: usize,
    limit: Option<usize>,
) -> Vec<(Run, Vec<Rejection>)> {
    let next = AtomicUsize::new(0);
    let threads = threads.clamp(1, candidates.len().max(1));
    let work = || {
        // One game per thread, reset from the base for each candidate: its unit and event
        // buffers are allocated once.
        let mut game = base.clone();
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(lines) = candidates.get(i) else { break };
            game.assign_from(base);
            let rejected = apply_lines(&mut game, lines, seat);
            done.push((i, run(&mut game, limit, false, false), rejected));
        }
        done
    };
    let mut results: Vec<(usize, Run, Vec<Rejection>)> = if threads == 1 {
        work()
    } else {
        std::thread::scope(|scope| {
            // The calling thread is one of the workers: one thread fewer to start per call.
            let handles: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
            let mut done = work();
            // A panicking worker would have panicked in the engine; carry it on as one.
            done.extend(handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))));
            done
        })
    };
    results.sort_unstable_by_key(|(i, _, _)| *i);
    results.into_iter().map(|(_, run, rejected)| (run, rejected)).collect()
}
