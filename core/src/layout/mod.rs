//! The layout model: structures on the board, independent of any UI.
//!
//! The JSON format is versioned and documented in `layouts/README.md`. Coordinates are always
//! absolute board coordinates (player 1's view: player 1 owns rows 0–13, player 2 rows 14–27).

pub mod analysis;
pub mod files;
pub mod stress;
pub mod threat;

use crate::engine::config::{Config, SUPPORT, TURRET, WALL};
use crate::engine::geometry::{Player, Tile, all_tiles};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The file format identifier written into every layout file.
pub(crate) const FORMAT: &str = "terminal-studio-layout";
/// The current format version.
pub(crate) const VERSION: u32 = 1;

/// A structure type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Wall,
    Support,
    Turret,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Wall, Kind::Support, Kind::Turret];

    /// The unit type index in configs and replays.
    pub fn unit_type(self) -> usize {
        match self {
            Kind::Wall => WALL,
            Kind::Support => SUPPORT,
            Kind::Turret => TURRET,
        }
    }

    pub fn from_unit_type(t: usize) -> Option<Kind> {
        match t {
            WALL => Some(Kind::Wall),
            SUPPORT => Some(Kind::Support),
            TURRET => Some(Kind::Turret),
            _ => None,
        }
    }

    pub fn label(self) -> &'static str {
        self.label_for(false)
    }

    /// The name in a ruleset's era: the 2018–2019 rules had Filters, Encryptors, Destructors.
    pub fn label_for(self, legacy: bool) -> &'static str {
        match (self, legacy) {
            (Kind::Wall, false) => "Wall",
            (Kind::Support, false) => "Support",
            (Kind::Turret, false) => "Turret",
            (Kind::Wall, true) => "Filter",
            (Kind::Support, true) => "Encryptor",
            (Kind::Turret, true) => "Destructor",
        }
    }

    /// The name of the constant in the Python starter kit.
    pub(crate) fn python_name(self) -> &'static str {
        match self {
            Kind::Wall => "WALL",
            Kind::Support => "SUPPORT",
            Kind::Turret => "TURRET",
        }
    }
}

/// One structure on the board.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Structure {
    pub kind: Kind,
    #[serde(default)]
    pub upgraded: bool,
    /// Marked for removal (refunded at the end of the turn in the game).
    #[serde(default)]
    pub remove: bool,
    /// Health as a fraction of the start health (1 for a fresh structure; replays may import
    /// damaged ones).
    #[serde(default = "full_health", skip_serializing_if = "is_full")]
    pub health: f32,
}

fn full_health() -> f32 {
    1.0
}

fn is_full(h: &f32) -> bool {
    *h >= 1.0
}

impl Structure {
    pub fn new(kind: Kind) -> Structure {
        Structure { kind, upgraded: false, remove: false, health: 1.0 }
    }
}

/// A base layout: structures by tile. The owner of a structure is the half its tile is on.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Layout {
    pub name: String,
    /// The ruleset the layout was designed for (a preset slug or a config path), if recorded.
    pub config: Option<String>,
    pub structures: BTreeMap<Tile, Structure>,
}

/// What is wrong with a layout file's text.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LayoutError {
    /// Not JSON of the layout shape; the message names the line and column.
    #[error("not a layout file: {0}")]
    NotALayout(String),
    #[error("unknown format `{0}` (expected `{FORMAT}`)")]
    UnknownFormat(String),
    #[error("layout version {0} is not supported (this build reads up to {VERSION})")]
    UnsupportedVersion(u32),
    #[error("player {}: structure at {tile} is not on that player's half of the board", player.number())]
    WrongHalf { player: Player, tile: Tile },
    #[error("structure at {tile}: health {health} is not between 0 and 1")]
    BadHealth { tile: Tile, health: f32 },
    #[error("two structures at {0}")]
    TwoStructures(Tile),
    #[error("the layout cannot be written as JSON: {0}")]
    Unwritable(String),
}

#[derive(Serialize, Deserialize)]
struct FileStructure {
    #[serde(rename = "type")]
    kind: Kind,
    x: i32,
    y: i32,
    #[serde(default)]
    upgraded: bool,
    #[serde(default)]
    remove: bool,
    #[serde(default = "full_health", skip_serializing_if = "is_full")]
    health: f32,
}

#[derive(Serialize, Deserialize, Default)]
struct FilePlayer {
    structures: Vec<FileStructure>,
}

#[derive(Serialize, Deserialize)]
struct LayoutFile {
    format: String,
    version: u32,
    #[serde(default)]
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    config: Option<String>,
    players: [FilePlayer; 2],
}

/// What an edit did, for the status bar and to know whether to record an undo step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditOutcome {
    Changed,
    Unchanged,
    /// The tile is off the board or on the other player's half.
    NotYours,
}

impl Layout {
    pub fn get(&self, t: Tile) -> Option<&Structure> {
        self.structures.get(&t)
    }

    pub fn len(&self) -> usize {
        self.structures.len()
    }

    pub fn is_empty(&self) -> bool {
        self.structures.is_empty()
    }

    /// Structures of one player.
    pub fn of(&self, player: Player) -> impl Iterator<Item = (Tile, &Structure)> {
        self.structures.iter().filter(move |(t, _)| player.owns(**t)).map(|(t, s)| (*t, s))
    }

    /// Places a fresh structure of `kind` on `tile` for `player` (replacing another kind).
    pub fn place(&mut self, player: Player, tile: Tile, kind: Kind) -> EditOutcome {
        if !player.owns(tile) {
            return EditOutcome::NotYours;
        }
        match self.structures.get(&tile) {
            Some(s) if s.kind == kind => EditOutcome::Unchanged,
            _ => {
                self.structures.insert(tile, Structure::new(kind));
                EditOutcome::Changed
            }
        }
    }

    /// Upgrades the structure on `tile` (placing is a separate edit).
    pub fn upgrade(&mut self, player: Player, tile: Tile) -> EditOutcome {
        if !player.owns(tile) {
            return EditOutcome::NotYours;
        }
        match self.structures.get_mut(&tile) {
            Some(s) if !s.upgraded => {
                s.upgraded = true;
                EditOutcome::Changed
            }
            _ => EditOutcome::Unchanged,
        }
    }

    /// Toggles the removal mark of the structure on `tile`.
    pub fn toggle_remove(&mut self, player: Player, tile: Tile) -> EditOutcome {
        if !player.owns(tile) {
            return EditOutcome::NotYours;
        }
        match self.structures.get_mut(&tile) {
            Some(s) => {
                s.remove = !s.remove;
                EditOutcome::Changed
            }
            None => EditOutcome::Unchanged,
        }
    }

    /// Sets the removal mark (used when painting marks along a drag).
    pub fn set_remove(&mut self, player: Player, tile: Tile, remove: bool) -> EditOutcome {
        if !player.owns(tile) {
            return EditOutcome::NotYours;
        }
        match self.structures.get_mut(&tile) {
            Some(s) if s.remove != remove => {
                s.remove = remove;
                EditOutcome::Changed
            }
            _ => EditOutcome::Unchanged,
        }
    }

    /// Erases the structure on `tile`.
    pub fn erase(&mut self, player: Player, tile: Tile) -> EditOutcome {
        if !player.owns(tile) {
            return EditOutcome::NotYours;
        }
        if self.structures.remove(&tile).is_some() { EditOutcome::Changed } else { EditOutcome::Unchanged }
    }

    /// Mirrors one player's structures left/right (x → 27 − x).
    pub fn mirror_x(&mut self, player: Player) -> EditOutcome {
        let mine: Vec<(Tile, Structure)> = self.of(player).map(|(t, s)| (t, *s)).collect();
        for (t, _) in &mine {
            self.structures.remove(t);
        }
        for (t, s) in &mine {
            self.structures.insert(t.mirrored_x(), *s);
        }
        if mine
            .iter()
            .all(|(t, s)| self.structures.get(&t.mirrored_x()) == Some(s) && self.structures.get(t) == Some(s))
        {
            EditOutcome::Unchanged
        } else {
            EditOutcome::Changed
        }
    }

    /// Replaces the opponent's structures with `player`'s, rotated 180° (the layout the same
    /// algo would build when it plays on the other side).
    pub fn copy_to_opponent(&mut self, player: Player) -> EditOutcome {
        let before = self.structures.clone();
        let other = player.opponent();
        self.structures.retain(|t, _| !other.owns(*t));
        let mine: Vec<(Tile, Structure)> = self.of(player).map(|(t, s)| (t, *s)).collect();
        for (t, s) in mine {
            self.structures.insert(t.rotated(), s);
        }
        if before == self.structures { EditOutcome::Unchanged } else { EditOutcome::Changed }
    }

    /// Removes every structure of one player.
    pub fn clear(&mut self, player: Player) -> EditOutcome {
        let n = self.structures.len();
        self.structures.retain(|t, _| !player.owns(*t));
        if n == self.structures.len() { EditOutcome::Unchanged } else { EditOutcome::Changed }
    }

    /// Live tallies for one player under `config`.
    pub fn tally(&self, player: Player, config: &Config) -> Tally {
        let mut t = Tally::default();
        for (_, s) in self.of(player) {
            let ut = s.kind.unit_type();
            let invested = config.invested_sp(ut, s.upgraded);
            t.sp_spent += invested;
            let i = s.kind as usize;
            t.count[i] += 1;
            if s.upgraded {
                t.upgraded[i] += 1;
            }
            if s.remove {
                t.marked += 1;
                let form = config.form(ut, s.upgraded);
                t.removal_refund += form.refund_percentage * invested * s.health.clamp(0.0, 1.0);
            }
        }
        t
    }

    /// Serializes to the documented JSON format (pretty-printed).
    /// The layout as its JSON file. A structure whose health is not a number has no JSON form:
    /// an error, never an empty or unreadable file.
    pub fn to_json(&self) -> Result<String, LayoutError> {
        if let Some((tile, s)) = self.structures.iter().find(|(_, s)| !s.health.is_finite()) {
            return Err(LayoutError::BadHealth { tile: *tile, health: s.health });
        }
        let mut players: [FilePlayer; 2] = Default::default();
        for (t, s) in &self.structures {
            players[t.owner_half().index()].structures.push(FileStructure {
                kind: s.kind,
                x: t.x,
                y: t.y,
                upgraded: s.upgraded,
                remove: s.remove,
                health: s.health,
            });
        }
        let file = LayoutFile {
            format: FORMAT.into(),
            version: VERSION,
            name: self.name.clone(),
            config: self.config.clone(),
            players,
        };
        let mut text = serde_json::to_string_pretty(&file).map_err(|e| LayoutError::Unwritable(e.to_string()))?;
        text.push('\n');
        Ok(text)
    }

    /// Parses the JSON format, validating every structure (on the board, on its owner's half,
    /// no two on one tile).
    pub(crate) fn from_json(text: &str) -> Result<Layout, LayoutError> {
        let file: LayoutFile = serde_json::from_str(text).map_err(|e| LayoutError::NotALayout(e.to_string()))?;
        if file.format != FORMAT {
            return Err(LayoutError::UnknownFormat(file.format));
        }
        if file.version == 0 || file.version > VERSION {
            return Err(LayoutError::UnsupportedVersion(file.version));
        }
        let mut layout = Layout { name: file.name, config: file.config, structures: BTreeMap::new() };
        for (i, p) in file.players.iter().enumerate() {
            let player = if i == 0 { Player::One } else { Player::Two };
            for s in &p.structures {
                let t = Tile::new(s.x, s.y);
                if !player.owns(t) {
                    return Err(LayoutError::WrongHalf { player, tile: t });
                }
                if !(0.0..=1.0).contains(&s.health) {
                    return Err(LayoutError::BadHealth { tile: t, health: s.health });
                }
                let st = Structure { kind: s.kind, upgraded: s.upgraded, remove: s.remove, health: s.health };
                if layout.structures.insert(t, st).is_some() {
                    return Err(LayoutError::TwoStructures(t));
                }
            }
        }
        Ok(layout)
    }

    /// A Python snippet for starter-kit algos: coordinate lists per type, in the given player's
    /// own view (player 2's tiles are rotated so the snippet works for the algo playing them).
    pub fn to_python(&self, player: Player) -> String {
        let view = |t: Tile| {
            if player == Player::Two { t.rotated() } else { t }
        };
        let list = |f: &dyn Fn(&Structure) -> bool| -> Vec<Tile> {
            let mut v: Vec<Tile> = self.of(player).filter(|(_, s)| f(s)).map(|(t, _)| view(t)).collect();
            v.sort_by_key(|t| (t.y, t.x));
            v
        };
        let fmt = |v: &[Tile]| -> String {
            let items: Vec<String> = v.iter().map(|t| format!("[{}, {}]", t.x, t.y)).collect();
            format!("[{}]", items.join(", "))
        };
        let name = if self.name.is_empty() { "layout" } else { self.name.as_str() };
        let mut out = format!("# {name}: player {}'s structures, exported by Terminal Studio.\n", player.number());
        out.push_str("# Coordinates are in this player's own view, ready for game_state.attempt_spawn.\n");
        for kind in Kind::ALL {
            let var = kind.python_name().to_lowercase();
            out.push_str(&format!("{var}s = {}\n", fmt(&list(&|s| s.kind == kind))));
        }
        for kind in Kind::ALL {
            let var = kind.python_name().to_lowercase();
            out.push_str(&format!("{var}_upgrades = {}\n", fmt(&list(&|s| s.kind == kind && s.upgraded))));
        }
        out.push_str(&format!("removals = {}\n", fmt(&list(&|s| s.remove))));
        out.push_str("\n\ndef build_layout(game_state):\n");
        for kind in Kind::ALL {
            let var = kind.python_name().to_lowercase();
            out.push_str(&format!("    game_state.attempt_spawn({}, {var}s)\n", kind.python_name()));
        }
        for kind in Kind::ALL {
            let var = kind.python_name().to_lowercase();
            out.push_str(&format!("    game_state.attempt_upgrade({var}_upgrades)\n"));
        }
        out.push_str("    game_state.attempt_remove(removals)\n");
        out
    }

    /// Imports the structures standing at one frame of a replay (health as a fraction).
    pub fn from_frame(frame: &crate::engine::frame::Frame, config: &Config, name: String) -> Layout {
        use crate::engine::config::{REMOVE, UPGRADE};
        let mut layout = Layout { name, config: None, structures: BTreeMap::new() };
        for (p, lists) in frame.units.iter().enumerate().take(2) {
            let upgraded: std::collections::HashSet<u32> =
                lists.get(UPGRADE).map(|l| l.iter().map(|u| u.id).collect()).unwrap_or_default();
            let removing: std::collections::HashSet<u32> =
                lists.get(REMOVE).map(|l| l.iter().map(|u| u.id).collect()).unwrap_or_default();
            let player = if p == 0 { Player::One } else { Player::Two };
            for kind in Kind::ALL {
                let Some(list) = lists.get(kind.unit_type()) else {
                    continue;
                };
                for u in list {
                    if !player.owns(u.tile) {
                        continue;
                    }
                    let up = upgraded.contains(&u.id);
                    let start = config.form(kind.unit_type(), up).start_health;
                    let health = if start > 0.0 { (u.health / start).clamp(0.0, 1.0) } else { 1.0 };
                    layout
                        .structures
                        .insert(u.tile, Structure { kind, upgraded: up, remove: removing.contains(&u.id), health });
                }
            }
        }
        layout
    }

    /// Every tile that holds a structure (blocks mobile units).
    pub fn blockers(&self) -> crate::engine::pathing::Blockers {
        let mut b = crate::engine::pathing::Blockers::default();
        for t in self.structures.keys() {
            b.set(*t, true);
        }
        b
    }

    /// Sanity check used by tests: every structure on its owner's half.
    pub fn is_valid(&self) -> bool {
        let on_board: std::collections::HashSet<Tile> = all_tiles().collect();
        self.structures.keys().all(|t| on_board.contains(t))
    }
}

/// Per-player tallies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Structure points invested (base prices plus upgrade prices).
    pub sp_spent: f32,
    /// Count per kind (index = `Kind as usize`).
    pub count: [u32; 3],
    /// Upgraded count per kind.
    pub upgraded: [u32; 3],
    /// Structures marked for removal.
    pub marked: u32,
    /// What removing the marked structures would refund.
    pub removal_refund: f32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::presets::preset;

    fn sample() -> Layout {
        let mut l = Layout { name: "sample".into(), ..Layout::default() };
        l.place(Player::One, Tile::new(3, 12), Kind::Turret);
        l.place(Player::One, Tile::new(4, 12), Kind::Wall);
        l.place(Player::One, Tile::new(13, 5), Kind::Support);
        l.upgrade(Player::One, Tile::new(3, 12));
        l.toggle_remove(Player::One, Tile::new(4, 12));
        l.place(Player::Two, Tile::new(10, 20), Kind::Wall);
        l
    }

    #[test]
    fn json_round_trip() {
        let l = sample();
        let text = l.to_json().expect("a layout of finite healths serialises");
        assert!(text.contains("\"format\": \"terminal-studio-layout\""));
        let back = Layout::from_json(&text).expect("parses");
        assert_eq!(back, l);
    }

    #[test]
    fn rejects_bad_files() {
        assert!(Layout::from_json("{}").is_err());
        assert!(Layout::from_json("not json").is_err());
        let wrong_half = r#"{"format":"terminal-studio-layout","version":1,"players":[{"structures":[{"type":"wall","x":10,"y":20}]},{"structures":[]}]}"#;
        assert!(Layout::from_json(wrong_half).is_err());
        let future =
            r#"{"format":"terminal-studio-layout","version":99,"players":[{"structures":[]},{"structures":[]}]}"#;
        assert!(Layout::from_json(future).is_err());
        let twice = r#"{"format":"terminal-studio-layout","version":1,"players":[{"structures":[{"type":"wall","x":13,"y":0},{"type":"turret","x":13,"y":0}]},{"structures":[]}]}"#;
        assert!(Layout::from_json(twice).is_err());
    }

    #[test]
    fn placement_respects_halves() {
        let mut l = Layout::default();
        assert_eq!(l.place(Player::One, Tile::new(10, 20), Kind::Wall), EditOutcome::NotYours);
        assert_eq!(l.place(Player::One, Tile::new(0, 0), Kind::Wall), EditOutcome::NotYours, "off the diamond");
        assert_eq!(l.place(Player::One, Tile::new(13, 0), Kind::Wall), EditOutcome::Changed);
        assert_eq!(l.place(Player::One, Tile::new(13, 0), Kind::Wall), EditOutcome::Unchanged);
        assert_eq!(l.place(Player::One, Tile::new(13, 0), Kind::Turret), EditOutcome::Changed);
        assert_eq!(l.erase(Player::One, Tile::new(13, 0)), EditOutcome::Changed);
        assert!(l.is_empty());
    }

    #[test]
    fn mirror_and_copy() {
        let mut l = sample();
        l.mirror_x(Player::One);
        assert_eq!(l.get(Tile::new(24, 12)).map(|s| s.kind), Some(Kind::Turret));
        assert!(l.get(Tile::new(3, 12)).is_none());
        assert_eq!(l.get(Tile::new(10, 20)).map(|s| s.kind), Some(Kind::Wall), "the other player is untouched");
        l.mirror_x(Player::One);
        assert_eq!(l, sample(), "mirroring twice is the identity");

        l.copy_to_opponent(Player::One);
        assert!(l.get(Tile::new(10, 20)).is_none(), "the opponent's old structures are replaced");
        assert_eq!(l.get(Tile::new(24, 15)).map(|s| (s.kind, s.upgraded)), Some((Kind::Turret, true)));
        assert_eq!(l.of(Player::Two).count(), 3);
        assert!(l.is_valid());
    }

    #[test]
    fn tallies_use_the_config() {
        let c = preset("base-s6").expect("preset");
        let l = sample();
        let t = l.tally(Player::One, &c);
        let turret = c.invested_sp(TURRET, true);
        let wall = c.invested_sp(WALL, false);
        let support = c.invested_sp(SUPPORT, false);
        assert_eq!(t.sp_spent, turret + wall + support);
        assert_eq!(t.count, [1, 1, 1]);
        assert_eq!(t.upgraded, [0, 0, 1]);
        assert_eq!(t.marked, 1);
        assert_eq!(t.removal_refund, c.unit(WALL).refund_percentage * wall);
        let t2 = l.tally(Player::Two, &c);
        assert_eq!(t2.count, [1, 0, 0]);
    }

    #[test]
    fn python_snippet_lists_coordinates() {
        let l = sample();
        let py = l.to_python(Player::One);
        assert!(py.contains("turrets = [[3, 12]]"), "{py}");
        assert!(py.contains("turret_upgrades = [[3, 12]]"), "{py}");
        assert!(py.contains("removals = [[4, 12]]"), "{py}");
        assert!(py.contains("game_state.attempt_spawn(WALL, walls)"));
        // Player 2's tiles are given in its own (rotated) view.
        let py2 = l.to_python(Player::Two);
        assert!(py2.contains("walls = [[17, 7]]"), "{py2}");
    }
}
