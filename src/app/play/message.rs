//! The Play view's message: its own line, holding the newest of what the view, its board and
//! the studio said, and cleared once stale — a new turn on the board, the match's end (whose
//! result waits until the board has shown the match to its last frame).

use super::PlayView;

impl PlayView {
    /// Brings the message up to date, once a frame before the view is drawn.
    pub(super) fn refresh_message(&mut self, studio_said: &mut String) {
        if !studio_said.is_empty() {
            self.message = std::mem::take(studio_said);
        }
        let board_said = self.viewer.message();
        if board_said != self.board_said {
            self.board_said = board_said.to_string();
            if !board_said.is_empty() {
                self.message = self.board_said.clone();
            }
        }
        let turn = self.viewer.turn();
        if turn != self.message_turn {
            // Said of the turn before (sent, refused, undone): stale on a new one.
            if self.message_turn.is_some() && (self.running.is_some() || self.pending_result.is_some()) {
                self.message.clear();
            }
            self.message_turn = turn;
        }
        if self.board_reached_the_end()
            && let Some(result) = self.pending_result.take()
        {
            self.message = result;
        }
    }

    /// The match's end, said once the board has shown it (said now, it would tell the result
    /// ahead of the board).
    pub(super) fn say_at_the_end(&mut self, result: String) {
        self.message.clear();
        self.pending_result = Some(result);
    }
}
