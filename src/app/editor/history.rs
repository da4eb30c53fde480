//! Undo/redo of layout edits: snapshots of the whole layout (a few kilobytes at most).
//!
//! A drag that paints many tiles is one step: `begin` before the first tile, `commit` after
//! the last; `commit` records nothing if the layout did not change.

use terminal_core::layout::Layout;

/// Most undo steps kept.
const LIMIT: usize = 500;

#[derive(Default, Clone, Debug)]
pub struct History {
    undo: Vec<Layout>,
    redo: Vec<Layout>,
    /// The layout before the edit in progress, if any.
    pending: Option<Layout>,
}

impl History {
    /// Starts an edit (or a stroke of edits) of `current`.
    pub fn begin(&mut self, current: &Layout) {
        if self.pending.is_none() {
            self.pending = Some(current.clone());
        }
    }

    /// Ends the edit in progress; records an undo step iff the layout changed.
    pub fn commit(&mut self, current: &Layout) -> bool {
        let Some(before) = self.pending.take() else {
            return false;
        };
        if before.structures == current.structures && before.name == current.name {
            return false;
        }
        self.undo.push(before);
        if self.undo.len() > LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
        true
    }

    pub fn in_progress(&self) -> bool {
        self.pending.is_some()
    }

    /// Replaces `current` with the previous state; false if there is none.
    pub fn undo(&mut self, current: &mut Layout) -> bool {
        self.commit(current);
        match self.undo.pop() {
            Some(prev) => {
                self.redo.push(std::mem::replace(current, prev));
                true
            }
            None => false,
        }
    }

    pub fn redo(&mut self, current: &mut Layout) -> bool {
        self.commit(current);
        match self.redo.pop() {
            Some(next) => {
                self.undo.push(std::mem::replace(current, next));
                true
            }
            None => false,
        }
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    pub fn clear(&mut self) {
        *self = History::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use terminal_core::engine::geometry::{Player, Tile};
    use terminal_core::layout::Kind;

    #[test]
    fn undo_redo_steps() {
        let mut h = History::default();
        let mut l = Layout::default();
        for x in 10..13 {
            h.begin(&l);
            l.place(Player::One, Tile::new(x, 13), Kind::Wall);
            assert!(h.commit(&l));
        }
        assert_eq!(l.len(), 3);
        assert!(h.undo(&mut l));
        assert_eq!(l.len(), 2);
        assert!(h.undo(&mut l));
        assert!(h.redo(&mut l));
        assert_eq!(l.len(), 2);
        // A new edit drops the redo branch.
        h.begin(&l);
        l.erase(Player::One, Tile::new(10, 13));
        h.commit(&l);
        assert!(!h.can_redo());
        assert!(h.undo(&mut l));
        assert!(h.undo(&mut l));
        assert!(h.undo(&mut l));
        assert!(l.is_empty());
        assert!(!h.undo(&mut l));
    }

    #[test]
    fn a_stroke_is_one_step_and_no_op_edits_record_nothing() {
        let mut h = History::default();
        let mut l = Layout::default();
        h.begin(&l);
        for x in 5..20 {
            l.place(Player::One, Tile::new(x, 13), Kind::Wall);
            h.begin(&l); // later begins inside a stroke are ignored
        }
        assert!(h.commit(&l));
        h.begin(&l);
        l.place(Player::One, Tile::new(5, 13), Kind::Wall);
        assert!(!h.commit(&l), "placing the same wall again changes nothing");
        assert!(h.undo(&mut l));
        assert!(l.is_empty());
    }
}
