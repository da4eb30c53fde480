//! Which attackers the attack step must look at this tick, found from the rows and columns
//! that hold enemy mobile units rather than by visiting every attacker: per enemy player and
//! per board row and column, a bit set over the positions in `RoleIndex::attackers` of the
//! structures whose reach box covers that line, plus the attackers checked every tick (a
//! box that moves, or an attack on structures). Most Turrets have no mobile unit near them in
//! most ticks; with these sets a tick costs a few words per row and column in use instead of a
//! check per attacker.

use super::geometry::BOARD_SIZE;

/// How the attack step rules out an attacker before searching its reach (docs/mechanics.md, Targeting):
/// an attacker that cannot hit structures needs an enemy mobile unit inside its reach box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AttackCheck {
    /// Hits structures too: always search.
    Always,
    /// A mobile unit that hits mobile units only: test its box where it stands now (the
    /// enemy player's index: with no enemy mobile unit on the board it is not looked at).
    MobileBox { enemy: u8 },
    /// A structure that hits mobile units only: its box never moves (columns and rows as
    /// bit masks clipped to the board, the enemy player's index). Empty masks: it reaches
    /// nothing.
    StructureBox { columns: u32, rows: u32, enemy: u8 },
    /// The attacker left the board (a clean-up removed it): its slot stays, with no bits,
    /// so the positions after it need not be indexed again (`RoleIndex::attackers` holds
    /// the position of the unit that followed it, keeping the list in order).
    Gone,
}

const LINES: usize = BOARD_SIZE as usize;
/// Lines of one enemy: its rows, then its columns.
const LINES_PER_ENEMY: usize = 2 * LINES;

#[derive(Clone, Default, Debug, PartialEq, Eq)]
pub(crate) struct AttackBits {
    /// Words per line.
    words: usize,
    /// `[enemy][row 0..28, column 0..28][word]`, `words` words a line.
    lines: Vec<u64>,
    /// Attackers checked every tick.
    always: Vec<u64>,
    /// Per enemy: the `MobileBox` attackers, checked in the ticks that enemy has a mobile unit.
    mobile_box: [Vec<u64>; 2],
    /// Attackers indexed.
    len: usize,
}

impl AttackBits {
    pub fn clear(&mut self) {
        self.lines.iter_mut().for_each(|w| *w = 0);
        self.always.iter_mut().for_each(|w| *w = 0);
        self.mobile_box.iter_mut().flatten().for_each(|w| *w = 0);
        self.len = 0;
    }

    /// Makes this index a copy of `source`, reusing its buffers.
    pub fn copy_from(&mut self, source: &AttackBits) {
        self.words = source.words;
        self.lines.clone_from(&source.lines);
        self.always.clone_from(&source.always);
        for (mine, theirs) in self.mobile_box.iter_mut().zip(&source.mobile_box) {
            mine.clone_from(theirs);
        }
        self.len = source.len;
    }

    /// Widens every line to `words` words, keeping the bits.
    fn widen(&mut self, words: usize) {
        let mut lines = vec![0u64; 2 * LINES_PER_ENEMY * words];
        for line in 0..2 * LINES_PER_ENEMY {
            let old = &self.lines[line * self.words..(line + 1) * self.words];
            lines[line * words..line * words + self.words].copy_from_slice(old);
        }
        self.lines = lines;
        self.always.resize(words, 0);
        for list in &mut self.mobile_box {
            list.resize(words, 0);
        }
        self.words = words;
    }

    /// Indexes the attacker at position `self.len` of the attacker list.
    pub fn push(&mut self, check: AttackCheck) {
        let k = self.len;
        self.len += 1;
        if k / 64 >= self.words {
            self.widen(k / 64 + 1);
        }
        self.set(k, check, true);
    }

    /// Forgets the attackers from position `len` on (the list is being truncated there);
    /// `removed` are their checks, in order, so that only their own bits are cleared.
    pub fn truncate(&mut self, len: usize, removed: &[AttackCheck]) {
        for (k, check) in (len..self.len).zip(removed) {
            self.set(k, *check, false);
        }
        self.len = self.len.min(len);
    }

    /// Clears the bits of the attacker at position `k`, whose check is `check`: the slot
    /// stays (the attacker is now `AttackCheck::Gone`).
    pub fn forget(&mut self, k: usize, check: AttackCheck) {
        self.set(k, check, false);
    }

    /// Sets (or clears) the bits of the attacker at position `k`.
    #[inline]
    fn set(&mut self, k: usize, check: AttackCheck, on: bool) {
        let (word, bit) = (k / 64, 1u64 << (k % 64));
        let apply = |w: &mut u64| if on { *w |= bit } else { *w &= !bit };
        match check {
            AttackCheck::StructureBox { columns, rows, enemy } => {
                let base = usize::from(enemy & 1) * LINES_PER_ENEMY;
                for (offset, mask) in [(0, rows), (LINES, columns)] {
                    let mut m = mask;
                    while m != 0 {
                        let line = base + offset + m.trailing_zeros() as usize;
                        m &= m - 1;
                        apply(&mut self.lines[line * self.words + word]);
                    }
                }
            }
            AttackCheck::Always => apply(&mut self.always[word]),
            AttackCheck::MobileBox { enemy } => apply(&mut self.mobile_box[usize::from(enemy & 1)][word]),
            AttackCheck::Gone => {}
        }
    }

    pub fn words(&self) -> usize {
        self.words
    }

    /// Word `w` of the attackers to look at: those checked every tick, and per enemy with
    /// a mobile unit the mobile attackers of mobile units only and the structures whose box
    /// covers one of `rows` and one of `columns` (bit masks of the lines holding that enemy's
    /// mobile units). A superset: the exact test follows.
    #[inline]
    pub fn candidates(&self, w: usize, lines_in_use: &[(u32, u32); 2]) -> u64 {
        let mut out = self.always[w];
        for (enemy, &(rows, columns)) in lines_in_use.iter().enumerate() {
            if rows == 0 {
                continue;
            }
            out |= self.mobile_box[enemy][w];
            let base = enemy * LINES_PER_ENEMY;
            let any = |mut mask: u32, offset: usize| {
                let mut acc = 0u64;
                while mask != 0 {
                    let line = base + offset + mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    acc |= self.lines[line * self.words + w];
                }
                acc
            };
            let by_row = any(rows, 0);
            if by_row != 0 {
                out |= by_row & any(columns, LINES);
            }
        }
        out
    }

    /// The positions set on one line, for tests that compare two indexes.
    #[cfg(test)]
    pub(crate) fn line_positions(&self, enemy: usize, line: usize) -> Vec<usize> {
        let start = (enemy * LINES_PER_ENEMY + line) * self.words;
        positions(&self.lines[start..start + self.words], self.len)
    }

    #[cfg(test)]
    pub(crate) fn always_positions(&self) -> Vec<usize> {
        positions(&self.always, self.len)
    }

    #[cfg(test)]
    pub(crate) fn mobile_box_positions(&self, enemy: usize) -> Vec<usize> {
        positions(&self.mobile_box[enemy], self.len)
    }
}

#[cfg(test)]
fn positions(words: &[u64], len: usize) -> Vec<usize> {
    (0..len).filter(|k| words.get(k / 64).is_some_and(|w| w & (1 << (k % 64)) != 0)).collect()
}
