//! No replay and no worker can take the studio down or leave it waiting: a replay that lies is
//! refused in the window with the frame and the tile, and a panic in the simulation worker
//! reaches the window with what the worker was doing, while the replay stays usable.

use egui::Key;
use egui_kittest::kittest::Queryable;

use crate::common::corpus::{BUSY, replay};
use crate::common::harness::{LARGE, studio};
use crate::common::lying::write_lying_replay;
use terminal_core::session::Request;
use terminal_studio::app::command::{Command, FileCommand};

#[test]
fn a_replay_with_a_unit_off_the_board_is_refused_naming_the_frame_and_the_tile() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (path, line) = write_lying_replay(dir.path());
    let mut h = studio(LARGE, None, false);
    h.state_mut().apply(Command::File(FileCommand::OpenReplay(path)));
    h.run();
    let message = h.state().viewer().message().to_string();
    assert!(message.starts_with("Could not open"), "not an endless Opening…: {message}");
    assert!(message.contains(&format!(":{line}")), "the line: {message}");
    assert!(message.contains("turn 1") && message.contains("[40,40]"), "the frame and the tile: {message}");
    assert!(h.query_all_by_label_contains("[40,40]").next().is_some(), "shown in the window");
}

#[test]
fn a_panic_in_the_simulation_worker_is_reported_in_the_window_and_the_replay_goes_on() {
    let mut h = studio(LARGE, None, false);
    h.state_mut().apply(Command::File(FileCommand::OpenReplay(replay(BUSY))));
    h.run();
    let frame = h.state().viewer().current().map(|(_, f)| f.index);
    h.state_mut().send_debugger_request(Request::PanicForTest("broken on purpose".into()));
    h.run();
    let message = h.state().viewer().message().to_string();
    assert!(message.contains("broken on purpose"), "the panic's message: {message}");
    assert!(message.contains("panic"), "says it was a panic: {message}");
    assert!(h.query_all_by_label_contains("broken on purpose").next().is_some(), "shown in the window");
    // The worker goes on: the replay still steps.
    h.key_press(Key::ArrowRight);
    h.run();
    assert_eq!(h.state().viewer().current().map(|(_, f)| f.index), frame.map(|i| i + 1));
}
