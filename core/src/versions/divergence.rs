//! Where two games against one opponent part: against a ghost or the same algo from the same
//! seed, two versions play one game up to the first turn one of them does something else.
//! The frames are compared as the board and the scores show them (units, events, HP, SP,
//! MP, the winner), never the compute times, which differ in every run.

use crate::engine::frame::Frame;
use crate::engine::geometry::Player;
use crate::replay::Replay;
use serde::Serialize;

/// The first frame two games differ in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Divergence {
    pub turn: i32,
    /// The action frame within the turn (frames of the turn counted from 0).
    pub action_frame: i32,
    /// The frame's index in both replays.
    pub frame_index: usize,
}

/// What a command did on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Build,
    Upgrade,
    Remove,
    Deploy,
}

/// One command a player issued in a turn, as the replay's spawn events show it (mobile
/// units deployed together on one tile are one command with a count).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IssuedCommand {
    pub action: Action,
    /// The unit built or deployed (none for upgrades and removals).
    pub unit: Option<&'static str>,
    /// The tile, in the replay's coordinates (player 1's view).
    pub x: i32,
    pub y: i32,
    pub count: u32,
}

impl std::fmt::Display for IssuedCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = format!("[{},{}]", self.x, self.y);
        match (self.action, self.unit) {
            (Action::Deploy, Some(u)) => write!(f, "deploy {} {u} {at}", self.count),
            (Action::Build, Some(u)) => write!(f, "build {u} {at}"),
            (Action::Upgrade, _) => write!(f, "upgrade {at}"),
            (Action::Remove, _) => write!(f, "remove {at}"),
            (_, None) => write!(f, "{:?} {at}", self.action),
        }
    }
}

/// Why two versions' games against one opponent differ: the first turn they part at and what
/// each version did in that turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameDivergence {
    pub turn: i32,
    pub action_frame: i32,
    pub base_commands: Vec<IssuedCommand>,
    pub new_commands: Vec<IssuedCommand>,
    /// The opponent's commands differ too that turn (an algo answering what it saw).
    pub opponent_differs: bool,
}

/// The frames as compared: everything but the compute times.
fn same_frame(a: &Frame, b: &Frame) -> bool {
    let stats = |f: &Frame| f.stats.map(|s| (s.hp, s.sp, s.mp));
    let winner = |f: &Frame| f.end_stats.as_ref().map(|e| e.winner);
    a.turn_info.turn == b.turn_info.turn
        && a.turn_info.action_frame == b.turn_info.action_frame
        && stats(a) == stats(b)
        && a.units == b.units
        && a.events == b.events
        && winner(a) == winner(b)
}

/// The first frame at which two games differ (one ending before the other differs at the
/// first frame it lacks); `None` when they are the same game.
pub fn first_divergence(a: &Replay, b: &Replay) -> Option<Divergence> {
    let common = a.frames.len().min(b.frames.len());
    let index = (0..common)
        .find(|&i| !same_frame(&a.frames[i], &b.frames[i]))
        .or_else(|| (a.frames.len() != b.frames.len()).then_some(common))?;
    let frame = a.frames.get(index).or_else(|| b.frames.get(index))?;
    Some(Divergence { turn: frame.turn_info.turn, action_frame: frame.turn_info.action_frame, frame_index: index })
}

/// The commands `player` issued in `turn`, from the spawn events of that turn's frames.
pub fn commands_in_turn(replay: &Replay, turn: i32, player: Player) -> Vec<IssuedCommand> {
    let mut out: Vec<IssuedCommand> = Vec::new();
    let spawns = replay.frames.iter().filter(|f| f.turn_info.turn == turn).flat_map(|f| &f.events.spawn);
    for s in spawns.filter(|s| s.owner == player) {
        let t = usize::from(s.unit_type);
        let (action, unit) = match t {
            crate::engine::config::REMOVE => (Action::Remove, None),
            crate::engine::config::UPGRADE => (Action::Upgrade, None),
            0..=2 => (Action::Build, Some(crate::engine::config::unit_name(t, replay.legacy))),
            _ => (Action::Deploy, Some(crate::engine::config::unit_name(t, replay.legacy))),
        };
        let c = IssuedCommand { action, unit, x: s.tile.x, y: s.tile.y, count: 1 };
        match out.last_mut() {
            Some(last)
                if action == Action::Deploy
                    && (last.action, last.unit, last.x, last.y) == (c.action, c.unit, c.x, c.y) =>
            {
                last.count += 1;
            }
            _ => out.push(c),
        }
    }
    out
}

/// Where the base's and the new version's games against one opponent part (both versions in
/// `seat`), and what each did then; `None` when the two games are the same.
pub fn explain(base: &Replay, new: &Replay, seat: Player) -> Option<GameDivergence> {
    let d = first_divergence(base, new)?;
    let opponent = seat.opponent();
    Some(GameDivergence {
        turn: d.turn,
        action_frame: d.action_frame,
        base_commands: commands_in_turn(base, d.turn, seat),
        new_commands: commands_in_turn(new, d.turn, seat),
        opponent_differs: commands_in_turn(base, d.turn, opponent) != commands_in_turn(new, d.turn, opponent),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::frame::SpawnEvent;
    use crate::engine::geometry::Tile;

    fn replay(frames: Vec<Frame>) -> Replay {
        Replay {
            source: Default::default(),
            config: crate::engine::presets::preset("base-s6").expect("a preset"),
            config_line: 0,
            frame_lines: vec![0; frames.len()],
            frames,
            legacy: false,
            truncated_at: None,
        }
    }

    fn frame(turn: i32, action_frame: i32, spawns: &[(u8, i32, i32, Player)]) -> Frame {
        let mut f = Frame::default();
        f.turn_info.turn = turn;
        f.turn_info.action_frame = action_frame;
        f.events.spawn = spawns
            .iter()
            .map(|&(unit_type, x, y, owner)| SpawnEvent { tile: Tile::new(x, y), unit_type, id: 0, owner })
            .collect();
        f
    }

    #[test]
    fn the_first_differing_frame_and_each_sides_commands() {
        let (one, two) = (Player::One, Player::Two);
        let shared = vec![frame(0, 0, &[]), frame(0, 1, &[(2, 3, 12, one)]), frame(1, 0, &[])];
        let mut a = shared.clone();
        a.push(frame(1, 1, &[(3, 14, 0, one), (3, 14, 0, one), (7, 3, 12, one), (0, 5, 20, two)]));
        let mut b = shared;
        b.push(frame(1, 1, &[(4, 13, 0, one), (6, 3, 12, one), (0, 5, 20, two)]));
        let mut timed = a.clone();
        timed[2].stats[0].time_ms = 999;
        let (a, b, timed) = (replay(a), replay(b), replay(timed));
        assert_eq!(first_divergence(&a, &timed), None, "compute times are not the game");
        assert_eq!(first_divergence(&a, &b), Some(Divergence { turn: 1, action_frame: 1, frame_index: 3 }));
        let why = explain(&a, &b, one).expect("they differ");
        let text = |c: &[IssuedCommand]| c.iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(text(&why.base_commands), ["deploy 2 Scout [14,0]", "upgrade [3,12]"]);
        assert_eq!(text(&why.new_commands), ["deploy 1 Demolisher [13,0]", "remove [3,12]"]);
        assert!(!why.opponent_differs);
        let shorter = replay(a.frames[..3].to_vec());
        assert_eq!(first_divergence(&a, &shorter).map(|d| d.frame_index), Some(3));
    }
}
