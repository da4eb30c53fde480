//! A tick that records only some kinds of event (what the lab's and the Python module's
//! tallies read) changes the state exactly as a tick that records them all, and records
//! exactly the kinds asked for: on every turn of a replay of each current ruleset.

use terminal_core::engine::frame::{Events, Recording};
use terminal_core::engine::{Game, Player};
use terminal_core::replay::read_replay;
use terminal_core::verify::bench::prepare_turns;
use terminal_core::verify::collect_replays;

#[path = "../../tests/common/corpus.rs"]
mod corpus;
use corpus::{CURRENT_RULESETS, replay};

/// `events` with the kinds `kinds` does not record emptied (spawns come from the commands,
/// before any tick, and stay).
fn only(kinds: Recording, events: &Events) -> Events {
    let mut e = events.clone();
    if !kinds.moves {
        e.moves.clear();
    }
    if !kinds.shields {
        e.shield.clear();
    }
    if !kinds.attacks {
        e.attack.clear();
    }
    if !kinds.outcomes {
        e.breach.clear();
        e.damage.clear();
        e.death.clear();
        e.self_destruct.clear();
    }
    e
}

/// One tick recording `kinds`: what it recorded.
fn tick(game: &mut Game, kinds: Recording) -> Events {
    let mut seen = Events::default();
    game.action_tick_recording(kinds, |e| seen = e.clone());
    seen
}

#[test]
fn a_tick_records_the_kinds_asked_for_and_changes_the_state_alike() {
    let kinds = [Recording::OUTCOMES, Recording::OUTCOMES.with_moves(true), Recording::NONE];
    let mut ticks = 0;
    let mut counted = [0usize; 3];
    for ruleset in CURRENT_RULESETS {
        let mut found = collect_replays(&[replay(ruleset)]);
        found.sort();
        let Some(path) = found.first() else { panic!("no replay of {ruleset}") };
        let r = read_replay(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let turns = prepare_turns(&r).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        for (start, inputs) in &turns {
            let mut all = start.clone();
            inputs.apply(&mut all);
            let mut some: Vec<Game> = kinds.iter().map(|_| all.clone()).collect();
            while !all.action_phase_done() {
                let full = tick(&mut all, Recording::ALL);
                counted[0] += full.moves.len();
                counted[1] += full.shield.len() + full.attack.len();
                counted[2] += full.damage.len() + full.death.len();
                for (game, &k) in some.iter_mut().zip(&kinds) {
                    let recorded = tick(game, k);
                    let at = format!("{} turn {} frame {}", path.display(), all.turn, all.action_frame);
                    assert_eq!(recorded, only(k, &full), "{at}: {k:?}");
                    assert_eq!(game.units, all.units, "{at}: {k:?}");
                    assert_eq!(game.player(Player::One), all.player(Player::One), "{at}");
                    assert_eq!(game.player(Player::Two), all.player(Player::Two), "{at}");
                }
                ticks += 1;
            }
        }
    }
    // The comparison means something only if every kind occurred.
    assert!(ticks > 1000 && counted.iter().all(|&n| n > 100), "{ticks} ticks, events {counted:?}");
}
