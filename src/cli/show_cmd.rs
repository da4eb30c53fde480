//! `terminal-studio show FILE --turn N [--frame K]`: a frame of a replay as text.

use super::error::{CliError, Outcome};
use std::path::PathBuf;
use terminal_core::replay::read_replay;
use terminal_core::session::board_text::render_frame;
use terminal_core::session::history::History;

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    pub replay: PathBuf,
    #[arg(long)]
    pub turn: i32,
    /// Frame within the turn: 0 = turn frame, k = action frame k − 1.
    #[arg(long, default_value_t = 0)]
    pub frame: usize,
}

pub fn run(args: &ShowArgs) -> Result<Outcome, CliError> {
    let replay = read_replay(&args.replay)?;
    if let Some(line) = replay.truncated_at {
        // Said on stderr: stdout stays the board alone.
        eprintln!(
            "{}: truncated at line {line} (a match killed while writing it); its last complete frame is the end",
            args.replay.display()
        );
    }
    let history = History::new(replay);
    let turn = args.turn;
    let Some(pos) = history.turn_position(turn) else {
        let last = history.turns.last().map_or(-1, |t| t.turn);
        return Err(CliError::NoSuchTurn { path: args.replay.clone(), turn, last });
    };
    let span = history.turns[pos];
    let frame = history.index_of(pos, args.frame).and_then(|i| history.frame(i));
    match frame {
        Some(f) if args.frame < span.len => {
            print!("{}", render_frame(f));
            Ok(Outcome::Done)
        }
        _ => Err(CliError::NoSuchFrame { path: args.replay.clone(), turn, last: span.len.saturating_sub(1) }),
    }
}
