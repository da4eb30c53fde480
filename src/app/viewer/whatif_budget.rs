//! What a what-if's turn costs a player against what that player has at the turn frame: the
//! structure edits at the ruleset's prices (upgrades included), plus the commands of the turn
//! that are played — the what-if's deploys where they replace the replay's commands, else the
//! replay's own. A what-if may overspend: it is a question, not a turn the engine must accept.

use super::whatif_board::BoardWhatIf;
use terminal_core::engine::geometry::Tile;
use terminal_core::engine::{Command, CommandKind, Config, Player};
use terminal_core::session::whatif::StructureEdit;

/// SP and MP one player's turn in the what-if spends, and what the player has.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    pub sp_spent: f32,
    pub mp_spent: f32,
    /// (SP, MP) at the turn frame; `None` for a layout, which has no resources.
    pub available: Option<(f32, f32)>,
}

impl Budget {
    /// What `p` spends in the what-if `w` under `config`.
    pub fn of(w: &BoardWhatIf, p: Player, config: &Config) -> Budget {
        let mut spent = (0.0, 0.0);
        let mut add = |(sp, mp): (f32, f32)| {
            spent.0 += sp;
            spent.1 += mp;
        };
        for e in w.structure_edits(p) {
            match e {
                StructureEdit::Add { unit_type, upgraded, .. } => {
                    add(price(config, unit_type as usize));
                    if upgraded {
                        add(upgrade_price(config, unit_type as usize));
                    }
                }
                StructureEdit::Upgrade { tile } => {
                    let kind = w.original.get(tile).map(|s| s.kind.unit_type());
                    add(kind.map_or((0.0, 0.0), |t| upgrade_price(config, t)));
                }
                // Removal refunds come at the end of the turn: nothing is spent now.
                StructureEdit::Remove { .. } => {}
            }
        }
        let played = &w.played[p.index()];
        let commands: Vec<Command> = match w.commands(p) {
            Some(list) => list,
            None => played.0.iter().chain(&played.1).copied().collect(),
        };
        // An upgrade's price is that of the structure on its tile: the edited board's, or one
        // the same command list placed before it.
        let mut placed: Vec<(Tile, usize)> = Vec::new();
        for c in commands {
            match c.kind {
                CommandKind::Spawn(t) => {
                    placed.push((c.tile, t as usize));
                    add(price(config, t as usize));
                }
                CommandKind::Upgrade => {
                    let on_tile = placed.iter().rev().find(|(tile, _)| *tile == c.tile).map(|(_, t)| *t);
                    let kind = on_tile.or_else(|| w.layout.get(c.tile).map(|s| s.kind.unit_type()));
                    add(kind.map_or((0.0, 0.0), |t| upgrade_price(config, t)));
                }
                CommandKind::Remove => {}
            }
        }
        let available = w.resources.map(|r| (r[p.index()].sp, r[p.index()].mp));
        Budget { sp_spent: spent.0, mp_spent: spent.1, available }
    }

    /// How much SP and MP the turn spends beyond what the player has (0 when within).
    pub fn overspent(&self) -> (f32, f32) {
        let (sp, mp) = self.available.unwrap_or((f32::INFINITY, f32::INFINITY));
        ((self.sp_spent - sp).max(0.0), (self.mp_spent - mp).max(0.0))
    }
}

/// (SP, MP) of a new unit of `unit_type`; an unknown type costs nothing.
fn price(config: &Config, unit_type: usize) -> (f32, f32) {
    config.units.get(unit_type).map_or((0.0, 0.0), |u| (u.cost_sp, u.cost_mp))
}

/// (SP, MP) of upgrading a structure of `unit_type`; nothing if it has no upgrade.
fn upgrade_price(config: &Config, unit_type: usize) -> (f32, f32) {
    let up = config.units.get(unit_type).and_then(|u| u.upgrade.as_deref());
    up.map_or((0.0, 0.0), |u| (u.cost_sp, u.cost_mp))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::model::Tool;
    use crate::app::viewer::whatif_board::BoardTool;
    use std::sync::Arc;
    use terminal_core::engine::frame::Stats;
    use terminal_core::engine::presets::{DEFAULT_PRESET, preset};
    use terminal_core::layout::{Kind, Layout};

    fn config() -> Config {
        preset(DEFAULT_PRESET).expect("the default ruleset")
    }

    /// Turn 3 with a wall of player 1 on 13,10; player 1 has 10 SP and 6 MP and played a
    /// turret on 12,10 with its upgrade, an upgrade of the wall and two scouts.
    fn whatif() -> BoardWhatIf {
        let mut l = Layout::default();
        l.place(Player::One, Tile::new(13, 10), Kind::Wall);
        let stats = Stats { hp: 30.0, sp: 10.0, mp: 6.0, time_ms: 0 };
        let build = vec![
            Command::spawn(2, 12, 10),
            Command { kind: CommandKind::Upgrade, tile: Tile::new(12, 10) },
            Command { kind: CommandKind::Upgrade, tile: Tile::new(13, 10) },
        ];
        let deploy = vec![Command::spawn(3, 13, 0), Command::spawn(3, 13, 0)];
        let played = Arc::new([(build, deploy), Default::default()]);
        BoardWhatIf::on_replay_turn(3, l, [stats; 2], played)
    }

    #[test]
    fn kept_commands_count_at_the_rulesets_prices() {
        let c = config();
        let b = Budget::of(&whatif(), Player::One, &c);
        let (turret, wall, scout) = (c.unit(2), c.unit(0), c.unit(3));
        let up = |u: &terminal_core::engine::config::UnitStats| u.upgrade.as_ref().map_or(0.0, |x| x.cost_sp);
        assert_eq!(b.sp_spent, turret.cost_sp + up(turret) + up(wall));
        assert_eq!(b.mp_spent, 2.0 * scout.cost_mp);
        assert_eq!(b.available, Some((10.0, 6.0)));
        assert_eq!(Budget::of(&whatif(), Player::Two, &c).sp_spent, 0.0, "player 2 played nothing");
    }

    #[test]
    fn replaced_commands_cost_nothing_and_edits_do() {
        let c = config();
        let mut w = whatif();
        w.replace_commands[0] = true;
        w.resources = Some([Stats { hp: 30.0, sp: 1.0, mp: 6.0, time_ms: 0 }; 2]);
        w.tool = BoardTool::Structure(Tool::Place(Kind::Turret));
        w.click(Tile::new(11, 10), false).expect("own half");
        w.click(Tile::new(10, 10), false).expect("own half");
        w.tool = BoardTool::Structure(Tool::Upgrade);
        w.click(Tile::new(13, 10), false).expect("own wall");
        let b = Budget::of(&w, Player::One, &c);
        let (turret, wall) = (c.unit(2), c.unit(0));
        let wall_up = wall.upgrade.as_ref().map_or(0.0, |x| x.cost_sp);
        assert_eq!(b.sp_spent, 2.0 * turret.cost_sp + wall_up);
        assert_eq!(b.mp_spent, 0.0);
        assert_eq!(b.overspent().0, b.sp_spent - 1.0, "{b:?}: more than the 1 SP player 1 has");
        assert_eq!(b.overspent().1, 0.0);
    }
}
