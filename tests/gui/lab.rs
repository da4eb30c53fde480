//! The Layout lab as a player uses it: a layout run against the recorded attacks of real
//! replays (`../shared/replays`), its figures tied to that layout and those attacks, the
//! worst attack opened in the Debugger with the row's own figures, suggestions accepted and
//! undone, two layouts compared attack by attack, and a folder of another ruleset met with
//! both ways out.

use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use crate::common::harness::{LARGE, click_at, step_until, studio, type_into};
use std::path::{Path, PathBuf};
use terminal_core::engine::geometry::Tile;
use terminal_core::layout::Layout;
use terminal_studio::app::StudioApp;
use terminal_studio::app::command::{Command, FileCommand};
use terminal_studio::app::editor::lab_state::Freshness;
use terminal_studio::app::model::View;

type Harness = egui_kittest::Harness<'static, StudioApp>;

fn layout(name: &str) -> PathBuf {
    crate::common::corpus::root().join("layouts").join(name)
}

/// A folder of its own holding `n` replays of a ruleset, from the `skip`-th on (by name).
fn replay_folder(ruleset: &str, skip: usize, n: usize) -> tempfile::TempDir {
    let mut files = terminal_core::verify::collect_replays(&[crate::common::corpus::replay(ruleset)]);
    files.sort();
    assert!(files.len() >= skip + n, "../shared/replays/{ruleset} holds {} replays, {} needed", files.len(), skip + n);
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    for f in &files[skip..skip + n] {
        let name = f.file_name().unwrap_or_else(|| panic!("{} has no name", f.display()));
        std::fs::copy(f, dir.path().join(name)).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    }
    dir
}

/// The studio with funnel-2022 open and the lab shown, pointed at `folder`.
fn lab_on_funnel(folder: &Path) -> Harness {
    let mut h = studio(LARGE, None, false);
    h.state_mut().open(&layout("funnel-2022.json"));
    h.run();
    assert_eq!(h.state().state().ruleset, "live-2022", "{}", h.state().message());
    h.get_by_label("Layout lab").click();
    h.run();
    type_into(&mut h, "Attacks from", &folder.display().to_string());
    h
}

/// The lab on funnel.json with "Attack this layout" searched to its end.
fn funnel_attacked(folder: &Path) -> Harness {
    let mut h = lab_on_funnel(folder);
    h.get_by_label("Attack this layout").click();
    h.step();
    step_until(&mut h, 240, "the searches", |a| !a.editor_view().lab().is_planning());
    h
}

fn run_stress(h: &mut Harness) {
    let before = h.state().editor_view().lab().run().map(|r| r.report.totals);
    h.get_by_label("Run stress test").click();
    // The progress bar repaints while the run lasts (longer on a loaded machine): steps.
    h.step();
    step_until(h, 240, "the stress test", |a| {
        let lab = &a.editor_view().lab();
        !lab.is_running()
            && lab.run().is_some_and(|r| Some(r.report.totals) != before || lab.message.contains("attacks:"))
    });
}

fn suggest(h: &mut Harness, budget: &str) {
    type_into(h, "Budget (SP)", budget);
    h.get_by_label("Suggest").click();
    h.step();
    step_until(h, 300, "the suggestion", |a| a.editor_view().lab().suggestion().is_some());
    let lab = &h.state().editor_view().lab();
    assert!(lab.suggestion().is_some_and(|s| !s.steps.is_empty()), "{}", lab.message);
}

/// A click on a free tile of player 1's half with the editor's wall tool.
fn place_wall(h: &mut Harness) -> Tile {
    let free = (0..14)
        .flat_map(|y| (0..28).map(move |x| Tile::new(x, y)))
        .find(|t| t.in_play() && t.y >= 3 && !h.state().editor().layout.structures.contains_key(t))
        .unwrap_or_else(|| panic!("no free tile in player 1's half"));
    let pos = h.state().tile_screen_pos(free).unwrap_or_else(|| panic!("the board was not drawn"));
    click_at(h, pos);
    assert!(h.state().editor().layout.structures.contains_key(&free), "{}", h.state().message());
    free
}

fn has_label_containing(h: &Harness, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

#[test]
fn an_edit_marks_the_results_stale_and_an_old_suggestion_is_not_accepted() {
    let folder = replay_folder("live-2022", 0, 6);
    let mut h = lab_on_funnel(folder.path());
    run_stress(&mut h);
    suggest(&mut h, "6");
    assert_eq!(h.state().editor_view().lab().freshness(h.state().editor(), "live-2022"), Freshness::Fresh);
    assert!(!has_label_containing(&h, "Stale"), "fresh results are not called stale");

    place_wall(&mut h);
    let edited = h.state().editor().layout.clone();
    let lab = &h.state().editor_view().lab();
    assert_eq!(lab.freshness(h.state().editor(), "live-2022"), Freshness::LayoutEdited);
    assert!(has_label_containing(&h, "Stale: the layout changed since this run"), "the run is marked stale");
    assert!(has_label_containing(&h, "Stale: the layout changed since these were suggested"));

    h.get_all_by_label("Accept").next().unwrap_or_else(|| panic!("an Accept button per step")).click();
    h.run();
    let lab = &h.state().editor_view().lab();
    assert!(lab.message.starts_with("Not accepted"), "{}", lab.message);
    assert_eq!(h.state().editor().layout, edited, "nothing was applied to the edited layout");

    // Undo brings the layout back to the one the suggestions were made for: they apply again.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    let lab = &h.state().editor_view().lab();
    assert!(lab.suggestion_applies(h.state().editor()), "{}", lab.message);
    assert_eq!(lab.freshness(h.state().editor(), "live-2022"), Freshness::Fresh);
}

#[test]
fn another_layout_clears_the_results_and_two_layouts_compare_attack_by_attack() {
    let folder = replay_folder("live-2022", 0, 6);
    let mut h = lab_on_funnel(folder.path());
    run_stress(&mut h);
    suggest(&mut h, "6");
    let first = h.state().editor_view().lab().run().map(|r| r.report.totals).unwrap_or_else(|| panic!("a run"));

    // Another layout: funnel-2022 without its turrets, from a file.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    let mut other: Layout = h.state().editor().layout.clone();
    other.name = "funnel without turrets".into();
    other.structures.retain(|_, s| s.kind != terminal_core::layout::Kind::Turret);
    let other_path = dir.path().join("other.json");
    terminal_core::layout::files::save_layout(&other_path, &other).unwrap_or_else(|e| panic!("{e}"));
    h.state_mut().apply(Command::File(FileCommand::Open(other_path.clone())));
    h.run();
    assert_eq!(h.state().editor().layout.structures, other.structures, "{}", h.state().message());
    let lab = &h.state().editor_view().lab();
    assert!(lab.run().is_none() && lab.suggestion().is_none(), "no figure of the old layout stays on screen");
    assert!(!lab.has_results(), "nothing of the old run is drawn on the board");
    assert!(!has_label_containing(&h, "Accept"), "no old suggestion to accept");
    assert_eq!(lab.compared().map(|r| r.name().to_string()), Some("funnel-2022".to_string()));

    // The same attacks against the other layout: compared attack by attack.
    run_stress(&mut h);
    let lab = &h.state().editor_view().lab();
    let (before, now) = (lab.compared().expect("the run before"), lab.run().expect("this run"));
    assert_eq!(before.report.totals, first);
    let diffs = terminal_studio::app::editor::lab_compare::differences(before, now);
    assert!(!diffs.is_empty(), "without turrets some attacks must do more harm");
    let change = |d: &terminal_studio::app::editor::lab_compare::AttackDifference| d.hp_change().abs();
    assert!(diffs.windows(2).all(|w| change(&w[0]) >= change(&w[1])), "sorted by the difference");
    assert!(has_label_containing(&h, "Compared with funnel-2022"));
    assert!(has_label_containing(&h, &format!("{} attacks differ", diffs.len())));
    h.get_by_label("Difference on the board (green: better now)").click();
    h.run();
    assert!(h.state().editor_view().lab().show_difference);

    // Other attacks: no comparison between runs over different attack sets.
    let elsewhere = replay_folder("live-2022", 6, 4);
    type_into(&mut h, "Attacks from", &elsewhere.path().display().to_string());
    assert_eq!(h.state().editor_view().lab().freshness(h.state().editor(), "live-2022"), Freshness::AttacksChanged);
    run_stress(&mut h);
    let lab = &h.state().editor_view().lab();
    assert!(lab.compared().is_none(), "a comparison is only between runs over the same attacks");
    assert!(!has_label_containing(&h, "Compared with"));
}

#[test]
fn opening_another_layout_over_unsaved_changes_asks_first() {
    let mut h = studio(LARGE, None, false);
    h.state_mut().open(&layout("funnel-2022.json"));
    h.run();
    place_wall(&mut h);
    let edited = h.state().editor().layout.clone();
    assert!(h.state().editor().dirty);
    h.state_mut().apply(Command::File(FileCommand::Open(layout("funnel.json"))));
    h.run();
    assert!(h.state().unsaved_prompt().is_some(), "{}", h.state().message());
    assert_eq!(h.state().editor().layout, edited, "nothing replaced yet");
    h.get_by_label("Cancel").click();
    h.run();
    assert!(h.state().unsaved_prompt().is_none());
    assert_eq!(h.state().editor().layout, edited, "Cancel keeps the work");

    // A file that is no layout is refused at once: no question first, the work untouched.
    let dir = tempfile::tempdir().expect("temp dir");
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{ not a layout").expect("write");
    h.state_mut().apply(Command::File(FileCommand::Open(broken)));
    h.run();
    assert!(h.state().unsaved_prompt().is_none(), "asked before the file was checked");
    assert!(h.state().message().starts_with("Open failed:"), "{}", h.state().message());
    assert_eq!(h.state().editor().layout, edited);

    h.state_mut().apply(Command::File(FileCommand::Open(layout("funnel.json"))));
    h.run();
    h.get_by_label("Open without saving").click();
    h.run();
    assert_eq!(h.state().editor().layout.name, "funnel", "{}", h.state().message());
}

#[test]
fn the_worst_attack_opens_in_the_debugger_with_the_rows_figures() {
    let folder = replay_folder("live-2022", 0, 6);
    let mut h = lab_on_funnel(folder.path());
    run_stress(&mut h);
    let lab = &h.state().editor_view().lab();
    let worst = lab.report().and_then(|r| r.worst(1).next()).unwrap_or_else(|| panic!("an attack that hurt"));
    let o = lab.report().map(|r| r.outcomes[worst].clone()).unwrap_or_else(|| panic!("its outcome"));
    let attack = lab.attack(worst).unwrap_or_else(|| panic!("the worst attack"));
    let (turn, attacker) = (attack.turn, attack.attacker);
    let label = lab.attack_label(worst).unwrap_or_else(|| panic!("its button"));
    let stem = attack.file_name().trim_end_matches(".gz").trim_end_matches(".replay").to_string();
    assert!(label.contains(&stem), "the row names the whole replay: {label}");
    assert!(label.contains(&format!("−{:.0} HP ({} breaches)", o.hp_lost, o.breaches)), "{label}");
    h.get_by_label(&label).click();
    h.run();
    assert_eq!(h.state().view(), View::Debugger);
    step_until(&mut h, 60, "the attack's try", |a| a.viewer().watching().is_some());
    let v = h.state().viewer();
    assert_eq!(v.turn(), Some(turn), "{}", v.message());
    let s = &v.tries()[0].summary;
    let a = attacker.index();
    assert_eq!(
        (s.breaches[a], s.hp_damage[a], s.structures_destroyed[a], s.sp_destroyed[a]),
        (o.breaches, o.hp_lost, o.structures_lost, o.sp_lost),
        "the try shows what the lab's row counted"
    );
    let dealt = format!("breaches dealt {} / taken 0", o.breaches);
    assert!(has_label_containing(&h, &dealt), "the tries panel says {dealt}");
}

#[test]
fn a_folder_of_another_ruleset_says_what_it_holds_and_offers_both_ways_out() {
    let folder = replay_folder("live-2022", 0, 3);
    let mut h = studio(LARGE, None, false);
    h.state_mut().open(&layout("funnel.json"));
    h.run();
    assert_eq!(h.state().state().ruleset, "base-s6");
    h.get_by_label("Layout lab").click();
    h.run();
    type_into(&mut h, "Attacks from", &folder.path().display().to_string());
    h.get_by_label("Run stress test").click();
    // A background job: its progress repaints, so steps.
    h.step();
    step_until(&mut h, 60, "the refusal", |a| !a.editor_view().lab().is_running());
    let message = h.state().editor_view().lab().message.clone();
    assert!(message.contains("3 replays of live-2022"), "{message}");
    assert!(has_label_containing(&h, "Run these attacks under base-s6"));

    h.get_by_label("Switch the studio to live-2022 and run").click();
    h.run();
    step_until(&mut h, 240, "the run under live-2022", |a| a.editor_view().lab().run().is_some());
    assert_eq!(h.state().state().ruleset, "live-2022");
    let run = h.state().editor_view().lab().run().unwrap_or_else(|| panic!("a run"));
    assert_eq!((run.key.ruleset.as_str(), run.report.totals.attacks > 0), ("live-2022", true));

    // Opening a layout of another ruleset says that it switched.
    h.state_mut().apply(Command::File(FileCommand::Open(layout("maze.json"))));
    h.run();
    let said = h.state().message().to_string();
    assert!(said.contains("ruleset base-s6, as the layout records (was live-2022)"), "{said}");

    // The other way out: the same attacks run under the studio's ruleset.
    h.get_by_label("Run stress test").click();
    // A background job: its progress repaints, so steps.
    h.step();
    step_until(&mut h, 60, "the refusal", |a| !a.editor_view().lab().is_running());
    h.get_by_label("Run these attacks under base-s6").click();
    h.run();
    step_until(&mut h, 240, "the run under base-s6", |a| {
        a.editor_view().lab().run().is_some_and(|r| r.key.any_ruleset && r.key.ruleset == "base-s6")
    });
}

#[test]
fn undoing_an_accepted_suggestion_puts_it_back_in_the_list() {
    let folder = replay_folder("live-2022", 0, 6);
    let mut h = lab_on_funnel(folder.path());
    suggest(&mut h, "6");
    let steps = h.state().editor_view().lab().suggestion().map(|s| s.steps.clone()).unwrap_or_default();
    let before = h.state().editor().layout.clone();
    h.get_all_by_label("Accept").next().unwrap_or_else(|| panic!("an Accept button")).click();
    h.run();
    assert_ne!(h.state().editor().layout, before);
    assert_eq!(h.state().editor_view().lab().suggestion().map(|s| s.steps.len()), Some(steps.len() - 1));

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    let lab = &h.state().editor_view().lab();
    assert_eq!(h.state().editor().layout, before, "Undo takes the change back");
    assert_eq!(lab.suggestion().map(|s| s.steps.clone()), Some(steps.clone()), "…and puts the step back");
    assert!(lab.message.starts_with("Undone") && lab.message.contains(&steps[0].label), "{}", lab.message);

    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    let lab = &h.state().editor_view().lab();
    assert_eq!(lab.suggestion().map(|s| s.steps.len()), Some(steps.len() - 1), "Redo accepts it again");
    assert!(lab.message.starts_with("Redone"), "{}", lab.message);
}

#[test]
fn hovering_a_tile_tells_its_heat_in_the_panel() {
    let folder = replay_folder("live-2022", 0, 6);
    let mut h = lab_on_funnel(folder.path());
    run_stress(&mut h);
    let report = h.state().editor_view().lab().report().cloned().unwrap_or_else(|| panic!("a report"));
    let tile = terminal_core::engine::geometry::all_tiles()
        .find(|t| report.heatmap.breaches[t.index()] > 0)
        .unwrap_or_else(|| panic!("no tile breached"));
    let pos = h.state().tile_screen_pos(tile).unwrap_or_else(|| panic!("the board was not drawn"));
    h.event(egui::Event::PointerMoved(pos));
    h.run();
    let told = format!("{},{}: {} breaches", tile.x, tile.y, report.heatmap.breaches[tile.index()]);
    assert!(has_label_containing(&h, &told), "the panel tells the hovered tile's heat: {told}");
    assert_eq!(h.state().editor_view().hovered(), Some(tile));
}

/// The lab at 1000×700: heatmap marks without crowded numbers, the suggested changes drawn
/// over them, the worst attacks with whole replay names.
/// "Attack this layout": the planner's strongest attack at each MP, and one opened in the
/// Debugger plays as the panel said.
#[test]
fn the_layouts_searched_attacks_open_in_the_debugger_as_predicted() {
    let folder = replay_folder("live-2022", 0, 2);
    let mut h = funnel_attacked(folder.path());
    let lab = h.state().editor_view().lab();
    let plans = lab.plans().unwrap_or_else(|| panic!("no searched attacks: {}", lab.message));
    let mps: Vec<f32> = plans.by_mp.iter().map(|p| p.mp).collect();
    assert_eq!(mps, [5.0, 10.0, 15.0, 20.0]);
    assert!(plans.by_mp.iter().all(|p| !p.best.is_empty()), "every MP buys some attack");
    let best = plans.by_mp[1].best[0].clone();
    assert!(best.mp_spent <= 10.0, "{best:?}");
    assert!(has_label_containing(&h, "Worst searched attacks"));

    h.get_by_label_contains("10 MP: ").click();
    h.run();
    assert_eq!(h.state().view(), View::Debugger);
    step_until(&mut h, 60, "the try", |a| !a.viewer().tries().is_empty());
    let t = &h.state().viewer().tries()[0];
    assert!(t.label.starts_with("planned at 10 MP: "), "{}", t.label);
    let attacker = h.state().editor().player.opponent().index();
    assert_eq!((t.summary.breaches[attacker], t.summary.hp_damage[attacker]), (best.breaches, best.damage));
    assert_eq!(t.summary.rejected, [0, 0]);
}

/// "Attack this layout" also charts the cost to break it: the best attack at each MP from the
/// cheapest unit to 40, never down; a click on the chart opens that level's attack in the
/// Debugger, and it plays as the chart said.
#[test]
fn the_cost_to_break_the_layout_is_charted_and_a_point_opens_as_a_what_if() {
    let folder = replay_folder("live-2022", 0, 2);
    let mut h = funnel_attacked(folder.path());
    let lab = h.state().editor_view().lab();
    let plans = lab.plans().unwrap_or_else(|| panic!("no searched attacks: {}", lab.message));
    let levels: Vec<f32> = plans.frontier.iter().map(|p| p.mp).collect();
    assert_eq!(levels.len(), 40, "1 to 40 MP: {levels:?}");
    let damage: Vec<f32> = plans.frontier.iter().map(|p| p.best.as_ref().map_or(0.0, |b| b.damage)).collect();
    assert!(damage.windows(2).all(|w| w[0] <= w[1]), "never down: {damage:?}");
    assert!(damage[39] > 0.0, "40 MP breaks the funnel: {damage:?}");
    let first = h.get_by_label_contains("click a point: its attack as a what-if");
    let below = first.rect().center_bottom() + egui::vec2(0.0, 75.0);
    // The point nearest the click: the chart spans 1 to 40 MP across its width.
    click_at(&mut h, egui::pos2(below.x, below.y));
    assert_eq!(h.state().view(), View::Debugger, "the click opened the Debugger");
    step_until(&mut h, 60, "the try", |a| !a.viewer().tries().is_empty());
    let t = &h.state().viewer().tries()[0];
    assert!(t.label.starts_with("best at "), "{}", t.label);
    let mp: f32 = t.label["best at ".len()..].split(' ').next().and_then(|m| m.parse().ok()).unwrap_or(f32::NAN);
    let plans = h.state().editor_view().lab().plans().unwrap_or_else(|| panic!("the plans are kept"));
    let point = plans.frontier.iter().find(|p| p.mp == mp).unwrap_or_else(|| panic!("no level {mp}"));
    let best = point.best.clone().unwrap_or_else(|| panic!("nothing at {mp} MP"));
    let attacker = h.state().editor().player.opponent().index();
    assert_eq!((t.summary.breaches[attacker], t.summary.hp_damage[attacker]), (best.breaches, best.damage));
    assert_eq!(t.summary.rejected, [0, 0]);
}

/// "Attack this layout" says how far it is, MP by MP and then level by level of the cost
/// chart, and stops when asked, leaving no half answer behind.
#[test]
fn attack_this_layout_shows_how_far_it_is_and_stops() {
    let folder = replay_folder("live-2022", 0, 1);
    let mut h = lab_on_funnel(folder.path());
    h.get_by_label("Attack this layout").click();
    h.step();
    let mut seen = Vec::new();
    for _ in 0..20_000 {
        h.step();
        for text in ["5 MP (1 of 4), ", "20 MP (4 of 4), ", "cost to break it: "] {
            if !seen.contains(&text) && has_label_containing(&h, text) {
                seen.push(text);
            }
        }
        if seen.len() == 3 || !h.state().editor_view().lab().is_planning() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert_eq!(seen, ["5 MP (1 of 4), ", "20 MP (4 of 4), ", "cost to break it: "], "steps shown in order");
    assert!(h.state().editor_view().lab().is_planning(), "still searching the cost chart");
    h.get_by_label("Stop attacking").click();
    h.run();
    let lab = h.state().editor_view().lab();
    assert!(!lab.is_planning());
    assert!(lab.plans().is_none(), "no half answer");
    assert_eq!(lab.message, "Attack this layout: stopped");
    assert!(h.query_by_label("Attack this layout").is_some());
}

#[test]
fn snapshot_the_lab_at_1000x700() {
    // A relative path, the same on every machine: the field shows it in the picture.
    let folder = Path::new("target").join("lab-snapshot-replays");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
    let source = replay_folder("live-2022", 0, 6);
    for entry in std::fs::read_dir(source.path()).unwrap_or_else(|e| panic!("{e}")).flatten() {
        std::fs::copy(entry.path(), folder.join(entry.file_name())).unwrap_or_else(|e| panic!("{e}"));
    }
    let mut h = studio(egui::vec2(1000.0, 700.0), None, true);
    h.state_mut().open(&layout("funnel-2022.json"));
    h.run();
    h.get_by_label("Layout lab").click();
    h.run();
    type_into(&mut h, "Attacks from", &folder.display().to_string());
    run_stress(&mut h);
    suggest(&mut h, "6");
    h.snapshot("lab_heatmap_suggestions_1000x700");
}

#[test]
fn the_edit_menus_stress_test_runs_the_lab_and_shows_its_panel() {
    let folder = replay_folder("live-2022", 0, 3);
    let mut h = lab_on_funnel(folder.path());
    h.get_by_label("Tallies and tile").click();
    h.run();
    assert!(h.query_by_label("Suggest").is_none(), "the tallies are shown, not the lab");
    // The top bar's menu, not the tools panel's "Edit" heading.
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Edit").click();
    h.run();
    // The menu item's label carries its (empty) shortcut text.
    h.get_by_label_contains("Run stress test").click();
    h.step();
    step_until(&mut h, 240, "the stress test from the menu", |a| {
        !a.editor_view().lab().is_running() && a.editor_view().lab().run().is_some()
    });
    let attacks = h.state().editor_view().lab().run().map(|r| r.report.totals.attacks).unwrap_or_default();
    assert!(attacks > 0, "the menu's run met the folder's attacks");
    assert!(h.query_by_label("Suggest").is_some(), "the Layout lab's panel is shown, with the run");
}

/// Suggest against the planner: no folder is needed; the player picks *Planner*, types the MP
/// levels and a small budget, and the panel's table gives the strongest attack at each level
/// before and after, as the suggestion found it (never stronger after).
#[test]
fn a_suggestion_against_the_planner_shows_each_mp_before_and_after() {
    let mut h = studio(LARGE, None, false);
    h.state_mut().open(&layout("funnel-2022.json"));
    h.run();
    h.get_by_label("Layout lab").click();
    h.run();
    h.get_by_label("Planner").click();
    h.run();
    type_into(&mut h, "MP levels", "8,16");
    type_into(&mut h, "Budget (SP)", "4");
    h.get_by_label("Suggest").click();
    h.step();
    step_until(&mut h, 300, "the suggestion against the planner", |a| a.editor_view().lab().suggestion().is_some());
    let lab = h.state().editor_view().lab();
    let s = lab.suggestion().unwrap_or_else(|| panic!("no suggestion: {}", lab.message));
    let report = s.planner.as_ref().unwrap_or_else(|| panic!("no planner report: {}", lab.message));
    // Each level: MP, HP before, HP after.
    let levels: Vec<[f32; 3]> = report.levels.iter().map(|l| [l.mp, l.figures(false).0, l.figures(true).0]).collect();
    assert_eq!(levels.iter().map(|l| l[0]).collect::<Vec<_>>(), [8.0, 16.0]);
    let level = report.levels[1].clone();
    h.run();
    for [mp, hp_before, hp_after] in levels {
        assert!(hp_after <= hp_before, "{mp} MP: {hp_before} → {hp_after}");
        h.get_by_label(&format!("{mp} MP"));
        assert!(has_label_containing(&h, &format!("{hp_before:.0} to {hp_after:.0} HP")), "{mp} MP: its HP");
    }
    assert!(has_label_containing(&h, "Strongest attack at each MP, before and after"));

    // The strongest reply at 16 MP after the changes opens as a what-if and ends as reported.
    let reply = level.after.clone().unwrap_or_else(|| panic!("16 MP buys no reply after"));
    let afters: Vec<_> = h.get_all_by_label("after").collect();
    assert_eq!(afters.len(), 2, "one after button a level");
    afters[1].click();
    h.run();
    assert_eq!(h.state().view(), View::Debugger, "the click opened the Debugger");
    step_until(&mut h, 60, "the try", |a| !a.viewer().tries().is_empty());
    let t = &h.state().viewer().tries()[0];
    assert_eq!(t.label, "strongest at 16 MP, after the suggestion");
    let attacker = h.state().editor().player.opponent().index();
    assert_eq!((t.summary.breaches[attacker], t.summary.hp_damage[attacker]), (reply.breaches, reply.damage));
    assert_eq!(t.summary.rejected, [0, 0]);
}
