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

/// A replay's prepared turns and the one game they are simulated in, kept from round to
/// round as the engine's users keep theirs (`simulate_many`, the planner): its unit, index
/// and event buffers grow once, not again in every round.
pub struct Resimulation {
    turns: Vec<(Game, TurnInputs)>,
    scratch: Option<Game>,
}

impl Resimulation {
    pub fn new(replay: &Replay) -> Result<Resimulation, RebuildError> {
        let turns = prepare_turns(replay)?;
        let scratch = turns.first().map(|(game, _)| game.clone());
        Ok(Resimulation { turns, scratch })
    }

    /// Turns prepared.
    pub fn turns(&self) -> usize {
        self.turns.len()
    }

    /// Simulates every turn once. Returns (turns, action frames) simulated.
    pub fn round(&mut self) -> (u64, u64) {
        let Some(game) = self.scratch.as_mut() else { return (0, 0) };
        simulate_turns_in(&self.turns, game)
    }
}

/// Simulates every prepared turn to the end of its action phase and restore, in a copy of
/// the first. Returns (turns, action frames) simulated.
pub fn simulate_turns(turns: &[(Game, TurnInputs)]) -> (u64, u64) {
    let Some((first, _)) = turns.first() else { return (0, 0) };
    simulate_turns_in(turns, &mut first.clone())
}

/// Simulates every prepared turn, each from its own state copied into `game`.
fn simulate_turns_in(turns: &[(Game, TurnInputs)], game: &mut Game) -> (u64, u64) {
    let mut frames = 0u64;
    for (start, inputs) in turns {
        game.assign_from(start);
        inputs.apply(game);
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
