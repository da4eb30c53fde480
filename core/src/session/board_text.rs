//! A text rendering of a frame for terminals, CI logs and chats: the diamond with units as
//! characters, a legend, the stats line and the frame's events.

use crate::engine::config::{REMOVE, UNIT_TYPES, UPGRADE};
use crate::engine::frame::{Events, Frame, Phase};
use crate::engine::geometry::{BOARD_SIZE, in_play};
use crate::engine::{Player, Tile};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// Letters of unit types 0–5 for player 1 (player 2 uses lower case).
const LETTERS: [char; UNIT_TYPES] = ['W', 'S', 'T', 'P', 'D', 'I'];

pub const LEGEND: &str = "legend: W/S/T = wall/support/turret of player 1, w/s/t of player 2; a '+' after a \
structure = upgraded, 'x' = marked for removal; P/D/I (p/d/i) = scout/demolisher/interceptor stack, \
followed by the stack size (1-9, '*' = more); '.' = empty tile";

/// The two characters of each occupied tile.
pub fn tile_cells(frame: &Frame) -> HashMap<Tile, [char; 2]> {
    let mut cells: HashMap<Tile, [char; 2]> = HashMap::new();
    for p in Player::both() {
        let lists = frame.units_of(p);
        let ids =
            |k: usize| -> HashSet<u32> { lists.get(k).map(|l| l.iter().map(|u| u.id).collect()).unwrap_or_default() };
        let (upgraded, marked) = (ids(UPGRADE), ids(REMOVE));
        let mut stacks: HashMap<Tile, (usize, usize)> = HashMap::new();
        for (t, u) in frame.real_units(p) {
            let letter = if p == Player::One { LETTERS[t] } else { LETTERS[t].to_ascii_lowercase() };
            if t < 3 {
                let mark = if marked.contains(&u.id) {
                    'x'
                } else if upgraded.contains(&u.id) {
                    '+'
                } else {
                    ' '
                };
                cells.insert(u.tile, [letter, mark]);
            } else {
                let e = stacks.entry(u.tile).or_insert((t, 0));
                e.1 += 1;
            }
        }
        for (tile, (t, n)) in stacks {
            let letter = if p == Player::One { LETTERS[t] } else { LETTERS[t].to_ascii_lowercase() };
            let count = if n > 9 { '*' } else { char::from_digit(n as u32, 10).unwrap_or('*') };
            cells.insert(tile, [letter, count]);
        }
    }
    cells
}

/// The diamond, row 27 (player 2's back) at the top, with x and y labels.
pub(crate) fn render_board(frame: &Frame) -> String {
    let cells = tile_cells(frame);
    let mut out = String::new();
    let header: String = (0..BOARD_SIZE).map(|x| format!("{:<2}", x % 10)).collect();
    let _ = writeln!(out, "    {}", header.trim_end());
    for y in (0..BOARD_SIZE).rev() {
        let mut row = String::new();
        for x in 0..BOARD_SIZE {
            if !in_play(x, y) {
                row.push_str("  ");
                continue;
            }
            let [a, b] = cells.get(&Tile::new(x, y)).copied().unwrap_or(['.', ' ']);
            row.push(a);
            row.push(b);
        }
        let _ = writeln!(out, "{y:>2}  {}", row.trim_end());
    }
    out
}

pub(crate) fn stats_line(frame: &Frame) -> String {
    let ti = &frame.turn_info;
    let phase = match ti.phase {
        Phase::Deploy => "turn frame".to_string(),
        Phase::Action => format!("action frame {}", ti.action_frame),
        Phase::End => "end".to_string(),
    };
    let s = |p: Player| {
        let st = frame.stats_of(p);
        format!("P{}  HP {:.1}  SP {:.1}  MP {:.1}", p.number(), st.hp, st.sp, st.mp)
    };
    format!("turn {} {phase}  |  {}  |  {}", ti.turn, s(Player::One), s(Player::Two))
}

/// One line per kind of event present, with counts and the notable ones spelled out.
pub(crate) fn events_summary(events: &Events) -> Vec<String> {
    let mut lines = Vec::new();
    let count = |name: &str, n: usize, lines: &mut Vec<String>| {
        if n > 0 {
            lines.push(format!("{name}: {n}"));
        }
    };
    count("spawns", events.spawn.len(), &mut lines);
    count("moves", events.moves.len(), &mut lines);
    count("shields", events.shield.len(), &mut lines);
    count("attacks", events.attack.len(), &mut lines);
    count("damage events", events.damage.len(), &mut lines);
    for b in &events.breach {
        lines.push(format!("breach by P{} at {} ({} damage)", b.owner.number(), b.tile, b.damage));
    }
    for s in &events.self_destruct {
        lines.push(format!(
            "self-destruct of P{} unit {} at {} hitting {} units",
            s.owner.number(),
            s.id,
            s.tile,
            s.victims.len()
        ));
    }
    for d in &events.death {
        let how = if d.removed { "removed" } else { "died" };
        lines.push(format!(
            "P{} {} {} {how} at {}",
            d.owner.number(),
            LETTERS.get(d.unit_type as usize).copied().unwrap_or('?'),
            d.id,
            d.tile
        ));
    }
    if lines.is_empty() {
        lines.push("no events".into());
    }
    lines
}

/// Board, legend, stats and events of a frame.
pub fn render_frame(frame: &Frame) -> String {
    let mut out = render_board(frame);
    out.push('\n');
    out.push_str(LEGEND);
    out.push_str("\n\n");
    out.push_str(&stats_line(frame));
    out.push('\n');
    for l in events_summary(&frame.events) {
        out.push_str("  ");
        out.push_str(&l);
        out.push('\n');
    }
    out
}
