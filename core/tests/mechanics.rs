//! Each mechanic pinned by a small hand-made scenario (docs/mechanics.md).

use std::sync::Arc;
use terminal_core::engine::commands::Command;
use terminal_core::engine::config::{DEMOLISHER, INTERCEPTOR, SCOUT, SUPPORT, TURRET, WALL};
use terminal_core::engine::frame::Frame;
use terminal_core::engine::geometry::{Edge, Player, Tile};
use terminal_core::engine::pathing::{Blockers, Pathfinder};
use terminal_core::engine::presets::preset;
use terminal_core::engine::unit::Axis;
use terminal_core::engine::{Config, Game};

fn game(slug: &str) -> Game {
    let config: Config = preset(slug).expect("preset");
    let mut g = Game::new(Arc::new(config));
    // Plenty of resources so scenarios are not limited by costs.
    for p in Player::both() {
        g.player_mut(p).stats.sp = 1000.0;
        g.player_mut(p).stats.mp = 1000.0;
    }
    g
}

fn apply(g: &mut Game, p1: &[Command], p2: &[Command]) {
    let rejected = g.apply_turn_commands([(p1, &[]), (p2, &[])]);
    assert!(rejected.iter().all(Vec::is_empty), "rejected: {rejected:?}");
}

/// Runs the action phase to its end, returning every action frame.
fn run_action_phase(g: &mut Game) -> Vec<Frame> {
    let mut frames = Vec::new();
    loop {
        frames.push(g.action_frame());
        if g.action_phase_done() {
            return frames;
        }
    }
}

#[test]
fn pathing_tie_break_prefers_vertical_first_then_alternates() {
    let mut p = Pathfinder::new(Blockers::default());
    let path = p.predicted_path(Tile::new(24, 10), Edge::TopLeft);
    // First step vertical, then horizontal, alternating on the open board.
    assert_eq!(
        &path[..5],
        &[Tile::new(24, 10), Tile::new(24, 11), Tile::new(23, 11), Tile::new(23, 12), Tile::new(22, 12)]
    );
}

#[test]
fn pathing_takes_the_step_toward_the_target_between_opposite_tiles() {
    // A unit at (13,13) bound for TOP_RIGHT whose last step was vertical, with (13,14) blocked:
    // x+1 and x−1 may both be shortest; the one toward a right-hand target is x+1.
    let mut b = Blockers::default();
    b.set(Tile::new(13, 14), true);
    let mut p = Pathfinder::new(b);
    assert_eq!(p.next_step(Tile::new(13, 13), Edge::TopRight, Axis::Vertical), Some(Tile::new(14, 13)));
}

#[test]
fn deepest_tile_fallback_prefers_depth_then_the_target_side() {
    // A pocket cut off from every top edge: the unit heads for its deepest tile (largest y),
    // ties broken toward the target's side: x for TOP_RIGHT, 27 − x for TOP_LEFT.
    let mut b = Blockers::default();
    let pocket = [Tile::new(13, 20), Tile::new(14, 20), Tile::new(15, 19), Tile::new(14, 19), Tile::new(13, 19)];
    for t in terminal_core::engine::geometry::all_tiles() {
        if !pocket.contains(&t) {
            b.set(t, true);
        }
    }
    let mut p = Pathfinder::new(b);
    assert_eq!(p.predicted_path(Tile::new(14, 19), Edge::TopRight).last(), Some(&Tile::new(14, 20)));
    assert_eq!(p.predicted_path(Tile::new(14, 19), Edge::TopLeft).last(), Some(&Tile::new(13, 20)));
}

#[test]
fn breach_comes_one_movement_period_after_reaching_the_edge() {
    let mut g = game("base-s6");
    // A Scout (speed 1) deployed on BOTTOM_LEFT at (13,0) walks to TOP_RIGHT on an open board.
    apply(&mut g, &[Command::spawn(SCOUT, 13, 0)], &[]);
    let frames = run_action_phase(&mut g);
    let arrive = frames
        .iter()
        .position(|f| f.events.moves.iter().any(|m| Edge::TopRight.contains(m.to)))
        .expect("reaches the edge");
    let breach = frames.iter().position(|f| !f.events.breach.is_empty()).expect("breaches");
    assert_eq!(breach, arrive + 1, "speed 1: breach one frame after stepping onto the edge");
    assert!(frames[breach].events.moves.is_empty(), "a breaching unit does not move");
    assert!(frames[breach].events.attack.is_empty(), "a breaching unit does not attack");
    assert_eq!(g.player(Player::Two).stats.hp, 29.0);
    assert_eq!(g.player(Player::One).stats.sp, 1001.0 - 0.0, "metalForBreach SP at once");
}

#[test]
fn demolisher_speed_half_steps_every_second_frame() {
    let mut g = game("base-s6");
    apply(&mut g, &[Command::spawn(DEMOLISHER, 13, 0)], &[]);
    let frames = run_action_phase(&mut g);
    let stepped: Vec<usize> =
        frames.iter().enumerate().filter(|(_, f)| !f.events.moves.is_empty()).map(|(i, _)| i).take(3).collect();
    assert_eq!(stepped, vec![1, 3, 5]);
}

#[test]
fn self_destruct_needs_the_required_steps() {
    // Box a Scout in after 4 steps (no blast) and after 5 steps (blast): every tile next to
    // its path is walled, one of those walls belonging to the enemy to receive the blast.
    for (steps, expect_blast) in [(4, false), (5, true)] {
        let mut g = game("base-s6");
        let mut p = Pathfinder::new(Blockers::default());
        let path = p.predicted_path(Tile::new(13, 0), Edge::TopRight);
        let keep: Vec<Tile> = path[..=steps].to_vec();
        let end = keep[steps];
        let mut walls = Vec::new();
        let mut victim = None;
        for t in terminal_core::engine::geometry::all_tiles() {
            if t.y <= 13 && !keep.contains(&t) && keep.iter().any(|k| k.dist2(t) == 1) {
                if victim.is_none() && end.dist2(t) == 1 {
                    victim = Some(t);
                } else {
                    walls.push(Command::spawn(WALL, t.x, t.y));
                }
            }
        }
        let victim = victim.expect("a tile next to the end");
        apply(&mut g, &walls, &[]);
        g.insert_unit(terminal_core::engine::unit::Unit::new_structure(999, WALL as u8, Player::Two, victim, 60.0));
        apply(&mut g, &[Command::spawn(SCOUT, 13, 0)], &[]);
        let frames = run_action_phase(&mut g);
        let sd: Vec<_> = frames.iter().flat_map(|f| f.events.self_destruct.clone()).collect();
        assert_eq!(!sd.is_empty(), expect_blast, "steps {steps}");
        let blast_hits =
            frames.iter().flat_map(|f| f.events.damage.iter()).filter(|d| d.id == 999 && d.damage == 15.0).count();
        if expect_blast {
            assert_eq!(sd[0].damage, 15.0, "config damage, not the Scout's health");
            assert_eq!(sd[0].victims, vec![victim]);
            assert_eq!(blast_hits, 1);
        } else {
            assert_eq!(blast_hits, 0);
        }
        assert!(
            frames.iter().any(|f| f.events.death.iter().any(|d| d.unit_type == SCOUT as u8)),
            "the Scout dies either way"
        );
    }
}

#[test]
fn shield_amount_grows_with_the_supports_row() {
    // special-2025 upgraded Support: 4 + 0.4 per row; row 9 → 7.6000004 (docs/config.md, Shield amount).
    let mut g = game("special-2025");
    apply(&mut g, &[Command::spawn(SUPPORT, 13, 9), Command::upgrade(13, 9)], &[]);
    apply(&mut g, &[Command::spawn(SCOUT, 13, 0)], &[]);
    let frames = run_action_phase(&mut g);
    let shield = frames.iter().flat_map(|f| f.events.shield.clone()).next().expect("shielded");
    assert_eq!(shield.amount, 7.6000004);
    assert_eq!(shield.support_type, SUPPORT as u8, "4th field is the Support's type");
    // Player 2's Support counts rows from the top: at y = 18 it is 9 rows from its back row.
    let mut g = game("special-2025");
    apply(&mut g, &[], &[Command::spawn(SUPPORT, 14, 18), Command::upgrade(14, 18)]);
    apply(&mut g, &[], &[Command::spawn(SCOUT, 14, 27)]);
    let frames = run_action_phase(&mut g);
    let shield = frames.iter().flat_map(|f| f.events.shield.clone()).next().expect("shielded");
    assert_eq!(shield.amount, 7.6000004);
}

#[test]
fn each_support_shields_a_unit_once() {
    let mut g = game("base-s6");
    apply(&mut g, &[Command::spawn(SUPPORT, 13, 2)], &[]);
    apply(&mut g, &[Command::spawn(SCOUT, 13, 0)], &[]);
    let frames = run_action_phase(&mut g);
    let grants: Vec<_> = frames.iter().flat_map(|f| f.events.shield.clone()).collect();
    assert_eq!(grants.len(), 1);
    assert_eq!(grants[0].amount, 3.0);
}

#[test]
fn targeting_prefers_mobiles_then_nearest_then_weakest() {
    let mut g = game("base-s6");
    // A player-2 Turret at (13,16); player-1 Scouts arrive; walls nearby must not be targeted
    // while a mobile unit is in reach.
    apply(&mut g, &[Command::spawn(WALL, 12, 13)], &[Command::spawn(TURRET, 13, 16)]);
    apply(&mut g, &[Command::spawn(SCOUT, 13, 0)], &[]);
    let frames = run_action_phase(&mut g);
    for f in &frames {
        for a in f.events.attack.iter().filter(|a| a.attacker_type == TURRET as u8) {
            assert_eq!(g_unit_type_at(f, a.to), Some(SCOUT as u8), "turrets hit mobile units only");
        }
    }
}

fn g_unit_type_at(f: &Frame, t: Tile) -> Option<u8> {
    for p in Player::both() {
        for (ty, u) in f.real_units(p) {
            if u.tile == t {
                return Some(ty as u8);
            }
        }
    }
    // The target may have died this frame.
    f.events.death.iter().find(|d| d.tile == t).map(|d| d.unit_type)
}

#[test]
fn targeting_ties_broken_by_row_side_and_newest() {
    // Two player-2 Walls at equal distance, health and row from a player-1 Scout: criterion 5
    // (nearest a side edge, largest |x − 13.5|) decides. The Scout is placed directly.
    let mut g = game("base-s6");
    apply(&mut g, &[], &[Command::spawn(WALL, 10, 17), Command::spawn(WALL, 16, 17)]);
    g.insert_unit(terminal_core::engine::unit::Unit::new_mobile(
        500,
        SCOUT as u8,
        Player::One,
        Tile::new(13, 17),
        15.0,
        Edge::TopRight,
    ));
    g.player_mut(Player::One).stats.mp = 0.0;
    let f = g.action_frame();
    let a = f.events.attack.iter().find(|a| a.attacker_id == 500).expect("attacks");
    // The Scout first steps vertically to (13,18): both walls are then at d² = 10 with equal
    // health and row; |x − 13.5| is 3.5 vs 2.5 → the wall at (10,17).
    assert_eq!(a.to, Tile::new(10, 17));
}

#[test]
fn newest_wins_a_full_tie() {
    let mut g = game("base-s6");
    // Two player-2 Scouts stacked on one tile, attacked by a player-1 Turret: every criterion
    // ties but the id, and the newer one (higher id) is hit.
    apply(&mut g, &[Command::spawn(TURRET, 13, 13)], &[]);
    g.insert_unit(terminal_core::engine::unit::Unit::new_mobile(
        600,
        SCOUT as u8,
        Player::Two,
        Tile::new(13, 15),
        15.0,
        Edge::BottomLeft,
    ));
    g.insert_unit(terminal_core::engine::unit::Unit::new_mobile(
        601,
        SCOUT as u8,
        Player::Two,
        Tile::new(13, 15),
        15.0,
        Edge::BottomLeft,
    ));
    let f = g.action_frame();
    let hit = f.events.attack.iter().find(|a| a.attacker_type == TURRET as u8).expect("turret fires");
    assert_eq!(hit.target_id, 601);
}

/// The first Turret shot at two player-2 Scouts stacked at (13,15), both given as
/// `(id, base health, shield)`, in a game with or without the early-2020 rules.
fn turret_target_in_stack(early_2020: bool, scouts: [(u32, f32, f32); 2]) -> u32 {
    let mut g = game("live-2022");
    g.early_2020 = early_2020;
    apply(&mut g, &[Command::spawn(TURRET, 13, 13)], &[]);
    for (id, base, shield) in scouts {
        let mut u = terminal_core::engine::unit::Unit::new_mobile(
            id,
            SCOUT as u8,
            Player::Two,
            Tile::new(13, 15),
            base,
            Edge::BottomLeft,
        );
        if shield > 0.0 {
            u.add_shield(shield, 0.0);
        }
        g.insert_unit(u);
    }
    let f = g.action_frame();
    f.events.attack.iter().find(|a| a.attacker_type == TURRET as u8).expect("turret fires").target_id
}

#[test]
fn early_2020_build_compares_ids_as_text_in_a_full_tie() {
    // Every criterion ties but the id: current engines hit the higher id (100), the early-2020
    // build compared ids as strings, where "99" > "100".
    let stack = [(99, 15.0, 0.0), (100, 15.0, 0.0)];
    assert_eq!(turret_target_in_stack(false, stack), 100);
    assert_eq!(turret_target_in_stack(true, stack), 99);
    // Same number of digits: both orders agree.
    let stack = [(101, 15.0, 0.0), (102, 15.0, 0.0)];
    assert_eq!(turret_target_in_stack(true, stack), 102);
}

#[test]
fn early_2020_build_targets_by_health_without_shields() {
    // Scout 600: 11 health, no shield. Scout 601: 5 health + a 12 shield (shows 17).
    // Current engines hit the weakest as displayed (600); the early-2020 build ignored
    // shields and hit 601 (5 < 11).
    let stack = [(600, 11.0, 0.0), (601, 5.0, 12.0)];
    assert_eq!(turret_target_in_stack(false, stack), 600);
    assert_eq!(turret_target_in_stack(true, stack), 601);
}

#[test]
fn refund_is_rounded_per_structure() {
    // base-s6 Turret: cost 2, refund 0.75 at full health → 1.5; damaged to 50/75 → 1.0.
    let mut g = game("base-s6");
    apply(&mut g, &[Command::spawn(TURRET, 3, 12), Command::spawn(TURRET, 5, 12)], &[]);
    let id = g.structure_on(Tile::new(5, 12)).expect("turret").id;
    let i = g.unit_index(id).expect("index");
    g.units[i].base_health = 50.0;
    g.units[i].refresh_health();
    apply(&mut g, &[Command::remove(3, 12), Command::remove(5, 12)], &[]);
    let before = g.player(Player::One).stats.sp;
    run_action_phase(&mut g);
    g.end_turn();
    let after = g.player(Player::One).stats.sp;
    assert_eq!(after, before + 5.0 + 1.5 + 1.0);
    let f = g.turn_frame();
    assert_eq!(f.events.death.iter().filter(|d| d.removed).count(), 2);
}

#[test]
fn upgrade_keeps_missing_health_and_takes_a_new_id() {
    let mut g = game("base-s6");
    apply(&mut g, &[Command::spawn(WALL, 3, 12)], &[]);
    let old = g.structure_on(Tile::new(3, 12)).expect("wall").id;
    let i = g.unit_index(old).expect("index");
    g.units[i].base_health = 40.0;
    g.units[i].refresh_health();
    apply(&mut g, &[Command::upgrade(3, 12)], &[]);
    let new = g.structure_on(Tile::new(3, 12)).expect("upgraded wall");
    assert!(new.id > old);
    assert!(new.upgraded);
    assert_eq!(new.health, 40.0 + (120.0 - 60.0));
}

#[test]
fn removal_marks_come_after_the_other_entries_of_a_line() {
    let mut g = game("base-s6");
    // RM listed before the placement still marks the structure built in the same line.
    apply(&mut g, &[Command::remove(3, 12), Command::spawn(WALL, 3, 12)], &[]);
    let f = g.action_frame();
    let kinds: Vec<u8> = f.events.spawn.iter().map(|s| s.unit_type).collect();
    assert_eq!(kinds, vec![WALL as u8, 6]);
}

#[test]
fn commands_are_validated_one_by_one() {
    let mut g = game("base-s6");
    g.player_mut(Player::One).stats.sp = 3.0;
    let line = [
        Command::spawn(WALL, 3, 20),    // enemy half
        Command::spawn(WALL, 0, 0),     // off the diamond
        Command::spawn(TURRET, 3, 12),  // ok: 2 SP
        Command::spawn(WALL, 3, 12),    // occupied
        Command::spawn(SUPPORT, 5, 12), // cannot afford (4 SP)
        Command::spawn(WALL, 6, 12),    // ok: 1 SP
        Command::spawn(SCOUT, 5, 5),    // not an edge
        Command::spawn(INTERCEPTOR, 13, 0),
    ];
    let rejected = g.apply_turn_commands([(&line, &[]), (&[], &[])]);
    assert_eq!(rejected[0].len(), 5, "{:?}", rejected[0]);
    assert_eq!(g.player(Player::One).stats.sp, 0.0);
    assert_eq!(g.units.len(), 3);
}

#[test]
fn mp_decays_and_rounds_half_up_in_f32() {
    let mut g = game("base-s6");
    g.player_mut(Player::One).stats.mp = 3.8;
    g.end_turn();
    // 3.8 × 0.75 = 2.85 → 2.9 (f32 rounding), + 5 income.
    assert_eq!(g.player(Player::One).stats.mp, 7.9);
}

#[test]
fn the_game_ends_at_turn_100() {
    let mut g = game("base-s6");
    for _ in 0..100 {
        g.turn_frame();
        run_action_phase(&mut g);
        g.end_turn();
    }
    assert!(g.over);
    assert_eq!(g.turn, 100);
}

#[test]
fn shields_decay_when_the_config_says_so() {
    // A config variant whose Support shields decay by 0.5 per tick (the 2018 rule).
    let mut raw: serde_json::Value = serde_json::from_str(include_str!("../configs/base-s6.json")).expect("json");
    raw["unitInformation"][1]["shieldDecay"] = serde_json::json!(0.5);
    let config = Config::from_value(raw).expect("config");
    let mut g = Game::new(Arc::new(config));
    g.player_mut(Player::One).stats.sp = 100.0;
    apply(&mut g, &[Command::spawn(SUPPORT, 13, 2)], &[]);
    apply(&mut g, &[Command::spawn(SCOUT, 13, 0)], &[]);
    let f0 = g.action_frame();
    let shielded = f0.units[0][SCOUT][0].health;
    let f1 = g.action_frame();
    assert_eq!(shielded, 18.0);
    assert_eq!(f1.units[0][SCOUT][0].health, 17.5);
}
