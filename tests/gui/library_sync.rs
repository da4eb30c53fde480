//! The Library's Sync as a player uses it, against a stand-in for the game's website on
//! 127.0.0.1 (`common::site`): the user id typed, Sync pressed, the games downloaded and
//! indexed with "me" from the site's facts; the rating chart, my rivals and the matrix of the
//! opponents that beat my algos shown, and a cell of it opening that game in the Debugger.

use crate::common::corpus::replay;
use crate::common::harness::{LARGE, step_until, studio_with, type_into};
use crate::common::site::{FakeSite, USER_ID, USER_NAME};
use egui_kittest::kittest::Queryable;
use std::path::Path;
use terminal_studio::app::model::View;
use terminal_studio::app::state::State;

#[test]
fn sync_brings_the_sites_games_and_shows_rating_rivals_and_who_beat_me() {
    let mut files = terminal_core::verify::collect_replays(&[replay("special-2024")]);
    files.sort();
    let site = FakeSite::start(&files, 1);
    let folder = tempfile::tempdir().expect("temp dir");
    let index_dir = tempfile::tempdir().expect("temp dir");
    let mut settings = State::default();
    settings.library.db = Some(index_dir.path().join("library.sqlite"));
    settings.library.site_api = site.api.clone();
    let mut h = studio_with(settings, LARGE, None, false);
    h.get_by_label("Library").click();
    h.run();
    type_into(&mut h, "Folder", &folder.path().display().to_string());
    type_into(&mut h, "User id", USER_ID);
    h.get_by_label("Sync").click();
    h.step();
    step_until(&mut h, 120, "the sync and the indexing", |a| {
        !a.library().is_syncing() && !a.library().is_indexing() && a.library().library().is_some()
    });
    let lib = h.state().library();
    assert_eq!(lib.library().map_or(0, |l| l.games.len()), 6, "{}", lib.message());
    assert!(lib.message().starts_with("Synced: 6 matches listed, 6 replays downloaded"), "{}", lib.message());
    assert_eq!(lib.perspective().map(|p| (p.me.as_str(), p.from_site)), Some((USER_NAME, true)));
    assert_eq!(site.replay_requests(), 6);
    h.run();
    h.get_by_label("My algos' rating over their matches");
    h.get_by_label("My rivals (from the website's facts)");
    // rival-N lost or won against me by the site's listing: every rival is in the table.
    for n in 0..3 {
        assert!(h.query_all_by_label(&format!("rival-{n}")).next().is_some(), "rival-{n} listed");
    }
    h.get_by_label("Who beat my algos (a cell opens the game)");
    // A cell says how many games that opponent beat that algo in.
    let cell = (1..=6).map(|n| format!("{n} lost")).find(|label| h.query_all_by_label(label).next().is_some());
    let cell = cell.unwrap_or_else(|| panic!("no cell in the matrix"));
    h.query_all_by_label(&cell).next().unwrap_or_else(|| panic!("{cell}")).click();
    h.run();
    step_until(&mut h, 60, "the game in the Debugger", |a| {
        a.state().view == View::Debugger && a.viewer().path().is_some()
    });
    let opened = h.state().viewer().path().map(Path::to_path_buf).unwrap_or_default();
    let id: u64 = opened
        .file_name()
        .and_then(|n| n.to_str()?.strip_suffix(".replay.gz")?.parse().ok())
        .unwrap_or_else(|| panic!("{} is not a synced match", opened.display()));
    assert!(!site.i_won(id), "the cell opens a game I lost: {id}");

    // My games as ghosts for the Arena: my seat in each from the site's facts, so the
    // recorded player in the algo's seat is me, and its result is mine as the site lists it.
    h.get_by_label("Library").click();
    h.run();
    h.get_by_label("Send to Arena as ghosts").click();
    h.run();
    assert_eq!(h.state().view(), View::Arena, "{}", h.state().library().message());
    let sent = h.state().arena().form().ghosts().cloned().expect("the games sent as ghosts");
    assert_eq!((sent.files.len(), sent.my_seats.len()), (6, 6), "{sent:?}");
    let (games, skipped) = terminal_core::arena::ghosts::ghost_games(&sent.files, &sent.choice()).expect("ghosts");
    assert!(skipped.is_empty(), "{skipped:?}");
    for g in &games {
        let id: u64 =
            g.replay.file_name().and_then(|n| n.to_str()?.strip_suffix(".replay.gz")?.parse().ok()).unwrap_or(0);
        assert_eq!(g.recorded.won, site.i_won(id), "match {id}: the algo takes my seat");
    }
}

#[test]
fn open_match_downloads_a_watch_link_and_opens_it_and_names_a_missing_one() {
    let mut files = terminal_core::verify::collect_replays(&[replay("special-2024")]);
    files.sort();
    let site = FakeSite::start(&files, 1);
    let cache = tempfile::tempdir().expect("temp dir");
    let mut settings = State::default();
    settings.library.site_api = site.api.clone();
    let mut h = studio_with(settings, LARGE, None, false);
    h.get_by_label("File").click();
    h.run();
    h.get_by_label_contains("Open match").click();
    h.run();
    let prompt = h.state_mut().open_match_prompt_mut().expect("the window asking for a match");
    assert_eq!(prompt.api, site.api, "the Library's website address");
    prompt.cache = cache.path().to_path_buf();

    // A match the site does not know: named, the window stays for another try.
    type_into(&mut h, "Match id or watch link", "https://terminal.c1games.com/watch/99999999");
    h.get_by_label("Download and open").click();
    h.step();
    step_until(&mut h, 30, "the failure", |a| a.open_match_prompt().is_some_and(|p| p.error.is_some()));
    let error = h.state().open_match_prompt().and_then(|p| p.error.clone()).unwrap_or_default();
    assert!(error.starts_with("Match 99999999 not opened:") && error.contains("404"), "{error}");
    assert_eq!(h.state().view(), View::Editor);

    let id = site.match_ids()[2];
    type_into(&mut h, "Match id or watch link", &format!("https://terminal.c1games.com/watch/{id}?ref=share"));
    h.get_by_label("Download and open").click();
    h.step();
    step_until(&mut h, 60, "the match in the Debugger", |a| {
        a.state().view == View::Debugger && a.viewer().path().is_some()
    });
    let opened = h.state().viewer().path().map(Path::to_path_buf).unwrap_or_default();
    assert_eq!(opened, cache.path().join(format!("{id}.replay.gz")));
    assert!(h.state().open_match_prompt().is_none(), "the window closes once the match is open");
    assert!(h.query_by_label("Open match").is_none());
    assert_eq!(site.replay_requests(), 2, "the missing match and the one opened");
}
