//! Saved versions compared as a player compares them: one test algo changed from a known
//! turn, played against real recorded players as ghosts and head to head. The turn the games
//! part at is found exactly, the flipped games are found, a second comparison plays only the
//! new version's games, and an algo with unseeded randomness is caught.

use std::path::{Path, PathBuf};
use terminal_core::versions::{Flip, RegressEvent, RegressReport, RegressSpec, Stage, VersionStore, run_regress};

#[path = "../../tests/common/corpus.rs"]
mod corpus;
#[path = "../../tests/common/switch_algo.rs"]
mod switch_algo;
use switch_algo::write_algo;

/// The recorded games the versions meet: the recorded player 2 of each replays as a ghost.
const GHOSTS: &str = "special-2025";
/// How many of them (the first by name), to keep the test short.
const GHOST_COUNT: usize = 6;
/// The games against the same opponents per version: every ghost, and `py-idle` (run from its
/// own folder) from both seats.
const OPPONENT_GAMES: usize = GHOST_COUNT + 2;

/// The first replays of the ghosts' folder, copied into `dir` (so the test names its own set).
fn ghosts(dir: &Path) -> PathBuf {
    let mut all = terminal_core::verify::collect_replays(&[corpus::replay(GHOSTS)]);
    all.sort();
    assert!(all.len() >= GHOST_COUNT, "../shared/replays/{GHOSTS} holds {} replays, {GHOST_COUNT} needed", all.len());
    std::fs::create_dir_all(dir).expect("the ghosts' folder");
    for f in &all[..GHOST_COUNT] {
        let name = f.file_name().expect("a file name");
        std::fs::copy(f, dir.join(name)).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    }
    dir.to_path_buf()
}

fn spec(algo: &Path, data: &Path, ghosts: &Path) -> RegressSpec {
    let mut spec = RegressSpec::new(algo, VersionStore::in_data_dir(data));
    spec.ghosts = vec![ghosts.to_path_buf()];
    spec.vs = vec![corpus::algo("py-idle")];
    spec.games = 4;
    spec.jobs = 2;
    spec
}

/// Runs a comparison, counting the games each stage said it would play.
fn regress(spec: RegressSpec) -> (RegressReport, [usize; 2]) {
    let mut to_play = [0, 0];
    let report = run_regress(spec, |ev| {
        if let RegressEvent::Stage { stage, to_play: n, .. } = ev {
            to_play[usize::from(*stage == Stage::Opponents)] = *n;
        }
    })
    .unwrap_or_else(|e| panic!("the comparison failed: {e}"));
    (report, to_play)
}

#[test]
fn versions_part_at_the_turn_they_changed_and_only_the_new_games_are_played() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (algo, data, ghost_dir) =
        (tmp.path().join("switch"), tmp.path().join("data"), ghosts(&tmp.path().join("ghosts")));
    let store = VersionStore::in_data_dir(&data);
    write_algo(&algo, None, false);
    let v1 = store.save(&algo, Some("builder")).expect("v1 saved");
    assert!(v1.created);

    // v2 sells its base from turn 3: it loses games the builder won, and they part at turn 3.
    write_algo(&algo, Some(3), false);
    let (r2, _) = regress(spec(&algo, &data, &ghost_dir));
    assert!(r2.saved, "the changed folder is saved as a version");
    assert_eq!(r2.base.hash, v1.version.hash, "the base is the newest other version");
    assert_eq!((r2.played.new, r2.played.base, r2.played.repeat), (OPPONENT_GAMES, OPPONENT_GAMES, 1));
    let idle: Vec<u8> = r2.games.iter().filter(|g| g.opponent == "py-idle").map(|g| g.seat).collect();
    assert_eq!(idle, [1, 2], "an algo opponent is met from both seats");
    let regressions: Vec<_> = r2.flipped().into_iter().filter(|g| g.flipped == Some(Flip::Regression)).collect();
    assert!(!regressions.is_empty(), "the builder wins some ghost games the seller loses: {:#?}", r2.games);
    for g in &regressions {
        let why = g.divergence.as_ref().unwrap_or_else(|| panic!("no divergence for {g:#?}"));
        assert_eq!(why.turn, 3, "{g:#?}");
        assert!(why.new_commands.iter().all(|c| c.action == terminal_core::versions::Action::Remove), "{why:#?}");
        assert!(!why.base_commands.is_empty(), "{why:#?}");
    }
    assert_eq!(r2.head_to_head.wins + r2.head_to_head.losses, 4, "{:#?}", r2.head_to_head);
    assert_eq!(r2.noise.as_ref().map(|n| n.deterministic), Some(true), "{:#?}", r2.noise);

    // v3 sells from turn 20, after the builder's wins are over: against v2 it plays only its
    // own games, wins back what v2 lost, and they part at turn 3.
    write_algo(&algo, Some(20), false);
    let (r3, to_play) = regress(spec(&algo, &data, &ghost_dir));
    assert_eq!(r3.base.hash, r2.new.hash);
    assert_eq!((r3.played.new, r3.played.base, r3.played.repeat), (OPPONENT_GAMES, 0, 1), "{:?}", r3.played);
    assert_eq!(to_play[1], OPPONENT_GAMES + 1, "the opponents stage planned the new version's games only");
    assert_eq!(r3.played.total(), r3.played.head_to_head + OPPONENT_GAMES + 1);
    let fixes: Vec<_> = r3.flipped().into_iter().filter(|g| g.flipped == Some(Flip::Fix)).collect();
    assert!(!fixes.is_empty(), "{:#?}", r3.games);
    assert!(fixes.iter().all(|g| g.divergence.as_ref().map(|d| d.turn) == Some(3)), "{fixes:#?}");

    // The same folder again: nothing new is saved, and nothing at all is played but the
    // head-to-head games the cache already holds.
    let (again, _) = regress(spec(&algo, &data, &ghost_dir));
    assert!(!again.saved);
    assert_eq!(again.played.total(), 0, "{:?}", again.played);
}

#[test]
fn an_algo_with_unseeded_randomness_is_flagged() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (algo, data, ghost_dir) =
        (tmp.path().join("noisy"), tmp.path().join("data"), ghosts(&tmp.path().join("ghosts")));
    write_algo(&algo, None, false);
    VersionStore::in_data_dir(&data).save(&algo, None).expect("saved");
    write_algo(&algo, None, true);
    let mut s = spec(&algo, &data, &ghost_dir);
    s.games = 0;
    let (report, _) = regress(s);
    let noise = report.noise.unwrap_or_else(|| panic!("no noise check: {:?}", report.played));
    assert!(!noise.deterministic, "{noise:#?}");
    let parted = noise.parted_at.unwrap_or_else(|| panic!("no turn: {noise:#?}"));
    assert!(parted.turn >= 0, "{parted:?}");
    assert_eq!(report.played.head_to_head, 0);
}
