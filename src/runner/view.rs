//! Player 2's view of a frame (PROTOCOL.md §9, H-P12): every algo plays from the bottom.
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

fn flip_events(e: &Events) -> Events {
    let mut out = e.clone();
    for x in &mut out.self_destruct {
        x.tile = x.tile.rotated();
        x.victims.iter_mut().for_each(|t| *t = t.rotated());
        x.owner = swap(x.owner);
    }
    for x in &mut out.breach {
        x.tile = x.tile.rotated();
        x.owner = swap(x.owner);
    }
    for x in &mut out.damage {
        x.tile = x.tile.rotated();
        x.owner = swap(x.owner);
    }
    for x in &mut out.shield {
        x.from = x.from.rotated();
        x.to = x.to.rotated();
        x.owner = swap(x.owner);
    }
    for x in &mut out.moves {
        x.from = x.from.rotated();
        x.to = x.to.rotated();
        x.owner = swap(x.owner);
    }
    for x in &mut out.spawn {
        x.tile = x.tile.rotated();
        x.owner = swap(x.owner);
    }
    for x in &mut out.death {
        x.tile = x.tile.rotated();
        x.owner = swap(x.owner);
    }
    for x in &mut out.attack {
        x.from = x.from.rotated();
        x.to = x.to.rotated();
        x.owner = swap(x.owner);
    }
    for x in &mut out.melee {
        x.from = x.from.rotated();
        x.to = x.to.rotated();
        x.owner = swap(x.owner);
    }
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
pub fn flip_frame(f: &Frame) -> Frame {
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
