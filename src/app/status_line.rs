//! A view's message line: always one line high, whatever the message, so that a long one
//! never moves the board. What does not fit is elided; the whole text shows on hover.

use egui::Ui;

/// The line, as the bottom panel `id` of `ui`.
pub fn panel(ui: &mut Ui, id: &'static str, message: &str) {
    egui::Panel::bottom(id).show(ui, |ui| show(ui, message));
}

/// The message on the rest of the row: elided to the room there is, whole on hover.
pub fn show(ui: &mut Ui, message: &str) {
    let height = ui.text_style_height(&egui::TextStyle::Body);
    ui.allocate_ui_with_layout(
        egui::vec2(ui.available_width(), height),
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.set_min_height(height);
            ui.add(egui::Label::new(message).truncate());
        },
    );
}
