//! `terminal-studio attack`: where and what to send against the base in front of a player,
//! on a replay's turn or an editor layout (the attack planner, docs/planner.md).

use super::{CliError, Outcome};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use terminal_core::engine::geometry::Player;
use terminal_core::engine::presets::{DEFAULT_PRESET, load_config};
use terminal_core::layout::files::load_layout;
use terminal_core::planner::{
    AttackOption, Candidate, FrontierPoint, Plan, PlanBoard, PlanRequest, frontier, frontier_levels, frontier_request,
    options, plan,
};
use terminal_core::replay::read_replay;
use terminal_core::verify::ruleset_name;

#[derive(clap::Args, Debug)]
pub struct AttackArgs {
    /// A replay (.replay, .replay.gz) or a layout (.json) file.
    pub file: PathBuf,
    /// The replay's turn: the board at the start of its action phase, after its builds.
    #[arg(long)]
    pub turn: Option<i32>,
    /// The attacking seat (for a layout, default: the seat facing the only side that has
    /// structures).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub seat: Option<u8>,
    /// The attacker's MP (default for a replay: what it had that turn; required for a layout).
    #[arg(long, value_name = "MP")]
    pub mp: Option<f32>,
    /// How many of the best distinct attacks to list (deploys whose units walk the same
    /// paths to the same outcome are one row).
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// List every deploy, alike ones too, rather than one row per distinct attack.
    #[arg(long)]
    pub every: bool,
    /// The cost to break the base: the best attack at each MP level, every 1 MP from the
    /// cheapest unit to the turn's MP (a layout: to --mp, default 40).
    #[arg(long)]
    pub frontier: bool,
    /// Groups per deploy at most (1 = single groups only).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub groups: u8,
    /// A layout's ruleset, a preset name or a game-configs.json file (default: the one the
    /// layout file names, else base-s6).
    #[arg(long)]
    pub config: Option<String>,
    /// One JSON object per row, best first.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// A layout's frontier goes up to this MP unless --mp says otherwise.
const LAYOUT_FRONTIER_MP: f32 = 40.0;

/// Done when the search ran (whether or not any deploy does damage).
pub fn run(args: &AttackArgs) -> Result<Outcome, CliError> {
    let (board, label) = board_of(args)?;
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let request = PlanRequest { max_groups: usize::from(args.groups), jobs, ..PlanRequest::default() };
    let started = Instant::now();
    let cancel = AtomicBool::new(false);
    let plan_error = |source| CliError::Plan { path: args.file.clone(), source };
    if args.frontier {
        let levels = frontier_levels(&board, board.mp());
        let points = frontier(&board, &levels, &frontier_request(jobs), &|_, _| {}, &cancel).map_err(plan_error)?;
        let secs = started.elapsed().as_secs_f64();
        print_frontier(&board, &label, &points, args.json, secs, jobs)?;
        return Ok(Outcome::Done);
    }
    let result = plan(&board, &request, &|_| {}, &cancel).map_err(plan_error)?;
    let config = board.config();
    if args.every {
        let secs = started.elapsed().as_secs_f64();
        if args.json {
            for (k, c) in result.top(args.top).iter().enumerate() {
                out!("{}", serde_json::to_string(&c.record(config, board.attacker(), k + 1))?);
            }
        } else {
            print_every(&board, &label, &result, args.top, secs, jobs);
        }
        return Ok(Outcome::Done);
    }
    let rows = options(&board, &result, args.top, jobs, &cancel).map_err(plan_error)?;
    let secs = started.elapsed().as_secs_f64();
    if args.json {
        for (k, row) in rows.iter().enumerate() {
            out!("{}", serde_json::to_string(&row.record(config, board.attacker(), k + 1))?);
        }
    } else {
        print_header(&board, &label, &result, secs, jobs);
        print_rows(&board, &result, &rows, args.top);
    }
    Ok(Outcome::Done)
}

/// The board the command line names, and a label for it.
fn board_of(args: &AttackArgs) -> Result<(PlanBoard, String), CliError> {
    let name = args.file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if name.to_ascii_lowercase().ends_with(".json") {
        return layout_board(args, &args.file, name);
    }
    let turn = args.turn.ok_or(CliError::Usage("a replay needs --turn T (and --seat S)"))?;
    let seat = args.seat.ok_or(CliError::Usage("a replay needs --seat S, the attacking player (1 or 2)"))?;
    let attacker = if seat == 2 { Player::Two } else { Player::One };
    let replay = read_replay(&args.file)?;
    let board = PlanBoard::from_replay(&replay, turn, attacker)
        .map_err(|source| CliError::Plan { path: args.file.clone(), source })?;
    let board = match args.mp {
        Some(mp) => board.with_mp(mp),
        None => board,
    };
    Ok((board, format!("{name} turn {turn}")))
}

fn layout_board(args: &AttackArgs, path: &Path, name: String) -> Result<(PlanBoard, String), CliError> {
    let mp = match (args.mp, args.frontier) {
        (Some(mp), _) => mp,
        (None, true) => LAYOUT_FRONTIER_MP,
        (None, false) => return Err(CliError::Usage("a layout needs --mp X, the attacker's MP")),
    };
    let layout = load_layout(path)?;
    let spec = args.config.clone().or_else(|| layout.config.clone()).unwrap_or_else(|| DEFAULT_PRESET.to_string());
    let config = Arc::new(load_config(&spec)?);
    if config.legacy {
        return Err(CliError::Usage("the planner runs current-format rulesets only, not 2018–2019 ones"));
    }
    let attacker = match args.seat {
        Some(2) => Player::Two,
        Some(_) => Player::One,
        None => {
            let has = |p| layout.of(p).count() > 0;
            match (has(Player::One), has(Player::Two)) {
                (true, false) => Player::Two,
                (false, true) => Player::One,
                _ => return Err(CliError::Usage("both seats of the layout have structures: say --seat S")),
            }
        }
    };
    Ok((PlanBoard::from_layout(&layout, &config, attacker, mp), name))
}

/// `3 × PI (13,0) + 5 × DF (14,0)` in the attacker's own view.
fn deploy_text(board: &PlanBoard, c: &Candidate) -> String {
    c.record(board.config(), board.attacker(), 0).groups_text()
}

fn print_header(board: &PlanBoard, label: &str, result: &Plan, secs: f64, jobs: usize) {
    let [singles, pairs, triples] = result.evaluated;
    out!(
        "{label}: player {} attacking with {} MP ({}), tiles in its own view",
        board.attacker().number(),
        board.mp(),
        ruleset_name(board.config())
    );
    out!(
        "{} deploys run ({singles} single groups, {pairs} pairs, {triples} triples) in {secs:.2} s on {jobs} threads",
        singles + pairs + triples
    );
}

/// The distinct attacks, the recorded deploy among them.
fn print_rows(board: &PlanBoard, result: &Plan, rows: &[AttackOption], top: usize) {
    if result.candidates.is_empty() {
        out!("no deploy: the MP buys no mobile unit");
    }
    if rows.is_empty() {
        return;
    }
    out!("distinct attacks (deploys whose units walk the same paths to the same outcome are one row):");
    out!(
        "{:>4} {:>6} {:>8} {:>9} {:>6} {:>5} {:>6}  deploy",
        "rank",
        "damage",
        "breaches",
        "destroyed",
        "SP",
        "MP",
        "HP/MP"
    );
    let searched = rows.iter().filter(|r| !r.recorded).count();
    for (k, row) in rows.iter().enumerate() {
        let record = row.record(board.config(), board.attacker(), k + 1);
        let c = &row.best;
        let last = k.checked_sub(1).and_then(|i| rows.get(i));
        let worse = last.is_some_and(|l| row.best.objective(&l.best).is_gt());
        let below = row.recorded && k == searched && searched >= top && worse;
        let rank = if below { format!(">{searched}") } else { (k + 1).to_string() };
        let what = if row.recorded {
            let same = rows.iter().position(|r| !r.recorded && r.likeness == row.likeness);
            let same = same.map(|i| format!(" (alike: row {})", i + 1)).unwrap_or_default();
            format!("recorded: {}{same}", record.best.groups_text())
        } else {
            record.summary
        };
        out!(
            "{rank:>4} {:>6} {:>8} {:>9} {:>6.1} {:>5} {:>6.2}  {what}",
            c.damage,
            c.breaches,
            c.structures_destroyed,
            c.sp_destroyed,
            c.mp_spent,
            c.damage_per_mp(),
        );
    }
}

/// Every deploy, alike ones too (`--every`).
fn print_every(board: &PlanBoard, label: &str, result: &Plan, top: usize, secs: f64, jobs: usize) {
    print_header(board, label, result, secs, jobs);
    let recorded = board.attack().recorded_deploy();
    if !recorded.is_empty() {
        let o = board.evaluate(recorded, false, &mut None);
        out!(
            "recorded deploy ({} units): {} HP damage, {} structures destroyed ({:.1} SP)",
            o.attackers_spawned,
            o.hp_lost,
            o.structures_lost,
            o.sp_lost
        );
    }
    if result.candidates.is_empty() {
        out!("no deploy: the MP buys no mobile unit");
        return;
    }
    out!("{:>4} {:>6} {:>8} {:>9} {:>6} {:>5}  deploy", "rank", "damage", "breaches", "destroyed", "SP", "MP");
    for (k, c) in result.top(top).iter().enumerate() {
        out!("{:>4} {}", k + 1, candidate_line(board, c));
    }
}

/// A candidate's figures and deploy, after its first column.
fn candidate_line(board: &PlanBoard, c: &Candidate) -> String {
    format!(
        "{:>6} {:>8} {:>9} {:>6.1} {:>5}  {}",
        c.damage,
        c.breaches,
        c.structures_destroyed,
        c.sp_destroyed,
        c.mp_spent,
        deploy_text(board, c)
    )
}

/// The frontier: one line (or JSON object) per MP level.
fn print_frontier(
    board: &PlanBoard,
    label: &str,
    points: &[FrontierPoint],
    json: bool,
    secs: f64,
    jobs: usize,
) -> Result<(), CliError> {
    let config = board.config();
    if json {
        for p in points {
            out!("{}", serde_json::to_string(&p.record(config, board.attacker()))?);
        }
        return Ok(());
    }
    out!(
        "{label}: the cost to break the base, player {} attacking ({}), tiles in its own view",
        board.attacker().number(),
        ruleset_name(config)
    );
    out!("{} MP levels searched in {secs:.2} s on {jobs} threads (the best at a level or below)", points.len());
    out!("{:>5} {:>6} {:>8} {:>9} {:>6} {:>5}  deploy", "MP", "damage", "breaches", "destroyed", "SP", "spent");
    for p in points {
        match &p.best {
            Some(c) => out!("{:>5} {}", p.mp, candidate_line(board, c)),
            None => out!("{:>5}  no mobile unit affordable", p.mp),
        }
    }
    Ok(())
}
