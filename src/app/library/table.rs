//! The Library's table of games: one row per game shown, sorted by the header clicked; only
//! the rows in view are laid out, so ten thousand games scroll as fast as ten.

use super::{LibraryAction, LibraryView, SortBy};
use egui::RichText;
use terminal_core::library::IndexedGame;
use terminal_core::library::query::seen_from;

const COLUMNS: [(SortBy, &str, f32); 6] = [
    (SortBy::File, "File", 0.0),
    (SortBy::Opponent, "Opponent", 120.0),
    (SortBy::Result, "Result", 70.0),
    (SortBy::Turns, "Turns", 50.0),
    (SortBy::End, "End", 70.0),
    (SortBy::MyHp, "My HP", 55.0),
];

/// Sorts game indices by `by` (then by file), from `me`'s side.
pub(super) fn sort(shown: &mut [usize], games: &[IndexedGame], me: &str, by: SortBy, descending: bool) {
    shown.sort_by(|&a, &b| {
        let (ga, gb) = (&games[a], &games[b]);
        let (sa, sb) = (seen_from(ga, me), seen_from(gb, me));
        let order = match by {
            SortBy::File => file_order(&ga.file, &gb.file),
            SortBy::Opponent => sa.map(|s| s.opponent.to_lowercase()).cmp(&sb.map(|s| s.opponent.to_lowercase())),
            SortBy::Result => sa.map(|s| s.outcome.name()).cmp(&sb.map(|s| s.outcome.name())),
            SortBy::Turns => ga.record.turns.cmp(&gb.record.turns),
            SortBy::End => ga.record.end.cmp(&gb.record.end),
            SortBy::MyHp => my_hp(ga, me).total_cmp(&my_hp(gb, me)),
        };
        let order = if descending { order.reverse() } else { order };
        order.then_with(|| file_order(&ga.file, &gb.file))
    });
}

/// File names by the numbers in them: 9 before 10 before 100.
fn file_order(a: &str, b: &str) -> std::cmp::Ordering {
    natord::compare(a, b)
}

fn my_hp(g: &IndexedGame, me: &str) -> f32 {
    seen_from(g, me).map_or(f32::NAN, |s| g.record.final_hp[s.seat])
}

pub(super) fn show(view: &LibraryView, ui: &mut egui::Ui, actions: &mut Vec<LibraryAction>) {
    let Some(library) = &view.rt.library else { return };
    let me = view.rt.perspective.as_ref().map_or("", |p| p.me.as_str());
    ui.horizontal(|ui| {
        ui.label(format!("{} of {} games", view.rt.shown.len(), library.games.len()));
        if ui
            .button("Open in Debugger")
            .on_hover_text("The selected game, at the first turn you were breached")
            .clicked()
            && let Some(k) = view.rt.selected
        {
            actions.push(LibraryAction::Open(k, None));
        }
        if ui.button("Send to Layout lab").on_hover_text("The games shown become the lab's attacks").clicked() {
            actions.push(LibraryAction::SendToLab);
        }
        let hint = format!("Your algo meets {me}'s opponent of each game shown, as recorded (Arena, against ghosts)");
        if ui.button("Send to Arena as ghosts").on_hover_text(hint).clicked() {
            actions.push(LibraryAction::SendToArena);
        }
    });
    let file_width = (ui.available_width() - COLUMNS.iter().map(|c| c.2 + 8.0).sum::<f32>()).max(120.0);
    ui.horizontal(|ui| {
        for (by, name, width) in COLUMNS {
            let arrow = match (view.sort == by, view.descending) {
                (true, false) => " ^",
                (true, true) => " v",
                _ => "",
            };
            let w = if width == 0.0 { file_width } else { width };
            let header = ui
                .add_sized([w, 18.0], egui::Button::new(RichText::new(format!("{name}{arrow}")).strong()).frame(false));
            if header.on_hover_text(format!("Sort by {}", name.to_lowercase())).clicked() {
                actions.push(LibraryAction::SortBy(by));
            }
        }
    });
    ui.separator();
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    egui::ScrollArea::vertical().auto_shrink([false, false]).show_rows(
        ui,
        row_height,
        view.rt.shown.len(),
        |ui, rows| {
            for &k in &view.rt.shown[rows] {
                let g = &library.games[k];
                let seen = seen_from(g, me);
                ui.horizontal(|ui| {
                    let selected = view.rt.selected == Some(k);
                    let row = ui
                        .add_sized(
                            [file_width, row_height],
                            egui::Button::selectable(selected, tail(&g.file, file_width)),
                        )
                        .on_hover_text(g.file.as_str());
                    // The whole name for screen readers and tests, whatever is cut off on screen.
                    row.widget_info(|| egui::WidgetInfo::selected(egui::Role::Button, true, selected, g.file.as_str()));
                    if row.double_clicked() {
                        actions.push(LibraryAction::Open(k, None));
                    } else if row.clicked() {
                        actions.push(LibraryAction::Select(k));
                    }
                    let opponent = match seen {
                        Some(s) => s.opponent.to_string(),
                        None => format!("{} vs {}", g.record.players[0], g.record.players[1]),
                    };
                    cell(ui, &opponent, COLUMNS[1].2);
                    cell(ui, seen.map_or("-", |s| s.outcome.name()), COLUMNS[2].2);
                    cell(ui, &g.record.turns.to_string(), COLUMNS[3].2);
                    cell(ui, g.record.end.name(), COLUMNS[4].2);
                    cell(ui, &seen.map_or("-".into(), |s| format!("{:.0}", g.record.final_hp[s.seat])), COLUMNS[5].2);
                });
            }
        },
    );
}

/// The end of a file name that fits `width` points (names of one folder differ at their end).
fn tail(file: &str, width: f32) -> String {
    let fits = (width / 7.0).max(8.0) as usize;
    let n = file.chars().count();
    if n <= fits { file.to_string() } else { ['…'].into_iter().chain(file.chars().skip(n + 1 - fits)).collect() }
}

fn cell(ui: &mut egui::Ui, text: &str, width: f32) {
    ui.add_sized([width, 16.0], egui::Label::new(text).truncate());
}

#[cfg(test)]
mod tests {
    #[test]
    fn files_sort_by_their_numbers() {
        let mut files = ["100.replay.gz", "10.replay.gz", "9.replay.gz", "1.replay.gz", "b2", "a10"];
        files.sort_by(|a, b| super::file_order(a, b));
        assert_eq!(files, ["1.replay.gz", "9.replay.gz", "10.replay.gz", "100.replay.gz", "a10", "b2"]);
    }
}
