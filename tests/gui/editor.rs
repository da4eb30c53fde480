//! The map editor driven like a user: pick a tool in the palette, click and drag on board
//! tiles, undo, save, load. Plus image snapshots of the board (tests/snapshots/).

use egui::{Event, Key, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::common::corpus::{layouts, replay};
use crate::common::harness::{click_at, drag, studio};
use std::path::PathBuf;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::layout::Kind;
use terminal_studio::app::StudioApp;
use terminal_studio::app::command::{Command, EditorCommand, FileCommand, StudioCommand};
use terminal_studio::app::editor::{EditorPrefs, EditorView};
use terminal_studio::app::model::{Overlays, Tool};
use terminal_studio::app::state::State;

/// An app with default settings and autosave into `autosave` (if given).
fn harness(autosave: Option<PathBuf>) -> Harness<'static, StudioApp> {
    studio(vec2(1200.0, 800.0), autosave, false)
}

/// Where a tile's centre is on screen, as the board was last drawn.
fn tile_pos(h: &Harness<'_, StudioApp>, t: Tile) -> Pos2 {
    h.state().tile_screen_pos(t).expect("the board has been drawn")
}

/// A left click on a tile.
fn click_tile(h: &mut Harness<'_, StudioApp>, t: Tile) {
    let pos = tile_pos(h, t);
    click_at(h, pos);
}

/// A left drag from one tile to another.
fn drag_tiles(h: &mut Harness<'_, StudioApp>, from: Tile, to: Tile) {
    let (a, b) = (tile_pos(h, from), tile_pos(h, to));
    drag(h, a, b);
}

fn kind_at(h: &Harness<'_, StudioApp>, t: Tile) -> Option<Kind> {
    h.state().editor().layout.get(t).map(|s| s.kind)
}

#[test]
fn place_with_the_palette_then_undo_and_redo() {
    let mut h = harness(None);
    h.get_by_label("Turret").click();
    h.run();
    assert_eq!(h.state().tool(), Tool::Place(Kind::Turret));

    click_tile(&mut h, Tile::new(13, 10));
    assert_eq!(kind_at(&h, Tile::new(13, 10)), Some(Kind::Turret));
    assert!(h.state().editor().dirty);

    // The tallies follow.
    let sp = h.state().editor().layout.tally(Player::One, &h.state().editor().config).sp_spent;
    assert!(sp > 0.0);

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(kind_at(&h, Tile::new(13, 10)), None, "Ctrl+Z undoes the placement");

    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(kind_at(&h, Tile::new(13, 10)), Some(Kind::Turret), "Ctrl+Shift+Z redoes it");

    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(kind_at(&h, Tile::new(13, 10)), None, "the Undo button works too");
}

#[test]
fn drag_paints_a_line_as_one_undo_step() {
    let mut h = harness(None);
    h.key_press(Key::Num1);
    h.run();
    assert_eq!(h.state().tool(), Tool::Place(Kind::Wall));
    drag_tiles(&mut h, Tile::new(5, 12), Tile::new(15, 12));
    for x in 5..=15 {
        assert_eq!(kind_at(&h, Tile::new(x, 12)), Some(Kind::Wall), "x = {x}");
    }
    assert_eq!(h.state().editor().layout.len(), 11);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(h.state().editor().layout.is_empty(), "one undo removes the whole line");
}

#[test]
fn shortcuts_upgrade_mark_erase_and_switch_player() {
    let mut h = harness(None);
    h.key_press(Key::Num2);
    h.run();
    click_tile(&mut h, Tile::new(13, 3));
    h.key_press(Key::U);
    h.run();
    click_tile(&mut h, Tile::new(13, 3));
    let s = h.state().editor().layout.get(Tile::new(13, 3)).copied().expect("support placed");
    assert_eq!((s.kind, s.upgraded), (Kind::Support, true));

    h.key_press(Key::R);
    h.run();
    click_tile(&mut h, Tile::new(13, 3));
    assert!(h.state().editor().layout.get(Tile::new(13, 3)).is_some_and(|s| s.remove));
    let refund = h.state().editor().layout.tally(Player::One, &h.state().editor().config).removal_refund;
    assert!(refund > 0.0, "a marked structure has a refund");

    // Player 1 cannot build on player 2's half; Tab switches player.
    h.key_press(Key::Num3);
    h.run();
    click_tile(&mut h, Tile::new(13, 20));
    assert_eq!(kind_at(&h, Tile::new(13, 20)), None);
    assert!(h.state().message().contains("not player 1's"), "{}", h.state().message());
    h.key_press(Key::Tab);
    h.run();
    assert_eq!(h.state().editor().player, Player::Two);
    click_tile(&mut h, Tile::new(13, 20));
    assert_eq!(kind_at(&h, Tile::new(13, 20)), Some(Kind::Turret));

    h.key_press(Key::X);
    h.run();
    click_tile(&mut h, Tile::new(13, 20));
    assert_eq!(kind_at(&h, Tile::new(13, 20)), None);
}

#[test]
fn mirror_and_copy_to_opponent_from_the_panel() {
    let mut h = harness(None);
    h.get_by_label("Turret").click();
    h.run();
    click_tile(&mut h, Tile::new(3, 12));
    h.get_by_label("Mirror left/right").click();
    h.run();
    assert_eq!(kind_at(&h, Tile::new(24, 12)), Some(Kind::Turret));
    assert_eq!(kind_at(&h, Tile::new(3, 12)), None);
    h.get_by_label("Copy to opponent").click();
    h.run();
    assert_eq!(kind_at(&h, Tile::new(3, 15)), Some(Kind::Turret), "rotated onto player 2's half");
    // Each action is one undo step.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(kind_at(&h, Tile::new(3, 15)), None);
    assert_eq!(h.state().message(), "Undone");
    // The next action says what it did: no stale "Undone" or "Redone".
    h.get_by_label("Mirror left/right").click();
    h.run();
    assert_eq!(h.state().message(), "Mirrored player 1's structures left/right");
}

#[test]
fn save_then_load_round_trips_and_autosave_keeps_every_edit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let autosave = dir.path().join("autosave.json");
    let file = dir.path().join("mine.json");
    std::fs::copy(layouts().join("starter.json"), &file).expect("copy example");

    let mut h = harness(Some(autosave.clone()));
    h.state_mut().open(&file);
    h.run();
    assert!(h.state().message().starts_with("Opened"), "{}", h.state().message());
    let before = h.state().editor().layout.len();
    assert!(before > 0);

    h.get_by_label("Wall").click();
    h.run();
    click_tile(&mut h, Tile::new(13, 13));
    assert!(autosave.exists(), "the edit was autosaved");
    let recovered = terminal_core::layout::files::load_layout(&autosave).expect("autosave loads");
    assert_eq!(recovered.len(), before + 1);

    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(h.state().message().starts_with("Saved"), "{}", h.state().message());
    assert!(!h.state().editor().dirty);

    // A second app loads what the first saved.
    let mut h2 = harness(None);
    h2.state_mut().open(&file);
    h2.run();
    assert_eq!(h2.state().editor().layout, h.state().editor().layout);
    assert_eq!(kind_at(&h2, Tile::new(13, 13)), Some(Kind::Wall));

    // And an app started later recovers the autosave.
    let mut h3 = harness(Some(autosave));
    h3.state_mut().recover_autosave();
    h3.run();
    assert_eq!(h3.state().editor().layout.len(), before + 1);
}

#[test]
fn help_window_lists_the_shortcuts() {
    let mut h = harness(None);
    h.get_by_label("Help").click();
    h.run();
    assert!(h.state().show_help());
    h.get_by_label("Ctrl+Shift+Z / Ctrl+Y");
    h.key_press(Key::F1);
    h.run();
    assert!(!h.state().show_help());
}

#[test]
fn bad_files_give_a_message_not_a_panic() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{ not json").expect("write");
    let mut h = harness(None);
    h.state_mut().open(&bad);
    h.run();
    assert!(h.state().message().starts_with("Open failed"), "{}", h.state().message());
    assert!(h.state().message().contains("bad.json"), "the file is named: {}", h.state().message());
    // A missing file that is not a layout's name is not started as a new layout.
    h.state_mut().open(&dir.path().join("missing.txt"));
    h.run();
    assert!(h.state().message().starts_with("Open failed"), "{}", h.state().message());
}

/// Image snapshots of the board: the wgpu test renderer (Mesa's software Vulkan on CI).
fn snapshot_harness(file: &str, settings_of: impl FnOnce(&mut State, &mut Overlays)) -> Harness<'static, StudioApp> {
    let mut settings = State::default();
    let mut overlays = Overlays::default();
    settings_of(&mut settings, &mut overlays);
    // The editor's overlays as the studio reopens them from its kept settings.
    settings.editor = Box::new(EditorView::from(EditorPrefs { overlays, ..EditorPrefs::default() }));
    let mut app = StudioApp::new(settings, None);
    app.open(&layouts().join(file));
    let mut h = Harness::builder()
        .with_size(vec2(1100.0, 720.0))
        .wgpu()
        .build_ui_state(|ui, app: &mut StudioApp| app.show(ui), app);
    h.run();
    h
}

#[test]
fn snapshot_funnel_with_coverage() {
    let mut h = snapshot_harness("funnel.json", |_, o| o.coverage = true);
    h.snapshot("board_funnel_coverage");
}

#[test]
fn snapshot_maze_with_all_paths_light() {
    let mut h = snapshot_harness("maze.json", |s, o| {
        s.theme = terminal_studio::app::model::Theme::Light;
        o.coverage = false;
        o.all_paths = true;
    });
    h.snapshot("board_maze_paths_light");
}

#[test]
fn snapshot_shields_and_hovered_path() {
    let mut h = snapshot_harness("corner-cannon.json", |_, o| {
        o.coverage = false;
        o.shields = true;
    });
    let edge = tile_pos(&h, Tile::new(20, 6));
    h.event(Event::PointerMoved(edge));
    h.run();
    h.snapshot("board_corner_shields_path");
}

#[test]
fn exports_python_and_png() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = harness(None);
    h.state_mut().open(&layouts().join("funnel.json"));
    h.run();
    let py = dir.path().join("funnel.py");
    h.state_mut().apply(Command::File(FileCommand::ExportPython(py.clone())));
    let text = std::fs::read_to_string(&py).expect("python written");
    let turrets = text.lines().find(|l| l.starts_with("turrets = ")).expect("a turrets line");
    assert!(turrets.contains("[0, 13]") && turrets.contains("[27, 13]"), "{text}");
    assert!(text.contains("game_state.attempt_upgrade(turret_upgrades)"));
    let png = dir.path().join("funnel.png");
    h.state_mut().apply(Command::File(FileCommand::ExportPng(png.clone())));
    let bytes = std::fs::read(&png).expect("png written");
    assert!(bytes.starts_with(b"\x89PNG"), "{}", h.state().message());
}

#[test]
fn import_a_turn_of_a_replay_and_undo_it() {
    let replay = replay("base-s6/Eric-xin__run_time_terror_C1Terminal__3-4-2025-18-0-5.replay.gz");
    if !replay.exists() {
        eprintln!("shared replay not found at {}; skipping", replay.display());
        return;
    }
    let mut h = harness(None);
    h.state_mut().open(&replay);
    h.run();
    assert!(h.state().editor().import.is_some(), "{}", h.state().message());
    let turns = h.state().editor().import.as_ref().map(|i| i.turn_starts.len()).unwrap_or(0);
    assert!(turns > 5);
    h.state_mut().apply(Command::Editor(EditorCommand::ImportReplayTurn(turns / 2)));
    h.run();
    assert!(h.state().editor().import.is_none());
    assert!(h.state().message().starts_with("Imported"), "{}", h.state().message());
    eprintln!("{}", h.state().message());
    let layout = &h.state().editor().layout;
    assert!(!layout.is_empty(), "{}", h.state().message());
    assert!(layout.is_valid());
    assert!(h.state().editor().layout.structures.values().all(|s| (0.0..=1.0).contains(&s.health)));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(h.state().editor().layout.is_empty(), "the import is one undo step");
}

#[test]
fn wheel_zooms_around_the_pointer_and_right_drag_pans() {
    let mut h = harness(None);
    let anchor = Tile::new(20, 8);
    let at = tile_pos(&h, anchor);
    h.event(Event::PointerMoved(at));
    h.event(Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: vec2(0.0, 120.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: Modifiers::NONE,
    });
    h.run();
    let zoom = h.state().editor_view().prefs().board_view.zoom;
    assert!(zoom > 1.0, "zoomed in: {zoom}");
    let moved = tile_pos(&h, anchor) - at;
    assert!(moved.length() < 12.0, "the tile under the pointer stays under it (moved {moved:?})");

    // Right drag pans.
    let pan_before = h.state().editor_view().prefs().board_view.pan;
    let start = tile_pos(&h, Tile::new(13, 13));
    h.event(Event::PointerMoved(start));
    h.run();
    h.event(Event::PointerButton {
        pos: start,
        button: PointerButton::Secondary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.run();
    for i in 1..=4 {
        h.event(Event::PointerMoved(start + vec2(15.0 * i as f32, 0.0)));
        h.run();
    }
    h.event(Event::PointerButton {
        pos: start + vec2(60.0, 0.0),
        button: PointerButton::Secondary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run();
    assert!(
        h.state().editor_view().prefs().board_view.pan.x > pan_before.x + 20.0,
        "{:?}",
        h.state().editor_view().prefs().board_view.pan
    );
    assert!(h.state().editor().layout.is_empty(), "panning edits nothing");

    // Clicks still land on the right tile after zoom and pan; 0 resets the view.
    click_tile(&mut h, Tile::new(14, 10));
    assert_eq!(kind_at(&h, Tile::new(14, 10)), Some(Kind::Wall));
    h.key_press(Key::Num0);
    h.run();
    assert_eq!(h.state().editor_view().prefs().board_view, terminal_studio::app::model::BoardView::default());
}

#[test]
fn theme_button_switches_to_light_and_back() {
    let mut h = harness(None);
    h.get_by_label("Light theme").click();
    h.run();
    assert_eq!(h.state().state().theme, terminal_studio::app::model::Theme::Light);
    h.get_by_label("Dark theme").click();
    h.run();
    assert_eq!(h.state().state().theme, terminal_studio::app::model::Theme::Dark);
}

#[test]
fn typing_a_name_is_one_undo_step_and_shortcuts_pause_while_typing() {
    let mut h = harness(None);
    let field = h.get_by_label("Name");
    field.focus();
    field.type_text("ring 2");
    h.run();
    assert_eq!(h.state().editor().layout.name, "ring 2");
    assert_eq!(h.state().tool(), Tool::Place(Kind::Wall), "the 2 typed is text, not the support shortcut");
    h.key_press(Key::Escape);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().editor().layout.name, "");
}

/// Ctrl+N clears the board as one undoable step: Ctrl+Z brings the layout back.
#[test]
fn new_layout_is_undoable() {
    let mut h = harness(None);
    pick_and_click(&mut h, Tile::new(13, 2));
    assert_eq!(h.state().editor().layout.len(), 1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run();
    assert_eq!(h.state().editor().layout.len(), 0, "{}", h.state().message());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().editor().layout.len(), 1, "the wall is back: {}", h.state().message());
}

/// `terminal-studio new-name.json` for a file that does not exist starts a layout saved there.
#[test]
fn opening_a_file_that_does_not_exist_starts_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("my-defence.json");
    let mut h = harness(None);
    h.state_mut().open(&path);
    h.run();
    assert_eq!(h.state().editor().path.as_deref(), Some(path.as_path()), "{}", h.state().message());
    assert_eq!(h.state().editor().layout.name, "my-defence");
    pick_and_click(&mut h, Tile::new(13, 2));
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let saved = terminal_core::layout::files::load_layout(&path).expect("saved where it was named");
    assert_eq!(saved.len(), 1);
}

/// The Wall tool and a click on a tile.
fn pick_and_click(h: &mut Harness<'_, StudioApp>, t: Tile) {
    h.key_press(Key::Num1);
    h.run();
    click_tile(h, t);
}

/// Without a desktop portal every file action asks for its path in the studio, prefilled with
/// `layouts/<name>.<ext>`: Save as, Export Python and Open all work from the typed path.
#[test]
fn file_actions_without_a_portal_ask_in_the_studio() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut h = crate::common::harness::studio_without_portal(State::default(), vec2(1200.0, 800.0));
    pick_and_click(&mut h, Tile::new(13, 2));
    for (item, file) in [("Save as…", "mine.json"), ("Export Python…", "mine.py")] {
        h.get_by_label("File").click();
        h.run();
        h.get_by_label_contains(item).click();
        h.run();
        let prompt = h.state().file_prompt().expect("the in-app path window").clone();
        assert!(prompt.text.starts_with("layouts"), "prefilled under layouts/: {}", prompt.text);
        assert!(prompt.note.contains("No file dialog"), "{}", prompt.note);
        let path = dir.path().join(file);
        crate::common::harness::type_into(&mut h, "Path", &path.display().to_string());
        h.get_by_label("OK").click();
        h.run();
        assert!(h.state().file_prompt().is_none());
        assert!(path.exists(), "{item} wrote {}: {}", path.display(), h.state().message());
    }
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run();
    crate::common::harness::type_into(&mut h, "Path", &dir.path().join("mine.json").display().to_string());
    h.get_by_label("OK").click();
    h.run();
    assert_eq!(h.state().editor().layout.len(), 1, "opened from the typed path: {}", h.state().message());
}

/// Hovering an edge tile shows what one unit of each mobile type would take along its path
/// (base-s6: Scout 15 health speed 1, Demolisher 5 at 0.5, Interceptor 40 at 0.25; a base
/// Turret hits for 5, a base Support shields 3). From (13,0) the open-board path zigzags to
/// (27,14); a Turret on (24,15) reaches its tiles 25 (25,13) and 27 (26,14).
#[test]
fn hovering_an_edge_tile_shows_the_threat_along_its_path() {
    let mut h = harness(None);
    h.key_press(Key::Tab);
    h.get_by_label("Turret").click();
    h.run();
    click_tile(&mut h, Tile::new(24, 15));
    h.key_press(Key::Tab);
    h.get_by_label("Support").click();
    h.run();
    // Beside the path's first tiles: every unit gets its 3 shield at the start.
    click_tile(&mut h, Tile::new(12, 2));
    assert_eq!(h.state().editor().layout.len(), 2);

    let start = tile_pos(&h, Tile::new(13, 0));
    h.event(Event::PointerMoved(start));
    h.run();
    h.get_by_label("Threat along the path");
    // The Scout stands one frame on each tile in reach: 2 hits of 5 against 15 + 3.
    assert_eq!(h.query_all_by_label("10 dmg, +3 shield").count(), 2, "the Scout's and the Demolisher's");
    h.get_by_label("survives with 8");
    // The Demolisher stands two frames per tile: two hits on (25,13) beat its 5 + 3.
    h.get_by_label("dies at [25, 13], step 25");
    // The Interceptor stands four frames per tile: 8 hits of 5 against 40 + 3.
    h.get_by_label("40 dmg, +3 shield");
    h.get_by_label("survives with 3");

    // Undoing the Support while the pointer stays: the threat follows the layout.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().editor().layout.len(), 1);
    h.get_by_label("10 dmg, +0 shield");
    h.get_by_label("survives with 5");
    h.get_by_label("5 dmg, +0 shield");
    h.get_by_label("dies at [25, 13], step 25");
    h.get_by_label("40 dmg, +0 shield");
    h.get_by_label("dies at [26, 14], step 27");
    assert!(h.query_by_label("survives with 8").is_none());

    // An inner tile has no path of its own.
    let inner = tile_pos(&h, Tile::new(13, 5));
    h.event(Event::PointerMoved(inner));
    h.run();
    assert!(h.query_by_label("Threat along the path").is_none());
}

#[test]
fn a_2018_ruleset_speaks_its_era_and_has_no_upgrades() {
    let mut h = harness(None);
    h.state_mut().apply(Command::Studio(StudioCommand::SetRuleset("legacy-2018".into())));
    h.run();
    assert!(h.state().editor().config.legacy);
    h.get_by_label("Destructor").click();
    h.run();
    assert_eq!(h.state().tool(), Tool::Place(Kind::Turret));
    click_tile(&mut h, Tile::new(13, 10));
    assert!(h.state().message().starts_with("Destructor at 13,10"), "{}", h.state().message());
    assert!(h.query_by_label("Turret").is_none(), "no current-era name in the palette");

    // The Upgrade tool is there but disabled, and its shortcut says why instead of acting.
    h.get_by_label("Upgrade").click();
    h.run();
    assert_eq!(h.state().tool(), Tool::Place(Kind::Turret), "a click on the disabled tool does nothing");
    h.key_press(Key::U);
    h.run();
    assert_eq!(h.state().tool(), Tool::Place(Kind::Turret), "the tool did not change");
    assert!(h.state().message().contains("no upgrades"), "{}", h.state().message());
    h.state_mut()
        .apply(Command::Editor(EditorCommand::Edit(terminal_studio::app::model::Edit::Upgrade(Tile::new(13, 10)))));
    assert!(!h.state().editor().layout.get(Tile::new(13, 10)).is_some_and(|s| s.upgraded));

    // 2018 refunds half the price: a Destructor (3 SP) marked for removal gives 1.5 back.
    h.key_press(Key::R);
    h.run();
    click_tile(&mut h, Tile::new(13, 10));
    let refund = h.state().editor().layout.tally(Player::One, &h.state().editor().config).removal_refund;
    assert_eq!(refund, 1.5);
}
