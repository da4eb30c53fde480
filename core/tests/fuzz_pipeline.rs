//! Robustness of the whole pipeline: real frames from `../shared/replays`, mutated so that
//! they still parse but lie (tiles off the board or on the wrong half, unknown types,
//! figures that are not finite, duplicate ids, missing or extra lists, structures and mobile
//! units swapped, a short `turnInfo`…), driven through every entry point of the core: the
//! replay reader, verify, the text render of `show`, bench, ghost seats, what-if, the
//! debugger session (from a file and live) and the rebuild behind the Python `State`. Each
//! ends with a result or an error, never a panic, never a hang.
//!
//! `TS_FUZZ_CASES=N` runs N cases (default 256, a fixed seed); `TS_FUZZ_SEED` picks another seed.

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngAlgorithm, TestRng, TestRunner};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use terminal_core::engine::frame::{Frame, Phase, SpawnEvent, UnitEntry};
use terminal_core::engine::frame_check::{FrameProblem, check_frame};
use terminal_core::engine::{Command, Player, Tile};
use terminal_core::panics::catch_panic;
use terminal_core::replay::{Replay, frame_to_json, read_replay, read_replay_bytes};
use terminal_core::runner::ghost::{Ghost, reproduce_replay};
use terminal_core::session::debug::simulate_turn;
use terminal_core::session::history::History;
use terminal_core::session::whatif::{self, WhatIfSpec};
use terminal_core::session::{Event, Request, Session, SessionError, SessionHandle, WhatIfSource};
use terminal_core::verify::bench::{prepare_turns, simulate_turns};
use terminal_core::verify::rebuild::{RebuildError, game_at_turn_frame, game_from_turn_frame, running_max_ids};
use terminal_core::verify::{ReplayReport, Status, verify_file, verify_replay};

#[path = "../../tests/common/corpus.rs"]
mod corpus;

/// Real replays of several rulesets, the 2018–2019 format among them.
const SOURCES: &[&str] = &[
    "live-2022/Acceleraizer__c1terminal-algo__1003.replay.gz",
    "base-s6/Eric-xin__run_time_terror_C1Terminal__3-4-2025-18-20-6.replay.gz",
    "special-2025/Eric-xin__run_time_terror_C1Terminal__p1-20-04-2025-21-02-58-1745179378439--464915450.replay.gz",
    "legacy-2019-s3/BucketOfFish__TerminalCompetition__p1-11-09-2019-19-51-02-1568249462793-1618339247.replay.gz",
    "compat-mode-4/michelleliu4__citadel-summer-terminal__p1-13-08-2022-17-34-58-1660426498940--1007035910.replay.gz",
    "legacy-2018/correlation-one__C1GamesStarterKit__p1-28-08-2018-18-09-17-1535494157672--1103111128.replay.gz",
];

/// A case that takes longer than this is a hang.
const CASE_LIMIT: Duration = Duration::from_secs(120);

fn sources() -> &'static [Replay] {
    static SOURCES_READ: OnceLock<Vec<Replay>> = OnceLock::new();
    SOURCES_READ.get_or_init(|| {
        SOURCES
            .iter()
            .map(|name| {
                let path = corpus::replays().join(name);
                read_replay(&path).unwrap_or_else(|e| panic!("the fuzz test needs the real replay {name}: {e}"))
            })
            .collect()
    })
}

/// Figures that break arithmetic one way or another.
const FIGURES: &[f32] = &[f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, -1e9, 0.0, 1e30, f32::MAX, 3.5, 1e-7];
const TIMES: &[i64] = &[-1, i64::MIN, i64::MAX, 1_000_000_000_000, 0, 5000];

/// One lie told by a frame. `pick` chooses among a player's unit list entries (modulo).
#[derive(Debug, Clone)]
enum Mutation {
    TileOff {
        player: usize,
        pick: usize,
        x: i32,
        y: i32,
    },
    OtherHalf {
        player: usize,
        pick: usize,
    },
    /// Moves an entry to another list: a structure into a mobile list or back, into the
    /// removal or upgrade list, or into a list the era does not have.
    MoveToList {
        player: usize,
        pick: usize,
        list: usize,
    },
    AddUnit {
        player: usize,
        list: usize,
        x: i32,
        y: i32,
        figure: usize,
        id: u32,
    },
    Health {
        player: usize,
        pick: usize,
        figure: usize,
    },
    Stat {
        player: usize,
        which: usize,
        figure: usize,
    },
    Time {
        player: usize,
        time: usize,
    },
    DuplicateId {
        player: usize,
        pick: usize,
        other: usize,
    },
    HugeId {
        player: usize,
        pick: usize,
    },
    DropLists {
        player: usize,
        keep: usize,
    },
    ExtraLists {
        player: usize,
        extra: usize,
    },
    ShortTurnInfo,
    Turn {
        turn: i32,
    },
    FrameNumber {
        number: i64,
    },
    Spawn {
        x: i32,
        y: i32,
        unit_type: u8,
        id: u32,
        owner: usize,
    },
    /// The next action frame's time, which the rebuild charges as the turn's input.
    NextTime {
        player: usize,
        time: usize,
    },
}

fn ids() -> impl Strategy<Value = u32> {
    prop_oneof![0u32..2000, Just(u32::MAX), Just(1 << 30), any::<u32>()]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let coord = -60i32..90;
    let list = 0usize..11;
    let figure = 0..FIGURES.len();
    prop_oneof![
        (0..2usize, any::<usize>(), coord.clone(), coord.clone()).prop_map(|(player, pick, x, y)| Mutation::TileOff {
            player,
            pick,
            x,
            y
        }),
        (0..2usize, any::<usize>()).prop_map(|(player, pick)| Mutation::OtherHalf { player, pick }),
        (0..2usize, any::<usize>(), list.clone()).prop_map(|(player, pick, list)| Mutation::MoveToList {
            player,
            pick,
            list
        }),
        (0..2usize, list, coord.clone(), coord.clone(), figure.clone(), ids())
            .prop_map(|(player, list, x, y, figure, id)| Mutation::AddUnit { player, list, x, y, figure, id }),
        (0..2usize, any::<usize>(), figure.clone()).prop_map(|(player, pick, figure)| Mutation::Health {
            player,
            pick,
            figure
        }),
        (0..2usize, 0..3usize, figure).prop_map(|(player, which, figure)| Mutation::Stat { player, which, figure }),
        (0..2usize, 0..TIMES.len()).prop_map(|(player, time)| Mutation::Time { player, time }),
        (0..2usize, any::<usize>(), any::<usize>()).prop_map(|(player, pick, other)| Mutation::DuplicateId {
            player,
            pick,
            other
        }),
        (0..2usize, any::<usize>()).prop_map(|(player, pick)| Mutation::HugeId { player, pick }),
        (0..2usize, 0..8usize).prop_map(|(player, keep)| Mutation::DropLists { player, keep }),
        (0..2usize, 1..4usize).prop_map(|(player, extra)| Mutation::ExtraLists { player, extra }),
        Just(Mutation::ShortTurnInfo),
        prop_oneof![-5i32..110, Just(i32::MAX), Just(i32::MIN)].prop_map(|turn| Mutation::Turn { turn }),
        prop_oneof![Just(-1i64), Just(i64::MAX), Just(1i64 << 40), 0i64..5000]
            .prop_map(|number| Mutation::FrameNumber { number }),
        (coord.clone(), coord, 0u8..8, ids(), 0..2usize).prop_map(|(x, y, unit_type, id, owner)| Mutation::Spawn {
            x,
            y,
            unit_type,
            id,
            owner
        }),
        (0..2usize, 0..TIMES.len()).prop_map(|(player, time)| Mutation::NextTime { player, time }),
    ]
}

/// The (list, entry) positions of a player's unit list entries.
fn entries(f: &Frame, player: usize) -> Vec<(usize, usize)> {
    f.units[player].iter().enumerate().flat_map(|(t, l)| (0..l.len()).map(move |j| (t, j))).collect()
}

fn pick_entry(f: &Frame, player: usize, pick: usize) -> Option<(usize, usize)> {
    let all = entries(f, player);
    (!all.is_empty()).then(|| all[pick % all.len()])
}

fn ensure_list(f: &mut Frame, player: usize, list: usize) {
    while f.units[player].len() <= list {
        f.units[player].push(Vec::new());
    }
}

/// Applies `m` to `frames[at]` (and, for `NextTime`, to the frame after it).
fn apply(frames: &mut [Frame], at: usize, m: &Mutation) {
    let f = &mut frames[at];
    match *m {
        Mutation::TileOff { player, pick, x, y } => {
            if let Some((t, j)) = pick_entry(f, player, pick) {
                f.units[player][t][j].tile = Tile::new(x, y);
            }
        }
        Mutation::OtherHalf { player, pick } => {
            if let Some((t, j)) = pick_entry(f, player, pick) {
                let tile = &mut f.units[player][t][j].tile;
                tile.y = 27 - tile.y;
            }
        }
        Mutation::MoveToList { player, pick, list } => {
            if let Some((t, j)) = pick_entry(f, player, pick) {
                let e = f.units[player][t].remove(j);
                ensure_list(f, player, list);
                f.units[player][list].push(e);
            }
        }
        Mutation::AddUnit { player, list, x, y, figure, id } => {
            ensure_list(f, player, list);
            f.units[player][list].push(UnitEntry { tile: Tile::new(x, y), health: FIGURES[figure], id });
        }
        Mutation::Health { player, pick, figure } => {
            if let Some((t, j)) = pick_entry(f, player, pick) {
                f.units[player][t][j].health = FIGURES[figure];
            }
        }
        Mutation::Stat { player, which, figure } => {
            let s = &mut f.stats[player];
            let value = match which {
                0 => &mut s.hp,
                1 => &mut s.sp,
                _ => &mut s.mp,
            };
            *value = FIGURES[figure];
        }
        Mutation::Time { player, time } => f.stats[player].time_ms = TIMES[time],
        Mutation::DuplicateId { player, pick, other } => {
            if let (Some((t, j)), Some((u, k))) = (pick_entry(f, player, pick), pick_entry(f, 1 - player, other)) {
                f.units[player][t][j].id = f.units[1 - player][u][k].id;
            } else if let Some((t, j)) = pick_entry(f, player, pick) {
                let copy = f.units[player][t][j];
                f.units[player][t].push(copy);
            }
        }
        Mutation::HugeId { player, pick } => {
            if let Some((t, j)) = pick_entry(f, player, pick) {
                f.units[player][t][j].id = u32::MAX;
            }
        }
        Mutation::DropLists { player, keep } => f.units[player].truncate(keep),
        Mutation::ExtraLists { player, extra } => {
            for _ in 0..extra {
                f.units[player].push(vec![UnitEntry { tile: Tile::new(13, 5), health: 10.0, id: 999_999 }]);
            }
        }
        Mutation::ShortTurnInfo => f.turn_info.total_frame = None,
        Mutation::Turn { turn } => f.turn_info.turn = turn,
        Mutation::FrameNumber { number } => f.turn_info.total_frame = Some(number),
        Mutation::Spawn { x, y, unit_type, id, owner } => f.events.spawn.push(SpawnEvent {
            tile: Tile::new(x, y),
            unit_type,
            id,
            owner: [Player::One, Player::Two][owner],
        }),
        Mutation::NextTime { player, time } => {
            if let Some(next) = frames.get_mut(at + 1) {
                next.stats[player].time_ms = TIMES[time];
            }
        }
    }
}

/// Two turns of a real replay (from turn frame `k`), one of its frames mutated.
struct Case {
    replay: Replay,
    /// The mutated frame's index in `replay.frames`.
    at: usize,
}

fn make_case(source: usize, turn: usize, which: usize, mutations: &[Mutation]) -> Case {
    let src = &sources()[source % sources().len()];
    let starts = src.turn_starts();
    let k = turn % starts.len();
    let end = starts.get(k + 2).copied().unwrap_or(src.frames.len());
    let mut replay = src.clone();
    replay.frames = src.frames[starts[k]..end].to_vec();
    replay.frame_lines = (0..replay.frames.len()).map(|i| i + 2).collect();
    replay.truncated_at = None;
    let n = replay.frames.len();
    // The turn frame, the action frame after it (the turn's inputs), the next turn frame,
    // or any frame.
    let at = match which % 4 {
        0 => 0,
        1 => 1.min(n - 1),
        2 => starts.get(k + 1).map_or(n - 1, |s| s - starts[k]).min(n - 1),
        _ => which / 4 % n,
    };
    for m in mutations {
        apply(&mut replay.frames, at, m);
    }
    Case { replay, at }
}

/// The replay as a file's text: the config line, then one line per frame.
fn replay_text(r: &Replay) -> String {
    let mut out = serde_json::to_string(&r.config.raw).unwrap_or_default();
    out.push('\n');
    for f in &r.frames {
        out.push_str(&frame_to_json(f, r.legacy, true));
        out.push('\n');
    }
    out
}

/// Runs one entry point, turning its panic into a failure that names it.
fn step<T>(name: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    catch_panic(f).map_err(|message| format!("{name} panicked: {message}"))
}

fn no_worker_panic(name: &str, events: &[Event]) -> Result<(), String> {
    for e in events {
        if let Event::Error(SessionError::WorkerPanicked { doing, message }) = e {
            return Err(format!("{name}: the session worker panicked while {doing}: {message}"));
        }
    }
    Ok(())
}

/// Drives the case through every entry point. `Err` names the entry point that panicked or
/// broke its promise.
fn drive(case: &Case, dir: &Path, index: usize) -> Result<usize, String> {
    let path = dir.join(format!("case-{index}.replay"));
    let mut entry_points = drive_reader_and_verify(&case.replay, &path)?;
    entry_points += drive_show_bench_and_ghosts(case, dir, index)?;
    entry_points += drive_what_if_and_debugger(&case.replay)?;
    entry_points += drive_sessions(case, &path)?;
    entry_points += drive_state_from_frame(case)?;
    Ok(entry_points)
}

/// The reader (a lying frame is refused with its line; what it accepts passes the check),
/// then verify from memory and from the file written at `path`.
fn drive_reader_and_verify(replay: &Replay, path: &Path) -> Result<usize, String> {
    let text = replay_text(replay);
    std::fs::write(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let read = step("the reader", || read_replay_bytes(path, text.as_bytes()))?;
    if let Ok(r) = &read {
        for (i, f) in r.frames.iter().enumerate() {
            if let Err(e) = check_frame(&r.config, f) {
                return Err(format!("the reader accepted frame {i}, which the check refuses: {e}"));
            }
        }
    }
    step("verify (in memory)", || verify_replay(replay, &mut ReplayReport::new(path)))?;
    let report = step("verify (file)", || verify_file(path))?;
    if read.is_err() && report.status != Status::Error {
        return Err(format!("verify of an unreadable file says {:?}", report.status));
    }
    Ok(3)
}

/// show (the text render of every frame and the turn index), bench, and ghost seats: built
/// from the replay, and a ghost-against-ghost match through the runner.
fn drive_show_bench_and_ghosts(case: &Case, dir: &Path, index: usize) -> Result<usize, String> {
    let replay = &case.replay;
    step("show", || {
        for f in &replay.frames {
            let _ = terminal_core::session::board_text::render_frame(f);
        }
        let h = History::new(replay.clone());
        h.turn_position(replay.frames[case.at].turn_info.turn)
    })?;
    step("bench", || {
        if let Ok(turns) = prepare_turns(replay) {
            simulate_turns(&turns);
        }
    })?;
    let _ = step("ghost seat", || Ghost::from_replay(replay, Some(Player::One)).is_ok())?;
    let out = dir.join(format!("ghosts-{index}"));
    let _ = step("ghost match", || reproduce_replay(replay, &out).is_ok())?;
    Ok(4)
}

/// What-if from each turn frame (as played, and with commands of every kind), then the
/// debugger's data of each turn, from frames that did not come through the reader.
fn drive_what_if_and_debugger(replay: &Replay) -> Result<usize, String> {
    let config = Arc::new(replay.config.clone());
    let ids = running_max_ids(&replay.frames);
    step("what-if", || {
        for start in replay.turn_starts() {
            let Ok((game, inputs)) = game_at_turn_frame(replay, &config, start, &ids, None) else { continue };
            let _ = whatif::run(&game, Some(&inputs), &WhatIfSpec::default(), "as played");
            let commands = vec![
                Command::spawn(0, 13, 2),
                Command::spawn(3, 14, 0),
                Command::spawn(9, 13, 0),
                Command::spawn(2, 40, 40),
                Command::upgrade(13, 2),
                Command::remove(13, 2),
            ];
            let spec = WhatIfSpec { commands: [Some(commands.clone()), Some(commands)], ..WhatIfSpec::default() };
            let _ = whatif::run(&game, Some(&inputs), &spec, "edited");
        }
    })?;
    step("debugger", || {
        let h = History::new(replay.clone());
        for pos in 0..h.turns.len() {
            simulate_turn(&h, pos);
        }
    })?;
    Ok(2)
}

/// The session behind the Debugger: the file at `path`, then the same frames arriving live.
fn drive_sessions(case: &Case, path: &Path) -> Result<usize, String> {
    let replay = &case.replay;
    let what_if =
        || Request::RunWhatIf { source: WhatIfSource::CurrentTurn, spec: Box::default(), label: "fuzz".into() };
    let mut session = Session::inline();
    let mut events = session.request(Request::LoadReplay(path.to_path_buf()));
    for t in replay.turn_starts().iter().map(|&s| replay.frames[s].turn_info.turn) {
        events.extend(session.request(Request::Seek { turn: t, frame: 0 }));
        events.extend(session.request(Request::Step));
        events.extend(session.request(Request::RunToEndOfTurn));
        events.extend(session.request(Request::StepBack));
        events.extend(session.request(what_if()));
    }
    no_worker_panic("the session (file)", &events)?;
    let mut live = Session::inline();
    let mut events = live.request(Request::StartLive {
        config: Arc::new(replay.config.clone()),
        source: path.to_path_buf(),
        names: ["one".into(), "two".into()],
    });
    events.extend(live.request(Request::AppendFrames(replay.frames.clone())));
    events.extend(live.request(Request::Seek { turn: replay.frames[case.at].turn_info.turn, frame: 0 }));
    events.extend(live.request(Request::RunToEndOfTurn));
    events.extend(live.request(what_if()));
    no_worker_panic("the session (live)", &events)?;
    Ok(2)
}

/// The Python `State`: the rebuild from one turn frame, then its turn played out.
fn drive_state_from_frame(case: &Case) -> Result<usize, String> {
    let mutated = &case.replay.frames[case.at];
    let config = Arc::new(case.replay.config.clone());
    step("State from a frame", || {
        if mutated.turn_info.phase != Phase::Deploy {
            return;
        }
        if let Ok(mut game) = game_from_turn_frame(&config, mutated, 0) {
            game.apply_turn_commands([(&[], &[]), (&[], &[])]);
            for _ in 0..2000 {
                if game.action_phase_done() {
                    break;
                }
                game.action_tick_quiet();
            }
        }
    })?;
    Ok(1)
}

/// Runs `drive` on its own thread: a case still running after `CASE_LIMIT` is a hang.
fn drive_bounded(case: Case, dir: PathBuf, index: usize) -> Result<usize, String> {
    let (tx, rx) = crossbeam_channel::bounded(1);
    std::thread::Builder::new()
        .name(format!("fuzz-case-{index}"))
        .spawn(move || {
            let r = drive(&case, &dir, index);
            let _ = tx.send(r);
        })
        .map_err(|e| format!("cannot start the case thread: {e}"))?;
    rx.recv_timeout(CASE_LIMIT).map_err(|_| format!("hang: the case ran longer than {CASE_LIMIT:?}"))?
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

#[test]
fn mutated_frames_end_in_a_result_or_an_error_at_every_entry_point() {
    let cases = env_number("TS_FUZZ_CASES").unwrap_or(256) as u32;
    let seed = env_number("TS_FUZZ_SEED").unwrap_or(26);
    sources();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes);
    let config = ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() };
    let mut runner = TestRunner::new_with_rng(config, rng);
    let counter = std::sync::atomic::AtomicUsize::new(0);
    let refused = std::sync::atomic::AtomicUsize::new(0);
    let entry_points = std::sync::atomic::AtomicUsize::new(0);
    let strategy = (any::<usize>(), any::<usize>(), any::<usize>(), proptest::collection::vec(mutation(), 1..4));
    let result = runner.run(&strategy, |(source, turn, which, mutations)| {
        let index = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let case = make_case(source, turn, which, &mutations);
        if check_frame(&case.replay.config, &case.replay.frames[case.at]).is_err() {
            refused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        match drive_bounded(case, dir.path().to_path_buf(), index) {
            Ok(n) => {
                entry_points.fetch_max(n, std::sync::atomic::Ordering::Relaxed);
                Ok(())
            }
            Err(e) => Err(TestCaseError::fail(e)),
        }
    });
    let tried = counter.load(std::sync::atomic::Ordering::Relaxed);
    let refused = refused.load(std::sync::atomic::Ordering::Relaxed);
    let entry_points = entry_points.load(std::sync::atomic::Ordering::Relaxed);
    eprintln!(
        "fuzz: {tried} cases tried (seed {seed}), {refused} with a frame the check refuses, {entry_points} entry points each"
    );
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// The replay: one unit at (40, 40) in the structure list of a live-2022 turn frame.
fn replay_with_unit_at_40_40() -> (Replay, usize) {
    let mut replay = sources()[0].clone();
    let start = replay.turn_starts()[1];
    replay.frames[start].units[0][0].push(UnitEntry { tile: Tile::new(40, 40), health: 60.0, id: 123_456 });
    (replay, start)
}

#[test]
fn a_unit_at_40_40_is_refused_naming_the_frame_and_the_tile() {
    let (replay, start) = replay_with_unit_at_40_40();
    // `replay_text` writes the config on line 1 and a frame on each line after it.
    let line = start + 2;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("unit-at-40-40.replay");
    std::fs::write(&path, replay_text(&replay)).expect("the mutated replay written");

    let err = read_replay(&path).expect_err("the reader refuses the frame");
    let text = err.to_string();
    assert_eq!(err.line, Some(line), "{text}");
    assert!(err.field.starts_with("p1Units[0]["), "{text}");
    assert!(text.contains("turn 1, turn frame") && text.contains("[40,40]"), "{text}");

    let report = verify_file(&path);
    assert_eq!(report.status, Status::Error);
    assert!(report.reason.as_deref().is_some_and(|r| r.contains("[40,40]")), "{:?}", report.reason);

    let ids = running_max_ids(&replay.frames);
    match game_at_turn_frame(&replay, &Arc::new(replay.config.clone()), start, &ids, None) {
        Err(RebuildError::InvalidFrame(e)) => {
            assert_eq!(e.problem, FrameProblem::OffBoard(Tile::new(40, 40)));
            assert_eq!(e.place.turn, 1);
        }
        Err(other) => panic!("expected an invalid frame, got {other}"),
        Ok(_) => panic!("the rebuild accepted a unit at (40, 40)"),
    }
}

#[test]
fn the_session_thread_reports_the_unit_at_40_40_and_keeps_working() {
    let (replay, _) = replay_with_unit_at_40_40();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("unit-at-40-40.replay");
    std::fs::write(&path, replay_text(&replay)).expect("the mutated replay written");
    let session = SessionHandle::spawn(Box::new(|| {})).expect("the session thread");
    assert!(session.send(Request::LoadReplay(path.clone())).is_ok(), "the request queued");
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let error = loop {
        if let Some(Event::Error(e)) = session.try_recv() {
            break e;
        }
        assert!(std::time::Instant::now() < deadline, "no error event after opening the replay");
        std::thread::sleep(Duration::from_millis(5));
    };
    let text = error.to_string();
    assert!(matches!(error, SessionError::Replay(_)), "{text}");
    assert!(
        text.contains("turn 1, turn frame") && text.contains("[40,40]") && text.contains("unit-at-40-40"),
        "{text}"
    );
    assert!(session.is_running(), "the session thread ended");
    session.shutdown();
}
