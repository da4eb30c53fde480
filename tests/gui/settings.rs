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
