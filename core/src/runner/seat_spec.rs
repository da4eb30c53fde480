//! Who plays a seat: an algo (a folder or start script), a ghost (the commands one player
//! of a recorded replay issued, turn by turn) or a person at the studio.

use super::ghost::{GHOST_PREFIX, Ghost, GhostError};
use super::human::HumanSeat;
use crate::engine::geometry::Player;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub enum SeatSpec {
    /// An algo folder holding `run.sh`, or the start script itself.
    Algo(PathBuf),
    /// A recorded player, replayed turn by turn.
    Ghost(Ghost),
    /// A person, whose commands arrive over a channel (the studio's Play view).
    Human(HumanSeat),
}

impl SeatSpec {
    /// Reads a seat argument: `ghost:PATH[:1|2]` is a ghost (only a trailing `:1` or `:2`
    /// picks the player, so a path may hold colons, as `C:\…` does), anything else an algo.
    pub fn parse(arg: &str) -> Result<SeatSpec, GhostError> {
        match parse_ghost_arg(arg) {
            Some((path, player)) => Ok(SeatSpec::Ghost(Ghost::load(&path, player)?)),
            None => Ok(SeatSpec::Algo(PathBuf::from(arg))),
        }
    }

    /// The ghost in this seat, if it is one (its replay config is the default ruleset).
    pub fn ghost(&self) -> Option<&Ghost> {
        match self {
            SeatSpec::Ghost(g) => Some(g),
            _ => None,
        }
    }

    pub fn algo_path(&self) -> Option<&Path> {
        match self {
            SeatSpec::Algo(p) => Some(p),
            _ => None,
        }
    }
}

impl From<PathBuf> for SeatSpec {
    fn from(p: PathBuf) -> SeatSpec {
        SeatSpec::Algo(p)
    }
}

impl From<&PathBuf> for SeatSpec {
    fn from(p: &PathBuf) -> SeatSpec {
        SeatSpec::Algo(p.clone())
    }
}

impl From<&Path> for SeatSpec {
    fn from(p: &Path) -> SeatSpec {
        SeatSpec::Algo(p.to_path_buf())
    }
}

/// `ghost:PATH[:1|2]` split into the path and the chosen player, or `None` for an algo.
pub(crate) fn parse_ghost_arg(arg: &str) -> Option<(PathBuf, Option<Player>)> {
    let rest = arg.strip_prefix(GHOST_PREFIX)?;
    let (path, player) = match rest.rsplit_once(':') {
        Some((p, "1")) if !p.is_empty() => (p, Some(Player::One)),
        Some((p, "2")) if !p.is_empty() => (p, Some(Player::Two)),
        _ => (rest, None),
    };
    Some((PathBuf::from(path), player))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_trailing_seat_number_is_a_seat() {
        assert_eq!(parse_ghost_arg("algos/mine"), None);
        assert_eq!(parse_ghost_arg("ghost:a.replay"), Some((PathBuf::from("a.replay"), None)));
        assert_eq!(parse_ghost_arg("ghost:a.replay:2"), Some((PathBuf::from("a.replay"), Some(Player::Two))));
        assert_eq!(
            parse_ghost_arg("ghost:C:\\r\\a.replay:1"),
            Some((PathBuf::from("C:\\r\\a.replay"), Some(Player::One)))
        );
        assert_eq!(parse_ghost_arg("ghost:C:\\r\\a.replay"), Some((PathBuf::from("C:\\r\\a.replay"), None)));
        assert_eq!(parse_ghost_arg("ghost:x:3"), Some((PathBuf::from("x:3"), None)));
    }
}
