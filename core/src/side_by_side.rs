//! Two replays side by side, synchronised by turn and action frame: the shared position, the
//! frame each shows there and the tiles whose unit lists differ. The studio draws it for two
//! matches of the arena and for two what-if tries of the Debugger.

use crate::engine::frame::Frame;
use crate::engine::geometry::{Player, Tile};
use crate::replay::{Replay, ReplayError, read_replay};
use crate::session::whatif::WhatIfTry;
use std::collections::BTreeMap;
use std::path::Path;

/// One unit on a tile as compared: owner, type, health rounded to 0.1.
type TileUnit = (u8, usize, i64);

/// Two loaded replays and the shared position.
pub struct SideBySide {
    pub a: Replay,
    pub b: Replay,
    /// Shared position: turn and action frame within the turn.
    pub turn: i32,
    pub frame: i32,
    /// The boards' titles (file names, or the tries' labels).
    pub titles: [String; 2],
}

impl SideBySide {
    pub fn open(a: &Path, b: &Path) -> Result<SideBySide, ReplayError> {
        Ok(SideBySide::new(read_replay(a)?, read_replay(b)?))
    }

    pub fn new(a: Replay, b: Replay) -> SideBySide {
        let turn = a.frames.first().map(|f| f.turn_info.turn).unwrap_or(0);
        let titles = [format!("A: {}", a.file_name()), format!("B: {}", b.file_name())];
        SideBySide { a, b, turn, frame: 0, titles }
    }

    /// Two what-if tries side by side (the baseline try stands for the turn as played): each
    /// try's frames become a small in-memory replay, so the comparison works as for matches.
    pub fn from_tries(a: (&WhatIfTry, String), b: (&WhatIfTry, String)) -> SideBySide {
        let replay = |t: &WhatIfTry| Replay {
            source: Default::default(),
            config: (*t.config).clone(),
            config_line: 0,
            frames: t.frames.to_vec(),
            frame_lines: vec![0; t.frames.len()],
            legacy: false,
            truncated_at: None,
        };
        let mut c = SideBySide::new(replay(a.0), replay(b.0));
        c.turn = a.0.turn;
        c.titles = [format!("A: {}", a.1), format!("B: {}", b.1)];
        c
    }

    /// The last turn of either replay.
    pub fn max_turn(&self) -> i32 {
        [&self.a, &self.b].iter().filter_map(|r| r.frames.iter().map(|f| f.turn_info.turn).max()).max().unwrap_or(0)
    }

    /// The last frame index within the current turn in either replay (frame 0 is the
    /// turn's deploy frame, then one per action tick).
    pub fn max_frame(&self) -> i32 {
        [&self.a, &self.b]
            .iter()
            .map(|r| r.frames.iter().filter(|f| f.turn_info.turn == self.turn).count())
            .max()
            .unwrap_or(0)
            .saturating_sub(1) as i32
    }

    /// The frame a replay shows at the shared position: the `frame`-th frame of the turn
    /// (its last one if the turn is shorter), or the last frame before the turn.
    pub fn frame_of<'r>(&self, r: &'r Replay) -> Option<&'r Frame> {
        self.frame_index_of(r).and_then(|i| r.frames.get(i))
    }

    /// The index in `r.frames` of [`SideBySide::frame_of`].
    pub fn frame_index_of(&self, r: &Replay) -> Option<usize> {
        let of_turn: Vec<usize> = (0..r.frames.len()).filter(|&i| r.frames[i].turn_info.turn == self.turn).collect();
        if let Some(&last) = of_turn.last() {
            return Some(of_turn.get(self.frame.max(0) as usize).copied().unwrap_or(last));
        }
        r.frames.iter().rposition(|f| f.turn_info.turn < self.turn).or((!r.frames.is_empty()).then_some(0))
    }

    /// The first turn of either replay.
    pub fn min_turn(&self) -> i32 {
        [&self.a, &self.b].iter().filter_map(|r| r.frames.iter().map(|f| f.turn_info.turn).min()).min().unwrap_or(0)
    }

    /// Moves to frame `frame` of `turn`, both clamped to what the replays hold.
    pub fn seek(&mut self, turn: i32, frame: i32) {
        self.turn = turn.clamp(self.min_turn(), self.max_turn());
        self.frame = frame.clamp(0, self.max_frame());
    }

    /// Tiles whose unit lists differ between the two current frames.
    pub fn differing_tiles(&self) -> Vec<Tile> {
        let (fa, fb) = (self.frame_of(&self.a), self.frame_of(&self.b));
        let (ma, mb) = (fa.map(tile_units).unwrap_or_default(), fb.map(tile_units).unwrap_or_default());
        let mut keys: Vec<(i32, i32)> = ma.keys().chain(mb.keys()).copied().collect();
        keys.sort_unstable();
        keys.dedup();
        keys.retain(|k| ma.get(k) != mb.get(k));
        keys.into_iter().map(|(x, y)| Tile::new(x, y)).collect()
    }

    /// The number of highlighted tiles.
    pub fn diff_count(&self) -> usize {
        self.differing_tiles().len()
    }

    pub fn step_frame(&mut self, forward: bool) {
        if forward {
            if self.frame < self.max_frame() {
                self.frame += 1;
            } else if self.turn < self.max_turn() {
                self.turn += 1;
                self.frame = 0;
            }
        } else if self.frame > 0 {
            self.frame -= 1;
        } else if self.turn > self.min_turn() {
            self.turn -= 1;
            self.frame = self.max_frame();
        }
    }

    pub fn step_turn(&mut self, forward: bool) {
        self.turn = if forward { (self.turn + 1).min(self.max_turn()) } else { (self.turn - 1).max(self.min_turn()) };
        self.frame = 0;
    }
}

/// Per tile, the sorted units on it (owner, type, health).
fn tile_units(f: &Frame) -> BTreeMap<(i32, i32), Vec<TileUnit>> {
    let mut map: BTreeMap<(i32, i32), Vec<TileUnit>> = BTreeMap::new();
    for p in Player::both() {
        for (t, u) in f.real_units(p) {
            map.entry((u.tile.x, u.tile.y)).or_default().push((p.number(), t, (u.health * 10.0).round() as i64));
        }
    }
    for v in map.values_mut() {
        v.sort_unstable();
    }
    map
}
