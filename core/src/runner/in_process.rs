//! A match whose two seats are driven by the caller, turn by turn, with no process: the
//! caller reads each seat's turn frame in that seat's own view (player 2's flipped, as the
//! runner sends it), hands both seats' reply lines back in their own views, and the match
//! plays the turn as the runner does — commands in the official order, every action frame,
//! the end-of-turn restore, the end frame — keeping the replay in memory.
//! Self-play for search or learning: thousands of turns a second, no pipes.

use super::view::{frame_for, rotate_commands};
use crate::engine::commands::Command;
use crate::engine::config::{Config, UnsimulatedRules};
use crate::engine::frame::{Frame, TurnInfo};
use crate::engine::game::{Game, Rejection};
use crate::engine::geometry::Player;
use crate::replay::frame_to_json;
use crate::replay::writer::replay_header;
use std::path::Path;
use std::sync::Arc;
use web_time::Instant;

/// One seat's reply to a turn frame, in the seat's own view.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SeatReply {
    pub build: Vec<Command>,
    pub deploy: Vec<Command>,
    /// The reply time charged (the soft-limit penalty applies past the config's limit).
    pub time_ms: i64,
}

/// A match played in-process. See the module documentation.
pub struct InProcessMatch {
    game: Game,
    /// The latest turn frame, or the end frame once the game is over (true board view).
    current: Frame,
    /// The last turn's action frames (true board view), when kept.
    action_frames: Vec<Frame>,
    keep_action_frames: bool,
    /// Every frame sent so far as a replay line, when recording.
    lines: Option<Vec<String>>,
    started: Instant,
}

impl InProcessMatch {
    /// Starts a match under `config` (turn 0's frame is ready). `record` keeps every frame
    /// for the replay; `keep_action_frames` keeps the last turn's action frames for the
    /// seats to read. Without both, ticks build no frame at all.
    pub fn new(
        config: Arc<Config>,
        names: [String; 2],
        record: bool,
        keep_action_frames: bool,
    ) -> Result<InProcessMatch, UnsimulatedRules> {
        config.check_simulated()?;
        let mut game = Game::new(config);
        for (p, name) in Player::both().into_iter().zip(names) {
            game.player_mut(p).name = name;
        }
        let mut m = InProcessMatch {
            game,
            current: Frame::default(),
            action_frames: Vec::new(),
            keep_action_frames,
            lines: record.then(Vec::new),
            started: Instant::now(),
        };
        let first = m.game.turn_frame();
        m.record(&first);
        m.current = first;
        Ok(m)
    }

    fn record(&mut self, frame: &Frame) {
        if let Some(lines) = self.lines.as_mut() {
            let config = &self.game.config;
            lines.push(frame_to_json(frame, config.legacy, config.timing.store_bot_times));
        }
    }

    /// The game as it stands (true board view; player 1 at the bottom).
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn is_over(&self) -> bool {
        self.game.over
    }

    /// The frame the seat `p` answers next, in its own view: the current turn frame, or the
    /// end frame once the game is over.
    pub fn frame_for(&self, p: Player) -> std::borrow::Cow<'_, Frame> {
        frame_for(p, &self.current)
    }

    /// The last turn's action frames in the view of `p` (empty unless kept).
    pub fn action_frames_for(&self, p: Player) -> Vec<Frame> {
        self.action_frames.iter().map(|f| frame_for(p, f).into_owned()).collect()
    }

    /// Plays the current turn with both seats' replies (each in its own view): time charged,
    /// commands applied in the official order, the action phase, the restore, then the next
    /// turn frame or the end frame. Returns each seat's rejected commands, in its own view.
    /// Does nothing once the game is over.
    pub fn play_turn(&mut self, replies: [SeatReply; 2]) -> [Vec<(Command, Rejection)>; 2] {
        if self.game.over {
            return [Vec::new(), Vec::new()];
        }
        let [one, mut two] = replies;
        rotate_commands(&mut two.build);
        rotate_commands(&mut two.deploy);
        for (p, reply) in [(Player::One, &one), (Player::Two, &two)] {
            self.game.charge_time(p, reply.time_ms, true);
        }
        let [rejected_one, mut rejected_two] =
            self.game.apply_turn_commands([(&one.build, &one.deploy), (&two.build, &two.deploy)]);
        for (command, _) in &mut rejected_two {
            command.tile = command.tile.rotated();
        }
        self.action_frames.clear();
        let frames_wanted = self.lines.is_some() || self.keep_action_frames;
        let mut last: TurnInfo;
        loop {
            if frames_wanted {
                let frame = self.game.action_frame();
                last = frame.turn_info;
                self.record(&frame);
                if self.keep_action_frames {
                    self.action_frames.push(frame);
                }
            } else {
                self.game.action_tick_quiet();
                let g = &self.game;
                last = TurnInfo {
                    phase: crate::engine::frame::Phase::Action,
                    turn: g.turn,
                    action_frame: g.action_frame,
                    total_frame: Some(g.frames_sent - 1),
                };
            }
            if self.game.action_phase_done() {
                break;
            }
        }
        self.game.end_turn();
        let next = if self.game.over {
            let duration = i64::try_from(self.started.elapsed().as_millis()).unwrap_or(i64::MAX);
            self.game.end_frame(&last, duration)
        } else {
            self.game.turn_frame()
        };
        self.record(&next);
        self.current = next;
        [rejected_one, rejected_two]
    }

    /// The replay as text (config line, then every frame), or `None` if not recording.
    pub fn replay_text(&self) -> Option<String> {
        let lines = self.lines.as_ref()?;
        let mut text = replay_header(&self.game.config);
        for line in lines {
            text.push_str(line);
            text.push('\n');
        }
        Some(text)
    }

    /// Writes the replay atomically (the whole file or nothing). Fails with `Unsupported`
    /// when the match was started without recording.
    pub fn write_replay(&self, path: &Path) -> std::io::Result<()> {
        let text = self.replay_text().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::Unsupported, "the match was started without recording its frames")
        })?;
        crate::files::write_atomic(path, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::presets;
    use crate::replay::read_replay_bytes;
    use crate::verify::{ReplayReport, Status, verify_replay};

    fn config() -> Arc<Config> {
        Arc::new(presets::preset("live-2022").expect("the live-2022 preset ships"))
    }

    /// Both seats build the same wall in their own view and send scouts from the same tile.
    fn mirrored(turn: i32) -> SeatReply {
        let build = (9..19).map(|x| Command::spawn(0, x, 12)).chain([Command::spawn(2, 13, 11)]).collect();
        let deploy = if turn % 2 == 0 { vec![Command::spawn(3, 14, 0); 6] } else { Vec::new() };
        SeatReply { build, deploy, time_ms: 0 }
    }

    #[test]
    fn a_whole_match_writes_a_replay_the_verifier_finds_exact() {
        let mut m = InProcessMatch::new(config(), ["one".into(), "two".into()], true, false).expect("simulated rules");
        let mut turns = 0;
        while !m.is_over() {
            let turn = m.game().turn;
            m.play_turn([mirrored(turn), mirrored(turn + 1)]);
            turns += 1;
            assert!(turns <= 100, "the turn limit ends every match");
        }
        let text = m.replay_text().expect("recording");
        let replay = read_replay_bytes(Path::new("in-process.replay"), text.as_bytes()).expect("the replay reads back");
        let mut report = ReplayReport::new(Path::new("in-process.replay"));
        verify_replay(&replay, &mut report);
        assert_eq!(report.status, Status::Exact, "{:?}", report.first_divergence);
        assert_eq!(report.frames_exact, report.frames_total);
        let end = m.frame_for(Player::One).end_stats.clone().expect("an end frame");
        assert_eq!(end.turns, m.game().turn.min(100));
        assert!(report.frames_total > turns * 2);
    }

    #[test]
    fn each_seat_reads_its_own_view_and_its_rejections_in_it() {
        let mut m = InProcessMatch::new(config(), ["one".into(), "two".into()], false, true).expect("simulated rules");
        // Seat 2 builds at (13, 12) of its own view: (14, 15) on the true board.
        let wall =
            SeatReply { build: vec![Command::spawn(0, 13, 12), Command::spawn(0, 13, 20)], ..SeatReply::default() };
        let [none, rejected] = m.play_turn([SeatReply::default(), wall]);
        assert!(none.is_empty());
        assert_eq!(rejected.len(), 1, "the tile on the other half is refused");
        assert_eq!((rejected[0].0.tile.x, rejected[0].0.tile.y), (13, 20), "named in seat 2's view");
        let own = m.frame_for(Player::Two);
        assert_eq!(own.units[0][0].len(), 1, "seat 2 sees its wall as its own");
        assert_eq!((own.units[0][0][0].tile.x, own.units[0][0][0].tile.y), (13, 12));
        let truth = m.frame_for(Player::One);
        assert_eq!((truth.units[1][0][0].tile.x, truth.units[1][0][0].tile.y), (14, 15));
        assert!(!m.action_frames_for(Player::Two).is_empty());
        assert!(m.replay_text().is_none());
        let error = m.write_replay(Path::new("never-written.replay")).err().map(|e| e.kind());
        assert_eq!(error, Some(std::io::ErrorKind::Unsupported));
    }
}
