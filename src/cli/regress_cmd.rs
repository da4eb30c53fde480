//! `terminal-studio regress ALGO`: the algo saved as a version if it changed, then compared
//! with a saved version head to head and against the same ghosts and algos; the flipped
//! games, where each one parted, and whether the algo plays the same game twice. With
//! `--watch`, again at every change of the folder.

use super::confine_args::ConfineArgs;
use super::error::{CliError, Outcome};
use super::limits::TimeLimitArgs;
use super::signals::catch_stop_signals;
use super::versions_cmd::store;
use crossbeam_channel::Receiver;
use serde_json::json;
use std::path::PathBuf;
use terminal_core::arena::SprtParams;
use terminal_core::arena::ghosts::GhostChoice;
use terminal_core::engine::geometry::Player;
use terminal_core::versions::{
    BaseChoice, Flip, FolderWatch, GameComparison, GameResult, GameTerms, HeadToHead, POLL, RegressEvent,
    RegressHandle, RegressReport, RegressSpec, Stage, start_regress,
};

#[derive(clap::Args, Debug)]
pub struct RegressArgs {
    /// The algo folder (saved as a new version if it changed).
    pub algo: PathBuf,
    /// The label of the version saved, if the folder changed.
    #[arg(long, value_name = "TEXT")]
    pub label: Option<String>,
    /// The version to compare with: a label or the start of a hash of a saved version of
    /// ALGO, or another algo folder (default: the newest saved version that differs).
    #[arg(long, value_name = "VERSION|DIR")]
    pub base: Option<String>,
    /// Replays (folders searched recursively) whose recorded players both versions meet as
    /// ghosts, each in its recorded seat; repeat for more folders.
    #[arg(long, value_name = "DIR")]
    pub ghosts: Vec<PathBuf>,
    /// With --ghosts: the ghost is player N of every replay (default 2).
    #[arg(long, value_name = "N", conflicts_with = "opponent_of", value_parser = clap::value_parser!(u8).range(1..=2))]
    pub seat: Option<u8>,
    /// With --ghosts: the ghost is, in each replay, the opponent of the player NAME.
    #[arg(long, value_name = "NAME")]
    pub opponent_of: Option<String>,
    /// Other algos both versions meet, from both seats.
    #[arg(long, value_name = "ALGO", num_args = 1..)]
    pub vs: Vec<PathBuf>,
    /// The most head-to-head games (whole pairs, seats swapped); the SPRT stops them early;
    /// 0 plays none.
    #[arg(long, default_value_t = 24)]
    pub games: u32,
    /// Matches at once (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// One JSON object per game against the opponents, then a summary object.
    #[arg(long)]
    pub json: bool,
    /// A preset or a game-configs.json (default: each ghost's own ruleset; the head-to-head
    /// and --vs games the first ghost's, or base-s6 without ghosts).
    #[arg(long)]
    pub config: Option<String>,
    /// The pair SPRT's bounds (default -150,0,0.05,0.05, a non-regression test: see
    /// docs/versions.md).
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA")]
    pub sprt: Option<String>,
    /// The seed of the games (head-to-head pair k gets seed + k).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Do not play the new version's first game twice to check that it plays the same game.
    #[arg(long)]
    pub no_noise_check: bool,
    /// Save and compare again whenever the folder changes (Ctrl+C to stop).
    #[arg(long, conflicts_with = "json")]
    pub watch: bool,
    #[command(flatten)]
    pub limits: TimeLimitArgs,
    #[command(flatten)]
    pub confine: ConfineArgs,
}

impl RegressArgs {
    fn spec(&self) -> Result<RegressSpec, CliError> {
        let mut spec = RegressSpec::new(&self.algo, store());
        spec.label = self.label.clone();
        spec.base = match &self.base {
            None => BaseChoice::NewestOther,
            Some(b) if std::path::Path::new(b).is_dir() => BaseChoice::Folder(b.into()),
            Some(b) => BaseChoice::Named(b.clone()),
        };
        spec.ghosts = self.ghosts.clone();
        spec.ghost_choice = match (&self.opponent_of, self.seat) {
            (Some(name), _) => GhostChoice::OpponentOf(name.clone()),
            (None, Some(1)) => GhostChoice::Seat(Player::One),
            (None, _) => GhostChoice::Seat(Player::Two),
        };
        spec.vs = self.vs.clone();
        spec.games = self.games;
        spec.jobs = self.jobs.unwrap_or(0);
        if let Some(s) = &self.sprt {
            spec.sprt = SprtParams::parse(s).map_err(terminal_core::versions::VersionsError::from)?;
        }
        spec.ruleset = self.config.clone();
        let l = &self.limits;
        spec.terms = GameTerms { soft_ms: l.soft_ms, max_ms: l.max_ms, startup_ms: l.startup_ms, seed: self.seed };
        spec.confine = self.confine.confinement();
        spec.check_noise = !self.no_noise_check;
        Ok(spec)
    }
}

pub fn run(args: &RegressArgs) -> Result<Outcome, CliError> {
    let signals = catch_stop_signals();
    let signals = signals.as_ref().map_or_else(crossbeam_channel::never, |s| s.received.clone());
    if args.watch {
        return watch(args, &signals);
    }
    let handle = start_regress(args.spec()?)?;
    follow(&handle, &signals, None);
    let report = match handle.wait() {
        Err(first) if first.is_first_version() => {
            // The first version saved: not a failure, and what to do next.
            eprintln!("{first}");
            return Ok(Outcome::Done);
        }
        other => other?,
    };
    print_report(&report, args.json)?;
    Ok(outcome_of(&report))
}

/// Interrupted when cancelled; a difference found when the new version is worse.
fn outcome_of(report: &RegressReport) -> Outcome {
    if report.cancelled {
        Outcome::Interrupted
    } else if report.head_to_head.verdict() == "worse" {
        Outcome::Found
    } else {
        Outcome::Done
    }
}

/// What stopped a comparison being followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stopped {
    Ended,
    Signal,
    FolderChanged,
}

/// Prints the run's progress to stderr until it ends, cancelling it on a signal or, when a
/// folder is watched, once it has changed.
fn follow(handle: &RegressHandle, signals: &Receiver<i32>, mut watched: Option<&mut FolderWatch>) -> Stopped {
    let mut stopped = Stopped::Ended;
    loop {
        crossbeam_channel::select! {
            recv(handle.events) -> ev => match ev {
                Ok(ev) => progress(&ev),
                Err(_) => return stopped,
            },
            recv(signals) -> _ => {
                eprintln!("stopping: the games in flight are not recorded (the next run plays them)");
                handle.cancel();
                stopped = Stopped::Signal;
            },
            default(POLL) => {
                let Some(folder) = watched.as_deref_mut().filter(|_| stopped == Stopped::Ended) else { continue };
                if changed(folder) {
                    eprintln!("the folder changed: stopping this comparison to start again");
                    handle.cancel();
                    stopped = Stopped::FolderChanged;
                }
            },
        }
    }
}

/// One poll of a watched folder (a folder that cannot be read is said, and taken as unchanged).
fn changed(folder: &mut FolderWatch) -> bool {
    folder.poll().unwrap_or_else(|e| {
        eprintln!("warning: {e}");
        false
    })
}

fn progress(ev: &RegressEvent) {
    match ev {
        RegressEvent::Saved { version, created: true } => eprintln!("saved as version {}", version.name()),
        RegressEvent::Saved { version, created: false } => {
            eprintln!("unchanged since version {} (saved {})", version.name(), version.saved_at_text());
        }
        RegressEvent::Base(v) => eprintln!("base: version {} (saved {})", v.name(), v.saved_at_text()),
        RegressEvent::Stage { stage, to_play, cached } => {
            let what = match stage {
                Stage::HeadToHead => "head to head",
                Stage::Opponents => "against the same opponents",
            };
            eprintln!("{what}: {to_play} games to play, {cached} from the cache");
        }
        RegressEvent::GameFinished { job_id, record, .. } => {
            let result =
                record.error.as_deref().map_or_else(|| format!("p{} won", record.winner), |e| format!("error: {e}"));
            eprintln!("  {job_id}: {result}, {} turns", record.turns);
        }
        RegressEvent::HeadToHead(h) => eprintln!("  SPRT: LLR {:.2} (bounds {:.2}, {:.2})", h.llr, h.lower, h.upper),
        RegressEvent::Warning(w) => eprintln!("warning: {w}"),
        RegressEvent::Finished(_) => {}
    }
}

/// Runs the comparison, and again after every change of the folder, until a signal.
fn watch(args: &RegressArgs, signals: &Receiver<i32>) -> Result<Outcome, CliError> {
    let mut folder = FolderWatch::new(&args.algo)?;
    loop {
        let handle = start_regress(args.spec()?)?;
        let stopped = follow(&handle, signals, Some(&mut folder));
        match handle.wait() {
            Ok(report) if !report.cancelled => print_report(&report, false)?,
            Ok(_) => {}
            Err(e) if e.is_first_version() => eprintln!("{e}"),
            Err(e) => eprintln!("error: {e}"),
        }
        match stopped {
            Stopped::Signal => return Ok(Outcome::Interrupted),
            Stopped::FolderChanged => continue,
            Stopped::Ended => eprintln!("watching {} for changes (Ctrl+C to stop)", args.algo.display()),
        }
        loop {
            crossbeam_channel::select! {
                recv(signals) -> _ => return Ok(Outcome::Interrupted),
                default(POLL) => if changed(&mut folder) { break },
            }
        }
    }
}

fn print_report(report: &RegressReport, json: bool) -> Result<(), CliError> {
    if json {
        for g in &report.games {
            out!("{}", serde_json::to_string(&game_json(g))?);
        }
        out!("{}", serde_json::to_string(&summary_json(report))?);
    } else {
        print!("{}", report_text(report));
    }
    Ok(())
}

/// One game against an opponent, for machines.
fn game_json(g: &GameComparison) -> serde_json::Value {
    json!({
        "opponent": g.opponent,
        "opponent_identity": g.opponent_identity,
        "seat": g.seat,
        "base_result": g.base.as_ref().map(|r| r.word()),
        "new_result": g.new.as_ref().map(|r| r.word()),
        "flipped": g.flipped,
        "hp_swing": g.hp_swing,
        "first_divergent_turn": g.divergence.as_ref().map(|d| d.turn),
        "base_commands": g.divergence.as_ref().map(|d| &d.base_commands),
        "new_commands": g.divergence.as_ref().map(|d| &d.new_commands),
        "base_replay": g.base.as_ref().map(|r| &r.replay),
        "new_replay": g.new.as_ref().map(|r| &r.replay),
    })
}

/// The summary object: the games compared, the head-to-head test, the noise check and what
/// was played.
fn summary_json(r: &RegressReport) -> serde_json::Value {
    let h = &r.head_to_head;
    let (base_wins, new_wins) = r.wins();
    json!({ "summary": {
        "new": r.new.hash,
        "base": r.base.hash,
        "saved": r.saved,
        "games": r.games.len(),
        "base_wins": base_wins,
        "new_wins": new_wins,
        "regressions": r.flipped().iter().filter(|g| g.flipped == Some(Flip::Regression)).count(),
        "fixes": r.flipped().iter().filter(|g| g.flipped == Some(Flip::Fix)).count(),
        "head_to_head": { "pairs": h.pairs, "wins": h.wins, "losses": h.losses, "errors": h.errors },
        "elo": h.elo.map(|e| e.elo),
        "elo_ci": h.elo.map(|e| [e.lower, e.upper]),
        "llr": h.llr,
        "llr_bounds": [h.lower, h.upper],
        "sprt": h.params,
        "verdict": h.verdict(),
        "ruleset": r.ruleset.name,
        "ruleset_from": r.ruleset.from,
        "deterministic": r.noise.as_ref().map(|n| n.deterministic),
        "flipped_parted_at_turn_0": r.parted_at_turn_zero(),
        "parted_at_turn": r.noise.as_ref().and_then(|n| n.parted_at.map(|d| d.turn)),
        "played": r.played,
        "cancelled": r.cancelled,
    }})
}

/// The report for people: the two versions, the head-to-head test, the same opponents, the
/// flipped games and why, the noise check, and what was played.
fn report_text(r: &RegressReport) -> String {
    let mut s = String::new();
    let saved = if r.saved { "saved now" } else { "unchanged" };
    s.push_str(&format!("new:  {} ({saved}, {})\n", r.new.name(), r.new.saved_at_text()));
    s.push_str(&format!("base: {} (saved {})\n", r.base.name(), r.base.saved_at_text()));
    s.push_str(&format!("ruleset of the head to head: {} (--config to choose)\n", r.ruleset));
    s.push_str(&head_to_head_text(&r.head_to_head));
    if !r.games.is_empty() {
        let (base_wins, new_wins) = r.wins();
        s.push_str(&format!(
            "same opponents: {} games each; base won {base_wins}, new won {new_wins}\n",
            r.games.len()
        ));
    }
    let flipped = r.flipped();
    let regressions = flipped.iter().filter(|g| g.flipped == Some(Flip::Regression)).count();
    s.push_str(&format!("flipped: {regressions} regressions, {} fixes\n", flipped.len() - regressions));
    for g in flipped {
        s.push_str(&flipped_text(g));
    }
    s.push_str(&noise_text(r));
    if r.looks_unseeded() {
        let zero = r.parted_at_turn_zero();
        if zero > 0 {
            s.push_str(&format!(
                "unseeded: {zero} flipped games parted at turn 0, before either version saw anything the other did not\n"
            ));
        }
        s.push_str(&format!("to compare the change rather than chance: {}\n", terminal_core::versions::HOW_TO_SEED));
    }
    let p = &r.played;
    s.push_str(&format!(
        "played: {} head to head, {} by the new version, {} by the base, {} again for the noise check; {} from the cache\n",
        p.head_to_head, p.new, p.base, p.repeat, p.cached
    ));
    for (f, why) in &r.skipped_replays {
        s.push_str(&format!("skipped {}: {why}\n", f.display()));
    }
    if r.cancelled {
        s.push_str("cancelled: the games recorded so far are kept; the next run plays the rest\n");
    }
    s
}

fn head_to_head_text(h: &HeadToHead) -> String {
    let p = &h.params;
    let bounds = format!(
        "SPRT over game pairs, H0 {:+} Elo against H1 {:+} Elo, alpha {} beta {}",
        p.elo0, p.elo1, p.alpha, p.beta
    );
    if h.pairs.pairs() == 0 && h.errors == 0 {
        return format!("head to head: no game ({bounds})\n");
    }
    let elo = h.elo.map_or("-".into(), |e| format!("{:+.0} (95 % {:+.0} to {:+.0})", e.elo, e.lower, e.upper));
    let mut s = format!(
        "head to head: new won {} of {} games; pairs by the new version's points 0/0.5/1/1.5/2: {:?}\n  Elo {elo}; LLR {:.2} (bounds {:.2}, {:.2}): {}\n",
        h.wins,
        h.wins + h.losses,
        h.pairs.0,
        h.llr,
        h.lower,
        h.upper,
        h.verdict()
    );
    s.push_str(&format!("  {bounds}: does the new version lose 150 Elo (30 % against 50 %)?\n"));
    s.push_str("  Terminal's gaps are large: a clean sweep decides in 6 to 9 pairs, and a change that makes\n");
    s.push_str("  no difference is called worse at most 5 % of the time; the Elo says whether it is better\n");
    if h.errors > 0 {
        s.push_str(&format!("  {} games could not be played (left out)\n", h.errors));
    }
    s
}

fn flipped_text(g: &GameComparison) -> String {
    let kind = if g.flipped == Some(Flip::Regression) { "regression" } else { "fix" };
    let result = |r: Option<&GameResult>| {
        r.map_or("-".into(), |r| format!("{} (HP {:.1} vs {:.1}, {} turns)", r.word(), r.hp, r.opponent_hp, r.turns))
    };
    let mut s = format!(
        "  {kind}: {} (seat {}): base {}, new {}; HP swing {:+.1}\n",
        g.opponent,
        g.seat,
        result(g.base.as_ref()),
        result(g.new.as_ref()),
        g.hp_swing.unwrap_or(0.0)
    );
    let commands = |c: &[terminal_core::versions::IssuedCommand]| {
        if c.is_empty() {
            "nothing".to_string()
        } else {
            c.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        }
    };
    match (&g.divergence, &g.divergence_error) {
        (Some(d), _) => {
            s.push_str(&format!("    first divergent turn {} (frame {}):\n", d.turn, d.action_frame));
            s.push_str(&format!(
                "      base: {}\n      new:  {}\n",
                commands(&d.base_commands),
                commands(&d.new_commands)
            ));
            if d.opponent_differs {
                s.push_str("      (the opponent played differently that turn too)\n");
            }
        }
        (None, Some(e)) => s.push_str(&format!("    why: cannot read the replays: {e}\n")),
        (None, None) => s.push_str("    the two games are the same frame for frame (a tie decided by time?)\n"),
    }
    if let (Some(b), Some(n)) = (&g.base, &g.new) {
        s.push_str(&format!("    replays: {} | {}\n", b.replay.display(), n.replay.display()));
    }
    s
}

fn noise_text(r: &RegressReport) -> String {
    match &r.noise {
        None => "noise: not checked\n".into(),
        Some(n) if n.deterministic => format!(
            "noise: deterministic (the new version played its game against {} twice: the same game)\n",
            n.opponent
        ),
        Some(n) => format!(
            "noise: NOT deterministic: the new version's two plays against {} parted at turn {} (frame {}); \
             flipped games may be its own randomness or timing, not the change\n",
            n.opponent,
            n.parted_at.map_or(-1, |d| d.turn),
            n.parted_at.map_or(-1, |d| d.action_frame)
        ),
    }
}
