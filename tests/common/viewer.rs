//! The Debugger's helpers the viewer and what-if stories share: a replay opened at a frame,
//! a busy frame found, a what-if edited on the board with the mouse.

use super::harness::{LARGE, click_at, studio};
use egui::Pos2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::PathBuf;
use terminal_core::engine::geometry::{Edge, Player, Tile, all_tiles};
use terminal_core::session::whatif::StructureEdit;
use terminal_studio::app::StudioApp;
use terminal_studio::app::command::{Command, EditorCommand, FileCommand};
use terminal_studio::app::model::{BoardView, Edit};
use terminal_studio::app::viewer::ViewerAction;

/// A structure for `player` in the editor, placed as the editor's tools place it (one undo step).
pub fn place_structure(h: &mut Harness<'_, StudioApp>, player: Player, tile: Tile, kind: terminal_core::layout::Kind) {
    let app = h.state_mut();
    app.apply(Command::Editor(EditorCommand::SetPlayer(player)));
    for c in [EditorCommand::BeginStroke, EditorCommand::Edit(Edit::Place(tile, kind)), EditorCommand::EndStroke] {
        app.apply(Command::Editor(c));
    }
}

/// The Debugger's board zoomed and panned, as the mouse wheel and a drag would leave it.
pub fn set_board_view(h: &mut Harness<'_, StudioApp>, zoom: f32, pan: egui::Vec2) {
    h.state_mut().act(ViewerAction::SetBoardView(BoardView { zoom, pan }));
}

pub fn harness(wgpu: bool) -> Harness<'static, StudioApp> {
    studio(LARGE, None, wgpu)
}

/// Opens `path` in the debugger and shows `turn`, action frame `frame`.
pub fn open_at(h: &mut Harness<'_, StudioApp>, path: PathBuf, turn: i32, frame: usize) {
    h.state_mut().apply(Command::File(FileCommand::OpenReplay(path)));
    h.run();
    h.state_mut().act(ViewerAction::Seek { turn, frame });
    h.run();
}

/// Moves frame by frame from turn `from` until a frame with attacks, shields and at least
/// three mobile units is shown.
pub fn go_to_busy_frame(h: &mut Harness<'_, StudioApp>, from: i32) {
    h.state_mut().act(ViewerAction::Seek { turn: from, frame: 0 });
    for _ in 0..3000 {
        let v = &h.state().viewer();
        let busy = v.current().is_some_and(|(_, f)| !f.debug.attacks.is_empty() && f.debug.mobiles.len() >= 3);
        if busy {
            break;
        }
        h.state_mut().act(ViewerAction::Step { forward: true });
    }
    h.run();
}

pub fn tile_pos(h: &Harness<'_, StudioApp>, t: Tile) -> Pos2 {
    h.state().viewer().geometry().expect("board drawn").tile_center(t)
}

/// A free tile of player 1 that is not on an edge, and a free edge tile of player 1.
pub fn free_tiles(h: &Harness<'_, StudioApp>) -> (Tile, Tile) {
    let w = h.state().viewer().board_whatif().expect("what-if");
    let free = |t: &Tile| Player::One.owns(*t) && w.layout.get(*t).is_none();
    let on_edge = |t: &Tile| Edge::ALL.iter().any(|e| e.contains(*t));
    let inner = all_tiles().find(|t| free(t) && !on_edge(t) && t.y >= 4).expect("a free tile");
    let edge = all_tiles()
        .find(|t| free(t) && on_edge(t) && Edge::ALL.iter().any(|e| e.owner() == Player::One && e.contains(*t)));
    (inner, edge.expect("a free edge tile"))
}

/// Builds a what-if on the board: a turret and two scouts for player 1.
pub fn edit_on_board(h: &mut Harness<'_, StudioApp>) -> (Tile, Tile) {
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

/// True when the shown frame has a turret of player 1 on `tile`.
pub fn shows_turret_at(h: &Harness<'_, StudioApp>, tile: Tile) -> bool {
    let (_, v) = h.state().viewer().current().expect("a frame");
    v.frame.units_of(Player::One).get(2).is_some_and(|l| l.iter().any(|u| u.tile == tile))
}

/// Opens the replay at turn 5 and runs two tries: 1 = the turn as played, 2 = a turret and two
/// scouts of player 1 edited on the board. Returns the turret's and the scouts' tiles.
pub fn two_tries(h: &mut Harness<'_, StudioApp>, path: PathBuf) -> (Tile, Tile) {
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

/// A label showing exactly `text` exists.
pub fn shows(h: &Harness<'_, StudioApp>, text: &str) -> bool {
    h.query_all_by_label(text).next().is_some()
}
