//! What-ifs in the Debugger driven like a user: edit a turn on the board, run it, watch a
//! try frame by frame, compare two tries side by side, read what they cost and dealt.

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::common::corpus::{BUSY, replay};
use crate::common::harness::{LARGE, click_at, studio};
use crate::common::viewer::{
    edit_on_board, harness, open_at, place_structure, shows, shows_turret_at, tile_pos, two_tries,
};
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::session::whatif::StructureEdit;
use terminal_studio::app::StudioApp;
use terminal_studio::app::model::View;
use terminal_studio::app::viewer::ViewerAction;

#[test]
fn what_if_edited_on_the_board_runs_and_adds_a_row() {
    let path = replay(BUSY);
    let mut h = harness(false);
    open_at(&mut h, path, 5, 7);
    h.get_by_label("Edit what-if on the board").click();
    h.run();
    h.run();
    // The what-if starts from the turn frame of the shown turn.
    assert_eq!(h.state().viewer().frame_in_turn(), Some(0));
    assert!(h.query_by_label("Start of turn 5 of the replay").is_some());
    let (inner, _) = edit_on_board(&mut h);
    // A right click takes the structure back.
    let pos = tile_pos(&h, inner);
    h.get_by_label("Turret").click();
    h.run();
    h.event(egui::Event::PointerMoved(pos));
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.run();
    }
    assert!(h.state().viewer().board_whatif().unwrap().structure_edits(Player::One).is_empty());
    h.get_by_label("Turret").click();
    h.run();
    click_at(&mut h, pos);
    h.get_by_label("Run what-if").click();
    h.run();
    let v = &h.state().viewer();
    assert_eq!(v.tries().len(), 1, "{}", v.message());
    let t = &v.tries()[0];
    assert_eq!(t.turn, 5);
    assert!(t.spec.structures[0].contains(&StructureEdit::Add { tile: inner, unit_type: 2, upgraded: false }));
    assert_eq!(t.spec.commands[0].as_ref().map(Vec::len), Some(2));
    assert_eq!(t.spec.commands[1], None, "player 2 keeps the replay's commands");
    assert!(t.summary.action_frames > 0);
    assert!(h.query_by_label("Try 1").is_some());
    h.get_by_label("Leave what-if").click();
    h.run();
    assert!(h.state().viewer().board_whatif().is_none());
}

#[test]
fn editor_layout_simulated_in_the_debugger() {
    let mut h = harness(false);
    h.run();
    // A turret for player 2 in the editor, in the path of player 1's scouts.
    place_structure(&mut h, Player::Two, Tile::new(13, 15), terminal_core::layout::Kind::Turret);
    h.get_by_label("Simulate in debugger").click();
    h.run();
    assert_eq!(h.state().view(), View::Debugger);
    assert!(h.query_by_label("The editor's layout (turn 0)").is_some());
    let w = h.state().viewer().board_whatif().expect("what-if from the layout");
    assert_eq!(w.layout.len(), 1);
    h.get_by_label("Scout").click();
    h.run();
    let edge = Tile::new(13, 0);
    for _ in 0..3 {
        let pos = tile_pos(&h, edge);
        click_at(&mut h, pos);
    }
    h.get_by_label("Run what-if").click();
    h.run();
    let v = &h.state().viewer();
    assert_eq!(v.tries().len(), 1, "{}", v.message());
    let s = &v.tries()[0].summary;
    assert_eq!(s.rejected, [0, 0], "deploys accepted");
    assert!(s.action_frames > 10);
    // Three scouts either breach or die; the turret deals damage to them or they score.
    assert!(s.breaches[0] > 0 || s.unit_damage[1] > 0.0, "{s:?}");
    assert!(h.query_by_label("Try 1").is_some());
    // The try is watched without a replay: the timeline steps it, there is no replay to go back to.
    h.get_by_label("Watch").click();
    h.run();
    assert_eq!(h.state().viewer().watching(), Some(0), "{}", h.state().viewer().message());
    assert!(h.query_by_label_contains("What-if try 1: layout; P1: 3 deploys; P2 unchanged").is_some());
    h.get_by_label(">").click();
    h.run();
    assert_eq!(h.state().viewer().frame_in_turn(), Some(1));
    assert_eq!(h.state().viewer().mobile_count(), 3, "the three scouts on their first step");
    assert!(h.query_by_label("Back to replay").is_none());
}

#[test]
fn snapshot_what_if_on_the_board() {
    let path = replay(BUSY);
    let mut h = harness(true);
    open_at(&mut h, path, 6, 0);
    h.get_by_label("Edit what-if on the board").click();
    h.run();
    edit_on_board(&mut h);
    h.snapshot("viewer_whatif_board");
}

#[test]
fn snapshot_watched_try_and_tries_side_by_side() {
    let path = replay(BUSY);
    let mut h = harness(true);
    two_tries(&mut h, path);
    h.state_mut().act(ViewerAction::WatchTry(1));
    h.run();
    for _ in 0..6 {
        h.state_mut().act(ViewerAction::Step { forward: true });
    }
    h.run();
    h.snapshot("viewer_watched_try");
    h.state_mut().act(ViewerAction::CompareTries(0, 1));
    h.run();
    let turn = h.state().viewer().compare().expect("comparison open").model.turn;
    h.state_mut().act(ViewerAction::Seek { turn, frame: 6 });
    h.run();
    h.snapshot("viewer_tries_side_by_side");
}

#[test]
fn watch_a_try_frame_by_frame_and_compare_two_tries_side_by_side() {
    let path = replay(BUSY);
    let mut h = harness(false);
    let (inner, edge) = two_tries(&mut h, path);
    assert!(!shows_turret_at(&h, inner), "the replay has no turret there");
    step_through_the_watched_try(&mut h, inner, edge);
    play_the_watched_try_to_its_end(&mut h);
    // Back to the replay's turn.
    h.get_by_label("Back to replay").click();
    h.run();
    assert_eq!(h.state().viewer().watching(), None);
    assert_eq!((h.state().viewer().turn(), h.state().viewer().frame_in_turn()), (Some(5), Some(0)));
    assert!(!shows_turret_at(&h, inner));
    assert!(h.query_by_label("Back to replay").is_none());
    compare_tries_side_by_side(&mut h, inner);
}

/// Watch try 2: the board shows the try's frames (its turret on `inner`, its scouts on
/// `edge`), labelled, with the normal timeline; End and Home stay within the try.
fn step_through_the_watched_try(h: &mut Harness<'_, StudioApp>, inner: Tile, edge: Tile) {
    h.get_all_by_label("Watch").nth(1).expect("a Watch button per try").click();
    h.run();
    assert_eq!(h.state().viewer().watching(), Some(1), "{}", h.state().viewer().message());
    assert!(h.query_by_label_contains("What-if try 2: P1: 1 edit, 2 deploys").is_some());
    assert_eq!(h.state().viewer().frame_in_turn(), Some(0));
    assert!(shows_turret_at(h, inner), "the try's turret");
    let (_, v) = h.state().viewer().current().expect("a frame");
    let scouts_on_edge =
        v.frame.units_of(Player::One).get(3).map_or(0, |l| l.iter().filter(|u| u.tile == edge).count());
    assert_eq!(scouts_on_edge, 2, "the deployed scouts");
    for k in 1..=3 {
        h.get_by_label(">").click();
        h.run();
        assert_eq!(h.state().viewer().frame_in_turn(), Some(k));
        assert_eq!(h.state().viewer().watching(), Some(1));
        assert!(shows_turret_at(h, inner));
    }
    let debug = &h.state().viewer().current().unwrap().1.debug;
    assert!(debug.mobiles.iter().any(|m| m.owner == Player::One && m.path.len() > 1), "paths of the try's scouts");
    h.key_press(Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().viewer().frame_in_turn(), Some(2));
    assert!(h.query_by_label_contains("Turn 5 · frame 2/").is_some());
    h.key_press(Key::End);
    h.run();
    let frames = h.state().viewer().tries()[1].frames.len();
    assert_eq!(h.state().viewer().frame_in_turn(), Some(frames - 1));
    assert_eq!(h.state().viewer().watching(), Some(1));
    h.key_press(Key::Home);
    h.run();
    assert_eq!((h.state().viewer().frame_in_turn(), h.state().viewer().watching()), (Some(0), Some(1)));
}

/// Play runs to the watched try's last frame and stops there, still in the try.
fn play_the_watched_try_to_its_end(h: &mut Harness<'_, StudioApp>) {
    let frames = h.state().viewer().tries()[1].frames.len();
    h.state_mut().act(ViewerAction::SetSpeed(16.0));
    h.key_press(Key::Space);
    h.step();
    assert!(h.state().viewer().playing());
    for _ in 0..500 {
        if !h.state().viewer().playing() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.step();
    }
    assert!(!h.state().viewer().playing(), "playback stops at the try's end");
    assert_eq!((h.state().viewer().frame_in_turn(), h.state().viewer().watching()), (Some(frames - 1), Some(1)));
    h.key_press(Key::Home);
    h.run();
}

/// Side by side: the edited try against the turn as played differs on the turret's tile
/// (`inner`); a try against itself has no differing tile on any frame.
fn compare_tries_side_by_side(h: &mut Harness<'_, StudioApp>, inner: Tile) {
    h.state_mut().act(ViewerAction::SetComparePick([0, 1]));
    h.get_by_label("Compare side by side").click();
    h.run();
    let c = h.state().viewer().compare().expect("comparison open");
    assert_eq!(c.model.turn, 5);
    assert!(c.model.differing_tiles().contains(&inner), "{:?}", c.model.differing_tiles());
    assert!(h.query_by_label_contains("B: What-if try 2").is_some());
    h.get_by_label(">").click();
    h.run();
    assert!(h.state().viewer().compare().unwrap().model.diff_count() > 0);
    h.get_by_label("Close comparison").click();
    h.run();
    assert!(h.state().viewer().compare().is_none());
    h.state_mut().act(ViewerAction::SetComparePick([1, 1]));
    h.get_by_label("Compare side by side").click();
    h.run();
    let frames = h.state().viewer().compare().expect("comparison open").model.max_frame();
    for _ in 0..=frames {
        let model = &h.state().viewer().compare().expect("comparison open").model;
        assert_eq!(model.diff_count(), 0, "frame {}", model.frame);
        h.state_mut().act(ViewerAction::Step { forward: true });
    }
}

/// The debugger on turn 5 of the busy replay, editing a what-if from its turn frame.
fn editing_what_if_on_turn_5() -> Harness<'static, StudioApp> {
    let mut h = harness(false);
    open_at(&mut h, replay(BUSY), 5, 0);
    h.get_by_label("Edit what-if on the board").click();
    h.run();
    h
}

#[test]
fn what_if_shows_sp_and_mp_spent_against_what_the_acting_player_has() {
    let path = replay(BUSY);
    let mut h = harness(false);
    // The first action frame's stats are the turn frame's less what the turn's commands cost.
    open_at(&mut h, path, 5, 1);
    let after = h.state().viewer().current().expect("action frame").1.frame.stats[0];
    let config = h.state().viewer().summary().expect("loaded").config.clone();
    h.get_by_label("Edit what-if on the board").click();
    h.run();
    h.run();
    let have = h.state().viewer().current().expect("turn frame").1.frame.stats[0];
    assert!(have.sp > after.sp, "player 1 built on turn 5: {} then {}", have.sp, after.sp);
    // Nothing edited: the turn as played, within the budget.
    assert!(shows(&h, &format!("SP spent {:.1} / {:.1} available", have.sp - after.sp, have.sp)));
    assert!(shows(&h, &format!("MP spent {:.1} / {:.1}", have.mp - after.mp, have.mp)));
    assert!(h.query_by_label_contains("allowed as a what-if").is_none());
    // A turret and two scouts: the scouts replace player 1's played commands.
    edit_on_board(&mut h);
    let sp = config.unit(2).cost_sp;
    let mp = 2.0 * config.unit(3).cost_mp;
    assert!(shows(&h, &format!("SP spent {sp:.1} / {:.1} available", have.sp)), "{sp} of {}", have.sp);
    assert!(shows(&h, &format!("MP spent {mp:.1} / {:.1}", have.mp)), "{mp} of {}", have.mp);
    let mp_warning = format!("over by {:.1} MP — allowed as a what-if", mp - have.mp);
    assert_eq!(shows(&h, &mp_warning), mp > have.mp + 0.05, "{mp} MP of {}", have.mp);
    assert!(sp > have.sp, "a turret ({sp} SP) is more than player 1 has on turn 5 ({})", have.sp);
    let warning = format!("over by {:.1} SP — allowed as a what-if", sp - have.sp);
    assert!(shows(&h, &warning), "{warning}");
    // Still runs.
    h.get_by_label("Run what-if").click();
    h.run();
    assert_eq!(h.state().viewer().tries().len(), 1, "{}", h.state().viewer().message());
}

#[test]
fn the_turns_played_commands_show_on_the_what_if_board_until_replaced() {
    let mut h = editing_what_if_on_turn_5();
    let w = h.state().viewer().board_whatif().expect("what-if");
    let played = |p: Player| w.played[p.index()].0.len() + w.played[p.index()].1.len();
    assert!(played(Player::One) > 0 && played(Player::Two) > 0, "both players played turn 5: {:?}", w.played);
    // The replay's spawns of the next frame, read for both players.
    let marks = w.played_marks();
    let owners = |p: Player| marks.iter().filter(|m| format!("{m:?}").contains(&format!("{p:?}"))).count();
    assert!(owners(Player::One) > 0 && owners(Player::Two) > 0, "{marks:?}");
    let legend = terminal_studio::app::viewer::PLAYED_LEGEND;
    assert!(shows(&h, &format!("{legend} (P1, P2)")));
    h.get_by_label("Player 1: replace the turn's commands with these deploys").click();
    h.run();
    assert!(shows(&h, &format!("{legend} (P2)")), "player 1's are replaced");
    assert!(h.state().viewer().board_whatif().unwrap().played_marks().iter().all(|m| owners_of(m) == Player::Two));
    h.get_by_label("Player 2: replace the turn's commands with these deploys").click();
    h.run();
    assert!(h.query_by_label_contains(legend).is_none(), "no player's played commands are kept");
    assert!(h.state().viewer().board_whatif().unwrap().played_marks().is_empty());
}

fn owners_of(m: &terminal_studio::app::viewer::whatif_board::PlayedMark) -> Player {
    use terminal_studio::app::viewer::whatif_board::PlayedMark;
    match *m {
        PlayedMark::Structure { owner, .. }
        | PlayedMark::Upgrade { owner, .. }
        | PlayedMark::Removal { owner, .. }
        | PlayedMark::Mobile { owner, .. } => owner,
    }
}

#[test]
fn tries_read_as_dealt_and_taken_by_the_acting_player_and_the_board_keeps_its_size() {
    let path = replay(BUSY);
    let mut h = harness(false);
    open_at(&mut h, path, 5, 0);
    let board_width = |h: &Harness<'_, StudioApp>| h.state().viewer().geometry().expect("board drawn").rect.width();
    h.get_by_label("Edit what-if on the board").click();
    h.run();
    let before = board_width(&h);
    // Player 2 acts: the turn as played for player 1, player 2's commands replaced by nothing.
    h.get_by_label("Player 2").click();
    h.run();
    h.get_by_label("Player 2: replace the turn's commands with these deploys").click();
    h.run();
    h.get_by_label("Run what-if").click();
    h.run();
    h.run();
    assert_eq!(h.state().viewer().tries().len(), 1, "{}", h.state().viewer().message());
    let after = board_width(&h);
    assert!((after - before).abs() <= 1.0, "the board was {before} px wide, {after} px with the tries table");
    assert_eq!(h.state().viewer().tries_pov(), Player::Two);
    h.get_by_label("Leave what-if").click();
    h.run();
    assert!((board_width(&h) - before).abs() <= 1.0);
    let s = h.state().viewer().tries()[0].summary.clone();
    assert!(s.unit_damage[0] != s.unit_damage[1], "{s:?}");
    assert!(h.query_by_label_contains("dealt: by player 2's units").is_some());
    let figures = |pov: [usize; 2]| {
        let [us, them] = pov;
        [
            format!("breaches dealt {} / taken {}", s.breaches[us], s.breaches[them]),
            format!("unit damage dealt {:.0} / taken {:.0}", s.unit_damage[us], s.unit_damage[them]),
            format!("MP lost ours {:.1} / theirs {:.1}", s.mp_lost[us], s.mp_lost[them]),
        ]
    };
    for text in figures([1, 0]) {
        assert!(shows(&h, &text), "seen from player 2: {text}");
    }
    // Seen from player 1, the same try's figures swap sides.
    h.get_by_label("Player 1").click();
    h.run();
    assert_eq!(h.state().viewer().tries_pov(), Player::One);
    assert!(h.query_by_label_contains("dealt: by player 1's units").is_some());
    for text in figures([0, 1]) {
        assert!(shows(&h, &text), "seen from player 1: {text}");
    }
}

#[test]
fn side_by_side_has_one_timeline_the_overlays_and_the_width() {
    let path = replay(BUSY);
    let mut h = harness(false);
    two_tries(&mut h, path);
    let main_board = h.state().viewer().geometry().expect("board drawn").rect.width();
    h.state_mut().act(ViewerAction::SetComparePick([0, 1]));
    h.get_by_label("Compare side by side").click();
    h.run();
    h.run();
    // One timeline: the viewer's own, and no second set of controls above the boards.
    assert!(h.query_by_label("Frame >").is_none() && h.query_by_label("Turn >>").is_none());
    assert_eq!(h.get_all_by_label(">").count(), 1);
    for k in 1..=3 {
        h.get_by_label(">").click();
        h.run();
        assert_eq!(h.state().viewer().compare().expect("comparison").model.frame, k);
    }
    h.key_press(Key::ArrowRight);
    h.run();
    assert_eq!(h.state().viewer().compare().unwrap().model.frame, 4, "→ steps both boards once");
    h.key_press(Key::ArrowLeft);
    h.run();
    assert!(h.query_by_label_contains("Turn 5 · frame 3/").is_some());
    // The debugger overlays: both sides have the data of the frame they show.
    let c = h.state().viewer().compare().unwrap();
    for (side, replay) in [(0, &c.model.a), (1, &c.model.b)] {
        let k = c.model.frame_index_of(replay).expect("a frame");
        let debug = &h.state().viewer().tries()[side].debug[k];
        assert!(!debug.mobiles.is_empty(), "side {side}: the mobile units' paths at frame {k}");
    }
    // Wide boards: no left panel, no right panel until asked for.
    assert!(h.query_by_label("Inspector").is_none(), "the right panel is hidden");
    let widths = |h: &Harness<'_, StudioApp>| {
        h.state().viewer().compare().unwrap().geometry.map(|g| g.expect("drawn").rect.width())
    };
    let wide = widths(&h);
    assert!(wide[0] > 0.45 * LARGE.x && (wide[0] - wide[1]).abs() < 1.0, "{wide:?}");
    assert!(wide[0] > main_board * 0.8, "{wide:?} against the single board's {main_board}");
    h.get_by_label("Show side panel").click();
    h.run();
    assert!(h.query_by_label("Inspector").is_some());
    assert!(widths(&h)[0] < wide[0]);
    h.get_by_label("Hide side panel").click();
    h.run();
    assert!(h.query_by_label("Inspector").is_none());
    // The overlay toggles sit in the comparison's header.
    h.get_by_label("Overlays").click();
    h.run();
    h.get_by_label("Unit paths").click();
    h.run();
    assert!(!h.state().viewer().overlays().paths);
}

#[test]
fn what_if_and_comparison_fit_a_small_window() {
    let path = replay(BUSY);
    let mut h = studio(egui::vec2(1000.0, 700.0), None, false);
    two_tries(&mut h, path);
    let board = h.state().viewer().geometry().expect("board drawn").rect;
    assert!(board.width() > 250.0 && board.height() > 250.0, "{board:?}");
    // The tries list scrolls in a small window: the button is scrolled to, as a person would.
    h.get_by_label("Compare side by side").scroll_to_me();
    h.run();
    h.get_by_label("Compare side by side").click();
    h.run();
    let c = h.state().viewer().compare().expect("comparison");
    for g in c.geometry {
        let r = g.expect("drawn").rect;
        assert!(r.width() > 400.0 && r.height() > 250.0, "{r:?}");
    }
}

/// On a 2018 replay the board what-if speaks that era's names and offers no upgrade.
#[test]
fn a_2018_what_if_uses_filters_and_pings_and_has_no_upgrades() {
    let path = replay("legacy-2018/tim-zwart__Terminal_Algos__75v74.replay.gz");
    let mut h = harness(false);
    open_at(&mut h, path, 5, 3);
    h.get_by_label("Edit what-if on the board").click();
    h.run();
    h.run();
    assert!(h.state().viewer().board_whatif().is_some_and(|w| w.legacy));
    for name in ["Filter", "Encryptor", "Destructor", "Ping", "EMP", "Scrambler"] {
        assert!(h.query_by_label(name).is_some(), "no {name} tool");
    }
    for name in ["Wall", "Turret", "Scout", "Upgrade"] {
        assert!(h.query_by_label(name).is_none(), "a {name} tool under the 2018 rules");
    }
    h.get_by_label("Ping").click();
    h.run();
    let w = h.state().viewer().board_whatif().expect("what-if");
    assert_eq!(w.tool, terminal_studio::app::viewer::whatif_board::BoardTool::Deploy(3));
}
