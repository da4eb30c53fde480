//! `terminal-studio bench-paths`: the editor's per-edit cost of recomputing all 56 edge paths.

use super::error::{CliError, Outcome};
use std::path::PathBuf;
use std::time::Instant;
use terminal_core::engine::presets::{DEFAULT_PRESET, preset};
use terminal_core::layout::Layout;
use terminal_core::layout::analysis::{Analysis, edge_paths};
use terminal_core::layout::files::load_layout;

#[derive(clap::Args, Debug)]
pub struct BenchPathsArgs {
    /// A layout file (default: an empty board).
    pub layout: Option<PathBuf>,
    /// Repetitions.
    #[arg(long, default_value_t = 2000)]
    pub iterations: usize,
}

pub fn run(args: &BenchPathsArgs) -> Result<Outcome, CliError> {
    let layout = match &args.layout {
        Some(p) => load_layout(p)?,
        None => Layout::default(),
    };
    let iterations = args.iterations.max(1);
    let mut samples = Vec::with_capacity(iterations);
    let mut paths = 0;
    for _ in 0..iterations {
        let started = Instant::now();
        let p = edge_paths(&layout);
        samples.push(started.elapsed().as_secs_f64() * 1e6);
        paths = p.len();
    }
    out!("{} structures, {paths} edge paths, {iterations} runs", layout.len());
    report("edge paths", &mut samples);
    // Everything the editor recomputes after an edit: coverage, shields and the paths.
    if let Some(config) = preset(DEFAULT_PRESET) {
        let mut full = Vec::with_capacity(iterations);
        for _ in 0..iterations {
            let started = Instant::now();
            let a = Analysis::compute(&layout, &config);
            full.push(started.elapsed().as_secs_f64() * 1e6);
            std::hint::black_box(&a);
        }
        report("full analysis", &mut full);
    }
    Ok(Outcome::Done)
}

fn report(what: &str, samples: &mut [f64]) {
    samples.sort_by(f64::total_cmp);
    let pct = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    out!("{what}: median {:.1} µs  p90 {:.1} µs  max {:.1} µs", pct(0.5), pct(0.9), pct(1.0));
}
