//! The attack planner on real games of `../shared/replays`: its best deploys play back
//! through the engine (a Debugger what-if of the turn) exactly as predicted; its evaluator
//! gives the recorded breaches for the recorded deploys; and over a sample of recorded turns
//! in which the attacker sent at most two groups, the planner's best is at least as damaging
//! as what the player sent, judged by the same evaluator.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use terminal_core::engine::presets::load_config;
use terminal_core::engine::{Command, CommandKind, Player};
use terminal_core::layout::files::load_layout;
use terminal_core::layout::stress::{
    Attack, AttackFilter, Detail, HpModel, TurnSelect, attacks_of_replay_where, simulate,
};
use terminal_core::planner::{
    AttackOption, Candidate, FrontierPoint, Likeness, PlanBoard, PlanRequest, frontier, frontier_levels,
    frontier_request, options, plan,
};
use terminal_core::replay::{Replay, read_replay};
use terminal_core::session::whatif::{self, WhatIfSpec};
use terminal_core::suggest::{Against, SuggestOptions, suggest};
use terminal_core::verify::collect_replays;
use terminal_core::verify::rebuild::{game_at_turn_frame, running_max_ids};

#[path = "../../tests/common/corpus.rs"]
mod corpus;
use corpus::{BUSY, CURRENT_RULESETS, replay};

fn read(path: &Path) -> Replay {
    read_replay(path).unwrap_or_else(|e| panic!("{e}"))
}

fn request(max_groups: usize, jobs: usize) -> PlanRequest {
    PlanRequest { max_groups, jobs, ..PlanRequest::default() }
}

fn plan_of(board: &PlanBoard, req: &PlanRequest) -> Vec<Candidate> {
    plan(board, req, &|_| {}, &AtomicBool::new(false)).unwrap_or_else(|e| panic!("{e}")).candidates
}

/// The turn played as a Debugger what-if: both players' recorded builds, the attacker's
/// deploy line replaced by `deploy`, the defender deploying nothing. Returns the attacker's
/// (breaches, HP damage, SP destroyed) and the defender's HP when the action phase began.
fn what_if(replay: &Replay, turn: i32, attacker: Player, deploy: Vec<Command>) -> ((u32, f32, f32), f32) {
    let config = Arc::new(replay.config.clone());
    let ids = running_max_ids(&replay.frames);
    let start = replay.turn_starts().into_iter().find(|&s| replay.frames[s].turn_info.turn == turn);
    let start = start.unwrap_or_else(|| panic!("no turn {turn}"));
    let (game, inputs) = game_at_turn_frame(replay, &config, start, &ids, None).unwrap_or_else(|e| panic!("{e}"));
    // As the Debugger's "Try" of a candidate asks for it: deploy lines replaced, builds kept.
    let mut spec = WhatIfSpec::default();
    let (a, d) = (attacker.index(), attacker.opponent().index());
    spec.deploys[a] = Some(deploy);
    spec.deploys[d] = Some(Vec::new());
    let t = whatif::run(&game, Some(&inputs), &spec, "planner").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.summary.rejected, [0, 0], "turn {turn}: the what-if refused commands");
    let hp = game.player(attacker.opponent()).stats.hp;
    let s = &t.summary;
    ((s.breaches[a], s.hp_damage[a], s.sp_destroyed[a]), hp)
}

/// Played back independently, the planner's top candidates end as it predicted: the same
/// breaches, HP damage and SP destroyed, on turns whose defender outlives the attack.
#[test]
fn the_best_deploys_play_back_as_predicted() {
    let r = read(&replay(BUSY));
    let mut checked = 0;
    for (turn, attacker) in [(6, Player::One), (9, Player::Two), (12, Player::One), (15, Player::Two)] {
        let board = PlanBoard::from_replay(&r, turn, attacker).unwrap_or_else(|e| panic!("turn {turn}: {e}"));
        let candidates = plan_of(&board, &request(3, 2));
        assert!(!candidates.is_empty(), "turn {turn}: no candidate");
        for c in candidates.iter().take(3) {
            let (played, hp) = what_if(&r, turn, attacker, c.deploy());
            if c.damage >= hp {
                continue; // The game would end mid-attack: the planner counts every breach.
            }
            let predicted = (c.breaches, c.damage, c.sp_destroyed);
            assert_eq!(played.0, predicted.0, "turn {turn} {:?}: breaches", c.groups);
            assert_eq!(played.1, predicted.1, "turn {turn} {:?}: HP damage", c.groups);
            assert!((played.2 - predicted.2).abs() < 1e-3, "turn {turn} {:?}: SP {played:?} {predicted:?}", c.groups);
            checked += 1;
        }
    }
    assert!(checked >= 8, "only {checked} candidates played back");
}

/// The same candidates, in the same order, on one thread or two.
#[test]
fn the_search_is_deterministic() {
    let r = read(&replay(BUSY));
    let board = PlanBoard::from_replay(&r, 12, Player::One).unwrap_or_else(|e| panic!("{e}"));
    let one = plan_of(&board, &request(3, 1));
    let two = plan_of(&board, &request(3, 2));
    assert!(one.len() > 100, "{} candidates", one.len());
    assert_eq!(one, two);
}

/// With `--mp`, every candidate costs at most that; with no MP, there is none.
#[test]
fn the_mp_given_bounds_every_candidate() {
    let r = read(&replay(BUSY));
    let board = PlanBoard::from_replay(&r, 12, Player::One).unwrap_or_else(|e| panic!("{e}")).with_mp(5.0);
    let c = plan_of(&board, &request(3, 2));
    assert!(c.iter().all(|c| c.mp_spent <= 5.0) && !c.is_empty());
    assert!(plan_of(&board.with_mp(0.0), &request(3, 2)).is_empty());
}

/// A cancelled search stops with `Cancelled`; a search reports its progress stage by stage.
#[test]
fn the_search_reports_progress_and_stops_when_cancelled() {
    use std::sync::Mutex;
    use terminal_core::layout::stress::RunError;
    use terminal_core::planner::PlanError;
    let r = read(&replay(BUSY));
    let board = PlanBoard::from_replay(&r, 6, Player::One).unwrap_or_else(|e| panic!("{e}"));
    let cancelled = plan(&board, &request(3, 2), &|_| {}, &AtomicBool::new(true));
    assert_eq!(cancelled.err(), Some(PlanError::Run(RunError::Cancelled)));
    let stages = Mutex::new(BTreeSet::new());
    let note = |p: terminal_core::planner::PlanProgress| {
        assert!(p.done <= p.total);
        stages.lock().unwrap_or_else(|e| e.into_inner()).insert(p.stage);
    };
    plan(&board, &request(3, 2), &note, &AtomicBool::new(false)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stages.into_inner().unwrap_or_else(|e| e.into_inner()), BTreeSet::from([1, 2, 3]));
}

/// The groups of a recorded deploy line: (type, tile) lanes.
fn groups_of(deploy: &[Command]) -> BTreeSet<(u8, i32, i32)> {
    deploy
        .iter()
        .filter_map(|c| match c.kind {
            CommandKind::Spawn(t) => Some((t, c.tile.x, c.tile.y)),
            _ => None,
        })
        .collect()
}

/// What one replay's sampled turns gave: turns compared, evaluator checks, and failures.
#[derive(Default)]
struct Sample {
    compared: usize,
    record_checked: usize,
    failures: Vec<String>,
}

/// Every `step`-th turn (by attack) of one replay in which the attacker sent one or two groups.
fn check_replay(path: &Path, step: usize, sample: &mut Sample) {
    let r = read(path);
    let filter = AttackFilter { config: Arc::new(r.config.clone()), any_ruleset: false };
    let attacks: Vec<Attack> = attacks_of_replay_where(&r, &filter, &TurnSelect::default())
        .into_iter()
        .filter_map(Result::ok)
        .filter(|a| groups_of(a.recorded_deploy()).len() <= 2)
        .collect();
    for attack in attacks.into_iter().step_by(step) {
        let name = format!("{} turn {} P{}", attack.file_name(), attack.turn, attack.attacker.number());
        let recorded = attack.recorded;
        let hp_before = attack.recorded_hp(attack.defender());
        let board = PlanBoard::from_attack(attack);
        let played = board.evaluate(board.attack().recorded_deploy(), false, &mut None);
        // The evaluator against the record, where the model is the game's: no defender unit,
        // and the defender outlived the attack.
        if !recorded.defender_deployed && recorded.hp_lost < hp_before {
            sample.record_checked += 1;
            if (played.breaches, played.hp_lost) != (recorded.breaches, recorded.hp_lost) {
                sample.failures.push(format!("{name}: evaluator {played:?} vs recorded {recorded:?}"));
            }
        }
        let best = plan_of(&board, &request(3, 1));
        sample.compared += 1;
        let best_damage = best.first().map_or(0.0, |c| c.damage);
        if best_damage < played.hp_lost {
            sample.failures.push(format!("{name}: player {} HP, planner's best {best_damage} HP", played.hp_lost));
        }
    }
}

#[test]
fn the_planner_matches_or_beats_the_recorded_deploys() {
    let mut files = Vec::new();
    for ruleset in CURRENT_RULESETS {
        let mut found = collect_replays(&[replay(ruleset)]);
        found.sort();
        // Four replays of each ruleset, spread over its folder; every third qualifying turn.
        let every = found.len().div_ceil(4).max(1);
        files.extend(found.into_iter().step_by(every));
    }
    let (a, b) = files.split_at(files.len() / 2);
    let run = |part: &[std::path::PathBuf]| {
        let mut s = Sample::default();
        for f in part {
            check_replay(f, 3, &mut s);
        }
        s
    };
    let (x, y) = std::thread::scope(|s| {
        let ha = s.spawn(|| run(a));
        let hb = s.spawn(|| run(b));
        (ha.join().expect("worker"), hb.join().expect("worker"))
    });
    let compared = x.compared + y.compared;
    let record_checked = x.record_checked + y.record_checked;
    let failures: Vec<&String> = x.failures.iter().chain(&y.failures).collect();
    println!(
        "planner vs recorded deploys: {compared} turns of {} replays compared, {record_checked} checked against the record",
        files.len()
    );
    assert!(compared >= 60, "only {compared} turns compared");
    assert!(failures.is_empty(), "{} failures: {failures:#?}", failures.len());
}

/// The planner's evaluations start from a game built once a board and copied for each run;
/// every one must end exactly as a run built from scratch does (the lab's `simulate`), with
/// its tiles and walks, one scratch game reused across the runs as the search reuses it.
#[test]
fn evaluations_from_the_prepared_start_equal_runs_from_scratch() {
    let mut compared = 0;
    for ruleset in CURRENT_RULESETS {
        let mut found = collect_replays(&[replay(ruleset)]);
        found.sort();
        let Some(path) = found.first() else { panic!("no replay of {ruleset}") };
        let r = read(path);
        let filter = AttackFilter { config: Arc::new(r.config.clone()), any_ruleset: false };
        let mut scratch = None;
        for attack in attacks_of_replay_where(&r, &filter, &TurnSelect::default()).into_iter().filter_map(Result::ok) {
            let name = format!("{} turn {} P{}", attack.file_name(), attack.turn, attack.attacker.number());
            let board = PlanBoard::from_attack(attack);
            let from_scratch = simulate(board.attack(), board.defence(), HpModel::Unlimited, Detail::Walks, &mut None);
            // Twice on the same board: the second run copies the start the first one built.
            for _ in 0..2 {
                let prepared = board.evaluate(board.attack().recorded_deploy(), true, &mut scratch);
                assert_eq!(prepared, from_scratch, "{name}");
            }
            compared += 1;
        }
    }
    assert!(compared >= 140, "only {compared} attacks compared");
}

/// The top ten of `board` as the planner ranks every deploy, and as distinct rows.
fn rows_of(board: &PlanBoard) -> (Vec<Likeness>, Vec<AttackOption>) {
    let cancel = AtomicBool::new(false);
    let result = plan(board, &request(3, 2), &|_| {}, &cancel).unwrap_or_else(|e| panic!("{e}"));
    let walked = |c: &Candidate| Likeness::of(&board.evaluate(&c.deploy(), true, &mut None), board.attacker());
    let every = result.top(10).iter().map(walked).collect();
    let rows = options(board, &result, 10, 2, &cancel).unwrap_or_else(|e| panic!("{e}"));
    (every, rows)
}

/// Rows of `likeness` that repeat a row above them.
fn repeats(likeness: &[&Likeness]) -> usize {
    (0..likeness.len()).filter(|&k| likeness[..k].contains(&likeness[k])).count()
}

/// On real replay turns, the planner's list is of different attacks: no two of the top ten
/// rows share both their walks and their outcome; each row's deploys, played again with their
/// walks, are alike; the rows are best first; the recorded deploy is a row of its own, placed
/// by its rank. On the turn of issue #47 every one of the ten best deploys was one attack.
#[test]
fn the_top_rows_are_distinct_attacks() {
    let turns = [
        ("live-2022/Acceleraizer__c1terminal-algo__1003.replay.gz", 12, Player::One),
        (BUSY, 6, Player::One),
        (BUSY, 9, Player::Two),
        (BUSY, 15, Player::Two),
        ("s8-2021b/jinkim22__Correlation-one-bot__champ.replay.gz", 34, Player::Two),
        ("live-2022/Acceleraizer__c1terminal-algo__99.replay.gz", 20, Player::One),
    ];
    let (mut before, mut listed) = (0, 0);
    for (k, (rel, turn, attacker)) in turns.into_iter().enumerate() {
        let r = read(&replay(rel));
        let board = PlanBoard::from_replay(&r, turn, attacker).unwrap_or_else(|e| panic!("{rel} {turn}: {e}"));
        let (every, rows) = rows_of(&board);
        let name = format!("{rel} turn {turn}");
        let searched: Vec<&AttackOption> = rows.iter().filter(|r| !r.recorded).collect();
        assert_eq!(searched.len(), 10, "{name}: ten rows");
        let likeness: Vec<&Likeness> = searched.iter().map(|r| &r.likeness).collect();
        assert_eq!(repeats(&likeness), 0, "{name}: rows share their walks and outcome");
        assert!(searched.windows(2).all(|w| w[0].best.rank(&w[1].best).is_lt()), "{name}: best first");
        for row in &searched {
            for c in row.deploys().take(3) {
                let again = Likeness::of(&board.evaluate(&c.deploy(), true, &mut None), attacker);
                assert_eq!(again, row.likeness, "{name}: {:?} is not like its row", c.groups);
                assert_eq!(again.breaches, c.breaches);
            }
        }
        let recorded: Vec<&AttackOption> = rows.iter().filter(|r| r.recorded).collect();
        let deployed = !board.attack().recorded_deploy().is_empty();
        assert_eq!(recorded.len(), usize::from(deployed), "{name}: the recorded deploy's row");
        if let Some(row) = recorded.first() {
            assert_eq!(row.best.deploy(), board.attack().recorded_deploy(), "{name}: the deploy as recorded");
            let at = rows.iter().position(|r| r.recorded).unwrap_or(0);
            assert!(rows[..at].iter().all(|r| r.best.objective(&row.best).is_le()), "{name}: placed by rank");
            assert!(rows[at + 1..].iter().all(|r| r.best.objective(&row.best).is_gt()), "{name}: placed by rank");
        }
        let repeated = repeats(&every.iter().collect::<Vec<_>>());
        if k == 0 {
            assert_eq!(repeated, 9, "{name}: the ten best deploys were one attack before");
        }
        (before, listed) = (before + repeated, listed + every.len());
        eprintln!("{name}: {repeated} of the ten best deploys repeat one above; the rows: none");
    }
    eprintln!(
        "before: {before} of {listed} top-ten rows repeated a row above ({:.0} %)",
        100.0 * before as f64 / listed as f64
    );
}

/// The frontier of `board` up to `top` MP: never down as the MP grows, each level's best
/// within its MP, and each best played again ends as reported.
fn check_frontier(board: &PlanBoard, top: f32, name: &str) -> Vec<FrontierPoint> {
    let levels = frontier_levels(board, top);
    assert!(levels.windows(2).all(|w| w[0] < w[1]) && levels.last() == Some(&top), "{name}: {levels:?}");
    let points = frontier(board, &levels, &frontier_request(2), &|_, _| {}, &AtomicBool::new(false))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(points.len(), levels.len());
    let mut last: Option<&Candidate> = None;
    for p in &points {
        let best = p.best.as_ref().unwrap_or_else(|| panic!("{name} at {} MP: no attack", p.mp));
        assert!(best.mp_spent <= p.mp + 1e-4, "{name} at {} MP: spends {}", p.mp, best.mp_spent);
        if let Some(l) = last {
            assert!(best.damage >= l.damage && best.rank(l).is_le(), "{name}: down at {} MP", p.mp);
        }
        let again = board.evaluate(&best.deploy(), false, &mut None);
        assert_eq!((again.breaches, again.hp_lost), (best.breaches, best.damage), "{name} at {} MP", p.mp);
        last = Some(best);
    }
    points
}

/// The cost to break a base, on a replay turn (to the turn's MP) and a shipped layout: the
/// frontier is non-decreasing in MP, and its top level is at least what one search at that
/// MP with the same preset finds.
#[test]
fn the_frontier_is_non_decreasing_in_mp() {
    let r = read(&replay("live-2022/Acceleraizer__c1terminal-algo__1003.replay.gz"));
    let board = PlanBoard::from_replay(&r, 12, Player::One).unwrap_or_else(|e| panic!("{e}"));
    let points = check_frontier(&board, board.mp(), "1003 turn 12");
    let top = plan_of(&board, &frontier_request(2));
    let (best, found) = (points.last().and_then(|p| p.best.as_ref()), top.first());
    assert!(best.zip(found).is_some_and(|(b, f)| b.rank(f).is_le()), "the top level");
    assert!(points.first().and_then(|p| p.best.as_ref()).is_some_and(|b| b.damage < 10.0), "one unit does less");

    let layout = load_layout(&corpus::layouts().join("funnel-2022.json")).unwrap_or_else(|e| panic!("{e}"));
    let config = Arc::new(load_config("live-2022").unwrap_or_else(|e| panic!("{e}")));
    let board = PlanBoard::from_layout(&layout, &config, Player::Two, 15.0);
    let points = check_frontier(&board, 15.0, "funnel-2022");
    let damage: Vec<f32> = points.iter().map(|p| p.best.as_ref().map_or(0.0, |b| b.damage)).collect();
    eprintln!("funnel-2022, HP damage at 1..15 MP: {damage:?}");
}

const CHAMP: &str = "s8-2021b/jinkim22__Correlation-one-bot__champ.replay.gz";

/// A suggestion against the planner, on a base from a real replay turn (player 1's
/// structures on turn 34 of an s8-2021b game) with a small schedule and budget: at every scheduled MP level the strongest reply after the changes
/// does no more HP damage than before, in all it does less, and every reported reply, before
/// and after, is what its Debugger what-if against that layout gives.
#[test]
fn a_suggestion_against_the_planner_lowers_its_strongest_replies() {
    let r = read(&replay(CHAMP));
    let board = PlanBoard::from_replay(&r, 34, Player::Two).unwrap_or_else(|e| panic!("{e}"));
    let layout = board.attack().recorded_layout();
    let config = r.config.clone();
    let options = SuggestOptions {
        budget: 8.0,
        max_steps: 3,
        jobs: 2,
        against: Against::Planner,
        mp_levels: vec![8.0, 16.0],
        replanned: 4,
        ..SuggestOptions::default()
    };
    let cancel = AtomicBool::new(false);
    let started = std::time::Instant::now();
    let s = suggest(&[], &layout, Player::One, &config, &options, &|_| {}, &cancel).unwrap_or_else(|e| panic!("{e}"));
    let report = s.planner.as_ref().unwrap_or_else(|| panic!("no planner report"));
    let mps: Vec<f32> = report.levels.iter().map(|l| l.mp).collect();
    assert_eq!(mps, [8.0, 16.0]);
    for l in &report.levels {
        eprintln!("{} MP: {:?} -> {:?} (HP, SP)", l.mp, l.figures(false), l.figures(true));
    }
    assert!(!s.steps.is_empty(), "no change found");
    for l in &report.levels {
        assert!(l.figures(true).0 <= l.figures(false).0, "{} MP: the strongest reply does more after", l.mp);
    }
    assert!(report.damage_sum(true) < report.damage_sum(false), "the replies' damage did not go down");
    for step in &s.steps {
        assert!(step.planner_after <= step.planner_before, "{}: the step raised the replies", step.label);
    }
    assert!(s.steps.last().is_some_and(|st| !st.prepares), "a preparing step is kept last");
    let mut tried = 0;
    for (i, l) in report.levels.iter().enumerate() {
        for after in [false, true] {
            let reply = if after { &l.after } else { &l.before };
            let Some(reply) = reply else { continue };
            let t = report.what_if(i, after).unwrap_or_else(|| panic!("no what-if at {} MP", l.mp));
            let run = whatif::run(&t.game, None, &t.spec, &t.label).unwrap_or_else(|e| panic!("{e}"));
            let (a, w) = (Player::Two.index(), &run.summary);
            assert_eq!(
                (w.breaches[a], w.hp_damage[a], w.sp_destroyed[a], w.rejected),
                (reply.breaches, reply.damage, reply.sp_destroyed, [0, 0]),
                "{}: {} MP",
                t.label,
                l.mp
            );
            tried += 1;
        }
    }
    assert!(tried >= 2);
    eprintln!(
        "{} steps ({}), {} re-searches, {:.1} s",
        s.steps.len(),
        s.steps.iter().map(|st| st.label.as_str()).collect::<Vec<_>>().join(", "),
        report.researched,
        started.elapsed().as_secs_f64()
    );
}
