//! `terminal-studio arena`: run an arena (progress bars, summary table), write it as a
//! plan (`--plan`), or merge result files (`--merge`).

use super::error::CliError;
use super::limits::TimeLimitArgs;
use super::signals::catch_stop_signals;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use terminal_core::arena::ghosts::{
    GhostChoice, GhostGame, compare, csv as ghosts_csv, ghost_games, report as ghosts_report,
};
use terminal_core::arena::jobfile::{PlanOptions, plan_lines};
use terminal_core::arena::merge::merge;
use terminal_core::arena::report::{outcome_text, table, write_csv};
use terminal_core::arena::{
    ArenaEvent, ArenaSpec, Entrant, Format, Plan, SprtParams, StopReason, algo_label, default_jobs, start_arena,
    summarize,
};
use terminal_core::engine::presets::{DEFAULT_PRESET, load_config};
use terminal_core::files::write_atomic;

pub struct ArenaArgs {
    pub algos: Vec<PathBuf>,
    pub games: u32,
    pub jobs: Option<usize>,
    pub config: Option<String>,
    pub out: Option<PathBuf>,
    pub vs: Option<PathBuf>,
    /// A gauntlet against the ghosts of the replays in this folder.
    pub vs_ghosts: Option<(PathBuf, GhostChoice)>,
    pub resume: bool,
    pub sprt: Option<String>,
    pub seed: u64,
    pub limits: TimeLimitArgs,
    pub plan: bool,
    pub merge: bool,
}

pub const DEFAULT_OUT: &str = "arena";

pub fn run(args: ArenaArgs) -> ExitCode {
    let r = if args.merge {
        run_merge(&args)
    } else if args.plan {
        run_plan(&args)
    } else {
        run_arena(&args)
    };
    match r {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn absolute(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| std::env::current_dir().map(|d| d.join(p)).unwrap_or_else(|_| p.to_path_buf()))
}

/// Refuses a path that does not exist; warns that an algo folder without a start script
/// fails to load in every game, as on the official engine.
fn warn_if_failing_to_load(path: &Path) -> Result<(), CliError> {
    if let Some(why) = terminal_core::runner::check_algo_arg(path)? {
        eprintln!("warning: {why}: this player fails to load in every game (FailedToLoad, crashed at turn 0)");
    }
    Ok(())
}

fn build_plan(args: &ArenaArgs) -> Result<Plan, CliError> {
    let mut paths: Vec<PathBuf> = args.algos.clone();
    let format = match &args.vs {
        Some(b) => {
            paths.push(b.clone());
            Format::Gauntlet { baseline: paths.len() - 1 }
        }
        None => Format::RoundRobin,
    };
    let mut entrants = Vec::new();
    for p in paths {
        warn_if_failing_to_load(&p)?;
        let path = absolute(&p);
        entrants.push(Entrant { label: algo_label(&path), path });
    }
    Ok(Plan::new(entrants, format, args.games, args.seed)?)
}

fn out_dir(args: &ArenaArgs) -> PathBuf {
    args.out.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_OUT))
}

fn run_plan(args: &ArenaArgs) -> Result<ExitCode, CliError> {
    let plan = build_plan(args)?;
    let out = absolute(&out_dir(args));
    for sub in ["matches", "results"] {
        std::fs::create_dir_all(out.join(sub)).map_err(CliError::io(out.join(sub)))?;
    }
    let exe = std::env::current_exe().map_err(CliError::io("(this program's own executable)"))?;
    let opts = PlanOptions {
        config: args.config.as_deref().map(|c| {
            if Path::new(c).exists() { absolute(Path::new(c)).to_string_lossy().into_owned() } else { c.to_string() }
        }),
        soft_ms: args.limits.soft_ms,
        max_ms: args.limits.max_ms,
        startup_ms: args.limits.startup_ms,
    };
    let lines = plan_lines(&plan, &exe, &out, &opts);
    let mut text = lines.join("\n");
    text.push('\n');
    let path = out.join("plan.txt");
    write_atomic(&path, text.as_bytes()).map_err(CliError::io(&path))?;
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
    Ok(ExitCode::SUCCESS)
}

fn run_merge(args: &ArenaArgs) -> Result<ExitCode, CliError> {
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
        write_atomic(&merged, text.as_bytes()).map_err(CliError::io(&merged))?;
        let csv = write_csv(out, &s)?;
        out!(
            "written: {}, {}",
            out.join("merged.jsonl").display(),
            csv.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The games against ghosts, after saying which replays cannot be played.
fn ghost_games_of(args: &ArenaArgs) -> Result<Option<Vec<GhostGame>>, CliError> {
    let Some((dir, choice)) = &args.vs_ghosts else { return Ok(None) };
    if args.algos.len() != 1 {
        return Err(CliError::Usage("--vs-ghosts plays one algo against the ghosts: give exactly one algo"));
    }
    let (games, skipped) = ghost_games(dir, choice)?;
    for (f, why) in &skipped {
        eprintln!("skipped {}: {why}", f.display());
    }
    if games.is_empty() {
        return Err(CliError::Usage("--vs-ghosts: no replay in that folder can be played (see above)"));
    }
    Ok(Some(games))
}

fn run_arena(args: &ArenaArgs) -> Result<ExitCode, CliError> {
    let ghosts = ghost_games_of(args)?;
    let plan = match &ghosts {
        Some(games) => {
            let path = &args.algos[0];
            warn_if_failing_to_load(path)?;
            let path = absolute(path);
            Plan::vs_ghosts(Entrant { label: algo_label(&path), path }, games, args.seed)?
        }
        None => build_plan(args)?,
    };
    let config = load_config(args.config.as_deref().unwrap_or(DEFAULT_PRESET))?;
    config.check_simulated()?;
    let mut spec = ArenaSpec::new(plan, Arc::new(config), out_dir(args));
    spec.ghost_rulesets = args.config.is_none();
    let first_label = spec.plan.entrants[0].label.clone();
    spec.jobs = args.jobs.unwrap_or_else(default_jobs);
    spec.resume = args.resume;
    spec.soft_ms = args.limits.soft_ms;
    spec.max_ms = args.limits.max_ms;
    spec.startup_ms = args.limits.startup_ms;
    spec.sprt = args.sprt.as_deref().map(SprtParams::parse).transpose()?;
    let handle = start_arena(spec)?;

    // Ctrl-C / SIGTERM / SIGHUP cancel the arena: the algos run in their own process
    // groups, so without this they would outlive us.
    let signals = catch_stop_signals();
    let mut sig_rx = signals.as_ref().map_or_else(crossbeam_channel::never, |s| s.received.clone());

    let tty = std::io::stdout().is_terminal();
    let bar = if tty { Some(ProgressBar::new(0)) } else { None };
    if let Some(b) = &bar {
        let style = ProgressStyle::with_template(
            "{bar:40.cyan/blue} {pos}/{len} matches  {elapsed_precise} elapsed, ETA {eta}  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        b.set_style(style);
        b.enable_steady_tick(Duration::from_millis(250));
    }
    let say = |line: String| match &bar {
        Some(b) => b.println(line),
        None => out!("{line}"),
    };
    let mut outcome = None;
    loop {
        crossbeam_channel::select! {
            recv(handle.events) -> ev => match ev {
                Ok(ArenaEvent::Started { total, already_done, workers }) => {
                    if let Some(b) = &bar {
                        b.set_length(total as u64);
                        b.set_position(already_done as u64);
                        b.reset_eta();
                    }
                    say(format!("arena: {total} matches, {already_done} already done, {workers} workers"));
                }
                Ok(ArenaEvent::MatchStarted { .. }) => {}
                Ok(ArenaEvent::MatchFinished(r)) => {
                    let incidents: Vec<String> = r.players.iter().enumerate().filter_map(|(i, p)| {
                        let mut v = Vec::new();
                        if p.failed_to_load { v.push("failed to load".to_string()); }
                        else if p.crashed { v.push("crashed".to_string()); }
                        if p.hard_timeouts > 0 { v.push(format!("{} timeouts", p.hard_timeouts)); }
                        if p.time_penalty_hp > 0 { v.push(format!("{} HP time penalty", p.time_penalty_hp)); }
                        (!v.is_empty()).then(|| format!("p{}: {}", i + 1, v.join(", ")))
                    }).collect();
                    let result = match (&r.error, r.winner_label()) {
                        (Some(e), _) => format!("error: {e}"),
                        (None, Some(w)) => format!("{w} wins {}–{} HP, {} turns", r.players[0].hp, r.players[1].hp, r.turns),
                        (None, None) => "no winner".into(),
                    };
                    let extra = if incidents.is_empty() { String::new() } else { format!(" [{}]", incidents.join("; ")) };
                    if bar.is_some() {
                        say(format!("{}: {result}{extra}", r.job_id));
                    } else {
                        out!("{}: {result}{extra}", r.job_id);
                    }
                }
                Ok(ArenaEvent::Progress { done, total, eta }) => match &bar {
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
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    drop(signals);
    let outcome = match outcome {
        Some(o) => *o,
        None => handle.wait()?,
    };
    print!("{}", outcome_text(&outcome));
    if let Some(games) = &ghosts {
        let rows = compare(games, &outcome.records);
        print!("\n{}", ghosts_report(&first_label, &rows));
        let path = outcome.results_path.with_file_name("ghosts.csv");
        write_atomic(&path, ghosts_csv(&rows).as_bytes()).map_err(CliError::io(&path))?;
        out!("ghost comparison: {}", path.display());
    }
    out!(
        "results: {}{}",
        outcome.results_path.display(),
        outcome.csv_paths.iter().map(|p| format!(", {}", p.display())).collect::<String>()
    );
    Ok(match outcome.stop {
        StopReason::Completed | StopReason::Sprt(_) => ExitCode::SUCCESS,
        StopReason::Cancelled => ExitCode::from(130),
        StopReason::Error(_) => ExitCode::FAILURE,
    })
}
