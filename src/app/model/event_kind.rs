//! Event types of the Debugger's event log (and its saved filter).

use serde::{Deserialize, Serialize};

/// Ordered as listed, so that a kept filter is written in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum EventKind {
    Spawn,
    Move,
    Attack,
    Damage,
    Shield,
    Death,
    Breach,
    SelfDestruct,
}

impl EventKind {
    pub const ALL: [EventKind; 8] = [
        EventKind::Spawn,
        EventKind::Move,
        EventKind::Attack,
        EventKind::Damage,
        EventKind::Shield,
        EventKind::Death,
        EventKind::Breach,
        EventKind::SelfDestruct,
    ];

    pub fn label(self) -> &'static str {
        match self {
            EventKind::Spawn => "spawn",
            EventKind::Move => "move",
            EventKind::Attack => "attack",
            EventKind::Damage => "damage",
            EventKind::Shield => "shield",
            EventKind::Death => "death",
            EventKind::Breach => "breach",
            EventKind::SelfDestruct => "self-destruct",
        }
    }
}
