//! What one mobile unit deployed on an edge tile would go through on its way: the engine
//! itself runs the action phase with the board's structures (both players) and that single
//! unit, so targeting, shield timing, speed, a Demolisher shooting structures down and
//! upgraded Turrets are exact by construction. Pure functions of (board, config, tile).

use super::Layout;
use crate::engine::config::{Config, DEMOLISHER, INTERCEPTOR, SCOUT};
use crate::engine::frame::{Events, Frame};
use crate::engine::geometry::{Edge, Player, Tile};
use crate::engine::unit::Unit;
use crate::engine::{Command, CommandKind, Game};
use std::sync::Arc;

/// The mobile unit types whose threat is computed, in the order shown.
pub const MOBILE_TYPES: [usize; 3] = [SCOUT, DEMOLISHER, INTERCEPTOR];

/// Safety bound on action frames (a unit of speed 0 would never arrive).
const MAX_FRAMES: usize = 2000;

/// The threat along the path from one edge tile, for each mobile type.
#[derive(Clone, Debug, PartialEq)]
pub struct PathThreat {
    pub start: Tile,
    pub owner: Player,
    /// The predicted path on the board as it stands (start tile included).
    pub path: Vec<Tile>,
    /// One entry per type of [`MOBILE_TYPES`] that the config has.
    pub units: Vec<UnitThreat>,
}

/// What a single unit of one type went through.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitThreat {
    pub unit_type: usize,
    pub start_health: f32,
    /// Sum of every hit it took (the killing hit counted in full).
    pub damage_taken: f32,
    /// Sum of the shields its owner's Supports gave it.
    pub shield_received: f32,
    /// Per enemy attacker that hit it, in the order of their first hit.
    pub hits: Vec<AttackerHits>,
    /// Per Support that shielded it, in grant order.
    pub shields: Vec<ShieldGrant>,
    /// Where it stood and its health after each action frame it lived through.
    pub trace: Vec<TraceStep>,
    pub end: ThreatEnd,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AttackerHits {
    pub tile: Tile,
    pub attacker_type: u8,
    pub hits: u32,
    pub damage: f32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShieldGrant {
    pub support: Tile,
    pub amount: f32,
    pub frame: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TraceStep {
    pub frame: usize,
    pub tile: Tile,
    pub health: f32,
}

/// How the unit's walk ends. `steps` counts the tiles it moved; `frame` is the action frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ThreatEnd {
    /// Reached the target edge and scored, with this much health left.
    Breach { tile: Tile, frame: usize, steps: u32, health: f32 },
    /// Stopped short of the target edge and exploded, with this much health left.
    SelfDestruct { tile: Tile, frame: usize, steps: u32, health: f32 },
    /// Shot down.
    Killed { tile: Tile, frame: usize, steps: u32 },
    /// Still on the board after the frame bound (a unit that never moves).
    Stalled { tile: Tile, health: f32 },
}

impl ThreatEnd {
    pub fn tile(&self) -> Tile {
        match *self {
            ThreatEnd::Breach { tile, .. }
            | ThreatEnd::SelfDestruct { tile, .. }
            | ThreatEnd::Killed { tile, .. }
            | ThreatEnd::Stalled { tile, .. } => tile,
        }
    }

    pub fn is_killed(&self) -> bool {
        matches!(self, ThreatEnd::Killed { .. })
    }
}

/// The threat along the path from `start` on an editor layout (structure health is the
/// layout's fraction of the form's start health). `None` if `start` is not a free edge tile.
pub fn from_layout(layout: &Layout, config: &Arc<Config>, start: Tile) -> Option<PathThreat> {
    let mut board = Game::new(Arc::clone(config));
    for (&tile, s) in &layout.structures {
        let unit_type = s.kind.unit_type();
        let health = config.form(unit_type, s.upgraded).start_health * s.health.clamp(0.0, 1.0);
        let mut unit = Unit::new_structure(board.next_id, unit_type as u8, tile.owner_half(), tile, health);
        unit.upgraded = s.upgraded;
        board.next_id += 1;
        board.insert_unit(unit);
    }
    along_path(&board, start)
}

/// The threat along the path from `start` on a replay frame's board: its structures with
/// their ids, health and upgrades; its mobile units are left out.
pub fn from_frame(frame: &Frame, config: &Arc<Config>, start: Tile) -> Option<PathThreat> {
    let max_id = crate::verify::rebuild::max_id_in(frame);
    let rebuilt = crate::verify::rebuild::game_from_turn_frame(config, frame, max_id).ok()?;
    let mut board = Game::new(Arc::clone(config));
    board.next_id = rebuilt.next_id;
    for unit in rebuilt.units.into_iter().filter(|u| u.is_structure) {
        board.insert_unit(unit);
    }
    along_path(&board, start)
}

/// Runs one unit of each mobile type from `start` on a copy of `board` (structures only).
fn along_path(board: &Game, start: Tile) -> Option<PathThreat> {
    let owner = Edge::ALL.into_iter().find(|e| e.contains(start))?.owner();
    let mut board = board.clone();
    let path = board.pathfinder().deploy_path(start)?;
    let config = Arc::clone(&board.config);
    let units = MOBILE_TYPES
        .into_iter()
        .filter(|&t| config.units.get(t).is_some_and(|u| !u.is_structure))
        .filter_map(|t| walk(&board, owner, start, t))
        .collect();
    Some(PathThreat { start, owner, path, units })
}

/// Deploys one unit of `unit_type` for `owner` on `start` and plays the action phase.
fn walk(board: &Game, owner: Player, start: Tile, unit_type: usize) -> Option<UnitThreat> {
    let mut game = board.clone();
    let config = Arc::clone(&game.config);
    let stats = config.unit(unit_type);
    // The deploy goes through the engine's own checks; it is given exactly its price.
    let resources = &mut game.player_mut(owner).stats;
    resources.mp = resources.mp.max(stats.cost_mp);
    resources.sp = resources.sp.max(stats.cost_sp);
    game.apply_command(owner, Command { kind: CommandKind::Spawn(unit_type as u8), tile: start }).ok()?;
    let id = game.next_id - 1;
    let mut last = game.unit_by_id(id)?.clone();
    let mut threat = UnitThreat {
        unit_type,
        start_health: last.health,
        damage_taken: 0.0,
        shield_received: 0.0,
        hits: Vec::new(),
        shields: Vec::new(),
        trace: Vec::new(),
        end: ThreatEnd::Stalled { tile: start, health: last.health },
    };
    for frame in 0..MAX_FRAMES {
        let events = game.action_frame().events;
        threat.record(&events, id, frame);
        match game.unit_by_id(id) {
            Some(u) => {
                threat.trace.push(TraceStep { frame, tile: u.tile, health: u.health });
                last = u.clone();
            }
            None => {
                threat.end = final_tick(&game, &last, &events, frame);
                return Some(threat);
            }
        }
    }
    threat.end = ThreatEnd::Stalled { tile: last.tile, health: last.health };
    Some(threat)
}

impl UnitThreat {
    /// Adds one frame's hits and shields on unit `id`.
    fn record(&mut self, events: &Events, id: u32, frame: usize) {
        for a in events.attack.iter().filter(|a| a.target_id == id) {
            self.damage_taken += a.damage;
            match self.hits.iter_mut().find(|h| h.tile == a.from) {
                Some(h) => {
                    h.hits += 1;
                    h.damage += a.damage;
                }
                None => self.hits.push(AttackerHits {
                    tile: a.from,
                    attacker_type: a.attacker_type,
                    hits: 1,
                    damage: a.damage,
                }),
            }
        }
        for s in events.shield.iter().filter(|s| s.target_id == id) {
            self.shield_received += s.amount;
            self.shields.push(ShieldGrant { support: s.from, amount: s.amount, frame });
        }
    }
}

/// How the unit left the board in this frame's tick. The engine removes it before the frame
/// is seen, so its last tick is replayed on the copy `last` from the frame before: the same
/// move, shield decay, shields and hits, in the engine's order.
fn final_tick(game: &Game, last: &Unit, events: &Events, frame: usize) -> ThreatEnd {
    let id = last.id;
    let config = &game.config;
    let mut unit = last.clone();
    if let Some(m) = events.moves.iter().find(|m| m.id == id) {
        unit.tile = m.to;
        unit.steps += 1;
    }
    if config.reach.any_shield_decay {
        unit.decay_shields();
    }
    for s in events.shield.iter().filter(|s| s.target_id == id) {
        let decay = game
            .unit_by_id(s.support_id)
            .map_or(config.unit(s.support_type as usize), |u| config.form(u.unit_type as usize, u.upgraded))
            .shield_decay;
        unit.add_shield(s.amount, decay);
    }
    let (tile, steps) = (unit.tile, unit.steps);
    if events.breach.iter().any(|b| b.id == id) {
        return ThreatEnd::Breach { tile, frame, steps, health: unit.health };
    }
    for d in events.damage.iter().filter(|d| d.id == id) {
        unit.take_damage(d.damage);
    }
    if unit.is_dead() {
        let tile = events.death.iter().find(|d| d.id == id).map_or(tile, |d| d.tile);
        ThreatEnd::Killed { tile, frame, steps }
    } else {
        ThreatEnd::SelfDestruct { tile, frame, steps, health: unit.health }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::{SUPPORT, TURRET};
    use crate::engine::presets::preset;
    use crate::layout::Kind;

    fn base() -> Arc<Config> {
        Arc::new(preset("base-s6").expect("preset"))
    }

    fn unit(threat: &PathThreat, unit_type: usize) -> &UnitThreat {
        threat.units.iter().find(|u| u.unit_type == unit_type).expect("type simulated")
    }

    /// The tiles of the path with squared distance ≤ 6 to the turret (range 2.5 + radius 0.01).
    fn tiles_in_reach(threat: &PathThreat, turret: Tile) -> Vec<Tile> {
        threat.path.iter().copied().filter(|t| t.dist2(turret) <= 6).collect()
    }

    #[test]
    fn no_turret_in_reach_means_full_health_at_the_breach() {
        let config = base();
        let threat = from_layout(&Layout::default(), &config, Tile::new(13, 0)).expect("free edge tile");
        assert_eq!(threat.owner, Player::One);
        assert_eq!(threat.units.len(), 3);
        for u in &threat.units {
            assert_eq!(u.damage_taken, 0.0);
            assert!(u.hits.is_empty());
            let full = config.unit(u.unit_type).start_health;
            match u.end {
                ThreatEnd::Breach { tile, health, steps, .. } => {
                    assert_eq!(health, full);
                    assert_eq!(Some(&tile), threat.path.last());
                    assert_eq!(steps as usize, threat.path.len() - 1);
                }
                other => panic!("type {}: {other:?}", u.unit_type),
            }
        }
    }

    #[test]
    fn one_turret_beside_the_path_hits_once_per_frame_in_reach() {
        let config = base();
        // From (13,0) on an open board the path zigzags up-right, one tile right then one up,
        // from (13,1) to (25,13), (26,13), (26,14) and breaches on (27,14). A base Turret
        // (5 damage, reach² 6) on (24,15) reaches (25,13) and (26,14) (d² 5), not (26,13) nor
        // (27,14) (d² 8, 10).
        let turret = Tile::new(24, 15);
        let mut layout = Layout::default();
        layout.place(Player::Two, turret, Kind::Turret);
        let threat = from_layout(&layout, &config, Tile::new(13, 0)).expect("free edge tile");
        let in_reach = tiles_in_reach(&threat, turret);
        assert_eq!(in_reach, vec![Tile::new(25, 13), Tile::new(26, 14)]);
        // A Scout (speed 1, 15 health) stands on each path tile for one frame: 2 hits of 5.
        let scout = unit(&threat, SCOUT);
        assert_eq!(scout.damage_taken, 10.0);
        assert_eq!(scout.hits, vec![AttackerHits { tile: turret, attacker_type: TURRET as u8, hits: 2, damage: 10.0 }]);
        assert!(matches!(scout.end, ThreatEnd::Breach { health, .. } if health == 5.0), "{:?}", scout.end);
        // An Interceptor (speed 0.25, 40 health) stands 4 frames on each: 8 hits of 5, the
        // last one on (26,14) kills it.
        let interceptor = unit(&threat, INTERCEPTOR);
        assert_eq!(interceptor.damage_taken, 40.0);
        // A Demolisher (speed 0.5, 5 health) dies to the first hit, on the first tile in reach.
        let demolisher = unit(&threat, DEMOLISHER);
        match demolisher.end {
            ThreatEnd::Killed { tile, steps, .. } => {
                assert_eq!(tile, in_reach[0]);
                assert_eq!(Some(steps as usize), threat.path.iter().position(|t| *t == tile));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(demolisher.damage_taken, 5.0);
        match interceptor.end {
            ThreatEnd::Killed { tile, .. } => assert_eq!(tile, in_reach[1]),
            other => panic!("40 damage kills 40 health: {other:?}"),
        }
    }

    #[test]
    fn a_support_on_the_way_shields_once_and_the_scout_keeps_it() {
        let config = base();
        let turret = Tile::new(24, 15);
        let mut layout = Layout::default();
        layout.place(Player::Two, turret, Kind::Turret);
        // A base Support (3 shield, reach² 12) beside the path's first tiles, off the path.
        layout.place(Player::One, Tile::new(12, 2), Kind::Support);
        let threat = from_layout(&layout, &config, Tile::new(13, 0)).expect("free edge tile");
        assert_eq!(tiles_in_reach(&threat, turret), vec![Tile::new(25, 13), Tile::new(26, 14)], "same path");
        let scout = unit(&threat, SCOUT);
        let amount = config.form(SUPPORT, false).shield_amount(2);
        assert_eq!(amount, 3.0);
        assert_eq!(scout.shield_received, 3.0);
        assert_eq!(scout.shields.len(), 1, "each Support shields a unit once");
        assert_eq!(scout.damage_taken, 10.0);
        assert!(matches!(scout.end, ThreatEnd::Breach { health, .. } if health == 15.0 + 3.0 - 10.0));
        // The Interceptor's 40 + 3 now outlasts the 8 hits of 5.
        let interceptor = unit(&threat, INTERCEPTOR);
        assert!(matches!(interceptor.end, ThreatEnd::Breach { health, .. } if health == 3.0), "{:?}", interceptor.end);
    }

    #[test]
    fn a_blocked_or_inner_tile_has_no_threat() {
        let config = base();
        let mut layout = Layout::default();
        layout.place(Player::One, Tile::new(13, 0), Kind::Wall);
        assert!(from_layout(&layout, &config, Tile::new(13, 0)).is_none(), "walled edge tile");
        assert!(from_layout(&layout, &config, Tile::new(13, 5)).is_none(), "not an edge tile");
    }

    #[test]
    fn a_frame_board_keeps_its_structures_and_ignores_its_mobile_units() {
        let config = base();
        let turret = Tile::new(24, 15);
        let mut layout = Layout::default();
        layout.place(Player::Two, turret, Kind::Turret);
        let expected = from_layout(&layout, &config, Tile::new(13, 0)).expect("free edge tile");
        let mut game = Game::new(Arc::clone(&config));
        game.apply_command(Player::Two, Command::spawn(TURRET, turret.x, turret.y)).expect("affordable");
        // An enemy Scout walking down the same diagonal would shoot ours if it were kept.
        game.apply_command(Player::Two, Command::spawn(SCOUT, 27, 14)).expect("an edge tile");
        let frame = game.turn_frame();
        assert!(frame.real_units(Player::Two).any(|(kind, _)| kind >= 3), "the Scout is on the board");
        let threat = from_frame(&frame, &config, Tile::new(13, 0)).expect("free edge tile");
        assert_eq!(threat.units, expected.units);
    }
}
