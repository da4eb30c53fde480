//! Ghost seats: the two recorded players of a real replay, seated against each other,
//! reproduce it frame for frame through the runner (units, ids, health, stats, events); a
//! ghost against a real algo plays to the end, its rejected commands logged; played inline,
//! a step at a time, against a ghost or a person.

#[path = "../../tests/common/corpus.rs"]
mod corpus;
use corpus::{CURRENT_RULESETS, algo, first_of, replays};
use std::sync::Arc;
use terminal_core::engine::commands::Command;
use terminal_core::engine::frame::Phase;
use terminal_core::engine::geometry::Player;
use terminal_core::runner::ghost::reproduce;
use terminal_core::runner::{
    Ghost, HumanSeat, HumanTurn, MatchEvent, MatchSpec, ReplayTarget, SeatSpec, run_match_blocking, start_match_inline,
};
use terminal_core::verify::{Status, collect_replays, verify_file};

/// A ghost loaded from its file (the action frames' unit lists left unread) holds the same
/// turns as one built from the whole replay: every fourth replay of the corpus, every ruleset.
#[test]
fn a_ghost_loaded_without_the_action_frames_units_is_the_whole_replays_ghost() {
    let mut files = collect_replays(&[replays()]);
    files.sort();
    let sample: Vec<_> = files.iter().step_by(4).collect();
    assert!(sample.len() >= 100, "expected the shared corpus, found {} replays", files.len());
    let mut compared = 0;
    for f in sample {
        let whole = terminal_core::replay::read_replay(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let (from_whole, loaded) = (Ghost::from_replay(&whole, None), Ghost::load(f, None));
        let (a, b) = match (from_whole, loaded) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(a), Err(b)) => {
                assert_eq!(a.to_string(), b.to_string(), "{}", f.display());
                continue;
            }
            (a, b) => panic!("{}: {:?} against {:?}", f.display(), a.map(|_| ()), b.map(|_| ())),
        };
        assert_eq!((a.last_turn(), a.early_2020, &a.names), (b.last_turn(), b.early_2020, &b.names), "{}", f.display());
        assert_eq!(a.config, b.config, "{}", f.display());
        for turn in 0..=a.last_turn() {
            assert_eq!(a.turn(turn), b.turn(turn), "{} turn {turn}", f.display());
        }
        compared += 1;
    }
    assert!(compared >= 90, "{compared} ghosts compared");
}

/// Every current-format replay of the corpus, ghost against ghost, is the replay again.
#[test]
fn ghost_against_ghost_reproduces_every_current_replay() {
    let mut files: Vec<_> = collect_replays(&[replays()])
        .into_iter()
        .filter(|f| terminal_core::replay::read_replay(f).is_ok_and(|r| !r.legacy))
        .collect();
    files.sort();
    assert!(files.len() >= 398, "expected the shared corpus, found {} current replays", files.len());
    for ruleset in CURRENT_RULESETS {
        assert!(files.iter().any(|f| f.starts_with(replays().join(ruleset))), "no {ruleset} replay");
    }
    let out = tempfile::tempdir().expect("tempdir");
    let failures: Vec<String> = std::thread::scope(|s| {
        let (a, b) = files.split_at(files.len() / 2);
        let out = out.path();
        let run = move |part: &[std::path::PathBuf]| {
            part.iter()
                .filter_map(|f| match reproduce(f, out) {
                    Ok((_, m)) if m.is_exact() => None,
                    Ok((_, m)) => Some(format!(
                        "{}: {}/{} frames exact; first difference at frame {}",
                        f.display(),
                        m.frames_exact,
                        m.frames_total,
                        m.first_difference.map(|(k, d)| format!("{k}: {d}")).unwrap_or_default()
                    )),
                    Err(e) => Some(format!("{}: {e}", f.display())),
                })
                .collect::<Vec<_>>()
        };
        let ha = s.spawn(move || run(a));
        let mut fb = run(b);
        let mut fa = ha.join().expect("thread");
        fa.append(&mut fb);
        fa
    });
    assert!(
        failures.is_empty(),
        "{} of {} replays not reproduced:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// A recording without an end frame (an unfinished match) whose every frame the ghosts
/// reproduce is exact under `verify --ghosts`, as under plain `verify`: the same answer.
#[test]
fn an_unfinished_recording_gets_the_same_answer_from_ghosts_and_verify() {
    let recorded = first_of("special-2025");
    let mut text = String::new();
    let file = std::fs::File::open(&recorded).expect("recorded replay");
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(file), &mut text).expect("gzip text");
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(lines.len() > 40, "a replay long enough to cut");
    let dir = tempfile::tempdir().expect("tempdir");
    let cut = dir.path().join("unfinished.replay");
    std::fs::write(&cut, lines[..lines.len() * 2 / 3].join("\n") + "\n").expect("write");
    let plain = verify_file(&cut);
    assert_eq!(plain.status, Status::Exact, "{plain:?}");
    let ghosts = terminal_core::runner::ghost::ghost_report(&cut, dir.path());
    assert_eq!(ghosts.status, Status::Exact, "{ghosts:?}");
    assert_eq!((ghosts.frames_exact, ghosts.frames_total), (plain.frames_exact, plain.frames_total));
}

/// A ghost plays its recorded commands in the seat's own view: recorded player 2's ghost in
/// seat 1 mirrors player 2's builds onto player 1's half.
#[test]
fn a_ghost_plays_in_the_seats_own_view() {
    let replay = first_of("base-s6");
    let ghost = Ghost::load(&replay, Some(Player::Two)).expect("ghost");
    let idle = algo("py-idle");
    let out = tempfile::tempdir().expect("tempdir");
    let mut spec = MatchSpec::new(SeatSpec::Ghost(ghost.clone()), idle, Arc::clone(&ghost.config));
    spec.replay = ReplayTarget::Dir(out.path().to_path_buf());
    let r = run_match_blocking(spec).expect("match");
    let played = terminal_core::replay::read_replay(&r.replay_path).expect("replay");
    let first = ghost.turn(0).expect("turn 0");
    let structures: Vec<_> = first.lines[1].0.iter().map(|c| c.tile).collect();
    assert!(!structures.is_empty(), "player 2 of {} built nothing on turn 0", replay.display());
    let turn1 = played.frames.iter().find(|f| f.turn_info.turn == 1).expect("turn 1 frame");
    let p1_tiles: Vec<_> = turn1.units[0].iter().take(3).flatten().map(|u| u.tile).collect();
    for t in &structures {
        assert!(p1_tiles.contains(t), "{t} of the ghost's turn-0 builds is not on seat 1's board");
    }
    assert_eq!(verify_file(&r.replay_path).status, Status::Exact, "the match re-verifies");
}

/// Against an algo the board differs from the recording: commands it no longer allows are
/// rejected like any algo's and logged, and the match plays to the end.
#[test]
fn a_ghost_against_an_algo_plays_to_the_end_with_rejections_logged() {
    let replay = corpus::replay(corpus::LONG);
    let ghost = Ghost::load(&replay, None).expect("ghost");
    let out = tempfile::tempdir().expect("tempdir");
    // Against an idle algo nothing of the ghost's is destroyed: its recorded rebuilds on
    // tiles it lost in the recording find them taken, and are refused.
    let mut spec = MatchSpec::new(algo("py-idle"), SeatSpec::Ghost(ghost.clone()), Arc::clone(&ghost.config));
    spec.replay = ReplayTarget::Dir(out.path().to_path_buf());
    let r = run_match_blocking(spec).expect("match");
    assert!(r.turns > 0 && r.winner != 0, "{}", r.summary());
    assert_eq!(r.players[1].name, ghost.name_in(Player::Two));
    let log = std::fs::read_to_string(r.match_log.as_ref().expect("match log")).expect("log");
    assert!(log.contains("a ghost: player 2 of"), "{log}");
    let ghost_rejections = r.rejected.iter().filter(|c| c.player == Player::Two).count();
    assert!(ghost_rejections > 0, "the ghost's commands were all allowed: {}", r.summary());
    assert!(log.lines().any(|l| l.contains("p2: rejected")), "rejections are logged:\n{log}");
    assert_eq!(verify_file(&r.replay_path).status, Status::Exact, "the match re-verifies");
}

/// Everything sent so far, read without waiting.
fn drain(handle: &terminal_core::runner::MatchHandle) -> Vec<MatchEvent> {
    handle.events.try_iter().collect()
}

/// The turn frames among `events`, by turn.
fn turn_frames(events: &[MatchEvent]) -> Vec<i32> {
    events
        .iter()
        .filter_map(|e| match e {
            MatchEvent::Frame { frame, .. } if frame.turn_info.phase == Phase::Deploy => Some(frame.turn_info.turn),
            _ => None,
        })
        .collect()
}

/// Played inline (the browser's way: no thread, the caller steps it), ghost against ghost
/// is the recorded replay again, frame for frame, as on the match's own thread.
#[test]
fn an_inline_match_of_two_ghosts_is_the_recording_again() {
    let replay = corpus::replay(corpus::BUSY);
    let [one, two] = [Player::One, Player::Two].map(|p| Ghost::load(&replay, Some(p)).expect("ghost"));
    let out = tempfile::tempdir().expect("tempdir");
    let mut spec = MatchSpec::new(SeatSpec::Ghost(one.clone()), SeatSpec::Ghost(two), Arc::clone(&one.config));
    spec.replay = ReplayTarget::Dir(out.path().to_path_buf());
    let handle = start_match_inline(spec);
    assert!(handle.is_inline());
    let mut turns_seen = Vec::new();
    let mut steps = 0i32;
    let result = loop {
        handle.advance();
        steps += 1;
        let events = drain(&handle);
        turns_seen.extend(turn_frames(&events));
        match events.into_iter().last() {
            Some(MatchEvent::Finished(r)) => break *r,
            Some(MatchEvent::Failed(e)) => panic!("the inline match failed: {e}"),
            _ => assert!(steps <= 101, "an inline step plays one turn at most; 100 turns end the match"),
        }
    };
    assert_eq!(turns_seen, (0..steps).collect::<Vec<_>>(), "each step sent one turn frame and played it");
    assert!(result.turns == steps || result.turns == steps - 1, "{steps} steps, {}", result.summary());
    let recorded = terminal_core::replay::read_replay(&replay).expect("recorded replay");
    let played = terminal_core::replay::read_replay(&result.replay_path).expect("played replay");
    let m = terminal_core::verify::compare_replays(&recorded.frames, &played.frames);
    assert!(m.is_exact(), "the inline match differs from {}: {:?}", replay.display(), m.first_difference);
    assert_eq!(m.frames_total, recorded.frames.len());
}

/// A person against a ghost, inline: the match waits at the person's turn without blocking
/// the caller (the ghost's reply is in and said), plays the turn the person ends, and a
/// person who leaves is charged a crash: the match ends and its replay re-verifies.
#[test]
fn an_inline_match_waits_for_the_person_and_plays_their_turn() {
    let replay = first_of("live-2022");
    let ghost = Ghost::load(&replay, None).expect("ghost");
    let (person, turns) = HumanSeat::new("You");
    let out = tempfile::tempdir().expect("tempdir");
    let mut spec = MatchSpec::new(SeatSpec::Human(person), SeatSpec::Ghost(ghost.clone()), Arc::clone(&ghost.config));
    spec.replay = ReplayTarget::Dir(out.path().to_path_buf());
    spec.every_frame_event = true;
    let handle = start_match_inline(spec);
    let started = drain(&handle);
    assert!(started.iter().any(|e| matches!(e, MatchEvent::Started { .. })), "{started:?}");
    assert!(!started.iter().any(|e| matches!(e, MatchEvent::Frame { .. })), "no frame before the first step");
    for _ in 0..3 {
        handle.advance();
    }
    let waiting = drain(&handle);
    assert_eq!(turn_frames(&waiting), vec![0], "turn 0 sent once, then the match waits");
    let replied: Vec<Player> = waiting
        .iter()
        .filter_map(|e| match e {
            MatchEvent::Replied { player, .. } => Some(*player),
            _ => None,
        })
        .collect();
    assert_eq!(replied, vec![Player::Two], "the ghost has replied, the person not yet");
    // Two walls on the person's half, one on the ghost's (refused).
    let build = vec![Command::spawn(0, 13, 11), Command::spawn(0, 14, 11), Command::spawn(0, 13, 20)];
    turns.send(HumanTurn { turn: 0, build, deploy: Vec::new() }).expect("the match listens");
    // One step plays turn 0's action phase, the next sends turn 1 and waits again.
    handle.advance();
    handle.advance();
    let played = drain(&handle);
    assert_eq!(turn_frames(&played), vec![1], "turn 0 played, turn 1 sent");
    let turn1 = played
        .iter()
        .find_map(|e| match e {
            MatchEvent::Frame { frame, .. } if frame.turn_info.phase == Phase::Deploy => Some(Arc::clone(frame)),
            _ => None,
        })
        .expect("turn 1 frame");
    let walls: Vec<(i32, i32)> = turn1.units[0][0].iter().map(|u| (u.tile.x, u.tile.y)).collect();
    assert!(walls.contains(&(13, 11)) && walls.contains(&(14, 11)), "the person's walls stand: {walls:?}");
    drop(turns);
    handle.advance();
    let end = drain(&handle);
    let Some(MatchEvent::Finished(result)) = end.last() else { panic!("the match did not end: {end:?}") };
    assert!(result.players[0].crashed, "{}", result.summary());
    assert_eq!(result.rejected.iter().filter(|r| r.player == Player::One).count(), 1, "{}", result.summary());
    assert_eq!(verify_file(&result.replay_path).status, Status::Exact, "the match re-verifies");
}
