//! What the studio keeps between runs, used like a user: choices made in the Debugger
//! (overlays, speed, event-log filter, panels), the Arena form with its algo list and the
//! view shown come back in a studio started from the kept settings.

use egui_kittest::kittest::Queryable;

mod common;
use common::corpus::{BUSY, algo, replay};
use common::harness::{LARGE, studio, studio_with, type_into};
use terminal_studio::app::command::Command;
use terminal_studio::app::settings::Settings;
use terminal_studio::app::top_bar::View;
use terminal_studio::app::viewer::{EventKind, ViewerAction};

#[test]
fn each_views_choices_and_the_view_shown_survive_a_restart() {
    let mut h = studio(LARGE, None, false);
    h.state_mut().apply(Command::OpenReplay(replay(BUSY)));
    h.run();
    // The Debugger: an overlay off, a faster speed, attacks out of the log, the left panel hidden.
    h.get_by_label("Attack lines").click();
    h.get_by_label("attack").click();
    h.run();
    h.get_by_label("Left panel").click();
    h.run();
    let _ = h.state_mut().viewer.apply(ViewerAction::SetSpeed(4.0));
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
    assert_eq!(h.state().arena.algos.len(), 2, "{}", h.state().arena.message);

    // What eframe writes at exit, read back by a new studio.
    let kept = serde_json::to_string(&h.state().persisted_settings()).expect("settings serialise");
    let back: Settings = serde_json::from_str(&kept).expect("settings parse");
    let h = studio_with(back, LARGE, None, false);
    let app = h.state();
    assert_eq!(app.view(), View::Arena, "the view shown");
    let v = &app.viewer;
    assert!(!v.overlays.attacks && v.overlays.paths, "{:?}", v.overlays);
    assert_eq!(v.speed, 4.0);
    assert!(!v.log_filter.contains(&EventKind::Attack) && v.log_filter.contains(&EventKind::Move));
    assert!(!v.left_panel && v.right_panel);
    let a = &app.arena;
    assert_eq!(a.algos, vec![algo("py-builder"), algo("py-random")]);
    assert_eq!((a.games_text.as_str(), a.jobs_text.as_str()), ("6", "1"));
    assert!(h.query_by_label("py-random").is_some(), "the algo list is shown");
}

#[test]
fn kept_values_the_studio_does_not_offer_fall_back_to_defaults() {
    let json = r#"{"view":"Debugger","viewer":{"speed":3.0,"plot_metric":99},"arena":{"games":"","algos":[]}}"#;
    let settings: Settings = serde_json::from_str(json).expect("partial settings parse");
    let h = studio_with(settings, LARGE, None, false);
    let app = h.state();
    assert_eq!(app.view(), View::Debugger);
    assert_eq!(app.viewer.speed, 1.0, "3× is not a speed the viewer offers");
    assert_eq!(app.viewer.plot_metric(), 0);
    assert_eq!(app.arena.games_text, "10", "an empty kept field keeps the form's default");
}
