//! Ghost seats: the two recorded players of a real replay, seated against each other,
//! reproduce it frame for frame through the runner (units, ids, health, stats, events); a
//! ghost against a real algo plays to the end, its rejected commands logged.

#[path = "../../tests/common/corpus.rs"]
mod corpus;
use corpus::{CURRENT_RULESETS, algo, first_of, replays};
use std::sync::Arc;
use terminal_core::engine::geometry::Player;
use terminal_core::runner::ghost::reproduce;
use terminal_core::runner::{Ghost, MatchSpec, ReplayTarget, SeatSpec, run_match_blocking};
use terminal_core::verify::{Status, collect_replays, verify_file};

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
