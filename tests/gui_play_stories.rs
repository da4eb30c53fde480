//! Play and live matches as a person follows them: a turn of yours resolves on the board at
//! the pace and stays recapped in the history; looking back shows a past frame as it was and
//! your plan returns with the present; every refused click is said next to the board in a
//! player's words; a fast match watched at 1× shows every frame; the status line names the
//! algo the match waits for; the end says how it was decided and where the replay is.

mod common;
use common::corpus::algo;
use common::harness::{LARGE, click_at, step_until, studio, studio_clocked, type_into};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::replay::read_replay;
use terminal_studio::app::StudioApp;
use terminal_studio::app::model::{LivePace, View};
use terminal_studio::app::play::SeatKind;

fn open_play(h: &mut Harness<'static, StudioApp>, out: &std::path::Path) {
    h.state_mut().play_mut().out_dir = out.to_path_buf();
    h.get_by_label("Play").click();
    h.run_ok();
    assert_eq!(h.state().view(), View::Play);
}

/// You in seat 1 against `opponent`, started.
fn you_against(h: &mut Harness<'static, StudioApp>, opponent: &str) {
    h.state_mut().play_mut().seats[0].kind = SeatKind::Human;
    h.state_mut().play_mut().seats[1].kind = SeatKind::Algo;
    h.run_ok();
    type_into(h, "Seat 2 algo", &algo(opponent).display().to_string());
    h.get_by_label("Start match").click();
    h.run_ok();
}

fn planning(h: &Harness<'_, StudioApp>) -> Option<(i32, Player)> {
    h.state().play().running.as_ref().and_then(|m| m.planning)
}

fn wait_for_turn(h: &mut Harness<'_, StudioApp>, turn: i32) {
    step_until(h, 90, &format!("your turn {turn}"), |a| {
        a.play().running.as_ref().is_some_and(|m| m.planning == Some((turn, Player::One)))
            && a.play().viewer.board_whatif().is_some()
    });
}

fn tile_pos(h: &Harness<'_, StudioApp>, t: Tile) -> egui::Pos2 {
    h.state().play().viewer.geometry().expect("board drawn").tile_center(t)
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
    h.state().play().viewer.current().map(|(_, v)| v.index)
}

fn refusal(h: &Harness<'_, StudioApp>) -> String {
    h.state().play().running.as_ref().and_then(|m| m.refusal.clone()).unwrap_or_default()
}

#[test]
fn your_turn_resolves_on_the_board_and_stays_recapped_in_the_history() {
    let out = tempfile::tempdir().expect("tempdir");
    // One step is one frame at 1×: the turn resolving can be counted frame by frame.
    let mut h = studio_clocked(LARGE, 0.125);
    open_play(&mut h, out.path());
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
    let replay_path = h.state().play().running.as_ref().and_then(|m| m.replay_path.clone()).expect("replay");
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
    assert!(h.state().play().viewer.board_whatif().is_none(), "a past frame shows no plan");
    assert!(h.query_by_label("Back to your turn").is_some());
    h.get_by_label("Back to your turn").click();
    for _ in 0..5 {
        h.step();
    }
    h.run_ok();
    assert!(h.state().play().viewer.board_whatif().is_some(), "the plan is back with the present");
    assert_eq!(h.state().play().planned_commands(), Some(plan), "the plan is as it was left");

    // Replaying a turn from the history plays it on the board.
    h.get_by_label_contains("Turn 0: ").click();
    h.run_ok();
    assert_eq!(h.state().play().viewer.turn(), Some(0), "turn 0 is shown again");
    assert!(h.state().play().viewer.playing(), "and played");

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
    let mut h = studio(LARGE, None, false);
    open_play(&mut h, out.path());
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
    let check = h.state().play().running.as_ref().and_then(|m| m.check.clone()).expect("checked").expect("check ran");
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
    let mut h = studio_clocked(LARGE, 0.125);
    open_play(&mut h, out.path());
    assert_eq!(h.state().play().viewer.live_pace(), LivePace::Normal, "live matches are shown at 1×");
    for (i, name) in ["py-builder", "py-random"].iter().enumerate() {
        h.state_mut().play_mut().seats[i].kind = SeatKind::Algo;
        h.state_mut().play_mut().seats[i].path = algo(name).display().to_string();
    }
    h.run_ok();
    h.get_by_label("Start match").click();
    let mut shown: Vec<usize> = Vec::new();
    let mut steps = 0;
    let mut over_before_the_board = false;
    loop {
        std::thread::sleep(std::time::Duration::from_millis(2));
        h.step();
        steps += 1;
        if let Some(i) = shown_index(&h)
            && shown.last() != Some(&i)
        {
            shown.push(i);
        }
        let p = h.state().play();
        if !p.is_running() && p.viewer.caught_up() {
            break;
        }
        if !p.is_running() && p.viewer.frames_queued() > 0 {
            // The algos finished long before the board: the result waits for it.
            over_before_the_board = true;
            assert!(h.query_by_label_contains("won on HP").is_none(), "the result is not told ahead of the board");
            assert!(h.query_by_label_contains("(winner)").is_none(), "nor the winner marked");
        }
        assert!(steps < 20_000, "the match did not end on the board");
    }
    assert!(over_before_the_board, "the match ended while the board was still showing it");
    let replay = h.state().play().finished_replay.clone().expect("finished replay");
    let r = read_replay(&replay).expect("replay");
    // The end frame is the result, said beside the board; every other frame is on the board.
    assert!(r.frames.last().is_some_and(|f| f.end_stats.is_some()), "the replay ends with its end frame");
    let frames = r.frames.len() - 1;
    let want: Vec<usize> = (0..frames).collect();
    assert_eq!(shown, want, "every frame shown once, in order ({frames} frames)");
    assert!(steps as usize >= frames - 1, "at 1× the board took a step per frame ({steps} steps for {frames} frames)");

    // The end: how it was decided, and where the replay is.
    h.run_ok();
    let message = h.state().play().message.clone();
    assert!(message.contains("Match over") && message.contains("won on HP"), "{message}");
    assert_eq!(h.query_all_by_label_contains("won on HP").count(), 2, "the decision above and beside the board");
    assert!(h.query_by_label(&replay.display().to_string()).is_some(), "the replay's location is shown");
    assert!(h.query_by_label("Open in Debugger").is_some());
}

#[test]
fn the_status_line_names_the_algo_the_match_waits_for_and_its_limits() {
    let out = tempfile::tempdir().expect("tempdir");
    let mut h = studio(LARGE, None, false);
    open_play(&mut h, out.path());
    for (i, name) in ["py-builder", "py-hang"].iter().enumerate() {
        h.state_mut().play_mut().seats[i].kind = SeatKind::Algo;
        h.state_mut().play_mut().seats[i].path = algo(name).display().to_string();
    }
    h.state_mut().play_mut().viewer.set_live_pace(LivePace::AsItComes);
    h.run_ok();
    h.get_by_label("Start match").click();
    h.run_ok();
    // py-hang answers turn 0, then hangs on turn 1.
    step_until(&mut h, 60, "the wait for py-hang on turn 1", |a| {
        a.play()
            .running
            .as_ref()
            .and_then(|m| m.waiting.as_ref())
            .is_some_and(|w| w.turn == 1 && w.replied[0].is_some())
    });
    std::thread::sleep(std::time::Duration::from_millis(1200));
    h.step();
    h.run_ok();
    assert!(h.query_by_label_contains("P2 py-hang thinking: ").is_some(), "the status names the algo it waits for");
    let line = h.state().play().status_line().expect("a status line");
    assert!(line.contains("soft limit 5 s") && line.contains("hard 35 s"), "{line}");
    let waited: f64 = line
        .split("thinking: ")
        .nth(1)
        .and_then(|s| s.split(" s").next())
        .and_then(|s| s.trim().parse().ok())
        .expect("seconds");
    assert!(waited >= 1.0, "the time counts up: {line}");
    assert!(line.contains("turn 1,"), "the turn the match is on: {line}");
    h.get_by_label("Stop match").click();
    h.run_ok();
    step_until(&mut h, 30, "the match to stop", |a| !a.play().is_running());
}
