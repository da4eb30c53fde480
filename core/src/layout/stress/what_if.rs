//! A recorded attack met by a layout, as a what-if of the Debugger. It starts from the same
//! game as the lab's run of that attack (`super::start_game`) and plays the attacker's recorded
//! deploy line, so the try shows exactly what the lab's row counted.

use super::{Attack, Defence, HpModel, start_game};
use crate::engine::game::Game;
use crate::session::whatif::WhatIfSpec;

/// What the Debugger runs for one attack: the start game and the commands of the turn.
#[derive(Clone)]
pub struct AttackTry {
    /// The deploy phase of the attack's turn: the attacker's side, the layout in the
    /// defender's seat.
    pub game: Game,
    /// The attacker's recorded deploy line; the defender's commands dropped.
    pub spec: WhatIfSpec,
    /// "turn 7 of <replay>": the try's label.
    pub label: String,
}

impl std::fmt::Debug for AttackTry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AttackTry").field("label", &self.label).field("spec", &self.spec).finish_non_exhaustive()
    }
}

/// Two tries are the same when they start from the same units and stats with the same commands.
impl PartialEq for AttackTry {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.game, &other.game);
        self.label == other.label
            && self.spec == other.spec
            && a.turn == b.turn
            && a.units == b.units
            && a.players.iter().map(|p| p.stats).eq(b.players.iter().map(|p| p.stats))
    }
}

impl Attack {
    /// This attack against `defence`, with HP counted as `hp` (the lab runs `Unlimited`: no
    /// breach ends the turn early, every one counts).
    pub fn what_if_try(&self, defence: &Defence, hp: HpModel) -> AttackTry {
        let game = start_game(self, defence, hp, &mut None).clone();
        let mut spec = WhatIfSpec::default();
        spec.commands[self.attacker.index()] = Some(self.deploy.clone());
        spec.commands[self.defender().index()] = Some(Vec::new());
        AttackTry { game, spec, label: format!("lab: turn {} of {}", self.turn, self.file_name()) }
    }
}
