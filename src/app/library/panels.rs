//! The Library's panels around the table: the folder and filters on top; on the side, the
//! board's heat (breaches on me, or the opponents' spawns), the games breached on the tile
//! clicked, my HP curve and my results by opponent.

use super::{HeatKind, LibraryAction, LibraryView};
use crate::app::board::{self, Palette};
use crate::app::model::BoardView;
use crate::app::path_field::{PathField, Pick};
use crate::app::view::ViewContext;
use egui::Color32;
use terminal_core::engine::geometry::{Tile, all_tiles};
use terminal_core::library::query::{self, TileHeat};
use terminal_core::library::{EndKind, Outcome};

pub(super) fn top(view: &mut LibraryView, ui: &mut egui::Ui, actions: &mut Vec<LibraryAction>) {
    egui::Panel::top("library-top").show(ui, |ui| {
        ui.horizontal(|ui| {
            let label = ui.label("Folder");
            // Room beside the field for Index, or for the progress and Stop while it runs.
            let beside = if view.rt.job.is_some() { 330.0 } else { 150.0 };
            let field = PathField::new(&mut view.folder, Pick::Folder)
                .width(ui.available_width() - beside)
                .labelled_by(label.id, "The folder of your replays")
                .show(ui);
            let enter = field.response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if let Some(job) = &view.rt.job {
                let (done, total) = job.progress;
                let frac = if total > 0 { done as f32 / total as f32 } else { 0.0 };
                ui.add(egui::ProgressBar::new(frac).desired_width(60.0))
                    .on_hover_text(format!("{}: {done} of {total} replays read", job.folder.display()));
                ui.label(job.progress_text());
                if ui.button("Stop").clicked() {
                    actions.push(LibraryAction::StopIndexing);
                }
            } else if ui
                .button("Index")
                .on_hover_text("Read the folder's new and changed replays, then show them all")
                .clicked()
                || enter
                // A folder picked or dropped is indexed at once, as Index after typing it.
                || field.filled
            {
                actions.push(LibraryAction::Index);
            }
        });
        super::site_panels::website_row(view, ui, actions);
        if !view.rt.message.is_empty() {
            ui.label(&view.rt.message);
        } else if view.rt.library.is_none() {
            ui.weak(
                "Type, browse to or drop the folder of your replays (your ladder history) and press Index: every game is read once \
                 into an index kept in the studio's data folder; later, only new and changed files are read.",
            );
        }
        if view.rt.library.is_some() {
            filters(view, ui);
        }
    });
}

fn filters(view: &mut LibraryView, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        let label = ui.label("Me");
        let hint = view.rt.perspective.as_ref().filter(|p| p.most_frequent).map(|p| p.me.clone()).unwrap_or_default();
        ui.add(egui::TextEdit::singleline(&mut view.me).hint_text(hint).desired_width(120.0)).labelled_by(label.id);
        if let Some(p) = &view.rt.perspective {
            let how = if p.most_frequent { "the name in the most games" } else { "as typed" };
            ui.weak(format!("({how}: {} games)", p.games));
        }
        let label = ui.label("Against");
        ui.add(egui::TextEdit::singleline(&mut view.filter.opponent).desired_width(110.0))
            .labelled_by(label.id)
            .on_hover_text("Part of the opponent's name, any case");
        ui.checkbox(&mut view.filter.mine_only, "Only my games");
    });
    let rulesets = view.rt.library.as_ref().map(rulesets_of).unwrap_or_default();
    let f = &mut view.filter;
    ui.horizontal(|ui| {
        labelled_combo(ui, "Result", 90.0, f.outcome.map_or("any", |o| o.name()), |ui| {
            ui.selectable_value(&mut f.outcome, None, "any");
            for o in [Outcome::Win, Outcome::Loss, Outcome::Unfinished] {
                ui.selectable_value(&mut f.outcome, Some(o), o.name());
            }
        });
        labelled_combo(ui, "End", 90.0, f.end.map_or("any", |e| e.name()), |ui| {
            ui.selectable_value(&mut f.end, None, "any");
            for e in EndKind::ALL {
                ui.selectable_value(&mut f.end, Some(e), e.name());
            }
        });
        let shown = f.ruleset.clone().unwrap_or_else(|| "any".into());
        labelled_combo(ui, "Ruleset", 110.0, &shown, |ui| {
            ui.selectable_value(&mut f.ruleset, None, "any");
            for r in rulesets {
                ui.selectable_value(&mut f.ruleset, Some(r.clone()), r);
            }
        });
        let label = ui.label("Turns from");
        ui.add(egui::TextEdit::singleline(&mut f.min_turns).desired_width(32.0)).labelled_by(label.id);
        let label = ui.label("to");
        ui.add(egui::TextEdit::singleline(&mut f.max_turns).desired_width(32.0)).labelled_by(label.id);
    });
}

/// A combo box with its label before it, as the text fields of the row have theirs.
fn labelled_combo(ui: &mut egui::Ui, label: &str, width: f32, selected: &str, items: impl FnOnce(&mut egui::Ui)) {
    let l = ui.label(label);
    let combo = egui::ComboBox::from_id_salt(label).width(width).selected_text(selected).show_ui(ui, items);
    combo.response.labelled_by(l.id);
}

fn rulesets_of(library: &terminal_core::library::Library) -> Vec<String> {
    let mut out: Vec<String> = library.games.iter().map(|g| g.record.ruleset.clone()).collect();
    out.sort();
    out.dedup();
    out
}

pub(super) fn side(view: &mut LibraryView, ui: &mut egui::Ui, cx: &ViewContext, actions: &mut Vec<LibraryAction>) {
    let width = (ui.available_width() * 0.4).clamp(240.0, 520.0);
    egui::Panel::right("library-side").resizable(true).default_size(width).max_size(ui.available_width() * 0.45).show(
        ui,
        |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                // Games synced from the website: their rating, rivals and losses first.
                super::site_panels::site_summaries(view, ui, actions);
                ui.horizontal(|ui| {
                    ui.radio_value(&mut view.heat, HeatKind::BreachesOnMe, "Breaches on me");
                    ui.radio_value(&mut view.heat, HeatKind::OpponentSpawns, "Opponent spawns");
                    ui.weak("(?)").on_hover_text("From your side: games where you were player 2 are turned around");
                });
                heat_board(view, ui, cx, actions);
                hottest_tiles(view, ui, actions);
                tile_games(view, ui, actions);
                hp_curve(view, ui);
                opponents(view, ui);
            });
        },
    );
}

fn heat_board(view: &LibraryView, ui: &mut egui::Ui, cx: &ViewContext, actions: &mut Vec<LibraryAction>) {
    let Some(sums) = &view.rt.sums else { return };
    let heat = match view.heat {
        HeatKind::BreachesOnMe => &sums.breaches,
        HeatKind::OpponentSpawns => &sums.spawns,
    };
    // The diamond fills a square: as wide as the panel, but leaving room for the lists below.
    let side = ui.available_width().min(380.0);
    let (_, rect) = ui.allocate_space(egui::vec2(ui.available_width(), side));
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
    let mut board_view = BoardView::default();
    let frame = board::begin(&mut child, &mut board_view, Palette::new(cx.dark()));
    let max = heat.iter().flatten().fold(0.0f32, |m, v| m.max(*v));
    for t in all_tiles() {
        let v = heat_at(heat, t);
        if v > 0.0 {
            let a = (40.0 + 200.0 * (v / max).sqrt()) as u8;
            frame.fill_tile(t, Color32::from_rgba_unmultiplied(230, 60, 200, a));
        }
    }
    if let Some((x, y)) = view.rt.tile {
        let r = frame.geometry.tile_rect(Tile { x, y });
        frame.painter.rect_stroke(r, 0.0, egui::Stroke::new(2.0, Color32::YELLOW), egui::StrokeKind::Inside);
    }
    if let Some(t) = frame.hovered {
        let what = match view.heat {
            HeatKind::BreachesOnMe => format!("{:.0} HP lost", heat_at(heat, t)),
            HeatKind::OpponentSpawns => format!("{:.0} units spawned", heat_at(heat, t)),
        };
        frame.response.clone().on_hover_text(format!("{},{}: {what}", t.x, t.y));
        if frame.response.clicked() {
            actions.push(LibraryAction::PickTile(t.x, t.y));
        }
    }
}

/// The board's hottest tiles as a list, most first, each a button that picks the tile: the
/// heat read at a glance rather than tile by tile.
fn hottest_tiles(view: &LibraryView, ui: &mut egui::Ui, actions: &mut Vec<LibraryAction>) {
    let Some(sums) = &view.rt.sums else { return };
    let (heat, unit) = match view.heat {
        HeatKind::BreachesOnMe => (&sums.breaches, "HP lost"),
        HeatKind::OpponentSpawns => (&sums.spawns, "units"),
    };
    let tiles = query::hottest(heat, 8);
    if tiles.is_empty() {
        return;
    }
    let total: f32 = heat.iter().flatten().sum();
    ui.label(format!("Hottest tiles ({unit}, of {total:.0} in all)"));
    ui.horizontal_wrapped(|ui| {
        for (x, y, v) in tiles {
            let (x, y) = (x as i32, y as i32);
            let picked = view.rt.tile == Some((x, y));
            let text = format!("{x},{y}: {v:.0}");
            if ui.selectable_label(picked, text).on_hover_text("Pick the tile, as a click on the board does").clicked()
            {
                actions.push(LibraryAction::PickTile(x, y));
            }
        }
    });
}

fn heat_at(heat: &TileHeat, t: Tile) -> f32 {
    heat[t.y as usize][t.x as usize]
}

fn tile_games(view: &LibraryView, ui: &mut egui::Ui, actions: &mut Vec<LibraryAction>) {
    let (Some(library), Some(p), Some((x, y))) = (&view.rt.library, &view.rt.perspective, view.rt.tile) else {
        ui.weak("Click a tile: the games where you were breached there.");
        return;
    };
    let games = query::breached_at(&library.games, &view.rt.shown, &p.me, x, y);
    let more = if games.len() > 20 { " (the first 20 listed)" } else { "" };
    ui.label(format!("Breached at {x},{y} in {} games{more}", games.len()));
    for (k, turn) in games.into_iter().take(20) {
        let text = format!("turn {turn}: {}", library.games[k].file);
        if ui.button(text).on_hover_text("Open in the Debugger at this turn").clicked() {
            actions.push(LibraryAction::Open(k, Some(turn)));
        }
    }
}

fn hp_curve(view: &LibraryView, ui: &mut egui::Ui) {
    let (Some(sums), Some(p)) = (&view.rt.sums, &view.rt.perspective) else { return };
    let curve = &sums.hp_curve;
    if curve.is_empty() {
        return;
    }
    ui.label(format!("{}'s mean HP by turn", p.me));
    let points: Vec<[f64; 2]> = curve.iter().map(|(t, hp, _)| [f64::from(*t), f64::from(*hp)]).collect();
    egui_plot::Plot::new("library-hp").height(120.0).allow_scroll(false).show(ui, |pu| {
        pu.line(egui_plot::Line::new("mean HP", points));
    });
}

fn opponents(view: &LibraryView, ui: &mut egui::Ui) {
    let Some(sums) = &view.rt.sums else { return };
    let rows = &sums.opponents;
    if rows.is_empty() {
        return;
    }
    ui.label("Results by opponent");
    egui::Grid::new("library-opponents").striped(true).show(ui, |ui| {
        for h in ["Opponent", "Games", "Wins", "Losses", "Mean HP lost"] {
            ui.strong(h);
        }
        ui.end_row();
        for r in rows.iter().take(30) {
            ui.add(egui::Label::new(&r.opponent).truncate());
            ui.label(r.games.to_string());
            ui.label(r.wins.to_string());
            ui.label(r.losses.to_string());
            ui.label(format!("{:.1}", r.mean_hp_lost));
            ui.end_row();
        }
    });
}
