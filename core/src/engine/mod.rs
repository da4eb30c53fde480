//! The Terminal engine: config, board, pathing and the frame-by-frame simulation.
//! No UI dependency; this module tree could be lifted into its own crate unchanged.

mod apply;
mod attack_bits;
pub mod commands;
pub mod compat_mode;
pub mod config;
mod config_read;
pub mod frame;
pub mod frame_check;
pub mod game;
pub mod geometry;
mod legacy_attacks;
pub mod mechanics;
mod melee;
pub mod pathing;
pub mod presets;
pub mod resources;
#[cfg(test)]
mod roles_tests;
pub mod snapshot;
pub mod target_log;
pub mod targeting;
mod tick;
mod turn_end;
pub mod unit;

pub use commands::{Command, CommandKind};
pub use config::Config;
pub use frame::Frame;
pub use game::Game;
pub use geometry::{Edge, Player, Tile};
