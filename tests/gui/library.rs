//! The Library view as a player uses it: a folder of real replays indexed, the table filtered,
//! a game opened in the Debugger at the turn its owner was first breached, and the games shown
//! sent to the Layout lab as its attacks.

use crate::common::harness::{LARGE, step_until, studio_with, type_into};
use egui_kittest::kittest::Queryable;
use std::path::Path;
use terminal_studio::app::StudioApp;
use terminal_studio::app::model::View;
use terminal_studio::app::state::State;

type Harness = egui_kittest::Harness<'static, StudioApp>;

/// A folder holding copies of `n` live-2022 replays, and a folder for the index.
fn replays(n: usize) -> (tempfile::TempDir, tempfile::TempDir) {
    let files = terminal_core::verify::collect_replays(&[crate::common::corpus::replay("live-2022")]);
    assert!(files.len() >= n, "../shared/replays/live-2022 holds {} replays, {n} needed", files.len());
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    for f in &files[..n] {
        let name = f.file_name().unwrap_or_else(|| panic!("{} has no name", f.display()));
        std::fs::copy(f, dir.path().join(name)).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    }
    (dir, tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}")))
}

/// The studio on the Library tab with `folder` indexed (into `index_dir`).
fn indexed(folder: &Path, index_dir: &Path) -> Harness {
    let mut settings = State::default();
    settings.library.db = Some(index_dir.join("library.sqlite"));
    let mut h = studio_with(settings, LARGE, None, false);
    h.get_by_label("Library").click();
    h.run();
    assert_eq!(h.state().state().view, View::Library);
    type_into(&mut h, "Folder", &folder.display().to_string());
    h.get_by_label("Index").click();
    // A background job: its progress repaints, so steps.
    h.step();
    step_until(&mut h, 120, "indexing", |a| !a.library().is_indexing() && a.library().library().is_some());
    h
}

#[test]
fn filtering_by_opponent_and_turns_narrows_the_table_and_its_summaries() {
    let (folder, index_dir) = replays(12);
    let mut h = indexed(folder.path(), index_dir.path());
    let lib = h.state().library();
    let games = lib.library().map_or(0, |l| l.games.len());
    assert_eq!(games, 12, "{}", lib.message());
    assert_eq!(lib.shown().len(), 12);
    let me = lib.perspective().map(|p| p.me.clone()).unwrap_or_default();
    assert!(!me.is_empty(), "a name is chosen as me");
    assert!(lib.message().contains("12 games"), "{}", lib.message());
    // The opponent met most often: filtering on part of their name keeps exactly their games.
    let library = lib.library().unwrap_or_else(|| panic!("no library"));
    let opponent_of = |g: &terminal_core::library::IndexedGame| {
        terminal_core::library::query::seen_from(g, &me).map(|s| s.opponent.to_string())
    };
    let first_opponent = library.games.iter().find_map(opponent_of).unwrap_or_else(|| panic!("no game of {me}"));
    let expected = library.games.iter().filter(|g| opponent_of(g).as_deref() == Some(first_opponent.as_str())).count();
    type_into(&mut h, "Against", &first_opponent);
    h.run();
    let lib = h.state().library();
    assert_eq!(lib.shown().len(), expected, "games against {first_opponent}");
    assert!(h.query_by_label(&format!("{expected} of 12 games")).is_some(), "the table says how many it shows");
    // Turns from a bound above every game's: none left.
    type_into(&mut h, "Turns from", "1000");
    h.run();
    assert!(h.state().library().shown().is_empty());
    assert!(h.query_by_label("0 of 12 games").is_some());
}

#[test]
fn a_game_opens_in_the_debugger_at_the_first_turn_i_was_breached() {
    let (folder, index_dir) = replays(6);
    let mut h = indexed(folder.path(), index_dir.path());
    let lib = h.state().library();
    let me = lib.perspective().map(|p| p.me.clone()).unwrap_or_default();
    let library = lib.library().unwrap_or_else(|| panic!("no library"));
    let (file, turn) = library
        .games
        .iter()
        .find_map(|g| terminal_core::library::query::first_breach_against(g, &me).map(|t| (g.file.clone(), t)))
        .unwrap_or_else(|| panic!("no game where {me} was breached"));
    h.get_by_label(&file).click();
    h.run();
    h.get_by_label("Open in Debugger").click();
    h.run();
    step_until(&mut h, 60, "the replay at its breach turn", |a| {
        a.state().view == View::Debugger && a.viewer().turn() == Some(turn)
    });
    let shown = h.state().viewer().path().map(Path::to_path_buf);
    assert_eq!(shown.as_deref().and_then(Path::file_name), Some(std::ffi::OsStr::new(&file)));
}

#[test]
fn the_games_shown_become_the_layout_labs_attacks() {
    let (folder, index_dir) = replays(8);
    let mut h = indexed(folder.path(), index_dir.path());
    // Games up to the shortest game's length: some, not all (the first replays differ in length).
    let library = h.state().library().library().unwrap_or_else(|| panic!("no library"));
    let shortest = library.games.iter().map(|g| g.record.turns).min().unwrap_or(0);
    type_into(&mut h, "to", &shortest.to_string());
    h.run();
    let shown = h.state().library().shown().len();
    assert!(shown > 0 && shown < 8, "a filter that keeps some games: {shown} up to {shortest} turns");
    h.get_by_label("Send to Layout lab").click();
    h.run();
    assert_eq!(h.state().state().view, View::Editor);
    let lab = &h.state().editor_view().lab();
    let (label, files) = lab.selection.clone().unwrap_or_else(|| panic!("the lab has no selection: {}", lab.message));
    assert_eq!(files.len(), shown);
    assert_eq!(label, format!("{shown} games from the Library"));
    // The lab's panel is the one shown, and the empty board is explained.
    assert!(h.query_by_label("Run stress test").is_some(), "the Layout lab's panel is open");
    assert!(h.query_by_label(&label).is_some(), "the lab says where its attacks come from");
    assert!(h.query_by_label("Use the folder").is_some());
    let said = &h.state().editor_view().lab().message;
    assert!(said.contains("The board is empty: open a layout of live-2022"), "{said}");
}

/// The games sent to the lab, run once: a studio opened later takes their attacks from the
/// index instead of reading the replays again.
#[test]
fn the_layout_lab_keeps_the_attacks_of_library_games_in_the_index() {
    let (folder, index_dir) = replays(4);
    let layout = crate::common::corpus::layouts().join("funnel-2022.json");
    let mut messages = Vec::new();
    for _ in 0..2 {
        let mut h = indexed(folder.path(), index_dir.path());
        h.state_mut().open(&layout);
        h.run();
        h.get_by_label("Library").click();
        h.run();
        h.get_by_label("Send to Layout lab").click();
        h.run();
        h.get_by_label("Run stress test").click();
        // A background job: its progress repaints, so steps.
        h.step();
        step_until(&mut h, 240, "the stress test", |a| {
            let lab = &a.editor_view().lab();
            !lab.is_running() && lab.run().is_some()
        });
        messages.push(h.state().editor_view().lab().message.clone());
    }
    assert!(messages[0].contains("attacks:") && !messages[0].contains("library index"), "{}", messages[0]);
    assert!(messages[1].ends_with("attacks of 4 replays from the library index"), "{}", messages[1]);
    assert_eq!(messages[0].split(" · ").next(), messages[1].split(" · ").next(), "the same figures");
}

/// The games shown sent to the Arena as ghosts: one algo takes my seat in each game and
/// meets my recorded opponent, one match a game.
#[test]
fn the_games_shown_become_ghosts_for_the_arena() {
    let (folder, index_dir) = replays(2);
    let mut h = indexed(folder.path(), index_dir.path());
    let me = h.state().library().perspective().map(|p| p.me.clone()).unwrap_or_else(|| panic!("no perspective"));
    h.get_by_label("Send to Arena as ghosts").click();
    h.run();
    assert_eq!(h.state().state().view, View::Arena);
    let form = h.state().arena().form();
    let ghosts = form.ghosts().unwrap_or_else(|| panic!("no ghosts: {}", h.state().arena().message()));
    assert!(form.vs_ghosts(), "the arena plays the ghosts");
    assert_eq!((ghosts.files.len(), ghosts.me.as_str()), (2, me.as_str()));
    assert!(h.query_by_label(&format!("Ghosts: the opponents of {me} in 2 games from the Library")).is_some());

    let out = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    type_into(&mut h, "Output folder", &out.path().join("run").display().to_string());
    let algo = crate::common::corpus::algo("py-random");
    type_into(&mut h, "Algo path", &algo.display().to_string());
    h.get_by_label("Add").click();
    h.run();
    h.get_by_label("Start").click();
    // A background job: its progress repaints, so steps.
    h.step();
    assert!(h.state().arena().is_running(), "{}", h.state().arena().message());
    step_until(&mut h, 120, "the games against ghosts", |a| a.arena().outcome().is_some());
    let records = h.state().arena().records();
    assert_eq!(records.len(), 2, "one match a game: {}", h.state().arena().message());
    for r in records {
        assert!(r.seat_of("py-random").is_some(), "{} has no py-random seat", r.job_id);
        // Played under the ghost's own ruleset, not the studio's (base-s6 here).
        let replay = Path::new(&r.replay);
        let replay = if replay.is_absolute() { replay.to_path_buf() } else { out.path().join("run").join(replay) };
        let read = terminal_core::replay::read_replay(&replay).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(terminal_core::verify::ruleset_name(&read.config), "live-2022", "{}", replay.display());
    }
    // The results read from my side: the games I lost that the algo won, not the ghosts' W/L.
    let sent = h.state().arena().form().ghosts().cloned().unwrap_or_else(|| panic!("the ghosts are kept"));
    let (games, _) =
        terminal_core::arena::ghosts::ghost_games(&sent.files, &sent.choice()).unwrap_or_else(|e| panic!("{e}"));
    let t = terminal_core::arena::ghosts::totals(&terminal_core::arena::ghosts::compare(&games, records));
    assert_eq!(t.played, 2);
    let headline = format!(
        "My algo won {} of the {} games {me} lost, and lost {} of the {} {me} won (2 of 2 games played).",
        t.won_where_recorded_lost, t.recorded_losses, t.lost_where_recorded_won, t.recorded_wins
    );
    assert!(h.query_by_label(&headline).is_some(), "the comparison is headed: {headline}");
    assert!(h.query_by_label("The 2 games, as recorded and now").is_some());
    for g in &games {
        assert!(h.query_by_label(&g.label).is_none(), "no results row for the ghost {}", g.label);
    }
}

/// A game "me" did not play has no seat for the algo to take: it is not sent as a ghost.
#[test]
fn only_the_games_i_played_become_ghosts() {
    let (folder, index_dir) = replays(2);
    let other = crate::common::corpus::replay(
        "live-2022/archen2019__terminal-ai__p1-29-02-2020-11-39-59-1582994399525-906230231.replay.gz",
    );
    std::fs::copy(&other, folder.path().join("other.replay.gz")).unwrap_or_else(|e| panic!("{}: {e}", other.display()));
    let mut h = indexed(folder.path(), index_dir.path());
    assert_eq!(h.state().library().perspective().map(|p| p.me.as_str()), Some("algo_0"));
    assert_eq!(h.state().library().shown().len(), 3, "the three games are shown");
    h.get_by_label("Send to Arena as ghosts").click();
    h.run();
    let ghosts =
        h.state().arena().form().ghosts().unwrap_or_else(|| panic!("no ghosts: {}", h.state().arena().message()));
    assert_eq!(ghosts.files.len(), 2, "{:?}", ghosts.files);
    assert!(ghosts.files.iter().all(|f| !f.ends_with("other.replay.gz")), "{:?}", ghosts.files);
    assert!(h.query_by_label("Ghosts: the opponents of algo_0 in 2 games from the Library").is_some());
}

/// An index that is not a database (garbage, or cut short) is moved aside and rebuilt from
/// the replays, and the status line says so.
#[test]
fn a_damaged_index_is_moved_aside_and_rebuilt_saying_so() {
    let (folder, index_dir) = replays(4);
    let db = index_dir.path().join("library.sqlite");
    std::fs::write(&db, vec![0xa5u8; 10_000]).unwrap_or_else(|e| panic!("{}: {e}", db.display()));
    let h = indexed(folder.path(), index_dir.path());
    let lib = h.state().library();
    let said = lib.message();
    assert!(said.contains("damaged") && said.contains("moved aside") && said.contains("rebuilding"), "{said}");
    assert_eq!(lib.library().map(|l| l.games.len()), Some(4), "{said}");
    let aside: Vec<_> = std::fs::read_dir(index_dir.path())
        .unwrap_or_else(|e| panic!("{e}"))
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("library.sqlite.damaged-"))
        .collect();
    assert_eq!(aside.len(), 1, "the damaged file kept beside the new one");
}

#[test]
fn indexing_says_how_many_replays_of_how_many() {
    let folder = crate::common::corpus::replays();
    let index_dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    let mut settings = State::default();
    settings.library.db = Some(index_dir.path().join("library.sqlite"));
    let mut h = studio_with(settings, LARGE, None, false);
    h.get_by_label("Library").click();
    h.run();
    type_into(&mut h, "Folder", &folder.display().to_string());
    h.get_by_label("Index").click();
    let total = terminal_core::verify::collect_replays(std::slice::from_ref(&folder)).len();
    let counted = format!(" of {total} replays");
    h.step();
    assert!(h.state().library().is_indexing(), "{}", h.state().library().message());
    let mut seen = false;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while h.state().library().is_indexing() && std::time::Instant::now() < deadline {
        h.step();
        if h.query_all_by_label_contains(&counted).next().is_some() {
            seen = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(seen, "no \"n{counted}\" while indexing: {}", h.state().library().message());
    h.get_by_label("Stop").click();
    step_until(&mut h, 120, "the stop", |a| !a.library().is_indexing());
}

/// The breach heat as a ranked list beside the board: the hottest tile first, as the CLI
/// prints it; a tile of the list picked lists the games breached there.
#[test]
fn the_hottest_tiles_are_listed_and_one_picked_lists_its_games() {
    let (folder, index_dir) = replays(6);
    let mut h = indexed(folder.path(), index_dir.path());
    let lib = h.state().library();
    let me = lib.perspective().map(|p| p.me.clone()).unwrap_or_default();
    let library = lib.library().unwrap_or_else(|| panic!("no library"));
    let heat = terminal_core::library::query::breach_heat(&library.games, lib.shown(), &me);
    let hottest = terminal_core::library::query::hottest(&heat, 8);
    let &(x, y, hp) = hottest.first().unwrap_or_else(|| panic!("{me} was never breached in these games"));
    assert!(hottest.windows(2).all(|w| w[0].2 >= w[1].2), "most first: {hottest:?}");
    assert!(h.query_by_label_contains("Hottest tiles (HP lost").is_some(), "the list is headed");
    let games = terminal_core::library::query::breached_at(&library.games, lib.shown(), &me, x as i32, y as i32);
    assert!(!games.is_empty());
    h.get_by_label(&format!("{x},{y}: {hp:.0}")).click();
    h.run();
    assert!(h.query_by_label(&format!("Breached at {x},{y} in {} games", games.len())).is_some());
}
