//! A person in a seat: the studio sends each turn's commands over a channel; the runner
//! waits for them without a time limit.

use crate::engine::commands::Command;
use crossbeam_channel::{Receiver, Sender};

/// One turn's commands from a person, in the seat's own view (as an algo sends them).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HumanTurn {
    /// The turn these commands are for; commands for another turn are not applied.
    pub turn: i32,
    pub build: Vec<Command>,
    pub deploy: Vec<Command>,
}

/// The runner's end of a human seat.
#[derive(Debug, Clone)]
pub struct HumanSeat {
    pub name: String,
    pub turns: Receiver<HumanTurn>,
}

impl HumanSeat {
    /// A human seat and the sender the UI ends each turn with. Dropping the sender leaves
    /// the seat: the player is then treated as crashed.
    /// How the seat is written in records: `human:NAME`.
    pub fn describe(&self) -> String {
        format!("human:{}", self.name)
    }

    pub fn new(name: impl Into<String>) -> (HumanSeat, Sender<HumanTurn>) {
        // Two turns may be queued: the UI never waits on the match.
        let (tx, rx) = crossbeam_channel::bounded(2);
        (HumanSeat { name: name.into(), turns: rx }, tx)
    }
}

/// A person's planned turn checked by the engine against the turn frame, alone (the other
/// seat's commands of the turn are not known until both are applied together).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TurnCheck {
    /// Commands the engine refuses, with why (in the order given).
    pub rejected: Vec<(Command, crate::engine::game::Rejection)>,
    /// What the player has at the turn frame, and what the accepted commands spend.
    pub sp: f32,
    pub mp: f32,
    pub sp_spent: f32,
    pub mp_spent: f32,
}

/// Checks `build` then `deploy` (true-board coordinates) for `player` against `frame`, a turn
/// frame of a game under `config`, as the engine applies them.
pub fn check_turn(
    config: &std::sync::Arc<crate::engine::Config>,
    frame: &crate::engine::frame::Frame,
    player: crate::engine::geometry::Player,
    build: &[Command],
    deploy: &[Command],
) -> Result<TurnCheck, crate::verify::rebuild::RebuildError> {
    let (game, rejected, before) = game_after(config, frame, player, build, deploy)?;
    let after = game.player(player).stats;
    Ok(TurnCheck {
        rejected,
        sp: before.sp,
        mp: before.mp,
        sp_spent: before.sp - after.sp,
        mp_spent: before.mp - after.mp,
    })
}

/// The game of a turn frame after `player`'s builds (the other seat's are not known yet):
/// the board the attack planner searches on a person's turn. The builds the engine refuses
/// are left out.
pub fn game_after_builds(
    config: &std::sync::Arc<crate::engine::Config>,
    frame: &crate::engine::frame::Frame,
    player: crate::engine::geometry::Player,
    build: &[Command],
) -> Result<crate::engine::game::Game, crate::verify::rebuild::RebuildError> {
    game_after(config, frame, player, build, &[]).map(|(game, _, _)| game)
}

/// The game of a turn frame with `player`'s commands applied, what the engine refused, and
/// the player's stats before.
type Applied = (crate::engine::game::Game, Vec<(Command, crate::engine::game::Rejection)>, crate::engine::frame::Stats);

fn game_after(
    config: &std::sync::Arc<crate::engine::Config>,
    frame: &crate::engine::frame::Frame,
    player: crate::engine::geometry::Player,
    build: &[Command],
    deploy: &[Command],
) -> Result<Applied, crate::verify::rebuild::RebuildError> {
    let max_id = crate::verify::rebuild::max_id_in(frame);
    let mut game = crate::verify::rebuild::game_from_turn_frame(config, frame, max_id)?;
    let before = game.player(player).stats;
    let none: [Command; 0] = [];
    let mut lines: [(&[Command], &[Command]); 2] = [(&none, &none), (&none, &none)];
    lines[player.index()] = (build, deploy);
    let [r1, r2] = game.apply_turn_commands(lines);
    let rejected = if player.index() == 0 { r1 } else { r2 };
    Ok((game, rejected, before))
}
