//! `terminal-studio match`: a thin shell over the runner.

use crate::arena::files::append_record;
use crate::arena::{MatchRecord, RecordHead, algo_label};
use crate::engine::presets::{DEFAULT_PRESET, load_config};
use crate::runner::{MatchEvent, MatchResult, MatchSpec, ReplayTarget, RunnerError, run_match_blocking, start_match};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

pub struct MatchArgs {
    pub algo1: PathBuf,
    pub algo2: PathBuf,
    pub config: Option<String>,
    pub replay: Option<PathBuf>,
    pub out: Option<PathBuf>,
    pub seed: Option<u64>,
    pub soft_ms: Option<u64>,
    pub max_ms: Option<u64>,
    pub startup_ms: Option<u64>,
    pub verbose: bool,
    pub result_json: Option<PathBuf>,
    pub job_id: Option<String>,
}

pub fn run(args: MatchArgs) -> ExitCode {
    let config = match load_config(args.config.as_deref().unwrap_or(DEFAULT_PRESET)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let head = record_head(&args);
    let mut spec = MatchSpec::new(args.algo1, args.algo2, Arc::new(config));
    spec.replay = match (args.replay, args.out) {
        (Some(path), _) => ReplayTarget::File(path),
        (None, Some(dir)) => ReplayTarget::Dir(dir),
        (None, None) => ReplayTarget::Dir(PathBuf::from("replays")),
    };
    spec.seed = args.seed;
    spec.soft_ms = args.soft_ms;
    spec.max_ms = args.max_ms;
    spec.startup_ms = args.startup_ms;
    spec.verbose = args.verbose;
    let result = run_interruptible(spec);
    if let Some(path) = &args.result_json {
        let rec = match &result {
            Ok(r) => Some(MatchRecord::from_result(head, r)),
            Err(RunnerError::Cancelled) => None,
            Err(e) => Some(MatchRecord::from_error(head, e)),
        };
        if let Some(rec) = rec
            && let Err(e) = append_record(path, &rec)
        {
            eprintln!("error: cannot write the result line: {e}");
            return ExitCode::FAILURE;
        }
    }
    match result {
        Ok(result) => {
            println!("{}", result.summary());
            println!("replay: {}", result.replay_path.display());
            if args.verbose {
                let o = result.overhead;
                eprintln!(
                    "runner overhead: {:.0} µs/turn wall mean, {} µs max; {:.0} µs/turn CPU; {} turns",
                    o.mean_us(),
                    o.max_turn_us,
                    o.cpu_mean_us(),
                    o.turns
                );
            }
            ExitCode::SUCCESS
        }
        Err(RunnerError::Cancelled) => {
            eprintln!("interrupted: the algos were stopped; the replay keeps the frames played");
            ExitCode::from(130)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The identity of the match in its `--result-json` record.
fn record_head(args: &MatchArgs) -> RecordHead {
    let (a, b) = (algo_label(&args.algo1), algo_label(&args.algo2));
    let abs = |p: &std::path::Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf()).to_string_lossy().into_owned();
    let job_id = args.job_id.clone().unwrap_or_else(|| format!("{a}__{b}__g0"));
    let game = job_id.rsplit_once("__g").and_then(|(_, g)| g.parse().ok()).unwrap_or(0);
    RecordHead {
        job_id,
        game,
        algo1: a,
        algo2: b,
        algo1_path: abs(&args.algo1),
        algo2_path: abs(&args.algo2),
        seed: args.seed,
        replay: args.replay.as_ref().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default(),
    }
}

/// Signals (1-based numbers as bits) the process was started with ignored, from
/// `/proc/self/status` (0 if unknown).
fn ignored_signals() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| l.strip_prefix("SigIgn:")).and_then(|h| u64::from_str_radix(h.trim(), 16).ok())
        })
        .unwrap_or(0)
}

/// Runs the match on its own thread and cancels it on SIGINT, SIGTERM or SIGHUP (those
/// not ignored by whoever started us, e.g. `nohup`): each algo runs in its own process
/// group, so the terminal's Ctrl-C does not reach it and it would be left running if we
/// just died.
fn run_interruptible(spec: MatchSpec) -> Result<MatchResult, RunnerError> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let ignored = ignored_signals();
    let wanted: Vec<i32> =
        [SIGINT, SIGTERM, SIGHUP].into_iter().filter(|&s| ignored & (1u64 << (s - 1)) == 0).collect();
    let Ok(mut signals) = signal_hook::iterator::Signals::new(&wanted) else {
        return run_match_blocking(spec);
    };
    let signals_handle = signals.handle();
    let (sig_tx, mut sig_rx) = crossbeam_channel::bounded(1);
    let waiter = std::thread::Builder::new().name("signals".into()).spawn(move || {
        for sig in signals.forever() {
            let _ = sig_tx.try_send(sig);
        }
    });
    if waiter.is_err() {
        signals_handle.close();
        return run_match_blocking(spec);
    }
    let handle = start_match(spec);
    let result = loop {
        crossbeam_channel::select! {
            recv(handle.events) -> ev => match ev {
                Ok(MatchEvent::Finished(r)) => break Ok(*r),
                Ok(MatchEvent::Failed(e)) => break Err(e),
                Ok(_) => {}
                Err(_) => break handle.wait(),
            },
            recv(sig_rx) -> sig => {
                eprintln!("signal {}: stopping the match", sig.unwrap_or(0));
                handle.cancel();
                sig_rx = crossbeam_channel::never();
            }
        }
    };
    signals_handle.close();
    result
}
