//! The frame history of a loaded replay: the parsed frames themselves, indexed by turn, so
//! that seeking, stepping back and scrubbing are a lookup. Memory is measured by
//! `approx_bytes` (5.2 MB for a 100-turn, 1,921-frame live-2022 replay; 4.5 MB for the largest file of the corpus),
//! small enough that keyframes plus deltas would not pay for their complexity.

use crate::engine::Config;
use crate::engine::frame::{Events, Frame, Phase};
use crate::replay::Replay;
use crate::verify::rebuild::{is_early_2020, max_id_in, running_max_ids};
use std::mem::size_of;
use std::path::PathBuf;
use std::sync::Arc;

/// One turn's frames: `start` is the turn frame's index, `len` counts it and its action frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnSpan {
    pub turn: i32,
    pub start: usize,
    pub len: usize,
}

pub struct History {
    pub replay: Replay,
    pub config: Arc<Config>,
    pub turns: Vec<TurnSpan>,
    /// Highest unit id seen up to each frame (for rebuilding games).
    pub max_ids: Vec<u32>,
    pub early_2020: bool,
    /// The players' names while a live match has no end frame yet.
    pub live_names: Option<[String; 2]>,
}

impl History {
    pub fn new(replay: Replay) -> History {
        let config = Arc::new(replay.config.clone());
        let starts = replay.turn_starts();
        let mut turns = Vec::with_capacity(starts.len());
        for (i, &start) in starts.iter().enumerate() {
            let end = starts.get(i + 1).copied().unwrap_or(replay.frames.len());
            let len = (start..end).take_while(|&k| replay.frames[k].turn_info.phase != Phase::End).count();
            turns.push(TurnSpan { turn: replay.frames[start].turn_info.turn, start, len: len.max(1) });
        }
        let max_ids = running_max_ids(&replay.frames);
        let early_2020 = !replay.legacy && is_early_2020(&replay, &config, &max_ids);
        History { replay, config, turns, max_ids, early_2020, live_names: None }
    }

    /// An empty history that a live match's frames are appended to ([`History::push`]);
    /// `source` is where its replay is being written (its companion files sit beside it).
    pub fn live(config: Arc<Config>, source: PathBuf, names: [String; 2]) -> History {
        let replay = Replay {
            source,
            config: (*config).clone(),
            config_line: 1,
            frames: Vec::new(),
            frame_lines: Vec::new(),
            legacy: config.legacy,
            truncated_at: None,
        };
        History { replay, config, turns: Vec::new(), max_ids: Vec::new(), early_2020: false, live_names: Some(names) }
    }

    /// Appends the next frame of a live match.
    pub fn push(&mut self, frame: Frame) {
        let index = self.replay.frames.len();
        let max = self.max_ids.last().copied().unwrap_or(0).max(max_id_in(&frame));
        self.max_ids.push(max);
        match frame.turn_info.phase {
            Phase::Deploy => self.turns.push(TurnSpan { turn: frame.turn_info.turn, start: index, len: 1 }),
            Phase::Action => {
                if let Some(last) = self.turns.last_mut() {
                    last.len += 1;
                }
            }
            Phase::End => {}
        }
        self.replay.frame_lines.push(index + 2);
        self.replay.frames.push(frame);
    }

    /// Position in `turns` of a turn number.
    pub fn turn_position(&self, turn: i32) -> Option<usize> {
        self.turns.iter().position(|t| t.turn == turn)
    }

    /// The frame index of frame `frame` of the turn at `pos` (clamped to the turn).
    pub fn index_of(&self, pos: usize, frame: usize) -> Option<usize> {
        let span = self.turns.get(pos)?;
        Some(span.start + frame.min(span.len - 1))
    }

    pub fn frame(&self, index: usize) -> Option<&Frame> {
        self.replay.frames.get(index)
    }

    /// Approximate heap bytes held by the parsed frames (element sizes × capacities).
    pub fn approx_bytes(&self) -> usize {
        self.replay.frames.iter().map(frame_bytes).sum::<usize>()
            + self.replay.frames.capacity() * size_of::<Frame>()
            + self.replay.frame_lines.capacity() * size_of::<usize>()
            + self.max_ids.capacity() * size_of::<u32>()
    }
}

/// Approximate heap bytes of one parsed frame.
pub(crate) fn frame_bytes(f: &Frame) -> usize {
    let mut n = 0;
    for lists in &f.units {
        n += lists.capacity() * size_of::<Vec<()>>();
        n += lists.iter().map(|l| l.capacity() * size_of::<crate::engine::frame::UnitEntry>()).sum::<usize>();
    }
    n + events_bytes(&f.events)
        + f.end_stats.as_ref().map_or(0, |e| size_of::<crate::engine::frame::EndStats>() + e.players.len() * 32)
}

fn events_bytes(e: &Events) -> usize {
    fn v<T>(x: &Vec<T>) -> usize {
        x.capacity() * size_of::<T>()
    }
    v(&e.self_destruct)
        + e.self_destruct.iter().map(|s| v(&s.victims)).sum::<usize>()
        + v(&e.breach)
        + v(&e.damage)
        + v(&e.shield)
        + v(&e.moves)
        + v(&e.spawn)
        + v(&e.death)
        + v(&e.attack)
        + v(&e.melee)
}
