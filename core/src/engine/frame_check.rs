//! Checking a frame read from outside (a replay file, a Python caller, a live match) against
//! its ruleset before the engine is built from it: every tile on the board and structures on
//! their owner's half, no more unit lists than the era has, finite figures, unique ids, removal
//! marks and upgrades that name a structure. The engine indexes its board by tile and trusts
//! these; a frame that lies is refused here with the field and the value, never a panic later.

use super::config::{Config, REMOVE, UNIT_TYPES, UPGRADE};
use super::frame::{Frame, Phase, UNIT_LISTS};
use super::game::TURN_LIMIT;
use super::geometry::{CELLS, Player, Tile};
use std::fmt;

/// Ids above this are refused: the engine numbers new units upwards from the highest id.
pub(crate) const MAX_ID: u32 = 1 << 30;
/// `timeMs` above this (about 49 days) is refused: the engine sums it over the turns.
pub(crate) const MAX_TIME_MS: i64 = u32::MAX as i64;
/// `totalFrame` above this is refused: the engine counts frames onwards from it.
pub(crate) const MAX_FRAME_NUMBER: i64 = i32::MAX as i64;
/// A removal mark's turns left above this is refused.
pub(crate) const MAX_TURNS_LEFT: f32 = TURN_LIMIT as f32;

/// Where a frame sits in its match, as its `turnInfo` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FramePlace {
    pub turn: i32,
    pub phase: Phase,
    pub action_frame: i32,
}

impl fmt::Display for FramePlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.phase {
            Phase::Deploy => write!(f, "turn {}, turn frame", self.turn),
            Phase::Action => write!(f, "turn {}, action frame {}", self.turn, self.action_frame),
            Phase::End => write!(f, "end frame (turn {})", self.turn),
        }
    }
}

/// What is wrong with one field of a frame.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FrameProblem {
    #[error("turn {0} is outside 0–{limit}", limit = TURN_LIMIT)]
    TurnOutOfRange(i32),
    #[error("frame number {0} is outside 0–{limit}", limit = MAX_FRAME_NUMBER)]
    FrameNumberOutOfRange(i64),
    #[error("turnInfo has {found} numbers; a frame of this ruleset has {expected}")]
    TurnInfoLength { found: usize, expected: usize },
    #[error("{0} is not a finite number")]
    NotFinite(f32),
    #[error("time {0} ms is outside 0–{limit}", limit = MAX_TIME_MS)]
    TimeOutOfRange(i64),
    #[error("{found} unit lists; a frame of this ruleset has at most {expected}")]
    ListCount { found: usize, expected: usize },
    #[error("tile {0} is off the board")]
    OffBoard(Tile),
    #[error("a structure of player {} on {tile}, on player {}'s half", .owner.number(), .tile.owner_half().number())]
    WrongHalf { tile: Tile, owner: Player },
    #[error("health {0} is negative")]
    NegativeHealth(f32),
    #[error("id {0} is above {limit}", limit = MAX_ID)]
    IdOutOfRange(u32),
    #[error("id {0} is listed twice")]
    DuplicateId(u32),
    #[error("a second structure on {0}")]
    Stacked(Tile),
    #[error("{0} turns left to removal is outside 0–{limit}", limit = MAX_TURNS_LEFT)]
    TurnsLeftOutOfRange(f32),
    #[error("removal mark {id} on {tile} names no structure of its player")]
    MarkWithoutStructure { id: u32, tile: Tile },
    #[error("upgrade {id} on {tile} names no structure of its player")]
    UpgradeWithoutStructure { id: u32, tile: Tile },
}

/// A frame that cannot be a state of a game under its ruleset: where, which field, what.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{place}: field `{field}`: {problem}")]
pub struct FrameError {
    pub place: FramePlace,
    /// The JSON path of the field, as in the replay (`p1Units[0][3]`, `events.move[2]`).
    pub field: String,
    pub problem: FrameProblem,
}

/// Checks `frame` against `config`; the first problem found is returned.
pub fn check_frame(config: &Config, frame: &Frame) -> Result<(), FrameError> {
    let ti = frame.turn_info;
    let place = FramePlace { turn: ti.turn, phase: ti.phase, action_frame: ti.action_frame };
    let fail = |field: String, problem: FrameProblem| FrameError { place, field, problem };
    if !(0..=TURN_LIMIT).contains(&ti.turn) {
        return Err(fail("turnInfo[1]".into(), FrameProblem::TurnOutOfRange(ti.turn)));
    }
    // The 2018–2019 engines wrote three numbers, the later ones four (with `totalFrame`).
    let (found, expected) = (3 + ti.total_frame.is_some() as usize, if config.legacy { 3 } else { 4 });
    if found < expected {
        return Err(fail("turnInfo".into(), FrameProblem::TurnInfoLength { found, expected }));
    }
    if let Some(n) = ti.total_frame.filter(|n| !(0..=MAX_FRAME_NUMBER).contains(n)) {
        return Err(fail("turnInfo[3]".into(), FrameProblem::FrameNumberOutOfRange(n)));
    }
    for (p, s) in frame.stats.iter().enumerate() {
        let key = ["p1Stats", "p2Stats"][p];
        for (i, v) in [s.hp, s.sp, s.mp].into_iter().enumerate() {
            if !v.is_finite() {
                return Err(fail(format!("{key}[{i}]"), FrameProblem::NotFinite(v)));
            }
        }
        if !(0..=MAX_TIME_MS).contains(&s.time_ms) {
            return Err(fail(format!("{key}[3]"), FrameProblem::TimeOutOfRange(s.time_ms)));
        }
    }
    ROOM.with_borrow_mut(|room| check_units(config, frame, room))
        .map_err(|(spot, problem)| fail(spot.path(), problem))?;
    check_events(frame).map_err(|(spot, problem)| fail(spot.path(), problem))
}

/// Where in a frame a problem is: spelled out as a JSON path only when one is reported
/// (the reader checks every frame of every replay).
#[derive(Debug, Clone, Copy)]
enum Spot {
    Units { player: usize },
    Unit { player: usize, list: usize, entry: usize, part: Option<usize> },
    Event { name: &'static str, index: usize },
}

impl Spot {
    fn unit(player: Player, list: usize, entry: usize) -> Spot {
        Spot::Unit { player: player.index(), list, entry, part: None }
    }

    fn part(self, part: usize) -> Spot {
        match self {
            Spot::Unit { player, list, entry, .. } => Spot::Unit { player, list, entry, part: Some(part) },
            other => other,
        }
    }

    fn path(self) -> String {
        let key = |player: usize| ["p1Units", "p2Units"][player];
        match self {
            Spot::Units { player } => key(player).to_string(),
            Spot::Unit { player, list, entry, part: None } => format!("{}[{list}][{entry}]", key(player)),
            Spot::Unit { player, list, entry, part: Some(k) } => format!("{}[{list}][{entry}][{k}]", key(player)),
            Spot::Event { name, index } => format!("events.{name}[{index}]"),
        }
    }
}

type Found = (Spot, FrameProblem);

/// Ids below this are looked up in [`Room::marks`], a table of one byte per id; a frame with
/// a higher id (real replays stay under 2,000) is checked by sorting its ids.
const MARKED_IDS: u32 = 1 << 16;

/// What checking a frame's units needs, kept from frame to frame (the reader checks every
/// frame of every replay): no allocation per frame.
struct Room {
    /// Per tile: the player owning the structure there, plus one (0 = none); all 0 between
    /// frames.
    structure_owner: [u8; CELLS],
    ids: Vec<u32>,
    structures: Vec<(u32, Player, Tile)>,
    /// Per id: `LISTED`, and `STRUCTURE << player index` for a structure; all 0 between frames.
    marks: Vec<u8>,
}

const LISTED: u8 = 1;
const STRUCTURE: u8 = 2;

thread_local! {
    static ROOM: std::cell::RefCell<Room> = const {
        std::cell::RefCell::new(Room { structure_owner: [0; CELLS], ids: Vec::new(), structures: Vec::new(), marks: Vec::new() })
    };
}

fn check_units(config: &Config, frame: &Frame, room: &mut Room) -> Result<(), Found> {
    room.ids.clear();
    room.structures.clear();
    let result = check_units_in(config, frame, room);
    for &(_, _, tile) in &room.structures {
        room.structure_owner[tile.index()] = 0;
    }
    result
}

fn check_units_in(config: &Config, frame: &Frame, room: &mut Room) -> Result<(), Found> {
    let lists_expected = if config.legacy { UNIT_LISTS - 1 } else { UNIT_LISTS };
    let Room { structure_owner, ids, structures, marks } = room;
    for p in Player::both() {
        let lists = frame.units_of(p);
        // Missing lists are empty (the reader's rule); a list beyond the era's would hold
        // units of a type the ruleset does not have.
        if lists.len() > lists_expected {
            return Err((
                Spot::Units { player: p.index() },
                FrameProblem::ListCount { found: lists.len(), expected: lists_expected },
            ));
        }
        for (t, list) in lists.iter().enumerate().take(UNIT_TYPES) {
            let is_structure = config.unit(t).is_structure;
            for (j, e) in list.iter().enumerate() {
                let field = Spot::unit(p, t, j);
                check_entry(e, field)?;
                if e.health < 0.0 {
                    return Err((field, FrameProblem::NegativeHealth(e.health)));
                }
                if is_structure {
                    if !p.owns(e.tile) {
                        return Err((field, FrameProblem::WrongHalf { tile: e.tile, owner: p }));
                    }
                    let cell = &mut structure_owner[e.tile.index()];
                    if *cell != 0 {
                        return Err((field, FrameProblem::Stacked(e.tile)));
                    }
                    *cell = p.number();
                    structures.push((e.id, p, e.tile));
                }
                ids.push(e.id);
            }
        }
    }
    if ids.iter().all(|&id| id < MARKED_IDS) {
        let needed = ids.iter().max().map_or(0, |&id| id as usize + 1);
        if marks.len() < needed {
            marks.resize(needed, 0);
        }
        let mut duplicate = false;
        for &id in ids.iter() {
            duplicate |= marks[id as usize] & LISTED != 0;
            marks[id as usize] |= LISTED;
        }
        for &(id, p, _) in structures.iter() {
            marks[id as usize] |= STRUCTURE << p.index();
        }
        let result = if duplicate {
            Err(first_duplicate(frame, ids))
        } else {
            let owns_structure =
                |id: u32, p: Player| marks.get(id as usize).is_some_and(|m| m & (STRUCTURE << p.index()) != 0);
            check_marks(config, frame, structure_owner, owns_structure)
        };
        for &id in ids.iter() {
            marks[id as usize] = 0;
        }
        return result;
    }
    ids.sort_unstable();
    if ids.windows(2).any(|w| w[0] == w[1]) {
        return Err(first_duplicate(frame, ids));
    }
    let mut by_id: Vec<(u32, Player)> = structures.iter().map(|&(id, p, _)| (id, p)).collect();
    by_id.sort_unstable_by_key(|&(id, _)| id);
    let owns_structure =
        |id: u32, p: Player| by_id.binary_search_by_key(&id, |&(id, _)| id).is_ok_and(|i| by_id[i].1 == p);
    check_marks(config, frame, structure_owner, owns_structure)
}

/// The smallest id listed twice, and where its second entry is.
fn first_duplicate(frame: &Frame, ids: &mut [u32]) -> Found {
    ids.sort_unstable();
    let id = ids.windows(2).find(|w| w[0] == w[1]).map_or(0, |w| w[0]);
    let field = second_entry_with_id(frame, id).unwrap_or(Spot::Units { player: 0 });
    (field, FrameProblem::DuplicateId(id))
}

/// Removal marks and upgrades: on their player's half, naming a structure of that player
/// (`owns_structure`; a 2018–2019 mark, on the tile of one: `structure_owner`).
fn check_marks(
    config: &Config,
    frame: &Frame,
    structure_owner: &[u8; CELLS],
    owns_structure: impl Fn(u32, Player) -> bool,
) -> Result<(), Found> {
    for p in Player::both() {
        let lists = frame.units_of(p);
        for (j, e) in lists.get(REMOVE).into_iter().flatten().enumerate() {
            let field = Spot::unit(p, REMOVE, j);
            check_entry(e, field)?;
            if !p.owns(e.tile) {
                return Err((field, FrameProblem::WrongHalf { tile: e.tile, owner: p }));
            }
            // A 2018–2019 mark is a unit of its own on the structure's tile; a later one
            // carries the structure's id and the turns left in its health.
            let names_structure = if config.legacy {
                structure_owner[e.tile.index()] == p.number()
            } else {
                if !(0.0..=MAX_TURNS_LEFT).contains(&e.health) {
                    return Err((field, FrameProblem::TurnsLeftOutOfRange(e.health)));
                }
                owns_structure(e.id, p)
            };
            if !names_structure {
                return Err((field, FrameProblem::MarkWithoutStructure { id: e.id, tile: e.tile }));
            }
        }
        for (j, e) in lists.get(UPGRADE).into_iter().flatten().enumerate() {
            let field = Spot::unit(p, UPGRADE, j);
            check_entry(e, field)?;
            if !p.owns(e.tile) {
                return Err((field, FrameProblem::WrongHalf { tile: e.tile, owner: p }));
            }
            if !owns_structure(e.id, p) {
                return Err((field, FrameProblem::UpgradeWithoutStructure { id: e.id, tile: e.tile }));
            }
        }
    }
    Ok(())
}

/// The checks every unit list entry shares: on the board, finite health, id in range.
fn check_entry(e: &super::frame::UnitEntry, field: Spot) -> Result<(), Found> {
    if !e.tile.in_play() {
        return Err((field, FrameProblem::OffBoard(e.tile)));
    }
    if !e.health.is_finite() {
        return Err((field.part(2), FrameProblem::NotFinite(e.health)));
    }
    if e.id > MAX_ID {
        return Err((field.part(3), FrameProblem::IdOutOfRange(e.id)));
    }
    Ok(())
}

/// The second unit list entry (of types 0–5) carrying `id`, for naming a duplicate.
fn second_entry_with_id(frame: &Frame, id: u32) -> Option<Spot> {
    let mut seen = false;
    for p in Player::both() {
        for (t, list) in frame.units_of(p).iter().enumerate().take(UNIT_TYPES) {
            for (j, e) in list.iter().enumerate() {
                if e.id == id {
                    if seen {
                        return Some(Spot::unit(p, t, j));
                    }
                    seen = true;
                }
            }
        }
    }
    None
}

/// Event tiles on the board, ids in range, figures finite: the viewer draws them and the
/// rebuild reads the spawns as the turn's commands.
fn check_events(frame: &Frame) -> Result<(), Found> {
    let ev = &frame.events;
    let tiles = |field: Spot, tiles: &[Tile], id: u32, figure: f32| -> Result<(), Found> {
        if let Some(&t) = tiles.iter().find(|t| !t.in_play()) {
            return Err((field, FrameProblem::OffBoard(t)));
        }
        if id > MAX_ID {
            return Err((field, FrameProblem::IdOutOfRange(id)));
        }
        if !figure.is_finite() {
            return Err((field, FrameProblem::NotFinite(figure)));
        }
        Ok(())
    };
    let field = |name: &'static str, index: usize| Spot::Event { name, index };
    for (i, e) in ev.spawn.iter().enumerate() {
        tiles(field("spawn", i), &[e.tile], e.id, 0.0)?;
    }
    for (i, e) in ev.moves.iter().enumerate() {
        tiles(field("move", i), &[e.from, e.to], e.id, 0.0)?;
    }
    for (i, e) in ev.attack.iter().enumerate() {
        tiles(field("attack", i), &[e.from, e.to], e.attacker_id.max(e.target_id), e.damage)?;
    }
    for (i, e) in ev.damage.iter().enumerate() {
        tiles(field("damage", i), &[e.tile], e.id, e.damage)?;
    }
    for (i, e) in ev.death.iter().enumerate() {
        tiles(field("death", i), &[e.tile], e.id, 0.0)?;
    }
    for (i, e) in ev.shield.iter().enumerate() {
        tiles(field("shield", i), &[e.from, e.to], e.support_id.max(e.target_id), e.amount)?;
    }
    for (i, e) in ev.breach.iter().enumerate() {
        tiles(field("breach", i), &[e.tile], e.id, e.damage)?;
    }
    for (i, e) in ev.self_destruct.iter().enumerate() {
        tiles(field("selfDestruct", i), &[e.tile], e.id, e.damage)?;
        tiles(field("selfDestruct", i), &e.victims, e.id, 0.0)?;
    }
    for (i, e) in ev.melee.iter().enumerate() {
        tiles(field("melee", i), &[e.from, e.to], e.id, e.damage)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::frame::{TurnInfo, UnitEntry};

    fn config() -> Config {
        crate::engine::presets::preset("live-2022").expect("the live-2022 preset")
    }

    fn turn_frame(config: &Config) -> Frame {
        let lists = if config.legacy { UNIT_LISTS - 1 } else { UNIT_LISTS };
        let mut f = Frame {
            turn_info: TurnInfo { phase: Phase::Deploy, turn: 1, action_frame: -1, total_frame: Some(9) },
            ..Frame::default()
        };
        f.units = [vec![Vec::new(); lists], vec![Vec::new(); lists]];
        f
    }

    #[test]
    fn a_structure_off_the_board_is_named_with_its_field_and_tile() {
        let config = config();
        let mut f = turn_frame(&config);
        f.units[0][0].push(UnitEntry { tile: Tile::new(40, 40), health: 60.0, id: 7 });
        let e = check_frame(&config, &f).expect_err("a tile off the board");
        assert_eq!(e.field, "p1Units[0][0]");
        assert_eq!(e.problem, FrameProblem::OffBoard(Tile::new(40, 40)));
        assert_eq!(e.to_string(), "turn 1, turn frame: field `p1Units[0][0]`: tile [40,40] is off the board");
    }

    #[test]
    fn a_structure_on_the_other_half_and_a_stacked_one_are_refused() {
        let config = config();
        let mut f = turn_frame(&config);
        f.units[1][2].push(UnitEntry { tile: Tile::new(13, 3), health: 60.0, id: 7 });
        let e = check_frame(&config, &f).expect_err("wrong half");
        assert_eq!(e.problem, FrameProblem::WrongHalf { tile: Tile::new(13, 3), owner: Player::Two });
        let mut f = turn_frame(&config);
        f.units[0][0].push(UnitEntry { tile: Tile::new(13, 3), health: 60.0, id: 7 });
        f.units[0][2].push(UnitEntry { tile: Tile::new(13, 3), health: 60.0, id: 8 });
        assert_eq!(check_frame(&config, &f).map_err(|e| e.problem), Err(FrameProblem::Stacked(Tile::new(13, 3))));
    }

    #[test]
    fn figures_lists_ids_and_marks_are_checked() {
        let config = config();
        let entry = |id| UnitEntry { tile: Tile::new(13, 3), health: 60.0, id };
        type Mutate = Box<dyn Fn(&mut Frame)>;
        let cases: Vec<(Mutate, FrameProblem)> = vec![
            (Box::new(|f| f.stats[1].mp = f32::NAN), FrameProblem::NotFinite(f32::NAN)),
            (Box::new(|f| f.stats[0].time_ms = -1), FrameProblem::TimeOutOfRange(-1)),
            (Box::new(|f| f.turn_info.total_frame = None), FrameProblem::TurnInfoLength { found: 3, expected: 4 }),
            (Box::new(|f| f.turn_info.turn = 1000), FrameProblem::TurnOutOfRange(1000)),
            (Box::new(|f| f.units[0].push(Vec::new())), FrameProblem::ListCount { found: 9, expected: 8 }),
            (
                Box::new(move |f| {
                    f.units[0][0].push(entry(4));
                    f.units[1][3].push(UnitEntry { tile: Tile::new(13, 20), ..entry(4) });
                }),
                FrameProblem::DuplicateId(4),
            ),
            (
                Box::new(move |f| f.units[0][REMOVE].push(UnitEntry { health: 1.0, ..entry(5) })),
                FrameProblem::MarkWithoutStructure { id: 5, tile: Tile::new(13, 3) },
            ),
            (
                Box::new(move |f| f.units[0][4].push(UnitEntry { health: -3.0, ..entry(5) })),
                FrameProblem::NegativeHealth(-3.0),
            ),
        ];
        for (mutate, want) in cases {
            let mut f = turn_frame(&config);
            mutate(&mut f);
            let got = check_frame(&config, &f).expect_err("a lying frame").problem;
            // NaN is not equal to itself: compare the words.
            assert_eq!(got.to_string(), want.to_string());
        }
    }

    #[test]
    fn an_empty_turn_frame_and_a_marked_structure_pass() {
        let config = config();
        let mut f = turn_frame(&config);
        assert_eq!(check_frame(&config, &f), Ok(()));
        f.units[0][0].push(UnitEntry { tile: Tile::new(13, 3), health: 60.0, id: 5 });
        f.units[0][REMOVE].push(UnitEntry { tile: Tile::new(13, 3), health: 1.0, id: 5 });
        f.units[0][UPGRADE].push(UnitEntry { tile: Tile::new(13, 3), health: 0.0, id: 5 });
        assert_eq!(check_frame(&config, &f), Ok(()));
    }
}
