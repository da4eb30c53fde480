//! The Arena tab driven like a user: add two algos by path, set games and jobs, start, wait
//! for the summary; two replays side by side with their differences highlighted.

use egui::{Key, Modifiers, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use terminal_studio::app::StudioApp;
use terminal_studio::app::command::Command;
use terminal_studio::app::settings::Settings;
use terminal_studio::app::top_bar::View;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn harness() -> Harness<'static, StudioApp> {
    let app = StudioApp::new(Settings::default(), None);
    Harness::builder().with_size(vec2(1400.0, 900.0)).build_ui_state(|ui, app: &mut StudioApp| app.show(ui), app)
}

/// Replaces the text of the field labelled `label` with `text`.
fn type_into(h: &mut Harness<'_, StudioApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.run_ok();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label(label).type_text(text);
    h.run_ok();
    h.key_press(Key::Escape);
    h.run_ok();
}

#[test]
fn run_a_two_algo_arena_from_the_tab() {
    let out = tempfile::tempdir().expect("tempdir");
    let mut h = harness();
    h.get_by_label("Arena").click();
    h.run_ok();
    assert_eq!(h.state().view(), View::Arena);

    for algo in ["py-builder", "py-random"] {
        let path = root().join("tests/algos").join(algo);
        type_into(&mut h, "Algo path", &path.display().to_string());
        h.get_by_label("Add").click();
        h.run_ok();
    }
    assert_eq!(h.state().arena.algos.len(), 2, "{}", h.state().arena.message);
    // One pairing, 4 games (each algo twice from each seat), 2 at once.
    type_into(&mut h, "Games per pairing", "4");
    type_into(&mut h, "Jobs", "2");
    type_into(&mut h, "Output folder", &out.path().join("run").display().to_string());
    assert_eq!(h.state().arena.games_text, "4");
    assert_eq!(h.state().arena.jobs_text, "2");

    h.get_by_label("Start").click();
    h.run_ok();
    assert!(h.state().arena.is_running(), "{}", h.state().arena.message);

    let deadline = Instant::now() + Duration::from_secs(90);
    while h.state().arena.outcome.is_none() {
        assert!(Instant::now() < deadline, "the arena did not finish in time: {}", h.state().arena.message);
        std::thread::sleep(Duration::from_millis(50));
        h.step();
    }
    h.run_ok();
    let summary = h.state().arena.summary.clone().expect("a summary");
    assert_eq!(summary.matches, 4);
    for label in ["py-builder", "py-random"] {
        let a = summary.algos.iter().find(|a| a.label == label).expect("both algos in the summary");
        assert_eq!(a.games, 4, "{label}");
        // The setup list and the results table both show it.
        assert!(h.query_all_by_label(label).count() >= 2, "{label} in the results table");
    }
    h.get_by_label("Summary");
    assert!(out.path().join("run/results.jsonl").exists());
    assert_eq!(h.state().arena.records.len(), 4);

    // Clicking a finished match opens its replay in the debugger.
    let first = h.state().arena.records[3].clone();
    h.query_all_by_label_contains(" · g").next().expect("a match row").click();
    h.run_ok();
    assert_eq!(h.state().view(), View::Debugger);
    let opened = h.state().viewer.path.clone().expect("a replay opened in the viewer");
    assert!(opened.ends_with(&first.replay), "{} vs {}", opened.display(), first.replay);
}

fn two_replays() -> (PathBuf, PathBuf) {
    let dir = root().join("../shared/replays/base-s6");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("../shared/replays/base-s6")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().contains(".replay"))
        .collect();
    files.sort();
    assert!(files.len() >= 2);
    (files[0].clone(), files[1].clone())
}

#[test]
fn compare_two_replays_side_by_side() {
    let (a, b) = two_replays();
    let mut h = harness();
    h.state_mut().apply(Command::Compare(a.clone(), b.clone()));
    h.run_ok();
    assert_eq!(h.state().view(), View::Arena);
    // Step to turn 5 with the shared controls.
    for _ in 0..5 {
        h.get_by_label("Turn >>").click();
        h.run_ok();
    }
    let c = h.state().arena.compare.as_ref().expect("comparison open");
    assert_eq!(c.turn, 5);
    let n = c.diff_count();
    assert!(n > 0, "two different games differ somewhere on turn 5");
    h.get_by_label(&format!("{n} differing tiles"));

    // A replay against itself: nothing to highlight, on any turn.
    h.state_mut().apply(Command::Compare(a.clone(), a.clone()));
    h.run_ok();
    for _ in 0..5 {
        h.get_by_label("Turn >>").click();
        h.run_ok();
        assert_eq!(h.state().arena.compare.as_ref().expect("comparison").diff_count(), 0);
    }
    h.get_by_label("0 differing tiles");
    h.get_by_label("Close comparison").click();
    h.run_ok();
    assert!(h.state().arena.compare.is_none());
}

#[test]
fn snapshot_side_by_side() {
    let (a, b) = two_replays();
    let mut app = StudioApp::new(Settings::default(), None);
    app.apply(Command::Compare(a, b));
    if let Some(c) = app.arena.compare.as_mut() {
        c.turn = 8;
    }
    let mut h = Harness::builder()
        .with_size(vec2(1400.0, 800.0))
        .wgpu()
        .build_ui_state(|ui, app: &mut StudioApp| app.show(ui), app);
    h.run_ok();
    h.snapshot("arena_compare_side_by_side");
}
