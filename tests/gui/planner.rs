//! The attack planner in the Debugger, driven like a user: plan a recorded turn, hover a
//! candidate to see its walks, try it beside the turn as played.

use egui_kittest::kittest::Queryable;

use crate::common::corpus::{BUSY, replay};
use crate::common::harness::{click_at, step_until};
use crate::common::viewer::{harness, open_at};
use terminal_core::engine::geometry::Player;

/// The Debugger on turn 6 of the busy replay, its planner started with player 1 attacking.
fn start_planning_busy_turn(h: &mut egui_kittest::Harness<'_, terminal_studio::app::StudioApp>) {
    open_at(h, replay(BUSY), 6, 0);
    h.get_by_label("Plan attack…").click();
    h.run();
    h.get_by_label("Player 1 attacks").click();
    h.run();
    h.get_by_label("Plan attack").click();
}

#[test]
fn a_planned_attack_is_hovered_then_tried_beside_the_turn_as_played() {
    let mut h = harness(false);
    start_planning_busy_turn(&mut h);
    // The spinner repaints while the search runs: steps, not runs.
    h.step();
    step_until(&mut h, 120, "the planner's search", |a| !a.viewer().is_planning());
    let v = h.state().viewer();
    assert_eq!(v.plan_error(), None);
    let (turn, seat, candidates) = v.planned().unwrap_or_else(|| panic!("no plan: {}", v.message()));
    assert_eq!((turn, seat), (6, Player::One));
    assert!(candidates.len() >= 3, "{} candidates", candidates.len());
    let rows = v.planned_options().unwrap_or_else(|| panic!("no rows"));
    assert_eq!(rows.len(), candidates.len());
    // Distinct attacks: the searched rows best first, no two alike; the recorded one among them.
    let searched: Vec<_> = rows.iter().filter(|r| !r.recorded).collect();
    assert_eq!(searched.len(), 10, "ten distinct attacks");
    assert!(searched.windows(2).all(|w| w[0].best.rank(&w[1].best).is_lt()), "best first");
    for (k, r) in searched.iter().enumerate() {
        assert!(searched[..k].iter().all(|above| above.likeness != r.likeness), "row {k} repeats one above");
    }
    assert!(rows.iter().filter(|r| r.recorded).count() <= 1);
    let best = candidates[0].clone();
    let described = v.describe_option(&rows[0]);
    for r in rows {
        let figures = format!("{:.2} HP/MP", r.damage_per_mp());
        assert!(h.query_all_by_label_contains(&figures).next().is_some(), "no {figures} on screen");
    }

    // The cost to break the base, charted under the list: the best attack at each MP up to
    // the turn's, never down (the Layout lab's story clicks a point of the same chart).
    let frontier = v.planned_frontier().unwrap_or_else(|| panic!("no frontier"));
    assert!(frontier.len() >= 5, "{} levels", frontier.len());
    let damage: Vec<f32> = frontier.iter().map(|p| p.best.as_ref().map_or(0.0, |b| b.damage)).collect();
    assert!(damage.windows(2).all(|w| w[0] <= w[1]), "never down: {damage:?}");
    assert!(h.query_by_label_contains("click a point: its attack as a what-if").is_some(), "the chart's line");

    // Hovering the best candidate draws its units' walks.
    h.get_by_label(&described).hover();
    h.run();
    h.run();
    let (index, outcome) = h.state().viewer().planned_hover().unwrap_or_else(|| panic!("nothing hovered"));
    assert_eq!(index, 0);
    let units: u32 = best.groups.iter().map(|g| g.count).sum();
    assert_eq!(outcome.unit_paths.len(), units as usize, "one walk a unit");
    assert_eq!(outcome.breaches, best.breaches);

    // "Try" runs it as a what-if and opens it beside the turn as played.
    h.get_all_by_label("Try").next().unwrap_or_else(|| panic!("no Try button")).click();
    h.run();
    step_until(&mut h, 60, "the two tries", |a| a.viewer().compare().is_some());
    let v = h.state().viewer();
    let tries = v.tries();
    assert_eq!(tries.len(), 2, "{}", v.message());
    assert_eq!(tries[0].label, "as played");
    assert!(tries[1].label.starts_with("plan #1: "), "{}", tries[1].label);
    // The engine's what-if ends as the planner predicted.
    let s = &tries[1].summary;
    assert_eq!((s.breaches[0], s.hp_damage[0]), (best.breaches, best.damage), "{described}");
    assert!((s.sp_destroyed[0] - best.sp_destroyed).abs() < 1e-3, "{} vs {}", s.sp_destroyed[0], best.sp_destroyed);
    assert_eq!(s.rejected, [0, 0]);
    assert!(h.query_by_label("A: What-if try 1: as played").is_some());
}

/// The Debugger's cost chart, clicked: the point's attack opens beside the turn as played, and
/// the engine's what-if ends as the chart said. The search said how far it was on the way.
#[test]
fn a_point_of_the_debuggers_cost_chart_opens_as_a_what_if() {
    let mut h = harness(false);
    start_planning_busy_turn(&mut h);
    h.step();
    let saw_levels = std::cell::Cell::new(false);
    step_until(&mut h, 120, "the planner's search", |a| {
        let v = a.viewer();
        let counting = v.plan_progress_text().is_some_and(|t| t.starts_with("cost to break it: "));
        saw_levels.set(saw_levels.get() || counting);
        !v.is_planning()
    });
    assert!(saw_levels.get(), "the cost chart's levels were counted while searched");
    let v = h.state().viewer();
    let frontier = v.planned_frontier().unwrap_or_else(|| panic!("no frontier: {}", v.message())).to_vec();
    // The chart sits below the list in the planner's scrolling panel: bring it into view.
    h.get_by_label_contains("click a point: its attack as a what-if").scroll_to_me();
    h.run();
    let line = h.get_by_label_contains("click a point: its attack as a what-if");
    // Half the chart's width: the middle level; well below the label, inside the plot.
    let at = line.rect().center_bottom() + egui::vec2(0.0, 60.0);
    click_at(&mut h, at);
    step_until(&mut h, 60, "the two tries", |a| a.viewer().compare().is_some());
    let v = h.state().viewer();
    let tries = v.tries();
    assert_eq!(tries.len(), 2, "{}", v.message());
    assert_eq!(tries[0].label, "as played");
    let label = &tries[1].label;
    assert!(label.starts_with("best at "), "{label}");
    let mp: f32 = label["best at ".len()..].split(' ').next().and_then(|m| m.parse().ok()).unwrap_or(f32::NAN);
    let point = frontier.iter().find(|p| p.mp == mp).unwrap_or_else(|| panic!("no level {mp} in the chart"));
    let best = point.best.clone().unwrap_or_else(|| panic!("nothing at {mp} MP"));
    let s = &tries[1].summary;
    assert_eq!((s.breaches[0], s.hp_damage[0]), (best.breaches, best.damage), "{label}");
    assert_eq!(s.rejected, [0, 0]);
}
