//! Criterion benchmark of what confinement costs a match's start (docs/runner.md,
//! Confinement): from `start_match` to the `Started` event (both algos spawned: for a
//! confined seat its temp folder, its folders, the Landlock ruleset, the rlimits) and to both
//! seats' turn-0 replies (two Python processes started and answering, under Landlock or not),
//! `py-idle` against `py-idle`, confined and unconfined. Each match is stopped there; its
//! stopping is not timed.

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use terminal_core::engine::geometry::Player;
use terminal_core::engine::presets::preset;
use terminal_core::runner::{Confinement, MatchEvent, MatchSpec, ReplayTarget, start_match};

fn idle() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/algos/py-idle")
}

/// Time from `start_match` to the `Started` event and to player 2's turn-0 reply.
fn one_start(confine: &Confinement, out: &std::path::Path) -> (Duration, Duration) {
    let config = Arc::new(preset("base-s6").unwrap_or_else(|| panic!("the base-s6 preset")));
    let mut spec = MatchSpec::new(idle(), idle(), config);
    spec.replay = ReplayTarget::Dir(out.to_path_buf());
    spec.sync_replay = false;
    spec.confine = confine.clone();
    let t0 = Instant::now();
    let handle = start_match(spec);
    let mut started = None;
    let mut answered = None;
    while answered.is_none() {
        match handle.events.recv_timeout(Duration::from_secs(30)) {
            Ok(MatchEvent::Started { .. }) => started = Some(t0.elapsed()),
            Ok(MatchEvent::Replied { turn: 0, player: Player::Two, .. }) => answered = Some(t0.elapsed()),
            Ok(MatchEvent::Finished(_) | MatchEvent::Failed(_)) | Err(_) => panic!("the match ended before turn 0"),
            Ok(_) => {}
        }
    }
    handle.cancel();
    let _ = handle.wait();
    (started.unwrap_or_default(), answered.unwrap_or_default())
}

fn bench_start(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("a temp folder: {e}"));
    let mut group = c.benchmark_group("match start, py-idle vs py-idle");
    group.sample_size(20).measurement_time(Duration::from_secs(8));
    for (name, confine) in [("unconfined", Confinement::off()), ("confined", Confinement::default())] {
        group.bench_function(format!("{name}: to Started"), |b| {
            b.iter_custom(|n| (0..n).map(|_| one_start(&confine, dir.path()).0).sum())
        });
        group.bench_function(format!("{name}: to both turn-0 replies"), |b| {
            b.iter_custom(|n| (0..n).map(|_| one_start(&confine, dir.path()).1).sum())
        });
    }
    group.finish();
}

criterion_group!(benches, bench_start);
criterion_main!(benches);
