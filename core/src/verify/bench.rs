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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::unit::ShieldLayer;
    use crate::replay::read_replay;
    use std::path::Path;

    /// Whatever a game held before: every unit's fields changed, every other unit made a
    /// shielded mobile unit, and two more units at the end.
    fn scramble(game: &mut Game) {
        for (k, u) in game.units.iter_mut().enumerate() {
            (u.health, u.base_health, u.buildup, u.steps) = (-1.5, -2.5, 0.75, 999);
            (u.marked_turn, u.upgraded, u.death_emitted) = (Some(-7), !u.upgraded, true);
            if k % 2 == 0 {
                u.is_structure = false;
                u.shields.push(ShieldLayer { amount: 3.0, decay: 0.0 });
                u.shielded_by.extend([1, 2, 3, 4, 5]);
            }
        }
        let extra = game.units.last().cloned();
        game.units.extend(extra.clone().into_iter().chain(extra));
    }

    /// The benchmark (and `simulate_many`) simulates every turn in one game copied over from
    /// turn to turn: each turn must end as it does in a fresh clone of its start, whatever
    /// the game held before.
    #[test]
    fn a_turn_simulated_in_a_reused_game_ends_as_in_a_fresh_copy() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/replays");
        for name in [
            "live-2022/Acceleraizer__c1terminal-algo__1003.replay.gz",
            "base-s6/Eric-xin__run_time_terror_C1Terminal__3-4-2025-18-20-6.replay.gz",
        ] {
            let path = root.join(name);
            let replay = read_replay(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let turns = prepare_turns(&replay).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
            assert!(turns.len() > 5, "{name}: {} turns prepared", turns.len());
            let run = |game: &mut Game, inputs: &TurnInputs| {
                inputs.apply(game);
                let mut frames = 0;
                while !game.action_phase_done() {
                    game.action_tick_quiet();
                    frames += 1;
                }
                game.end_turn();
                frames
            };
            let mut reused = turns[turns.len() - 1].0.clone();
            for (k, (start, inputs)) in turns.iter().enumerate() {
                let mut fresh = start.clone();
                let fresh_frames = run(&mut fresh, inputs);
                scramble(&mut reused);
                reused.assign_from(start);
                assert!(reused.snapshot() == start.snapshot(), "{name}: turn {k}: the copy differs from its source");
                let reused_frames = run(&mut reused, inputs);
                assert_eq!(reused_frames, fresh_frames, "{name}: turn {k}");
                assert!(reused.snapshot() == fresh.snapshot(), "{name}: turn {k}: the states differ after the turn");
            }
        }
    }

    #[test]
    fn a_resimulation_round_simulates_what_a_fresh_copy_does() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/replays/live-2022/Acceleraizer__c1terminal-algo__1003.replay.gz");
        let replay = read_replay(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut resimulation = Resimulation::new(&replay).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        let expected = simulate_turns(&prepare_turns(&replay).unwrap_or_else(|e| panic!("{e:?}")));
        assert_eq!(expected.0, 17);
        for round in 0..3 {
            assert_eq!(resimulation.round(), expected, "round {round}");
        }
    }
}
