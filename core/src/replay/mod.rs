//! `.replay` files (docs/replay-format.md): a robust reader (plain or gzip, current and legacy formats)
//! and a writer that produces the official format.

pub mod decision;
pub mod follow;
mod parse;
pub mod reader;
pub mod recap;
mod scan;
mod typed_frame;
pub mod writer;

pub use parse::{FieldError, parse_frame};
pub use reader::{
    Detail, Replay, ReplayError, maybe_gunzip, read_replay, read_replay_bytes, read_replay_bytes_with,
    read_replay_summary, read_replay_with,
};
pub use writer::{ReplayWriter, frame_to_json};
