//! Recorded attacks: one turn of one real replay in which a player deployed mobile units,
//! prepared once (the replay parsed, the attacker's side rebuilt) so that any number of
//! layouts can then be run against it cheaply.

use crate::engine::commands::{Command, CommandKind};
use crate::engine::config::Config;
use crate::engine::frame::Phase;
use crate::engine::game::{Game, PlayerState};
use crate::engine::geometry::{Player, Tile};
use crate::engine::unit::Unit;
use crate::layout::Layout;
use crate::replay::{Replay, ReplayError};
use crate::verify::rebuild::{RebuildError, TurnInputs, game_at_turn_frame, is_early_2020, running_max_ids};
use crate::verify::ruleset_name;
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod bytes;
pub use bytes::{attacks_from_bytes, attacks_to_bytes};

/// One structure of the side under test, in absolute board coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DefenceStructure {
    pub tile: Tile,
    pub unit_type: u8,
    pub upgraded: bool,
    /// Marked for removal: it still stands through the action phase.
    pub remove: bool,
    /// Absolute health (not a fraction).
    pub health: f32,
}

/// What the replay itself shows of the turn: the yardstick of the faithfulness test.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RecordedOutcome {
    pub breaches: u32,
    pub hp_lost: f32,
    /// The defender deployed mobile units of its own that turn (left out of the attack).
    pub defender_deployed: bool,
}

/// One recorded attack, ready to run against layouts.
#[derive(Clone)]
pub struct Attack {
    /// Shared by every attack of the replay.
    pub replay: Arc<Path>,
    pub turn: i32,
    pub attacker: Player,
    /// The replay's ruleset (`verify::ruleset_name`), shared by every attack of the replay.
    pub ruleset: Arc<str>,
    pub recorded: RecordedOutcome,
    /// The defender's own structures at the start of the action phase (after that turn's
    /// builds; marked ones still stand), in id order: the replay's side as a layout.
    recorded_defence: Vec<PackedStructure>,
    /// Mobile units the attacker deployed.
    pub spawned: u32,
    pub(crate) config: Arc<Config>,
    /// The attacker's structures after its build line and its stats, no defender unit.
    pub(crate) side: AttackerSide,
    pub(crate) deploy: Vec<Command>,
    /// Both players' HP at the start of the action phase as recorded (time penalties paid).
    pub(crate) recorded_hp: [f32; 2],
}

/// The attacker's side at the start of the action phase, before its deploy line, kept
/// compactly (a set holds tens of thousands of attacks; a whole `Game` each would hold its
/// tile table and full units): what `super::start_game` rebuilds a game from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AttackerSide {
    pub turn: i32,
    pub frames_sent: i64,
    pub action_frames_sent: i64,
    pub early_2020: bool,
    pub next_id: u32,
    /// Both players' state (names dropped: the simulation never reads them).
    pub players: [PlayerState; 2],
    pub structures: Vec<PackedStructure>,
}

/// A structure as an attack keeps it: 16 bytes with every field a structure can carry into
/// an action phase (structures are never shielded and never move, so their health is their
/// base health).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PackedStructure {
    id: u32,
    /// `Tile::index`.
    tile: u16,
    unit_type: u8,
    upgraded: bool,
    /// The turn a removal mark was placed; `NO_MARK` when none.
    marked_turn: i32,
    health: f32,
}

const NO_MARK: i32 = i32::MIN;

impl PackedStructure {
    fn of(u: &Unit) -> PackedStructure {
        debug_assert!(u.is_structure && u.shields.is_empty() && u.health == u.base_health);
        PackedStructure {
            id: u.id,
            tile: u.tile.index() as u16,
            unit_type: u.unit_type,
            upgraded: u.upgraded,
            marked_turn: u.marked_turn.unwrap_or(NO_MARK),
            health: u.health,
        }
    }

    fn tile(&self) -> Tile {
        Tile::from_index(self.tile as usize)
    }

    fn marked_turn(&self) -> Option<i32> {
        (self.marked_turn != NO_MARK).then_some(self.marked_turn)
    }

    fn to_unit(self, owner: Player) -> Unit {
        let mut u = Unit::new_structure(self.id, self.unit_type, owner, self.tile(), self.health);
        u.upgraded = self.upgraded;
        u.marked_turn = self.marked_turn();
        u
    }
}

impl AttackerSide {
    fn of(game: &Game, attacker: Player) -> AttackerSide {
        let structures = game.units.iter().filter(|u| u.owner == attacker).map(PackedStructure::of).collect();
        let players = game.players.clone().map(|p| PlayerState { name: String::new(), ..p });
        AttackerSide {
            turn: game.turn,
            frames_sent: game.frames_sent,
            action_frames_sent: game.action_frames_sent,
            early_2020: game.early_2020,
            next_id: game.next_id,
            players,
            structures,
        }
    }

    /// Loads this side into `game` (emptied first; its buffers are kept), for `attacker`.
    pub(crate) fn load_into(&self, game: &mut Game, config: &Arc<Config>, attacker: Player) {
        game.assign_from(&Game::new(Arc::clone(config)));
        game.turn = self.turn;
        game.frames_sent = self.frames_sent;
        game.action_frames_sent = self.action_frames_sent;
        game.early_2020 = self.early_2020;
        game.next_id = self.next_id;
        game.players.clone_from(&self.players);
        for s in &self.structures {
            game.insert_unit(s.to_unit(attacker));
        }
    }
}

impl std::fmt::Debug for Attack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Attack")
            .field("replay", &self.replay)
            .field("turn", &self.turn)
            .field("attacker", &self.attacker)
            .field("spawned", &self.spawned)
            .finish_non_exhaustive()
    }
}

impl Attack {
    pub fn defender(&self) -> Player {
        self.attacker.opponent()
    }

    pub fn config(&self) -> &Arc<Config> {
        &self.config
    }

    pub fn file_name(&self) -> String {
        self.replay.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    }

    /// The replay's file name without `.replay` / `.replay.gz`, as lists show it.
    pub fn stem(&self) -> String {
        self.file_name().trim_end_matches(".gz").trim_end_matches(".replay").to_string()
    }

    /// The replay's own defence as a layout (the defender's seat as recorded).
    pub fn recorded_layout(&self) -> Layout {
        let mut layout = Layout { name: format!("{} turn {}", self.file_name(), self.turn), ..Layout::default() };
        for s in &self.recorded_defence {
            let Some(kind) = crate::layout::Kind::from_unit_type(s.unit_type as usize) else { continue };
            let start = self.config.form(s.unit_type as usize, s.upgraded).start_health;
            let health = if start > 0.0 { (s.health / start).clamp(0.0, 1.0) } else { 1.0 };
            let remove = s.marked_turn().is_some();
            layout.structures.insert(s.tile(), crate::layout::Structure { kind, upgraded: s.upgraded, remove, health });
        }
        layout
    }

    /// The defender's structures as recorded at the start of the action phase, in id order.
    pub(crate) fn recorded_defence(&self) -> Vec<DefenceStructure> {
        self.recorded_defence
            .iter()
            .map(|s| DefenceStructure {
                tile: s.tile(),
                unit_type: s.unit_type,
                upgraded: s.upgraded,
                remove: s.marked_turn().is_some(),
                health: s.health,
            })
            .collect()
    }

    /// Approximate heap and inline bytes this attack holds (what a set of thousands costs).
    pub fn approx_bytes(&self) -> usize {
        use std::mem::size_of;
        size_of::<Attack>()
            + self.recorded_defence.capacity() * size_of::<PackedStructure>()
            + self.side.structures.capacity() * size_of::<PackedStructure>()
            + self.deploy.capacity() * size_of::<Command>()
    }

    /// An attack on a board no replay recorded (an editor layout, a live game's state):
    /// `game` in its deploy phase, the attacker's structures and stats taken from it, the
    /// defender's structures as the recorded defence (in id order), no deploy yet. Mobile
    /// units already on the board are left out. `label` names the board in reports.
    pub(crate) fn on_board(game: &Game, attacker: Player, label: &str) -> Attack {
        let defender = attacker.opponent();
        let recorded_defence =
            game.units.iter().filter(|u| u.is_structure && u.owner == defender).map(PackedStructure::of).collect();
        Attack {
            replay: Arc::from(Path::new(label)),
            turn: game.turn,
            attacker,
            ruleset: Arc::from(ruleset_name(&game.config)),
            recorded: RecordedOutcome::default(),
            recorded_defence,
            spawned: 0,
            config: Arc::clone(&game.config),
            side: AttackerSide::of(game, attacker),
            deploy: Vec::new(),
            recorded_hp: [game.players[0].stats.hp, game.players[1].stats.hp],
        }
    }

    /// The attacker's deploy line as recorded (empty for a board no replay recorded).
    pub fn recorded_deploy(&self) -> &[Command] {
        &self.deploy
    }

    /// `player`'s HP when the action phase began, as recorded.
    pub fn recorded_hp(&self, player: Player) -> f32 {
        self.recorded_hp[player.index()]
    }

    /// The attacker's MP at the start of the action phase, before its deploy.
    pub(crate) fn attacker_mp(&self) -> f32 {
        self.side.players[self.attacker.index()].stats.mp
    }

    /// The same attack with the attacker holding `mp` MP (the planner's "what if it had").
    pub(crate) fn with_attacker_mp(mut self, mp: f32) -> Attack {
        self.side.players[self.attacker.index()].stats.mp = mp;
        self
    }

    /// The same attack with `deploy` as its deploy line (the planner's strongest reply, met
    /// as a fixed attack by the suggestion's screening).
    pub(crate) fn with_deploy(mut self, deploy: Vec<Command>) -> Attack {
        self.spawned = deploy.len() as u32;
        self.deploy = deploy;
        self
    }

    /// True when the attacker's own structures leave `tile` free (a deploy tile).
    pub(crate) fn attacker_tile_free(&self, tile: Tile) -> bool {
        !self.side.structures.iter().any(|s| s.tile() == tile)
    }

    /// The tiles of the defender's structures in the order the replay built them (upgrades
    /// count as a new build): with `recorded_layout`, the recorded defence exactly.
    pub fn recorded_build_order(&self) -> Vec<Tile> {
        self.recorded_defence.iter().map(PackedStructure::tile).collect()
    }
}

/// Which replays give attacks.
#[derive(Debug, Clone)]
pub struct AttackFilter {
    /// The layout's ruleset: replays of another are skipped unless `any_ruleset`.
    pub config: Arc<Config>,
    /// Also run attacks recorded under other current-format rulesets, under `config` (the
    /// attacker's recorded spawns are kept; its resources are topped up to afford them).
    pub any_ruleset: bool,
}

/// Why attacks could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AttackError {
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("{}: turn {turn}: {source}", file.display())]
    Rebuild { file: PathBuf, turn: i32, source: RebuildError },
    #[error("{}: turn {turn}: player {player}'s recorded {line} line is rejected by the engine ({count} entries)", file.display())]
    Rejected { file: PathBuf, turn: i32, player: u8, line: &'static str, count: usize },
    #[error("cancelled")]
    Cancelled,
}

fn is_mobile(config: &Config, c: &Command) -> bool {
    matches!(c.kind, CommandKind::Spawn(t) if config.units.get(t as usize).is_some_and(|u| !u.is_structure))
}

/// The attacks of one replay (both players), each checked to rebuild as recorded; a turn
/// that cannot be rebuilt is an error of its own, the other turns still count.
pub fn attacks_of_replay(replay: &Replay, filter: &AttackFilter) -> Vec<Result<Attack, AttackError>> {
    attacks_of_replay_where(replay, filter, &TurnSelect::default())
}

/// Which turns of a replay `attacks_of_replay_where` prepares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TurnSelect {
    /// Only this turn (`None`: every turn).
    pub turn: Option<i32>,
    /// Only this attacker (`None`: both players).
    pub attacker: Option<Player>,
    /// Also the turns in which the player deployed nothing: an attack with an empty
    /// recorded deploy, the board as it stands (what the attack planner asks about).
    pub idle_too: bool,
}

/// As `attacks_of_replay`, for the turns and players `select` names.
pub fn attacks_of_replay_where(
    replay: &Replay,
    filter: &AttackFilter,
    select: &TurnSelect,
) -> Vec<Result<Attack, AttackError>> {
    let file: Arc<Path> = Arc::from(replay.source.as_path());
    let recorded_config = Arc::new(replay.config.clone());
    let same_rules = replay.config.units == filter.config.units && replay.config.resources == filter.config.resources;
    let run_config = if same_rules { Arc::clone(&recorded_config) } else { Arc::clone(&filter.config) };
    let ruleset: Arc<str> = Arc::from(ruleset_name(&replay.config));
    let ids = running_max_ids(&replay.frames);
    let early_2020 = is_early_2020(replay, &recorded_config, &ids);
    let mut out = Vec::new();
    for start in replay.turn_starts() {
        let turn = replay.frames[start].turn_info.turn;
        if select.turn.is_some_and(|t| t != turn) {
            continue;
        }
        let (game, mut inputs) = match game_at_turn_frame(replay, &recorded_config, start, &ids, None) {
            Ok(g) => g,
            Err(source) => {
                out.push(Err(AttackError::Rebuild { file: file.to_path_buf(), turn, source }));
                continue;
            }
        };
        inputs.early_2020 |= early_2020;
        let deployed = Player::both().map(|p| inputs.lines[p.index()].1.iter().any(|c| is_mobile(&recorded_config, c)));
        for attacker in Player::both() {
            let chosen = select.attacker.is_none_or(|a| a == attacker);
            if !chosen || !(deployed[attacker.index()] || select.idle_too) {
                continue;
            }
            let defender = attacker.opponent();
            let recorded = RecordedOutcome {
                defender_deployed: deployed[defender.index()],
                ..recorded_outcome(replay, start, attacker)
            };
            let (side, deploy, recorded_hp, recorded_defence) =
                match prepare(&game, &inputs, attacker, &run_config, same_rules) {
                    Ok(p) => p,
                    Err((line, count)) => {
                        let player = attacker.number();
                        out.push(Err(AttackError::Rejected { file: file.to_path_buf(), turn, player, line, count }));
                        continue;
                    }
                };
            let spawned = deploy.iter().filter(|c| is_mobile(&run_config, c)).count() as u32;
            out.push(Ok(Attack {
                replay: file.clone(),
                turn,
                attacker,
                ruleset: ruleset.clone(),
                recorded,
                recorded_defence,
                spawned,
                config: Arc::clone(&run_config),
                side,
                deploy,
                recorded_hp,
            }));
        }
    }
    out
}

type Prepared = (AttackerSide, Vec<Command>, [f32; 2], Vec<PackedStructure>);

/// The attacker's side at the start of the action phase, and the defender's as recorded.
/// Errs with the line and count of rejected entries.
fn prepare(
    turn_game: &Game,
    inputs: &TurnInputs,
    attacker: Player,
    run_config: &Arc<Config>,
    same_rules: bool,
) -> Result<Prepared, (&'static str, usize)> {
    let a = attacker.index();
    let defender = attacker.opponent();
    // The whole turn as recorded (both players' commands, time charges): the defender's
    // structures as they stand when the action phase starts, and both HPs then.
    let mut full = turn_game.clone();
    inputs.apply(&mut full);
    let recorded_hp = [full.players[0].stats.hp, full.players[1].stats.hp];
    let recorded_defence =
        full.units.iter().filter(|u| u.is_structure && u.owner == defender).map(PackedStructure::of).collect();

    // The attacker alone: its structures and stats, then its build line.
    let mut template = Game::new(Arc::clone(run_config));
    template.turn = turn_game.turn;
    template.frames_sent = turn_game.frames_sent;
    template.action_frames_sent = turn_game.action_frames_sent;
    template.players = turn_game.players.clone();
    template.early_2020 = inputs.early_2020;
    template.next_id = turn_game.next_id;
    for u in turn_game.units.iter().filter(|u| u.owner == attacker) {
        let mut u = u.clone();
        if !same_rules {
            // Another ruleset's structure keeps its tile and type, with this ruleset's health.
            u.base_health = run_config.form(u.unit_type as usize, u.upgraded).start_health;
            u.refresh_health();
        }
        template.insert_unit(u);
    }
    let (build, deploy) = &inputs.lines[a];
    if !same_rules {
        let s = &mut template.players[a].stats;
        s.sp = s.sp.max(1.0e6);
        s.mp = s.mp.max(1.0e6);
    }
    let rejected = template.apply_line(attacker, build);
    if !rejected.is_empty() {
        return Err(("build", rejected.len()));
    }
    template.events.clear();
    let mut check = template.clone();
    let rejected = check.apply_line(attacker, deploy);
    if !rejected.is_empty() {
        return Err(("deploy", rejected.len()));
    }
    Ok((AttackerSide::of(&template, attacker), deploy.clone(), recorded_hp, recorded_defence))
}

/// The breaches the attacker scored in the replay's action phase of the turn at `start`.
fn recorded_outcome(replay: &Replay, start: usize, attacker: Player) -> RecordedOutcome {
    let mut r = RecordedOutcome::default();
    for f in replay.frames[start + 1..].iter().take_while(|f| f.turn_info.phase == Phase::Action) {
        for b in f.events.breach.iter().filter(|b| b.owner == attacker) {
            r.breaches += 1;
            r.hp_lost += b.damage;
        }
    }
    r
}
