//! The 2018–2019 rules, each pinned by a small hand-made scenario (docs/fidelity.md, "The
//! 2018–2019 engines").

use std::sync::Arc;
use terminal_core::engine::commands::Command;
use terminal_core::engine::config::{
    INTERCEPTOR as SCRAMBLER, REMOVE, SCOUT as PING, SUPPORT as ENCRYPTOR, TURRET as DESTRUCTOR, WALL as FILTER,
};
use terminal_core::engine::frame::Frame;
use terminal_core::engine::game::Rejection;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::engine::mechanics::LegacyBuild;
use terminal_core::engine::presets::preset;
use terminal_core::engine::{Config, Game};

fn game(slug: &str) -> Game {
    let config: Config = preset(slug).expect("preset");
    assert!(config.legacy, "{slug} is a 2018–2019 ruleset");
    let mut g = Game::new(Arc::new(config));
    for p in Player::both() {
        g.player_mut(p).stats.sp = 100.0;
        g.player_mut(p).stats.mp = 100.0;
    }
    g
}

/// A 2018 game under the August 2018 build's rules (what a replay with 4-element deaths gets).
fn august_2018() -> Game {
    let mut config: Config = preset("legacy-2018").expect("preset");
    config.mechanics.as_mut().expect("a mechanics block").build = LegacyBuild::August2018;
    let mut g = Game::new(Arc::new(config));
    for p in Player::both() {
        g.player_mut(p).stats.sp = 100.0;
        g.player_mut(p).stats.mp = 100.0;
    }
    g
}

fn apply(g: &mut Game, p1: &[Command], p2: &[Command]) {
    let rejected = g.apply_turn_commands([(p1, &[]), (p2, &[])]);
    assert!(rejected.iter().all(Vec::is_empty), "rejected: {rejected:?}");
}

fn id_at(f: &Frame, p: Player, unit_type: usize, t: Tile) -> u32 {
    let list = &f.units[p.index()][unit_type];
    list.iter().find(|u| u.tile == t).map(|u| u.id).unwrap_or_else(|| panic!("no type {unit_type} at {t:?}"))
}

#[test]
fn frames_have_seven_unit_lists_and_no_total_frame() {
    let mut g = game("legacy-2019-s3");
    let f = g.turn_frame();
    assert_eq!(f.units[0].len(), 7);
    let json = terminal_core::replay::frame_to_json(&f, true, true);
    assert!(json.contains("\"turnInfo\":[0,0,-1]"), "{json}");
}

#[test]
fn a_structure_spends_two_ids_a_mobile_unit_one() {
    let mut g = game("legacy-2019-s3");
    apply(&mut g, &[Command::spawn(FILTER, 3, 12), Command::spawn(PING, 13, 0)], &[]);
    let f = g.action_frame();
    let spawn_ids: Vec<u32> = f.events.spawn.iter().map(|s| s.id).collect();
    assert_eq!(spawn_ids, vec![1, 3], "the Filter's spawn event names id 1, the Ping gets 3");
    assert_eq!(id_at(&f, Player::One, FILTER, Tile::new(3, 12)), 2, "the Filter itself is id 2");
}

#[test]
fn a_removal_mark_is_a_unit_of_its_own_and_2018_refunds_half() {
    let mut g = game("legacy-2018");
    apply(&mut g, &[Command::spawn(DESTRUCTOR, 3, 12)], &[]);
    g.action_frame();
    g.end_turn();
    g.turn_frame();
    apply(&mut g, &[Command::remove(3, 12)], &[]);
    let f = g.action_frame();
    let marks = &f.units[0][REMOVE];
    assert_eq!(marks.len(), 1);
    assert_eq!((marks[0].tile, marks[0].health), (Tile::new(3, 12), 0.0));
    assert_ne!(marks[0].id, id_at(&f, Player::One, DESTRUCTOR, Tile::new(3, 12)), "a new id");
    assert_eq!(f.events.spawn[0].id, marks[0].id);
    let sp = g.player(Player::One).stats.sp;
    g.end_turn();
    let turn = g.turn_frame();
    // Destructor (2018): 3 SP; half of it back at full health; 4 SP income.
    assert_eq!(g.player(Player::One).stats.sp, sp + 4.0 + 1.5);
    assert!(turn.events.death.iter().any(|d| d.removed && d.tile == Tile::new(3, 12)));
    assert!(g.structure_on(Tile::new(3, 12)).is_none());
}

#[test]
fn entries_apply_in_the_order_given() {
    // The current engine applies removals after the rest of the line; the 2018–2019 engines
    // apply each entry in turn, so a removal listed before the build finds nothing.
    let mut g = game("legacy-2018");
    let line = [Command::remove(3, 12), Command::spawn(FILTER, 3, 12)];
    let rejected = g.apply_turn_commands([(&line, &[]), (&[], &[])]);
    assert_eq!(rejected[0].len(), 1);
    assert_eq!(rejected[0][0].1, Rejection::NoOwnStructure);
}

#[test]
fn shields_decay_by_a_fixed_amount_every_frame_in_2018() {
    let mut g = game("legacy-2018");
    // Encryptor (shield 10, range 3) right beside a Ping's first steps.
    apply(&mut g, &[Command::spawn(ENCRYPTOR, 13, 2)], &[]);
    apply(&mut g, &[Command::spawn(PING, 13, 0)], &[]);
    let f0 = g.action_frame();
    let f1 = g.action_frame();
    let f2 = g.action_frame();
    let health = |f: &Frame| f.units[0][PING][0].health;
    assert_eq!(health(&f0), 25.0, "15 + a fresh shield of 10");
    assert_eq!(health(&f1), 24.85);
    assert_eq!(health(&f2), 24.7);
}

/// Puts the mobile unit of `p` on `t` (2018 Pings do not step in their first frame).
fn place_mobile(g: &mut Game, p: Player, t: Tile) -> u32 {
    let u = g.units.iter_mut().find(|u| !u.is_structure && u.owner == p).expect("a mobile unit");
    u.tile = t;
    u.id
}

#[test]
fn every_unit_in_reach_of_an_enemy_answers_it_with_a_harmless_melee() {
    let mut g = game("legacy-2018");
    // A Ping (range 3) two rows from a Destructor (range 3): each can act on the other, so
    // each answers the other once: a melee event and a 0-damage hit per pair.
    apply(&mut g, &[Command::spawn(DESTRUCTOR, 13, 13)], &[Command::spawn(PING, 14, 27)]);
    let ping = place_mobile(&mut g, Player::Two, Tile::new(13, 15));
    let destructor = g.structure_on(Tile::new(13, 13)).expect("destructor").id;
    let f = g.action_frame();
    let melee: Vec<(u32, Tile)> = f.events.melee.iter().map(|m| (m.id, m.to)).collect();
    assert_eq!(melee.len(), 2, "{melee:?}");
    assert!(melee.contains(&(ping, Tile::new(13, 13))) && melee.contains(&(destructor, Tile::new(13, 15))));
    assert!(f.events.melee.iter().all(|m| m.damage == 0.0));
    let zero: Vec<u32> = f.events.damage.iter().filter(|d| d.damage == 0.0).map(|d| d.id).collect();
    assert_eq!(zero.len(), 2);
    assert!(zero.contains(&ping) && zero.contains(&destructor));
}

#[test]
fn adjacent_enemy_mobile_units_hit_each_other_three_times() {
    let mut g = game("legacy-2018");
    apply(&mut g, &[Command::spawn(PING, 13, 0)], &[Command::spawn(PING, 14, 27)]);
    let a = place_mobile(&mut g, Player::One, Tile::new(13, 13));
    let b = place_mobile(&mut g, Player::Two, Tile::new(13, 14));
    let f = g.action_frame();
    let hits_on = |id: u32| f.events.damage.iter().filter(|d| d.damage == 0.0 && d.id == id).count();
    assert_eq!((hits_on(a), hits_on(b)), (3, 3), "{:?}", f.events.damage);
    assert_eq!(f.events.melee.len(), 2, "one melee event per unit and tile answered");
}

#[test]
fn blasts_reach_one_and_a_half_without_the_victims_radius_and_deal_start_health() {
    let legacy = preset("legacy-2018").expect("legacy-2018");
    let ping = legacy.unit(PING);
    assert_eq!((ping.sd_damage_walker, ping.sd_damage_tower), (15.0, 15.0), "a Ping's blast is its start health");
    let form = PING * 2;
    // With the Filter's hit radius (0.51) added, as the current rules do, it would be d2 ≤ 4.
    assert_eq!(legacy.reach.self_destruct[form][FILTER * 2], 2, "d2 ≤ 2: the eight neighbours");
    let mut wide = legacy.raw.clone();
    wide["mechanics"]["selfDestructRadius"] = 2.0.into();
    let wide = Config::from_value(wide).expect("config");
    assert_eq!(wide.reach.self_destruct[form][FILTER * 2], 4, "radius 2: d2 ≤ 4, still without 0.51");
}

#[test]
fn a_unit_lives_down_to_zero_health() {
    let mut g = game("legacy-2019-s3");
    apply(&mut g, &[Command::spawn(PING, 13, 0)], &[]);
    g.action_frame();
    let i = g.units.iter().position(|u| !u.is_structure).expect("the Ping");
    g.units[i].base_health = 1.3e-5;
    g.units[i].refresh_health();
    let f = g.action_frame();
    assert_eq!(f.units[0][PING].len(), 1, "1.3e-5 health is alive under the 2018–2019 rules");
}

#[test]
fn the_last_tie_break_compares_ids_as_text() {
    // Four Scramblers 98–101 on one tile, equal in every other way: "99" is the newest as
    // text (a 2018 Destructor worked through Scramblers 95–102 as 99, 98, 97, 96).
    let mut g = game("legacy-2018");
    apply(&mut g, &[Command::spawn(DESTRUCTOR, 13, 13)], &[]);
    g.next_id = 98;
    apply(&mut g, &[], &[Command::spawn(SCRAMBLER, 14, 27); 4]);
    let mut ids = Vec::new();
    for u in g.units.iter_mut().filter(|u| u.owner == Player::Two) {
        u.tile = Tile::new(13, 15);
        ids.push(u.id);
    }
    assert_eq!(ids, vec![98, 99, 100, 101]);
    let f = g.action_frame();
    let hit: Vec<u32> = f.events.attack.iter().filter(|a| a.owner == Player::One).map(|a| a.target_id).collect();
    assert_eq!(hit, vec![99], "{:?}", f.events.attack);
}

#[test]
fn targeting_compares_health_without_shields_except_in_the_august_2018_build() {
    // A 2018-rules run of January 2019 (turn 11 frame 51): Scrambler 184 hit Scrambler 197,
    // 40 + 2.8 of shield, before Scrambler 196 at 40 on the same tile; 196 was still at 40
    // four frames later. Without shields the two tie and "197" is the newer.
    for (mut g, expected) in [(game("legacy-2018"), 197), (august_2018(), 196)] {
        apply(&mut g, &[Command::spawn(DESTRUCTOR, 13, 13)], &[]);
        g.next_id = 196;
        apply(&mut g, &[], &[Command::spawn(SCRAMBLER, 14, 27); 2]);
        for u in g.units.iter_mut().filter(|u| u.owner == Player::Two) {
            u.tile = Tile::new(13, 15);
            if u.id == 197 {
                u.add_shield(2.8, 0.15);
            }
        }
        let f = g.action_frame();
        let hit: Vec<u32> = f.events.attack.iter().filter(|a| a.owner == Player::One).map(|a| a.target_id).collect();
        assert_eq!(hit, vec![expected], "{:?}", f.events.attack);
    }
}

/// The action frame (0-based) in which the first breach happens, within 10 frames.
fn breach_frame(g: &mut Game) -> Option<usize> {
    (0..10).find(|_| !g.action_frame().events.breach.is_empty())
}

#[test]
fn the_august_2018_build_breaches_as_a_unit_steps_onto_its_edge() {
    for (mut g, expected) in [(august_2018(), Some(1)), (game("legacy-2018"), Some(3))] {
        apply(&mut g, &[Command::spawn(PING, 14, 0)], &[]);
        // One step from its edge; a Ping (speed 0.5) steps in frame 1 and again in frame 3.
        place_mobile(&mut g, Player::One, Tile::new(1, 14));
        assert_eq!(breach_frame(&mut g), expected);
    }
}

#[test]
fn the_august_2018_build_removes_a_boxed_in_unit_in_frame_0() {
    let boxed = |g: &mut Game| {
        // (3, 10) on the bottom-left edge has two neighbours on the board: wall them in.
        apply(g, &[Command::spawn(FILTER, 4, 10), Command::spawn(FILTER, 3, 11), Command::spawn(PING, 3, 10)], &[]);
        g.action_frame()
    };
    let mut g = august_2018();
    let f = boxed(&mut g);
    assert!(f.units[0][PING].is_empty(), "gone in frame 0");
    let ping = f.events.spawn.iter().find(|s| s.unit_type == PING as u8).expect("spawned").id;
    let moves: Vec<(Tile, Tile)> = f.events.moves.iter().filter(|m| m.id == ping).map(|m| (m.from, m.to)).collect();
    assert_eq!(moves, vec![(Tile::new(3, 10), Tile::new(3, 10))], "a move onto its own tile");
    assert!(f.events.death.iter().any(|d| d.id == ping));
    assert!(f.events.self_destruct.is_empty(), "no blast before 5 steps");
    let mut season = game("legacy-2018");
    assert_eq!(boxed(&mut season).units[0][PING].len(), 1, "the season build waits for the Ping's first step");
}

#[test]
fn the_august_2018_build_has_melee_only_between_adjacent_enemy_mobile_units() {
    let mut g = august_2018();
    apply(&mut g, &[Command::spawn(PING, 13, 0), Command::spawn(DESTRUCTOR, 13, 11)], &[Command::spawn(PING, 14, 27)]);
    let a = place_mobile(&mut g, Player::One, Tile::new(13, 13));
    let b = place_mobile(&mut g, Player::Two, Tile::new(13, 14));
    let f = g.action_frame();
    let hits: Vec<u32> = f.events.damage.iter().filter(|d| d.damage == 0.0).map(|d| d.id).collect();
    assert_eq!(hits.len(), 2, "one hit each way, no answers from the Destructor: {hits:?}");
    assert!(hits.contains(&a) && hits.contains(&b));
    let melee: Vec<(u32, Tile)> = f.events.melee.iter().map(|m| (m.id, m.to)).collect();
    assert_eq!(melee.len(), 2, "{melee:?}");
    assert!(melee.contains(&(a, Tile::new(13, 14))) && melee.contains(&(b, Tile::new(13, 13))));
}
