//! The fast path of the frame reader: a hand-written scanner over the bytes of a frame line
//! that reads numbers and ids straight from the bytes, with no JSON tree and no serde. It takes
//! only the shape the engines write (the keys it knows, each once; tiles of two integers, unit
//! entries of four elements, stats of four, plain decimal numbers of at most 15 digits, ids of
//! digits) and gives up (`None`) on anything else: a null where a list belongs, an exponent, an
//! escape in a key, an unknown key, `endStats`, a float where an integer belongs, a number too
//! long for the exact shortcut below. The reader then reads the line the typed way
//! (`typed_frame`) and, failing that, through `parse::parse_frame`, which names the bad field.
//! So every frame it returns is exactly the one `parse_frame` builds from the same line:
//!
//! - an integer of at most 18 digits is exact in an `i64`; narrowing to `i32` (tiles, turn)
//!   and the `u32` of a numeric id truncate as `parse_frame` does;
//! - a decimal of at most 15 significant digits `m` with `k` of them after the point is
//!   `m / 10^k` in `f64`: both exact, and IEEE division rounds correctly, so it is the `f64`
//!   serde_json's exact parser gives; then narrowed to `f32` as `parse_frame` does;
//! - every byte it accepts is one that JSON accepts at that place (no leading zero, no `+`,
//!   no trailing comma, nothing after the object but whitespace).
//!
//! With `skip_action_units`, the unit lists of action frames are skipped to their closing
//! bracket (strings heeded) without being read: they come out as that many empty lists.

mod cursor;
mod events;
mod numbers;
#[cfg(test)]
mod tests;
mod units;

use crate::engine::frame::*;
use cursor::Cursor;

/// The scanner, with buffers kept from line to line so that a unit or event list costs one
/// allocation of its exact size, and the unit lists last read, per player: from one frame to
/// the next most lists are the same bytes (nine bytes in ten of a live-2022 replay's lists),
/// and a list seen before is copied, not read again.
#[derive(Default)]
pub(super) struct Scanner<'a> {
    units: Vec<UnitEntry>,
    events: Events,
    last_lists: [Vec<SeenList<'a>>; 2],
}

/// The unit list last read at a place: its bytes (a whole list, brackets included) and its
/// entries; and the list last skipped there unread.
#[derive(Default)]
pub(super) struct SeenList<'a> {
    bytes: &'a [u8],
    entries: Vec<UnitEntry>,
    skipped: &'a [u8],
}

impl<'a> Scanner<'a> {
    /// The frame of a line and whether one of its death events lacks the `removed` flag, as
    /// `typed_frame::parse_frame_line` tells them; `None`: not the usual shape, read it
    /// another way. With `skip_action_units`, an action frame's unit lists are left empty
    /// (as many lists as the line has).
    pub(super) fn frame(&mut self, line: &'a str, skip_action_units: bool) -> Option<(Frame, bool)> {
        let mut c = Cursor { b: line.as_bytes(), i: 0 };
        c.expect(b'{')?;
        let mut frame = Frame::default();
        let mut seen = 0u8;
        let mut death_without_flag = false;
        // Unit lists skipped before `turnInfo` told the phase: where they start, how many.
        let mut skipped: [Option<(usize, usize)>; 2] = [None, None];
        loop {
            let key = c.key()?;
            let bit = match key {
                b"turnInfo" => 0,
                b"p1Stats" => 1,
                b"p2Stats" => 2,
                b"p1Units" => 3,
                b"p2Units" => 4,
                b"events" => 5,
                _ => return None,
            };
            if seen & (1 << bit) != 0 {
                return None;
            }
            seen |= 1 << bit;
            match bit {
                0 => frame.turn_info = c.turn_info()?,
                1 | 2 => frame.stats[bit as usize - 1] = c.stats()?,
                3 | 4 => {
                    let p = bit as usize - 3;
                    let phase_known = seen & 1 != 0;
                    if skip_action_units && !(phase_known && frame.turn_info.phase != Phase::Action) {
                        let start = c.i;
                        let lists = c.skip_lists(&mut self.last_lists[p])?;
                        if phase_known {
                            frame.units[p] = vec![Vec::new(); lists];
                        } else {
                            skipped[p] = Some((start, lists));
                        }
                    } else {
                        frame.units[p] = c.unit_lists(&mut self.units, &mut self.last_lists[p])?;
                    }
                }
                _ => c.events(&mut frame.events, &mut self.events, &mut death_without_flag)?,
            }
            if !c.eat(b',') {
                break;
            }
        }
        c.expect(b'}')?;
        c.ws();
        if c.i != c.b.len() || seen & 1 == 0 {
            return None;
        }
        for (p, skipped) in skipped.into_iter().enumerate() {
            let Some((start, lists)) = skipped else { continue };
            frame.units[p] = if frame.turn_info.phase == Phase::Action {
                vec![Vec::new(); lists]
            } else {
                Cursor { b: c.b, i: start }.unit_lists(&mut self.units, &mut self.last_lists[p])?
            };
        }
        Some((frame, death_without_flag))
    }
}
