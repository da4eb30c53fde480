//! The egui_kittest harness of the studio and the user gestures the GUI stories share:
//! clicks and drags as a real mouse makes them, typing into a labelled field, waiting for
//! background work.

use egui::{Event, Key, Modifiers, PointerButton, Pos2, Vec2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use terminal_studio::app::StudioApp;
use terminal_studio::app::play::PlayView;
use terminal_studio::app::state::State;

/// The window size most stories use.
pub const LARGE: Vec2 = vec2(1400.0, 900.0);

/// The studio with default settings in a window of `size`, autosaving into `autosave` if
/// given; `wgpu` renders real pixels (for snapshots).
pub fn studio(size: Vec2, autosave: Option<PathBuf>, wgpu: bool) -> Harness<'static, StudioApp> {
    studio_with(State::default(), size, autosave, wgpu)
}

/// The studio with the given settings.
pub fn studio_with(settings: State, size: Vec2, autosave: Option<PathBuf>, wgpu: bool) -> Harness<'static, StudioApp> {
    let app = StudioApp::new(settings, autosave);
    let b = Harness::builder().with_size(size);
    let b = if wgpu { b.wgpu() } else { b };
    b.build_ui_state(|ui, app: &mut StudioApp| app.show(ui), app)
}

/// The studio as on a desktop without a file-dialog portal, where the in-app file browser
/// answers. egui_file's path and file-name fields carry no accessible names, so the harness's
/// own check after each run is off; `check_names_outside_the_browser` keeps it for the studio.
pub fn studio_without_portal(settings: State, size: Vec2) -> Harness<'static, StudioApp> {
    let mut app = StudioApp::new(settings, None);
    app.set_native_dialogs(false);
    let b = Harness::builder().with_size(size).with_accessibility_check(false);
    let mut h = b.build_ui_state(|ui, app: &mut StudioApp| app.show(ui), app);
    h.run_ok();
    check_names_outside_the_browser(&h);
    h
}

/// Every input the studio draws has a name; only the file browser's own fields may lack one.
pub fn check_names_outside_the_browser(h: &Harness<'_, StudioApp>) {
    let browser_titles = ["inside \"📁  ", "inside \"📂  ", "inside \"💾  "];
    let unnamed: Vec<String> =
        h.unnamed_widgets().into_iter().filter(|w| !browser_titles.iter().any(|t| w.contains(t))).collect();
    assert!(unnamed.is_empty(), "inputs without an accessible name:\n{}", unnamed.join("\n"));
}

/// The studio in a window of `size` whose clock advances `step_dt` seconds a step: a live
/// match's pace is then counted in steps, whatever the machine's speed.
pub fn studio_clocked(settings: State, size: Vec2, step_dt: f32) -> Harness<'static, StudioApp> {
    let app = StudioApp::new(settings, None);
    Harness::builder().with_size(size).with_step_dt(step_dt).build_ui_state(|ui, app: &mut StudioApp| app.show(ui), app)
}

/// Default settings, with the Play view's matches writing their replays into `out`.
pub fn matches_written_to(out: &std::path::Path) -> State {
    State { play: Box::new(PlayView::new(out.to_path_buf())), ..State::default() }
}

/// Picks who sits in seat `number` (1 or 2) by its button ("Algo", "Ghost" or "You"), and
/// types the algo's folder into its field when one is given, as a player does.
pub fn pick_seat(h: &mut Harness<'_, StudioApp>, number: usize, kind: &str, algo: Option<&Path>) {
    // The seats' buttons carry the same labels: seat 1's come first.
    h.query_all_by_label(kind).nth(number - 1).unwrap_or_else(|| panic!("seat {number}'s {kind} button")).click();
    h.run_ok();
    if let Some(path) = algo {
        type_into(h, &format!("Seat {number} algo"), &path.display().to_string());
    }
}

/// The pointer pressed or released at `pos`, in a frame of its own.
pub fn press(h: &mut Harness<'_, StudioApp>, pos: Pos2, pressed: bool) {
    h.event(Event::PointerMoved(pos));
    h.event(Event::PointerButton { pos, button: PointerButton::Primary, pressed, modifiers: Modifiers::NONE });
    h.run();
}

/// A primary click at a screen position: move there, press in one frame, release in the
/// next, as a real mouse does.
pub fn click_at(h: &mut Harness<'_, StudioApp>, pos: Pos2) {
    h.event(Event::PointerMoved(pos));
    h.run();
    for pressed in [true, false] {
        h.event(Event::PointerButton { pos, button: PointerButton::Primary, pressed, modifiers: Modifiers::NONE });
        h.run();
    }
}

/// A primary drag from one point to another in eight moves.
pub fn drag(h: &mut Harness<'_, StudioApp>, a: Pos2, b: Pos2) {
    h.event(Event::PointerMoved(a));
    h.run();
    press(h, a, true);
    for i in 1..=8 {
        h.event(Event::PointerMoved(a + (b - a) * (i as f32 / 8.0)));
        h.run();
    }
    press(h, b, false);
}

/// Replaces the text of the field labelled `label` with `text`, then leaves the field.
pub fn type_into(h: &mut Harness<'_, StudioApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.run_ok();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label(label).type_text(text);
    h.run_ok();
    h.key_press(Key::Escape);
    h.run_ok();
}

/// Steps the UI until `done` holds, failing with `what` and the app's message after `secs`.
pub fn step_until(h: &mut Harness<'_, StudioApp>, secs: u64, what: &str, done: impl Fn(&StudioApp) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !done(h.state()) {
        let app = h.state();
        assert!(Instant::now() < deadline, "{what}: not reached in time ({} {})", app.message(), app.arena().message());
        std::thread::sleep(Duration::from_millis(30));
        h.step();
    }
    h.run_ok();
}
