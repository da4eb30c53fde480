//! Re-simulating a replay's turns as fast as possible (benchmarks).

use super::rebuild::{RebuildError, TurnInputs, game_at_turn_frame, running_max_ids};
use crate::engine::game::Game;
use crate::replay::Replay;
use std::sync::Arc;

/// Every turn of a replay as (state at its turn frame, inputs), ready to simulate.
pub fn prepare_turns(replay: &Replay) -> Result<Vec<(Game, TurnInputs)>, RebuildError> {
    let config = Arc::new(replay.config.clone());
    let ids = running_max_ids(&replay.frames);
    let mut turns = replay
        .turn_starts()
        .into_iter()
        .map(|s| game_at_turn_frame(replay, &config, s, &ids, None))
        .collect::<Result<Vec<_>, _>>()?;
    for (game, _) in &mut turns {
        game.prepare_for_copies();
    }
    Ok(turns)
}

/// Simulates every prepared turn to the end of its action phase and restore.
/// Returns (turns, action frames) simulated.
pub fn simulate_turns(turns: &[(Game, TurnInputs)]) -> (u64, u64) {
    let mut frames = 0u64;
    let Some((first, _)) = turns.first() else { return (0, 0) };
    // One game reused for every turn: its unit and event buffers are allocated once.
    let mut game = first.clone();
    for (start, inputs) in turns {
        game.assign_from(start);
        inputs.apply(&mut game);
        loop {
            game.action_tick_quiet();
            frames += 1;
            if game.action_phase_done() {
                break;
            }
        }
        game.end_turn();
    }
    (turns.len() as u64, frames)
}
