//! Criterion benchmark of the layout lab: a shipped layout against 1,000 recorded attacks,
//! a five-change suggestion over 500, and a 10-SP suggestion against the planner's strongest
//! replies (5–30 MP) and the recorded attacks of every live-2022 replay. The attacks are read
//! once, outside the timing.

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use terminal_core::engine::Player;
use terminal_core::engine::presets::preset;
use terminal_core::layout::files::load_layout;
use terminal_core::layout::stress::{self, Attack, AttackFilter, Defence, HpModel, load_attacks};
use terminal_core::suggest::{Against, SuggestOptions, suggest};
use terminal_core::verify::collect_replays;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The attacks of the first `replays` live-2022 replays (file order), under that ruleset.
fn attacks_of(replays: usize) -> Vec<Attack> {
    let config = Arc::new(preset("live-2022").unwrap_or_else(|| panic!("the live-2022 preset")));
    let files = collect_replays(&[root().join("../shared/replays/live-2022")]);
    let filter = AttackFilter { config, any_ruleset: false };
    let cancel = AtomicBool::new(false);
    let set = load_attacks(&files[..files.len().min(replays)], &filter, 2, &|_, _| {}, &cancel)
        .unwrap_or_else(|e| panic!("reading the live-2022 replays: {e}"));
    set.attacks
}

/// The first `n` attacks of the live-2022 replays (file order), under that ruleset.
fn attacks(n: usize) -> Vec<Attack> {
    let all = attacks_of(80);
    assert!(all.len() >= n, "only {} attacks in the live-2022 replays", all.len());
    all.into_iter().take(n).collect()
}

fn bench_stress(c: &mut Criterion) {
    let config = preset("live-2022").unwrap_or_else(|| panic!("the live-2022 preset"));
    let layout = load_layout(&root().join("layouts/funnel.json")).unwrap_or_else(|e| panic!("{e}"));
    let defence = Defence::from_layout(&layout, Player::One, &config);
    let cancel = AtomicBool::new(false);

    let thousand = attacks(1000);
    c.bench_function("funnel against 1,000 live-2022 attacks (2 threads)", |b| {
        b.iter(|| stress::run(&thousand, &defence, HpModel::Unlimited, 2, &|_, _| {}, &cancel))
    });

    let five_hundred = attacks(500);
    let options = SuggestOptions { budget: 100.0, max_steps: 5, jobs: 2, ..SuggestOptions::default() };
    let mut group = c.benchmark_group("suggest");
    group.sample_size(10).measurement_time(Duration::from_secs(60));
    group.bench_function("five changes to funnel over 500 live-2022 attacks (2 threads)", |b| {
        b.iter(|| suggest(&five_hundred, &layout, Player::One, &config, &options, &|_| {}, &cancel))
    });
    group.finish();
}

/// The lab's Suggest against both: funnel-2022, 10 SP, the planner's replies at 5–30 MP and
/// the recorded attacks of all 300 live-2022 replays. One run takes a minute or more: each
/// of the ten samples is one run.
fn bench_suggest_against_planner(c: &mut Criterion) {
    let config = preset("live-2022").unwrap_or_else(|| panic!("the live-2022 preset"));
    let layout = load_layout(&root().join("layouts/funnel-2022.json")).unwrap_or_else(|e| panic!("{e}"));
    let cancel = AtomicBool::new(false);
    let all = attacks_of(usize::MAX);
    assert!(all.len() >= 5000, "only {} attacks in the live-2022 replays", all.len());
    let options = SuggestOptions { budget: 10.0, jobs: 2, against: Against::Both, ..SuggestOptions::default() };
    let mut group = c.benchmark_group("suggest against the planner");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).measurement_time(Duration::from_secs(600));
    let name = format!("funnel-2022, 10 SP, replies at 5-30 MP and {} live-2022 attacks (2 threads)", all.len());
    group.bench_function(name, |b| b.iter(|| suggest(&all, &layout, Player::One, &config, &options, &|_| {}, &cancel)));
    group.finish();
}

criterion_group!(benches, bench_stress, bench_suggest_against_planner);
criterion_main!(benches);
