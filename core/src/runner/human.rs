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
    pub fn new(name: impl Into<String>) -> (HumanSeat, Sender<HumanTurn>) {
        // Two turns may be queued: the UI never waits on the match.
        let (tx, rx) = crossbeam_channel::bounded(2);
        (HumanSeat { name: name.into(), turns: rx }, tx)
    }
}
