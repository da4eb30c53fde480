//! The replay viewer and debugger driven like a user: open a real replay from
//! `../shared/replays`, step with keys and buttons, toggle overlays, inspect a unit, run a
//! what-if and read its row. Plus an image snapshot of a busy frame (tests/snapshots/).

use egui::{Key, Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

mod common;
use common::corpus::{BUSY, LONG, replay};
use common::harness::{LARGE, click_at, studio};
use std::path::PathBuf;
use terminal_core::engine::geometry::{Edge, Player, Tile, all_tiles};
use terminal_core::session::whatif::StructureEdit;
use terminal_studio::app::StudioApp;
use terminal_studio::app::command::{Command, EditorCommand, FileCommand, StudioCommand};
use terminal_studio::app::model::View;
use terminal_studio::app::model::{BoardView, Edit};
use terminal_studio::app::viewer::ViewerAction;

/// A structure for `player` in the editor, placed as the editor's tools place it (one undo step).
fn place_structure(h: &mut Harness<'_, StudioApp>, player: Player, tile: Tile, kind: terminal_core::layout::Kind) {
    let app = h.state_mut();
    app.apply(Command::Editor(EditorCommand::SetPlayer(player)));
    for c in [EditorCommand::BeginStroke, EditorCommand::Edit(Edit::Place(tile, kind)), EditorCommand::EndStroke] {
        app.apply(Command::Editor(c));
    }
}

/// The Debugger's board zoomed and panned, as the mouse wheel and a drag would leave it.
fn set_board_view(h: &mut Harness<'_, StudioApp>, zoom: f32, pan: egui::Vec2) {
    let _ = h.state_mut().viewer_mut().apply(ViewerAction::SetBoardView(BoardView { zoom, pan }));
}

fn harness(wgpu: bool) -> Harness<'static, StudioApp> {
    studio(LARGE, None, wgpu)
}

/// Opens `path` in the debugger and shows `turn`, action frame `frame`.
fn open_at(h: &mut Harness<'_, StudioApp>, path: PathBuf, turn: i32, frame: usize) {
    h.state_mut().apply(Command::File(FileCommand::OpenReplay(path)));
    h.run();
    h.state_mut().viewer_mut().apply(ViewerAction::Seek { turn, frame });
    h.run();
}

/// Moves frame by frame from turn `from` until a frame with attacks, shields and at least
/// three mobile units is shown.
fn go_to_busy_frame(h: &mut Harness<'_, StudioApp>, from: i32) {
    h.state_mut().viewer_mut().apply(ViewerAction::Seek { turn: from, frame: 0 });
    for _ in 0..3000 {
        let v = &h.state().viewer();
        let busy = v.current().is_some_and(|(_, f)| !f.debug.attacks.is_empty() && f.debug.mobiles.len() >= 3);
        if busy {
            break;
        }
        h.state_mut().viewer_mut().apply(ViewerAction::Step { forward: true });
    }
    h.run();
}

#[test]
fn open_step_toggle_inspect_and_what_if() {
    let path = replay(BUSY);
    let mut h = harness(false);
    h.run();
    // Open through the command a drop or the recent-files menu sends.
    h.state_mut().apply(Command::File(FileCommand::Open(path.clone())));
    h.run();
    assert_eq!(h.state().view(), View::Debugger);
    assert!(h.state().state().recent_files.iter().any(|p| p.ends_with(path.file_name().unwrap())));
    let s = h.state().viewer().summary().cloned().expect("loaded");
    assert!(s.turns.len() > 10, "{} turns", s.turns.len());
    assert_eq!(h.state().viewer().turn(), Some(0));
    assert!(h.query_by_label_contains("Turn 0 · frame 0/").is_some());
    // Header: both player names.
    assert!(h.query_by_label_contains(&format!("P1 {}", s.names[0])).is_some());

    // Keys: → frame, Ctrl+→ turn, ← back, End, Home.
    h.key_press(Key::ArrowRight);
    h.run();
    assert_eq!(h.state().viewer().frame_in_turn(), Some(1));
    h.key_press(Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().viewer().frame_in_turn(), Some(0));
    h.key_press_modifiers(Modifiers::COMMAND, Key::ArrowRight);
    h.key_press_modifiers(Modifiers::COMMAND, Key::ArrowRight);
    h.run();
    assert_eq!(h.state().viewer().turn(), Some(s.turns[2].turn));
    assert!(h.query_by_label_contains(&format!("Turn {} · frame 0/", s.turns[2].turn)).is_some());
    h.key_press(Key::End);
    h.run();
    assert_eq!(h.state().viewer().turn(), Some(s.turns.last().unwrap().turn));
    h.key_press(Key::Home);
    h.run();
    assert_eq!(h.state().viewer().turn(), Some(0));
    // Buttons: next frame, next turn.
    h.get_by_label(">").click();
    h.run();
    assert_eq!(h.state().viewer().frame_in_turn(), Some(1));
    h.get_by_label(">>").click();
    h.run();
    assert_eq!(h.state().viewer().turn(), Some(1));

    // A busy frame: units listed, event log, overlays.
    go_to_busy_frame(&mut h, 5);
    let units = h.state().viewer().unit_count();
    assert!(units > 0);
    assert!(h.query_by_label_contains(&format!("Units on board: {units}")).is_some());
    assert!(h.state().viewer().event_log().iter().any(|e| e.text.contains(" hits ")));
    assert!(h.state().viewer().overlays().paths);
    h.get_by_label("Unit paths").click();
    h.run();
    assert!(!h.state().viewer().overlays().paths);
    h.get_by_label("Unit paths").click();
    h.get_by_label("Attack lines").click();
    h.run();
    assert!(h.state().viewer().overlays().paths && !h.state().viewer().overlays().attacks);
    // Event log filter: no attacks once unchecked.
    h.get_by_label("attack").click();
    h.run();
    assert!(h.state().viewer().event_log().iter().all(|e| !e.text.contains(" hits ")));

    // Inspector: click a mobile unit's tile.
    let unit = h.state().viewer().current().unwrap().1.debug.mobiles[0].clone();
    let pos = h.state().viewer().geometry().unwrap().tile_center(unit.tile);
    h.event(egui::Event::PointerMoved(pos));
    h.run();
    h.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.run();
    h.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run();
    let text = h.state().viewer().inspector_text();
    assert!(text.contains("steps") && text.contains("health"), "{text}");
    assert!(h.query_by_label_contains("steps").is_some());

    // What-if: remove a structure of player 2 and run; a row appears in the table.
    h.get_by_label("Run what-if on this turn").click();
    h.run();
    assert_eq!(h.state().viewer().tries().len(), 1, "{}", h.state().viewer().message());
    assert!(h.query_by_label("Try 1").is_some());
    h.get_by_label("Run what-if on this turn").click();
    h.run();
    assert_eq!(h.state().viewer().tries().len(), 2);
    assert!(h.query_by_label("Try 2").is_some());

    // Replays tab: plots and end-of-game statistics.
    h.state_mut().apply(Command::Studio(StudioCommand::SetView(View::Replays)));
    h.run();
    assert!(h.query_by_label("End of game").is_some());
    assert!(h.query_by_label("Final HP").is_some());
}

#[test]
fn playback_advances_frames() {
    let path = replay(BUSY);
    let mut h = harness(false);
    h.state_mut().apply(Command::File(FileCommand::OpenReplay(path)));
    h.run();
    let _ = h.state_mut().viewer_mut().apply(ViewerAction::SetSpeed(16.0));
    h.key_press(Key::Space);
    h.step();
    assert!(h.state().viewer().playing());
    for _ in 0..20 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    let f = h.state().viewer().current().unwrap().1.index;
    assert!(f > 0, "no frame advanced");
    h.key_press(Key::Space);
    h.step();
    assert!(!h.state().viewer().playing());
}

#[test]
fn snapshot_busy_frame() {
    let path = replay(BUSY);
    let mut h = harness(true);
    h.state_mut().apply(Command::File(FileCommand::OpenReplay(path)));
    h.run();
    go_to_busy_frame(&mut h, 5);
    h.run();
    h.snapshot("viewer_busy_frame");
}

fn tile_pos(h: &Harness<'_, StudioApp>, t: Tile) -> Pos2 {
    h.state().viewer().geometry().expect("board drawn").tile_center(t)
}

/// A free tile of player 1 that is not on an edge, and a free edge tile of player 1.
fn free_tiles(h: &Harness<'_, StudioApp>) -> (Tile, Tile) {
    let w = h.state().viewer().board_whatif().expect("what-if");
    let free = |t: &Tile| Player::One.owns(*t) && w.layout.get(*t).is_none();
    let on_edge = |t: &Tile| Edge::ALL.iter().any(|e| e.contains(*t));
    let inner = all_tiles().find(|t| free(t) && !on_edge(t) && t.y >= 4).expect("a free tile");
    let edge = all_tiles()
        .find(|t| free(t) && on_edge(t) && Edge::ALL.iter().any(|e| e.owner() == Player::One && e.contains(*t)));
    (inner, edge.expect("a free edge tile"))
}

/// Builds a what-if on the board: a turret and two scouts for player 1.
fn edit_on_board(h: &mut Harness<'_, StudioApp>) -> (Tile, Tile) {
    let (inner, edge) = free_tiles(h);
    h.get_by_label("Turret").click();
    h.run();
    let pos = tile_pos(h, inner);
    click_at(h, pos);
    h.get_by_label("Scout").click();
    h.run();
    let pos = tile_pos(h, edge);
    click_at(h, pos);
    click_at(h, pos);
    let w = h.state().viewer().board_whatif().expect("what-if");
    assert!(
        w.structure_edits(Player::One).contains(&StructureEdit::Add { tile: inner, unit_type: 2, upgraded: false }),
        "{:?} / {}",
        w.structure_edits(Player::One),
        h.state().viewer().message()
    );
    assert_eq!(w.deploys[0], vec![(3, edge), (3, edge)]);
    let paths = w.paths();
    assert_eq!(paths.len(), 1);
    assert_eq!(paths[0].tiles.first(), Some(&edge));
    assert!(h.query_by_label("Player 1: 1 structure edit, 2 deploys").is_some());
    (inner, edge)
}

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
fn history_of_a_100_turn_replay_stays_small() {
    let p = replay(LONG);
    let mut h = harness(false);
    h.state_mut().apply(Command::File(FileCommand::OpenReplay(p)));
    h.run();
    let s = h.state().viewer().summary().cloned().expect("loaded");
    eprintln!("{} turns, {} frames, history {} bytes", s.turns.len(), s.frames, s.history_bytes);
    assert!(s.turns.len() >= 100, "{} turns", s.turns.len());
    // Full frames are kept (instant seeking); the bound documented in docs/viewer.md.
    assert!(s.history_bytes < 16 << 20, "{} bytes", s.history_bytes);
}

/// True when the shown frame has a turret of player 1 on `tile`.
fn shows_turret_at(h: &Harness<'_, StudioApp>, tile: Tile) -> bool {
    let (_, v) = h.state().viewer().current().expect("a frame");
    v.frame.units_of(Player::One).get(2).is_some_and(|l| l.iter().any(|u| u.tile == tile))
}

/// Opens the replay at turn 5 and runs two tries: 1 = the turn as played, 2 = a turret and two
/// scouts of player 1 edited on the board. Returns the turret's and the scouts' tiles.
fn two_tries(h: &mut Harness<'_, StudioApp>, path: PathBuf) -> (Tile, Tile) {
    open_at(h, path, 5, 0);
    h.get_by_label("Run what-if on this turn").click();
    h.run();
    h.get_by_label("Edit what-if on the board").click();
    h.run();
    let tiles = edit_on_board(h);
    h.get_by_label("Run what-if").click();
    h.run();
    h.get_by_label("Leave what-if").click();
    h.run();
    assert_eq!(h.state().viewer().tries().len(), 2, "{}", h.state().viewer().message());
    tiles
}

#[test]
fn snapshot_watched_try_and_tries_side_by_side() {
    let path = replay(BUSY);
    let mut h = harness(true);
    two_tries(&mut h, path);
    h.state_mut().viewer_mut().apply(ViewerAction::WatchTry(1));
    h.run();
    for _ in 0..6 {
        h.state_mut().viewer_mut().apply(ViewerAction::Step { forward: true });
    }
    h.run();
    h.snapshot("viewer_watched_try");
    h.state_mut().viewer_mut().apply(ViewerAction::CompareTries(0, 1));
    h.run();
    let turn = h.state().viewer().compare().expect("comparison open").model.turn;
    h.state_mut().viewer_mut().apply(ViewerAction::Seek { turn, frame: 6 });
    h.run();
    h.snapshot("viewer_tries_side_by_side");
}

#[test]
fn watch_a_try_frame_by_frame_and_compare_two_tries_side_by_side() {
    let path = replay(BUSY);
    let mut h = harness(false);
    let (inner, edge) = two_tries(&mut h, path);
    assert!(!shows_turret_at(&h, inner), "the replay has no turret there");

    // Watch try 2: the board shows the try's frames, labelled, with the normal timeline.
    h.get_all_by_label("Watch").nth(1).expect("a Watch button per try").click();
    h.run();
    assert_eq!(h.state().viewer().watching(), Some(1), "{}", h.state().viewer().message());
    assert!(h.query_by_label_contains("What-if try 2: P1: 1 edit, 2 deploys").is_some());
    assert_eq!(h.state().viewer().frame_in_turn(), Some(0));
    assert!(shows_turret_at(&h, inner), "the try's turret");
    let scouts_on_edge = |h: &Harness<'_, StudioApp>| {
        let (_, v) = h.state().viewer().current().expect("a frame");
        v.frame.units_of(Player::One).get(3).map_or(0, |l| l.iter().filter(|u| u.tile == edge).count())
    };
    assert_eq!(scouts_on_edge(&h), 2, "the deployed scouts");
    for k in 1..=3 {
        h.get_by_label(">").click();
        h.run();
        assert_eq!(h.state().viewer().frame_in_turn(), Some(k));
        assert_eq!(h.state().viewer().watching(), Some(1));
        assert!(shows_turret_at(&h, inner));
    }
    let debug = &h.state().viewer().current().unwrap().1.debug;
    assert!(debug.mobiles.iter().any(|m| m.owner == Player::One && m.path.len() > 1), "paths of the try's scouts");
    h.key_press(Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().viewer().frame_in_turn(), Some(2));
    assert!(h.query_by_label_contains("Turn 5 · frame 2/").is_some());
    // End and Home stay within the try.
    h.key_press(Key::End);
    h.run();
    let frames = h.state().viewer().tries()[1].frames.len();
    assert_eq!(h.state().viewer().frame_in_turn(), Some(frames - 1));
    assert_eq!(h.state().viewer().watching(), Some(1));
    h.key_press(Key::Home);
    h.run();
    assert_eq!((h.state().viewer().frame_in_turn(), h.state().viewer().watching()), (Some(0), Some(1)));
    // Play runs to the try's last frame and stops there, still in the try.
    let _ = h.state_mut().viewer_mut().apply(ViewerAction::SetSpeed(16.0));
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
    // Back to the replay's turn.
    h.get_by_label("Back to replay").click();
    h.run();
    assert_eq!(h.state().viewer().watching(), None);
    assert_eq!((h.state().viewer().turn(), h.state().viewer().frame_in_turn()), (Some(5), Some(0)));
    assert!(!shows_turret_at(&h, inner));
    assert!(h.query_by_label("Back to replay").is_none());

    // Side by side: the edited try against the turn as played differs on the turret's tile.
    h.state_mut().viewer_mut().apply(ViewerAction::SetComparePick([0, 1]));
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
    // A try against itself: no differing tile on any frame.
    h.state_mut().viewer_mut().apply(ViewerAction::SetComparePick([1, 1]));
    h.get_by_label("Compare side by side").click();
    h.run();
    let frames = h.state().viewer().compare().expect("comparison open").model.max_frame();
    for _ in 0..=frames {
        let model = &h.state().viewer().compare().expect("comparison open").model;
        assert_eq!(model.diff_count(), 0, "frame {}", model.frame);
        h.state_mut().viewer_mut().apply(ViewerAction::Step { forward: true });
    }
}

/// Removal marks and upgrades arrive as spawn events of types 6 and 7: the event log says
/// what they are instead of calling them units.
#[test]
fn event_log_names_removals_and_upgrades() {
    let path = replay("live-2022/Acceleraizer__c1terminal-algo__2075.replay.gz");
    let mut h = harness(false);
    h.run();
    // Turn 15's first action frame holds both kinds (P1 upgrades, P2 marks for removal).
    open_at(&mut h, path, 15, 1);
    let log: Vec<String> = h.state().viewer().event_log().into_iter().map(|e| e.text).collect();
    assert!(log.iter().any(|t| t.starts_with("upgrades ")), "{log:?}");
    assert!(log.iter().any(|t| t.starts_with("marks ") && t.contains("for removal")), "{log:?}");
    assert!(log.iter().all(|t| !t.starts_with("unit #")), "{log:?}");
}

/// Zoom carries over to nothing: each replay opens with the whole board in view, and the key 0
/// (or Fit board) fits it again.
#[test]
fn each_replay_opens_fitted_and_zero_fits_the_board() {
    let mut h = harness(false);
    open_at(&mut h, replay(BUSY), 3, 0);
    set_board_view(&mut h, 3.0, egui::Vec2::ZERO);
    h.run();
    h.key_press(Key::Num0);
    h.run();
    assert_eq!(h.state().viewer().board_view().zoom, 1.0, "0 fits the board");
    set_board_view(&mut h, 2.5, egui::vec2(40.0, -20.0));
    h.run();
    h.get_by_label("Fit board").click();
    h.run();
    assert_eq!(h.state().viewer().board_view(), terminal_studio::app::model::BoardView::default());
    set_board_view(&mut h, 4.0, egui::Vec2::ZERO);
    open_at(&mut h, replay(LONG), 1, 0);
    assert_eq!(h.state().viewer().board_view().zoom, 1.0, "a new replay opens fitted");
}

/// A replay cut short (a killed match) opens up to its last complete frame and says so.
#[test]
fn a_truncated_replay_opens_and_says_so() {
    let bytes = std::fs::read(replay(BUSY)).expect("read");
    let text = String::from_utf8(terminal_core::replay::reader::maybe_gunzip(&bytes).expect("gzip").into_owned())
        .expect("utf-8");
    let cut = &text[..text.len() * 2 / 3];
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("killed.replay");
    std::fs::write(&path, cut).expect("write");
    let mut h = harness(false);
    h.state_mut().open_replay(&path);
    h.run();
    let v = &h.state().viewer();
    assert!(v.summary().is_some_and(|s| s.truncated_at.is_some()), "{}", v.message());
    assert!(v.message().contains("truncated"), "{}", v.message());
    assert!(v.current().is_some(), "a frame is shown");
}

/// With "Hide the winner until the end" the header, the end-of-game table and the plot tell
/// nothing of the result until the last turn is shown; the choice is a kept setting.
#[test]
fn the_winner_can_stay_hidden_until_the_end() {
    let mut h = harness(false);
    open_at(&mut h, replay(BUSY), 2, 0);
    h.get_by_label("Hide the winner until the end").click();
    h.run();
    assert!(h.state().viewer().prefs().hide_winner, "kept with the viewer's settings");
    assert!(h.query_by_label_contains("(winner)").is_none(), "no winner in the header at turn 2");
    h.state_mut().apply(Command::Studio(StudioCommand::SetView(View::Replays)));
    h.run();
    assert!(h.query_by_label("Final HP").is_none(), "no end-of-game figures yet");
    h.key_press(Key::End);
    h.run();
    assert!(h.query_by_label_contains("(winner)").is_some(), "the winner shows at the last turn");
    assert!(h.query_by_label("Final HP").is_some());
}

/// F1 in the Debugger lists the Debugger's keys (not the editor's), below the tab bar.
#[test]
fn help_lists_the_keys_of_the_view_shown() {
    let mut h = harness(false);
    open_at(&mut h, replay(BUSY), 1, 0);
    h.key_press(Key::F1);
    h.run();
    assert!(h.state().show_help());
    h.get_by_label("Previous frame");
    h.get_by_label("Fit the board");
    h.get_by_label("Copy frame as JSON");
    assert!(h.query_by_label("Wall tool").is_none(), "no editor keys here");
    let window = h.get_by_label_contains("Keyboard shortcuts: Debugger").rect();
    let tabs = h.get_by_label("Debugger").rect();
    assert!(window.min.y > tabs.max.y, "the window opens below the tab bar: {window:?} vs {tabs:?}");
}

/// The Debugger's path threat on a frame with known numbers: an editor layout watched as a
/// try (base-s6: a base Turret on (24,15) hits for 5 the path from (13,0) on (25,13) and
/// (26,14); a base Support on (12,2) gives each unit 3 at the start).
#[test]
fn hovering_an_edge_tile_in_the_debugger_shows_the_threat_along_its_path() {
    let mut h = harness(false);
    h.run();
    place_structure(&mut h, Player::Two, Tile::new(24, 15), terminal_core::layout::Kind::Turret);
    place_structure(&mut h, Player::One, Tile::new(12, 2), terminal_core::layout::Kind::Support);
    h.get_by_label("Simulate in debugger").click();
    h.run();
    h.get_by_label("Run what-if").click();
    h.run();
    h.get_by_label("Watch").click();
    h.run();
    assert_eq!(h.state().viewer().watching(), Some(0), "{}", h.state().viewer().message());
    assert!(h.query_by_label("Hover an edge tile").is_some());

    let pos = tile_pos(&h, Tile::new(13, 0));
    h.event(egui::Event::PointerMoved(pos));
    h.run();
    assert!(h.query_by_label("Threat along the path").is_some());
    // Scout: 15 + 3 − 2 hits of 5. Demolisher: 5 + 3, two frames on (25,13) = two hits.
    // Interceptor: 40 + 3 − 8 hits of 5 (four frames on each tile in reach).
    assert_eq!(h.query_all_by_label("10 dmg, +3 shield").count(), 2);
    h.get_by_label("survives with 8");
    h.get_by_label("dies at [25, 13], step 25");
    h.get_by_label("40 dmg, +3 shield");
    h.get_by_label("survives with 3");
    let threat = h.state().viewer().hovered_threat().expect("threat of the hovered tile");
    assert_eq!(threat.path.last(), Some(&Tile::new(27, 14)));

    // Off the edges: no threat.
    let pos = tile_pos(&h, Tile::new(13, 5));
    h.event(egui::Event::PointerMoved(pos));
    h.run();
    assert!(h.query_by_label("Threat along the path").is_none());
    assert!(h.query_by_label("Hover an edge tile").is_some());
}

/// On a real replay the table follows the shown frame: its numbers are those of the shown
/// frame's board, and a seek to the last turn shows that board's.
#[test]
fn debugger_threat_follows_the_shown_frame_of_a_replay() {
    use terminal_core::layout::threat::{self, PathThreat};
    use terminal_studio::app::board::threat as threat_view;
    let mut h = harness(false);
    let seek = |h: &mut Harness<'_, StudioApp>, turn: i32| {
        h.state_mut().viewer_mut().apply(ViewerAction::Seek { turn, frame: 0 });
        h.run();
        assert_eq!(h.state().viewer().turn(), Some(turn));
    };
    let shown = |h: &Harness<'_, StudioApp>, tile: Tile| -> Option<PathThreat> {
        let v = &h.state().viewer();
        let config = v.summary().expect("loaded").config.clone();
        threat::from_frame(&v.current().expect("a frame").1.frame, &config, tile)
    };
    open_at(&mut h, replay(BUSY), 0, 0);
    let last = h.state().viewer().summary().expect("loaded").turns.last().expect("turns").turn;
    assert!(last > 5, "{last} turns");
    seek(&mut h, last);
    let late: Vec<(Tile, PathThreat)> =
        Edge::ALL.iter().flat_map(|e| e.tiles()).filter_map(|t| Some((t, shown(&h, t)?))).collect();
    seek(&mut h, 5);
    // An edge tile whose threat differs between the two turns' boards.
    let (edge, late) = late
        .into_iter()
        .find(|(t, late)| shown(&h, *t).is_some_and(|early| early.units != late.units))
        .expect("the boards of turn 5 and the last turn differ along some path");
    let early = shown(&h, edge).expect("free");
    let pos = tile_pos(&h, edge);
    h.event(egui::Event::PointerMoved(pos));
    h.run();
    for (turn, expected) in [(5, early), (last, late)] {
        seek(&mut h, turn);
        assert_eq!(h.state().viewer().hovered_threat(), Some(&expected), "turn {turn}");
        for u in &expected.units {
            let text = threat_view::outcome(&u.end);
            assert!(h.query_all_by_label(&text).next().is_some(), "turn {turn}: {text}");
        }
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

/// A label showing exactly `text` exists.
fn shows(h: &Harness<'_, StudioApp>, text: &str) -> bool {
    h.query_all_by_label(text).next().is_some()
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
            format!(
                "breaches dealt {} (−{:.0} HP) / taken {} (−{:.0} HP)",
                s.breaches[us], s.hp_damage[us], s.breaches[them], s.hp_damage[them]
            ),
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
    h.state_mut().viewer_mut().apply(ViewerAction::SetComparePick([0, 1]));
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

/// Ctrl+Shift+C (or Replay ▸ Copy frame as JSON) puts the frame shown on the clipboard as the
/// engine writes it: the same turn, frame and units as on the board.
#[test]
fn the_frame_shown_is_copied_as_json() {
    let mut h = harness(false);
    open_at(&mut h, replay(BUSY), 3, 2);
    h.event(egui::Event::Key {
        key: Key::C,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: Modifiers::COMMAND | Modifiers::SHIFT,
    });
    // One frame: the clipboard command is in that frame's output.
    h.step();
    let copied = h.output().platform_output.commands.iter().find_map(|c| match c {
        egui::OutputCommand::CopyText(text) => Some(text.clone()),
        _ => None,
    });
    let copied = copied.unwrap_or_else(|| panic!("nothing copied: {}", h.state().viewer().message()));
    let json: serde_json::Value = serde_json::from_str(&copied).expect("the copy is one JSON object");
    let (turn, view) = h.state().viewer().current().cloned().expect("a frame shown");
    assert_eq!(json["turnInfo"][1].as_i64(), Some(turn as i64), "{copied}");
    assert_eq!(json["turnInfo"][2].as_u64(), Some(view.frame_in_turn as u64 - 1), "the action frame's number");
    assert!(
        h.state().viewer().message().starts_with(&format!("Copied turn {turn}, frame 2")),
        "{}",
        h.state().viewer().message()
    );
    // The same command from the menu.
    h.get_by_label("Playback").click();
    h.run();
    h.get_by_label_contains("Copy frame as JSON").click();
    h.run();
    assert!(h.state().viewer().message().starts_with("Copied turn"), "{}", h.state().viewer().message());
}

/// A file that fails to open (a JSON that is not a replay) leaves the replay that was open on
/// the board, and says why and what is still shown.
#[test]
fn a_failed_open_keeps_the_replay_that_was_open() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("not-a-replay.replay");
    std::fs::write(&bad, "{\"hello\": 1}\n").expect("write");
    let mut h = harness(false);
    open_at(&mut h, replay(BUSY), 3, 2);
    let before = h.state().viewer().current().cloned().expect("a frame shown");
    h.state_mut().apply(Command::File(FileCommand::OpenReplay(bad.clone())));
    h.run();
    let v = h.state().viewer();
    assert!(v.message().starts_with("Could not open"), "{}", v.message());
    assert!(v.message().contains("not-a-replay.replay") && v.message().contains("still showing"), "{}", v.message());
    assert!(v.path().is_some_and(|p| p.ends_with(BUSY.rsplit('/').next().unwrap_or(BUSY))), "{:?}", v.path());
    let after = v.current().cloned().expect("the frame is still shown");
    assert_eq!((after.0, after.1.index), (before.0, before.1.index));
    // It still steps.
    h.key_press(Key::ArrowRight);
    h.run();
    assert_eq!(h.state().viewer().current().map(|(_, f)| f.index), Some(before.1.index + 1));
}
