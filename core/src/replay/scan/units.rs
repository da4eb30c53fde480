//! Unit lists: read entry by entry, or skipped to their closing bracket unread.

use super::numbers::compact_unit;
use super::{Cursor, SeenList};
use crate::engine::frame::*;
use crate::engine::geometry::Tile;

impl<'a> Cursor<'a> {
    /// A player's unit lists, read into `buffer` and copied out at their exact size; a list
    /// of the same bytes as the one at its place in `seen` is copied from there.
    pub(super) fn unit_lists(
        &mut self,
        buffer: &mut Vec<UnitEntry>,
        seen: &mut Vec<SeenList<'a>>,
    ) -> Option<Vec<Vec<UnitEntry>>> {
        self.expect(b'[')?;
        let mut lists = Vec::with_capacity(UNIT_LISTS);
        if self.eat(b']') {
            return Some(lists);
        }
        loop {
            let k = lists.len();
            if seen.len() <= k {
                seen.push(SeenList::default());
            }
            lists.push(self.seen_or_read_list(buffer, &mut seen[k])?);
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b']')?;
        Some(lists)
    }

    /// The list at the cursor: copied from `seen` if its bytes are the same, else read and
    /// kept in `seen`. A list the scanner read is whole from its `[` to its `]`, and the
    /// strings in it are ids of digits, so bytes that start with it hold that list.
    #[inline]
    fn seen_or_read_list(&mut self, buffer: &mut Vec<UnitEntry>, seen: &mut SeenList<'a>) -> Option<Vec<UnitEntry>> {
        let start = self.i;
        if !seen.bytes.is_empty() && self.b[start..].starts_with(seen.bytes) {
            self.i += seen.bytes.len();
            return Some(seen.entries.clone());
        }
        let list = self.unit_list(buffer)?;
        if self.b[start] == b'[' {
            seen.bytes = &self.b[start..self.i];
            seen.entries.clone_from(&list);
        }
        Some(list)
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

    /// Skips a player's unit lists without reading them; returns how many lists there are. A
    /// list of the same bytes as one read or skipped at its place before is passed over at
    /// once; another is followed to its closing bracket (brackets and strings heeded, nothing
    /// else checked). Anything in the player's list that is not a list: `None`.
    pub(super) fn skip_lists(&mut self, seen: &mut Vec<SeenList<'a>>) -> Option<usize> {
        self.expect(b'[')?;
        if self.eat(b']') {
            return Some(0);
        }
        let mut lists = 0;
        loop {
            if seen.len() <= lists {
                seen.push(SeenList::default());
            }
            self.skip_list(&mut seen[lists])?;
            lists += 1;
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b']')?;
        Some(lists)
    }

    /// Skips the list at the cursor, noting its bytes in `seen`.
    #[inline]
    fn skip_list(&mut self, seen: &mut SeenList<'a>) -> Option<()> {
        if self.peek() != b'[' {
            return None;
        }
        let start = self.i;
        let rest = &self.b[start..];
        for known in [seen.bytes, seen.skipped] {
            if !known.is_empty() && rest.starts_with(known) {
                self.i += known.len();
                return Some(());
            }
        }
        let mut depth = 0usize;
        let mut i = start;
        while let Some(&c) = self.b.get(i) {
            match c {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        self.i = i + 1;
                        seen.skipped = &self.b[start..self.i];
                        return Some(());
                    }
                }
                b'"' => loop {
                    i += 1;
                    match self.b.get(i)? {
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
