//! The studio's files and messages as a person meets them: without a desktop portal File ▸
//! Compare replays asks for its two replays in the studio; Ctrl+O opens what the view shown
//! opens (a replay in the Debugger, a layout in the Editor), its window saying which; each
//! view keeps its own message, on one line that never moves the board.

use crate::common::corpus::first_of;
use crate::common::harness::{LARGE, step_until, studio_without_portal, type_into};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use terminal_studio::app::StudioApp;
use terminal_studio::app::command::FileAction;
use terminal_studio::app::model::View;

fn no_portal(size: egui::Vec2) -> Harness<'static, StudioApp> {
    studio_without_portal(terminal_studio::app::state::State::default(), size)
}

fn ctrl_o(h: &mut Harness<'_, StudioApp>) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_ok();
}

#[test]
fn compare_replays_asks_for_both_in_the_studio_without_a_portal() {
    let (a, b) = (first_of("base-s6"), first_of("s8-2021a"));
    let mut h = no_portal(LARGE);
    h.get_by_label("File").click();
    h.run_ok();
    h.get_by_label_contains("Compare replays").click();
    h.run_ok();
    let prompt = h.state().file_prompt().cloned().expect("the in-app window asking for the two replays");
    assert!(prompt.note.contains("No file dialog"), "{}", prompt.note);
    assert!(h.query_by_label("Compare two replays").is_some(), "the window says what it asks for");
    type_into(&mut h, "Replay A", &a.display().to_string());
    type_into(&mut h, "Replay B", &b.display().to_string());
    h.get_by_label("OK").click();
    h.run_ok();
    assert!(h.state().file_prompt().is_none());
    assert_eq!(h.state().view(), View::Arena, "{}", h.state().message());
    assert!(h.state().arena().compare().is_some(), "the two replays side by side: {}", h.state().message());
}

/// The Arena's folders are browsed to without a portal, in the in-app file browser: an algo
/// folder chosen there joins the list at once; an empty Add says what it needs.
#[test]
fn arena_folders_are_asked_for_in_the_studio_without_a_portal() {
    // A folder of one algo, so the browser lists it without scrolling.
    let out = tempfile::tempdir().expect("tempdir");
    let algo = out.path().join("algos").join("py-random");
    std::fs::create_dir_all(&algo).expect("the algo's folder");
    for file in ["algo.py", "run.sh"] {
        let from = crate::common::corpus::algo("py-random").join(file);
        std::fs::copy(&from, algo.join(file)).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
    let mut h = no_portal(LARGE);
    h.get_by_label("Arena").click();
    h.run_ok();
    h.get_by_label("Add").click();
    h.run_ok();
    assert_eq!(h.state().arena().message(), "Type, browse or drop an algo folder first");
    let parent = algo.parent().expect("the algos' folder");
    type_into(&mut h, "Algo path", &parent.display().to_string());
    h.query_all_by_label("Browse…").next().expect("the algo path's Browse…").click();
    h.run_ok();
    h.get_by_label("🗀 py-random").click();
    h.run_ok();
    h.get_by_label("Choose this folder").click();
    h.run_ok();
    assert_eq!(h.state().arena().form().algos(), std::slice::from_ref(&algo), "{}", h.state().arena().message());
    assert_eq!(h.state().arena().path_text(), "", "the field is free for the next algo");
    std::fs::create_dir(out.path().join("results")).expect("a folder for the results");
    type_into(&mut h, "Output folder", &out.path().display().to_string());
    h.query_all_by_label("Browse…").nth(1).expect("the output folder's Browse…").click();
    h.run_ok();
    h.get_by_label("🗀 results").click();
    h.run_ok();
    h.get_by_label("Choose this folder").click();
    h.run_ok();
    assert_eq!(h.state().arena().output_folder(), out.path().join("results"));
}

#[test]
fn ctrl_o_opens_what_the_view_shown_opens() {
    let replay = first_of("base-s6");
    let mut h = no_portal(LARGE);
    h.get_by_label("Debugger").click();
    h.run_ok();
    ctrl_o(&mut h);
    let prompt = h.state().file_prompt().cloned().expect("Ctrl+O asks in the Debugger");
    assert_eq!(prompt.action, FileAction::OpenReplay, "the Debugger opens replays: {prompt:?}");
    assert!(h.query_by_label("Open a replay").is_some(), "titled for a replay");
    assert!(!prompt.text.ends_with(".json"), "prefilled with a replay's place, not a layout's: {}", prompt.text);
    type_into(&mut h, "Path", &replay.display().to_string());
    h.get_by_label("OK").click();
    h.run_ok();
    step_until(&mut h, 30, "the replay open in the Debugger", |a| a.viewer().summary().is_some());
    assert_eq!(h.state().view(), View::Debugger);

    h.get_by_label("Editor").click();
    h.run_ok();
    ctrl_o(&mut h);
    let prompt = h.state().file_prompt().cloned().expect("Ctrl+O asks in the Editor");
    assert_eq!(prompt.action, FileAction::OpenLayout, "the Editor opens layouts: {prompt:?}");
    assert!(h.query_by_label("Open a layout").is_some(), "titled for a layout");
    assert!(prompt.text.ends_with(".json"), "prefilled with a layout: {}", prompt.text);
}

/// A long message in the Debugger stays on one line: the board does not move.
#[test]
fn a_long_message_never_moves_the_board() {
    let replay = first_of("base-s6");
    for size in [egui::vec2(1000.0, 700.0), egui::vec2(1600.0, 1000.0)] {
        let mut h = no_portal(size);
        h.state_mut().open_replay(&replay);
        h.run_ok();
        step_until(&mut h, 30, "the replay open", |a| a.viewer().current().is_some());
        let board = |h: &Harness<'_, StudioApp>| h.state().viewer().geometry().map(|g| g.rect);
        let before = board(&h).expect("the board is drawn");
        let missing = format!("/no/such/{}/match.replay", "a-very-long-folder-name".repeat(10));
        h.state_mut().open_replay(std::path::Path::new(&missing));
        h.run_ok();
        h.run_ok();
        let message = h.state().viewer().message().to_string();
        assert!(message.contains("a-very-long"), "the failed open is said: {message}");
        assert_eq!(board(&h), Some(before), "at {size:?} the message does not move the board");
    }
}

/// Each view has its own message: another tab does not show it, its own tab still does.
#[test]
fn each_view_shows_its_own_message() {
    let mut h = no_portal(LARGE);
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run_ok();
    assert!(h.query_by_label_contains("New layout").is_some(), "the Editor says what Ctrl+N did");
    for tab in ["Arena", "Debugger", "Play"] {
        h.get_by_label(tab).click();
        h.run_ok();
        assert!(h.query_by_label_contains("New layout").is_none(), "the {tab} tab shows its own message");
    }
    h.get_by_label("Editor").click();
    h.run_ok();
    assert!(h.query_by_label_contains("New layout").is_some(), "the Editor's message is still its own");
}

/// A layout opened from another view (the command line opens it in whatever view was last
/// shown) shows the Editor with it; the Debugger keeps its view, its what-ifs take the layout.
#[test]
fn a_layout_opened_elsewhere_shows_the_editor() {
    let layout = crate::common::corpus::layouts().join("funnel-2022.json");
    let mut h = no_portal(LARGE);
    h.get_by_label("Play").click();
    h.run_ok();
    h.state_mut().open(&layout);
    h.run_ok();
    assert_eq!(h.state().view(), View::Editor, "{}", h.state().message());
    assert_eq!(h.state().editor().layout.name, "funnel-2022");

    h.get_by_label("Debugger").click();
    h.run_ok();
    h.state_mut().open(&layout);
    h.run_ok();
    assert_eq!(h.state().view(), View::Debugger);
}
