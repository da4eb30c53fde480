//! The fields that hold a path, as a player on a desktop without a file-dialog portal uses
//! them: each Browse… opens the in-app file browser, where a folder or files chosen fill the
//! field; the folder picked from comes back as a recent place; a folder dropped on the
//! Library indexes it; without a portal, File ▸ Open is the browser itself.

use crate::common::corpus;
use crate::common::harness::{LARGE, check_names_outside_the_browser, step_until, studio_without_portal, type_into};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use terminal_studio::app::StudioApp;
use terminal_studio::app::model::View;
use terminal_studio::app::state::State;

/// A file dropped on the window, as the desktop hands it over: a path.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

/// The studio without a desktop dialog, its library index in `data`.
fn no_portal(data: &Path) -> Harness<'static, StudioApp> {
    let mut settings = State::default();
    settings.library.db = Some(data.join("library.sqlite"));
    settings.versions.store_dir = Some(data.join("versions"));
    studio_without_portal(settings, LARGE)
}

fn tab(h: &mut Harness<'_, StudioApp>, name: &str, view: View) {
    h.get_by_label(name).click();
    h.run_ok();
    assert_eq!(h.state().view(), view);
}

/// Clicks the `nth` button named `button` (a view may have several), then in the browser it
/// opens each of `entries` (a click selects; Ctrl adds to a selection of several), then `choose`.
fn browse(h: &mut Harness<'_, StudioApp>, button: &str, nth: usize, entries: &[&str], choose: &str) {
    h.query_all_by_label(button).nth(nth).unwrap_or_else(|| panic!("no {button} number {nth}")).click();
    h.run_ok();
    check_names_outside_the_browser(h);
    for (i, entry) in entries.iter().enumerate() {
        let node = h.query_by_label(entry).unwrap_or_else(|| panic!("the browser lists no {entry:?}"));
        if i == 0 {
            node.click();
            h.run_ok();
            continue;
        }
        // Ctrl held through the frame of the click, as a keyboard holds it.
        let pos = node.rect().center();
        let ctrl = egui::Modifiers { ctrl: true, command: true, ..Default::default() };
        h.event(egui::Event::ModifiersChanged(ctrl));
        h.event(egui::Event::PointerMoved(pos));
        for pressed in [true, false] {
            h.event(egui::Event::PointerButton { pos, button: egui::PointerButton::Primary, pressed, modifiers: ctrl });
        }
        h.run_ok();
        h.event(egui::Event::ModifiersChanged(egui::Modifiers::default()));
        h.run_ok();
    }
    h.get_by_label(choose).click();
    h.run_ok();
}

/// `n` replays of live-2022 copied into `dir`.
fn replays(dir: &Path, n: usize) {
    let mut all = terminal_core::verify::collect_replays(&[corpus::replay("live-2022")]);
    all.sort();
    assert!(all.len() >= n, "../shared/replays/live-2022 holds {} replays, {n} needed", all.len());
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for (i, f) in all[..n].iter().enumerate() {
        std::fs::copy(f, dir.join(format!("game{}.replay.gz", i + 1)))
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    }
}

#[test]
fn browse_fills_the_library_folder_which_is_indexed_and_comes_back_as_a_recent_place_in_the_lab() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    replays(&tmp.path().join("ladder"), 3);
    let mut h = no_portal(&tmp.path().join("data"));
    tab(&mut h, "Library", View::Library);
    // The player types the start of the path, then browses from there.
    type_into(&mut h, "Folder", &tmp.path().display().to_string());
    browse(&mut h, "Browse…", 0, &["🗀 ladder"], "Choose this folder");
    let ladder = tmp.path().join("ladder");
    assert_eq!(h.state().library().folder, ladder.display().to_string());
    step_until(&mut h, 120, "indexing the folder browsed to", |a| {
        !a.library().is_indexing() && a.library().library().is_some()
    });
    assert_eq!(h.state().library().shown().len(), 3, "{}", h.state().library().message());

    // The Layout lab's "Attacks from" offers the folder picked from as a recent place.
    tab(&mut h, "Editor", View::Editor);
    h.get_by_label("Layout lab").click();
    h.run_ok();
    let place = format!("🗀 ★ {}", ladder.display());
    browse(&mut h, "Browse…", 0, &[&place], "Choose this folder");
    assert_eq!(h.state().editor_view().lab().folder, ladder.display().to_string());
}

#[test]
fn a_folder_dropped_on_the_library_is_indexed() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    let ladder = tmp.path().join("dropped");
    replays(&ladder, 2);
    let mut h = no_portal(&tmp.path().join("data"));
    tab(&mut h, "Library", View::Library);
    h.event(egui::Event::PointerMoved(egui::pos2(700.0, 500.0)));
    h.input_mut().dropped_files.push(Arc::new(Dropped(ladder.clone())));
    h.step();
    assert_eq!(h.state().library().folder, ladder.display().to_string());
    step_until(&mut h, 120, "indexing the folder dropped", |a| {
        !a.library().is_indexing() && a.library().library().is_some()
    });
    assert_eq!(h.state().library().shown().len(), 2, "{}", h.state().library().message());
    // The window did not also try to open the folder as a file.
    assert!(!h.state().message().contains("dropped"), "{}", h.state().message());
}

#[test]
fn versions_fields_take_an_algo_folder_replay_files_and_a_folder_from_the_browser() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    replays(&tmp.path().join("ghosts"), 3);
    for algo in ["mine", "rival"] {
        std::fs::create_dir(tmp.path().join(algo)).unwrap_or_else(|e| panic!("{algo}: {e}"));
    }
    let mut h = no_portal(&tmp.path().join("data"));
    tab(&mut h, "Versions", View::Versions);
    type_into(&mut h, "Algo folder", &tmp.path().display().to_string());
    browse(&mut h, "Browse…", 0, &["🗀 mine"], "Choose this folder");
    assert_eq!(h.state().versions().algo, tmp.path().join("mine").display().to_string());

    // Two replay files of the folder, picked together; the browser lists them in number order.
    type_into(&mut h, "Ghost replays", &tmp.path().join("ghosts").display().to_string());
    browse(&mut h, "Replays…", 0, &["🗋 game1.replay.gz", "🗋 game3.replay.gz"], "Choose");
    let ghosts = tmp.path().join("ghosts");
    let want = [
        ghosts.display().to_string(),
        ghosts.join("game1.replay.gz").display().to_string(),
        ghosts.join("game3.replay.gz").display().to_string(),
    ];
    assert_eq!(h.state().versions().ghosts.lines().collect::<Vec<_>>(), want, "each pick a line of its own");

    type_into(&mut h, "Versus algos", &tmp.path().display().to_string());
    browse(&mut h, "Folder…", 1, &["🗀 rival"], "Choose this folder");
    let vs: Vec<&str> = h.state().versions().vs.lines().collect();
    assert_eq!(vs.last().copied(), Some(tmp.path().join("rival").display().to_string().as_str()), "{vs:?}");
}

#[test]
fn play_seats_take_an_algo_folder_and_a_replay_from_the_browser() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    replays(&tmp.path().join("ghosts"), 1);
    std::fs::create_dir(tmp.path().join("algo")).unwrap_or_else(|e| panic!("algo: {e}"));
    let mut h = no_portal(&tmp.path().join("data"));
    tab(&mut h, "Play", View::Play);
    crate::common::harness::pick_seat(&mut h, 1, "Algo", Some(tmp.path()));
    browse(&mut h, "Browse…", 0, &["🗀 algo"], "Choose this folder");
    assert_eq!(h.state().play().seats()[0].path, tmp.path().join("algo").display().to_string());
    crate::common::harness::pick_seat(&mut h, 2, "Ghost", None);
    type_into(&mut h, "Seat 2 replay", &tmp.path().join("ghosts").display().to_string());
    browse(&mut h, "Browse…", 1, &["🗋 game1.replay.gz"], "Choose");
    assert_eq!(h.state().play().seats()[1].path, tmp.path().join("ghosts/game1.replay.gz").display().to_string());
}

#[test]
fn without_a_portal_open_replay_is_the_file_browser_and_a_replay_chosen_opens() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    replays(tmp.path(), 2);
    let mut h = no_portal(&tmp.path().join("data"));
    tab(&mut h, "Debugger", View::Debugger);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::O);
    h.run_ok();
    assert!(h.state().file_prompt().is_some(), "the studio's window asks");
    // The browser is open with it; the player goes to the folder by typing its path.
    type_into(&mut h, "Path", &tmp.path().display().to_string());
    browse(&mut h, "Browse…", 0, &["🗋 game2.replay.gz"], "Choose");
    assert!(h.state().file_prompt().is_none(), "a replay chosen is the answer");
    step_until(&mut h, 30, "the replay open in the Debugger", |a| a.viewer().summary().is_some());
    assert!(h.state().message().contains("game2.replay.gz"), "{}", h.state().message());
}
