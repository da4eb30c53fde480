//! The what-if edited on the board: the structures at the start of a turn (from a replay's
//! turn frame or from an editor layout) as an editor [`Layout`], changed with the editor's
//! tools, plus mobile deploys of either player and their predicted paths. No UI here: the
//! viewer draws it and turns it into session requests.

use crate::app::model::Tool;
use std::sync::Arc;
use terminal_core::engine::frame::Stats;
use terminal_core::engine::geometry::{Edge, Player, Tile};
use terminal_core::engine::pathing::Pathfinder;
use terminal_core::engine::{Command, Config};
use terminal_core::layout::{EditOutcome, Kind, Layout};
use terminal_core::session::debug::{PathEnd, PlayedCommands};
use terminal_core::session::whatif::{PlacedStructure, StructureEdit};

/// What a click on the board does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BoardTool {
    /// The editor's structure tools (place, upgrade, erase).
    Structure(Tool),
    /// Deploy one mobile unit of this type (3–5) on an edge tile.
    Deploy(u8),
}

/// Why a click on the what-if's board did nothing, in a player's words.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Refusal {
    #[error("{}", crate::app::model::NO_UPGRADES)]
    NoUpgrades,
    #[error("That is off the board: click one of the diamond's tiles")]
    OffBoard,
    #[error("{},{} is on the other half: player {} builds on rows {}", tile.x, tile.y, player.number(), rows(*player))]
    NotYourHalf { tile: Tile, player: Player },
    #[error("{},{} is not an edge: player {}'s mobile units start on the two {} edges", tile.x, tile.y, player.number(), side(*player))]
    NotAnEdge { tile: Tile, player: Player },
    #[error("{},{} is taken: a structure stands there", tile.x, tile.y)]
    Occupied { tile: Tile },
    #[error("{},{}: no structure of yours to upgrade", tile.x, tile.y)]
    NothingToUpgrade { tile: Tile },
    #[error("{},{} is upgraded already", tile.x, tile.y)]
    AlreadyUpgraded { tile: Tile },
    #[error("{},{}: no structure of yours to remove", tile.x, tile.y)]
    NothingToRemove { tile: Tile },
}

fn rows(p: Player) -> &'static str {
    if p == Player::One { "0-13 (the bottom half)" } else { "14-27 (the top half)" }
}

fn side(p: Player) -> &'static str {
    if p == Player::One { "bottom" } else { "top" }
}

impl BoardTool {
    pub const ALL: [BoardTool; 8] = [
        BoardTool::Structure(Tool::Place(Kind::Wall)),
        BoardTool::Structure(Tool::Place(Kind::Support)),
        BoardTool::Structure(Tool::Place(Kind::Turret)),
        BoardTool::Structure(Tool::Upgrade),
        BoardTool::Structure(Tool::Erase),
        BoardTool::Deploy(3),
        BoardTool::Deploy(4),
        BoardTool::Deploy(5),
    ];

    /// The label in a ruleset's era (`Kind::label_for`).
    pub fn label_for(self, legacy: bool) -> &'static str {
        match (self, legacy) {
            (BoardTool::Structure(t), _) => t.label_for(legacy),
            (BoardTool::Deploy(3), false) => "Scout",
            (BoardTool::Deploy(4), false) => "Demolisher",
            (BoardTool::Deploy(_), false) => "Interceptor",
            (BoardTool::Deploy(3), true) => "Ping",
            (BoardTool::Deploy(4), true) => "EMP",
            (BoardTool::Deploy(_), true) => "Scrambler",
        }
    }

    /// The tools a ruleset has: no upgrades under the 2018–2019 rules.
    pub fn available(legacy: bool) -> impl Iterator<Item = BoardTool> {
        BoardTool::ALL.into_iter().filter(move |t| !(legacy && *t == BoardTool::Structure(Tool::Upgrade)))
    }
}

/// Where the start of the turn comes from.
#[derive(Clone, Debug)]
pub enum WhatIfBase {
    /// The turn frame of this turn of the open replay.
    ReplayTurn(i32),
    /// An editor layout, simulated as turn 0 with this ruleset.
    Layout(Arc<Config>),
}

/// A predicted path of one deploy.
#[derive(Clone, Debug, PartialEq)]
pub struct DeployPath {
    pub owner: Player,
    pub unit_type: u8,
    pub tiles: Vec<Tile>,
    pub end: PathEnd,
}

/// One thing the replay's player did this turn, as the what-if's board shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlayedMark {
    /// A new structure of this type (upgraded in the same turn or not).
    Structure { owner: Player, tile: Tile, kind: Kind, upgraded: bool },
    /// An upgrade of a structure that stood at the turn frame.
    Upgrade { owner: Player, tile: Tile },
    /// A removal mark.
    Removal { owner: Player, tile: Tile },
    /// `count` mobile units of this type deployed on a tile.
    Mobile { owner: Player, tile: Tile, unit_type: u8, count: u32 },
}

/// The what-if being edited on the board.
#[derive(Clone, Debug)]
pub struct BoardWhatIf {
    pub base: WhatIfBase,
    /// The structures at the start of the turn, as loaded.
    pub original: Layout,
    /// The structures as edited.
    pub layout: Layout,
    /// Per player, one (unit type, tile) per unit deployed.
    pub deploys: [Vec<(u8, Tile)>; 2],
    /// Per player: replace the replay's commands of the turn with `deploys`.
    pub replace_commands: [bool; 2],
    pub tool: BoardTool,
    pub player: Player,
    /// Under a 2018–2019 ruleset: era names, no upgrades.
    pub legacy: bool,
    /// A person's turn in a live match, for this seat: the edits are that player's commands
    /// of the turn (an erased structure is a removal mark), and the player is fixed.
    pub seat: Option<Player>,
    /// What the replay's players did this turn (empty for a layout), drawn under the edits.
    pub played: Arc<PlayedCommands>,
    /// The players' resources at the turn frame; `None` for a layout, which has no budget.
    pub resources: Option<[Stats; 2]>,
}

impl BoardWhatIf {
    pub fn new(base: WhatIfBase, layout: Layout) -> BoardWhatIf {
        BoardWhatIf {
            base,
            original: layout.clone(),
            layout,
            deploys: Default::default(),
            replace_commands: [false; 2],
            tool: BoardTool::Structure(Tool::Place(Kind::Wall)),
            player: Player::One,
            legacy: false,
            seat: None,
            played: Default::default(),
            resources: None,
        }
    }

    /// A what-if on a replay's turn: its turn frame's structures, resources and the commands
    /// the players gave that turn.
    pub fn on_replay_turn(
        turn: i32,
        layout: Layout,
        resources: [Stats; 2],
        played: Arc<PlayedCommands>,
    ) -> BoardWhatIf {
        BoardWhatIf { played, resources: Some(resources), ..BoardWhatIf::new(WhatIfBase::ReplayTurn(turn), layout) }
    }

    /// The player the tools act for.
    pub fn acting(&self) -> Player {
        self.seat.unwrap_or(self.player)
    }

    /// Whether the replay's commands of `p` are played in this what-if (not replaced).
    pub fn keeps_played(&self, p: Player) -> bool {
        self.commands(p).is_none()
    }

    /// A person's turn as `seat` from the turn frame's structures.
    pub fn for_seat(turn: i32, layout: Layout, seat: Player) -> BoardWhatIf {
        let mut w = BoardWhatIf::new(WhatIfBase::ReplayTurn(turn), layout);
        w.seat = Some(seat);
        w.player = seat;
        w
    }

    /// `p`'s turn as the engine takes it, in true-board coordinates: the build line (new
    /// structures, their upgrades, upgrades, removal marks) and the deploy line.
    pub fn turn_commands(&self, p: Player) -> (Vec<Command>, Vec<Command>) {
        use terminal_core::engine::CommandKind;
        let mut build = Vec::new();
        for e in self.structure_edits(p) {
            match e {
                StructureEdit::Add { tile, unit_type, upgraded } => {
                    build.push(Command::spawn(unit_type as usize, tile.x, tile.y));
                    if upgraded {
                        build.push(Command { kind: CommandKind::Upgrade, tile });
                    }
                }
                StructureEdit::Upgrade { tile } => build.push(Command { kind: CommandKind::Upgrade, tile }),
                StructureEdit::Remove { tile } => build.push(Command { kind: CommandKind::Remove, tile }),
            }
        }
        let deploy =
            self.deploys[p.index()].iter().map(|(t, tile)| Command::spawn(*t as usize, tile.x, tile.y)).collect();
        (build, deploy)
    }

    /// Applies the tool for the active player on a tile; `undo` takes one deploy back.
    pub fn click(&mut self, tile: Tile, undo: bool) -> Result<(), Refusal> {
        let p = self.acting();
        match self.tool {
            BoardTool::Structure(tool) => {
                // In a real turn the structures of the turn frame stand: they can only be
                // upgraded or marked for removal.
                if self.seat.is_some() && !undo {
                    self.refuse_in_a_real_turn(tool, tile, p)?;
                }
                let outcome = match tool {
                    Tool::Place(_) if undo => self.layout.erase(p, tile),
                    Tool::Place(k) => self.layout.place(p, tile, k),
                    Tool::Upgrade if self.legacy => return Err(Refusal::NoUpgrades),
                    Tool::Upgrade => self.layout.upgrade(p, tile),
                    Tool::Remove | Tool::Erase => self.layout.erase(p, tile),
                };
                if outcome == EditOutcome::NotYours {
                    return Err(Refusal::NotYourHalf { tile, player: p });
                }
                // A deploy on a tile that now holds a structure could not spawn.
                for d in &mut self.deploys {
                    d.retain(|(_, t)| !self.layout.structures.contains_key(t));
                }
                Ok(())
            }
            BoardTool::Deploy(unit_type) => {
                let list = &mut self.deploys[p.index()];
                if undo {
                    if let Some(i) = list.iter().rposition(|(_, t)| *t == tile) {
                        list.remove(i);
                    }
                    return Ok(());
                }
                if !Edge::ALL.iter().any(|e| e.owner() == p && e.contains(tile)) {
                    return Err(Refusal::NotAnEdge { tile, player: p });
                }
                if self.layout.structures.contains_key(&tile) {
                    return Err(Refusal::Occupied { tile });
                }
                list.push((unit_type, tile));
                self.replace_commands[p.index()] = true;
                Ok(())
            }
        }
    }

    /// What a turn the engine plays would refuse before the edit is made.
    fn refuse_in_a_real_turn(&self, tool: Tool, tile: Tile, p: Player) -> Result<(), Refusal> {
        if !p.owns(tile) {
            return Err(Refusal::NotYourHalf { tile, player: p });
        }
        let here = self.layout.get(tile);
        match tool {
            Tool::Place(_) if here.is_some() => Err(Refusal::Occupied { tile }),
            Tool::Upgrade if here.is_none() => Err(Refusal::NothingToUpgrade { tile }),
            Tool::Upgrade if here.is_some_and(|s| s.upgraded) => Err(Refusal::AlreadyUpgraded { tile }),
            Tool::Remove | Tool::Erase if here.is_none() => Err(Refusal::NothingToRemove { tile }),
            _ => Ok(()),
        }
    }

    /// The structure edits that turn the original structures of `p` into the edited ones.
    pub fn structure_edits(&self, p: Player) -> Vec<StructureEdit> {
        let mut out = Vec::new();
        for (tile, s) in self.original.of(p) {
            match self.layout.get(tile) {
                Some(now) if now.kind == s.kind => {
                    if now.upgraded && !s.upgraded {
                        out.push(StructureEdit::Upgrade { tile });
                    }
                }
                _ => out.push(StructureEdit::Remove { tile }),
            }
        }
        for (tile, s) in self.layout.of(p) {
            let same = self.original.get(tile).is_some_and(|o| o.kind == s.kind);
            if !same {
                out.push(StructureEdit::Add { tile, unit_type: s.kind.unit_type() as u8, upgraded: s.upgraded });
            }
        }
        out
    }

    /// The commands of `p` for the turn: `None` keeps what the replay did.
    pub fn commands(&self, p: Player) -> Option<Vec<Command>> {
        let replace = self.replace_commands[p.index()] || matches!(self.base, WhatIfBase::Layout(_));
        replace.then(|| {
            self.deploys[p.index()].iter().map(|(t, tile)| Command::spawn(*t as usize, tile.x, tile.y)).collect()
        })
    }

    /// A short label of the try this what-if makes, e.g. "P1: 1 edit, 2 deploys; P2 as played".
    pub fn describe(&self) -> String {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        let parts: Vec<String> = Player::both()
            .into_iter()
            .map(|p| {
                let edits = self.structure_edits(p).len();
                let mut changes = Vec::new();
                if edits > 0 {
                    changes.push(plural(edits, "edit"));
                }
                // A layout has no commands of its own: no deploys there is no change.
                let layout = matches!(self.base, WhatIfBase::Layout(_));
                if let Some(c) = self.commands(p).filter(|c| !c.is_empty() || !layout) {
                    changes.push(plural(c.len(), "deploy"));
                }
                match (changes.is_empty(), &self.base) {
                    (true, WhatIfBase::ReplayTurn(_)) => format!("P{} as played", p.number()),
                    (true, WhatIfBase::Layout(_)) => format!("P{} unchanged", p.number()),
                    (false, _) => format!("P{}: {}", p.number(), changes.join(", ")),
                }
            })
            .collect();
        let prefix = if matches!(self.base, WhatIfBase::Layout(_)) { "layout; " } else { "" };
        format!("{prefix}{}", parts.join("; "))
    }

    /// The edited structures of both players (to build a game from a layout).
    pub fn placed(&self) -> [Vec<PlacedStructure>; 2] {
        Player::both().map(|p| {
            self.layout
                .of(p)
                .map(|(tile, s)| PlacedStructure { tile, unit_type: s.kind.unit_type() as u8, upgraded: s.upgraded })
                .collect()
        })
    }

    /// Predicted paths of the deploys on the edited board (one per distinct tile and type).
    pub fn paths(&self) -> Vec<DeployPath> {
        let deploys = Player::both().into_iter().flat_map(|p| self.deploys[p.index()].iter().map(move |d| (p, *d)));
        self.paths_of(deploys)
    }

    /// Predicted paths, on the edited board, of the replay's deploys that the what-if keeps.
    pub fn played_paths(&self) -> Vec<DeployPath> {
        let deploys = self.played_marks().into_iter().filter_map(|m| match m {
            PlayedMark::Mobile { owner, tile, unit_type, .. } => Some((owner, (unit_type, tile))),
            _ => None,
        });
        self.paths_of(deploys)
    }

    fn paths_of(&self, deploys: impl Iterator<Item = (Player, (u8, Tile))>) -> Vec<DeployPath> {
        let mut finder = Pathfinder::new(self.layout.blockers());
        let mut out: Vec<DeployPath> = Vec::new();
        for (p, (unit_type, tile)) in deploys {
            if out.iter().any(|d| d.owner == p && d.tiles.first() == Some(&tile)) {
                continue;
            }
            let Some(tiles) = finder.deploy_path(tile) else { continue };
            let target = Edge::ALL.into_iter().find(|e| e.contains(tile)).map(|e| e.opposite());
            let breach = tiles.last().is_some_and(|t| target.is_some_and(|e| e.contains(*t)));
            let end = if breach { PathEnd::Breach } else { PathEnd::SelfDestruct };
            out.push(DeployPath { owner: p, unit_type, tiles, end });
        }
        out
    }

    /// What the replay's players did this turn, for the players whose commands the what-if
    /// keeps (a replaced player's commands are not played, so they are not shown).
    pub fn played_marks(&self) -> Vec<PlayedMark> {
        use terminal_core::engine::CommandKind;
        let mut marks: Vec<PlayedMark> = Vec::new();
        for owner in Player::both().into_iter().filter(|p| self.keeps_played(*p)) {
            let (build, deploy) = &self.played[owner.index()];
            for c in build.iter().chain(deploy) {
                let tile = c.tile;
                let mark = match c.kind {
                    CommandKind::Spawn(t) => match Kind::from_unit_type(t as usize) {
                        Some(kind) => PlayedMark::Structure { owner, tile, kind, upgraded: false },
                        None => PlayedMark::Mobile { owner, tile, unit_type: t, count: 1 },
                    },
                    CommandKind::Upgrade => PlayedMark::Upgrade { owner, tile },
                    CommandKind::Remove => PlayedMark::Removal { owner, tile },
                };
                // A structure upgraded in the turn it was placed is one upgraded structure; a
                // stack of units on one tile is one mark with its count.
                let merged = marks.iter_mut().rev().any(|m| match (m, mark) {
                    (PlayedMark::Structure { tile: t, upgraded, .. }, PlayedMark::Upgrade { .. }) if *t == tile => {
                        *upgraded = true;
                        true
                    }
                    (PlayedMark::Mobile { tile: t, unit_type, count, .. }, PlayedMark::Mobile { unit_type: u, .. })
                        if *t == tile && *unit_type == u =>
                    {
                        *count += 1;
                        true
                    }
                    _ => false,
                });
                if !merged {
                    marks.push(mark);
                }
            }
        }
        marks
    }

    /// How many structure edits and deploys the what-if holds (for the panel).
    pub fn change_count(&self) -> (usize, usize) {
        let edits = Player::both().iter().map(|p| self.structure_edits(*p).len()).sum();
        (edits, self.deploys.iter().map(Vec::len).sum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> BoardWhatIf {
        let mut l = Layout::default();
        l.place(Player::One, Tile::new(13, 10), Kind::Turret);
        l.place(Player::Two, Tile::new(13, 17), Kind::Wall);
        BoardWhatIf::new(WhatIfBase::ReplayTurn(3), l)
    }

    #[test]
    fn edits_are_the_difference_to_the_original() {
        let mut w = base();
        assert!(w.structure_edits(Player::One).is_empty());
        w.tool = BoardTool::Structure(Tool::Place(Kind::Wall));
        w.click(Tile::new(12, 10), false).expect("own half");
        w.tool = BoardTool::Structure(Tool::Upgrade);
        w.click(Tile::new(13, 10), false).expect("own half");
        assert_eq!(
            w.structure_edits(Player::One),
            vec![
                StructureEdit::Upgrade { tile: Tile::new(13, 10) },
                StructureEdit::Add { tile: Tile::new(12, 10), unit_type: 0, upgraded: false }
            ]
        );
        w.player = Player::Two;
        w.tool = BoardTool::Structure(Tool::Erase);
        w.click(Tile::new(13, 17), false).expect("own half");
        assert_eq!(w.structure_edits(Player::Two), vec![StructureEdit::Remove { tile: Tile::new(13, 17) }]);
        // Player 1 cannot build on player 2's half.
        w.player = Player::One;
        w.tool = BoardTool::Structure(Tool::Place(Kind::Wall));
        assert!(w.click(Tile::new(13, 17), false).is_err());
    }

    #[test]
    fn deploys_only_on_own_edges_and_have_paths() {
        let mut w = base();
        w.tool = BoardTool::Deploy(3);
        assert!(w.click(Tile::new(13, 10), false).is_err(), "not an edge");
        assert!(w.click(Tile::new(13, 27), false).is_err(), "player 2's edge");
        w.click(Tile::new(13, 0), false).expect("player 1's bottom-left edge");
        w.click(Tile::new(13, 0), false).expect("twice");
        assert_eq!(w.deploys[0].len(), 2);
        assert_eq!(w.commands(Player::One).map(|c| c.len()), Some(2));
        assert_eq!(w.commands(Player::Two), None, "player 2 keeps the replay's commands");
        let paths = w.paths();
        assert_eq!(paths.len(), 1, "one path per tile");
        assert_eq!(paths[0].tiles.first(), Some(&Tile::new(13, 0)));
        assert!(paths[0].tiles.len() > 10);
        w.click(Tile::new(13, 0), true).expect("undo");
        assert_eq!(w.deploys[0].len(), 1);
    }

    #[test]
    fn played_commands_are_marked_until_replaced() {
        use terminal_core::engine::CommandKind;
        let mut w = base();
        let build = vec![
            Command::spawn(2, 12, 10),
            Command { kind: CommandKind::Upgrade, tile: Tile::new(12, 10) },
            Command { kind: CommandKind::Remove, tile: Tile::new(13, 10) },
        ];
        let deploy = vec![Command::spawn(3, 13, 0), Command::spawn(3, 13, 0), Command::spawn(5, 14, 0)];
        let theirs = vec![Command { kind: CommandKind::Upgrade, tile: Tile::new(13, 17) }];
        w.played = Arc::new([(build, deploy), (theirs, Vec::new())]);
        let (one, two) = (Player::One, Player::Two);
        let all = vec![
            PlayedMark::Structure { owner: one, tile: Tile::new(12, 10), kind: Kind::Turret, upgraded: true },
            PlayedMark::Removal { owner: one, tile: Tile::new(13, 10) },
            PlayedMark::Mobile { owner: one, tile: Tile::new(13, 0), unit_type: 3, count: 2 },
            PlayedMark::Mobile { owner: one, tile: Tile::new(14, 0), unit_type: 5, count: 1 },
            PlayedMark::Upgrade { owner: two, tile: Tile::new(13, 17) },
        ];
        assert_eq!(w.played_marks(), all);
        w.replace_commands[0] = true;
        assert_eq!(w.played_marks(), all[4..].to_vec(), "player 1's commands are replaced");
    }
}
