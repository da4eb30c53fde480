//! The Library's website parts: the row that syncs a player's ladder games from the game's
//! website, and, over games that carry the site's facts, each of my algos' rating over its
//! matches, my rivals (W–L by user) and which opponents beat which of my algos (each cell
//! opening that game).

use super::{LibraryAction, LibraryView};

/// User id or algo ids, and Sync (the progress and Stop while it runs).
pub(super) fn website_row(view: &mut LibraryView, ui: &mut egui::Ui, actions: &mut Vec<LibraryAction>) {
    ui.horizontal(|ui| {
        ui.label("Website:");
        let label = ui.label("User id");
        ui.add(egui::TextEdit::singleline(&mut view.site_user).desired_width(80.0)).labelled_by(label.id);
        let label = ui.label("or algo ids");
        ui.add(egui::TextEdit::singleline(&mut view.site_algos).desired_width(140.0))
            .labelled_by(label.id)
            .on_hover_text("Numbers separated by spaces or commas");
        if let Some(job) = &view.rt.sync {
            let (done, total) = job.progress;
            let frac = if total > 0 { done as f32 / total as f32 } else { 0.0 };
            ui.add(egui::ProgressBar::new(frac).desired_width(60.0))
                .on_hover_text(format!("{done} of {total} replays downloaded"));
            ui.add(egui::Label::new(&job.status).truncate());
            if ui.button("Stop sync").clicked() {
                actions.push(LibraryAction::StopSync);
            }
        } else if ui
            .add_enabled(view.rt.job.is_none(), egui::Button::new("Sync"))
            .on_hover_text(
                "Download your ladder games from the game's website into the folder (only those not already \
                 there), keep the site's facts of each match beside them, then index the folder",
            )
            .clicked()
        {
            actions.push(LibraryAction::Sync);
        }
    });
}

/// The side panel's website tables, when the games shown carry the site's facts.
pub(super) fn site_summaries(view: &LibraryView, ui: &mut egui::Ui, actions: &mut Vec<LibraryAction>) {
    let Some(sums) = &view.rt.sums else { return };
    if sums.rivals.is_empty() {
        return;
    }
    ratings(sums, ui);
    ui.label("My rivals (from the website's facts)");
    egui::Grid::new("library-rivals").striped(true).show(ui, |ui| {
        for h in ["Rival", "Games", "W–L"] {
            ui.strong(h);
        }
        ui.end_row();
        for r in sums.rivals.iter().take(30) {
            name_label(ui, &r.user, egui::RichText::new(shortened(&r.user, 22)));
            ui.label(r.games.to_string());
            ui.label(format!("{}–{}", r.wins, r.losses));
            ui.end_row();
        }
    });
    beaten_matrix(view, ui, actions);
    ui.separator();
}

fn ratings(sums: &super::Sums, ui: &mut egui::Ui) {
    if sums.ratings.iter().all(|a| a.points.is_empty()) {
        return;
    }
    ui.label("My algos' rating over their matches");
    egui_plot::Plot::new("library-ratings")
        .height(140.0)
        .allow_scroll(false)
        .legend(egui_plot::Legend::default())
        .show(ui, |pu| {
            for algo in &sums.ratings {
                let points: Vec<[f64; 2]> =
                    algo.points.iter().enumerate().map(|(k, p)| [k as f64 + 1.0, p.rating]).collect();
                pu.line(egui_plot::Line::new(algo.name.clone(), points));
            }
        });
}

/// My algos (rows) × the opponents that beat any of them (columns); a cell opens the first
/// game of its losses.
fn beaten_matrix(view: &LibraryView, ui: &mut egui::Ui, actions: &mut Vec<LibraryAction>) {
    let Some(sums) = &view.rt.sums else { return };
    let b = &sums.beaten;
    if b.opponents.is_empty() {
        return;
    }
    ui.label("Who beat my algos (a cell opens the game)");
    egui::ScrollArea::horizontal().id_salt("library-beaten-scroll").show(ui, |ui| {
        egui::Grid::new("library-beaten").striped(true).show(ui, |ui| {
            ui.strong("My algo");
            for user in b.opponents.iter().take(12) {
                name_label(ui, user, egui::RichText::new(shortened(user, 14)).strong());
            }
            ui.end_row();
            for (row, (_, name)) in b.my_algos.iter().enumerate() {
                name_label(ui, name, egui::RichText::new(shortened(name, 22)));
                for games in b.cells[row].iter().take(12) {
                    match games.first() {
                        Some(&k) => {
                            let text = format!("{} lost", games.len());
                            if ui.link(text).on_hover_text("Open the first of these games in the Debugger").clicked() {
                                actions.push(LibraryAction::Open(k, None));
                            }
                        }
                        None => {
                            ui.label("");
                        }
                    }
                }
                ui.end_row();
            }
        });
    });
}

/// A name cut to `max` characters (an ellipsis where it was cut): grid columns fit their
/// widest cell, so a truncating label would shrink to a few letters.
fn shortened(name: &str, max: usize) -> String {
    if name.chars().count() <= max {
        return name.to_string();
    }
    let kept: String = name.chars().take(max.saturating_sub(1)).collect();
    format!("{kept}…")
}

/// A name in a table, whole on hover when it was cut.
fn name_label(ui: &mut egui::Ui, full: &str, shown: egui::RichText) {
    let cut = shown.text() != full;
    let response = ui.label(shown);
    if cut {
        response.on_hover_text(full);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn long_names_are_cut_with_an_ellipsis_and_short_ones_kept() {
        assert_eq!(super::shortened("Stephan-algo", 22), "Stephan-algo");
        assert_eq!(super::shortened("a-very-long-opponent-name-indeed", 14), "a-very-long-o…");
        assert_eq!(super::shortened("é".repeat(20).as_str(), 5).chars().count(), 5);
    }
}
