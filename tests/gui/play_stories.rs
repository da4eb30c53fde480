//! Play and live matches as a person follows them: a turn of yours resolves on the board at
//! the pace and stays recapped in the history; looking back shows a past frame as it was and
//! your plan returns with the present; every refused click is said next to the board in a
//! player's words; a fast match watched at 1× shows every frame; the status line names the
//! algo the match waits for; the end says how it was decided and where the replay is.

use crate::common::corpus::algo;
use crate::common::harness::{
    LARGE, click_at, matches_written_to, pick_seat, step_until, studio_clocked, studio_with, type_into,
};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::Path;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::replay::read_replay;
use terminal_studio::app::StudioApp;
use terminal_studio::app::model::{LivePace, View};
use terminal_studio::app::play::PlayAction;

fn open_play(h: &mut Harness<'static, StudioApp>) {
    h.get_by_label("Play").click();
    h.run_ok();
    assert_eq!(h.state().view(), View::Play);
}

/// You in seat 1 against `opponent`, started.
fn you_against(h: &mut Harness<'static, StudioApp>, opponent: &str) {
    pick_seat(h, 1, "You", None);
    pick_seat(h, 2, "Algo", Some(&algo(opponent)));
    h.get_by_label("Start match").click();
    h.run_ok();
}

fn planning(h: &Harness<'_, StudioApp>) -> Option<(i32, Player)> {
    h.state().play().running().and_then(|m| m.planning())
}

fn wait_for_turn(h: &mut Harness<'_, StudioApp>, turn: i32) {
    step_until(h, 90, &format!("your turn {turn}"), |a| {
        a.play().running().is_some_and(|m| m.planning() == Some((turn, Player::One)))
            && a.play().viewer().board_whatif().is_some()
    });
}

/// Steps a started live match a frame at a time until `done` (which also makes each step's
/// checks) says so; returns the board frames shown, each once in the order shown, and the
/// steps taken.
fn watch_live_match(
    h: &mut Harness<'_, StudioApp>,
    mut done: impl FnMut(&Harness<'_, StudioApp>) -> bool,
) -> (Vec<usize>, usize) {
    let (mut shown, mut steps) = (Vec::new(), 0);
    loop {
        std::thread::sleep(std::time::Duration::from_millis(2));
        h.step();
        steps += 1;
        if let Some(i) = shown_index(h)
            && shown.last() != Some(&i)
        {
            shown.push(i);
        }
        if done(h) {
            return (shown, steps);
        }
        assert!(steps < 20_000, "the match did not end on the board");
    }
}

fn tile_pos(h: &Harness<'_, StudioApp>, t: Tile) -> egui::Pos2 {
    h.state().play().viewer().geometry().expect("board drawn").tile_center(t)
}

fn click_tile(h: &mut Harness<'_, StudioApp>, t: Tile) {
    let pos = tile_pos(h, t);
    click_at(h, pos);
}

fn pick_tool(h: &mut Harness<'_, StudioApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_ok();
}

fn shown_index(h: &Harness<'_, StudioApp>) -> Option<usize> {
    h.state().play().viewer().current().map(|(_, v)| v.index)
}

fn refusal(h: &Harness<'_, StudioApp>) -> String {
    h.state().play().running().and_then(|m| m.refusal().map(str::to_string)).unwrap_or_default()
}

#[test]
fn your_turn_resolves_on_the_board_and_stays_recapped_in_the_history() {
    let out = tempfile::tempdir().expect("tempdir");
    // One step is one frame at 1×: the turn resolving can be counted frame by frame.
    let mut h = studio_clocked(matches_written_to(out.path()), LARGE, 0.125);
    open_play(&mut h);
    you_against(&mut h, "py-builder");
    wait_for_turn(&mut h, 0);
    pick_tool(&mut h, "Turret");
    click_tile(&mut h, Tile::new(13, 6));
    h.get_by_label("End turn").click();
    h.step();

    // The turn resolves on the board frame by frame before turn 1 can be planned.
    assert_eq!(planning(&h), None, "no plan while the turn resolves");
    let mut shown = Vec::new();
    let mut said_resolving = false;
    // Meanwhile the match waits for you, and the status says the plan comes after the turn.
    let mut said_next = false;
    while planning(&h) != Some((1, Player::One)) {
        std::thread::sleep(std::time::Duration::from_millis(5));
        h.step();
        said_resolving |= h.query_by_label_contains("Turn 0 resolving").is_some();
        said_next |= h.state().play().status_line().is_some_and(|l| l.contains("Your turn 1 is next"));
        if let Some(i) = shown_index(&h)
            && shown.last() != Some(&i)
        {
            shown.push(i);
        }
        assert!(shown.len() < 2000, "turn 1 never came");
    }
    h.run_ok();
    assert!(said_resolving, "the panel said the turn was resolving");
    assert!(said_next, "the status said turn 1 comes next");
    let replay_path = h.state().play().running().and_then(|m| m.replay_path().map(Path::to_path_buf)).expect("replay");
    let r = read_replay(&replay_path).expect("the replay so far");
    let turn0_actions = r.frames.iter().filter(|f| f.turn_info.turn == 0 && f.turn_info.action_frame >= 0).count();
    assert!(turn0_actions > 5, "turn 0 has an action phase ({turn0_actions} frames)");
    let want: Vec<usize> = (0..=turn0_actions + 1).collect();
    assert_eq!(shown, want, "turn 0, each of its {turn0_actions} action frames in turn, then turn 1");
    // Its recap stays with the turn.
    assert!(h.query_by_label_contains("Turn 0: ").is_some(), "turn 0's recap is in the history");

    // Looking back: the past frame as it was, the plan kept; back to the present, the plan returns.
    pick_tool(&mut h, "Wall");
    click_tile(&mut h, Tile::new(10, 10));
    let plan = h.state().play().planned_commands().expect("a plan");
    assert_eq!(plan.0.len(), 1, "{plan:?}");
    h.get_by_label("<").click();
    h.run_ok();
    h.run_ok();
    assert!(h.state().play().viewer().board_whatif().is_none(), "a past frame shows no plan");
    assert!(h.query_by_label("Back to your turn").is_some());
    h.get_by_label("Back to your turn").click();
    for _ in 0..5 {
        h.step();
    }
    h.run_ok();
    assert!(h.state().play().viewer().board_whatif().is_some(), "the plan is back with the present");
    assert_eq!(h.state().play().planned_commands(), Some(plan), "the plan is as it was left");

    // Replaying a turn from the history plays it on the board.
    h.get_by_label_contains("Turn 0: ").click();
    h.run_ok();
    assert_eq!(h.state().play().viewer().turn(), Some(0), "turn 0 is shown again");
    assert!(h.state().play().viewer().playing(), "and played");

    // Stopped, the replay keeps the seats' names.
    h.get_by_label("Stop match").click();
    h.run_ok();
    step_until(&mut h, 30, "the match to stop", |a| !a.play().is_running());
    h.get_by_label("Open in Debugger").click();
    h.run_ok();
    step_until(&mut h, 30, "the replay open in the Debugger", |a| a.viewer().summary().is_some());
    let names = h.state().viewer().summary().map(|s| s.names.clone()).expect("summary");
    assert_eq!(names, ["You".to_string(), "py-builder".to_string()]);
}

#[test]
fn every_refused_click_is_said_next_to_the_board_in_a_players_words() {
    let out = tempfile::tempdir().expect("tempdir");
    let mut h = studio_with(matches_written_to(out.path()), LARGE, None, false);
    open_play(&mut h);
    you_against(&mut h, "py-idle");
    wait_for_turn(&mut h, 0);
    let refused = |h: &Harness<'_, StudioApp>, words: &str| {
        let r = refusal(h);
        assert!(r.contains(words), "refusal {r:?} should say {words:?}");
        assert!(h.query_by_label_contains(&format!("Refused: {r}")).is_some(), "shown beside the board: {r}");
    };
    pick_tool(&mut h, "Turret");
    click_tile(&mut h, Tile::new(13, 20));
    refused(&h, "is on the other half: player 1 builds on rows 0-13");
    // Beside the diamond (left of its left corner, four rows up) is not a tile: said, and the
    // old refusal goes.
    let (left, next) = (tile_pos(&h, Tile::new(0, 13)), tile_pos(&h, Tile::new(1, 13)));
    let tile = next.x - left.x;
    click_at(&mut h, left - egui::vec2(0.0, 4.0 * tile));
    refused(&h, "off the board");
    click_tile(&mut h, Tile::new(13, 6));
    click_tile(&mut h, Tile::new(13, 6));
    refused(&h, "13,6 is taken");
    pick_tool(&mut h, "Scout");
    click_tile(&mut h, Tile::new(13, 6));
    refused(&h, "is not an edge");
    // Turrets until the SP run out: the one too many is taken back, with its price.
    pick_tool(&mut h, "Turret");
    for x in 3..26 {
        click_tile(&mut h, Tile::new(x, 12));
        if refusal(&h).starts_with("Not enough SP") {
            break;
        }
    }
    refused(&h, "Not enough SP");
    refused(&h, "a Turret costs");
    let check = h.state().play().running().and_then(|m| m.check().cloned()).expect("checked").expect("check ran");
    assert!(check.rejected.is_empty() && check.sp_spent <= check.sp, "the refused edit is not in the plan: {check:?}");
    // Scouts until the MP run out.
    pick_tool(&mut h, "Scout");
    for _ in 0..30 {
        click_tile(&mut h, Tile::new(3, 10));
        if refusal(&h).starts_with("Not enough MP") {
            break;
        }
    }
    refused(&h, "Not enough MP");
    refused(&h, "you have 0 left");
}

/// A person plays nothing here: both seats are algos, watched at 1×.
#[test]
fn a_fast_match_watched_at_1x_shows_every_frame_from_turn_0_to_the_end() {
    let out = tempfile::tempdir().expect("tempdir");
    // One step is one frame at 1× (8 frames a second).
    let mut h = studio_clocked(matches_written_to(out.path()), LARGE, 0.125);
    open_play(&mut h);
    assert_eq!(h.state().play().viewer().live_pace(), LivePace::Normal, "live matches are shown at 1×");
    for (i, name) in ["py-builder", "py-random"].iter().enumerate() {
        pick_seat(&mut h, i + 1, "Algo", Some(&algo(name)));
    }
    h.run_ok();
    h.get_by_label("Start match").click();
    let mut over_before_the_board = false;
    let (shown, steps) = watch_live_match(&mut h, |h| {
        let p = h.state().play();
        if !p.is_running() && p.viewer().caught_up() {
            return true;
        }
        if !p.is_running() && p.viewer().frames_queued() > 0 {
            // The algos finished long before the board: the result waits for it.
            over_before_the_board = true;
            assert!(h.query_by_label_contains("won on HP").is_none(), "the result is not told ahead of the board");
            assert!(h.query_by_label_contains("(winner)").is_none(), "nor the winner marked");
        }
        false
    });
    assert!(over_before_the_board, "the match ended while the board was still showing it");
    let replay = h.state().play().finished_replay().map(Path::to_path_buf).expect("finished replay");
    let r = read_replay(&replay).expect("replay");
    // The end frame is the result, said beside the board; every other frame is on the board.
    assert!(r.frames.last().is_some_and(|f| f.end_stats.is_some()), "the replay ends with its end frame");
    let frames = r.frames.len() - 1;
    let want: Vec<usize> = (0..frames).collect();
    assert_eq!(shown, want, "every frame shown once, in order ({frames} frames)");
    assert!(steps >= frames - 1, "at 1× the board took a step per frame ({steps} steps for {frames} frames)");

    // The end: how it was decided, and where the replay is.
    h.run_ok();
    let message = h.state().play().message().to_string();
    assert!(message.contains("Match over") && message.contains("won on HP"), "{message}");
    assert_eq!(h.query_all_by_label_contains("won on HP").count(), 2, "the decision above and beside the board");
    assert!(h.query_by_label(&replay.display().to_string()).is_some(), "the replay's location is shown");
    assert!(h.query_by_label("Open in Debugger").is_some());
}

/// The seconds the status line says the match has waited for an algo ("… thinking: 1.2 s").
fn seconds_waited(app: &StudioApp) -> Option<f64> {
    let line = app.play().status_line()?;
    line.split("thinking: ").nth(1)?.split(" s").next()?.trim().parse().ok()
}

#[test]
fn the_status_line_names_the_algo_the_match_waits_for_and_its_limits() {
    let out = tempfile::tempdir().expect("tempdir");
    let mut h = studio_with(matches_written_to(out.path()), LARGE, None, false);
    open_play(&mut h);
    for (i, name) in ["py-builder", "py-hang"].iter().enumerate() {
        pick_seat(&mut h, i + 1, "Algo", Some(&algo(name)));
    }
    h.state_mut().act(PlayAction::SetPace(LivePace::AsItComes));
    h.run_ok();
    h.get_by_label("Start match").click();
    h.run_ok();
    // py-hang answers turn 0, then hangs on turn 1.
    step_until(&mut h, 60, "the wait for py-hang on turn 1", |a| {
        a.play().running().and_then(|m| m.waiting()).is_some_and(|w| w.turn == 1 && w.replied[0].is_some())
    });
    // The time waited counts up on the status line.
    step_until(&mut h, 10, "a second waited for py-hang", |a| seconds_waited(a).is_some_and(|s| s >= 1.0));
    assert!(h.query_by_label_contains("P2 py-hang thinking: ").is_some(), "the status names the algo it waits for");
    let line = h.state().play().status_line().expect("a status line");
    assert!(line.contains("soft limit 5 s") && line.contains("hard 35 s"), "{line}");
    assert!(line.contains("turn 1,"), "the turn the match is on: {line}");
    h.get_by_label("Stop match").click();
    h.run_ok();
    step_until(&mut h, 30, "the match to stop", |a| !a.play().is_running());
}

/// Turrets right to left along a row until the SP run out: each new one sorts before those
/// placed, so the engine's check of the whole plan refuses another tile than the one clicked.
/// The refusal names the tile clicked.
#[test]
fn a_refusal_names_the_tile_clicked() {
    let out = tempfile::tempdir().expect("tempdir");
    let mut h = studio_with(matches_written_to(out.path()), LARGE, None, false);
    open_play(&mut h);
    you_against(&mut h, "py-idle");
    wait_for_turn(&mut h, 0);
    pick_tool(&mut h, "Turret");
    let mut refused_at = None;
    for x in (1..=26).rev() {
        click_tile(&mut h, Tile::new(x, 12));
        if refusal(&h).starts_with("Not enough SP") {
            refused_at = Some(x);
            break;
        }
    }
    let x = refused_at.unwrap_or_else(|| panic!("the SP never ran out along row 12: {:?}", refusal(&h)));
    let r = refusal(&h);
    assert!(r.starts_with(&format!("Not enough SP at {x},12:")), "the tile clicked is {x},12: {r}");
    assert!(h.query_by_label_contains(&format!("Refused: Not enough SP at {x},12")).is_some(), "shown: {r}");
}

/// The pace is picked in the form before Start; at "as it comes" a fast algo-against-algo
/// match still shows its last turn frame by frame, and the result waits for its last frame.
#[test]
fn the_pace_is_chosen_before_the_start_and_every_pace_shows_the_last_turn() {
    let out = tempfile::tempdir().expect("tempdir");
    // One step is one frame at 4×, the pace of a decided match's last turn "as it comes".
    let mut h = studio_clocked(matches_written_to(out.path()), LARGE, 1.0 / 32.0);
    open_play(&mut h);
    for (i, name) in ["py-builder", "py-random"].iter().enumerate() {
        pick_seat(&mut h, i + 1, "Algo", Some(&algo(name)));
    }
    h.run_ok();
    h.get_by_label("Pace").click();
    h.run_ok();
    h.get_by_label("as it comes").click();
    h.run_ok();
    assert_eq!(h.state().play().viewer().live_pace(), LivePace::AsItComes, "the pace picked in the form");
    h.get_by_label("Start match").click();
    let (shown, _) = watch_live_match(&mut h, |h| {
        let p = h.state().play();
        if h.query_all_by_label_contains("won on HP").next().is_some() {
            let last = p.viewer().summary().map_or(0, |s| s.turns.last().map_or(0, |t| t.start + t.frames));
            assert_eq!(shown_index(h).map(|i| i + 1), Some(last), "the result is told on the board's last frame");
        }
        !p.is_running() && p.board_reached_the_end()
    });
    h.run_ok();
    let replay = h.state().play().finished_replay().map(Path::to_path_buf).expect("finished replay");
    let r = read_replay(&replay).expect("replay");
    let frames = r.frames.len() - 1;
    let last_turn = r.frames[frames - 1].turn_info.turn;
    let first_of_last = r.frames.iter().position(|f| f.turn_info.turn == last_turn).expect("the last turn");
    let want: Vec<usize> = (first_of_last..frames).collect();
    assert!(shown.ends_with(&want), "the last turn (frames {first_of_last}..{frames}) shown frame by frame: {shown:?}");
    let (_, view) = h.state().play().viewer().current().cloned().expect("a frame on the board");
    assert_eq!(view.frame.stats, r.frames[frames - 1].stats, "the board ends on the match's last frame");
    assert!(h.query_all_by_label_contains("won on HP").next().is_some(), "the result is told");
}

/// A whole turn from the keyboard, with the command table's keys: a turret (3), a scout (4),
/// Ctrl+Z takes the scout back, Enter ends the turn; F1 lists them for the Play view.
#[test]
fn a_turn_is_played_from_the_keyboard() {
    use egui::{Key, Modifiers};
    use terminal_studio::app::model::Tool;
    use terminal_studio::app::viewer::whatif_board::BoardTool;
    let out = tempfile::tempdir().expect("tempdir");
    let mut h = studio_with(matches_written_to(out.path()), LARGE, None, false);
    open_play(&mut h);
    you_against(&mut h, "py-idle");
    wait_for_turn(&mut h, 0);
    let tool = |h: &Harness<'_, StudioApp>| h.state().play().viewer().board_whatif().map(|w| w.tool);
    h.key_press(Key::Num3);
    h.run_ok();
    assert_eq!(tool(&h), Some(BoardTool::Structure(Tool::Place(terminal_core::layout::Kind::Turret))), "3: Turret");
    click_tile(&mut h, Tile::new(13, 6));
    h.key_press(Key::Num4);
    h.run_ok();
    assert_eq!(tool(&h), Some(BoardTool::Deploy(3)), "4: Scout");
    click_tile(&mut h, Tile::new(3, 10));
    let (build, deploy) = h.state().play().planned_commands().expect("a plan");
    assert_eq!((build.len(), deploy.len()), (1, 1), "a turret and a scout planned");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_ok();
    let (build, deploy) = h.state().play().planned_commands().expect("a plan");
    assert_eq!((build.len(), deploy.len()), (1, 0), "Ctrl+Z took the scout back");
    h.key_press(Key::Enter);
    h.run_ok();
    wait_for_turn(&mut h, 1);
    let replay_path = h.state().play().running().and_then(|m| m.replay_path().map(Path::to_path_buf)).expect("replay");
    let r = read_replay(&replay_path).expect("the replay so far");
    let turn1 = r.frames.iter().find(|f| f.turn_info.turn == 1).expect("turn 1's frame");
    let turret = turn1.units_of(Player::One)[2].iter().any(|u| u.tile == Tile::new(13, 6));
    assert!(turret, "Enter sent the turret");
    h.key_press(Key::F1);
    h.run_ok();
    for (key, label) in [("3", "Turret tool"), ("4", "Scout tool"), ("Enter", "End turn")] {
        let row = terminal_studio::app::command::help::rows(View::Play).into_iter().find(|r| r.1 == label);
        assert!(row.as_ref().is_some_and(|r| r.0 == key), "F1 lists {key} for {label} in Play: {row:?}");
    }
    // The help lists Stop match too: closed first.
    h.key_press(Key::F1);
    h.run_ok();
    h.get_by_label("Stop match").click();
    h.run_ok();
}

/// At 1000×700 a seat's field shows the whole path typed in it, and Start is on screen.
#[test]
fn a_seat_field_shows_the_whole_path_at_1000x700() {
    let out = tempfile::tempdir().expect("tempdir");
    let mut h = studio_with(matches_written_to(out.path()), egui::vec2(1000.0, 700.0), None, false);
    open_play(&mut h);
    pick_seat(&mut h, 1, "Algo", None);
    pick_seat(&mut h, 2, "Ghost", None);
    let algo_path = algo("py-sim-attacker-off").display().to_string();
    let ghost = crate::common::corpus::first_of("base-s6").canonicalize().expect("a replay of base-s6");
    let ghost_path = ghost.display().to_string();
    type_into(&mut h, "Seat 1 algo", &algo_path);
    type_into(&mut h, "Seat 2 replay", &ghost_path);
    for (label, text) in [("Seat 1 algo", &algo_path), ("Seat 2 replay", &ghost_path)] {
        let field = h.get_by_label(label).rect();
        let needed = h.ctx.fonts_mut(|f| {
            f.layout_no_wrap(text.clone(), egui::FontId::proportional(14.0), egui::Color32::WHITE).size().x
        });
        assert!(field.width() >= needed, "{label} is {} px wide for a path of {needed} px", field.width());
        assert!(field.right() <= 1000.0, "{label} ends on screen at {}", field.right());
    }
    let start = h.get_by_label("Start match").rect();
    assert!(start.bottom() < 700.0 && start.right() <= 1000.0, "Start match on screen: {start:?}");
}

/// Play's messages: one line that never moves the board, its own (not another tab's), and
/// gone when stale — a new turn, the match's end.
#[test]
fn plays_messages_never_move_the_board_and_go_when_stale() {
    let out = tempfile::tempdir().expect("tempdir");
    let mut h = studio_with(matches_written_to(out.path()), egui::vec2(1000.0, 700.0), None, false);
    open_play(&mut h);
    pick_seat(&mut h, 2, "Algo", None);
    let board = |h: &Harness<'_, StudioApp>| h.state().play().viewer().geometry().map(|g| g.rect);
    let before = board(&h).expect("the empty board is drawn");
    let missing = format!("/no/such/folder/{}/algo", "a-very-long-folder-name".repeat(8));
    type_into(&mut h, "Seat 2 algo", &missing);
    h.get_by_label("Start match").click();
    h.run_ok();
    let message = h.state().play().message().to_string();
    assert!(message.starts_with("Seat 2:") && message.contains("a-very-long"), "{message}");
    assert!(h.query_by_label_contains("Seat 2: ").is_some(), "the message is shown");
    assert_eq!(board(&h), Some(before), "a long message does not move the board");
    // Another tab shows its own message, not Play's; Play's is still there on return.
    h.get_by_label("Editor").click();
    h.run_ok();
    assert!(h.query_by_label_contains("Seat 2: ").is_none(), "Play's message is not the Editor's");
    h.get_by_label("Play").click();
    h.run_ok();
    assert!(h.query_by_label_contains("Seat 2: ").is_some(), "Play's message is Play's own");

    type_into(&mut h, "Seat 2 algo", &algo("py-idle").display().to_string());
    h.get_by_label("Start match").click();
    h.run_ok();
    wait_for_turn(&mut h, 0);
    h.get_by_label("End turn").click();
    // One frame only: a quick algo's next turn may already arrive within run_ok's frames and,
    // rightly, clear this message.
    h.step();
    assert!(h.state().play().message().contains("Turn 0 sent"), "{}", h.state().play().message());
    wait_for_turn(&mut h, 1);
    let message = h.state().play().message().to_string();
    assert!(!message.contains("Turn 0 sent"), "a new turn clears the message of the turn before: {message}");
    h.get_by_label("Stop match").click();
    h.run_ok();
    step_until(&mut h, 30, "the match to stop", |a| !a.play().is_running() && a.play().board_reached_the_end());
    let message = h.state().play().message().to_string();
    assert!(message.starts_with("Match stopped, You vs py-"), "stopped by the person: {message}");
}

/// The planner on your turn: its best deploys go into your plan with one click and, sent, the
/// match's turn ends as it predicted (an idle opponent builds nothing the planner could not
/// know of).
#[test]
fn the_planners_best_attack_goes_into_your_turn_and_plays_as_predicted() {
    let out = tempfile::tempdir().expect("tempdir");
    let mut h = studio_clocked(matches_written_to(out.path()), LARGE, 0.125);
    open_play(&mut h);
    you_against(&mut h, "py-idle");
    wait_for_turn(&mut h, 0);
    pick_tool(&mut h, "Turret");
    click_tile(&mut h, Tile::new(13, 6));
    h.get_by_label("Plan attack").click();
    h.step();
    step_until(&mut h, 120, "the planner's search", |a| !a.play().viewer().is_planning());
    let v = h.state().play().viewer();
    let (turn, seat, candidates) = v.planned().unwrap_or_else(|| panic!("no plan: {:?}", v.plan_error()));
    assert_eq!((turn, seat), (0, Player::One));
    let best = candidates.first().cloned().unwrap_or_else(|| panic!("no candidate"));
    assert!(best.damage > 0.0, "an empty board lets every unit through: {best:?}");
    h.get_all_by_label("Use").next().unwrap_or_else(|| panic!("no Use button")).click();
    h.run_ok();
    let (build, deploy) = h.state().play().planned_commands().expect("a plan");
    assert_eq!(build.len(), 1, "the turret stays");
    assert_eq!(deploy, best.deploy(), "the plan's deploys are the candidate's");

    h.get_by_label("End turn").click();
    h.step();
    wait_for_turn(&mut h, 1);
    // The candidates were for turn 0's board: the next turn does not show them.
    assert!(h.state().play().viewer().planned().is_none(), "last turn's candidates are gone");
    assert!(h.query_all_by_label("Use").next().is_none(), "no Use button of last turn's candidates");
    let replay_path = h.state().play().running().and_then(|m| m.replay_path().map(Path::to_path_buf)).expect("replay");
    let r = read_replay(&replay_path).expect("the replay so far");
    let breaches: Vec<_> = r
        .frames
        .iter()
        .filter(|f| f.turn_info.turn == 0)
        .flat_map(|f| f.events.breach.iter())
        .filter(|b| b.owner == Player::One)
        .collect();
    let damage: f32 = breaches.iter().map(|b| b.damage).sum();
    assert_eq!((breaches.len() as u32, damage), (best.breaches, best.damage), "the turn as played in the match");
}

/// A replay open in the Debugger is played against from the Playback menu: the Play view
/// starts you in seat 1 against its player 2 as a ghost, in its ruleset; the ghost's name is
/// in the match; a turn of yours plays; Ctrl+Shift+X stops the match and its replay keeps the
/// turns played, exactly as the engine plays them.
#[test]
fn the_replay_in_the_debugger_is_played_against_from_the_playback_menu() {
    use egui::{Key, Modifiers};
    use terminal_studio::app::command::{Command, FileCommand};
    let out = tempfile::tempdir().expect("tempdir");
    let mut h = studio_with(matches_written_to(out.path()), LARGE, None, false);
    let recorded = crate::common::corpus::replay(crate::common::corpus::BUSY);
    h.state_mut().apply(Command::File(FileCommand::OpenReplay(recorded.clone())));
    h.run_ok();
    h.get_by_label("Playback").click();
    h.run_ok();
    h.get_by_label_contains("Play against this replay").click();
    h.run_ok();
    assert_eq!(h.state().view(), View::Play);
    wait_for_turn(&mut h, 0);
    let seats = h.state().play().seats().clone();
    assert_eq!(seats[1].path, recorded.display().to_string(), "seat 2 is the replay's ghost");
    assert_eq!(seats[1].ghost_player, Some(Player::Two));
    let names = h.state().play().running().map(|m| m.names().clone()).expect("a match");
    assert_eq!(names[0], "You");
    assert!(names[1].starts_with("ghost-"), "the ghost plays under its recorded name: {names:?}");
    h.key_press(Key::Enter);
    h.run_ok();
    wait_for_turn(&mut h, 1);
    h.key_press_modifiers(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::X);
    h.run_ok();
    step_until(&mut h, 30, "the match stopped", |a| !a.play().is_running());
    let said = h.state().play().message().to_string();
    assert!(said.starts_with("Match stopped, You vs ghost-") && said.contains("at turn 1"), "{said}");
    let path = h.state().play().finished_replay().expect("the stopped match's replay").to_path_buf();
    let report = terminal_core::verify::verify_file(&path);
    assert_eq!(report.status, terminal_core::verify::Status::Exact, "{report:?}");
    let played = read_replay(&path).expect("the replay");
    assert!(played.frames.iter().any(|f| f.turn_info.turn == 1), "turn 1 was sent");
    // Without a replay, the command says what it needs.
    let mut fresh = studio_with(matches_written_to(out.path()), LARGE, None, false);
    fresh.get_by_label("Debugger").click();
    fresh.run_ok();
    fresh.key_press_modifiers(Modifiers::COMMAND, Key::G);
    fresh.run_ok();
    assert_eq!(fresh.state().view(), View::Debugger);
    let said = fresh.state().viewer().message();
    assert!(said.contains("No replay to play against"), "{said}");
}

/// Their threat: on your turn, the opponent's strongest attack against the base you are about
/// to send, with its MP now and with what it will have next turn; the best attack's walks are
/// drawn at once, and none of its rows can go into your plan.
#[test]
fn their_threat_is_searched_against_the_base_about_to_be_sent() {
    let out = tempfile::tempdir().expect("tempdir");
    let mut h = studio_clocked(matches_written_to(out.path()), LARGE, 0.125);
    open_play(&mut h);
    you_against(&mut h, "py-idle");
    wait_for_turn(&mut h, 0);
    pick_tool(&mut h, "Wall");
    click_tile(&mut h, Tile::new(13, 13));
    for (button, next_turn) in [("Their threat now", false), ("Their threat next turn", true)] {
        h.get_by_label(button).click();
        h.step();
        step_until(&mut h, 120, "the threat's search", |a| !a.play().viewer().is_planning());
        let v = h.state().play().viewer();
        let (turn, seat, candidates) = v.planned().unwrap_or_else(|| panic!("no threat: {:?}", v.plan_error()));
        assert_eq!((turn, seat), (0, Player::Two), "the opponent attacks");
        let best = candidates.first().cloned().unwrap_or_else(|| panic!("no attack of theirs"));
        assert!(best.damage > 0.0, "a base of one wall lets their units through: {best:?}");
        assert_eq!(v.planned_hover().map(|(i, _)| i), Some(0), "the best attack's walks are drawn");
        let config = h.state().play().running().expect("the match").config().clone();
        // At turn 0 each player holds the ruleset's starting MP.
        let now = config.resources.starting_mp;
        let mp = if next_turn { config.mp_at_start_of(1, now) } else { now };
        let said = format!("Their threat: with {mp:.1} MP the opponent's best takes {:.0} HP", best.damage);
        assert!(h.query_by_label_contains(&said).is_some(), "the panel says it: {said}");
        assert!(h.query_all_by_label("Use").next().is_none(), "their attacks do not go into your plan");
    }
    // The wall is in the base searched against: the plan is untouched.
    let (build, deploy) = h.state().play().planned_commands().expect("a plan");
    assert_eq!((build.len(), deploy.len()), (1, 0));
}
