//! The role index kept up to date in place after clean-ups must equal a full rebuild.

use super::attack_bits::AttackCheck;
use super::commands::{Command, CommandKind};
use super::game::{Game, RoleIndex};
use super::geometry::{Player, Tile};
use super::presets::preset;
use std::sync::Arc;

/// Everything the tick reads from the role index, comparable.
type RoleView = (
    Vec<usize>,
    [Vec<usize>; 2],
    Vec<usize>,
    Vec<super::game::SupportBox>,
    Vec<usize>,
    Vec<AttackCheck>,
    Vec<u32>,
    Vec<Vec<usize>>,
    [[u32; 28]; 2],
);

fn view(r: &RoleIndex, game: &Game) -> RoleView {
    let structures = r.structures.as_deref().expect("role index built");
    // Positions of the indexed structures, tile by tile, where a row bit is set.
    let mut placed = Vec::new();
    for (p, rows) in structures.rows.iter().enumerate() {
        for (y, bits) in rows.iter().enumerate() {
            for x in 0..28 {
                if bits & (1 << x) != 0 {
                    let t = Tile::new(x, y as i32);
                    placed.extend([p as u32, t.index() as u32, structures.index[t.index()]]);
                    assert_eq!(game.units[structures.index[t.index()] as usize].tile, t);
                }
            }
        }
    }
    // The attackers per enemy, row and column, and those checked every tick, by their
    // position in the unit list (slots of attackers gone differ from a rebuild's and hold no bits).
    let units_of = |slots: Vec<usize>| slots.into_iter().map(|k| r.attackers[k]).collect::<Vec<_>>();
    let mut bits: Vec<Vec<usize>> = (0..2)
        .flat_map(|e| (0..56).map(move |line| (e, line)))
        .map(|(e, l)| units_of(r.attack_bits.line_positions(e, l)))
        .collect();
    bits.push(units_of(r.attack_bits.always_positions()));
    bits.extend((0..2).map(|e| units_of(r.attack_bits.mobile_box_positions(e))));
    let supports = r.supports.clone();
    let live = || r.attackers.iter().zip(&r.attack_checks).filter(|(_, c)| **c != AttackCheck::Gone);
    let attackers = live().map(|(&i, _)| i).collect();
    let checks = live().map(|(_, &c)| c).collect();
    assert_eq!(r.gone_attackers, r.attackers.len() - live().count());
    let cover = r.support_cover;
    (r.mobiles.clone(), r.mobiles_of.clone(), supports, r.support_boxes.clone(), attackers, checks, placed, bits, cover)
}

/// A base-s6 game where both players can afford every command of these tests.
fn game_with_plenty_of_resources() -> Game {
    let mut game = Game::new(Arc::new(preset("base-s6").expect("preset")));
    for p in Player::both() {
        game.player_mut(p).stats.sp = 500.0;
        game.player_mut(p).stats.mp = 500.0;
    }
    game
}

#[test]
fn role_index_updated_after_deaths_equals_a_rebuild() {
    let mut game = game_with_plenty_of_resources();
    // Player 2 builds walls and turrets in front of player 1's scouts and demolishers;
    // player 1 has turrets and supports of its own, so units die on both sides.
    let mut commands = Vec::new();
    for x in 8..20 {
        commands.push((Player::Two, CommandKind::Spawn(0), Tile::new(x, 15)));
        commands.push((Player::Two, CommandKind::Spawn(2), Tile::new(x, 16)));
    }
    for x in 10..18 {
        commands.push((Player::One, CommandKind::Spawn(2), Tile::new(x, 11)));
        commands.push((Player::One, CommandKind::Spawn(1), Tile::new(x, 9)));
    }
    for _ in 0..8 {
        commands.push((Player::One, CommandKind::Spawn(3), Tile::new(13, 0)));
        commands.push((Player::One, CommandKind::Spawn(4), Tile::new(3, 10)));
        commands.push((Player::Two, CommandKind::Spawn(3), Tile::new(13, 27)));
    }
    for (p, kind, tile) in commands {
        let _ = game.apply_command(p, Command { kind, tile });
    }
    let start = game.units.len();
    let mut ticks = 0;
    while !game.action_phase_done() && ticks < 500 {
        game.action_tick_quiet();
        ticks += 1;
        assert!(game.roles.valid);
        let kept = view(&game.roles, &game);
        let mut fresh = game.clone();
        fresh.roles = RoleIndex::default();
        fresh.ensure_roles();
        assert_eq!(kept, view(&fresh.roles, &fresh), "tick {ticks}");
    }
    assert!(game.units.len() < start - 8, "units died: {} of {start} left", game.units.len());
}

#[test]
fn role_index_kept_through_commands_and_copies_equals_a_rebuild() {
    let mut base = game_with_plenty_of_resources();
    for x in 8..14 {
        let _ = base.apply_command(Player::Two, Command { kind: CommandKind::Spawn(2), tile: Tile::new(x, 16) });
        let _ = base.apply_command(Player::One, Command { kind: CommandKind::Spawn(2), tile: Tile::new(x, 11) });
    }
    base.prepare_for_copies();
    let mut game = Game::new(Arc::clone(&base.config));
    game.assign_from(&base);
    assert!(game.roles.valid, "a copy of an indexed state is indexed");
    // Structures, upgrades (a unit removed from the middle of the list) and mobile units.
    let commands = [
        (Player::One, CommandKind::Spawn(1), Tile::new(12, 9)),
        (Player::One, CommandKind::Upgrade, Tile::new(9, 11)),
        (Player::Two, CommandKind::Spawn(0), Tile::new(15, 17)),
        (Player::Two, CommandKind::Upgrade, Tile::new(12, 16)),
        (Player::One, CommandKind::Spawn(3), Tile::new(13, 0)),
        (Player::Two, CommandKind::Spawn(4), Tile::new(13, 27)),
    ];
    for (p, kind, tile) in commands {
        assert!(game.apply_command(p, Command { kind, tile }).is_ok(), "{kind:?} on {tile}");
        // An upgrade leaves the entries after the removed unit due for a repair.
        game.ensure_roles();
        assert!(game.roles.valid && game.roles.repair_from.is_none());
        let mut fresh = game.clone();
        fresh.roles = RoleIndex::default();
        fresh.ensure_roles();
        assert_eq!(view(&game.roles, &game), view(&fresh.roles, &fresh), "after {kind:?} on {tile}");
    }
}
