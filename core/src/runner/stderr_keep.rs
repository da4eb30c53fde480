//! Which of an algo's stderr lines are kept under the byte cap: the head (the first half of
//! the cap, written as they come) and the tail (the last lines, held until the algo is done,
//! since a crash's traceback comes last and is what a player needs). What falls between is
//! counted — bytes, lines and the turns they belong to — so the log can say exactly what
//! is missing.

use std::collections::VecDeque;

/// A line held for the tail: its turn, its text (without the newline) and the bytes cut
/// from its end (a line longer than the longest line looked at).
#[derive(Debug, Clone, PartialEq)]
pub struct TailLine {
    pub turn: i32,
    pub text: Vec<u8>,
    pub cut: u64,
}

/// Whole lines dropped between the head and the tail.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Gap {
    pub bytes: u64,
    pub lines: u64,
    /// First and last turn of the dropped lines.
    pub turns: Option<(i32, i32)>,
}

impl Gap {
    fn add(&mut self, line: &TailLine) {
        self.bytes += line.text.len() as u64 + 1;
        self.lines += 1;
        self.turns = Some(self.turns.map_or((line.turn, line.turn), |(a, b)| (a.min(line.turn), b.max(line.turn))));
    }
}

#[derive(Debug)]
pub struct Keep {
    cap: u64,
    /// Bytes written to the head (lines and their newlines).
    head: u64,
    head_full: bool,
    tail: VecDeque<TailLine>,
    tail_bytes: u64,
    gap: Gap,
}

impl Keep {
    pub fn new(cap: u64) -> Keep {
        Keep { cap, head: 0, head_full: false, tail: VecDeque::new(), tail_bytes: 0, gap: Gap::default() }
    }

    /// Takes one line (`text` without its newline, `cut` bytes already cut from its end):
    /// true if it goes to the head, to be written now; false if it was held for the tail
    /// (or dropped, counted in the gap).
    pub fn take(&mut self, turn: i32, text: &[u8], cut: u64) -> bool {
        let len = text.len() as u64 + 1;
        if !self.head_full {
            if self.head + len <= self.cap / 2 {
                self.head += len;
                return true;
            }
            self.head_full = true;
        }
        // The tail may fill what the head left of the cap: everything is kept when it fits.
        let room = self.cap - self.head;
        self.tail.push_back(TailLine { turn, text: text.to_vec(), cut });
        self.tail_bytes += len;
        while self.tail_bytes > room {
            let Some(old) = self.tail.pop_front() else { break };
            self.tail_bytes -= old.text.len() as u64 + 1;
            self.gap.add(&old);
        }
        false
    }

    pub(crate) fn head_bytes(&self) -> u64 {
        self.head
    }

    /// The tail lines in order, and what was dropped between head and tail.
    pub fn finish(self) -> (VecDeque<TailLine>, u64, Gap) {
        (self.tail, self.tail_bytes, self.gap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: usize) -> Vec<u8> {
        vec![b'x'; n - 1]
    }

    #[test]
    fn all_is_kept_when_it_fits() {
        let mut k = Keep::new(100);
        assert!(k.take(0, &line(30), 0));
        assert!(k.take(0, &line(20), 0));
        assert!(!k.take(1, &line(30), 0));
        assert!(!k.take(2, &line(20), 0));
        let (tail, bytes, gap) = k.finish();
        assert_eq!((tail.len(), bytes, gap), (2, 50, Gap::default()));
    }

    #[test]
    fn the_tail_keeps_the_last_lines_and_the_gap_counts_the_rest() {
        let mut k = Keep::new(100);
        assert!(k.take(0, &line(50), 0));
        for turn in 1..=10 {
            assert!(!k.take(turn, &line(20), 0));
        }
        let (tail, bytes, gap) = k.finish();
        assert_eq!(tail.iter().map(|l| l.turn).collect::<Vec<_>>(), [9, 10]);
        assert_eq!(bytes, 40);
        assert_eq!(gap, Gap { bytes: 160, lines: 8, turns: Some((1, 8)) });
    }
}
