//! The Play view as a player uses it: a match against py-builder with "You" in seat 1,
//! three turns played on the board (build, deploy, end turn) and checked in the replay; and
//! an algo-against-algo match watched live, stepped back while it goes on.

use crate::common::corpus::algo;
use crate::common::harness::{LARGE, click_at, matches_written_to, pick_seat, step_until, studio_with};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use terminal_core::engine::frame::Phase;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::replay::read_replay;
use terminal_studio::app::StudioApp;
use terminal_studio::app::command::{Command, StudioCommand};
use terminal_studio::app::model::View;
use terminal_studio::app::play::SeatKind;

fn play_harness(out: &std::path::Path) -> Harness<'static, StudioApp> {
    let mut h = studio_with(matches_written_to(out), LARGE, None, false);
    h.get_by_label("Play").click();
    h.run_ok();
    assert_eq!(h.state().view(), View::Play);
    h
}

fn tile_pos(h: &Harness<'_, StudioApp>, t: Tile) -> egui::Pos2 {
    h.state().play().viewer().geometry().expect("board drawn").tile_center(t)
}

/// Waits for the human's turn `turn` to be planned.
fn wait_for_turn(h: &mut Harness<'_, StudioApp>, turn: i32) {
    step_until(h, 60, &format!("your turn {turn}"), |a| {
        a.play().running().is_some_and(|m| m.planning() == Some((turn, Player::One)))
    });
}

fn pick_tool(h: &mut Harness<'_, StudioApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_ok();
}

#[test]
fn play_three_turns_as_a_person_against_py_builder() {
    let out = tempfile::tempdir().expect("tempdir");
    let mut h = play_harness(out.path());
    assert_eq!(h.state().play().seats()[0].kind, SeatKind::Human, "seat 1 is yours by default");
    pick_seat(&mut h, 2, "Algo", Some(&algo("py-builder")));
    h.get_by_label("Start match").click();
    h.run_ok();

    // Turn 0: a turret, checked by the engine as it is planned.
    wait_for_turn(&mut h, 0);
    let turret = Tile::new(13, 6);
    pick_tool(&mut h, "Turret");
    let pos = tile_pos(&h, turret);
    click_at(&mut h, pos);
    let (build, deploy) = h.state().play().planned_commands().expect("a plan");
    assert_eq!((build.len(), deploy.len()), (1, 0), "{build:?}");
    let check = h.state().play().running().and_then(|m| m.check().cloned()).expect("checked").expect("check ran");
    assert!(check.rejected.is_empty() && check.sp_spent > 0.0, "{check:?}");
    h.get_by_label("End turn").click();
    h.run_ok();

    // Turn 1: two scouts on a bottom-left edge tile; their paths are predicted on the board.
    wait_for_turn(&mut h, 1);
    let edge = Tile::new(3, 10);
    pick_tool(&mut h, "Scout");
    let pos = tile_pos(&h, edge);
    click_at(&mut h, pos);
    click_at(&mut h, pos);
    let w = h.state().play().viewer().board_whatif().expect("the plan on the board");
    assert_eq!(w.deploys[0], vec![(3, edge), (3, edge)]);
    let paths = w.paths();
    assert!(!paths.is_empty() && paths.iter().all(|p| p.tiles.first() == Some(&edge)), "{paths:?}");
    // A turret on the other half is refused with the reason, and nothing is planned.
    pick_tool(&mut h, "Turret");
    let pos = tile_pos(&h, Tile::new(13, 20));
    click_at(&mut h, pos);
    assert!(
        h.state().play().viewer().message().contains("is on the other half"),
        "{}",
        h.state().play().viewer().message()
    );
    h.get_by_label("End turn").click();
    h.run_ok();

    // Turn 2: nothing; the turn still ends.
    wait_for_turn(&mut h, 2);
    h.get_by_label("End turn").click();
    h.run_ok();
    wait_for_turn(&mut h, 3);
    let replay_path: PathBuf =
        h.state().play().running().and_then(|m| m.replay_path().map(Path::to_path_buf)).expect("replay");
    h.get_by_label("Stop match").click();
    h.run_ok();
    step_until(&mut h, 30, "the match to stop", |a| !a.play().is_running());

    let r = read_replay(&replay_path).expect("the match's replay");
    let turn1 = r.frames.iter().find(|f| f.turn_info.phase == Phase::Deploy && f.turn_info.turn == 1).expect("turn 1");
    assert!(turn1.units[0][2].iter().any(|u| u.tile == turret), "our turret stands at turn 1");
    let deploy1 = r
        .frames
        .iter()
        .find(|f| f.turn_info.phase == Phase::Action && f.turn_info.turn == 1 && f.turn_info.action_frame == 0)
        .expect("turn 1's first action frame");
    let scouts = deploy1.events.spawn.iter().filter(|s| s.owner == Player::One && s.unit_type == 3).count();
    assert_eq!(scouts, 2, "our two scouts were deployed");
    assert!(deploy1.events.spawn.iter().any(|s| s.owner == Player::Two), "py-builder played its turn too");
}

#[test]
fn watch_an_algo_match_live_and_step_back_while_it_plays() {
    let out = tempfile::tempdir().expect("tempdir");
    let mut h = play_harness(out.path());
    // py-slow thinks 2.5 s over turn 1: the match is still being played while we look.
    for (i, name) in ["py-slow", "py-random"].iter().enumerate() {
        pick_seat(&mut h, i + 1, "Algo", Some(&algo(name)));
    }
    h.run_ok();
    h.get_by_label("Start match").click();
    h.run_ok();
    step_until(&mut h, 60, "turn 1 on the board", |a| a.play().viewer().turn().is_some_and(|t| t >= 1));
    let v = h.state().play().viewer();
    assert!(h.state().play().is_running(), "the match is still on");
    assert_eq!(v.live(), (true, true), "the board follows the match");
    let shown = v.current().map(|(_, f)| f.index).expect("a frame");
    h.get_by_label("<").click();
    h.run_ok();
    assert!(!h.state().play().viewer().live().1, "stepping back stops following");
    let back = h.state().play().viewer().current().as_ref().map(|(_, f)| f.index).expect("a frame");
    step_until(&mut h, 120, "the match to end", |a| !a.play().is_running());
    let still = h.state().play().viewer().current().as_ref().map(|(_, f)| f.index).expect("a frame");
    assert!(back < shown.max(1) + 1 && still == back, "the view stayed where it was ({shown} → {back} → {still})");
    let replay = h.state().play().finished_replay().map(Path::to_path_buf).expect("finished replay");
    let r = read_replay(&replay).expect("replay");
    let s = h.state().play().viewer().summary().expect("summary");
    assert_eq!(s.frames, r.frames.len(), "every frame reached the live view");
    assert_eq!(terminal_core::verify::verify_file(&replay).status, terminal_core::verify::Status::Exact);
}

/// A match played elsewhere (here: the runner, as the arena's workers run it) is watched live
/// from its replay file as it is written, to its end.
#[test]
fn watch_another_matchs_replay_as_it_is_written() {
    use std::sync::Arc;
    use terminal_core::runner::{MatchSpec, ReplayTarget, start_match};
    let out = tempfile::tempdir().expect("tempdir");
    let path = out.path().join("m.replay");
    let config = Arc::new(terminal_core::engine::presets::preset("base-s6").expect("preset"));
    let mut spec = MatchSpec::new(algo("py-slow"), algo("py-random"), config);
    spec.replay = ReplayTarget::File(path.clone());
    let handle = start_match(spec);
    let mut h = play_harness(out.path());
    h.state_mut().apply(Command::Studio(StudioCommand::WatchReplay(path.clone())));
    step_until(&mut h, 60, "turn 1 of the watched match", |a| a.play().viewer().turn().is_some_and(|t| t >= 1));
    assert!(h.state().play().viewer().live().0, "shown while it is played");
    handle.wait().expect("the match ends");
    step_until(&mut h, 30, "the end of the watched match", |a| !a.play().is_watching());
    assert_eq!(h.state().play().finished_replay(), Some(path.as_path()));
    let s = h.state().play().viewer().summary().expect("summary");
    let written = read_replay(&path).expect("the replay").frames.len();
    assert_eq!(s.frames, written, "every frame, the end frame included");
}
