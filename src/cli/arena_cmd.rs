//! `terminal-studio arena`: run an arena (progress bars, summary table), write it as a
//! plan (`--plan`), or merge result files (`--merge`).

use super::confine_args::ConfineArgs;
use super::error::{CliError, Outcome};
use super::limits::TimeLimitArgs;
use super::signals::catch_stop_signals;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;
use terminal_core::arena::builder::{DEFAULT_GAMES, DEFAULT_SEED, absolute};
use terminal_core::arena::ghosts::{GhostChoice, GhostGame, compare, csv as ghosts_csv, report as ghosts_report};
use terminal_core::arena::jobfile::{PlanOptions, plan_lines};
use terminal_core::arena::merge::merge;
use terminal_core::arena::report::{outcome_text, table, write_csv};
use terminal_core::arena::{
    ArenaEvent, ArenaHandle, ArenaOutcome, ArenaSpec, BuiltArena, MatchRecord, Opponents, StopReason, start_arena,
    summarize,
};
use terminal_core::engine::geometry::Player;
use terminal_core::files::write_atomic;

#[derive(clap::Args, Debug)]
pub struct ArenaArgs {
    /// Algo folders (or start scripts); with --merge, result files or folders.
    pub algos: Vec<PathBuf>,
    /// Games per pairing (rounded up to even: seats swapped equally).
    #[arg(long, default_value_t = DEFAULT_GAMES)]
    pub games: u32,
    /// Matches at once (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// A preset name or a game-configs.json file.
    #[arg(long)]
    pub config: Option<String>,
    /// Output folder (default ./arena).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Gauntlet: every algo plays this baseline (instead of a round-robin).
    #[arg(long, value_name = "BASELINE")]
    pub vs: Option<PathBuf>,
    /// Gauntlet against ghosts: the one algo plays a recorded player of every replay in
    /// DIR (the ghost keeps its seat; one game each) under each replay's own ruleset
    /// unless --config is given, and is compared with the recorded player it replaces.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["vs", "plan", "merge", "sprt"])]
    pub vs_ghosts: Option<PathBuf>,
    /// With --vs-ghosts: the ghost is player N of every replay (default 2).
    #[arg(long, value_name = "N", requires = "vs_ghosts", conflicts_with = "opponent_of", value_parser = clap::value_parser!(u8).range(1..=2))]
    pub seat: Option<u8>,
    /// With --vs-ghosts: the ghost is, in each replay, the opponent of the player NAME
    /// (a player's own ladder replays: the algo takes NAME's seat).
    #[arg(long, value_name = "NAME", requires = "vs_ghosts")]
    pub opponent_of: Option<String>,
    /// Continue the arena in --out, skipping the matches already in results.jsonl.
    #[arg(long)]
    pub resume: bool,
    /// Stop early when the SPRT decides (two algos): `--sprt` (0,100,0.05,0.05) or
    /// `--sprt=ELO0,ELO1,ALPHA,BETA`.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "", value_name = "ELO0,ELO1,ALPHA,BETA")]
    pub sprt: Option<String>,
    /// Seed of the first pair of games (games 2k and 2k+1 get seed + k).
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    #[command(flatten)]
    pub limits: TimeLimitArgs,
    #[command(flatten)]
    pub confine: ConfineArgs,
    /// Write the arena as a job list (OUT/plan.txt and stdout): one `match` line per game.
    #[arg(long, conflicts_with_all = ["merge", "resume"])]
    pub plan: bool,
    /// Combine result files (*.jsonl under the given folders) into one summary.
    #[arg(long)]
    pub merge: bool,
}

pub const DEFAULT_OUT: &str = "arena";

impl ArenaArgs {
    fn out_dir(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_OUT))
    }

    /// Who the algos play: `--vs-ghosts` (with `--seat` or `--opponent-of`), `--vs`, or
    /// each other.
    fn opponents(&self) -> Opponents {
        match (&self.vs_ghosts, &self.vs) {
            (Some(dir), _) => {
                let choice = match (&self.opponent_of, self.seat) {
                    (Some(name), _) => GhostChoice::OpponentOf(name.clone()),
                    (None, Some(1)) => GhostChoice::Seat(Player::One),
                    (None, _) => GhostChoice::Seat(Player::Two),
                };
                Opponents::Ghosts { replays: vec![dir.clone()], choice }
            }
            // The baseline is appended to the algos (see `arena`).
            (None, Some(_)) => Opponents::Gauntlet { baseline: self.algos.len() },
            (None, None) => Opponents::RoundRobin,
        }
    }

    /// The arena these arguments describe, checked by the core's one builder.
    fn arena(&self) -> Result<BuiltArena, CliError> {
        let algos = self.algos.iter().chain(&self.vs).cloned();
        let built = ArenaSpec::builder(algos, self.out_dir())
            .opponents(self.opponents())
            .games(self.games)
            .seed(self.seed)
            .ruleset(self.config.clone())
            .jobs(self.jobs.unwrap_or(0))
            .resume(self.resume)
            .soft_ms(self.limits.soft_ms)
            .max_ms(self.limits.max_ms)
            .startup_ms(self.limits.startup_ms)
            .confine(self.confine.confinement())
            .sprt(self.sprt.clone())
            .build()?;
        Ok(built)
    }
}

pub fn run(args: &ArenaArgs) -> Result<Outcome, CliError> {
    if args.merge {
        run_merge(args)
    } else if args.plan {
        run_plan(args)
    } else {
        run_arena(args)
    }
}

/// Warns that an algo folder without a start script fails to load in every game, as on the
/// official engine (the arena plays it all the same).
fn warn_if_failing_to_load(algos: &[PathBuf]) -> Result<(), CliError> {
    for path in algos {
        if let Some(why) = terminal_core::runner::check_algo_arg(path)? {
            eprintln!("warning: {why}: this player fails to load in every game (FailedToLoad, crashed at turn 0)");
        }
    }
    Ok(())
}

fn run_plan(args: &ArenaArgs) -> Result<Outcome, CliError> {
    warn_if_failing_to_load(&args.algos)?;
    let plan = args.arena()?.spec.plan;
    let out = absolute(&args.out_dir());
    for sub in ["matches", "results"] {
        std::fs::create_dir_all(out.join(sub)).map_err(CliError::write("make the folder", out.join(sub)))?;
    }
    let exe = std::env::current_exe().map_err(CliError::write("find", "this program's own executable"))?;
    let opts = PlanOptions {
        config: args.config.as_deref().map(|c| {
            if Path::new(c).exists() { absolute(Path::new(c)).to_string_lossy().into_owned() } else { c.to_string() }
        }),
        soft_ms: args.limits.soft_ms,
        max_ms: args.limits.max_ms,
        startup_ms: args.limits.startup_ms,
        no_confine: args.confine.no_confine,
        algo_writes: args.confine.algo_writes,
    };
    let lines = plan_lines(&plan, &exe, &out, &opts);
    let mut text = lines.join("\n");
    text.push('\n');
    let path = out.join("plan.txt");
    write_atomic(&path, text.as_bytes()).map_err(CliError::write("write the plan", &path))?;
    print!("{text}");
    eprintln!(
        "plan: {} games ({} pairings x {}) written to {}; results go to {}/results/, merge with `terminal-studio arena --merge {}`",
        lines.len(),
        plan.pairings(),
        plan.games,
        path.display(),
        out.display(),
        out.display()
    );
    Ok(Outcome::Done)
}

fn run_merge(args: &ArenaArgs) -> Result<Outcome, CliError> {
    if args.algos.is_empty() {
        return Err(CliError::Usage("--merge needs result files or folders"));
    }
    let m = merge(&args.algos)?;
    for (p, l) in &m.bad_lines {
        eprintln!("warning: {}:{l}: not a result record (skipped)", p.display());
    }
    out!("merged {} records from {} files ({} duplicates dropped)", m.records.len(), m.files.len(), m.duplicates);
    for p in &m.plans {
        let shown: Vec<&str> = p.missing.iter().take(5).map(String::as_str).collect();
        let more = if p.missing.len() > shown.len() { ", ..." } else { "" };
        let missing =
            if shown.is_empty() { String::new() } else { format!("; without result: {}{more}", shown.join(", ")) };
        out!(
            "plan {}: {} of {} planned games have a result{missing}",
            p.plan.display(),
            p.planned - p.missing.len(),
            p.planned
        );
    }
    let s = summarize(&m.records, &[]);
    print!("{}", table(&s));
    if let Some(out) = &args.out {
        let mut text = String::new();
        for r in &m.records {
            text.push_str(&r.to_line()?);
            text.push('\n');
        }
        let merged = out.join("merged.jsonl");
        write_atomic(&merged, text.as_bytes()).map_err(CliError::write("write the merged results", &merged))?;
        let csv = write_csv(out, &s)?;
        out!(
            "written: {}, {}",
            out.join("merged.jsonl").display(),
            csv.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(Outcome::Done)
}

fn run_arena(args: &ArenaArgs) -> Result<Outcome, CliError> {
    warn_if_failing_to_load(&args.algos)?;
    let BuiltArena { spec, ghost_games, skipped_replays } = args.arena()?;
    for (f, why) in &skipped_replays {
        eprintln!("skipped {}: {why}", f.display());
    }
    let first_label = spec.plan.entrants[0].label.clone();
    let handle = start_arena(spec)?;
    let bar = if std::io::stdout().is_terminal() { Some(progress_bar()) } else { None };
    let outcome = follow(&handle, bar.as_ref());
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let outcome = match outcome {
        Some(o) => *o,
        None => handle.wait()?,
    };
    print_results(&outcome, &ghost_games, &first_label)?;
    Ok(match outcome.stop {
        StopReason::Completed | StopReason::Sprt(_) => Outcome::Done,
        StopReason::Cancelled => Outcome::Interrupted,
        StopReason::Error(_) => Outcome::Found,
    })
}

/// The bar shown on a terminal: matches done, time elapsed and left.
fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::new(0);
    let style = ProgressStyle::with_template(
        "{bar:40.cyan/blue} {pos}/{len} matches  {elapsed_precise} elapsed, ETA {eta}  {msg}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// Prints the arena's events (above the bar, if there is one) until it ends; returns its
/// outcome, if the arena sent one.
fn follow(handle: &ArenaHandle, bar: Option<&ProgressBar>) -> Option<Box<ArenaOutcome>> {
    // Ctrl-C / SIGTERM / SIGHUP cancel the arena: the algos run in their own process
    // groups, so without this they would outlive us.
    let signals = catch_stop_signals();
    let mut sig_rx = signals.as_ref().map_or_else(crossbeam_channel::never, |s| s.received.clone());
    let say = |line: String| match bar {
        Some(b) => b.println(line),
        None => out!("{line}"),
    };
    let mut outcome = None;
    loop {
        crossbeam_channel::select! {
            recv(handle.events) -> ev => match ev {
                Ok(ArenaEvent::Started { total, already_done, workers }) => {
                    if let Some(b) = bar {
                        b.set_length(total as u64);
                        b.set_position(already_done as u64);
                        b.reset_eta();
                    }
                    say(format!("arena: {total} matches, {already_done} already done, {workers} workers"));
                }
                Ok(ArenaEvent::MatchStarted { .. }) => {}
                Ok(ArenaEvent::MatchFinished(r)) => say(match_line(&r)),
                Ok(ArenaEvent::Progress { done, total, eta }) => match bar {
                    Some(b) => b.set_position(done as u64),
                    None => out!(
                        "progress: {done}/{total}{}",
                        eta.map(|d| format!(", ETA {:.0} s", d.as_secs_f64())).unwrap_or_default()
                    ),
                },
                Ok(ArenaEvent::SprtStop { decision, llr }) => {
                    say(format!("SPRT: {decision:?} (LLR {llr:.3}); finishing the matches in flight"));
                }
                Ok(ArenaEvent::Warning(w)) => say(format!("warning: {w}")),
                Ok(ArenaEvent::Summary(o)) => outcome = Some(o),
                Err(_) => break,
            },
            recv(sig_rx) -> sig => {
                say(format!("signal {}: cancelling the arena (matches in flight are not recorded)", sig.unwrap_or(0)));
                handle.cancel();
                sig_rx = crossbeam_channel::never();
            }
        }
    }
    outcome
}

/// A finished match in one line: its id, who won, and each player's incidents.
fn match_line(r: &MatchRecord) -> String {
    let incidents: Vec<String> = r
        .players
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let mut v = Vec::new();
            if p.failed_to_load {
                v.push("failed to load".to_string());
            } else if p.crashed {
                v.push("crashed".to_string());
            }
            if p.hard_timeouts > 0 {
                v.push(format!("{} timeouts", p.hard_timeouts));
            }
            if p.time_penalty_hp > 0 {
                v.push(format!("{} HP time penalty", p.time_penalty_hp));
            }
            (!v.is_empty()).then(|| format!("p{}: {}", i + 1, v.join(", ")))
        })
        .collect();
    let result = match (&r.error, r.winner_label()) {
        (Some(e), _) => format!("error: {e}"),
        (None, Some(w)) => format!("{w} wins {}–{} HP, {} turns", r.players[0].hp, r.players[1].hp, r.turns),
        (None, None) => "no winner".into(),
    };
    let extra = if incidents.is_empty() { String::new() } else { format!(" [{}]", incidents.join("; ")) };
    format!("{}: {result}{extra}", r.job_id)
}

/// The summary, the comparison with the ghosts (if the arena played ghosts) and where the
/// results are.
fn print_results(outcome: &ArenaOutcome, ghost_games: &[GhostGame], first_label: &str) -> Result<(), CliError> {
    print!("{}", outcome_text(outcome));
    if !ghost_games.is_empty() {
        let rows = compare(ghost_games, &outcome.records);
        print!("\n{}", ghosts_report(first_label, &rows));
        let path = outcome.results_path.with_file_name("ghosts.csv");
        write_atomic(&path, ghosts_csv(&rows).as_bytes())
            .map_err(CliError::write("write the ghost comparison", &path))?;
        out!("ghost comparison: {}", path.display());
    }
    out!(
        "results: {}{}",
        outcome.results_path.display(),
        outcome.csv_paths.iter().map(|p| format!(", {}", p.display())).collect::<String>()
    );
    Ok(())
}
