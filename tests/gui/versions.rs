//! The Versions view as a player uses it: the algo changed from a known turn, compared with
//! its saved version against real recorded players, the flipped games listed, one opened
//! side by side at the turn the versions parted.

use egui_kittest::kittest::Queryable;

use crate::common::corpus;
use crate::common::harness::{LARGE, step_until, studio_with, type_into};
use crate::common::switch_algo::write_algo;
use terminal_core::versions::Flip;
use terminal_studio::app::model::View;
use terminal_studio::app::state::State;

/// The first `n` replays of a ruleset folder, copied into `dir`.
fn ghosts(dir: &std::path::Path, ruleset: &str, n: usize) {
    let mut all = terminal_core::verify::collect_replays(&[corpus::replay(ruleset)]);
    all.sort();
    assert!(all.len() >= n, "../shared/replays/{ruleset} holds {} replays, {n} needed", all.len());
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for f in &all[..n] {
        let name = f.file_name().unwrap_or_else(|| panic!("{} has no name", f.display()));
        std::fs::copy(f, dir.join(name)).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    }
}

/// The Versions tab with `algo` (written as a player's switch algo, noisy or not) and `n`
/// special-2025 ghost replays in its form, two head-to-head games, data kept in `tmp`.
fn versions_tab(
    tmp: &std::path::Path,
    algo: &std::path::Path,
    n: usize,
    noisy: bool,
) -> egui_kittest::Harness<'static, terminal_studio::app::StudioApp> {
    let ghost_dir = tmp.join("ghosts");
    ghosts(&ghost_dir, "special-2025", n);
    write_algo(algo, None, noisy);
    let mut settings = State::default();
    settings.versions.store_dir = Some(tmp.join("data"));
    settings.versions.games = 2;
    let mut h = studio_with(settings, LARGE, None, false);
    h.get_by_label("Versions").click();
    h.run();
    assert_eq!(h.state().state().view, View::Versions);
    type_into(&mut h, "Algo folder", &algo.display().to_string());
    type_into(&mut h, "Ghost replays", &ghost_dir.display().to_string());
    h
}

#[test]
fn a_changed_algo_is_compared_and_a_flipped_game_opens_side_by_side_where_they_parted() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    let algo = tmp.path().join("switch");
    let mut h = versions_tab(tmp.path(), &algo, 6, false);

    // The first comparison saves the folder and says there is nothing to compare it with.
    h.get_by_label("Compare with previous").click();
    h.step();
    step_until(&mut h, 60, "the first save", |a| !a.versions().is_running());
    assert_eq!(h.state().versions().versions().len(), 1, "{}", h.state().versions().message());
    let said = h.state().versions().message();
    assert!(said.contains("first version") && said.contains("Change the algo"), "{said}");
    assert!(!said.contains("failed"), "the first comparison is not a failure: {said}");

    // The player changes the algo: from turn 3 it sells its base.
    write_algo(&algo, Some(3), false);
    type_into(&mut h, "Label", "sells at 3");
    h.get_by_label("Compare with previous").click();
    h.step();
    assert!(h.state().versions().is_running(), "{}", h.state().versions().message());
    step_until(&mut h, 300, "the comparison", |a| !a.versions().is_running());
    let v = h.state().versions();
    let report = v.report().unwrap_or_else(|| panic!("no report: {}", v.message()));
    assert_eq!(v.versions().len(), 2);
    assert_eq!(report.new.label.as_deref(), Some("sells at 3"));
    let flipped = report.flipped();
    let first = flipped.first().unwrap_or_else(|| panic!("no flipped game: {:#?}", report.games));
    assert_eq!(first.flipped, Some(Flip::Regression), "regressions come first");
    let parted = first.divergence.as_ref().map(|d| d.turn);
    assert_eq!(parted, Some(3), "{first:#?}");
    assert!(h.query_by_label_contains("regressions").is_some());
    assert!(
        h.query_by_label("Head to head under special-2025 (the first ghost replay's; none chosen)").is_some(),
        "the report names the ruleset its verdict holds for"
    );
    let verdict = format!("{} against {}", report.head_to_head.verdict(), report.base.name());
    assert!(h.query_all_by_label_contains(&verdict).next().is_some(), "the version list says its verdict: {verdict}");

    h.get_all_by_label("Side by side").next().unwrap_or_else(|| panic!("no Side by side button")).click();
    h.run();
    assert_eq!(h.state().versions().side_by_side(), Some((0, 3)), "{}", h.state().versions().message());
    assert!(
        h.query_by_label("Parted at turn 3, frame 1").is_some(),
        "the first action frame after the turn's commands"
    );
    assert!(h.query_by_label_contains("differing tiles").is_some(), "the comparison's summary is shown");
    assert!(h.query_by_label("0 differing tiles").is_none(), "the boards differ at the frame shown");
    assert!(h.query_by_label("Base did:").is_some() && h.query_by_label("New did:").is_some());
    h.get_by_label("Close comparison").click();
    h.run();
    assert_eq!(h.state().versions().side_by_side(), None);
}

/// A noisy algo (its play depends on chance) compared under a ruleset the player chose: the
/// report names the ruleset of the head to head and says the algo is unseeded and how to
/// seed it, rather than leaving its noise to read as flipped games.
#[test]
fn the_report_names_its_ruleset_and_flags_an_unseeded_algo() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    let algo = tmp.path().join("noisy");
    let mut h = versions_tab(tmp.path(), &algo, 2, true);
    h.get_by_label("Compare with previous").click();
    h.step();
    step_until(&mut h, 60, "the first save", |a| !a.versions().is_running());

    write_algo(&algo, Some(60), true);
    h.get_by_label("Head-to-head ruleset").click();
    h.run();
    h.get_by_label("special-2025").click();
    h.run();
    assert_eq!(h.state().versions().ruleset, "special-2025");
    h.get_by_label("Compare with previous").click();
    h.step();
    step_until(&mut h, 300, "the comparison", |a| !a.versions().is_running());
    let v = h.state().versions();
    let report = v.report().unwrap_or_else(|| panic!("no report: {}", v.message()));
    assert_eq!(report.ruleset.from, terminal_core::versions::RulesetSource::Chosen);
    assert!(h.query_by_label("Head to head under special-2025 (chosen)").is_some());
    assert!(report.looks_unseeded(), "the noisy algo is found out: {:?}", report.noise);
    assert!(
        h.query_by_label_contains("To compare the change rather than chance, seed its randomness").is_some(),
        "the report says how to seed it"
    );
    assert!(h.query_by_label_contains("(may be noise: see above)").is_some());
}
