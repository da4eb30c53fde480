//! Criterion benchmark: recomputing all 56 edge paths after an edit (the editor's overlay).

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;
use terminal_core::layout::Layout;
use terminal_core::layout::analysis::edge_paths;
use terminal_core::layout::files::load_layout;

fn bench_paths(c: &mut Criterion) {
    c.bench_function("edge paths, empty board", |b| b.iter(|| edge_paths(&Layout::default())));
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../layouts");
    for name in ["funnel.json", "maze.json"] {
        if let Ok(layout) = load_layout(&dir.join(name)) {
            c.bench_function(&format!("edge paths, {name}"), |b| b.iter(|| edge_paths(&layout)));
        }
    }
}

criterion_group!(benches, bench_paths);
criterion_main!(benches);
