//! What a layout does: turret coverage, support shields and predicted paths. Pure functions
//! of (layout, config), recomputed after every edit; no UI here.

use super::{Kind, Layout};
use crate::engine::config::{Config, SCOUT, reach2};
use crate::engine::geometry::{CELLS, Edge, Player, Tile};
use crate::engine::pathing::Pathfinder;

/// How a predicted path ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathEnd {
    /// Reaches the target edge and scores.
    Breach,
    /// Stops short of it and self-destructs.
    SelfDestruct,
}

/// The predicted path of a mobile unit deployed on one edge tile.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgePath {
    pub start: Tile,
    pub owner: Player,
    pub tiles: Vec<Tile>,
    pub end: PathEnd,
}

/// Everything the overlays draw, per player.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Per player, per tile: how many of the player's turrets reach a mobile unit there.
    pub coverage: [Box<[u8; CELLS]>; 2],
    /// Per player, per tile: the total shield the player's supports give a unit there.
    pub shield: [Box<[f32; CELLS]>; 2],
    /// Per player, per tile: how many supports reach the tile.
    pub shield_sources: [Box<[u8; CELLS]>; 2],
    /// One path per free edge tile (blocked edge tiles have none).
    pub paths: Vec<EdgePath>,
}

impl Analysis {
    pub fn compute(layout: &Layout, config: &Config) -> Analysis {
        let mobile_radius = config.unit(SCOUT).hit_radius;
        let mut coverage = [Box::new([0u8; CELLS]), Box::new([0u8; CELLS])];
        let mut shield = [Box::new([0f32; CELLS]), Box::new([0f32; CELLS])];
        let mut shield_sources = [Box::new([0u8; CELLS]), Box::new([0u8; CELLS])];
        let tiles: Vec<Tile> = crate::engine::geometry::all_tiles().collect();
        for (&at, s) in &layout.structures {
            let owner = at.owner_half();
            let form = config.form(s.kind.unit_type(), s.upgraded);
            if s.kind == Kind::Turret && form.can_attack() {
                let r2 = reach2(form.attack_range, mobile_radius);
                for t in &tiles {
                    if at.dist2(*t) <= r2 {
                        let c = &mut coverage[owner.index()][t.index()];
                        *c = c.saturating_add(1);
                    }
                }
            }
            if form.can_shield() {
                let r2 = reach2(form.shield_range, mobile_radius);
                let amount = form.shield_amount(owner.rows_from_back(at));
                for t in &tiles {
                    if at.dist2(*t) <= r2 {
                        shield[owner.index()][t.index()] += amount;
                        let c = &mut shield_sources[owner.index()][t.index()];
                        *c = c.saturating_add(1);
                    }
                }
            }
        }
        Analysis { coverage, shield, shield_sources, paths: edge_paths(layout) }
    }

    /// The path starting on `tile`, if it is a free edge tile.
    pub fn path_from(&self, tile: Tile) -> Option<&EdgePath> {
        self.paths.iter().find(|p| p.start == tile)
    }
}

/// Predicted paths from all 56 edge tiles on the layout's board (one pathfinder, shared
/// distance fields).
pub fn edge_paths(layout: &Layout) -> Vec<EdgePath> {
    let mut pf = Pathfinder::new(layout.blockers());
    let mut out = Vec::with_capacity(56);
    for edge in Edge::ALL {
        for start in edge.tiles() {
            let Some(tiles) = pf.deploy_path(start) else {
                continue;
            };
            let last = tiles.last().copied().unwrap_or(start);
            let end = if edge.opposite().contains(last) { PathEnd::Breach } else { PathEnd::SelfDestruct };
            out.push(EdgePath { start, owner: edge.owner(), tiles, end });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::presets::preset;

    #[test]
    fn open_board_every_path_breaches() {
        let paths = edge_paths(&Layout::default());
        assert_eq!(paths.len(), 56);
        assert!(paths.iter().all(|p| p.end == PathEnd::Breach));
    }

    #[test]
    fn a_full_wall_forces_self_destruct() {
        let mut l = Layout::default();
        for x in 0..28 {
            l.place(Player::One, Tile::new(x, 13), Kind::Wall);
        }
        let paths = edge_paths(&l);
        let p1: Vec<_> = paths.iter().filter(|p| p.owner == Player::One).collect();
        assert_eq!(p1.len(), 26, "the two corner edge tiles are walled");
        assert!(p1.iter().all(|p| p.end == PathEnd::SelfDestruct));
        // Player 2's units can still walk down to row 14 and no further: self-destruct too.
        assert!(paths.iter().filter(|p| p.owner == Player::Two).all(|p| p.end == PathEnd::SelfDestruct));
    }

    #[test]
    fn coverage_and_shield_counts() {
        let c = preset("base-s6").expect("preset");
        let mut l = Layout::default();
        l.place(Player::One, Tile::new(13, 10), Kind::Turret);
        l.place(Player::One, Tile::new(14, 10), Kind::Turret);
        l.place(Player::One, Tile::new(13, 5), Kind::Support);
        let a = Analysis::compute(&l, &c);
        assert_eq!(a.coverage[0][Tile::new(13, 11).index()], 2);
        assert_eq!(a.coverage[1][Tile::new(13, 11).index()], 0);
        assert_eq!(a.coverage[0][Tile::new(13, 27).index()], 0, "far away");
        let form = c.form(crate::engine::config::SUPPORT, false);
        assert!(a.shield[0][Tile::new(13, 6).index()] > 0.0);
        assert_eq!(a.shield[0][Tile::new(13, 6).index()], form.shield_amount(5));
        assert_eq!(a.shield_sources[0][Tile::new(13, 6).index()], 1);
    }
}
