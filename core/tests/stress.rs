//! The layout lab against the real games of `../shared/replays`: in every recorded turn in
//! which only one player deployed mobile units, the defender's own structures, taken from
//! the replay as a layout, meet that turn's attack with exactly the breaches and HP lost the
//! replay recorded. And the suggestion's shortcut (runs skipped for attacks a change cannot
//! reach) gives the same HP lost as running everything.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use terminal_core::engine::Player;
use terminal_core::layout::stress::{self, AttackFilter, Defence, Detail, HpModel, attacks_of_replay, simulate};
use terminal_core::layout::{Kind, Layout};
use terminal_core::replay::read_replay;
use terminal_core::suggest::{Change, SuggestOptions, interaction_reach2, suggest};
use terminal_core::verify::collect_replays;

#[path = "../../tests/common/corpus.rs"]
mod corpus;
use corpus::{CURRENT_RULESETS, replay};

/// One turn whose test result differs from the record.
#[derive(Debug)]
#[allow(dead_code)]
struct Mismatch {
    file: String,
    turn: i32,
    attacker: u8,
    recorded: (u32, f32),
    tested: (u32, f32),
}

fn check_file(file: &Path) -> (usize, Vec<Mismatch>, Vec<String>) {
    let replay = match read_replay(file) {
        Ok(r) => r,
        Err(e) => return (0, Vec::new(), vec![e.to_string()]),
    };
    let filter = AttackFilter { config: Arc::new(replay.config.clone()), any_ruleset: false };
    let mut checked = 0;
    let mut mismatches = Vec::new();
    let mut errors = Vec::new();
    let mut scratch = None;
    for attack in attacks_of_replay(&replay, &filter) {
        let attack = match attack {
            Ok(a) => a,
            Err(e) => {
                errors.push(e.to_string());
                continue;
            }
        };
        if attack.recorded.defender_deployed {
            continue;
        }
        // The layout with the order the replay built it in: structures act in build order.
        let (layout, order) = (attack.recorded_layout(), attack.recorded_build_order());
        let defence = Defence::from_layout_ordered(&layout, attack.defender(), attack.config(), &order);
        let o = simulate(&attack, &defence, HpModel::Recorded, Detail::Counts, &mut scratch);
        checked += 1;
        let recorded = (attack.recorded.breaches, attack.recorded.hp_lost);
        if (o.breaches, o.hp_lost) != recorded {
            mismatches.push(Mismatch {
                file: attack.file_name(),
                turn: attack.turn,
                attacker: attack.attacker.number(),
                recorded,
                tested: (o.breaches, o.hp_lost),
            });
        }
    }
    (checked, mismatches, errors)
}

#[test]
fn every_lone_attack_of_the_corpus_breaches_as_recorded() {
    let mut files = Vec::new();
    for ruleset in CURRENT_RULESETS {
        files.extend(collect_replays(&[replay(ruleset)]));
    }
    assert!(files.len() >= 390, "expected the current-format corpus, found {} replays", files.len());
    let (a, b) = files.split_at(files.len() / 2);
    let results: Vec<_> = std::thread::scope(|s| {
        let ha = s.spawn(|| a.iter().map(|f| check_file(f)).collect::<Vec<_>>());
        let hb = s.spawn(|| b.iter().map(|f| check_file(f)).collect::<Vec<_>>());
        let mut r = ha.join().expect("worker");
        r.extend(hb.join().expect("worker"));
        r
    });
    let checked: usize = results.iter().map(|r| r.0).sum();
    let mismatches: Vec<&Mismatch> = results.iter().flat_map(|r| &r.1).collect();
    let errors: Vec<&String> = results.iter().flat_map(|r| &r.2).collect();
    assert!(errors.is_empty(), "{} turns could not be rebuilt, first: {:?}", errors.len(), errors.first());
    assert!(checked >= 3500, "only {checked} lone attacks found in the corpus");
    assert!(
        mismatches.is_empty(),
        "{} of {checked} lone attacks differ from the record; first ones: {:#?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(10)]
    );
}

/// For real attacks and every placement near the board's middle, an attack that the
/// suggestion skips (no attacker ever came within reach of the tile) loses exactly the HP it
/// lost without the change.
#[test]
fn attacks_out_of_reach_of_a_change_are_unchanged_by_it() {
    let (attacks, layout, config) = busy_attacks();
    let seat = Player::One;
    let base_defence = Defence::from_layout(&layout, seat, &config);
    let cancel = AtomicBool::new(false);
    let base = stress::run_outcomes(&attacks, &base_defence, HpModel::Unlimited, Detail::Tiles, 2, &|_, _| {}, &cancel)
        .unwrap_or_else(|e| panic!("{e}"));
    let reach2 = interaction_reach2(&config);
    let mut skipped = 0;
    let mut scratch = None;
    for x in (4..24).step_by(3) {
        for y in [9, 11, 12, 13] {
            let tile = terminal_core::engine::Tile::new(x, y);
            if !tile.in_play() || layout.get(tile).is_some() {
                continue;
            }
            let changed = Change::Place { tile, kind: Kind::Turret }.apply(&layout, seat);
            let defence = Defence::from_layout(&changed, seat, &config);
            for (attack, o) in attacks.iter().zip(&base) {
                if o.path.iter().any(|p| p.dist2(tile) <= reach2) {
                    continue;
                }
                skipped += 1;
                let now = simulate(attack, &defence, HpModel::Unlimited, Detail::Counts, &mut scratch);
                assert_eq!(
                    (now.breaches, now.hp_lost, now.structures_lost),
                    (o.breaches, o.hp_lost, o.structures_lost),
                    "turret at {tile}: turn {} of player {} changed though no attacker came near",
                    attack.turn,
                    attack.attacker.number()
                );
            }
        }
    }
    assert!(skipped >= 50, "only {skipped} (attack, tile) pairs were out of reach: the check checked little");
}

/// Why a layout is tested with its build order: in this recorded turn two Turrets reach the
/// same units, and which of them shoots first decides whether a Scout gets through.
#[test]
fn build_order_of_the_defence_can_decide_a_breach() {
    let path = replay("live-2022/Acceleraizer__c1terminal-algo__1558.replay.gz");
    let r = read_replay(&path).unwrap_or_else(|e| panic!("{e}"));
    let filter = AttackFilter { config: Arc::new(r.config.clone()), any_ruleset: false };
    let attack = attacks_of_replay(&r, &filter)
        .into_iter()
        .filter_map(Result::ok)
        .find(|a| a.turn == 15 && a.attacker == Player::Two)
        .unwrap_or_else(|| panic!("{}: no attack by player 2 in turn 15", path.display()));
    assert_eq!((attack.recorded.breaches, attack.recorded.hp_lost), (1, 1.0));
    let layout = attack.recorded_layout();
    let mut scratch = None;
    let in_order = Defence::from_layout_ordered(&layout, Player::One, attack.config(), &attack.recorded_build_order());
    let o = simulate(&attack, &in_order, HpModel::Recorded, Detail::Counts, &mut scratch);
    assert_eq!((o.breaches, o.hp_lost), (1, 1.0), "in the recorded build order");
    let by_tile = Defence::from_layout(&layout, Player::One, attack.config());
    let o = simulate(&attack, &by_tile, HpModel::Recorded, Detail::Counts, &mut scratch);
    assert_eq!((o.breaches, o.hp_lost), (2, 2.0), "in tile order another Turret shoots first");
}

/// The attacks of one busy live-2022 replay and the funnel layout under that ruleset.
fn busy_attacks() -> (Vec<terminal_core::layout::stress::Attack>, Layout, Arc<terminal_core::engine::Config>) {
    let path = replay("live-2022/Acceleraizer__c1terminal-algo__1011.replay.gz");
    let r = read_replay(&path).unwrap_or_else(|e| panic!("{e}"));
    let config = Arc::new(r.config.clone());
    let filter = AttackFilter { config: Arc::clone(&config), any_ruleset: false };
    let attacks: Vec<_> = attacks_of_replay(&r, &filter).into_iter().filter_map(Result::ok).collect();
    assert!(attacks.len() >= 10, "{} attacks in {}", attacks.len(), path.display());
    let layout_path = corpus::layouts().join("funnel.json");
    let layout = terminal_core::layout::files::load_layout(&layout_path).unwrap_or_else(|e| panic!("{e}"));
    (attacks, layout, config)
}

/// A layout drawn for player 2 is the player-1 layout rotated: every attack, by either
/// player, meets the same structures and ends the same, its tiles rotated.
#[test]
fn a_layout_meets_the_same_attacks_from_either_seat() {
    let (attacks, layout, config) = busy_attacks();
    let mut rotated = Layout::default();
    for (t, s) in layout.of(Player::One) {
        rotated.structures.insert(t.rotated(), *s);
    }
    let cancel = AtomicBool::new(false);
    let one = Defence::from_layout(&layout, Player::One, &config);
    let two = Defence::from_layout(&rotated, Player::Two, &config);
    let a = stress::run(&attacks, &one, HpModel::Unlimited, 2, &|_, _| {}, &cancel).unwrap_or_else(|e| panic!("{e}"));
    let b = stress::run(&attacks, &two, HpModel::Unlimited, 2, &|_, _| {}, &cancel).unwrap_or_else(|e| panic!("{e}"));
    assert!(attacks.iter().any(|x| x.attacker == Player::One) && attacks.iter().any(|x| x.attacker == Player::Two));
    assert!(a.totals.hp_lost > 0.0, "the funnel lets some of these attacks through");
    assert_eq!(a.totals, b.totals);
    for (x, y) in a.outcomes.iter().zip(&b.outcomes) {
        let rotated: Vec<_> = x.breach_tiles.iter().map(|(t, d)| (t.rotated(), *d)).collect();
        assert_eq!(rotated, y.breach_tiles);
    }
    // Heatmap tiles are in the layout's own view: player 1's breaches land on its own edges.
    assert!(a.outcomes.iter().flat_map(|o| &o.breach_tiles).all(|(t, _)| t.y <= 13));
}

/// A cancel flag set before the run stops it without a report.
#[test]
fn a_cancelled_run_has_no_report() {
    let (attacks, layout, config) = busy_attacks();
    let cancel = AtomicBool::new(true);
    let defence = Defence::from_layout(&layout, Player::One, &config);
    let r = stress::run(&attacks, &defence, HpModel::Unlimited, 2, &|_, _| {}, &cancel);
    assert_eq!(r.err(), Some(stress::RunError::Cancelled));
}

/// The what-if an attack opens in the Debugger shows what the lab's row counted: breaches,
/// HP, structures and SP destroyed, over hundreds of real attacks of several rulesets, each
/// against the funnel layout and against the defender's own recorded base.
#[test]
fn the_what_if_of_an_attack_shows_what_the_lab_counted() {
    use terminal_core::session::whatif;
    let layout_path = corpus::layouts().join("funnel.json");
    let funnel = terminal_core::layout::files::load_layout(&layout_path).unwrap_or_else(|e| panic!("{e}"));
    let mut compared = 0;
    let mut breached = 0;
    let mut destroyed = 0;
    for ruleset in ["live-2022", "special-2025", "citadel-2026", "s8-2021a"] {
        let files = collect_replays(&[replay(ruleset)]);
        assert!(!files.is_empty(), "no replays of {ruleset}");
        for file in files.iter().take(8) {
            let r = read_replay(file).unwrap_or_else(|e| panic!("{e}"));
            let config = Arc::new(r.config.clone());
            let filter = AttackFilter { config: Arc::clone(&config), any_ruleset: false };
            let mut scratch = None;
            for attack in attacks_of_replay(&r, &filter).into_iter().filter_map(Result::ok) {
                let recorded = attack.recorded_layout();
                for (name, layout, seat) in
                    [("funnel", &funnel, Player::One), ("recorded", &recorded, attack.defender())]
                {
                    let defence = Defence::from_layout(layout, seat, &config);
                    let o = simulate(&attack, &defence, HpModel::Unlimited, Detail::Tiles, &mut scratch);
                    let t = attack.what_if_try(&defence, HpModel::Unlimited);
                    let tried = whatif::run(&t.game, None, &t.spec, &t.label).unwrap_or_else(|e| panic!("{e}"));
                    let (a, s) = (attack.attacker.index(), &tried.summary);
                    assert_eq!(
                        (s.breaches[a], s.hp_damage[a], s.structures_destroyed[a], s.sp_destroyed[a], s.rejected),
                        (o.breaches, o.hp_lost, o.structures_lost, o.sp_lost, [0, 0]),
                        "{} turn {} by player {} against {name}",
                        attack.file_name(),
                        attack.turn,
                        attack.attacker.number()
                    );
                    compared += 1;
                    breached += usize::from(o.breaches > 0);
                    destroyed += usize::from(o.structures_lost > 0);
                }
            }
        }
    }
    println!("{compared} attacks compared: {breached} breached, {destroyed} destroyed structures");
    assert!(compared >= 500, "only {compared} attacks compared");
    assert!(breached >= 50 && destroyed >= 50, "{compared} attacks: {breached} breached, {destroyed} destroyed");
}

/// A set of attacks is kept compactly: a ladder history of thousands of replays holds tens of
/// thousands of attacks, and the lab keeps them between runs.
#[test]
fn attacks_are_kept_compactly() {
    let files = collect_replays(&[replay("live-2022")]);
    let r = read_replay(&files[0]).unwrap_or_else(|e| panic!("{e}"));
    let filter = AttackFilter { config: Arc::new(r.config.clone()), any_ruleset: false };
    let attacks: Vec<_> = attacks_of_replay(&r, &filter).into_iter().filter_map(Result::ok).collect();
    assert!(attacks.len() >= 5, "{} attacks", attacks.len());
    let mean = attacks.iter().map(|a| a.approx_bytes()).sum::<usize>() / attacks.len();
    println!(
        "{mean} bytes per attack on average, Attack itself {}",
        std::mem::size_of::<terminal_core::layout::stress::Attack>()
    );
    assert!(mean < 4096, "{mean} bytes per attack");
}

/// A set read from many replays of one ruleset holds one parsed config for all of them (each
/// replay parses its own, raw JSON included: once per attack it cost more than the attacks),
/// and one path and ruleset name per replay.
#[test]
fn a_set_of_many_replays_shares_one_config_and_each_replays_names() {
    let files: Vec<_> = collect_replays(&[replay("live-2022")]).into_iter().take(12).collect();
    let first = read_replay(&files[0]).unwrap_or_else(|e| panic!("{e}"));
    let filter = AttackFilter { config: Arc::new(first.config.clone()), any_ruleset: false };
    let set = stress::load_attacks(&files, &filter, 2, &|_, _| {}, &AtomicBool::new(false)).expect("attacks");
    assert!(set.attacks.len() > 50, "{} attacks from {} replays", set.attacks.len(), files.len());
    let config = set.attacks[0].config();
    assert!(set.attacks.iter().all(|a| Arc::ptr_eq(a.config(), config)), "one config for every attack");
    for pair in set.attacks.windows(2).filter(|p| p[0].replay == p[1].replay) {
        assert!(Arc::ptr_eq(&pair[0].replay, &pair[1].replay), "{}: one path per replay", pair[0].replay.display());
        assert!(Arc::ptr_eq(&pair[0].ruleset, &pair[1].ruleset), "one ruleset name per replay");
    }
    // A run keeps each attack's tiles (the heatmap) but not every unit's walk.
    let defence = Defence::from_layout(&Layout::default(), Player::One, &filter.config);
    let report =
        stress::run(&set.attacks, &defence, HpModel::Unlimited, 2, &|_, _| {}, &AtomicBool::new(false)).expect("run");
    assert!(report.outcomes.iter().any(|o| !o.breach_tiles.is_empty()), "breach tiles kept");
    assert!(report.outcomes.iter().all(|o| o.unit_paths.is_empty()), "no unit walks kept");
}

/// Each step of a suggestion reports the HP lost that every attack, run in full against the
/// layout with that step and those before it, gives: the screening's shortcut never shows
/// in a reported figure.
#[test]
fn each_suggested_step_reports_what_a_full_run_gives() {
    let (attacks, layout, config) = busy_attacks();
    let seat = Player::One;
    let cancel = AtomicBool::new(false);
    let options = SuggestOptions { budget: 8.0, jobs: 2, ..SuggestOptions::default() };
    let s = suggest(&attacks, &layout, seat, &config, &options, &|_| {}, &cancel).unwrap_or_else(|e| panic!("{e}"));
    assert!(s.steps.len() >= 2, "a suggestion of {} steps checks little", s.steps.len());
    let full = |l: &Layout| {
        let defence = Defence::from_layout(l, seat, &config);
        let run = stress::run(&attacks, &defence, HpModel::Unlimited, 2, &|_, _| {}, &cancel);
        run.unwrap_or_else(|e| panic!("{e}")).totals.hp_lost
    };
    let mut now = layout.clone();
    assert_eq!(s.hp_lost_before, full(&now));
    for step in &s.steps {
        assert_eq!(step.hp_lost_before, full(&now), "{}", step.label);
        now = step.change.apply(&now, seat);
        assert_eq!(step.hp_lost_after, full(&now), "{}", step.label);
    }
    assert_eq!(now, s.layout);
    assert_eq!(s.hp_lost_after, full(&now));
}
