//! `terminal-studio stress`: a base layout against every recorded attack of real replays
//! (the layout lab), and with `--suggest` the changes that most reduce the HP it loses.

use super::{CliError, Outcome};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use terminal_core::engine::config::Config;
use terminal_core::engine::geometry::Player;
use terminal_core::engine::presets::{DEFAULT_PRESET, load_config};
use terminal_core::layout::Layout;
use terminal_core::layout::files::load_layout;
use terminal_core::layout::stress::{
    self, Attack, AttackFilter, AttackOutcome, AttackSet, Defence, HpModel, StressReport, Totals,
};
use terminal_core::planner::{CandidateRecord, PlanError};
use terminal_core::suggest::{
    Against, SuggestOptions, SuggestProgress, SuggestStage, Suggestion, parse_mp_schedule, suggest,
};
use terminal_core::verify::{collect_replays, ruleset_name};

#[derive(clap::Args, Debug)]
pub struct StressArgs {
    /// The layout file to test.
    pub layout: PathBuf,
    /// Replay files or folders (searched recursively) whose attacks the layout meets (not
    /// needed with --suggest --against planner).
    #[arg(long, num_args = 1.., value_name = "DIR|FILE")]
    pub attacks: Vec<PathBuf>,
    /// The seat the layout is drawn for (default: 1, unless only player 2 has structures).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub seat: Option<u8>,
    /// The layout's ruleset, a preset name or a game-configs.json file (default: the one the
    /// layout file names, else base-s6). Replays of other rulesets are skipped.
    #[arg(long)]
    pub config: Option<String>,
    /// Also run attacks recorded under other current-format rulesets, under the layout's.
    #[arg(long)]
    pub any_ruleset: bool,
    /// One JSON object per attack, then one summary object.
    #[arg(long)]
    pub json: bool,
    /// How many of the worst attacks the report lists.
    #[arg(long, default_value_t = 10)]
    pub worst: usize,
    /// Search for the changes that most reduce HP lost within --budget SP.
    #[arg(long, requires = "budget")]
    pub suggest: bool,
    /// SP the suggested changes may cost in all.
    #[arg(long, value_name = "SP", requires = "suggest")]
    pub budget: Option<f32>,
    /// At most this many suggested changes.
    #[arg(long, value_name = "N", requires = "suggest")]
    pub steps: Option<usize>,
    /// Write the layout with every suggested change to this file.
    #[arg(long, value_name = "FILE", requires = "suggest")]
    pub write: Option<PathBuf>,
    /// What the suggestion weighs: the recorded attacks of --attacks, the attack planner's
    /// strongest reply at each MP of --mp (searched again after each change), or both.
    #[arg(long, value_enum, default_value = "recorded", requires = "suggest")]
    pub against: AgainstArg,
    /// The planner's MP levels: "5,10,15", or a range "5-30" (every 5 MP) or "5-30:2.5".
    #[arg(long, value_name = "LIST", requires = "suggest", value_parser = mp_schedule, default_value = "5-30")]
    pub mp: MpSchedule,
    /// Candidates the planner searches again per step, at most.
    #[arg(long, value_name = "N", requires = "suggest")]
    pub replanned: Option<usize>,
    /// With --against both: how many recorded attacks one level's strongest reply counts as
    /// (default: the recorded attacks over the levels, so the two sets weigh alike)
    #[arg(long, value_name = "N", requires = "suggest", value_parser = positive_weight)]
    pub reply_weight: Option<f64>,
    /// Let the suggestion remove structures too.
    #[arg(long, requires = "suggest")]
    pub removals: bool,
    /// Worker threads (default: number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Keep and take the attacks in this library index (made by `library DIR --db FILE`);
    /// by default, a folder given to --attacks that `library` indexed uses its index.
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

/// `--against`: the attacks a suggestion weighs.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgainstArg {
    Recorded,
    Planner,
    Both,
}

impl AgainstArg {
    fn against(self) -> Against {
        match self {
            AgainstArg::Recorded => Against::Recorded,
            AgainstArg::Planner => Against::Planner,
            AgainstArg::Both => Against::Both,
        }
    }
}

/// `--mp`: the planner's MP levels, ascending.
#[derive(Debug, Clone, PartialEq)]
pub struct MpSchedule(pub Vec<f32>);

fn mp_schedule(text: &str) -> Result<MpSchedule, String> {
    parse_mp_schedule(text).map(MpSchedule)
}

/// Done when the layout lost no HP to any attack, Found when it lost HP to some.
pub fn run(args: &StressArgs) -> Result<Outcome, CliError> {
    Ok(run_checked(args)?)
}

/// Why the command could not run; each names the file or flag.
#[derive(Debug, thiserror::Error)]
pub enum StressInputError {
    #[error(transparent)]
    Layout(#[from] terminal_core::layout::files::LayoutFileError),
    #[error("--config: {0}")]
    Config(#[from] terminal_core::engine::config::ConfigLoadError),
    #[error("{0}: the layout's ruleset is in the 2018–2019 format, which the layout lab does not run")]
    Legacy(String),
    #[error("no replay files found under {0:?}")]
    NoReplays(Vec<PathBuf>),
    #[error(
        "none of the {files} replays gives an attack under {ruleset} (first skipped: {first}); --any-ruleset runs other rulesets' attacks"
    )]
    NoAttacks { files: usize, ruleset: String, first: String },
    #[error(transparent)]
    Attacks(#[from] stress::AttackError),
    #[error(transparent)]
    Run(#[from] stress::RunError),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error("--attacks DIR|FILE is required (only --suggest --against planner goes without it)")]
    NoAttackFlag,
    #[error(transparent)]
    Index(#[from] terminal_core::library::LibraryError),
    #[error("--db needs one folder in --attacks, the folder the index is of")]
    IndexNeedsOneFolder,
    #[error("cannot write JSON: {0}")]
    Json(#[from] serde_json::Error),
}

fn run_checked(args: &StressArgs) -> Result<Outcome, StressInputError> {
    let layout = load_layout(&args.layout)?;
    let spec = args.config.clone().or_else(|| layout.config.clone()).unwrap_or_else(|| DEFAULT_PRESET.to_string());
    let config = Arc::new(load_config(&spec)?);
    if config.legacy {
        return Err(StressInputError::Legacy(spec));
    }
    let seat = seat_of(args.seat, &layout);
    let against = args.against.against();
    if args.attacks.is_empty() && (!args.suggest || against.recorded()) {
        return Err(StressInputError::NoAttackFlag);
    }
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let cancel = AtomicBool::new(false);
    let ruleset = ruleset_name(&config);

    // The recorded attacks and the layout's report against them, when --attacks is given.
    let recorded = if args.attacks.is_empty() {
        None
    } else {
        let files = collect_replays(&args.attacks);
        if files.is_empty() {
            return Err(StressInputError::NoReplays(args.attacks.clone()));
        }
        let started = Instant::now();
        let index = index_of(args)?;
        let set = read_attacks(&files, index.as_ref(), &config, args.any_ruleset, jobs, &cancel)?;
        let read_s = started.elapsed().as_secs_f64();
        let started = Instant::now();
        let defence = Defence::from_layout(&layout, seat, &config);
        let bar = progress_bar(set.attacks.len(), "attacks");
        let report =
            stress::run(&set.attacks, &defence, HpModel::Unlimited, jobs, &|d, _| bar.set_position(d as u64), &cancel)?;
        bar.finish_and_clear();
        Some((files.len(), set, report, read_s, started.elapsed().as_secs_f64()))
    };

    let suggestion = if args.suggest {
        let started = Instant::now();
        let attacks = recorded.as_ref().map_or(&[][..], |(_, set, ..)| &set.attacks[..]);
        let s = suggest_changes(args, attacks, &layout, seat, &config, jobs, &cancel)?;
        if let Some(path) = &args.write {
            let mut suggested = s.layout.clone();
            suggested.name = format!("{} (suggested)", layout.name);
            suggested.config = Some(spec.clone());
            terminal_core::layout::files::save_layout(path, &suggested)?;
        }
        Some((s, started.elapsed().as_secs_f64()))
    } else {
        None
    };

    let planner_hp_after = suggestion.as_ref().and_then(|(s, _)| s.planner.as_ref()).map(|p| p.damage_sum(true));
    let Some((files, set, report, read_s, run_s)) = recorded else {
        // Against the planner alone: the suggestion is the whole output.
        let context = Context { layout: &layout, seat, ruleset: &ruleset, files: 0, skipped: 0 };
        if let Some((s, secs)) = &suggestion {
            if args.json {
                print_planner_json(s, &context, &config)?;
            } else {
                print_suggestion(s, *secs, &config, seat);
            }
        }
        return Ok(if planner_hp_after.unwrap_or(0.0) > 0.0 { Outcome::Found } else { Outcome::Done });
    };
    let context = Context { layout: &layout, seat, ruleset: &ruleset, files, skipped: set.skipped.len() };
    if args.json {
        print_json(&set.attacks, &report, &context, suggestion.as_ref().map(|(s, _)| s), &config)?;
    } else {
        print_human(&set.attacks, &report, &context, args.worst);
        out!(
            "read {files} replays in {read_s:.2} s, ran {} attacks in {run_s:.2} s on {jobs} threads",
            set.attacks.len()
        );
        if let Some((s, secs)) = &suggestion {
            print_suggestion(s, *secs, &config, seat);
        }
    }
    let lost = report.totals.hp_lost > 0.0 || planner_hp_after.unwrap_or(0.0) > 0.0;
    Ok(if lost { Outcome::Found } else { Outcome::Done })
}

/// A reply's weight: a positive number.
fn positive_weight(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(w) if w.is_finite() && w > 0.0 => Ok(w),
        _ => Err(format!("{text:?} is not a positive number")),
    }
}

/// The seat asked for; without `--seat`, 1 unless only player 2 has structures.
fn seat_of(asked: Option<u8>, layout: &Layout) -> Player {
    match asked {
        Some(2) => Player::Two,
        Some(_) => Player::One,
        None if layout.of(Player::One).count() == 0 && layout.of(Player::Two).count() > 0 => Player::Two,
        None => Player::One,
    }
}

/// The library index (database, folder) that keeps the attacks: `--db`, or the index
/// `library` made at its default place of the one folder given to `--attacks`.
fn index_of(args: &StressArgs) -> Result<Option<(PathBuf, PathBuf)>, StressInputError> {
    let folder = match args.attacks.as_slice() {
        [one] if one.is_dir() => Some(one.clone()),
        _ => None,
    };
    match (&args.db, folder) {
        (Some(_), None) => Err(StressInputError::IndexNeedsOneFolder),
        (Some(db), Some(folder)) => Ok(Some((db.clone(), folder))),
        (None, Some(folder)) => {
            let db = terminal_core::library::LibraryIndex::existing_db(&crate::app::paths::data_dir(), &folder);
            Ok(db.map(|db| (db, folder)))
        }
        (None, None) => Ok(None),
    }
}

/// The attacks of `files` the layout's ruleset runs (with a bar while they are read); an
/// error when there is none.
fn read_attacks(
    files: &[PathBuf],
    index: Option<&(PathBuf, PathBuf)>,
    config: &Arc<Config>,
    any_ruleset: bool,
    jobs: usize,
    cancel: &AtomicBool,
) -> Result<AttackSet, StressInputError> {
    let bar = progress_bar(files.len(), "replays read");
    let filter = AttackFilter { config: Arc::clone(config), any_ruleset };
    let progress = |done: usize, _| bar.set_position(done as u64);
    let set = match index {
        Some((db, root)) => {
            terminal_core::library::load_attacks_indexed(db, root, files, &filter, jobs, &progress, cancel)?
        }
        None => stress::load_attacks(files, &filter, jobs, &progress, cancel)?,
    };
    bar.finish_and_clear();
    if let Some((db, _)) = index {
        eprintln!(
            "attacks of {} of {} replays taken from the library index {}",
            set.kept_replays,
            files.len(),
            db.display()
        );
    }
    if set.attacks.is_empty() {
        let first = set.skipped.first().map(|s| format!("{}: {}", s.file.display(), s.reason)).unwrap_or_default();
        return Err(StressInputError::NoAttacks { files: files.len(), ruleset: ruleset_name(config), first });
    }
    for e in &set.unusable_turns {
        eprintln!("warning: {e}");
    }
    Ok(set)
}

/// `--suggest`: the changes that most reduce the HP lost, with a bar over the candidates.
fn suggest_changes(
    args: &StressArgs,
    attacks: &[Attack],
    layout: &Layout,
    seat: Player,
    config: &Config,
    jobs: usize,
    cancel: &AtomicBool,
) -> Result<Suggestion, StressInputError> {
    let defaults = SuggestOptions::default();
    let options = SuggestOptions {
        budget: args.budget.unwrap_or(0.0),
        removals: args.removals,
        max_steps: args.steps.unwrap_or(usize::MAX),
        jobs,
        against: args.against.against(),
        mp_levels: args.mp.0.clone(),
        replanned: args.replanned.unwrap_or(defaults.replanned),
        reply_weight: args.reply_weight,
        ..defaults
    };
    let bar = progress_bar(0, "candidates");
    let shown = |p: SuggestProgress| {
        bar.set_length(p.candidates as u64);
        bar.set_position(p.candidates_done as u64);
        let stage = match p.stage {
            SuggestStage::Replying => "the planner's replies",
            SuggestStage::Screening => "screening",
            SuggestStage::Replanning => "searched again by the planner",
        };
        bar.set_message(format!("step {}: {stage}", p.step + 1));
    };
    let s = suggest(attacks, layout, seat, config, &options, &shown, cancel)?;
    bar.finish_and_clear();
    Ok(s)
}

struct Context<'a> {
    layout: &'a Layout,
    seat: Player,
    ruleset: &'a str,
    files: usize,
    skipped: usize,
}

/// A bar on stderr when it is a terminal; hidden otherwise.
pub(super) fn progress_bar(len: usize, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    let template = format!("{{bar:40.cyan/blue}} {{pos}}/{{len}} {what}  {{elapsed_precise}}  {{msg}}");
    bar.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar
}

fn pct(part: f64, whole: f64) -> f64 {
    if whole > 0.0 { 100.0 * part / whole } else { 0.0 }
}

fn print_human(attacks: &[Attack], report: &StressReport, c: &Context, worst: usize) {
    let t = &report.totals;
    let name = if c.layout.name.is_empty() { "layout" } else { c.layout.name.as_str() };
    out!(
        "{name} (player {}, {}) against {} attacks from {} replays ({} skipped)",
        c.seat.number(),
        c.ruleset,
        t.attacks,
        c.files - c.skipped,
        c.skipped
    );
    out!(
        "  breaches     {} in {} attacks ({:.1} %), {:.0} HP lost ({:.2} per attack)",
        t.breaches,
        t.attacks_breached,
        pct(t.attacks_breached as f64, t.attacks as f64),
        t.hp_lost,
        t.hp_lost / t.attacks.max(1) as f64
    );
    out!(
        "  attackers    {} deployed, {} destroyed by the layout ({:.1} %)",
        t.attackers_spawned,
        t.attackers_destroyed,
        pct(t.attackers_destroyed as f64, t.attackers_spawned as f64)
    );
    out!("  structures   {} lost, {:.1} SP", t.structures_lost, t.sp_lost);
    let list: Vec<usize> = report.worst(worst).collect();
    if !list.is_empty() {
        out!("worst attacks:");
        out!("  {:>5} {:>8} {:>6} {:>5} {:>3}  replay", "HP", "breaches", "SP", "turn", "by");
        for i in list {
            let (a, o) = (&attacks[i], &report.outcomes[i]);
            out!(
                "  {:>5} {:>8} {:>6.1} {:>5} {:>3}  {}",
                o.hp_lost,
                o.breaches,
                o.sp_lost,
                a.turn,
                format!("P{}", a.attacker.number()),
                a.file_name()
            );
        }
    }
}

fn print_suggestion(s: &Suggestion, secs: f64, config: &Config, seat: Player) {
    let against = match s.against {
        Against::Recorded => "the recorded attacks",
        Against::Planner => "the planner's strongest replies",
        Against::Both => "the recorded attacks and the planner's strongest replies",
    };
    let against = if s.against == Against::Both {
        format!("{against} (each reply counted as {:.0} recorded attacks)", s.reply_weight)
    } else {
        against.to_string()
    };
    if s.steps.is_empty() {
        out!("suggest against {against}: no change within the budget lowers HP lost ({secs:.1} s)");
    } else {
        out!("suggest against {against} (greedy), {} SP of budget used, {secs:.1} s:", s.spent);
    }
    for (k, step) in s.steps.iter().enumerate() {
        let recorded = format!(
            "{:+.1} % HP lost over {} attacks ({:.0} → {:.0} HP)",
            step.percent(),
            s.attacks,
            step.hp_lost_before,
            step.hp_lost_after
        );
        let planner = format!("planner's replies {:.0} → {:.0} HP", step.planner_before, step.planner_after);
        let what = match s.against {
            Against::Recorded => recorded,
            Against::Planner => planner,
            Against::Both => format!("{recorded}, {planner}"),
        };
        let prepares = if step.prepares { " (prepares the next)" } else { "" };
        out!(
            "  {}. {}: {what}{prepares}, {} SP, attacks changed: {}, engine runs: {}",
            k + 1,
            step.label,
            step.cost,
            step.attacks_changed,
            step.runs
        );
    }
    if s.against.recorded() && !s.steps.is_empty() {
        out!(
            "  recorded attacks: {:.0} → {:.0} HP lost ({:+.0} %)",
            s.hp_lost_before,
            s.hp_lost_after,
            pct(s.hp_lost_after - s.hp_lost_before, s.hp_lost_before)
        );
    }
    if let Some(p) = &s.planner {
        out!(
            "  the planner's strongest reply at each MP (player {} attacking; {} candidates searched again):",
            seat.opponent().number(),
            p.researched
        );
        out!("  {:>5} {:>9} {:>8} {:>9} {:>8}  deploy after", "MP", "HP before", "SP", "HP after", "SP");
        for l in &p.levels {
            let ((hb, sb), (ha, sa)) = (l.figures(false), l.figures(true));
            let deploy =
                l.after.as_ref().map(|c| c.record(config, seat.opponent(), 1).groups_text()).unwrap_or_default();
            out!("  {:>5} {hb:>9} {sb:>8.1} {ha:>9} {sa:>8.1}  {deploy}", l.mp);
        }
        out!("  {:>5} {:>9} {:>8} {:>9}", "sum", p.damage_sum(false), "", p.damage_sum(true));
    }
}

/// A tile as `--json` writes it: `[x, y]`.
fn xy(t: &terminal_core::engine::Tile) -> [i32; 2] {
    [t.x, t.y]
}

/// One attack's line of `--json`. The engine's f32 figures are written as f64, as before.
#[derive(serde::Serialize)]
struct AttackLine {
    replay: String,
    turn: i32,
    attacker: u8,
    breaches: u32,
    hp_lost: f64,
    structures_lost: u32,
    sp_lost: f64,
    attackers_spawned: u32,
    attackers_destroyed: u32,
    self_destructs: u32,
    action_frames: u32,
    breach_tiles: Vec<[i32; 2]>,
    lost_tiles: Vec<[i32; 2]>,
}

impl AttackLine {
    fn of(a: &Attack, o: &AttackOutcome) -> AttackLine {
        AttackLine {
            replay: a.file_name(),
            turn: a.turn,
            attacker: a.attacker.number(),
            breaches: o.breaches,
            hp_lost: f64::from(o.hp_lost),
            structures_lost: o.structures_lost,
            sp_lost: f64::from(o.sp_lost),
            attackers_spawned: o.attackers_spawned,
            attackers_destroyed: o.attackers_destroyed,
            self_destructs: o.self_destructs,
            action_frames: o.action_frames,
            breach_tiles: o.breach_tiles.iter().map(|(t, _)| xy(t)).collect(),
            lost_tiles: o.lost_tiles.iter().map(xy).collect(),
        }
    }
}

/// An attack named in the summary's `worst` list.
#[derive(serde::Serialize)]
struct AttackName {
    replay: String,
    turn: i32,
    attacker: u8,
}

/// A suggested change in the summary.
#[derive(serde::Serialize)]
struct ChangeLine<'a> {
    change: &'a str,
    cost: f64,
    hp_lost_before: f64,
    hp_lost_after: f64,
    percent: f64,
    /// The planner's replies' HP damage summed over the MP levels (0 without the planner).
    planner_before: f64,
    planner_after: f64,
    /// Saves nothing alone: closes the planner's replies so that the next change can save.
    prepares: bool,
}

impl ChangeLine<'_> {
    fn of(s: &Suggestion) -> Vec<ChangeLine<'_>> {
        s.steps
            .iter()
            .map(|st| ChangeLine {
                change: &st.label,
                cost: f64::from(st.cost),
                hp_lost_before: st.hp_lost_before,
                hp_lost_after: st.hp_lost_after,
                percent: st.percent(),
                planner_before: st.planner_before,
                planner_after: st.planner_after,
                prepares: st.prepares,
            })
            .collect()
    }
}

/// The planner's side of a suggestion: each MP level's strongest reply before and after
/// (the deploy in the attacker's own view, as `attack --json` gives it).
#[derive(serde::Serialize)]
struct PlannerLine {
    against: &'static str,
    levels: Vec<LevelLine>,
    damage_before: f64,
    damage_after: f64,
    researched: usize,
    /// How many recorded attacks one reply counted as.
    reply_weight: f64,
    recorded_hp_lost_before: f64,
    recorded_hp_lost_after: f64,
}

#[derive(serde::Serialize)]
struct LevelLine {
    mp: f32,
    before: Option<CandidateRecord>,
    after: Option<CandidateRecord>,
}

impl PlannerLine {
    fn of(s: &Suggestion, config: &Config, attacker: Player) -> Option<PlannerLine> {
        let p = s.planner.as_ref()?;
        let record = |c: &Option<terminal_core::planner::Candidate>| c.as_ref().map(|c| c.record(config, attacker, 1));
        Some(PlannerLine {
            against: if s.against == Against::Both { "both" } else { "planner" },
            levels: p
                .levels
                .iter()
                .map(|l| LevelLine { mp: l.mp, before: record(&l.before), after: record(&l.after) })
                .collect(),
            damage_before: p.damage_sum(false),
            damage_after: p.damage_sum(true),
            researched: p.researched,
            reply_weight: s.reply_weight,
            recorded_hp_lost_before: s.hp_lost_before,
            recorded_hp_lost_after: s.hp_lost_after,
        })
    }
}

/// The last line of `--json`: `{"summary": {...}}`.
#[derive(serde::Serialize)]
struct SummaryLine<'a> {
    summary: Summary<'a>,
}

#[derive(serde::Serialize)]
struct Summary<'a> {
    layout: &'a str,
    seat: u8,
    ruleset: &'a str,
    replays: usize,
    replays_skipped: usize,
    /// Every total of the report, under its own name: a new one reaches the JSON unasked.
    #[serde(flatten)]
    totals: &'a Totals,
    worst: Vec<AttackName>,
    suggestion: Option<Vec<ChangeLine<'a>>>,
    /// With --against planner or both.
    planner: Option<PlannerLine>,
}

/// The one line of `--json` against the planner alone: `{"summary": {...}}`.
#[derive(serde::Serialize)]
struct PlannerSummaryLine<'a> {
    summary: PlannerSummary<'a>,
}

#[derive(serde::Serialize)]
struct PlannerSummary<'a> {
    layout: &'a str,
    seat: u8,
    ruleset: &'a str,
    suggestion: Vec<ChangeLine<'a>>,
    planner: Option<PlannerLine>,
}

fn print_planner_json(s: &Suggestion, c: &Context, config: &Config) -> Result<(), serde_json::Error> {
    let summary = PlannerSummary {
        layout: &c.layout.name,
        seat: c.seat.number(),
        ruleset: c.ruleset,
        suggestion: ChangeLine::of(s),
        planner: PlannerLine::of(s, config, c.seat.opponent()),
    };
    out!("{}", serde_json::to_string(&PlannerSummaryLine { summary })?);
    Ok(())
}

fn print_json(
    attacks: &[Attack],
    report: &StressReport,
    c: &Context,
    suggestion: Option<&Suggestion>,
    config: &Config,
) -> Result<(), serde_json::Error> {
    for (a, o) in attacks.iter().zip(&report.outcomes) {
        out!("{}", serde_json::to_string(&AttackLine::of(a, o))?);
    }
    let t = &report.totals;
    let worst = report
        .worst(10)
        .map(|i| AttackName {
            replay: attacks[i].file_name(),
            turn: attacks[i].turn,
            attacker: attacks[i].attacker.number(),
        })
        .collect();
    let planner = suggestion.and_then(|s| PlannerLine::of(s, config, c.seat.opponent()));
    let suggestion = suggestion.map(ChangeLine::of);
    let summary = Summary {
        layout: &c.layout.name,
        seat: c.seat.number(),
        ruleset: c.ruleset,
        replays: c.files,
        replays_skipped: c.skipped,
        totals: t,
        worst,
        suggestion,
        planner,
    };
    out!("{}", serde_json::to_string(&SummaryLine { summary })?);
    Ok(())
}
