//! The replay viewer and debugger driven like a user: open a real replay from
//! `../shared/replays`, step with keys and buttons, toggle overlays, inspect a unit, hover
//! the threat along a path. Plus an image snapshot of a busy frame (tests/snapshots/).
//! What-ifs and their tries: tests/gui/what_if.rs.

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::common::corpus::{BUSY, LONG, replay};
use crate::common::viewer::{go_to_busy_frame, harness, open_at, place_structure, set_board_view, tile_pos};
use terminal_core::engine::geometry::{Edge, Player, Tile};
use terminal_studio::app::StudioApp;
use terminal_studio::app::command::{Command, FileCommand, StudioCommand};
use terminal_studio::app::model::View;
use terminal_studio::app::viewer::ViewerAction;

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
    step_with_keys_and_buttons(&mut h);
    // A busy frame: units listed, event log, overlays.
    go_to_busy_frame(&mut h, 5);
    toggle_overlays_and_filter_the_log(&mut h);
    inspect_a_mobile_unit(&mut h);

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

/// On a replay just opened at turn 0: keys (→ frame, Ctrl+→ turn, ← back, End, Home), then
/// the next-frame and next-turn buttons.
fn step_with_keys_and_buttons(h: &mut Harness<'_, StudioApp>) {
    let s = h.state().viewer().summary().cloned().expect("loaded");
    assert!(s.turns.len() > 10, "{} turns", s.turns.len());
    assert_eq!(h.state().viewer().turn(), Some(0));
    assert!(h.query_by_label_contains("Turn 0 · frame 0/").is_some());
    // Header: both player names.
    assert!(h.query_by_label_contains(&format!("P1 {}", s.names[0])).is_some());

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
    h.get_by_label(">").click();
    h.run();
    assert_eq!(h.state().viewer().frame_in_turn(), Some(1));
    h.get_by_label(">>").click();
    h.run();
    assert_eq!(h.state().viewer().turn(), Some(1));
}

/// On a busy frame: the units are listed, the overlays toggle, and the event log's attack
/// filter hides the hits.
fn toggle_overlays_and_filter_the_log(h: &mut Harness<'_, StudioApp>) {
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
    h.get_by_label("attack").click();
    h.run();
    assert!(h.state().viewer().event_log().iter().all(|e| !e.text.contains(" hits ")));
}

/// A click on a mobile unit's tile fills the inspector.
fn inspect_a_mobile_unit(h: &mut Harness<'_, StudioApp>) {
    let unit = h.state().viewer().current().unwrap().1.debug.mobiles[0].clone();
    let pos = h.state().viewer().geometry().unwrap().tile_center(unit.tile);
    h.event(egui::Event::PointerMoved(pos));
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.run();
    }
    let text = h.state().viewer().inspector_text();
    assert!(text.contains("steps") && text.contains("health"), "{text}");
    assert!(h.query_by_label_contains("steps").is_some());
}

#[test]
fn playback_advances_frames() {
    let path = replay(BUSY);
    let mut h = harness(false);
    h.state_mut().apply(Command::File(FileCommand::OpenReplay(path)));
    h.run();
    h.state_mut().act(ViewerAction::SetSpeed(16.0));
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
        h.state_mut().act(ViewerAction::Seek { turn, frame: 0 });
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
