//! Criterion benchmark of the replay library's answers over 10,000 games (the shared replays'
//! games repeated): a filter, the breach heatmap and the HP curve, as the Library tab redraws
//! them after each change; and reopening an index of the shared replays. The replays are
//! indexed once, outside the timing.

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use terminal_core::library::query::{self, GameFilter, Perspective};
use terminal_core::library::{Library, LibraryIndex, Outcome};

fn bench_library(c: &mut Criterion) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/replays");
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    let db = dir.path().join("library.sqlite");
    let mut index = LibraryIndex::open(&db, &root).unwrap_or_else(|e| panic!("{e}"));
    index.update(&|_, _| {}, &AtomicBool::new(false)).unwrap_or_else(|e| panic!("{e}"));
    let shared = Library::load(&index).unwrap_or_else(|e| panic!("{e}"));
    assert!(!shared.games.is_empty(), "no games under {}", root.display());
    c.bench_function("reopen the index of the shared replays", |b| {
        b.iter(|| {
            let index = LibraryIndex::open(&db, &root).unwrap_or_else(|e| panic!("{e}"));
            Library::load(&index).unwrap_or_else(|e| panic!("{e}")).games.len()
        })
    });
    let games: Vec<_> = shared.games.iter().cycle().take(10_000).cloned().collect();
    let me = Perspective::choose(&games, None).me;
    let filter = GameFilter { outcome: Some(Outcome::Loss), min_turns: Some(10), ..GameFilter::default() };
    c.bench_function("filter, breach heatmap and HP curve of 10,000 games", |b| {
        b.iter(|| {
            let kept = filter.apply(&games, &me);
            let heat = query::breach_heat(&games, &kept, &me);
            let curve = query::hp_curve(&games, &kept, &me);
            (kept.len(), heat[13][0], curve.len())
        })
    });
}

criterion_group!(benches, bench_library);
criterion_main!(benches);
