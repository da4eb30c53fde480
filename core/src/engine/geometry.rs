//! Board geometry: the 28×28 diamond, halves, edges and the player-2 rotation.

use serde::{Deserialize, Serialize};

/// Side length of the square that holds the diamond.
pub const BOARD_SIZE: i32 = 28;
/// Number of cells in the bounding square (used for flat per-tile arrays).
pub(crate) const CELLS: usize = (BOARD_SIZE * BOARD_SIZE) as usize;
/// Last row owned by player 1.
pub const HALF: i32 = 14;

/// A tile `(x, y)` in player 1's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
pub struct Tile {
    pub x: i32,
    pub y: i32,
}

impl Tile {
    pub const fn new(x: i32, y: i32) -> Self {
        Tile { x, y }
    }

    /// True iff the tile is one of the 420 playable tiles of the diamond.
    pub fn in_play(self) -> bool {
        in_play(self.x, self.y)
    }

    /// Flat index into a `CELLS`-sized array. Only valid for tiles inside the square.
    pub fn index(self) -> usize {
        (self.y * BOARD_SIZE + self.x) as usize
    }

    pub(crate) fn from_index(i: usize) -> Tile {
        Tile::new(i as i32 % BOARD_SIZE, i as i32 / BOARD_SIZE)
    }

    /// The 180° rotation that maps player 2's view to player 1's (its own inverse).
    pub fn rotated(self) -> Tile {
        Tile::new(BOARD_SIZE - 1 - self.x, BOARD_SIZE - 1 - self.y)
    }

    /// Mirror left↔right (x → 27 − x), used by the editor.
    pub(crate) fn mirrored_x(self) -> Tile {
        Tile::new(BOARD_SIZE - 1 - self.x, self.y)
    }

    /// Squared Euclidean distance between two tiles.
    pub fn dist2(self, other: Tile) -> i32 {
        let dx = self.x - other.x;
        let dy = self.y - other.y;
        dx * dx + dy * dy
    }

    /// The half of the board this tile belongs to.
    pub fn owner_half(self) -> Player {
        if self.y < HALF { Player::One } else { Player::Two }
    }

    /// The 4-neighbours in the order x+1, x−1, y+1, y−1, restricted to the diamond.
    pub fn neighbours(self) -> impl Iterator<Item = Tile> {
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .into_iter()
            .map(move |(dx, dy)| Tile::new(self.x + dx, self.y + dy))
            .filter(|t| t.in_play())
    }
}

impl std::fmt::Display for Tile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{},{}]", self.x, self.y)
    }
}

/// Bit mask of `lo..=hi` clipped to the board (0 if empty): the columns or rows of a box.
#[inline]
pub(crate) fn span_mask(lo: i32, hi: i32) -> u32 {
    let (lo, hi) = (lo.max(0), hi.min(BOARD_SIZE - 1));
    if lo > hi { 0 } else { ((1u64 << (hi + 1)) - (1u64 << lo)) as u32 }
}

/// True iff `(x, y)` lies inside the playable diamond.
pub fn in_play(x: i32, y: i32) -> bool {
    if !(0..BOARD_SIZE).contains(&x) || !(0..BOARD_SIZE).contains(&y) {
        return false;
    }
    if y < HALF { 13 - y <= x && x <= 14 + y } else { y - 14 <= x && x <= 41 - y }
}

/// Every playable tile, row by row.
pub fn all_tiles() -> impl Iterator<Item = Tile> {
    (0..BOARD_SIZE).flat_map(|y| (0..BOARD_SIZE).map(move |x| Tile::new(x, y))).filter(|t| t.in_play())
}

/// One of the two players. Player 1 owns rows 0–13 ("bottom").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Player {
    One,
    Two,
}

impl Player {
    /// 0 for player 1, 1 for player 2.
    pub fn index(self) -> usize {
        match self {
            Player::One => 0,
            Player::Two => 1,
        }
    }

    /// The owner number used in events and end stats (1 or 2).
    pub fn number(self) -> u8 {
        self.index() as u8 + 1
    }

    pub fn from_number(n: i64) -> Option<Player> {
        match n {
            1 => Some(Player::One),
            2 => Some(Player::Two),
            _ => None,
        }
    }

    pub fn opponent(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    pub fn both() -> [Player; 2] {
        [Player::One, Player::Two]
    }

    /// True iff the tile is on this player's half.
    pub fn owns(self, t: Tile) -> bool {
        t.in_play() && t.owner_half() == self
    }

    /// Rows between a structure and this player's back row (shield bonus rows).
    pub(crate) fn rows_from_back(self, t: Tile) -> i32 {
        match self {
            Player::One => t.y,
            Player::Two => BOARD_SIZE - 1 - t.y,
        }
    }
}

/// The four edges of the diamond.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Edge {
    TopRight,
    TopLeft,
    BottomLeft,
    BottomRight,
}

impl Edge {
    pub const ALL: [Edge; 4] = [Edge::TopRight, Edge::TopLeft, Edge::BottomLeft, Edge::BottomRight];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The 14 tiles of this edge.
    pub fn tiles(self) -> [Tile; 14] {
        std::array::from_fn(|i| {
            let i = i as i32;
            match self {
                Edge::TopRight => Tile::new(14 + i, 27 - i),
                Edge::TopLeft => Tile::new(13 - i, 27 - i),
                Edge::BottomLeft => Tile::new(13 - i, i),
                Edge::BottomRight => Tile::new(14 + i, i),
            }
        })
    }

    pub fn contains(self, t: Tile) -> bool {
        match self {
            Edge::TopRight => t.x + t.y == 41 && t.x >= 14,
            Edge::TopLeft => t.y - t.x == 14,
            Edge::BottomLeft => t.x + t.y == 13,
            Edge::BottomRight => t.x - t.y == 14,
        }
    }

    /// The edge a unit deployed on this edge walks to.
    pub fn opposite(self) -> Edge {
        match self {
            Edge::BottomLeft => Edge::TopRight,
            Edge::BottomRight => Edge::TopLeft,
            Edge::TopLeft => Edge::BottomRight,
            Edge::TopRight => Edge::BottomLeft,
        }
    }

    pub(crate) fn is_top(self) -> bool {
        matches!(self, Edge::TopLeft | Edge::TopRight)
    }

    pub(crate) fn is_right(self) -> bool {
        matches!(self, Edge::TopRight | Edge::BottomRight)
    }

    /// The player whose deploy edge this is.
    pub fn owner(self) -> Player {
        if self.is_top() { Player::Two } else { Player::One }
    }

    /// The owner's edge that holds `t`, if any.
    pub fn deploy_edge_of(player: Player, t: Tile) -> Option<Edge> {
        let candidates = match player {
            Player::One => [Edge::BottomLeft, Edge::BottomRight],
            Player::Two => [Edge::TopLeft, Edge::TopRight],
        };
        candidates.into_iter().find(|e| e.contains(t))
    }

    pub fn name(self) -> &'static str {
        match self {
            Edge::TopRight => "TOP_RIGHT",
            Edge::TopLeft => "TOP_LEFT",
            Edge::BottomLeft => "BOTTOM_LEFT",
            Edge::BottomRight => "BOTTOM_RIGHT",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diamond_has_420_tiles() {
        assert_eq!(all_tiles().count(), 420);
    }

    #[test]
    fn edges_are_in_play_and_disjoint() {
        let mut seen = std::collections::HashSet::new();
        for e in Edge::ALL {
            for t in e.tiles() {
                assert!(t.in_play(), "{t} of {e:?}");
                assert!(e.contains(t));
                assert!(seen.insert(t), "{t} on two edges");
            }
        }
        assert_eq!(seen.len(), 56);
    }

    #[test]
    fn rotation_maps_edges() {
        for t in Edge::BottomLeft.tiles() {
            assert!(Edge::TopRight.contains(t.rotated()));
        }
        assert_eq!(Tile::new(3, 10).rotated().rotated(), Tile::new(3, 10));
    }
}
