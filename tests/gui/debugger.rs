//! The Debugger on a small screen and on a crowded board: at 1000×700 the board is the
//! largest thing on screen and the timeline fits; the side panels hide and come back;
//! figures on the board never cover each other; a stack reads as count × health and the
//! inspector lists every unit of it, a turret's shot and each unit's maximum health; the
//! event log uses the panel's height. Plus a 1000×700 snapshot of a busy frame.

use egui::{Key, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::common::corpus::{BUSY, replay};
use crate::common::harness::{LARGE, studio};
use terminal_core::engine::geometry::{Player, Tile};
use terminal_studio::app::StudioApp;
use terminal_studio::app::command::{Command, FileCommand};
use terminal_studio::app::viewer::ViewerAction;

const SMALL: egui::Vec2 = vec2(1000.0, 700.0);

fn open(h: &mut Harness<'_, StudioApp>, rel: &str) {
    h.state_mut().apply(Command::File(FileCommand::OpenReplay(replay(rel))));
    h.run();
    assert!(h.state().viewer().summary().is_some(), "{}", h.state().viewer().message());
}

/// The side of the board's diamond on screen.
fn board_side(h: &Harness<'_, StudioApp>) -> f32 {
    h.state().viewer().geometry().expect("the board was drawn").tile * 28.0
}

/// Steps through the replay from its start until `found` holds for the frame shown.
fn find_frame(h: &mut Harness<'_, StudioApp>, what: &str, found: impl Fn(&StudioApp) -> bool) {
    h.state_mut().act(ViewerAction::Seek { turn: 1, frame: 0 });
    for _ in 0..5000 {
        if found(h.state()) {
            h.run();
            return;
        }
        h.state_mut().act(ViewerAction::Step { forward: true });
    }
    panic!("{BUSY} has no frame with {what}");
}

#[test]
fn at_1000_by_700_the_board_is_the_largest_thing_on_screen_and_the_timeline_fits() {
    let mut h = studio(SMALL, None, false);
    open(&mut h, BUSY);
    let board = h.state().viewer().geometry().expect("drawn").rect;
    let side = board_side(&h);
    // Left of the board is the left panel, right of it the right one.
    let (left, right) = (board.left(), SMALL.x - board.right());
    assert!(side > left && side > right, "board {side} px, panels {left} px and {right} px");
    assert!(side >= 450.0, "board {side} px at 1000×700");
    for label in ["Turn", "Frame", "Right panel", "Left panel"] {
        for n in h.query_all_by_label(label) {
            assert!(
                n.rect().right() <= SMALL.x + 0.5,
                "{label} ends at {} px, off the 1000 px window",
                n.rect().right()
            );
        }
    }

    // Hiding the side panels gives their room to the board; B shows them again.
    h.get_by_label("Left panel").click();
    h.get_by_label("Right panel").click();
    h.run();
    assert!(!h.state().viewer().prefs().left_panel && !h.state().viewer().prefs().right_panel);
    let wide = board_side(&h);
    assert!(wide > side + 50.0, "board {side} -> {wide} px with the panels hidden");
    assert!(h.query_by_label("Inspector").is_none(), "the right panel is hidden");
    h.key_press(Key::B);
    h.run();
    assert!(h.state().viewer().prefs().left_panel && h.state().viewer().prefs().right_panel);
    assert!(h.query_by_label("Inspector").is_some());
    assert!((board_side(&h) - side).abs() < 1.0);
}

/// The tile of a stack of two or more mobile units of one owner and type, if the frame has one.
fn stack_tile(app: &StudioApp) -> Option<(Tile, usize)> {
    let (_, v) = app.viewer().current()?;
    let mut counts = std::collections::HashMap::new();
    for p in Player::both() {
        for (t, u) in v.frame.real_units(p).filter(|(t, _)| *t >= 3) {
            *counts.entry((u.tile, p.index(), t)).or_insert(0usize) += 1;
        }
    }
    counts.into_iter().filter(|(_, n)| *n >= 2).map(|((tile, ..), n)| (tile, n)).max_by_key(|(_, n)| *n)
}

#[test]
fn a_stack_reads_as_count_times_health_and_the_inspector_lists_all_of_it() {
    let mut h = studio(LARGE, None, false);
    open(&mut h, BUSY);
    find_frame(&mut h, "a stack of mobile units", |app| stack_tile(app).is_some());
    let (tile, n) = stack_tile(h.state()).expect("found");
    let (_, v) = h.state().viewer().current().cloned().expect("a frame");
    let stack: Vec<_> = v.debug.mobiles.iter().filter(|m| m.tile == tile).cloned().collect();
    assert!(stack.len() >= n, "engine data for each unit of the stack");
    let label = h.state().viewer().board_labels().iter().find(|(t, _)| t.starts_with(&format!("{n}×"))).cloned();
    let (text, _) =
        label.unwrap_or_else(|| panic!("no {n}×… label on the board: {:?}", h.state().viewer().board_labels()));
    let health = stack[0].health;
    assert!(text.contains(&format!("{health:.0}")), "{text} names the stack's health {health}");

    let pos = h.state().viewer().geometry().expect("drawn").tile_center(tile);
    h.hover_at(pos);
    h.run();
    let text = h.state().viewer().inspector_text();
    assert!(text.contains(&format!("mobile units on {},{}", tile.x, tile.y)), "{text}");
    for m in &stack {
        assert!(text.contains(&format!("#{} ", m.id)), "unit #{} of the stack is listed: {text}", m.id);
    }
    // Health against the maximum (the ruleset's start health plus the unit's shield).
    let config = h.state().viewer().summary().expect("summary").config.clone();
    let max = config.unit(stack[0].unit_type as usize).start_health + stack[0].shield;
    assert!(text.contains(&format!("health {:.1} / {max:.1}", stack[0].health)), "{text}");
    assert!(h.query_by_label_contains(&format!("mobile units on {},{}", tile.x, tile.y)).is_some());
}

#[test]
fn a_turret_shows_its_shot_and_its_maximum_health() {
    let mut h = studio(LARGE, None, false);
    open(&mut h, BUSY);
    let shooting_turret = |app: &StudioApp| {
        app.viewer().current().and_then(|(_, v)| {
            v.debug.attacks.iter().find_map(|a| {
                Player::both().into_iter().find_map(|p| {
                    v.frame.real_units(p).find(|(t, u)| *t == 2 && u.id == a.attacker_id).map(|_| a.clone())
                })
            })
        })
    };
    find_frame(&mut h, "a turret's shot", |app| shooting_turret(app).is_some());
    let shot = shooting_turret(h.state()).expect("found");
    let pos = h.state().viewer().geometry().expect("drawn").tile_center(shot.from);
    h.hover_at(pos);
    h.run();
    let text = h.state().viewer().inspector_text();
    assert!(text.contains(&format!("shoots #{} at {},{}", shot.target_id, shot.to.x, shot.to.y)), "{text}");
    assert!(text.contains(" / "), "health against the maximum: {text}");
}

#[test]
fn figures_on_a_crowded_board_never_cover_each_other() {
    let mut h = studio(SMALL, None, false);
    open(&mut h, BUSY);
    // A frame where at least two damage figures want nearly the same spot.
    let crowded = |app: &StudioApp| {
        let (Some((_, v)), Some(g)) = (&app.viewer().current(), app.viewer().geometry()) else { return false };
        let spots: Vec<Pos2> =
            v.debug.attacks.iter().map(|a| g.tile_center(a.from).lerp(g.tile_center(a.to), 0.6)).collect();
        spots.iter().enumerate().any(|(i, a)| spots[i + 1..].iter().any(|b| a.distance(*b) < 10.0 && a != b))
    };
    h.run();
    find_frame(&mut h, "two damage figures a few pixels apart", crowded);
    let labels = h.state().viewer().board_labels().to_vec();
    assert!(labels.len() >= 2, "{labels:?}");
    for (i, (a, ra)) in labels.iter().enumerate() {
        for (b, rb) in &labels[i + 1..] {
            assert!(!ra.intersects(*rb), "{a} at {ra:?} covers {b} at {rb:?}");
        }
    }
}

#[test]
fn the_event_log_uses_the_panels_height() {
    let mut h = studio(LARGE, None, false);
    open(&mut h, BUSY);
    let events = |app: &StudioApp| app.viewer().event_log().len();
    // More events than a 900 px window has lines for.
    find_frame(&mut h, "80 events", |app| events(app) >= 80);
    h.run();
    let rows: Vec<egui::Rect> = h
        .query_all_by_label_contains("P1 ")
        .chain(h.query_all_by_label_contains("P2 "))
        .map(|n| n.rect())
        .filter(|r| r.left() > LARGE.x / 2.0)
        .collect();
    // Rows down to the panel's bottom, and none laid out off-screen.
    assert!(rows.len() >= 25, "{} event rows in view of {} at 1400×900", rows.len(), events(h.state()));
    let lowest = rows.iter().map(|r| r.bottom()).fold(0.0, f32::max);
    assert!(lowest <= LARGE.y && lowest > LARGE.y - 160.0, "the last row in view ends at {lowest} px");
}

#[test]
fn snapshot_busy_frame_at_1000_by_700() {
    let mut h = studio(SMALL, None, true);
    open(&mut h, BUSY);
    find_frame(&mut h, "attacks and three mobile units", |app| {
        app.viewer().current().is_some_and(|(_, f)| !f.debug.attacks.is_empty() && f.debug.mobiles.len() >= 3)
    });
    h.run();
    h.snapshot("viewer_busy_frame_1000x700");
}
