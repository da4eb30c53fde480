//! `terminal-studio match`: a thin shell over the runner.

use super::confine_args::ConfineArgs;
use super::error::{CliError, Outcome};
use super::limits::TimeLimitArgs;
use super::signals::catch_stop_signals;
use std::path::PathBuf;
use std::sync::Arc;
use terminal_core::arena::files::append_record;
use terminal_core::arena::{MatchRecord, RecordHead, algo_label};
use terminal_core::engine::config::Config;
use terminal_core::engine::geometry::Player;
use terminal_core::engine::presets::{DEFAULT_PRESET, load_config};
use terminal_core::runner::{
    MatchResult, MatchSpec, ReplayTarget, RunnerError, SeatSpec, check_algo_arg, run_match_blocking, start_match,
};

#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// Player 1: an algo folder or start script, or `ghost:REPLAY[:1|2]`.
    pub seat1: String,
    /// Player 2, the same way.
    pub seat2: String,
    /// A preset name or a game-configs.json file (default: a ghost's replay config, else
    /// base-s6).
    #[arg(long)]
    pub config: Option<String>,
    /// The replay file to write (must not exist).
    #[arg(long, conflicts_with = "out")]
    pub replay: Option<PathBuf>,
    /// Folder for the replay (unique file name); default ./replays.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seed exported to both algos (TERMINAL_STUDIO_SEED, ALGO_SEED).
    #[arg(long)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub limits: TimeLimitArgs,
    #[command(flatten)]
    pub confine: ConfineArgs,
    /// Echo the algos' stderr and the runner's messages live.
    #[arg(long, short)]
    pub verbose: bool,
    /// Append the result as one JSON line (the arena's results.jsonl record) to this file.
    #[arg(long)]
    pub result_json: Option<PathBuf>,
    /// The job id written in that record (arena plans set it; default `<algo1>__<algo2>__g0`).
    #[arg(long)]
    pub job_id: Option<String>,
}

/// Plays the match. A match the runner could not play (its replay could not be written, …)
/// is [`CliError::Match`]; whatever the algos do is the result.
pub fn run(args: &MatchArgs) -> Result<Outcome, CliError> {
    let (seats, config) = seats_and_config(args)?;
    let head = record_head(args, &seats);
    let [seat1, seat2] = seats;
    let mut spec = MatchSpec::new(seat1, seat2, config);
    spec.replay = match (&args.replay, &args.out) {
        (Some(path), _) => ReplayTarget::File(path.clone()),
        (None, Some(dir)) => ReplayTarget::Dir(dir.clone()),
        (None, None) => ReplayTarget::Dir(PathBuf::from("replays")),
    };
    spec.seed = args.seed;
    args.limits.apply(&mut spec);
    spec.confine = args.confine.confinement();
    spec.verbose = args.verbose;
    let result = run_interruptible(spec);
    if let Some(path) = &args.result_json {
        let rec = match &result {
            Ok(r) => Some(MatchRecord::from_result(head, r)),
            Err(RunnerError::Cancelled) => None,
            Err(e) => Some(MatchRecord::from_error(head, e)),
        };
        if let Some(rec) = rec {
            append_record(path, &rec).map_err(CliError::Arena)?;
        }
    }
    let result = match result {
        Ok(result) => result,
        Err(RunnerError::Cancelled) => {
            eprintln!("interrupted: the algos were stopped; the replay keeps the frames played");
            return Ok(Outcome::Interrupted);
        }
        Err(e) => return Err(e.into()),
    };
    out!("{}", result.summary());
    out!("replay: {}", result.replay_path.display());
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
    Ok(Outcome::Done)
}

/// The seats as typed, checked before anything starts (a typo in an algo path is an error,
/// not a match the missing player loses; a folder without run.sh plays as FailedToLoad), and the ruleset: `--config`, else the first
/// ghost's replay config, else the default preset.
fn seats_and_config(args: &MatchArgs) -> Result<([SeatSpec; 2], Arc<Config>), CliError> {
    let seat = |arg: &str| -> Result<SeatSpec, CliError> {
        let seat = SeatSpec::parse(arg)?;
        if let SeatSpec::Algo(path) = &seat
            && let Some(why) = check_algo_arg(path)?
        {
            eprintln!("warning: {why}: this player fails to load (FailedToLoad, crashed at turn 0)");
        }
        Ok(seat)
    };
    let seats = [seat(&args.seat1)?, seat(&args.seat2)?];
    let config = match (&args.config, seats.iter().find_map(SeatSpec::ghost)) {
        (Some(c), _) => Arc::new(load_config(c)?),
        (None, Some(g)) => Arc::clone(&g.config),
        (None, None) => Arc::new(load_config(DEFAULT_PRESET)?),
    };
    config.check_simulated()?;
    Ok((seats, config))
}

/// The identity of the match in its `--result-json` record.
fn record_head(args: &MatchArgs, seats: &[SeatSpec; 2]) -> RecordHead {
    let abs = |p: &std::path::Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf()).to_string_lossy().into_owned();
    let [(a, a_path), (b, b_path)] = [Player::One, Player::Two].map(|p| match &seats[p.index()] {
        SeatSpec::Algo(path) => (algo_label(path), abs(path)),
        SeatSpec::Ghost(g) => (g.name_in(p), g.describe()),
        SeatSpec::Human(h) => (h.name.clone(), h.describe()),
    });
    let job_id = args.job_id.clone().unwrap_or_else(|| format!("{a}__{b}__g0"));
    let game = job_id.rsplit_once("__g").and_then(|(_, g)| g.parse().ok()).unwrap_or(0);
    RecordHead {
        job_id,
        game,
        algo1: a,
        algo2: b,
        algo1_path: a_path,
        algo2_path: b_path,
        seed: args.seed,
        replay: args.replay.as_ref().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default(),
    }
}

/// Runs the match on its own thread and cancels it on SIGINT, SIGTERM or SIGHUP.
fn run_interruptible(spec: MatchSpec) -> Result<MatchResult, RunnerError> {
    let Some(signals) = catch_stop_signals() else {
        return run_match_blocking(spec);
    };
    start_match(spec).wait_unless(&signals.received, |sig| {
        eprintln!("signal {}: stopping the match", sig.unwrap_or(0));
    })
}
