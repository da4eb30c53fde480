//! Unit lists: read entry by entry, or skipped to their closing bracket unread.

use super::Cursor;
use super::numbers::compact_unit;
use crate::engine::frame::*;
use crate::engine::geometry::Tile;

impl Cursor<'_> {
    /// A player's unit lists, read into `buffer` and copied out at their exact size.
    pub(super) fn unit_lists(&mut self, buffer: &mut Vec<UnitEntry>) -> Option<Vec<Vec<UnitEntry>>> {
        self.expect(b'[')?;
        let mut lists = Vec::with_capacity(UNIT_LISTS);
        if self.eat(b']') {
            return Some(lists);
        }
        loop {
            lists.push(self.unit_list(buffer)?);
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b']')?;
        Some(lists)
    }

    /// `[[x, y, health, id], …]`.
    #[inline]
    pub(super) fn unit_list(&mut self, buffer: &mut Vec<UnitEntry>) -> Option<Vec<UnitEntry>> {
        self.expect(b'[')?;
        if self.eat(b']') {
            return Some(Vec::new());
        }
        buffer.clear();
        loop {
            match compact_unit(self.b, self.i) {
                Some((unit, next)) => {
                    buffer.push(unit);
                    self.i = next;
                }
                None => buffer.push(self.unit()?),
            }
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b']')?;
        Some(buffer.as_slice().to_vec())
    }

    /// `[x, y, health, id]` in any form this scanner reads.
    pub(super) fn unit(&mut self) -> Option<UnitEntry> {
        self.expect(b'[')?;
        let x = self.int()?;
        self.expect(b',')?;
        let y = self.int()?;
        self.expect(b',')?;
        let health = self.figure()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b']')?;
        Some(UnitEntry { tile: Tile::new(x as i32, y as i32), health, id })
    }

    /// Skips a player's unit lists to the closing bracket without reading them (the brackets
    /// and strings are followed, nothing else is checked); returns how many lists there are.
    pub(super) fn skip_lists(&mut self) -> Option<usize> {
        if self.peek() != b'[' {
            return None;
        }
        let b = self.b;
        let (mut depth, mut lists) = (0usize, 0);
        let mut i = self.i;
        while let Some(&c) = b.get(i) {
            match c {
                b'[' => {
                    depth += 1;
                    lists += usize::from(depth == 2);
                }
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        self.i = i + 1;
                        return Some(lists);
                    }
                }
                b'"' => loop {
                    i += 1;
                    match b.get(i)? {
                        b'"' => break,
                        b'\\' => i += 1,
                        _ => {}
                    }
                },
                b'{' | b'}' => return None,
                _ => {}
            }
            i += 1;
        }
        None
    }
}
