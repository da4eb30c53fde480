//! Figures written on the board (damage, shields, stack sizes) that never cover each other:
//! a label that would overlap one already written moves to the nearest free spot a line
//! above or below, or beside; where none is free it is left out (the event log and the
//! inspector have every figure).

use egui::{Color32, FontId, Painter, Pos2, Rect, Vec2, vec2};

/// The space between two labels: more than their backings cover, so that two labels side by
/// side read as two ("7×20.7 8×15", not "7×20.78×15").
const LABEL_GAP: f32 = 5.0;

/// The labels written on one board this frame. They are placed as they come (the first
/// ones get their spot) and painted together at the end, over the paths and arrows.
#[derive(Default)]
pub struct BoardLabels {
    placed: Vec<(String, Rect)>,
    galleys: Vec<(Rect, std::sync::Arc<egui::Galley>, Color32)>,
    /// Labels left out for want of room.
    pub dropped: usize,
}

impl BoardLabels {
    /// The rectangle for a label of `size` wanted centred on `at`: there if it is free, else
    /// the nearest free one of the nearby spots; `None` when all are taken.
    pub fn place(&mut self, text: &str, at: Pos2, size: Vec2) -> Option<Rect> {
        let (w, h) = (size.x + LABEL_GAP, size.y + LABEL_GAP);
        let offsets = [
            vec2(0.0, 0.0),
            vec2(0.0, -h),
            vec2(0.0, h),
            vec2(w, 0.0),
            vec2(-w, 0.0),
            vec2(0.0, -2.0 * h),
            vec2(0.0, 2.0 * h),
        ];
        let free = offsets
            .iter()
            .map(|o| Rect::from_center_size(at + *o, size))
            .find(|r| self.placed.iter().all(|(_, p)| !p.expand(LABEL_GAP / 2.0 - 0.01).intersects(*r)));
        match free {
            Some(r) => self.placed.push((text.to_string(), r)),
            None => self.dropped += 1,
        }
        free
    }

    /// Places `text` near `at`, to be painted by [`BoardLabels::paint`].
    pub fn add(&mut self, painter: &Painter, text: &str, at: Pos2, font: FontId, color: Color32) {
        let galley = painter.layout_no_wrap(text.to_string(), font, color);
        if let Some(r) = self.place(text, at, galley.size()) {
            self.galleys.push((r, galley, color));
        }
    }

    /// Paints the labels, each on a dark backing (readable over tiles, paths and units).
    pub fn paint(&self, painter: &Painter) {
        for (r, galley, color) in &self.galleys {
            painter.rect_filled(r.expand(1.0), 2.0, Color32::from_black_alpha(150));
            painter.galley(r.min, galley.clone(), *color);
        }
    }

    /// What was written and where (tests read it to check that no two labels overlap).
    pub fn placed(&self) -> &[(String, Rect)] {
        &self.placed
    }

    /// The same, taken once the labels are painted (no copy each frame).
    pub fn into_placed(self) -> Vec<(String, Rect)> {
        self.placed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_wanted_on_one_spot_are_spread_without_overlap() {
        let mut labels = BoardLabels::default();
        let size = vec2(20.0, 10.0);
        let at = Pos2::new(100.0, 100.0);
        let rects: Vec<Rect> = (0..7).filter_map(|i| labels.place(&i.to_string(), at, size)).collect();
        assert_eq!(rects.len(), 7, "seven nearby spots");
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                // Apart by more than their backings (1 px each side).
                assert!(!a.expand(1.5).intersects(b.expand(1.5)), "{a:?} and {b:?} read as one");
            }
            assert!(a.center().distance(at) <= 2.0 * (10.0 + LABEL_GAP) + 0.1, "stays near: {a:?}");
        }
        assert_eq!(labels.place("8", at, size), None);
        assert_eq!(labels.dropped, 1);
        // A label elsewhere is not moved.
        let far = Pos2::new(300.0, 300.0);
        assert_eq!(labels.place("far", far, size), Some(Rect::from_center_size(far, size)));
    }
}
