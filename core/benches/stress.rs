//! Criterion benchmark of the layout lab: a shipped layout against 1,000 recorded attacks,
//! and a five-change suggestion over 500. The attacks are read once, outside the timing.

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use terminal_core::engine::Player;
use terminal_core::engine::presets::preset;
use terminal_core::layout::files::load_layout;
use terminal_core::layout::stress::{self, Attack, AttackFilter, Defence, HpModel, load_attacks};
use terminal_core::suggest::{SuggestOptions, suggest};
use terminal_core::verify::collect_replays;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The first `n` attacks of the live-2022 replays (file order), under that ruleset.
fn attacks(n: usize) -> Vec<Attack> {
    let config = Arc::new(preset("live-2022").unwrap_or_else(|| panic!("the live-2022 preset")));
    let files = collect_replays(&[root().join("../shared/replays/live-2022")]);
    let filter = AttackFilter { config, any_ruleset: false };
    let cancel = AtomicBool::new(false);
    let set = load_attacks(&files[..files.len().min(80)], &filter, 2, &|_, _| {}, &cancel)
        .unwrap_or_else(|e| panic!("reading the live-2022 replays: {e}"));
    assert!(set.attacks.len() >= n, "only {} attacks in the live-2022 replays", set.attacks.len());
    set.attacks.into_iter().take(n).collect()
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

criterion_group!(benches, bench_stress);
criterion_main!(benches);
