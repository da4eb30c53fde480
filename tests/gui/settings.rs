//! What the studio keeps between runs, used like a user: choices made in the Debugger
//! (overlays, speed, event-log filter, panels), the Arena form with its algo list and the
//! view shown come back in a studio started from the kept settings.

use egui_kittest::kittest::Queryable;

use crate::common::corpus::{BUSY, algo, replay};
use crate::common::harness::{LARGE, studio, studio_with, type_into};
use terminal_studio::app::command::{Command, FileCommand};
use terminal_studio::app::model::EventKind;
use terminal_studio::app::model::View;
use terminal_studio::app::state::State;
use terminal_studio::app::viewer::ViewerAction;

#[test]
fn each_views_choices_and_the_view_shown_survive_a_restart() {
    let mut h = studio(LARGE, None, false);
    h.state_mut().apply(Command::File(FileCommand::OpenReplay(replay(BUSY))));
    h.run();
    // The Debugger: an overlay off, a faster speed, attacks out of the log, the left panel hidden.
    h.get_by_label("Attack lines").click();
    h.get_by_label("attack").click();
    h.run();
    h.get_by_label("Left panel").click();
    h.run();
    h.state_mut().act(ViewerAction::SetSpeed(4.0));
    // The Arena form: two algos, games and jobs.
    h.get_by_label("Arena").click();
    h.run();
    for name in ["py-builder", "py-random"] {
        type_into(&mut h, "Algo path", &algo(name).display().to_string());
        h.get_by_label("Add").click();
        h.run();
    }
    type_into(&mut h, "Games per pairing", "6");
    type_into(&mut h, "Jobs", "1");
    assert_eq!(h.state().arena().form().algos().len(), 2, "{}", h.state().arena().message());

    // What eframe writes at exit, read back by a new studio.
    let kept = serde_json::to_string(&h.state().state()).expect("settings serialise");
    let back: State = serde_json::from_str(&kept).expect("settings parse");
    let h = studio_with(back, LARGE, None, false);
    let app = h.state();
    assert_eq!(app.view(), View::Arena, "the view shown");
    let v = &app.viewer();
    assert!(!v.overlays().attacks && v.overlays().paths, "{:?}", v.overlays());
    assert_eq!(v.speed(), 4.0);
    assert!(!v.prefs().log_kinds.contains(&EventKind::Attack) && v.prefs().log_kinds.contains(&EventKind::Move));
    assert!(!v.prefs().left_panel && v.prefs().right_panel);
    let a = &app.arena();
    assert_eq!(a.form().algos(), [algo("py-builder"), algo("py-random")]);
    assert_eq!((a.form().games(), a.form().jobs()), ("6", "1"));
    assert!(h.query_by_label("py-random").is_some(), "the algo list is shown");
}

#[test]
fn the_kept_state_is_small_enough_to_move_and_parse_on_any_thread() {
    // Inline views (74 KB) made parsing the state overflow a 2 MiB test thread in debug builds.
    let size = std::mem::size_of::<State>();
    assert!(size <= 512, "State is {size} bytes: keep each view behind a Box");
}

#[test]
fn kept_values_the_studio_does_not_offer_fall_back_to_defaults() {
    let json = r#"{"view":"Debugger","viewer":{"speed":3.0,"plot_metric":99},"arena":{"games":"","algos":[]}}"#;
    let settings: State = serde_json::from_str(json).expect("partial settings parse");
    let h = studio_with(settings, LARGE, None, false);
    let app = h.state();
    assert_eq!(app.view(), View::Debugger);
    assert_eq!(app.viewer().speed(), 1.0, "3× is not a speed the viewer offers");
    assert_eq!(app.viewer().plot_metric(), terminal_studio::app::model::PlotMetric::Hp);
    assert_eq!(app.arena().form().games(), "10", "an empty kept field keeps the form's default");
}

/// eframe's storage in memory.
#[derive(Default)]
struct Kept(std::collections::HashMap<String, String>);

impl eframe::Storage for Kept {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.into(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}

/// A kept state that cannot be read (a damaged value, or a file eframe could not read at all)
/// starts the studio with its defaults and says so on the status line; a whole one comes back
/// without a word.
#[test]
fn a_damaged_kept_state_starts_with_defaults_and_says_so() {
    // Three studios and the state's RON on one stack: more than a test thread's 2 MiB in the
    // dev profile (the window's main thread has 8).
    let run = std::thread::Builder::new().stack_size(32 << 20).spawn(damaged_kept_state_story);
    run.unwrap_or_else(|e| panic!("a thread: {e}")).join().unwrap_or_else(|p| std::panic::resume_unwind(p));
}

fn damaged_kept_state_story() {
    use terminal_studio::app::StudioApp;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    let file = dir.path().join("app.ron");

    let mut whole = Kept::default();
    let state = State { view: View::Library, ..State::default() };
    eframe::set_value(&mut whole, terminal_studio::app::state::KEY, &state);
    let app = StudioApp::from_storage(Some(&whole), Some(&file), None);
    assert_eq!(app.state().view, View::Library);
    assert!(!app.message().contains("kept studio state"), "{}", app.message());

    let mut damaged = Kept::default();
    eframe::Storage::set_string(&mut damaged, terminal_studio::app::state::KEY, "(view: Libr".into());
    let app = StudioApp::from_storage(Some(&damaged), Some(&file), None);
    assert_eq!(app.state().view, State::default().view);
    let said = app.message();
    assert!(said.contains("kept studio state") && said.contains("started with its defaults"), "{said}");

    // eframe drops a file it cannot read and would write over it at exit: moved aside first.
    std::fs::write(&file, b"\x00\x01 not RON {{{").unwrap_or_else(|e| panic!("{e}"));
    let app = StudioApp::from_storage(Some(&Kept::default()), Some(&file), None);
    let said = app.message();
    assert!(said.contains("is damaged") && said.contains("moved aside") && said.contains("defaults"), "{said}");
    assert!(!file.exists(), "the damaged file is moved aside");
    let aside = std::fs::read_dir(dir.path()).unwrap_or_else(|e| panic!("{e}")).flatten().count();
    assert_eq!(aside, 1, "kept as app.ron.damaged-…");
}
