//! Integration tests of the arena library: a small parallel arena among the test algos
//! checked against statistics recomputed by hand from its records, the accounting of crashes,
//! timeouts, penalties and failed loads, the SPRT stop, cancel and pause.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use terminal_core::arena::{
    ArenaEvent, ArenaSpec, Entrant, Format, MatchRecord, Plan, RESULTS_FILE, StopReason, run_arena,
};
use terminal_core::engine::presets::preset;

#[path = "../../tests/common/corpus.rs"]
mod corpus;
use corpus::algo;

fn entrant(name: &str) -> Entrant {
    Entrant { path: algo(name), label: name.into() }
}

fn read_results(path: &Path) -> Vec<MatchRecord> {
    let text = std::fs::read_to_string(path).expect("results file");
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("record")).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-4
}

#[test]
fn a_parallel_round_robin_matches_hand_computed_statistics() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan =
        Plan::new(vec![entrant("py-builder"), entrant("py-idle"), entrant("py-random")], Format::RoundRobin, 2, 1)
            .expect("plan");
    let mut spec = ArenaSpec::new(plan, Arc::new(preset("base-s6").expect("preset")), dir.path());
    spec.jobs = 2;
    let mut finished = 0;
    let mut last_progress = None;
    let mut started_workers = BTreeSet::new();
    let outcome = run_arena(spec, |ev| match ev {
        ArenaEvent::MatchFinished(_) => finished += 1,
        ArenaEvent::Progress { done, total, .. } => last_progress = Some((*done, *total)),
        ArenaEvent::MatchStarted { worker, .. } => {
            started_workers.insert(*worker);
        }
        _ => {}
    })
    .expect("arena");
    assert_eq!(outcome.stop, StopReason::Completed);
    assert_eq!((finished, last_progress), (6, Some((6, 6))));
    assert_eq!(started_workers.len(), 2, "both workers played");
    let records = read_results(&dir.path().join(RESULTS_FILE));
    assert_eq!(records.len(), 6);
    let ids: BTreeSet<&str> = records.iter().map(|r| r.job_id.as_str()).collect();
    assert_eq!(ids.len(), 6, "no duplicate job ids");
    for r in &records {
        assert!(r.error.is_none(), "{r:?}");
        assert!(Path::new(&r.replay).is_file(), "replay {} written", r.replay);
    }

    // By hand from the records: wins, seats, HP margins, turns, compute per turn.
    let s = &outcome.summary;
    for a in &s.algos {
        let mine: Vec<&MatchRecord> = records.iter().filter(|r| r.seat_of(&a.label).is_some()).collect();
        let wins = mine.iter().filter(|r| r.winner_label() == Some(a.label.as_str())).count() as u32;
        let p1_wins = mine.iter().filter(|r| r.algo1 == a.label && r.winner == 1).count() as u32;
        let margin: f64 = mine
            .iter()
            .map(|r| {
                let seat = r.seat_of(&a.label).unwrap_or(0);
                f64::from(r.players[seat].hp) - f64::from(r.players[1 - seat].hp)
            })
            .sum();
        let turns: i64 = mine.iter().map(|r| i64::from(r.turns)).sum();
        let (ms, tt) = mine.iter().fold((0i64, 0u64), |(m, t), r| {
            let seat = r.seat_of(&a.label).unwrap_or(0);
            (m + r.players[seat].compute_ms, t + u64::from(r.players[seat].timed_turns))
        });
        assert_eq!((a.games, a.wins, a.losses), (4, wins, 4 - wins), "{}", a.label);
        assert_eq!((a.as_p1.games, a.as_p2.games, a.as_p1.wins), (2, 2, p1_wins), "{}: seats swapped equally", a.label);
        assert!(close(a.figures.mean_hp_margin, margin / 4.0));
        assert!(close(a.figures.mean_turns, turns as f64 / 4.0));
        assert!(close(a.figures.mean_compute_ms, ms as f64 / tt as f64));
        // Wilson 95 % for k of 4, by hand (z = 1.959964, z² = 3.841459, denom = 1.960365):
        // k=0 → [0, 0.4899]; k=1 → [0.0456, 0.6994]; k=2 → [0.1500, 0.8500];
        // k=3 → [0.3006, 0.9544]; k=4 → [0.5101, 1].
        let hand = [(0.0, 0.4899), (0.0456, 0.6994), (0.1500, 0.8500), (0.3006, 0.9544), (0.5101, 1.0)];
        let (lo, hi) = (a.figures.wilson_lo, a.figures.wilson_hi);
        let (hlo, hhi) = hand[wins as usize];
        assert!((lo - hlo).abs() < 1e-4 && (hi - hhi).abs() < 1e-4, "{}: {lo} {hi}", a.label);
    }
    assert_eq!(s.pairs.len(), 3);
    for p in &s.pairs {
        let games: Vec<&MatchRecord> =
            records.iter().filter(|r| r.seat_of(&p.a).is_some() && r.seat_of(&p.b).is_some()).collect();
        let a_wins = games.iter().filter(|r| r.winner_label() == Some(p.a.as_str())).count() as u32;
        assert_eq!((p.games, p.a_wins, p.b_wins), (2, a_wins, 2 - a_wins));
        assert_eq!((p.a_as_p1.games, p.a_as_p2.games), (1, 1));
    }
    // py-builder's fixed defence and scouts beat both others in these games (a regression
    // check of the engine and algos as much as of the arena).
    assert_eq!(s.algos[0].wins, 4, "{:?}", s.algos[0]);
    // The ratings are ordered by the results and centred on 0.
    let elo: HashMap<&str, f64> = s.ratings.iter().map(|r| (r.label.as_str(), r.elo)).collect();
    assert!(elo["py-builder"] > elo["py-random"] && elo["py-random"] >= elo["py-idle"], "{elo:?}");
    assert!(elo.values().sum::<f64>().abs() < 1e-6);
    let csv = std::fs::read_to_string(dir.path().join("summary.csv")).expect("summary.csv");
    assert_eq!(csv.lines().count(), 4);
    assert!(csv.lines().nth(1).is_some_and(|l| l.starts_with("py-builder,4,4,0,0,1.0000,0.5101,1.0000,")), "{csv}");
}

#[test]
fn crashes_timeouts_penalties_and_failed_loads_are_counted_apart() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A folder without run.sh: the runner reports FailedToLoad (the CLI refuses it up front).
    let missing = dir.path().join("py-missing");
    std::fs::create_dir_all(&missing).expect("mkdir");
    let entrants = vec![
        entrant("py-crash"),
        entrant("py-hang"),
        entrant("py-slow"),
        Entrant { path: missing, label: "py-missing".into() },
        entrant("py-builder"),
    ];
    let plan = Plan::new(entrants, Format::Gauntlet { baseline: 4 }, 2, 1).expect("plan");
    let out = dir.path().join("out");
    let mut spec = ArenaSpec::new(plan, Arc::new(preset("base-s6").expect("preset")), &out);
    spec.jobs = 2;
    spec.soft_ms = Some(200);
    spec.max_ms = Some(2500);
    // py-slow sleeps 1.3 s on turn 1: floor((1300 − 200) / 1000) = 1 HP (more if the
    // machine is very busy), well under the hard limit.
    spec.env = vec![("SLOW_SECONDS".into(), "1.3".into())];
    let outcome = run_arena(spec, |_| {}).expect("arena");
    assert_eq!(outcome.stop, StopReason::Completed);
    let s = &outcome.summary;
    let get = |l: &str| s.algos.iter().find(|a| a.label == l).expect("algo");
    let crash = get("py-crash");
    assert_eq!((crash.games, crash.losses, crash.crashes, crash.failed_to_load), (2, 2, 2, 0));
    let hang = get("py-hang");
    assert_eq!(hang.matches_with_timeouts, 2, "{hang:?}");
    assert!(hang.hard_timeouts >= 2 && hang.time_penalty_hp >= 2, "{hang:?}");
    assert_eq!(hang.crashes, 0, "a hang is a timeout, not a crash");
    let slow = get("py-slow");
    assert!(slow.time_penalty_turns >= 2 && slow.time_penalty_hp >= 2 && slow.hard_timeouts == 0, "{slow:?}");
    assert_eq!(slow.crashes, 0);
    let missing = get("py-missing");
    assert_eq!((missing.games, missing.losses, missing.failed_to_load, missing.crashes), (2, 2, 2, 2));
    let builder = get("py-builder");
    assert_eq!(
        (builder.crashes, builder.hard_timeouts, builder.time_penalty_hp, builder.failed_to_load),
        (0, 0, 0, 0),
        "the opponent's incidents are not charged to the baseline"
    );
    assert_eq!(builder.games, 8);
    // The winners are the engine's: the table never turns an incident into a win or a
    // loss of its own.
    let records = read_results(&out.join(RESULTS_FILE));
    assert_eq!(records.len(), 8);
    assert_eq!(builder.wins as usize, records.iter().filter(|r| r.winner_label() == Some("py-builder")).count());
    let table = terminal_core::arena::report::table(s);
    assert!(table.contains("crash") && table.contains("timeouts"), "{table}");
}

#[test]
fn the_sprt_stops_a_clear_result_early_and_cancel_stops_the_rest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = Plan::new(vec![entrant("py-builder"), entrant("py-idle")], Format::RoundRobin, 40, 1).expect("plan");
    let mut spec = ArenaSpec::new(plan, Arc::new(preset("base-s6").expect("preset")), dir.path().join("sprt"));
    spec.jobs = 2;
    spec.sprt = Some(terminal_core::arena::SprtParams::default());
    let outcome = run_arena(spec, |_| {}).expect("arena");
    // py-builder wins every game: each win adds ln(0.640065 / 0.5) = 0.246962 to the LLR,
    // so 12 straight wins (2.9635) pass ln(0.95 / 0.05) = 2.9444. A worker takes its next
    // match only once its last result is counted, so the only match that can still finish
    // is the other worker's, already running when the 12th result arrives.
    assert_eq!(outcome.stop, StopReason::Sprt(terminal_core::arena::SprtDecision::AcceptH1));
    let n = outcome.records.len();
    assert!((12..=13).contains(&n), "{n} matches");
    let sprt = outcome.sprt.expect("sprt status");
    assert_eq!((sprt.wins as usize, sprt.losses), (n, 0));

    // Cancel after the first result: the matches in flight are not recorded.
    let plan = Plan::new(vec![entrant("py-builder"), entrant("py-random")], Format::RoundRobin, 40, 1).expect("plan");
    let mut spec = ArenaSpec::new(plan, Arc::new(preset("base-s6").expect("preset")), dir.path().join("cancel"));
    spec.jobs = 2;
    let handle = terminal_core::arena::start_arena(spec).expect("start");
    let mut summary = None;
    for ev in handle.events.iter() {
        match ev {
            ArenaEvent::MatchFinished(_) => handle.cancel(),
            ArenaEvent::Summary(o) => summary = Some(o),
            _ => {}
        }
    }
    let o = summary.expect("a summary event ends the stream");
    assert_eq!(o.stop, StopReason::Cancelled);
    assert!(o.records.len() < 40 && !o.records.is_empty());
    assert_eq!(read_results(&o.results_path).len(), o.records.len());
}

#[test]
fn a_paused_arena_starts_no_new_match_until_resumed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = Plan::new(vec![entrant("py-builder"), entrant("py-idle")], Format::RoundRobin, 10, 1).expect("plan");
    let mut spec = ArenaSpec::new(plan, Arc::new(preset("base-s6").expect("preset")), dir.path());
    spec.jobs = 1;
    let handle = terminal_core::arena::start_arena(spec).expect("start");
    // Pause at the first result; the one worker may already hold the next match.
    loop {
        match handle.events.recv_timeout(Duration::from_secs(60)).expect("event") {
            ArenaEvent::MatchFinished(_) => break,
            _ => continue,
        }
    }
    handle.pause();
    assert!(handle.is_paused());
    let mut started_while_paused = 0;
    let mut finished_while_paused = 0;
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(3) {
        match handle.events.recv_timeout(Duration::from_millis(100)) {
            Ok(ArenaEvent::MatchStarted { .. }) => started_while_paused += 1,
            Ok(ArenaEvent::MatchFinished(_)) => finished_while_paused += 1,
            _ => {}
        }
    }
    assert!(started_while_paused <= 1 && finished_while_paused <= 1, "{started_while_paused} {finished_while_paused}");
    handle.resume();
    let mut summary = None;
    for ev in handle.events.iter() {
        if let ArenaEvent::Summary(o) = ev {
            summary = Some(o);
        }
    }
    let o = summary.expect("summary");
    assert_eq!((o.stop.clone(), o.records.len()), (StopReason::Completed, 10));
}

/// A gauntlet of py-idle against the ghosts of player 2 of the base-s6 replays: every game's
/// comparison and the totals equal what the replay files say when read directly.
#[test]
fn a_gauntlet_against_ghosts_matches_the_replays_read_by_hand() {
    use terminal_core::arena::ghosts::{GhostChoice, compare, ghost_games, totals};
    use terminal_core::engine::geometry::Player;
    let dir = corpus::replay("base-s6");
    let (games, skipped) = ghost_games(std::slice::from_ref(&dir), &GhostChoice::Seat(Player::Two)).expect("games");
    assert!(skipped.is_empty(), "{skipped:?}");
    assert_eq!(games.len(), 3);
    let out = tempfile::tempdir().expect("tempdir");
    let plan = Plan::vs_ghosts(entrant("py-idle"), &games, 7).expect("plan");
    assert_eq!(plan.jobs.len(), 3);
    assert!(plan.jobs.iter().all(|j| j.seat1 == 0), "the algo takes seat 1, each ghost keeps seat 2");
    let mut spec = ArenaSpec::new(plan, Arc::new(preset("live-2022").expect("preset")), out.path());
    spec.ghost_rulesets = true;
    spec.jobs = 2;
    let outcome = run_arena(spec, |_| {}).expect("arena");
    assert_eq!(outcome.records.len(), 3);
    let rows = compare(&games, &outcome.records);
    let mut recorded_wins = 0;
    let mut now_wins = 0;
    let mut conceded = 0u64;
    for row in &rows {
        // The recorded side, read from the replay file: player 1's result, HP, breaches against it.
        let r = terminal_core::replay::read_replay(&row.game.replay).expect("recorded replay");
        let end = r.end_frame().and_then(|f| f.end_stats.clone()).expect("end stats");
        let last = r.frames.last().expect("frames");
        let against: usize =
            r.frames.iter().map(|f| f.events.breach.iter().filter(|b| b.owner == Player::Two).count()).sum();
        assert_eq!(row.game.recorded.won, end.winner == 1);
        assert_eq!(row.game.recorded.hp, last.stats[0].hp);
        assert_eq!(row.game.recorded.turns, end.turns);
        assert_eq!(row.game.recorded.breaches_conceded as usize, against);
        recorded_wins += usize::from(end.winner == 1);
        // The new side, read from the match's own replay: played under the ghost's ruleset.
        let rec = outcome.records.iter().find(|m| m.algo2 == row.game.label).expect("record of the game");
        let played = terminal_core::replay::read_replay(std::path::Path::new(&rec.replay)).expect("new replay");
        assert_eq!(played.config.raw, r.config.raw, "the ghost's own ruleset");
        let pend = played.end_frame().and_then(|f| f.end_stats.clone()).expect("end stats");
        let now = row.now.expect("played");
        let breaches: usize =
            played.frames.iter().map(|f| f.events.breach.iter().filter(|b| b.owner == Player::Two).count()).sum();
        assert_eq!(now.won, pend.winner == 1);
        assert_eq!(now.hp, played.frames.last().expect("frames").stats[0].hp);
        assert_eq!(now.breaches_conceded as usize, breaches);
        assert!(breaches > 0, "an idle algo concedes breaches");
        now_wins += usize::from(pend.winner == 1);
        conceded += breaches as u64;
    }
    let t = totals(&rows);
    assert_eq!((t.games, t.played), (3, 3));
    assert_eq!((t.recorded_wins, t.wins), (recorded_wins, now_wins));
    assert_eq!(t.breaches_conceded, conceded);
    assert_eq!(now_wins, 0, "an idle algo wins nothing");
}
