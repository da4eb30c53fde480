//! Player 2's view of a frame (docs/protocol.md, Player 2's view): every algo plays from the bottom.
//! The engine works in player 1's view; player 2 receives each frame with the players
//! swapped and every coordinate rotated by 180°.

use crate::engine::commands::Command;
use crate::engine::frame::{EndStats, Events, Frame, UnitEntry};
use crate::engine::geometry::Player;

fn swap(p: Player) -> Player {
    p.opponent()
}

fn rotate_units(lists: &[Vec<UnitEntry>]) -> Vec<Vec<UnitEntry>> {
    lists.iter().map(|l| l.iter().map(|u| UnitEntry { tile: u.tile.rotated(), ..*u }).collect()).collect()
}

/// Rotates the named tile fields and swaps the owner of every event in a list.
macro_rules! flip_each {
    ($list:expr, $($tile:ident),+) => {
        for x in &mut $list {
            $(x.$tile = x.$tile.rotated();)+
            x.owner = swap(x.owner);
        }
    };
}

fn flip_events(e: &Events) -> Events {
    let mut out = e.clone();
    flip_each!(out.self_destruct, tile);
    for x in &mut out.self_destruct {
        x.victims.iter_mut().for_each(|t| *t = t.rotated());
    }
    flip_each!(out.breach, tile);
    flip_each!(out.damage, tile);
    flip_each!(out.shield, from, to);
    flip_each!(out.moves, from, to);
    flip_each!(out.spawn, tile);
    flip_each!(out.death, tile);
    flip_each!(out.attack, from, to);
    flip_each!(out.melee, from, to);
    out
}

fn flip_end_stats(es: &EndStats) -> EndStats {
    let [a, b] = es.players.clone();
    EndStats {
        winner: match es.winner {
            1 => 2,
            2 => 1,
            w => w,
        },
        players: [b, a],
        ..es.clone()
    }
}

/// The frame as player 2 receives it: `p1…` is player 2, coordinates rotated, event owners
/// swapped, `endStats.player1` is player 2 and `winner` is expressed in that view. The
/// transform is its own inverse.
pub(crate) fn flip_frame(f: &Frame) -> Frame {
    Frame {
        turn_info: f.turn_info,
        stats: [f.stats[1], f.stats[0]],
        units: [rotate_units(&f.units[1]), rotate_units(&f.units[0])],
        events: flip_events(&f.events),
        end_stats: f.end_stats.as_ref().map(flip_end_stats),
    }
}

/// Converts commands between player 2's own view and the true board (its own inverse).
pub fn rotate_commands(commands: &mut [Command]) {
    for c in commands {
        c.tile = c.tile.rotated();
    }
}

/// A frame in the view of `p`.
pub fn frame_for(p: Player, f: &Frame) -> std::borrow::Cow<'_, Frame> {
    match p {
        Player::One => std::borrow::Cow::Borrowed(f),
        Player::Two => std::borrow::Cow::Owned(flip_frame(f)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::frame::{MoveEvent, SpawnEvent, Stats};
    use crate::engine::geometry::Tile;

    fn sample() -> Frame {
        let s1 = Stats { hp: 30.0, sp: 1.0, mp: 2.0, time_ms: 5 };
        let s2 = Stats { hp: 20.0, sp: 3.0, mp: 4.0, time_ms: 7 };
        let wall = UnitEntry { tile: Tile::new(3, 12), health: 60.0, id: 1 };
        let mut f = Frame { stats: [s1, s2], units: [vec![vec![wall]; 8], vec![Vec::new(); 8]], ..Frame::default() };
        f.events.spawn.push(SpawnEvent { tile: Tile::new(3, 12), unit_type: 0, id: 1, owner: Player::One });
        f.events.moves.push(MoveEvent {
            from: Tile::new(14, 0),
            to: Tile::new(14, 1),
            unit_type: 3,
            id: 2,
            owner: Player::Two,
        });
        f
    }

    #[test]
    fn flip_swaps_and_rotates() {
        let f = sample();
        let g = flip_frame(&f);
        assert_eq!(g.stats[0].hp, 20.0);
        assert_eq!(g.stats[1].time_ms, 5);
        assert!(g.units[0].iter().all(Vec::is_empty));
        assert_eq!(g.units[1][0][0].tile, Tile::new(24, 15));
        assert_eq!(g.events.spawn[0].owner, Player::Two);
        assert_eq!(g.events.spawn[0].tile, Tile::new(24, 15));
        assert_eq!(g.events.moves[0].owner, Player::One);
        assert_eq!(g.events.moves[0].to, Tile::new(13, 26));
    }

    #[test]
    fn every_event_kind_is_rotated_and_changes_owner() {
        use crate::engine::frame::{
            AttackEvent, BreachEvent, DamageEvent, DeathEvent, MeleeEvent, SelfDestructEvent, ShieldEvent,
        };
        let (a, b) = (Tile::new(13, 0), Tile::new(14, 1));
        let (ra, rb) = (Tile::new(14, 27), Tile::new(13, 26));
        let p = Player::One;
        let mut f = Frame::default();
        let e = &mut f.events;
        e.self_destruct.push(SelfDestructEvent {
            tile: a,
            victims: vec![b],
            damage: 1.0,
            unit_type: 3,
            id: 1,
            owner: p,
        });
        e.breach.push(BreachEvent { tile: a, damage: 1.0, unit_type: 3, id: 1, owner: p });
        e.damage.push(DamageEvent { tile: a, damage: 1.0, unit_type: 3, id: 1, owner: p });
        e.death.push(DeathEvent { tile: a, unit_type: 3, id: 1, owner: p, removed: false });
        e.shield.push(ShieldEvent {
            from: a,
            to: b,
            amount: 1.0,
            support_type: 1,
            support_id: 1,
            target_id: 2,
            owner: p,
        });
        e.attack.push(AttackEvent {
            from: a,
            to: b,
            damage: 1.0,
            attacker_type: 2,
            attacker_id: 1,
            target_id: 2,
            owner: p,
        });
        e.melee.push(MeleeEvent { from: a, to: b, damage: 1.0, unit_type: 3, id: 1, owner: p });
        let g = flip_frame(&f).events;
        let sd = &g.self_destruct[0];
        assert_eq!((sd.tile, sd.victims.clone(), sd.owner), (ra, vec![rb], Player::Two));
        for (tile, owner) in [
            (g.breach[0].tile, g.breach[0].owner),
            (g.damage[0].tile, g.damage[0].owner),
            (g.death[0].tile, g.death[0].owner),
        ] {
            assert_eq!((tile, owner), (ra, Player::Two));
        }
        for (from, to, owner) in [
            (g.shield[0].from, g.shield[0].to, g.shield[0].owner),
            (g.attack[0].from, g.attack[0].to, g.attack[0].owner),
            (g.melee[0].from, g.melee[0].to, g.melee[0].owner),
        ] {
            assert_eq!((from, to, owner), (ra, rb, Player::Two));
        }
    }

    #[test]
    fn flip_is_an_involution() {
        let mut f = sample();
        f.end_stats = Some(EndStats { winner: 1, ..EndStats::default() });
        if let Some(e) = f.end_stats.as_mut() {
            e.players[0].name = "a".into();
        }
        let g = flip_frame(&f);
        let es = g.end_stats.as_ref().map(|e| (e.winner, e.players[1].name.clone()));
        assert_eq!(es, Some((2, "a".to_string())));
        assert_eq!(flip_frame(&g), f);
    }
}
