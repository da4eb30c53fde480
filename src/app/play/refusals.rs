//! The engine's refusals of a planned turn, in a player's words: which tile, what is wrong
//! with it, and for resources what the unit costs against what is left.

use crate::app::board::threat::amount;
use terminal_core::engine::config::unit_name;
use terminal_core::engine::game::Rejection;
use terminal_core::engine::geometry::Player;
use terminal_core::engine::{Command, CommandKind, Config};
use terminal_core::layout::Layout;
use terminal_core::runner::human::TurnCheck;

/// What a command costs: ("SP" or "MP", the price, the unit's name).
fn price(config: &Config, cmd: &Command, plan: &Layout) -> Option<(&'static str, f32, &'static str)> {
    match cmd.kind {
        CommandKind::Spawn(t) => {
            let u = config.units.get(usize::from(t))?;
            let name = unit_name(usize::from(t), config.legacy);
            Some(if u.is_structure { ("SP", u.cost_sp, name) } else { ("MP", u.cost_mp, name) })
        }
        CommandKind::Upgrade => {
            let t = plan.get(cmd.tile)?.kind.unit_type();
            let up = config.units.get(t)?.upgrade.as_ref()?;
            Some(("SP", up.cost_sp, "upgrade"))
        }
        CommandKind::Remove => None,
    }
}

/// One refusal: "Not enough SP: a Turret costs 2, you have 1.5 left (13,6)".
pub fn words(
    config: &Config,
    check: &TurnCheck,
    plan: &Layout,
    seat: Player,
    cmd: &Command,
    why: &Rejection,
) -> String {
    let at = format!("{},{}", cmd.tile.x, cmd.tile.y);
    let rows = if seat == Player::One { "0-13" } else { "14-27" };
    match why {
        Rejection::CannotAfford => match price(config, cmd, plan) {
            Some((what, cost, name)) => {
                let left = if what == "SP" { check.sp - check.sp_spent } else { check.mp - check.mp_spent };
                let article = match name.chars().next() {
                    _ if name == "upgrade" => "the upgrade".to_string(),
                    Some('A' | 'E' | 'I' | 'O' | 'U') => format!("an {name}"),
                    _ => format!("a {name}"),
                };
                format!("Not enough {what} at {at}: {article} costs {}, you have {} left", amount(cost), amount(left))
            }
            None => format!("Not enough resources at {at}"),
        },
        Rejection::Occupied => format!("{at} is taken: a structure stands there"),
        Rejection::EnemyHalf => format!("{at} is on the other half: you build on rows {rows}"),
        Rejection::NotAnEdge => format!("{at} is not one of your edges: mobile units start on your two edges"),
        Rejection::OffBoard => format!("{at} is off the board"),
        Rejection::NoOwnStructure => format!("{at}: no structure of yours there"),
        Rejection::AlreadyUpgraded => format!("{at} is upgraded already"),
        Rejection::NotUpgradable => format!("{at}: this structure has no upgrade in this ruleset"),
        Rejection::AlreadyMarked => format!("{at} is marked for removal already"),
        Rejection::RemovalsDisabled => "This ruleset does not let you remove structures".to_string(),
        other => format!("{at}: {other}"),
    }
}

/// The command an edit added to a turn's (build, deploy) lines: the first of `after` that
/// `before` does not hold as often (a stack of deploys on one tile counts each).
pub fn added_command(before: &(Vec<Command>, Vec<Command>), after: &(Vec<Command>, Vec<Command>)) -> Option<Command> {
    let mut old: Vec<&Command> = before.0.iter().chain(&before.1).collect();
    for cmd in after.0.iter().chain(&after.1) {
        match old.iter().position(|c| *c == cmd) {
            Some(i) => {
                old.swap_remove(i);
            }
            None => return Some(*cmd),
        }
    }
    None
}

/// How many of the check's refusals are for resources.
pub fn unaffordable(check: &TurnCheck) -> usize {
    check.rejected.iter().filter(|(_, why)| *why == Rejection::CannotAfford).count()
}
