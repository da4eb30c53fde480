//! Criterion benchmark: re-simulating every turn of a real ladder replay.

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;
use terminal_core::replay::read_replay;
use terminal_core::verify::bench::Resimulation;

fn bench_replay(c: &mut Criterion) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/replays/live-2022/Acceleraizer__c1terminal-algo__1003.replay.gz");
    let replay = read_replay(&path).unwrap_or_else(|e| panic!("the benchmark replay: {e}"));
    let mut resimulation = Resimulation::new(&replay).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
    c.bench_function("resimulate live-2022 1003 (all turns)", |b| b.iter(|| resimulation.round()));
}

criterion_group!(benches, bench_replay);
criterion_main!(benches);
