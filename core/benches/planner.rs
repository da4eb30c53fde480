//! Criterion benchmark of the attack planner on recorded turns: the exhaustive single-group
//! search, and the whole search with pairs and triples, on two threads. The replay is read
//! and the turn prepared once, outside the timing.

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use terminal_core::engine::Player;
use terminal_core::engine::presets::load_config;
use terminal_core::layout::files::load_layout;
use terminal_core::planner::{PlanBoard, PlanRequest, frontier, frontier_levels, frontier_request, plan};
use terminal_core::replay::read_replay;

fn board(rel: &str, turn: i32, attacker: Player) -> PlanBoard {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/replays").join(rel);
    let replay = read_replay(&path).unwrap_or_else(|e| panic!("{e}"));
    PlanBoard::from_replay(&replay, turn, attacker).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn bench_planner(c: &mut Criterion) {
    let cancel = AtomicBool::new(false);
    let turns = [
        (
            "live-2022 turn 12, 12.5 MP",
            board("live-2022/Acceleraizer__c1terminal-algo__1011.replay.gz", 12, Player::One),
        ),
        (
            "s8-2021b turn 34, 26.7 MP",
            board("s8-2021b/jinkim22__Correlation-one-bot__champ.replay.gz", 34, Player::Two),
        ),
    ];
    let mut group = c.benchmark_group("planner");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    for (name, board) in &turns {
        for max_groups in [1, 3] {
            let request = PlanRequest { max_groups, jobs: 2, ..PlanRequest::default() };
            group.bench_function(format!("{name}, up to {max_groups} groups (2 threads)"), |b| {
                b.iter(|| plan(board, &request, &|_| {}, &cancel))
            });
        }
    }
    group.finish();
}

/// The cost to break a base: one layout's frontier up to 40 MP (41 levels' searches).
fn bench_frontier(c: &mut Criterion) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let layout = load_layout(&root.join("layouts/funnel-2022.json")).unwrap_or_else(|e| panic!("{e}"));
    let config = Arc::new(load_config("live-2022").unwrap_or_else(|e| panic!("{e}")));
    let board = PlanBoard::from_layout(&layout, &config, Player::Two, 40.0);
    let levels = frontier_levels(&board, 40.0);
    let cancel = AtomicBool::new(false);
    let mut group = c.benchmark_group("planner frontier");
    group.sample_size(10).measurement_time(Duration::from_secs(30));
    group.bench_function("funnel-2022 to 40 MP (2 threads)", |b| {
        b.iter(|| frontier(&board, &levels, &frontier_request(2), &|_, _| {}, &cancel))
    });
    group.finish();
}

criterion_group!(benches, bench_planner, bench_frontier);
criterion_main!(benches);
