//! The planner's question: a board at the start of a turn's action phase, the attacking
//! seat and its MP, and the defence as it stands after that turn's builds. Built from a
//! replay turn, an editor layout or a live game's state, and evaluated with the layout
//! lab's own machinery (`layout::stress::simulate_prepared`, `simulate_deploy` from a start
//! built once a board).

use super::PlanError;
use crate::engine::commands::Command;
use crate::engine::config::Config;
use crate::engine::game::Game;
use crate::engine::geometry::{Edge, Player, Tile};
use crate::engine::unit::Unit;
use crate::layout::Layout;
use crate::layout::stress::{
    Attack, AttackFilter, AttackOutcome, AttackTry, Defence, Detail, HpModel, PreparedStart, TurnSelect,
    attacks_of_replay_where, simulate_prepared,
};
use crate::layout::threat::MOBILE_TYPES;
use crate::replay::Replay;
use std::sync::{Arc, OnceLock};

/// A board to plan an attack on.
#[derive(Debug, Clone)]
pub struct PlanBoard {
    /// The attacker's side (its structures after its builds, its stats), the recorded
    /// deploy if any: the layout lab's prepared attack.
    attack: Attack,
    /// The defender's structures as they stand when the action phase starts.
    defence: Defence,
    /// The game every evaluation starts from, built at the first (a search runs thousands
    /// of deploys on one board). Behind an `Arc`: a board is kept in the studio's state,
    /// whose size its own would add to, and its clones share the start.
    start: Arc<OnceLock<PreparedStart>>,
}

impl PlanBoard {
    /// Turn `turn` of a recorded replay, `attacker` attacking: the defence is the
    /// defender's structures after that turn's builds, its mobile units of the turn are left
    /// out. The attacker has the MP the replay gives it. 2018–2019 replays are refused.
    pub fn from_replay(replay: &Replay, turn: i32, attacker: Player) -> Result<PlanBoard, PlanError> {
        if replay.legacy || replay.config.legacy {
            return Err(PlanError::LegacyRules);
        }
        let filter = AttackFilter { config: Arc::new(replay.config.clone()), any_ruleset: false };
        let select = TurnSelect { turn: Some(turn), attacker: Some(attacker), idle_too: true };
        let attack = attacks_of_replay_where(replay, &filter, &select).into_iter().next();
        match attack {
            Some(Ok(a)) => Ok(PlanBoard::from_attack(a)),
            Some(Err(e)) => Err(PlanError::Attack(e)),
            None => Err(PlanError::NoSuchTurn(turn)),
        }
    }

    /// A prepared attack of the layout lab, against its own recorded defence.
    pub fn from_attack(attack: Attack) -> PlanBoard {
        let defence = Defence::from_structures(attack.defender(), attack.recorded_defence());
        PlanBoard { attack, defence, start: Arc::default() }
    }

    /// A live game in its deploy phase (after the builds the caller applied); the
    /// defender's structures as they stand.
    pub fn from_game(game: &Game, attacker: Player, label: &str) -> PlanBoard {
        PlanBoard::from_attack(Attack::on_board(game, attacker, label))
    }

    /// An editor layout: both seats' structures as drawn (health fractions of the start
    /// health), the attacker holding `mp` MP.
    pub fn from_layout(layout: &Layout, config: &Arc<Config>, attacker: Player, mp: f32) -> PlanBoard {
        let mut game = Game::new(Arc::clone(config));
        for (&tile, s) in &layout.structures {
            let unit_type = s.kind.unit_type();
            let health = config.form(unit_type, s.upgraded).start_health * s.health.clamp(0.0, 1.0);
            let mut unit = Unit::new_structure(game.next_id, unit_type as u8, tile.owner_half(), tile, health);
            unit.upgraded = s.upgraded;
            if s.remove {
                unit.marked_turn = Some(game.turn);
            }
            game.next_id += 1;
            game.insert_unit(unit);
        }
        let label = if layout.name.is_empty() { "layout" } else { layout.name.as_str() };
        PlanBoard::from_game(&game, attacker, label).with_mp(mp)
    }

    /// The same attacker against `defence` (in the defender's seat): a changed base met by
    /// the same side, as the layout lab's suggestion weighs its candidates.
    pub fn with_defence(self, defence: Defence) -> PlanBoard {
        PlanBoard { defence, start: Arc::default(), ..self }
    }

    /// `deploy` against this board as a Debugger what-if (HP without limit, as the planner
    /// counts it): it starts from the game every evaluation starts from, so it ends as they do.
    pub fn what_if_try(&self, deploy: Vec<Command>, label: String) -> AttackTry {
        let mut attack_try = self.attack.what_if_try(&self.defence, HpModel::Unlimited);
        attack_try.spec.commands[self.attacker().index()] = Some(deploy);
        attack_try.label = label;
        attack_try
    }

    /// The same board with the attacker holding `mp` MP.
    pub fn with_mp(self, mp: f32) -> PlanBoard {
        PlanBoard { attack: self.attack.with_attacker_mp(mp.max(0.0)), start: Arc::default(), ..self }
    }

    pub fn attacker(&self) -> Player {
        self.attack.attacker
    }

    pub fn turn(&self) -> i32 {
        self.attack.turn
    }

    pub fn mp(&self) -> f32 {
        self.attack.attacker_mp()
    }

    pub fn config(&self) -> &Arc<Config> {
        self.attack.config()
    }

    /// The layout lab's attack under the hood (the recorded deploy, the what-if link).
    pub fn attack(&self) -> &Attack {
        &self.attack
    }

    /// The defence in the defender's seat.
    pub fn defence(&self) -> &Defence {
        &self.defence
    }

    /// The attacker's deploy tiles its own structures leave free, edge by edge.
    pub(crate) fn deploy_tiles(&self) -> Vec<Tile> {
        let edges = Edge::ALL.into_iter().filter(|e| e.owner() == self.attacker());
        edges.flat_map(|e| e.tiles()).filter(|&t| self.attack.attacker_tile_free(t)).collect()
    }

    /// The ruleset's mobile unit types with an MP price.
    pub(crate) fn mobile_types(&self) -> Vec<u8> {
        let config = self.config();
        let mobile = |t: &usize| config.units.get(*t).is_some_and(|u| !u.is_structure && u.cost_mp > 0.0);
        MOBILE_TYPES.into_iter().filter(mobile).map(|t| t as u8).collect()
    }

    /// The engine's outcome of `deploy` (the attacker's deploy line, true-board tiles)
    /// against the defence for the whole action phase, every breach counted (the game does
    /// not end mid-attack). `detail` adds tiles and each unit's walk. `scratch` is a game
    /// reused between calls on one thread.
    pub fn evaluate(&self, deploy: &[Command], detail: bool, scratch: &mut Option<Game>) -> AttackOutcome {
        let detail = if detail { Detail::Walks } else { Detail::Counts };
        let start = self.start.get_or_init(|| PreparedStart::new(&self.attack, &self.defence, HpModel::Unlimited));
        simulate_prepared(&self.attack, start, deploy, &self.defence, detail, scratch)
    }
}
