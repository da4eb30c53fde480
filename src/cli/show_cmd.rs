//! `terminal-studio show FILE --turn N [--frame K]`: a frame of a replay as text.

use std::path::Path;
use std::process::ExitCode;
use terminal_core::replay::read_replay;
use terminal_core::session::board_text::render_frame;
use terminal_core::session::history::History;

pub fn run(path: &Path, turn: i32, frame: usize) -> ExitCode {
    let replay = match read_replay(path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let history = History::new(replay);
    let Some(pos) = history.turn_position(turn) else {
        let last = history.turns.last().map_or(-1, |t| t.turn);
        eprintln!("{}: no turn {turn} (turns 0–{last})", path.display());
        return ExitCode::from(2);
    };
    let span = history.turns[pos];
    if frame >= span.len {
        eprintln!("{}: turn {turn} has frames 0–{}", path.display(), span.len - 1);
        return ExitCode::from(2);
    }
    let Some(f) = history.index_of(pos, frame).and_then(|i| history.frame(i)) else {
        eprintln!("{}: frame not found", path.display());
        return ExitCode::from(2);
    };
    print!("{}", render_frame(f));
    ExitCode::SUCCESS
}
