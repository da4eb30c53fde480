//! Zoom and pan of a board, kept with the settings.

use egui::Vec2;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardView {
    pub zoom: f32,
    pub pan: Vec2,
}

impl Default for BoardView {
    fn default() -> Self {
        BoardView { zoom: 1.0, pan: Vec2::ZERO }
    }
}

pub const MIN_ZOOM: f32 = 0.5;
pub const MAX_ZOOM: f32 = 8.0;
