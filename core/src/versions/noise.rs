//! Whether a version plays the same game twice: one of its games played again, same
//! opponent, seat and seed, compared frame by frame. An algo with unseeded randomness, or one
//! whose play depends on how long it thinks, parts from itself, and then a "flipped" game may
//! be its noise rather than the change.

use super::divergence::{Divergence, first_divergence};
use super::error::VersionsError;
use crate::replay::read_replay;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The same game played twice.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NoiseCheck {
    /// The opponent of the game played twice.
    pub opponent: String,
    pub seat: u8,
    pub deterministic: bool,
    /// Where the two plays parted, when they did.
    pub parted_at: Option<Divergence>,
    pub replays: [PathBuf; 2],
}

/// Compares the two plays of one game.
pub fn compare_plays(opponent: &str, seat: u8, first: &Path, second: &Path) -> Result<NoiseCheck, VersionsError> {
    let read =
        |p: &Path| read_replay(p).map_err(|e| VersionsError::Replay { path: p.to_path_buf(), message: e.to_string() });
    let parted_at = first_divergence(&read(first)?, &read(second)?);
    Ok(NoiseCheck {
        opponent: opponent.to_string(),
        seat,
        deterministic: parted_at.is_none(),
        parted_at,
        replays: [first.to_path_buf(), second.to_path_buf()],
    })
}
