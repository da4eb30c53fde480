//! Pathfinding (MECHANICS.md §6): destination with the deepest-tile fallback, BFS distances,
//! and the official step tie-breaks. Distance fields are cached per board.

use super::geometry::{BOARD_SIZE, CELLS, Edge, Tile};
use super::unit::Axis;

const UNREACHABLE: u16 = u16::MAX;

/// Which tiles hold a structure (of either player).
#[derive(Clone, PartialEq, Eq)]
pub struct Blockers(pub Box<[bool; CELLS]>);

impl Default for Blockers {
    fn default() -> Self {
        Blockers(Box::new([false; CELLS]))
    }
}

impl Blockers {
    pub fn is_blocked(&self, t: Tile) -> bool {
        self.0[t.index()]
    }

    pub fn set(&mut self, t: Tile, blocked: bool) {
        self.0[t.index()] = blocked;
    }

    fn is_free(&self, t: Tile) -> bool {
        t.in_play() && !self.0[t.index()]
    }
}

type DistanceField = Box<[u16; CELLS]>;

/// For each cell, its in-play 4-neighbours in the order x+1, x−1, y+1, y−1 (cell indices).
struct NeighbourTable {
    cells: [[u16; 4]; CELLS],
    counts: [u8; CELLS],
}

fn neighbour_table() -> &'static NeighbourTable {
    static TABLE: std::sync::OnceLock<Box<NeighbourTable>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new(NeighbourTable { cells: [[0; 4]; CELLS], counts: [0; CELLS] });
        for i in 0..CELLS {
            let tile = Tile::from_index(i);
            for n in tile.neighbours() {
                t.cells[i][t.counts[i] as usize] = n.index() as u16;
                t.counts[i] += 1;
            }
        }
        t
    })
}

fn neighbours_of(i: usize) -> &'static [u16] {
    let t = neighbour_table();
    &t.cells[i][..t.counts[i] as usize]
}

/// Shortest-path oracle for one board. Cheap to build; distance fields and connected
/// components are computed lazily and cached until the board changes.
#[derive(Clone)]
pub struct Pathfinder {
    blockers: Blockers,
    /// Per target edge: BFS distance from the edge's free tiles.
    edge_fields: [Option<DistanceField>; 4],
    /// Deepest-tile fallbacks: (target edge, any tile of the component) → (deepest tile, field).
    fallback_fields: Vec<(usize, DistanceField)>,
}

impl Pathfinder {
    pub fn new(blockers: Blockers) -> Pathfinder {
        Pathfinder { blockers, edge_fields: [None, None, None, None], fallback_fields: Vec::new() }
    }

    pub fn blockers(&self) -> &Blockers {
        &self.blockers
    }

    fn bfs(blockers: &Blockers, sources: impl Iterator<Item = Tile>) -> DistanceField {
        let mut dist = Box::new([UNREACHABLE; CELLS]);
        let mut queue = [0u16; CELLS];
        let (mut head, mut tail) = (0usize, 0usize);
        for s in sources {
            if blockers.is_free(s) && dist[s.index()] == UNREACHABLE {
                dist[s.index()] = 0;
                queue[tail] = s.index() as u16;
                tail += 1;
            }
        }
        while head < tail {
            let cur = queue[head] as usize;
            head += 1;
            let d = dist[cur] + 1;
            for &n in neighbours_of(cur) {
                let n = n as usize;
                if dist[n] == UNREACHABLE && !blockers.0[n] {
                    dist[n] = d;
                    queue[tail] = n as u16;
                    tail += 1;
                }
            }
        }
        dist
    }

    /// The component (as a reachability field) of `from`, used for the deepest-tile rule.
    fn deepest_tile(&self, from: Tile, edge: Edge) -> Tile {
        let reach = Self::bfs(&self.blockers, std::iter::once(from));
        let mut best: Option<(i32, i32, Tile)> = None;
        for (i, d) in reach.iter().enumerate() {
            if *d == UNREACHABLE {
                continue;
            }
            let t = Tile::from_index(i);
            let depth = if edge.is_top() { t.y } else { BOARD_SIZE - 1 - t.y };
            let lateral = if edge.is_right() { t.x } else { BOARD_SIZE - 1 - t.x };
            if best.is_none_or(|(bd, bl, _)| (depth, lateral) > (bd, bl)) {
                best = Some((depth, lateral, t));
            }
        }
        best.map(|(_, _, t)| t).unwrap_or(from)
    }

    /// Distance field toward the destination of a unit at `from` bound for `edge` (§6.1):
    /// the free tiles of the edge if reachable, else the deepest reachable tile.
    fn field_for(&mut self, from: Tile, edge: Edge) -> Option<&DistanceField> {
        if !from.in_play() {
            return None;
        }
        let e = edge.index();
        if self.edge_fields[e].is_none() {
            self.edge_fields[e] = Some(Self::bfs(&self.blockers, edge.tiles().into_iter()));
        }
        if self.edge_fields[e].as_ref().is_some_and(|f| f[from.index()] != UNREACHABLE) {
            return self.edge_fields[e].as_ref();
        }
        // Cut off from the edge: reuse a fallback field that already covers this tile's
        // component (a fallback field reaches exactly one component).
        let found = self.fallback_fields.iter().position(|(fe, f)| *fe == e && f[from.index()] != UNREACHABLE);
        let index = match found {
            Some(i) => i,
            None => {
                let target = self.deepest_tile(from, edge);
                let field = Self::bfs(&self.blockers, std::iter::once(target));
                self.fallback_fields.push((e, field));
                self.fallback_fields.len() - 1
            }
        };
        self.fallback_fields.get(index).map(|(_, f)| f)
    }

    /// The next tile of a unit at `from` bound for `edge` whose previous step was on
    /// `last_axis`; `None` when it has arrived (breach if on the edge, else self-destruct).
    pub fn next_step(&mut self, from: Tile, edge: Edge, last_axis: Axis) -> Option<Tile> {
        let field = self.field_for(from, edge)?;
        let here = field[from.index()];
        if here == 0 || here == UNREACHABLE {
            return None;
        }
        // Candidates in the order x+1, x−1, y+1, y−1.
        let mut candidates = [Tile::default(); 4];
        let mut count = 0;
        for &n in neighbours_of(from.index()) {
            if field[n as usize] == here - 1 {
                candidates[count] = Tile::from_index(n as usize);
                count += 1;
            }
        }
        let candidates = &candidates[..count];
        let toward = |c: &Tile| {
            if c.y == from.y { (c.x > from.x) == edge.is_right() } else { (c.y > from.y) == edge.is_top() }
        };
        match candidates {
            [] => None,
            [only] => Some(*only),
            _ => {
                // Keep the candidates on the other axis than the previous step (vertical for a
                // unit that has not moved yet); of two opposite ones take the one toward the
                // target; if none is on the other axis take the last in x+1, x−1, y+1, y−1 (H-M3).
                let keep_horizontal = last_axis == Axis::Vertical;
                let mut kept = candidates.iter().filter(|c| (c.y == from.y) == keep_horizontal);
                match (kept.next(), kept.next()) {
                    (Some(only), None) => Some(*only),
                    (None, _) => candidates.last().copied(),
                    (Some(a), Some(b)) => Some(if toward(a) { *a } else { *b }),
                }
            }
        }
    }

    /// The whole predicted path of a fresh unit deployed at `from` bound for `edge` on this
    /// board, start tile included; the last tile is where it breaches or self-destructs.
    pub fn predicted_path(&mut self, from: Tile, edge: Edge) -> Vec<Tile> {
        let mut path = vec![from];
        let mut axis = Axis::None;
        let mut cur = from;
        while let Some(next) = self.next_step(cur, edge, axis) {
            axis = if next.y == cur.y { Axis::Horizontal } else { Axis::Vertical };
            cur = next;
            path.push(cur);
            if path.len() > CELLS {
                break;
            }
        }
        path
    }

    /// The predicted path of a unit deployed on one of its owner's edges (target = opposite).
    pub fn deploy_path(&mut self, from: Tile) -> Option<Vec<Tile>> {
        let start_edge = Edge::ALL.into_iter().find(|e| e.contains(from))?;
        if self.blockers.is_blocked(from) {
            return None;
        }
        Some(self.predicted_path(from, start_edge.opposite()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open() -> Pathfinder {
        Pathfinder::new(Blockers::default())
    }

    #[test]
    fn fresh_unit_steps_vertically_first() {
        // MECHANICS.md §6.4: a Scout at (24,10) bound for TOP_LEFT steps to (24,11).
        let mut p = open();
        assert_eq!(p.next_step(Tile::new(24, 10), Edge::TopLeft, Axis::None), Some(Tile::new(24, 11)));
        assert_eq!(p.next_step(Tile::new(24, 10), Edge::TopLeft, Axis::Vertical), Some(Tile::new(23, 10)));
    }

    #[test]
    fn open_board_path_reaches_the_opposite_edge() {
        let mut p = open();
        let path = p.deploy_path(Tile::new(13, 0)).expect("edge tile");
        let last = *path.last().expect("non-empty");
        assert!(Edge::TopRight.contains(last), "ends at {last}");
        // Every step is one 4-neighbour step.
        for w in path.windows(2) {
            assert_eq!((w[0].x - w[1].x).abs() + (w[0].y - w[1].y).abs(), 1);
        }
    }

    #[test]
    fn deepest_tile_fallback_when_walled_off() {
        // Wall off row 14 completely: player 1's units cannot reach the top edges.
        let mut b = Blockers::default();
        for x in 0..28 {
            let t = Tile::new(x, 14);
            if t.in_play() {
                b.set(t, true);
            }
        }
        let mut p = Pathfinder::new(b);
        let path = p.predicted_path(Tile::new(13, 0), Edge::TopRight);
        // Deepest reachable row is 13; for a right-hand target the largest x wins: (27,13).
        assert_eq!(path.last().copied(), Some(Tile::new(27, 13)));
        let path = p.predicted_path(Tile::new(14, 0), Edge::TopLeft);
        assert_eq!(path.last().copied(), Some(Tile::new(0, 13)));
    }
}
