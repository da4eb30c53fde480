//! Distinct options: the search's candidates folded into rows of different attacks. Deploys
//! whose units walk the same tiles of the defender's half (by unit type) to the same outcome
//! (HP damage, breaches, the structures destroyed) are one row, shown by its best deploy; the
//! turn's recorded deploy is a row of its own, ranked among them (docs/planner.md, Distinct
//! options).

use super::candidate::{Candidate, CandidateRecord, Group, mp_cost};
use super::{Plan, PlanBoard, PlanError};
use crate::engine::commands::{Command, CommandKind};
use crate::engine::config::Config;
use crate::engine::geometry::{Edge, Player, Tile};
use crate::layout::stress::{AttackOutcome, TileSet, collect_slots};
use crate::parallel::parallel_map;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::AtomicBool;

/// Candidates walked per batch while looking for rows (walks are worked out for these only).
const BATCH: usize = 128;

/// What makes two deploys one attack: the tiles of the defender's half their units walk, by
/// unit type, and what they did.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Likeness {
    /// The tiles of the defender's half walked, by mobile type (type order).
    pub paths: Vec<(u8, TileSet)>,
    /// HP damage, bit for bit.
    damage: u32,
    pub breaches: u32,
    /// Where the structures destroyed stood, in tile order.
    pub destroyed: Vec<Tile>,
}

impl Likeness {
    /// The likeness of an outcome worked out with its walks (`Detail::Walks`), the attacker
    /// `attacker` (tiles as the board has them).
    pub fn of(outcome: &AttackOutcome, attacker: Player) -> Likeness {
        let defender = attacker.opponent();
        let mut paths: BTreeMap<u8, TileSet> = BTreeMap::new();
        for track in &outcome.unit_paths {
            let set = paths.entry(track.unit_type).or_default();
            for &t in track.tiles.iter().filter(|t| t.owner_half() == defender) {
                set.insert(t);
            }
        }
        let mut destroyed = outcome.lost_tiles.clone();
        destroyed.sort_unstable();
        Likeness {
            paths: paths.into_iter().collect(),
            damage: outcome.hp_lost.to_bits(),
            breaches: outcome.breaches,
            destroyed,
        }
    }
}

/// One row of the list: an attack, the deploys that make it, and what it does.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackOption {
    /// The row's best deploy (the first of its deploys in the search's order).
    pub best: Candidate,
    /// The row's other deploys, in the search's order (among the candidates looked at).
    pub alike: Vec<Candidate>,
    /// The turn's recorded deploy: a row of its own, whatever it is like.
    pub recorded: bool,
    pub likeness: Likeness,
}

impl AttackOption {
    /// Every deploy of the row, best first.
    pub fn deploys(&self) -> impl Iterator<Item = &Candidate> {
        std::iter::once(&self.best).chain(&self.alike)
    }

    /// HP damage per MP spent (0 for a deploy that spends nothing).
    pub fn damage_per_mp(&self) -> f32 {
        self.best.damage_per_mp()
    }

    /// The row's deploys as one phrase: `unit` names a mobile type, `view` maps a board tile
    /// to the view shown, `groups` writes one deploy's groups. When the best deploy is one
    /// group and alike deploys send that type alone from other tiles, it reads "14 × PI from
    /// any of 7 tiles of the left edge"; other alike deploys are counted after it ("… and 3
    /// more alike deploys").
    pub fn describe(
        &self,
        unit: &dyn Fn(u8) -> String,
        view: &dyn Fn(Tile) -> Tile,
        groups: &dyn Fn(&Candidate) -> String,
    ) -> String {
        let (head, rest) = match self.single_lane_spread() {
            Some((unit_type, counts, tiles, others)) if tiles.len() > 1 => {
                let count = match counts {
                    (a, b) if a == b => a.to_string(),
                    (a, b) => format!("{a}–{b}"),
                };
                let edges: BTreeSet<&str> = tiles.iter().filter_map(|&t| edge_name(view(t))).collect();
                let edges: Vec<&str> = edges.into_iter().collect();
                let edges = match edges.as_slice() {
                    [one] => format!("the {one} edge"),
                    _ => format!("the {} edges", edges.join(" and ")),
                };
                (format!("{count} × {} from any of {} tiles of {edges}", unit(unit_type), tiles.len()), others)
            }
            _ => (groups(&self.best), self.alike.len()),
        };
        match rest {
            0 => head,
            1 if head.contains("any of") => format!("{head}, and 1 more alike deploy"),
            n if head.contains("any of") => format!("{head}, and {n} more alike deploys"),
            1 => format!("{head} (and 1 alike deploy)"),
            n => format!("{head} (and {n} alike deploys)"),
        }
    }

    /// When the best deploy is one group: its type, the least and most units and the deploy
    /// tiles of the row's deploys that are one group of that type, and how many others.
    fn single_lane_spread(&self) -> Option<Spread> {
        let [first] = self.best.groups.as_slice() else { return None };
        let mut counts = (u32::MAX, 0);
        let mut tiles = BTreeSet::new();
        let mut others = 0;
        for c in self.deploys() {
            match c.groups.as_slice() {
                [g] if g.unit_type == first.unit_type => {
                    counts = (counts.0.min(g.count), counts.1.max(g.count));
                    tiles.insert(g.tile);
                }
                _ => others += 1,
            }
        }
        Some((first.unit_type, counts, tiles, others))
    }

    /// The deploy tiles of the row's deploys, in tile order.
    pub fn start_tiles(&self) -> BTreeSet<Tile> {
        self.deploys().flat_map(|c| c.groups.iter().map(|g| g.tile)).collect()
    }
}

/// A row's one-group deploys of its best deploy's type: the type, the least and most units,
/// their deploy tiles; and how many of the row's deploys are otherwise.
type Spread = (u8, (u32, u32), BTreeSet<Tile>, usize);

/// "left" and "right" for the edges at the bottom of the view (an attacker's own edges in
/// its own view), "top-left" and "top-right" for the others.
fn edge_name(t: Tile) -> Option<&'static str> {
    Some(match Edge::ALL.into_iter().find(|e| e.contains(t))? {
        Edge::BottomLeft => "left",
        Edge::BottomRight => "right",
        Edge::TopLeft => "top-left",
        Edge::TopRight => "top-right",
    })
}

/// The `rows` best distinct attacks of `plan`, best first, and the board's recorded deploy
/// (if it has one the MP covers) as a row of its own, placed by its rank among them (last if
/// it ranks below all of them; after the rows it ties). The candidates are walked in the search's order, a batch at
/// a time on `jobs` threads, until `rows` rows are found; a row's alike deploys are those of
/// the candidates walked.
pub fn options(
    board: &PlanBoard,
    plan: &Plan,
    rows: usize,
    jobs: usize,
    cancel: &AtomicBool,
) -> Result<Vec<AttackOption>, PlanError> {
    let mut out: Vec<AttackOption> = Vec::new();
    let mut row_of: HashMap<Likeness, usize> = HashMap::new();
    let mut next = 0;
    while out.len() < rows && next < plan.candidates.len() {
        let batch = &plan.candidates[next..(next + BATCH).min(plan.candidates.len())];
        next += batch.len();
        let slots = parallel_map(batch.len(), jobs.max(1), cancel, &|_, _| {}, |k, scratch| {
            Likeness::of(&board.evaluate(&batch[k].deploy(), true, scratch), board.attacker())
        });
        for (c, likeness) in batch.iter().zip(collect_slots(slots, cancel)?) {
            match row_of.get(&likeness) {
                Some(&row) => out[row].alike.push(c.clone()),
                None => {
                    row_of.insert(likeness.clone(), out.len());
                    out.push(AttackOption { best: c.clone(), alike: Vec::new(), recorded: false, likeness });
                }
            }
        }
    }
    out.truncate(rows);
    if let Some(recorded) = recorded_option(board) {
        // After the rows it ties on the objective: the searched rows keep their places.
        let at = out.iter().position(|r| recorded.best.objective(&r.best).is_lt()).unwrap_or(out.len());
        out.insert(at, recorded);
    }
    Ok(out)
}

/// The board's recorded deploy as a row: its groups in the recorded order (runs of one type
/// on one tile), its outcome under the planner's model. None if there is none, or if the MP
/// given does not cover it.
pub fn recorded_option(board: &PlanBoard) -> Option<AttackOption> {
    let groups = groups_of_line(board.attack().recorded_deploy());
    if groups.is_empty() {
        return None;
    }
    let cost = mp_cost(board.config(), &groups, board.mp())?;
    let outcome = board.evaluate(&super::candidate::deploy_line(&groups), true, &mut None);
    let likeness = Likeness::of(&outcome, board.attacker());
    Some(AttackOption { best: Candidate::new(groups, cost, &outcome), alike: Vec::new(), recorded: true, likeness })
}

/// A deploy line as groups, in its order: each run of spawns of one type on one tile.
fn groups_of_line(line: &[Command]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for c in line {
        let CommandKind::Spawn(unit_type) = c.kind else { continue };
        match groups.last_mut() {
            Some(g) if g.unit_type == unit_type && g.tile == c.tile => g.count += 1,
            _ => groups.push(Group { unit_type, tile: c.tile, count: 1 }),
        }
    }
    groups
}

/// One row for output: its best deploy's record (`rank` is the row's place in the list),
/// and the row's spread, in the view the record was made for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OptionRecord {
    #[serde(flatten)]
    pub best: CandidateRecord,
    /// The turn's recorded deploy.
    pub recorded: bool,
    /// The row's other deploys (same walks, same outcome).
    pub alike: usize,
    /// The deploy tiles of the row's deploys, `[x, y]`.
    pub start_tiles: Vec<(i32, i32)>,
    /// The row in words: "14 × PI from any of 7 tiles of the left edge".
    pub summary: String,
}

impl AttackOption {
    /// The row for output, its tiles in `attacker`'s own view (player 2's rotated).
    pub fn record(&self, config: &Config, attacker: Player, rank: usize) -> OptionRecord {
        self.record_in_view(config, attacker == Player::Two, rank)
    }

    /// The row for output, its tiles rotated 180° or as they are on the board.
    pub fn record_in_view(&self, config: &Config, rotate: bool, rank: usize) -> OptionRecord {
        let view = |t: Tile| if rotate { t.rotated() } else { t };
        let unit = |t: u8| config.units.get(t as usize).map(|u| u.shorthand.clone()).unwrap_or_default();
        let groups = |c: &Candidate| c.record_in_view(config, rotate, rank).groups_text();
        let start_tiles = self.start_tiles().into_iter().map(|t| (view(t).x, view(t).y)).collect();
        OptionRecord {
            best: self.best.record_in_view(config, rotate, rank),
            recorded: self.recorded,
            alike: self.alike.len(),
            start_tiles,
            summary: self.describe(&unit, &view, &groups),
        }
    }
}
