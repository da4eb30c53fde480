//! A game at any point of a turn (mid action phase included) as plain data and back: what
//! pickling a simulation state or saving a what-if needs. Every field that decides the
//! next ticks is kept (shield layers, step counters, last axes, pending events); caches
//! derived from the units (pathfinder, role index) are rebuilt on first use. The config is
//! not part of it: the caller keeps it and hands it back.

use super::config::Config;
use super::frame::Events;
use super::game::{Game, PlayerState};
use super::geometry::CELLS;
use super::unit::Unit;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Everything of a [`Game`] but its config and caches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameSnapshot {
    pub turn: i32,
    pub action_frame: i32,
    pub frames_sent: i64,
    pub action_frames_sent: i64,
    pub players: [PlayerState; 2],
    pub units: Vec<Unit>,
    pub next_id: u32,
    /// The occupied tiles of the structure map: (flat tile index, structure id).
    pub structure_at: Vec<(u32, u32)>,
    pub events: Events,
    pub over: bool,
    pub early_2020: bool,
    pub legacy_marks: Vec<(u32, u32)>,
    pub clean_up_due: bool,
}

/// Why a snapshot cannot be a game.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SnapshotError {
    #[error("snapshot: structure map entry {entry}: tile index {index} is off the board")]
    TileIndex { entry: usize, index: u32 },
    #[error("snapshot: units are not in ascending id order at position {position}")]
    UnitOrder { position: usize },
}

impl Game {
    pub fn snapshot(&self) -> GameSnapshot {
        GameSnapshot {
            turn: self.turn,
            action_frame: self.action_frame,
            frames_sent: self.frames_sent,
            action_frames_sent: self.action_frames_sent,
            players: self.players.clone(),
            units: self.units.clone(),
            next_id: self.next_id,
            structure_at: (0u32..)
                .zip(self.structure_at.iter())
                .filter(|&(_, &id)| id != 0)
                .map(|(index, &id)| (index, id))
                .collect(),
            events: self.events.clone(),
            over: self.over,
            early_2020: self.early_2020,
            legacy_marks: self.legacy_marks.clone(),
            clean_up_due: self.clean_up_due,
        }
    }

    /// The game a snapshot was taken of, under `config` (the one it was played under).
    pub fn from_snapshot(config: Arc<Config>, snapshot: GameSnapshot) -> Result<Game, SnapshotError> {
        if let Some(position) = snapshot.units.windows(2).position(|w| w[0].id >= w[1].id) {
            return Err(SnapshotError::UnitOrder { position: position + 1 });
        }
        let mut structures = Box::new([0u32; CELLS]);
        for (entry, &(index, id)) in snapshot.structure_at.iter().enumerate() {
            *structures.get_mut(index as usize).ok_or(SnapshotError::TileIndex { entry, index })? = id;
        }
        // The caches (pathfinder, role index, scratch buffers) start empty, as in a new game.
        let mut game = Game::new(config);
        // Every field named: a field added to the snapshot must be restored here too.
        let GameSnapshot {
            turn,
            action_frame,
            frames_sent,
            action_frames_sent,
            players,
            units,
            next_id,
            structure_at: _,
            events,
            over,
            early_2020,
            legacy_marks,
            clean_up_due,
        } = snapshot;
        (game.turn, game.action_frame, game.frames_sent, game.action_frames_sent) =
            (turn, action_frame, frames_sent, action_frames_sent);
        (game.players, game.units, game.next_id, game.structure_at) = (players, units, next_id, structures);
        (game.events, game.over, game.early_2020, game.legacy_marks, game.clean_up_due) =
            (events, over, early_2020, legacy_marks, clean_up_due);
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::commands::Command;
    use crate::engine::geometry::Player;
    use crate::engine::presets;

    fn frames_until_done(game: &mut Game) -> Vec<crate::engine::Frame> {
        let mut frames = Vec::new();
        while !game.action_phase_done() || frames.is_empty() {
            frames.push(game.action_frame());
        }
        game.end_turn();
        frames.push(game.turn_frame());
        frames
    }

    #[test]
    fn a_game_restored_mid_turn_plays_on_exactly_as_the_original() {
        let config = Arc::new(presets::preset("live-2022").expect("the live-2022 preset ships"));
        let mut game = Game::new(Arc::clone(&config));
        game.turn_frame();
        let walls: Vec<Command> = (10..18).map(|x| Command::spawn(0, x, 11)).collect();
        let turrets = [Command::spawn(2, 13, 12), Command::spawn(2, 14, 12)];
        let scouts = vec![Command::spawn(3, 13, 0); 5];
        let enemy: Vec<Command> = vec![Command::spawn(3, 14, 27); 4];
        game.apply_turn_commands([(&[walls, turrets.to_vec()].concat(), &scouts), (&[], &enemy)]);
        for _ in 0..6 {
            game.action_frame();
        }
        let restored = Game::from_snapshot(Arc::clone(&config), game.snapshot());
        let mut restored = restored.expect("a snapshot of a real game restores");
        assert_eq!(restored.snapshot(), game.snapshot());
        assert_eq!(frames_until_done(&mut restored), frames_until_done(&mut game));
        assert!(game.player(Player::Two).stats.hp < config.resources.starting_hp, "the scouts breached");
    }

    #[test]
    fn a_bad_snapshot_is_refused_naming_what_is_wrong() {
        let config = Arc::new(presets::preset("live-2022").expect("the live-2022 preset ships"));
        let mut snapshot = Game::new(Arc::clone(&config)).snapshot();
        snapshot.structure_at.push((CELLS as u32, 7));
        let error = Game::from_snapshot(config, snapshot).err();
        assert_eq!(error, Some(SnapshotError::TileIndex { entry: 0, index: CELLS as u32 }));
    }
}
