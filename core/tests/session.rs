//! The session (the Debugger's non-GUI core) driven like a user: open a real replay, seek, step,
//! step back, what-if, and the explaining target choice against the engine.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use terminal_core::engine::Player;
use terminal_core::engine::config::TURRET;
use terminal_core::replay::read_replay;
use terminal_core::session::debug::{PathEnd, simulate_turn_frames};
use terminal_core::session::history::History;
use terminal_core::session::summary::structure_max_health;
use terminal_core::session::whatif::{StructureEdit, WhatIfSpec, WhatIfTry};
use terminal_core::session::{Event, FrameView, Request, Session, SessionHandle, WhatIfSource};

#[path = "../../tests/common/corpus.rs"]
mod corpus;
use corpus::{CURRENT_RULESETS, LONG, first_of, replay as corpus};

fn frames(events: Vec<Event>) -> Vec<(i32, usize, Box<FrameView>)> {
    events
        .into_iter()
        .filter_map(|e| match e {
            Event::Frame { turn, frame, view } => Some((turn, frame, view)),
            _ => None,
        })
        .collect()
}

fn one_frame(events: Vec<Event>) -> (i32, usize, Box<FrameView>) {
    let mut f = frames(events);
    assert_eq!(f.len(), 1, "expected exactly one frame event");
    f.remove(0)
}

#[test]
fn load_seek_step_and_step_back_show_the_replays_frames() {
    let path = corpus(LONG);
    let replay = read_replay(&path).expect("replay");
    let mut s = Session::inline();
    let events = s.request(Request::LoadReplay(path.clone()));
    let summary = events
        .iter()
        .find_map(|e| match e {
            Event::ReplayLoaded(s) => Some(s.clone()),
            _ => None,
        })
        .expect("ReplayLoaded");
    assert_eq!(summary.turns.len(), 100);
    assert_eq!(summary.frames, replay.frames.len());
    assert!(summary.turns.iter().all(|t| t.hp[0] > 0.0 || t.turn > 0));
    assert!(summary.turns[50].structure_value.iter().all(|v| *v > 0.0));
    let (turn, frame, view) = one_frame(events);
    assert_eq!((turn, frame), (0, 0));
    assert_eq!(view.frame, replay.frames[0]);

    // Find a busy turn and walk through it.
    let busy = summary.turns.iter().max_by_key(|t| t.frames).expect("turns").clone();
    let (turn, frame, view) = one_frame(s.request(Request::Seek { turn: busy.turn, frame: 0 }));
    assert_eq!((turn, frame), (busy.turn, 0));
    assert_eq!(view.frame, replay.frames[busy.start]);
    for k in 1..=3 {
        let (_, frame, view) = one_frame(s.request(Request::Step));
        assert_eq!(frame, k);
        assert_eq!(view.frame, replay.frames[busy.start + k]);
        assert!(view.debug.simulated && view.debug.engine_matches, "frame {k} simulated exactly");
    }
    let (_, frame, view) = one_frame(s.request(Request::StepBack));
    assert_eq!(frame, 2);
    assert_eq!(view.frame, replay.frames[busy.start + 2]);
    // Mobile units carry a path that ends in a breach or self-destruct, and their steps.
    let mobiles = &view.debug.mobiles;
    assert!(!mobiles.is_empty(), "a busy turn has mobile units at frame 2");
    for m in mobiles {
        assert_eq!(m.path.first(), Some(&m.tile));
        assert!(matches!(m.path_end, PathEnd::Breach | PathEnd::SelfDestruct));
    }
    let (_, frame, view) = one_frame(s.request(Request::RunToEndOfTurn));
    assert_eq!(frame, busy.frames - 1);
    assert_eq!(view.frame, replay.frames[busy.start + busy.frames - 1]);
    let (turn, frame, _) = one_frame(s.request(Request::Step));
    assert_eq!((turn, frame), (busy.turn + 1, 0));
    let (turn, frame, view) = one_frame(s.request(Request::StepBack));
    assert_eq!((turn, frame), (busy.turn, busy.frames - 1));
    assert_eq!(view.index, busy.start + busy.frames - 1);
    // Every frame of the busy turn is reproduced by the engine.
    let (_, _, _) = one_frame(s.request(Request::LoadTurn { turn: busy.turn }));
    for _ in 1..busy.frames {
        let (_, _, v) = one_frame(s.request(Request::Step));
        assert!(v.debug.engine_matches, "frame {} of turn {}", v.frame_in_turn, busy.turn);
    }
    // Errors are events, never panics.
    let e = s.request(Request::Seek { turn: 5000, frame: 0 });
    assert!(matches!(e.as_slice(), [Event::Error { .. }]));
}

/// The try an event carries (panics on any other event).
fn try_of(e: &Event) -> &WhatIfTry {
    match e {
        Event::WhatIfResult(t) => t,
        other => panic!("expected a what-if result, got {other:?}"),
    }
}

fn breaches_of(e: &Event) -> [u32; 2] {
    try_of(e).summary.breaches
}

/// The 100-turn replay, as the history the worker builds and loaded in an inline session.
fn long_replay_session() -> (History, Session) {
    let path = corpus(LONG);
    let history = History::new(read_replay(&path).expect("replay"));
    let mut s = Session::inline();
    s.request(Request::LoadReplay(path));
    (history, s)
}

#[test]
fn what_if_without_player_two_turrets_lets_more_through() {
    let (history, mut s) = long_replay_session();
    let (mut original, mut open) = (0u32, 0u32);
    for span in history.turns.iter().step_by(5) {
        let base = s.request(Request::RunWhatIf {
            source: WhatIfSource::ReplayTurn(span.turn),
            spec: Box::default(),
            label: "as played".into(),
        });
        let base = breaches_of(&base[0]);
        // The baseline reproduces the replay's breaches.
        let replay_breaches = history.replay.frames[span.start..span.start + span.len]
            .iter()
            .flat_map(|f| &f.events.breach)
            .filter(|b| b.owner == Player::One)
            .count() as u32;
        assert_eq!(base[0], replay_breaches, "turn {}", span.turn);
        let turrets = history.replay.frames[span.start].units_of(Player::Two)[TURRET]
            .iter()
            .map(|u| StructureEdit::Remove { tile: u.tile })
            .collect();
        let spec = WhatIfSpec { structures: [Vec::new(), turrets], ..WhatIfSpec::default() };
        let open_try = s.request(Request::RunWhatIf {
            source: WhatIfSource::ReplayTurn(span.turn),
            spec: Box::new(spec),
            label: "no turrets".into(),
        });
        original += base[0];
        open += breaches_of(&open_try[0])[0];
    }
    eprintln!("FIGURES what-if: P1 breaches over every 5th turn: {original} as played, {open} without P2 turrets");
    assert!(open > original, "breaches without turrets {open} vs original {original}");
    assert_eq!(s.tries().len(), 2 * history.turns.iter().step_by(5).count());
    assert_eq!(s.tries()[1].label, "no turrets");
}

#[test]
fn explaining_target_choice_agrees_with_the_engine() {
    // The long replay plus the first replay of every current-format ruleset.
    let mut files = vec![corpus(LONG)];
    for ruleset in CURRENT_RULESETS {
        files.push(first_of(ruleset));
    }
    assert!(files.len() >= 8, "corpus missing: {files:?}");
    let mut attacks = 0usize;
    let mut criteria = std::collections::HashSet::new();
    for f in files {
        let history = History::new(read_replay(&f).expect("replay"));
        let f = f.display();
        for pos in 0..history.turns.len() {
            for (frame, log) in simulate_turn_frames(&history, pos) {
                assert_eq!(log.len(), frame.events.attack.len(), "{f}: one explanation per attack");
                for (c, a) in log.iter().zip(&frame.events.attack) {
                    assert_eq!((c.attacker_id, c.target_id), (a.attacker_id, a.target_id));
                    assert_eq!(
                        c.explained_id, c.target_id,
                        "{f} turn {}: attacker {}",
                        history.turns[pos].turn, c.attacker_id
                    );
                    criteria.insert(c.criterion);
                }
                attacks += log.len();
            }
        }
    }
    eprintln!("FIGURES explain: {attacks} attacks agree; criteria seen: {criteria:?}");
    assert!(attacks > 1000, "only {attacks} attacks checked");
    assert!(criteria.len() >= 4, "criteria seen: {criteria:?}");
}

#[test]
fn threaded_handle_never_blocks_and_repaints() {
    let repaints = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&repaints);
    let handle = SessionHandle::spawn(Box::new(move || {
        counter.fetch_add(1, Ordering::Relaxed);
    }))
    .expect("spawn");
    assert!(handle.send(Request::LoadReplay(corpus(LONG))).is_ok());
    assert!(handle.send(Request::Seek { turn: 3, frame: 2 }).is_ok());
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen = Vec::new();
    while Instant::now() < deadline && !seen.iter().any(|e| matches!(e, Event::Frame { turn: 3, frame: 2, .. })) {
        match handle.try_recv() {
            Some(e) => seen.push(e),
            None => std::thread::sleep(Duration::from_millis(2)),
        }
    }
    assert!(seen.iter().any(|e| matches!(e, Event::ReplayLoaded(_))));
    assert!(seen.iter().any(|e| matches!(e, Event::Frame { turn: 3, frame: 2, .. })));
    assert!(repaints.load(Ordering::Relaxed) >= seen.len());
    assert!(handle.send(Request::LoadReplay(PathBuf::from("/nonexistent.replay"))).is_ok());
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut error = false;
    while Instant::now() < deadline && !error {
        error = matches!(handle.try_recv(), Some(Event::Error { .. }));
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(error, "a missing file is reported as an error event");
    handle.shutdown();
}

/// Resident set size of this process in kB (0 where /proc is not available).
fn rss_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Figures for the report: `cargo test --release --test session figures -- --nocapture`.
#[test]
fn figures() {
    let mut by_size: Vec<PathBuf> = terminal_core::verify::collect_replays(&[corpus::replays()]);
    by_size.sort_by_key(|p| std::cmp::Reverse(std::fs::metadata(p).map(|m| m.len()).unwrap_or(0)));
    for path in by_size.iter().take(1).chain([corpus(LONG)].iter()) {
        let mut s = Session::inline();
        let rss_before = rss_kb();
        let t = Instant::now();
        let events = s.request(Request::LoadReplay(path.clone()));
        let open = t.elapsed();
        let rss_delta = rss_kb().saturating_sub(rss_before);
        assert!(events.iter().any(|e| matches!(e, Event::ReplayLoaded(_))), "{}", path.display());
        let h = s.history().expect("loaded");
        let bytes = h.approx_bytes();
        let busy = h.turns.iter().max_by_key(|t| t.len).copied().expect("turns");
        let (n_frames, n_turns, legacy) = (h.replay.frames.len(), h.turns.len(), h.replay.legacy);
        let t = Instant::now();
        let mut n = 0usize;
        for _ in 0..5 {
            s.request(Request::LoadTurn { turn: busy.turn });
            for _ in 1..busy.len {
                n += frames(s.request(Request::Step)).len();
            }
            s.request(Request::LoadTurn { turn: busy.turn + 1 });
        }
        let fps = n as f64 / t.elapsed().as_secs_f64();
        eprintln!(
            "FIGURES {}: {} frames, {} turns, legacy={}; open {:.0} ms; history {:.2} MB (RSS +{:.1} MB, meaningful when run alone); busy turn {} ({} frames): {:.0} frames/s stepping",
            path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            n_frames,
            n_turns,
            legacy,
            open.as_secs_f64() * 1000.0,
            bytes as f64 / 1e6,
            rss_delta as f64 / 1e3,
            busy.turn,
            busy.len,
            fps
        );
    }
}

#[test]
fn a_try_keeps_every_frame_and_is_watched_frame_by_frame() {
    let (history, mut s) = long_replay_session();
    let busy = *history.turns.iter().max_by_key(|t| t.len).expect("turns");
    let as_played = s.request(Request::RunWhatIf {
        source: WhatIfSource::ReplayTurn(busy.turn),
        spec: Box::default(),
        label: "as played".into(),
    });
    let t = try_of(&as_played[0]).clone();
    // Deploy frame, every action frame, end-of-turn frame; the action frames are the replay's.
    assert_eq!(t.frames.len(), t.summary.action_frames + 2);
    assert_eq!(t.debug.len(), t.frames.len());
    assert_eq!(t.summary.action_frames, busy.len - 1);
    for k in 1..busy.len {
        let replayed = &history.replay.frames[busy.start + k];
        // The algos' compute time is the replay's, not simulated.
        let mut ours = t.frames[k].clone();
        for p in 0..2 {
            ours.stats[p].time_ms = replayed.stats[p].time_ms;
        }
        terminal_core::verify::compare_frames(replayed, &ours).unwrap_or_else(|e| panic!("frame {k}: {e}"));
    }
    assert_eq!(t.frames.last().map(|f| f.turn_info.turn), Some(busy.turn + 1), "the end-of-turn frame");

    // Watching: frames come from the try, stepping stays in it, a seek returns to the replay.
    let (turn, frame, view) = one_frame(s.request(Request::WatchTry { index: 0, frame: 0 }));
    assert_eq!((turn, frame, view.watching, view.frames_in_turn), (busy.turn, 0, Some(0), t.frames.len()));
    let (_, frame, view) = one_frame(s.request(Request::Step));
    assert_eq!((frame, view.watching), (1, Some(0)));
    assert_eq!(view.frame, t.frames[1]);
    assert!(!view.debug.mobiles.is_empty() && view.debug.simulated, "paths and targets of the try's units");
    let (_, frame, _) = one_frame(s.request(Request::RunToEndOfTurn));
    assert_eq!(frame, t.frames.len() - 1);
    let (turn, frame, _) = one_frame(s.request(Request::Step));
    assert_eq!((turn, frame), (busy.turn, t.frames.len() - 1), "the try's last frame holds");
    let (_, _, view) = one_frame(s.request(Request::Seek { turn: busy.turn, frame: 1 }));
    assert_eq!(view.watching, None);
    assert_eq!(view.frame, history.replay.frames[busy.start + 1]);
    let e = s.request(Request::WatchTry { index: 7, frame: 0 });
    assert!(matches!(e.as_slice(), [Event::Error { .. }]));

    // Memory of 20 kept tries of the busiest turn.
    for i in 1..20 {
        s.request(Request::RunWhatIf {
            source: WhatIfSource::ReplayTurn(busy.turn),
            spec: Box::default(),
            label: format!("try {i}"),
        });
    }
    let bytes: usize = s.tries().iter().map(|t| t.approx_bytes()).sum();
    eprintln!(
        "FIGURES tries: 20 tries of turn {} ({} frames each) keep {:.2} MB of frames and debugger data",
        busy.turn,
        t.frames.len(),
        bytes as f64 / 1e6
    );
    assert_eq!(s.tries().len(), 20);
    assert!(bytes > 0 && bytes < 64 << 20, "{bytes} bytes");
}

/// Health bars are drawn against the replay's own ruleset: citadel-2026 walls upgrade to 200
/// health and supports start at 1, where the default ruleset says 120 and 30.
#[test]
fn summary_carries_the_rulesets_full_structure_health() {
    let citadel = first_of("citadel-2026");
    let summary = terminal_core::session::summary::summarize(&History::new(read_replay(&citadel).expect("replay")));
    assert_eq!(structure_max_health(&summary.config), [[60.0, 200.0], [1.0, 40.0], [60.0, 100.0]]);
    let base = first_of("base-s6");
    let summary = terminal_core::session::summary::summarize(&History::new(read_replay(&base).expect("replay")));
    assert_eq!(structure_max_health(&summary.config), [[60.0, 120.0], [30.0, 30.0], [75.0, 75.0]]);
}

/// The end-of-game figures come from the end frame: the loser's HP there, not at the last
/// turn frame (before the last turn's breaches).
#[test]
fn end_of_game_figures_are_the_end_frames() {
    let mut files = terminal_core::verify::collect_replays(&[corpus("base-s6"), corpus("special-2025")]);
    files.sort();
    let mut checked = 0;
    for path in files {
        let replay = read_replay(&path).expect("replay");
        let end = replay.end_frame().expect("an end frame").clone();
        let summary = terminal_core::session::summary::summarize(&History::new(replay));
        let e = summary.end.expect("end state");
        assert_eq!(e.hp, [end.stats[0].hp, end.stats[1].hp], "{}", path.display());
        assert_eq!(e.sp, [end.stats[0].sp, end.stats[1].sp], "{}", path.display());
        checked += usize::from(summary.turns.last().is_some_and(|t| t.hp != e.hp));
    }
    assert!(checked > 0, "no replay whose last turn changes the HP: the test could not tell the frames apart");
}

/// A replay whose end stats carry no names (the August 2018 build's) shows "Player 1" and
/// "Player 2", not empty names.
#[test]
fn players_without_names_are_called_player_1_and_2() {
    let kit =
        "legacy-2018/correlation-one__C1GamesStarterKit__p1-28-08-2018-18-09-17-1535494157672--1103111128.replay.gz";
    let replay = read_replay(&corpus(kit)).expect("replay");
    let end = replay.end_frame().and_then(|f| f.end_stats.clone()).expect("end stats");
    assert!(end.players.iter().all(|p| p.name.is_empty()), "the file names no player");
    let summary = terminal_core::session::summary::summarize(&History::new(replay));
    assert_eq!(summary.names, ["Player 1".to_string(), "Player 2".to_string()]);
}
