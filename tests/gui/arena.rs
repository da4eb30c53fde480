//! The Arena tab driven like a user: add two algos by path, set games and jobs, start, wait
//! for the summary; two replays side by side with their differences highlighted.

use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::common::corpus::{algo, replay};
use crate::common::harness::{LARGE, step_until, studio, type_into};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use terminal_core::arena::{SprtDecision, StopReason};
use terminal_studio::app::StudioApp;
use terminal_studio::app::command::{Command, FileCommand};
use terminal_studio::app::model::View;
use terminal_studio::app::state::State;

fn harness() -> Harness<'static, StudioApp> {
    studio(LARGE, None, false)
}

#[test]
fn run_a_two_algo_arena_from_the_tab() {
    let out = tempfile::tempdir().expect("tempdir");
    let mut h = harness();
    h.get_by_label("Arena").click();
    h.run_ok();
    assert_eq!(h.state().view(), View::Arena);

    for algo_name in ["py-builder", "py-random"] {
        let path = algo(algo_name);
        type_into(&mut h, "Algo path", &path.display().to_string());
        h.get_by_label("Add").click();
        h.run_ok();
    }
    assert_eq!(h.state().arena().form().algos().len(), 2, "{}", h.state().arena().message());
    // One pairing, 4 games (each algo twice from each seat), 2 at once.
    type_into(&mut h, "Games per pairing", "4");
    type_into(&mut h, "Jobs", "2");
    type_into(&mut h, "Output folder", &out.path().join("run").display().to_string());
    assert_eq!(h.state().arena().form().games(), "4");
    assert_eq!(h.state().arena().form().jobs(), "2");

    h.get_by_label("Start").click();
    h.run_ok();
    assert!(h.state().arena().is_running(), "{}", h.state().arena().message());

    let deadline = Instant::now() + Duration::from_secs(90);
    while h.state().arena().outcome().is_none() {
        assert!(Instant::now() < deadline, "the arena did not finish in time: {}", h.state().arena().message());
        std::thread::sleep(Duration::from_millis(50));
        h.step();
    }
    h.run_ok();
    let summary = h.state().arena().summary().cloned().expect("a summary");
    assert_eq!(summary.matches, 4);
    for label in ["py-builder", "py-random"] {
        let a = summary.algos.iter().find(|a| a.label == label).expect("both algos in the summary");
        assert_eq!(a.games, 4, "{label}");
        // The setup list and the results table both show it.
        assert!(h.query_all_by_label(label).count() >= 2, "{label} in the results table");
    }
    h.get_by_label("Summary");
    assert!(out.path().join("run/results.jsonl").exists());
    assert_eq!(h.state().arena().records().len(), 4);

    // Clicking a finished match opens its replay in the debugger.
    let first = h.state().arena().records()[3].clone();
    h.query_all_by_label_contains(" · g").next().expect("a match row").click();
    h.run_ok();
    assert_eq!(h.state().view(), View::Debugger);
    let opened = h.state().viewer().path().map(Path::to_path_buf).expect("a replay opened in the viewer");
    assert!(opened.ends_with(&first.replay), "{} vs {}", opened.display(), first.replay);
}

/// Adds the test algos by path, as a user pasting folders.
fn add_algos(h: &mut Harness<'_, StudioApp>, algos: &[&str]) {
    for algo_name in algos {
        let path = algo(algo_name);
        type_into(h, "Algo path", &path.display().to_string());
        h.get_by_label("Add").click();
        h.run_ok();
    }
    assert_eq!(h.state().arena().form().algos().len(), algos.len(), "{}", h.state().arena().message());
}

/// Sets the games per pairing and the jobs, as a user typing them, and presses Start.
fn start_arena(h: &mut Harness<'_, StudioApp>, games: u32, jobs: u32) {
    type_into(h, "Games per pairing", &games.to_string());
    type_into(h, "Jobs", &jobs.to_string());
    h.get_by_label("Start").click();
    h.run_ok();
}

/// Opens the Baseline combo box and picks `label` (the popup's entry: the algo list shows
/// the same label, earlier in the tree).
fn pick_baseline(h: &mut Harness<'_, StudioApp>, label: &str) {
    h.get_by_label("Baseline").click();
    h.run_ok();
    h.query_all_by_label(label).last().expect("the baseline entry").click();
    h.run_ok();
}

/// Steps the UI until `done` holds (panics with the tab's message after `secs`).
fn arena_harness(out: &std::path::Path) -> Harness<'static, StudioApp> {
    let mut h = harness();
    h.get_by_label("Arena").click();
    h.run_ok();
    type_into(&mut h, "Output folder", &out.display().to_string());
    h
}

#[test]
fn gauntlet_from_the_tab_then_resume_with_more_games() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("run");
    let mut h = arena_harness(&out);
    add_algos(&mut h, &["py-builder", "py-crash", "py-random"]);
    h.get_by_label("Gauntlet").click();
    h.run_ok();
    // The baseline: py-random, picked from the combo box.
    pick_baseline(&mut h, "py-random");
    assert_eq!(h.state().arena().form().gauntlet(), Some(2), "a gauntlet against py-random");
    start_arena(&mut h, 2, 2);
    assert!(h.state().arena().is_running(), "{}", h.state().arena().message());
    step_until(&mut h, 90, "the gauntlet's summary", |a| a.arena().outcome().is_some());

    let arena = &h.state().arena();
    // Two pairings (builder–random, crash–random), two games each, no builder–crash game.
    assert_eq!(arena.records().len(), 4, "{}", arena.message());
    for r in arena.records() {
        assert!(r.seat_of("py-random").is_some(), "{} is not against the baseline", r.job_id);
    }
    let summary = arena.summary().cloned().expect("summary");
    let stats = |label: &str| summary.algos.iter().find(|a| a.label == label).cloned().expect(label);
    assert_eq!(stats("py-random").games, 4);
    assert_eq!(stats("py-builder").games, 2);
    // py-crash exits at turn 2 in both of its games: counted apart, and a loss on the board.
    assert_eq!(stats("py-crash").crashes, 2);
    assert_eq!(stats("py-crash").wins, 0);
    assert_eq!(stats("py-builder").crashes, 0);
    h.get_by_label("Crashes");
    // The per-pairing table: one row per pairing, seats shown apart.
    h.get_by_label("Pairings (2)").click();
    h.run_ok();
    h.get_by_label("A as P1");
    for p in &summary.pairs {
        assert_eq!(p.games, 2, "{} vs {}", p.a, p.b);
        h.get_by_label(&format!("{} vs {}", p.a, p.b));
    }

    // Resume the same folder with 4 games per pairing: only the 4 new games are played.
    type_into(&mut h, "Games per pairing", "4");
    h.get_by_label("Resume the output folder").click();
    h.run_ok();
    assert!(h.state().arena().resumes());
    h.get_by_label("Start").click();
    h.run_ok();
    assert!(h.state().arena().is_running(), "{}", h.state().arena().message());
    // The earlier matches are in the live table from the start.
    assert_eq!(h.state().arena().records().len(), 4);
    step_until(&mut h, 90, "the resumed gauntlet's summary", |a| a.arena().outcome().is_some());
    let outcome = h.state().arena().outcome().cloned().expect("outcome");
    assert_eq!(outcome.played_now, 4);
    assert_eq!(outcome.summary.matches, 8);
    assert_eq!(h.state().arena().records().len(), 8);
    let lines = std::fs::read_to_string(out.join("results.jsonl")).expect("results.jsonl");
    assert_eq!(lines.lines().count(), 8);
}

#[test]
fn sprt_stops_a_clear_gauntlet_early() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut h = arena_harness(&dir.path().join("run"));
    add_algos(&mut h, &["py-builder", "py-crash"]);
    h.get_by_label("Gauntlet").click();
    h.run_ok();
    pick_baseline(&mut h, "py-crash");
    h.get_by_label("SPRT early stop").click();
    h.run_ok();
    // Elo0 0, Elo1 100, α = β = 0.05: 12 straight wins accept H1.
    type_into(&mut h, "SPRT Elo0,Elo1,α,β", "0,100,0.05,0.05");
    start_arena(&mut h, 40, 2);
    assert!(h.state().arena().is_running(), "{}", h.state().arena().message());
    step_until(&mut h, 120, "the SPRT stop", |a| a.arena().outcome().is_some());
    let outcome = h.state().arena().outcome().cloned().expect("outcome");
    assert_eq!(outcome.stop, StopReason::Sprt(SprtDecision::AcceptH1), "{}", h.state().arena().message());
    let sprt = outcome.sprt.expect("SPRT status");
    assert_eq!(sprt.first, "py-builder");
    assert!(sprt.wins >= 12 && sprt.losses == 0, "{sprt:?}");
    // The matches already started when it decided finish and are recorded; no more start.
    assert!(outcome.summary.matches >= 12 && outcome.summary.matches <= 14, "{}", outcome.summary.matches);
    h.get_by_label_contains("Arena stopped by the SPRT");
}

#[test]
fn pause_keeps_the_running_match_then_resume_finishes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut h = arena_harness(&dir.path().join("run"));
    add_algos(&mut h, &["py-builder", "py-crash"]);
    start_arena(&mut h, 4, 1);
    step_until(&mut h, 60, "a match running", |a| a.arena().in_flight() == 1);
    h.get_by_label("Pause").click();
    h.run_ok();
    assert!(h.state().arena().is_paused());
    let at_pause = h.state().arena().records().len();
    // The button now resumes.
    h.get_by_label("Resume");
    // The match in flight finishes and is recorded; then nothing runs.
    step_until(&mut h, 60, "no match in flight", |a| a.arena().in_flight() == 0);
    let recorded = h.state().arena().records().len();
    assert!(
        recorded >= 1 && recorded <= at_pause + 1,
        "one worker: {at_pause} recorded at the pause, {recorded} after"
    );
    // The live table shows what is recorded so far.
    assert_eq!(h.state().arena().summary().map(|s| s.matches as usize), Some(recorded));
    h.get_by_label("Live results");
    h.get_by_label("Win rate (95 %)");
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(50));
        h.step();
    }
    assert!(h.state().arena().is_running());
    assert_eq!(h.state().arena().in_flight(), 0, "a match started while paused");
    assert_eq!(h.state().arena().records().len(), recorded, "a match was played while paused");

    h.get_by_label("Resume").click();
    h.run_ok();
    assert!(!h.state().arena().is_paused());
    step_until(&mut h, 90, "the summary after resuming", |a| a.arena().outcome().is_some());
    let outcome = h.state().arena().outcome().cloned().expect("outcome");
    assert_eq!(outcome.stop, StopReason::Completed);
    assert_eq!(outcome.summary.matches, 4);
}

#[test]
fn cancel_stops_a_hanging_match_and_records_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("run");
    let mut h = arena_harness(&out);
    // py-hang never answers turn 1: its matches only end when cancelled.
    add_algos(&mut h, &["py-hang", "py-idle"]);
    start_arena(&mut h, 2, 2);
    step_until(&mut h, 30, "two matches running", |a| a.arena().in_flight() == 2);
    // Paused, the running matches stay; cancel then stops them too.
    h.get_by_label("Pause").click();
    h.run_ok();
    assert_eq!(h.state().arena().in_flight(), 2);
    h.get_by_label("Cancel").click();
    h.run_ok();
    step_until(&mut h, 30, "the summary after cancelling", |a| a.arena().outcome().is_some());
    let outcome = h.state().arena().outcome().cloned().expect("outcome");
    assert_eq!(outcome.stop, StopReason::Cancelled);
    assert_eq!(outcome.summary.matches, 0);
    assert!(h.state().arena().records().is_empty());
    assert!(!h.state().arena().is_running());
    h.get_by_label_contains("Arena cancelled");
    let results = std::fs::read_to_string(out.join("results.jsonl")).unwrap_or_default();
    assert_eq!(results.lines().count(), 0, "a cancelled match was recorded");
}

fn two_replays() -> (PathBuf, PathBuf) {
    let dir = replay("base-s6");
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
    h.state_mut().apply(Command::File(FileCommand::Compare(a.clone(), b.clone())));
    h.run_ok();
    assert_eq!(h.state().view(), View::Arena);
    // Step to turn 5 with the shared controls.
    for _ in 0..5 {
        h.get_by_label("Turn >>").click();
        h.run_ok();
    }
    let c = h.state().arena().compare().expect("comparison open");
    assert_eq!(c.model.turn, 5);
    let n = c.model.diff_count();
    assert!(n > 0, "two different games differ somewhere on turn 5");
    h.get_by_label(&format!("{n} differing tiles"));

    // A replay against itself: nothing to highlight, on any turn.
    h.state_mut().apply(Command::File(FileCommand::Compare(a.clone(), a.clone())));
    h.run_ok();
    for _ in 0..5 {
        h.get_by_label("Turn >>").click();
        h.run_ok();
        assert_eq!(h.state().arena().compare().expect("comparison").model.diff_count(), 0);
    }
    h.get_by_label("0 differing tiles");
    h.get_by_label("Close comparison").click();
    h.run_ok();
    assert!(h.state().arena().compare().is_none());
}

/// At 1000×700 both boards and the shared controls fit: nothing is cut off.
#[test]
fn side_by_side_fits_a_small_window() {
    let (a, b) = two_replays();
    let mut app = StudioApp::new(State::default(), None);
    app.apply(Command::File(FileCommand::Compare(a, b)));
    let mut h =
        Harness::builder().with_size(vec2(1000.0, 700.0)).build_ui_state(|ui, app: &mut StudioApp| app.show(ui), app);
    h.run_ok();
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, vec2(1000.0, 700.0));
    let c = h.state().arena().compare().expect("comparison open");
    for (i, g) in c.geometry.iter().enumerate() {
        let g = g.as_ref().expect("both boards drawn");
        assert!(screen.contains_rect(g.rect), "board {} inside the window: {:?}", i + 1, g.rect);
        assert!(g.rect.width() >= 330.0, "board {} large enough: {:?}", i + 1, g.rect);
    }
    for label in ["Turn >>", "Close comparison"] {
        let node = h.get_by_label(label);
        assert!(screen.contains_rect(node.rect()), "{label} on screen: {:?}", node.rect());
    }
}

#[test]
fn snapshot_side_by_side() {
    let (a, b) = two_replays();
    let mut h = studio(vec2(1400.0, 800.0), None, true);
    // The form shows the machine's core count by default: pin it so the picture is the same
    // on any machine.
    h.get_by_label("Arena").click();
    h.run_ok();
    type_into(&mut h, "Jobs", "2");
    h.state_mut().apply(Command::File(FileCommand::Compare(a, b)));
    h.run_ok();
    for _ in 0..8 {
        h.get_by_label("Turn >>").click();
        h.run_ok();
    }
    // The pointer leaves, so no button is drawn hovered.
    h.event(egui::Event::PointerGone);
    h.run_ok();
    h.snapshot("arena_compare_side_by_side");
}

#[test]
fn time_limits_typed_in_the_tab_reach_every_match() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut h = arena_harness(&dir.path().join("run"));
    add_algos(&mut h, &["py-slow", "py-idle"]);
    // Not a number: refused with the field named, nothing starts.
    type_into(&mut h, "Hard limit (ms)", "2s");
    h.get_by_label("Start").click();
    h.run_ok();
    assert!(!h.state().arena().is_running());
    h.get_by_label_contains("Hard limit: milliseconds");
    // py-slow sleeps 2.5 s on turn 1: under the ruleset's limits nothing happens; with a
    // 1.5 s hard limit the turn is skipped, and 1.1 s over a 0.4 s soft limit costs 1 HP.
    type_into(&mut h, "Soft limit (ms)", "400");
    type_into(&mut h, "Hard limit (ms)", "1500");
    start_arena(&mut h, 2, 2);
    assert!(h.state().arena().is_running(), "{}", h.state().arena().message());
    step_until(&mut h, 60, "the summary", |a| a.arena().outcome().is_some());
    let summary = h.state().arena().summary().cloned().expect("a summary");
    let slow = summary.algos.iter().find(|a| a.label == "py-slow").expect("py-slow");
    assert_eq!((slow.games, slow.hard_timeouts, slow.time_penalty_hp), (2, 2, 2), "{slow:?}");
    let idle = summary.algos.iter().find(|a| a.label == "py-idle").expect("py-idle");
    assert_eq!((idle.hard_timeouts, idle.time_penalty_hp), (0, 0), "{idle:?}");
}

/// Enter adds the typed path and keeps the field focused: a second path typed right after
/// is added too.
#[test]
fn enter_in_the_path_field_adds_and_keeps_the_field() {
    let mut h = harness();
    h.get_by_label("Arena").click();
    h.run_ok();
    h.get_by_label("Algo path").focus();
    h.run_ok();
    for (k, name) in ["py-builder", "py-random"].iter().enumerate() {
        h.get_by_label("Algo path").type_text(&algo(name).display().to_string());
        h.run_ok();
        h.key_press(egui::Key::Enter);
        h.run_ok();
        assert_eq!(h.state().arena().form().algos().len(), k + 1, "{}", h.state().arena().message());
    }
}
