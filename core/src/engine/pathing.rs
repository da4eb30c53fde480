//! Pathfinding (docs/mechanics.md, Pathfinding): destination with the deepest-tile fallback, BFS distances,
//! and the official step tie-breaks. Distance fields are cached per board.

use super::geometry::{BOARD_SIZE, CELLS, Edge, Tile};
use super::unit::Axis;

/// A free tile the search has not reached.
const UNREACHABLE: u16 = u16::MAX;
/// A tile holding a structure, or outside the diamond (never reached, never a step).
const BLOCKED: u16 = u16::MAX - 1;

/// Distance fields live on the board square padded with one blocked cell on every side,
/// so a cell's four neighbours are always at fixed offsets and need no bounds checks.
const STRIDE: usize = BOARD_SIZE as usize + 2;
const PADDED_CELLS: usize = STRIDE * STRIDE;
/// Length of a distance field: the padded square rounded up to a power of two, so the BFS
/// indexes with a mask (`& FIELD_MASK`, a no-op on real cells) that the compiler knows is in
/// bounds, instead of a bounds check per neighbour. The cells past the square stay `BLOCKED`.
const FIELD_LEN: usize = PADDED_CELLS.next_power_of_two();
const FIELD_MASK: usize = FIELD_LEN - 1;

fn padded(t: Tile) -> usize {
    (t.y as usize + 1) * STRIDE + t.x as usize + 1
}

/// `padded` of the tile with flat index `i`.
fn padded_index(i: usize) -> usize {
    i + (i / BOARD_SIZE as usize) * 2 + STRIDE + 1
}

/// The field of a board without structures: `UNREACHABLE` on the diamond, `BLOCKED` elsewhere.
fn empty_board_field() -> &'static DistanceField {
    static FIELD: std::sync::OnceLock<DistanceField> = std::sync::OnceLock::new();
    FIELD.get_or_init(|| {
        let mut field = Box::new([BLOCKED; FIELD_LEN]);
        for i in 0..CELLS {
            if Tile::from_index(i).in_play() {
                field[padded_index(i)] = UNREACHABLE;
            }
        }
        field
    })
}

/// The edge fields are searched on the diamond seen along its diagonals: with `u = x + y` and
/// `v = x − y` it is the 29 × 29 square `13 ≤ u ≤ 41`, `−14 ≤ v ≤ 14` (the cells where `u` and
/// `v` have the same parity), each edge is a whole row of it, and a tile's four neighbours are
/// the cells one row up or down and one bit left or right. A breadth-first search then takes a
/// whole row of the frontier a level at a time with shifts and masks, where a queue pays ≈ 30
/// instructions a cell; the wave from an edge runs along the rows, so few are touched a level.
/// Orientation 0 has rows of constant `v` (`a = v + 14`, bit `b = u − 13`): the top-left edge
/// is its row 0 and the bottom-right its row 28. Orientation 1 has rows of constant `u`
/// (`a = u − 13`, `b = v + 14`): bottom-left is row 0, top-right row 28.
const DIAG: usize = 29;

/// Per orientation, row and bit: the padded cell (0 for a bit that is no tile).
const DIAG_CELLS: [[[u16; 32]; DIAG]; 2] = {
    let mut cells = [[[0u16; 32]; DIAG]; 2];
    let mut a = 0;
    while a < DIAG {
        let mut b = 0;
        while b < DIAG {
            if (a + b) % 2 == 1 {
                let x = (a + b - 1) / 2;
                // Orientation 0: y = (u − v) / 2; orientation 1 swaps the roles of a and b.
                let (y0, y1) = ((b + 27 - a) / 2, (a + 27 - b) / 2);
                cells[0][a][b] = ((y0 + 1) * STRIDE + x + 1) as u16;
                cells[1][a][b] = ((y1 + 1) * STRIDE + x + 1) as u16;
            }
            b += 1;
        }
        a += 1;
    }
    cells
};

/// Per orientation: every tile of the diamond, as row bit masks.
const DIAG_ALL: [[u32; DIAG]; 2] = {
    let mut rows = [0u32; DIAG];
    let mut a = 0;
    while a < DIAG {
        let mut b = 0;
        while b < DIAG {
            if (a + b) % 2 == 1 {
                rows[a] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    // The parity pattern is symmetric in a and b, so both orientations hold the same masks.
    [rows, rows]
};

/// (orientation, row, bit) of an in-play tile in each orientation.
fn diag_bits(t: Tile) -> [(usize, u32); 2] {
    let (a0, b0) = ((t.x - t.y + 14) as usize, (t.x + t.y - 13) as u32);
    [(a0, b0), (b0 as usize, a0 as u32)]
}

/// The orientation of an edge's field and the row its tiles make.
fn diag_source(edge: Edge) -> (usize, usize) {
    match edge {
        Edge::TopLeft => (0, 0),
        Edge::BottomRight => (0, DIAG - 1),
        Edge::BottomLeft => (1, 0),
        Edge::TopRight => (1, DIAG - 1),
    }
}

/// Whether the field `dist`, whose cell `p` at distance `d` was just closed, still holds
/// every other cell's distance: each neighbour that had `p` as a cell one step closer has
/// another (by induction from the edge, every shortest path then avoids `p`).
fn closing_keeps_distances(dist: &DistanceField, p: usize, d: u16) -> bool {
    let around = |c: usize| [c + 1, c - 1, c + STRIDE, c - STRIDE].map(|n| n & FIELD_MASK);
    around(p).into_iter().all(|n| dist[n] != d + 1 || around(n).into_iter().any(|m| dist[m] == d))
}

fn unpadded(p: usize) -> Tile {
    Tile::new((p % STRIDE) as i32 - 1, (p / STRIDE) as i32 - 1)
}

/// Padded cells opened since a field was brought up to date: a few at most between two
/// uses (the structures killed in a tick, removed at a turn's end).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Opened {
    cells: [u16; 8],
    len: u8,
}

impl Opened {
    fn cells(&self) -> &[u16] {
        &self.cells[..usize::from(self.len)]
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `p`; false if the list is full.
    fn push(&mut self, p: usize) -> bool {
        let Some(slot) = self.cells.get_mut(usize::from(self.len)) else { return false };
        *slot = p as u16;
        self.len += 1;
        true
    }

    /// Takes `p` out of the list if it is in it.
    fn forget(&mut self, p: usize) -> bool {
        let Some(k) = self.cells().iter().position(|&c| usize::from(c) == p) else { return false };
        let last = usize::from(self.len) - 1;
        self.cells[k] = self.cells[last];
        self.len -= 1;
        true
    }
}

/// Which tiles hold a structure (of either player).
#[derive(Clone, PartialEq, Eq)]
pub struct Blockers(pub Box<[bool; CELLS]>);

impl Default for Blockers {
    fn default() -> Self {
        Blockers(Box::new([false; CELLS]))
    }
}

impl Blockers {
    pub fn set(&mut self, t: Tile, blocked: bool) {
        self.0[t.index()] = blocked;
    }
}

/// Per padded cell: the distance, `UNREACHABLE` or `BLOCKED`.
type DistanceField = Box<[u16; FIELD_LEN]>;

/// Spare field buffers kept at most: the four edge fields and a few fallbacks.
const MAX_SPARE: usize = 8;

/// Of the tiles `reach` reaches, the farthest row toward `edge`, then the farthest tile toward
/// its side. The rows are read in that order, so the first tile reached is the one.
fn deepest_reached(reach: &DistanceField, edge: Edge) -> Option<Tile> {
    let last = BOARD_SIZE - 1;
    for depth in (0..BOARD_SIZE).rev() {
        let y = if edge.is_top() { depth } else { last - depth };
        for lateral in (0..BOARD_SIZE).rev() {
            let t = Tile::new(if edge.is_right() { lateral } else { last - lateral }, y);
            if reach[padded(t)] < BLOCKED {
                return Some(t);
            }
        }
    }
    None
}

/// Shortest-path oracle for one board. Cheap to build; distance fields and connected
/// components are computed lazily and cached until the board changes.
pub struct Pathfinder {
    /// The empty field of this board: `BLOCKED` on structures and off the diamond.
    blank: DistanceField,
    /// The free tiles of the board as rows of the diagonal square, in both orientations.
    free: [[u32; DIAG]; 2],
    /// Per target edge: BFS distance from the edge's free tiles, exact for the board with
    /// the tiles of `opened` still closed.
    edge_fields: [Option<DistanceField>; 4],
    /// Per target edge: tiles opened since its field was last brought up to date. Repaired
    /// when a unit asks for the field: a field nobody walks toward before the board changes
    /// again (or the state is dropped) is never repaired.
    opened: [Opened; 4],
    /// Deepest-tile fallbacks: (target edge, any tile of the component) → (deepest tile, field).
    fallback_fields: Vec<(usize, DistanceField)>,
    /// Fields dropped (the board changed, or a copy had fewer), kept to be written over by
    /// the next search instead of freed and allocated again; at most `MAX_SPARE`.
    spare: Vec<DistanceField>,
}

impl Clone for Pathfinder {
    fn clone(&self) -> Pathfinder {
        Pathfinder {
            blank: self.blank.clone(),
            free: self.free,
            edge_fields: self.edge_fields.clone(),
            opened: self.opened,
            fallback_fields: self.fallback_fields.clone(),
            spare: Vec::new(),
        }
    }

    /// A copy in the buffers this pathfinder already has (a state copied at each turn
    /// simulated): no field is allocated or freed.
    fn clone_from(&mut self, source: &Pathfinder) {
        *self.blank = *source.blank;
        self.free = source.free;
        for e in 0..4 {
            match (self.edge_fields[e].as_mut(), &source.edge_fields[e]) {
                (Some(field), Some(source_field)) => **field = **source_field,
                (None, Some(source_field)) => self.edge_fields[e] = Some(self.copy_of(source_field)),
                (_, None) => {
                    if let Some(field) = self.edge_fields[e].take() {
                        self.keep_spare(field);
                    }
                }
            }
        }
        self.opened = source.opened;
        // In place too: a derived copy of each (edge, field) pair allocated its field.
        while self.fallback_fields.len() > source.fallback_fields.len() {
            if let Some((_, field)) = self.fallback_fields.pop() {
                self.keep_spare(field);
            }
        }
        for (k, (edge, source_field)) in source.fallback_fields.iter().enumerate() {
            match self.fallback_fields.get_mut(k) {
                Some((mine_edge, field)) => {
                    *mine_edge = *edge;
                    **field = **source_field;
                }
                None => {
                    let field = self.copy_of(source_field);
                    self.fallback_fields.push((*edge, field));
                }
            }
        }
    }
}

impl Pathfinder {
    pub fn new(blockers: Blockers) -> Pathfinder {
        let tiles = (0..CELLS).filter(|&i| blockers.0[i]).map(Tile::from_index).filter(|t| t.in_play());
        Pathfinder::from_structure_tiles(tiles)
    }

    /// The pathfinder of a board whose structures stand on `tiles` (each in play).
    pub(crate) fn from_structure_tiles(tiles: impl Iterator<Item = Tile>) -> Pathfinder {
        let mut blank = empty_board_field().clone();
        let mut free = DIAG_ALL;
        for t in tiles {
            blank[padded(t)] = BLOCKED;
            for (o, (a, b)) in diag_bits(t).into_iter().enumerate() {
                free[o][a] &= !(1 << b);
            }
        }
        Pathfinder {
            blank,
            free,
            edge_fields: [None, None, None, None],
            opened: [Opened::default(); 4],
            fallback_fields: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// The blank field, written into `buffer` if one is given.
    fn blank_field(&self, buffer: Option<DistanceField>) -> DistanceField {
        match buffer {
            Some(mut field) => {
                *field = *self.blank;
                field
            }
            None => self.blank.clone(),
        }
    }

    /// A copy of `source`, in a spare buffer if there is one.
    fn copy_of(&mut self, source: &DistanceField) -> DistanceField {
        match self.spare.pop() {
            Some(mut field) => {
                *field = **source;
                field
            }
            None => source.clone(),
        }
    }

    /// A dropped field's buffer kept for a later search.
    fn keep_spare(&mut self, field: DistanceField) {
        if self.spare.len() < MAX_SPARE {
            self.spare.push(field);
        }
    }

    /// The fallback fields dropped (the board changed), their buffers kept.
    fn drop_fallback_fields(&mut self) {
        while let Some((_, field)) = self.fallback_fields.pop() {
            self.keep_spare(field);
        }
    }

    fn bfs(&self, sources: impl Iterator<Item = Tile>, buffer: Option<DistanceField>) -> DistanceField {
        let mut dist = self.blank_field(buffer);
        // Each free cell enters the queue once, so it never holds more than FIELD_LEN cells.
        let mut queue = [0u16; FIELD_LEN];
        let (mut head, mut tail) = (0usize, 0usize);
        for s in sources {
            if !s.in_play() {
                continue;
            }
            let p = padded(s);
            if dist[p] == UNREACHABLE {
                dist[p] = 0;
                queue[tail & FIELD_MASK] = p as u16;
                tail += 1;
            }
        }
        while head < tail {
            let cur = usize::from(queue[head & FIELD_MASK]);
            head += 1;
            let d = dist[cur & FIELD_MASK] + 1;
            // Every free cell has a blocked padding cell between it and the array's ends.
            for n in [cur + 1, cur - 1, cur + STRIDE, cur - STRIDE] {
                let n = n & FIELD_MASK;
                if dist[n] == UNREACHABLE {
                    dist[n] = d;
                    queue[tail & FIELD_MASK] = n as u16;
                    tail += 1;
                }
            }
        }
        dist
    }

    /// The distance field of an edge: the same distances as `bfs` from the edge's tiles,
    /// searched a row of the diagonal square at a time (see `DIAG`). Kept out of `next_step`
    /// (built once a board, stepped on many times): inlined, its frame and saved registers
    /// were paid by every step.
    #[inline(never)]
    fn edge_field(&self, edge: Edge, buffer: Option<DistanceField>) -> DistanceField {
        let (o, source) = diag_source(edge);
        let (free, cells) = (&self.free[o], &DIAG_CELLS[o]);
        let mut dist = self.blank_field(buffer);
        // Padded with an empty row at each end: row `r` here is row `r − 1` of the square.
        // Rows of `front` outside `lo..=hi` are always empty.
        let mut front = [0u32; DIAG + 2];
        // The free tiles not reached yet: one mask to test a row against, not two.
        let mut open = [0u32; DIAG + 2];
        open[1..=DIAG].copy_from_slice(free);
        let (mut lo, mut hi) = (source + 1, source + 1);
        front[lo] = free[source];
        open[lo] = 0;
        let mut bits = free[source];
        while bits != 0 {
            dist[usize::from(cells[source][bits.trailing_zeros() as usize & 31]) & FIELD_MASK] = 0;
            bits &= bits - 1;
        }
        let mut level = 0u16;
        while front[lo] != 0 {
            level += 1;
            let (from, to) = (lo.max(2) - 1, (hi + 1).min(DIAG));
            // The row below `from` is empty (padding, or below `lo`).
            let mut below = 0u32;
            let (mut next_lo, mut next_hi) = (usize::MAX, 0);
            // An exclusive range: an inclusive one costs a check of its own each row.
            for r in from..to + 1 {
                let old = front[r];
                let near = below | front[r + 1];
                let reached = ((near << 1) | (near >> 1)) & open[r];
                below = old;
                front[r] = reached;
                if reached != 0 {
                    open[r] ^= reached;
                    next_lo = next_lo.min(r);
                    next_hi = r;
                    let mut bits = reached;
                    while bits != 0 {
                        let p = usize::from(cells[r - 1][bits.trailing_zeros() as usize & 31]);
                        dist[p & FIELD_MASK] = level;
                        bits &= bits - 1;
                    }
                }
            }
            if next_lo == usize::MAX {
                break;
            }
            (lo, hi) = (next_lo, next_hi);
        }
        dist
    }

    /// Sets the board's tile `t` (in play) blocked or free, leaving the distance fields as
    /// they are.
    fn mark(&mut self, t: Tile, blocked: bool) {
        self.blank[padded(t)] = if blocked { BLOCKED } else { UNREACHABLE };
        for (o, (a, b)) in diag_bits(t).into_iter().enumerate() {
            if blocked {
                self.free[o][a] &= !(1 << b);
            } else {
                self.free[o][a] |= 1 << b;
            }
        }
    }

    /// A structure now stands on `t`: each cached edge field is kept if closing `t`
    /// lengthens no path (every neighbour one step farther from the edge than `t` has
    /// another neighbour as close as `t` was), else dropped, to be searched again when a unit
    /// asks for it. On open ground a cell has two such neighbours, so most structures leave
    /// every field as it was; a repair of the lengthened paths cost more than a new search.
    pub(crate) fn block(&mut self, t: Tile) {
        if !t.in_play() {
            return;
        }
        let p = padded(t);
        if self.blank[p] == BLOCKED {
            return;
        }
        self.mark(t, true);
        self.drop_fallback_fields();
        for e in 0..4 {
            let Some(dist) = self.edge_fields[e].as_mut() else { continue };
            // Opened and closed again before anyone asked: the field is as it was.
            if self.opened[e].forget(p) {
                continue;
            }
            let d = dist[p];
            dist[p] = BLOCKED;
            if d < BLOCKED && !closing_keeps_distances(dist, p, d) {
                if let Some(field) = self.edge_fields[e].take() {
                    self.keep_spare(field);
                }
                self.opened[e] = Opened::default();
            }
        }
    }

    /// The structure on `t` is gone. Opening a tile can only shorten paths, so each cached
    /// edge field will be repaired by relaxing outward from `t` when a unit asks for it (see
    /// `opened`); the fallback fields, whose targets may move, are dropped.
    pub(crate) fn unblock(&mut self, t: Tile) {
        // `padded` of a tile off the board overflows: the test comes first.
        if !t.in_play() {
            return;
        }
        let p = padded(t);
        if self.blank[p] != BLOCKED {
            return;
        }
        self.mark(t, false);
        self.drop_fallback_fields();
        for e in 0..4 {
            if self.edge_fields[e].is_some() && !self.opened[e].push(p) {
                // Too many waiting: repaired now, this one included.
                self.repair_opened(e);
                self.opened[e].push(p);
                self.repair_opened(e);
            }
        }
    }

    /// Repairs the edge field `e` for the tiles opened since it was searched, one at a time
    /// (each repair is exact for the board with that tile open).
    #[cold]
    #[inline(never)]
    fn repair_opened(&mut self, e: usize) {
        let opened = std::mem::take(&mut self.opened[e]);
        let Some(dist) = self.edge_fields[e].as_mut() else { return };
        // A queue on the stack: a `Vec` here grew from nothing at each call. Each cell is
        // queued at most once a repair (its first distance is its last), as in `bfs`.
        let mut queue = [0u16; FIELD_LEN];
        for &p in opened.cells() {
            let p = usize::from(p);
            let is_source = Edge::ALL.get(e).is_some_and(|edge| edge.contains(unpadded(p)));
            let nearest = [p + 1, p - 1, p + STRIDE, p - STRIDE].map(|n| dist[n & FIELD_MASK]).into_iter().min();
            dist[p & FIELD_MASK] = match nearest {
                _ if is_source => 0,
                Some(d) if d < BLOCKED => d + 1,
                _ => UNREACHABLE,
            };
            if dist[p & FIELD_MASK] == UNREACHABLE {
                continue;
            }
            queue[0] = p as u16;
            let (mut head, mut tail) = (0usize, 1usize);
            while head < tail {
                let cur = usize::from(queue[head & FIELD_MASK]);
                head += 1;
                let d = dist[cur & FIELD_MASK] + 1;
                // Every free cell has a blocked padding cell between it and the array's ends.
                for n in [cur + 1, cur - 1, cur + STRIDE, cur - STRIDE] {
                    let n = n & FIELD_MASK;
                    if dist[n] != BLOCKED && dist[n] > d {
                        dist[n] = d;
                        queue[tail & FIELD_MASK] = n as u16;
                        tail += 1;
                    }
                }
            }
        }
    }

    /// The deepest tile of the component of `from` toward `edge` (docs/mechanics.md,
    /// Pathfinding; `deepest_reached`), searched in a spare buffer.
    fn deepest_tile(&mut self, from: Tile, edge: Edge) -> Tile {
        let buffer = self.spare.pop();
        let reach = self.bfs(std::iter::once(from), buffer);
        let deepest = deepest_reached(&reach, edge).unwrap_or(from);
        self.keep_spare(reach);
        deepest
    }

    /// Distance field toward the destination of a unit at `from` bound for `edge` (§6.1):
    /// the free tiles of the edge if reachable, else the deepest reachable tile.
    fn field_for(&mut self, from: Tile, edge: Edge) -> Option<&DistanceField> {
        // The blank field is `BLOCKED` off the diamond, so two range checks and the blocked
        // test below stand for the (costlier) diamond test.
        if !((0..BOARD_SIZE).contains(&from.x) && (0..BOARD_SIZE).contains(&from.y)) {
            return None;
        }
        let (e, p) = (edge.index(), padded(from));
        self.ensure_edge_field(edge);
        if self.edge_fields[e].as_ref().is_some_and(|f| f[p] < BLOCKED) {
            return self.edge_fields[e].as_ref();
        }
        // Off the diamond or on a structure: no step.
        if self.blank[p] == BLOCKED {
            return None;
        }
        // Cut off from the edge: reuse a fallback field that already covers this tile's
        // component (a fallback field reaches exactly one component).
        let found = self.fallback_fields.iter().position(|(fe, f)| *fe == e && f[p] < BLOCKED);
        let index = match found {
            Some(i) => i,
            None => self.add_fallback_field(from, edge),
        };
        self.fallback_fields.get(index).map(|(_, f)| f)
    }

    /// Searches the deepest-tile fallback field of the component of `from` (once a component
    /// and board) and returns its index in `fallback_fields`.
    #[cold]
    #[inline(never)]
    fn add_fallback_field(&mut self, from: Tile, edge: Edge) -> usize {
        let target = self.deepest_tile(from, edge);
        let buffer = self.spare.pop();
        let field = self.bfs(std::iter::once(target), buffer);
        self.fallback_fields.push((edge.index(), field));
        self.fallback_fields.len() - 1
    }

    /// Searches the distance fields of `edges` not searched yet (a state copied for many
    /// runs searches them once; each run would otherwise search them again).
    pub(crate) fn search_edge_fields(&mut self, edges: impl Iterator<Item = Edge>) {
        for edge in edges {
            self.ensure_edge_field(edge);
        }
    }

    /// The distance field of `edge` searched if it is not yet, into a spare buffer if any.
    #[inline]
    fn ensure_edge_field(&mut self, edge: Edge) {
        let e = edge.index();
        if self.edge_fields[e].is_none() {
            let buffer = self.spare.pop();
            self.edge_fields[e] = Some(self.edge_field(edge, buffer));
        } else if !self.opened[e].is_empty() {
            self.repair_opened(e);
        }
    }

    /// The next tile of a unit at `from` bound for `edge` whose previous step was on
    /// `last_axis`; `None` when it has arrived (breach if on the edge, else self-destruct).
    pub fn next_step(&mut self, from: Tile, edge: Edge, last_axis: Axis) -> Option<Tile> {
        let field = self.field_for(from, edge)?;
        let p = padded(from);
        let here = field[p];
        if here == 0 || here >= BLOCKED {
            return None;
        }
        // Candidates are the neighbours one step closer, in the order x+1, x−1, y+1, y−1.
        let closer = |n: usize| field[n] == here - 1;
        let (right, left, up, down) = (closer(p + 1), closer(p - 1), closer(p + STRIDE), closer(p - STRIDE));
        let step = |dx: i32, dy: i32| Some(Tile::new(from.x + dx, from.y + dy));
        let count = right as u8 + left as u8 + up as u8 + down as u8;
        // One candidate: take it. Several: keep those on the other axis than the previous
        // step (vertical for a unit that has not moved yet); of two opposite ones take the
        // one toward the target; if none is on the other axis take the last in x+1, x−1,
        // y+1, y−1 (docs/mechanics.md, Assumptions).
        let horizontal = |right: bool| if right { step(1, 0) } else { step(-1, 0) };
        let vertical = |up: bool| if up { step(0, 1) } else { step(0, -1) };
        match count {
            0 => None,
            1 if right || left => horizontal(right),
            1 => vertical(up),
            _ if last_axis == Axis::Vertical => match (right, left) {
                (true, true) => horizontal(edge.is_right()),
                (false, false) => vertical(!down),
                _ => horizontal(right),
            },
            _ => match (up, down) {
                (true, true) => vertical(edge.is_top()),
                (false, false) => horizontal(!left),
                _ => vertical(up),
            },
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
        if self.blank[padded(from)] == BLOCKED {
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
        // docs/mechanics.md, Pathfinding: a Scout at (24,10) bound for TOP_LEFT steps to (24,11).
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

    /// Computes every edge field of `p` (they are built lazily).
    fn all_edge_fields(p: &mut Pathfinder) -> Vec<DistanceField> {
        Edge::ALL
            .iter()
            .map(|&e| {
                p.field_for(Tile::new(13, 0), e);
                p.edge_fields[e.index()].clone().expect("edge field computed")
            })
            .collect()
    }

    /// A small linear congruential generator: the same boards on every run.
    fn pseudo_random(mut seed: u32) -> impl FnMut() -> usize {
        move || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) as usize
        }
    }

    #[test]
    fn unblocking_a_tile_repairs_the_edge_fields_exactly() {
        // A dense pseudo-random board (walls that cut off pockets included); structures are
        // removed one by one and the repaired fields must equal fields built from scratch.
        let mut next = pseudo_random(12345);
        let mut blocked: Vec<Tile> = (0..CELLS).map(Tile::from_index).filter(|t| t.in_play()).collect();
        blocked.retain(|_| next() % 100 < 45);
        for t in (0..28).map(|x| Tile::new(x, 14)).filter(|t| t.in_play() && t.x != 20) {
            if !blocked.contains(&t) {
                blocked.push(t);
            }
        }
        let mut repaired = Pathfinder::from_structure_tiles(blocked.iter().copied());
        all_edge_fields(&mut repaired);
        while !blocked.is_empty() {
            let t = blocked.swap_remove(next() % blocked.len());
            repaired.unblock(t);
            let mut fresh = Pathfinder::from_structure_tiles(blocked.iter().copied());
            assert!(all_edge_fields(&mut repaired) == all_edge_fields(&mut fresh), "after opening {t}");
        }
    }

    #[test]
    fn blocking_a_tile_equals_a_pathfinder_built_afresh() {
        let mut next = pseudo_random(4242);
        let mut free: Vec<Tile> = (0..CELLS).map(Tile::from_index).filter(|t| t.in_play()).collect();
        let mut blocked = Vec::new();
        let mut updated = Pathfinder::from_structure_tiles(std::iter::empty());
        while !free.is_empty() {
            all_edge_fields(&mut updated);
            let t = free.swap_remove(next() % free.len());
            blocked.push(t);
            updated.block(t);
            let mut fresh = Pathfinder::from_structure_tiles(blocked.iter().copied());
            assert!(updated.blank == fresh.blank && updated.free == fresh.free, "after closing {t}");
            assert!(all_edge_fields(&mut updated) == all_edge_fields(&mut fresh), "after closing {t}");
        }
    }

    #[test]
    fn fields_kept_across_closing_and_opening_equal_fresh_searches() {
        // Tiles closed and opened in a random order on a board that fills up, some opened
        // and closed again before any field is asked for, the fields asked for only now and
        // then (so openings wait, and some lists overflow): each field, when asked, equals a
        // search of the board as it is.
        let mut next = pseudo_random(2024);
        let tiles: Vec<Tile> = (0..CELLS).map(Tile::from_index).filter(|t| t.in_play()).collect();
        let mut blocked: Vec<Tile> = Vec::new();
        let mut kept = Pathfinder::from_structure_tiles(std::iter::empty());
        all_edge_fields(&mut kept);
        for step in 0..3000 {
            let t = tiles[next() % tiles.len()];
            let close = !blocked.contains(&t);
            // Open more than close once the board is dense, close more while it is sparse.
            if close && blocked.len() > 200 && !next().is_multiple_of(3) {
                continue;
            }
            if close {
                blocked.push(t);
                kept.block(t);
            } else {
                blocked.retain(|&b| b != t);
                kept.unblock(t);
            }
            if next().is_multiple_of(7) {
                let mut fresh = Pathfinder::from_structure_tiles(blocked.iter().copied());
                assert!(all_edge_fields(&mut kept) == all_edge_fields(&mut fresh), "step {step}, {t}");
            }
        }
    }

    #[test]
    fn a_copy_into_old_buffers_equals_its_source() {
        // Copies between pathfinders whose boards and computed fields differ, both ways; a
        // board walled off at row 14 has deepest-tile fallback fields toward the top edges.
        let mut next = pseudo_random(99);
        let tiles: Vec<Tile> = (0..CELLS).map(Tile::from_index).filter(|t| t.in_play()).collect();
        let mut board = |density: usize, walled: bool, fields: &[Edge]| {
            let blocked = |t: &Tile, roll: usize| roll % 100 < density || (walled && t.y == 14);
            let mut p = Pathfinder::from_structure_tiles(tiles.iter().copied().filter(|t| blocked(t, next())));
            for &e in fields {
                p.field_for(Tile::new(13, 0), e);
                p.field_for(Tile::new(14, 1), e);
            }
            p
        };
        let top = [Edge::TopLeft, Edge::TopRight];
        let mut copy = board(30, false, &top);
        let sources = [
            board(10, false, &[Edge::TopLeft]),
            board(5, true, &top),
            board(50, false, &[]),
            board(0, true, &Edge::ALL),
            board(20, false, &Edge::ALL),
            board(0, true, &[Edge::TopRight]),
            board(0, false, &[Edge::BottomLeft]),
        ];
        assert!(sources.iter().any(|p| p.fallback_fields.len() >= 2), "no source with fallback fields");
        for source in sources {
            copy.clone_from(&source);
            assert!(copy.blank == source.blank && copy.free == source.free);
            assert!(copy.edge_fields == source.edge_fields && copy.opened == source.opened);
            assert!(copy.fallback_fields == source.fallback_fields);
            assert!(copy.spare.len() <= MAX_SPARE);
        }
    }

    #[test]
    fn edge_fields_equal_a_plain_search() {
        // Boards from empty to dense (pockets cut off included): the diagonal rows' search
        // gives each edge field exactly the queue search's distances.
        let mut next = pseudo_random(777);
        let tiles: Vec<Tile> = (0..CELLS).map(Tile::from_index).filter(|t| t.in_play()).collect();
        for density in [0, 5, 15, 30, 45, 60, 80, 100] {
            for _ in 0..8 {
                let blocked: Vec<Tile> = tiles.iter().copied().filter(|_| next() % 100 < density).collect();
                let p = Pathfinder::from_structure_tiles(blocked.iter().copied());
                for e in Edge::ALL {
                    assert!(p.edge_field(e, None) == p.bfs(e.tiles().into_iter(), None), "{e:?} at density {density}");
                }
            }
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
