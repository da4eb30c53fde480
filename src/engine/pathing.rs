//! Pathfinding (MECHANICS.md §6): destination with the deepest-tile fallback, BFS distances,
//! and the official step tie-breaks. Distance fields are cached per board.

use super::geometry::{BOARD_SIZE, CELLS, Edge, Tile};
use super::unit::Axis;
use std::collections::HashMap;

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

/// Shortest-path oracle for one board. Cheap to query, rebuilt when the board changes.
#[derive(Clone)]
pub struct Pathfinder {
    blockers: Blockers,
    /// Connected component of each free tile (UNREACHABLE for blocked or off-board tiles).
    component: Box<[u16; CELLS]>,
    /// Per component: does it contain a free tile of each edge?
    component_touches: Vec<[bool; 4]>,
    edge_fields: [Option<DistanceField>; 4],
    fallback_fields: HashMap<(u16, usize), (Tile, DistanceField)>,
}

impl Pathfinder {
    pub fn new(blockers: Blockers) -> Pathfinder {
        let mut component = Box::new([UNREACHABLE; CELLS]);
        let mut component_touches = Vec::new();
        let mut queue = Vec::with_capacity(CELLS);
        for start in 0..CELLS {
            let t = Tile::from_index(start);
            if component[start] != UNREACHABLE || !blockers.is_free(t) {
                continue;
            }
            let id = component_touches.len() as u16;
            let mut touches = [false; 4];
            component[start] = id;
            queue.clear();
            queue.push(t);
            let mut head = 0;
            while head < queue.len() {
                let cur = queue[head];
                head += 1;
                for e in Edge::ALL {
                    if e.contains(cur) {
                        touches[e.index()] = true;
                    }
                }
                for n in cur.neighbours() {
                    if !blockers.is_blocked(n) && component[n.index()] == UNREACHABLE {
                        component[n.index()] = id;
                        queue.push(n);
                    }
                }
            }
            component_touches.push(touches);
        }
        Pathfinder { blockers, component, component_touches, edge_fields: [None, None, None, None], fallback_fields: HashMap::new() }
    }

    pub fn blockers(&self) -> &Blockers {
        &self.blockers
    }

    fn bfs(blockers: &Blockers, sources: impl Iterator<Item = Tile>) -> DistanceField {
        let mut dist = Box::new([UNREACHABLE; CELLS]);
        let mut queue: Vec<Tile> = Vec::with_capacity(CELLS);
        for s in sources {
            if blockers.is_free(s) && dist[s.index()] == UNREACHABLE {
                dist[s.index()] = 0;
                queue.push(s);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let cur = queue[head];
            head += 1;
            let d = dist[cur.index()] + 1;
            for n in cur.neighbours() {
                if !blockers.is_blocked(n) && dist[n.index()] == UNREACHABLE {
                    dist[n.index()] = d;
                    queue.push(n);
                }
            }
        }
        dist
    }

    /// The deepest tile of a component for a target edge (§6.1 rule 3).
    fn deepest_tile(&self, comp: u16, edge: Edge) -> Tile {
        let mut best: Option<(i32, i32, Tile)> = None;
        for i in 0..CELLS {
            if self.component[i] != comp {
                continue;
            }
            let t = Tile::from_index(i);
            let depth = if edge.is_top() { t.y } else { BOARD_SIZE - 1 - t.y };
            let lateral = if edge.is_right() { t.x } else { BOARD_SIZE - 1 - t.x };
            if best.is_none_or(|(bd, bl, _)| (depth, lateral) > (bd, bl)) {
                best = Some((depth, lateral, t));
            }
        }
        best.map(|(_, _, t)| t).unwrap_or_default()
    }

    /// Distance field toward the destination of a unit at `from` bound for `edge`.
    fn field_for(&mut self, from: Tile, edge: Edge) -> Option<&DistanceField> {
        let comp = *self.component.get(from.index())?;
        if comp == UNREACHABLE {
            return None;
        }
        if self.component_touches[comp as usize][edge.index()] {
            let slot = &mut self.edge_fields[edge.index()];
            if slot.is_none() {
                *slot = Some(Self::bfs(&self.blockers, edge.tiles().into_iter()));
            }
            return slot.as_ref();
        }
        let key = (comp, edge.index());
        if !self.fallback_fields.contains_key(&key) {
            let target = self.deepest_tile(comp, edge);
            let field = Self::bfs(&self.blockers, std::iter::once(target));
            self.fallback_fields.insert(key, (target, field));
        }
        self.fallback_fields.get(&key).map(|(_, f)| f)
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
        for n in from.neighbours() {
            if field[n.index()] == here - 1 {
                candidates[count] = n;
                count += 1;
            }
        }
        let candidates = &candidates[..count];
        match candidates {
            [] => None,
            [only] => Some(*only),
            _ => {
                let keep_horizontal = last_axis == Axis::Vertical;
                let kept: Vec<Tile> = candidates
                    .iter()
                    .copied()
                    .filter(|c| (c.y == from.y) == keep_horizontal)
                    .collect();
                match kept.as_slice() {
                    [only] => Some(*only),
                    [] => candidates.last().copied(),
                    several => {
                        let toward = |c: &&Tile| {
                            if c.y == from.y {
                                (c.x > from.x) == edge.is_right()
                            } else {
                                (c.y > from.y) == edge.is_top()
                            }
                        };
                        several.iter().find(toward).or(several.last()).copied()
                    }
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
