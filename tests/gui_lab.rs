//! The Layout lab as a player uses it: a layout from `layouts/` run against every recorded
//! attack of a ruleset's real replays (`../shared/replays`), the worst attack opened at its
//! turn in the Debugger, then the engine's suggestions: one accepted onto the board as an
//! edit that Undo takes back.

use egui::Key;
use egui::Modifiers;
use egui_kittest::kittest::Queryable;

mod common;
use common::harness::{LARGE, step_until, studio};
use std::path::PathBuf;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_studio::app::model::View;

fn layout(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("layouts").join(name)
}

#[test]
fn a_layout_is_stress_tested_against_real_attacks_and_a_suggestion_is_accepted() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/replays/special-2025");
    assert!(shared.is_dir(), "the lab's story needs {}", shared.display());
    let mut h = studio(LARGE, None, false);
    h.state_mut().open(&layout("corner-cannon.json"));
    h.run();
    assert_eq!(h.state().state().ruleset, "special-2025", "the layout's ruleset");
    h.get_by_label("Layout lab").click();
    h.run();
    common::harness::type_into(&mut h, "Attacks from", &shared.display().to_string());
    h.get_by_label("Run stress test").click();
    h.run();
    step_until(&mut h, 240, "the stress test", |a| a.editor_view().lab.report().is_some());
    let lab = &h.state().editor_view().lab;
    let totals = lab.report().expect("report").totals;
    assert!(totals.attacks > 100, "{}", lab.message);
    assert!(totals.hp_lost > 0.0 && totals.attacks_breached > 0, "{}", lab.message);
    assert!(lab.message.contains("attacks") && lab.message.contains("HP lost"), "{}", lab.message);

    // The worst attack opens at its turn in the Debugger.
    let worst = lab.report().and_then(|r| r.worst(1).next()).expect("an attack that hurt");
    let attack = lab.attack(worst).expect("the worst attack");
    let (turn, defender) = (attack.turn, attack.defender());
    let label = lab.attack_label(worst).expect("its button");
    let tested = h.state().editor().layout.clone();
    h.get_by_label(&label).click();
    h.run();
    assert_eq!(h.state().view(), View::Debugger);
    assert_eq!(h.state().viewer().turn(), Some(turn), "{}", h.state().viewer().message());
    // …as a what-if with the layout in the defender's half, the defender's commands dropped.
    let w = h.state().viewer().board_whatif().expect("a what-if on the attack's turn");
    assert!(w.replace_commands[defender.index()], "the defender's own commands are left out");
    let turned = |t: Tile| if defender == Player::One { t } else { t.rotated() };
    let want: Vec<_> = tested.of(Player::One).map(|(t, s)| (turned(t), *s)).collect();
    let got: Vec<_> = w.layout.of(defender).map(|(t, s)| (t, *s)).collect();
    assert_eq!(got.len(), want.len(), "{}", h.state().viewer().message());
    assert!(want.iter().all(|x| got.contains(x)), "the tested layout stands in the defender's half");
    h.get_by_label("Run what-if").click();
    h.run();
    assert_eq!(h.state().viewer().tries().len(), 1, "{}", h.state().viewer().message());

    // Back in the editor: suggestions within 6 SP, the first accepted onto the board.
    h.get_by_label("Editor").click();
    h.run();
    common::harness::type_into(&mut h, "Budget (SP)", "6");
    h.get_by_label("Suggest").click();
    h.run();
    step_until(&mut h, 300, "the suggestion", |a| a.editor_view().lab.suggestion().is_some());
    let s = h.state().editor_view().lab.suggestion().expect("suggestion").clone();
    assert!(!s.steps.is_empty(), "{}", h.state().editor_view().lab.message);
    assert!(
        s.hp_lost_after < s.hp_lost_before && s.spent <= 6.0,
        "{:?} {:?} {}",
        s.hp_lost_before,
        s.hp_lost_after,
        s.spent
    );
    let before = h.state().editor().layout.clone();
    h.get_all_by_label("Accept").next().expect("an Accept button per step").click();
    h.run();
    let lab = &h.state().editor_view().lab;
    assert!(lab.message.starts_with("Accepted"), "{}", lab.message);
    assert_eq!(lab.suggestion().map(|s| s.steps.len()), Some(s.steps.len() - 1), "the step left the list");
    assert_ne!(h.state().editor().layout, before, "the change is on the board: {}", lab.message);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().editor().layout, before, "Undo takes it back");
}
