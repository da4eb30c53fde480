//! A person's turn: the plan starts on the turn frame once the turn before has been seen to
//! resolve on the board, goes aside while the board looks back at a past frame (and returns
//! with the present), is checked by the engine at each edit — an edit it cannot afford is
//! taken back and said — and goes to the match with End turn.

use super::PlayView;
use super::refusals;
use crate::app::viewer::PlanSource;
use crate::app::viewer::whatif_board::BoardWhatIf;
use terminal_core::engine::Command as EngineCommand;
use terminal_core::engine::geometry::Player;
use terminal_core::layout::Layout;
use terminal_core::layout::threat;
use terminal_core::runner::HumanTurn;
use terminal_core::runner::human::check_turn;
use terminal_core::runner::view::rotate_commands;

impl PlayView {
    /// On a person's seat's turn frame not yet answered, the board becomes that turn's plan:
    /// once the board has shown the match up to that frame, or at once (set aside) while the
    /// person looks back at a past frame.
    pub(super) fn begin_planning_if_due(&mut self) {
        let looking_back = !self.viewer.live().1;
        let Some(m) = self.running.as_mut() else { return };
        let Some(frame) = m.turn_frame.clone() else { return };
        let turn = frame.turn_info.turn;
        // The board has reached the turn frame (the session may not know of it yet).
        let caught_up = self.viewer.caught_up() && self.viewer.turn() == Some(turn);
        if m.planning.is_some() || !(caught_up || looking_back) {
            return;
        }
        let Some(seat) = Player::both()
            .into_iter()
            .find(|p| m.humans[p.index()].is_some() && m.ended[p.index()].is_none_or(|t| t < turn))
        else {
            return;
        };
        let layout = Layout::from_frame(&frame, &m.config, format!("turn {turn}"));
        let mut w = BoardWhatIf::for_seat(turn, layout, seat);
        w.legacy = m.config.legacy;
        m.planning = Some((turn, seat));
        m.undo.clear();
        m.refusal = None;
        m.check = None;
        m.last_plan = Some(w.clone());
        if caught_up {
            self.viewer.set_board_whatif(Some(w));
        } else {
            m.stashed_plan = Some(w);
        }
    }

    /// The plan is drawn on the present only: a past frame is shown as it was.
    pub(super) fn keep_plan_with_the_present(&mut self) {
        let Some(m) = self.running.as_mut() else { return };
        let Some((turn, _)) = m.planning else { return };
        let present = self.viewer.caught_up() && self.viewer.live().1 && self.viewer.turn() == Some(turn);
        if present {
            if let Some(w) = m.stashed_plan.take() {
                self.viewer.set_board_whatif(Some(w));
            }
        } else if m.stashed_plan.is_none()
            && let Some(w) = self.viewer.board_whatif().cloned()
        {
            m.stashed_plan = Some(w);
            self.viewer.set_board_whatif(None);
        }
    }

    /// Keeps the undo stack, the engine's check and the deploys' threat up to date with the
    /// board; an edit that spends more than the player has is taken back, and says why.
    pub(super) fn track_plan(&mut self) {
        let refused_click = self.viewer.take_refusal();
        let Some(m) = self.running.as_mut() else { return };
        if let Some(r) = refused_click {
            m.refusal = Some(r.to_string());
        }
        let (Some((_, seat)), Some(w), Some(frame)) = (m.planning, self.viewer.board_whatif(), &m.turn_frame) else {
            return;
        };
        let changed = m.last_plan.as_ref().is_none_or(|l| l.layout != w.layout || l.deploys != w.deploys);
        if !changed && m.check.is_some() {
            return;
        }
        let (build, deploy) = w.turn_commands(seat);
        let check = check_turn(&m.config, frame, seat, &build, &deploy);
        let refused_before = m.check.as_ref().and_then(|c| c.as_ref().ok()).map_or(0, refusals::unaffordable);
        if changed
            && let Ok(c) = &check
            && refusals::unaffordable(c) > refused_before
            && let Some(prev) = m.last_plan.clone()
        {
            // The edit cannot be paid for: it is not made. The engine refuses the plan's last
            // commands in its order, which need not be the edit's: the refusal names the edit.
            // What was left is the plan's before the edit.
            let left = m.check.as_ref().and_then(|c| c.as_ref().ok()).unwrap_or(c);
            if let Some(cmd) = refusals::added_command(&prev.turn_commands(seat), &(build, deploy)) {
                let why = terminal_core::engine::game::Rejection::CannotAfford;
                m.refusal = Some(refusals::words(&m.config, left, &w.layout, seat, &cmd, &why));
            }
            let mut prev = prev;
            prev.tool = w.tool;
            self.viewer.set_board_whatif(Some(prev));
            return;
        }
        if changed {
            if let Some(prev) = m.last_plan.replace(w.clone()) {
                m.undo.push(prev);
            }
            m.refusal = None;
        }
        m.threats = deploy_threats(w, &m.config, seat);
        m.check = Some(check);
    }

    /// Sends the planned turn to the match; the board then shows the turn resolve at the pace.
    pub fn end_turn(&mut self) {
        let Some(m) = self.running.as_mut() else { return };
        let plan = self.viewer.board_whatif().cloned().or_else(|| m.stashed_plan.clone());
        let (Some((turn, seat)), Some(w)) = (m.planning, plan) else {
            self.message = "It is not your turn".into();
            return;
        };
        let (mut build, mut deploy) = w.turn_commands(seat);
        // The runner reads a seat's commands in its own view, as an algo sends them.
        if seat == Player::Two {
            rotate_commands(&mut build);
            rotate_commands(&mut deploy);
        }
        let sent = m.humans[seat.index()]
            .as_ref()
            .map(|tx| tx.send(HumanTurn { turn, build, deploy }).is_ok())
            .unwrap_or(false);
        if !sent {
            self.message = "The match is no longer waiting for this seat".into();
            return;
        }
        m.ended[seat.index()] = Some(turn);
        m.planning = None;
        m.check = None;
        m.last_plan = None;
        m.stashed_plan = None;
        m.refusal = None;
        m.threats.clear();
        m.undo.clear();
        self.viewer.set_board_whatif(None);
        // The planner's candidates were against this turn's board: they go with it.
        self.viewer.clear_plan();
        self.viewer.set_follow_live(true);
        self.message = format!("Turn {turn} sent: it resolves on the board");
    }

    pub(super) fn undo_plan(&mut self) {
        let Some(m) = self.running.as_mut() else { return };
        match m.undo.pop() {
            Some(prev) => {
                m.last_plan = Some(prev.clone());
                m.check = None;
                m.refusal = None;
                let tool = self.viewer.board_whatif().map(|w| w.tool);
                let mut prev = prev;
                if let Some(t) = tool {
                    prev.tool = t;
                }
                self.viewer.set_board_whatif(Some(prev));
            }
            None => self.message = "Nothing to undo in this turn".into(),
        }
    }

    /// Searches your strongest attack from the plan's builds (the opponent's builds of this
    /// turn are not known: its structures as they stand).
    pub(super) fn plan_your_attack(&mut self) {
        let Some(m) = self.running.as_ref() else { return };
        let (Some((turn, seat)), Some(frame)) = (m.planning, &m.turn_frame) else {
            self.message = "It is not your turn".into();
            return;
        };
        let (build, _) = self.planned_commands().unwrap_or_default();
        match terminal_core::runner::human::game_after_builds(&m.config, frame, seat, &build) {
            Ok(game) => self.viewer.start_plan(PlanSource::Game(Box::new(game)), turn, seat),
            Err(e) => self.message = format!("Cannot plan on this turn: {e}"),
        }
    }

    /// The opponent's strongest attack against the base about to be sent (the plan's builds
    /// made), with the MP it has now, or will have next turn if it sends nothing now.
    pub(super) fn plan_their_threat(&mut self, next_turn: bool) {
        let Some(m) = self.running.as_ref() else { return };
        let (Some((turn, seat)), Some(frame)) = (m.planning, &m.turn_frame) else {
            self.message = "It is not your turn".into();
            return;
        };
        let (build, _) = self.planned_commands().unwrap_or_default();
        let them = seat.opponent();
        match terminal_core::runner::human::game_after_builds(&m.config, frame, seat, &build) {
            Ok(game) => {
                let now = game.player(them).stats.mp;
                let mp = next_turn.then(|| m.config.mp_at_start_of(turn + 1, now));
                self.viewer.start_plan_with_mp(PlanSource::Game(Box::new(game)), turn, them, mp);
            }
            Err(e) => self.message = format!("Cannot work out their threat on this turn: {e}"),
        }
    }

    /// Puts candidate `index`'s deploys in the turn's plan, in place of its deploys.
    pub(super) fn use_candidate(&mut self, index: usize) {
        let Some((turn, seat, candidates)) = self.viewer.planned() else { return };
        let Some(candidate) = candidates.get(index) else { return };
        let planning = self.running.as_ref().and_then(|m| m.planning);
        if planning != Some((turn, seat)) {
            self.message = format!("That plan was for turn {turn}: plan this turn again");
            return;
        }
        let Some(mut w) = self.viewer.board_whatif().cloned() else {
            self.message = "Back to your turn first: your plan is set aside".into();
            return;
        };
        let described = self.viewer.describe_groups(candidate);
        w.deploys[seat.index()] = candidate
            .deploy()
            .iter()
            .filter_map(|c| match c.kind {
                terminal_core::engine::CommandKind::Spawn(t) => Some((t, c.tile)),
                _ => None,
            })
            .collect();
        self.viewer.set_board_whatif(Some(w));
        self.message = format!("Plan #{} in your turn: {described}", index + 1);
    }

    /// The planned turn's commands (true-board), for the panel and tests.
    pub fn planned_commands(&self) -> Option<(Vec<EngineCommand>, Vec<EngineCommand>)> {
        let m = self.running.as_ref()?;
        let (_, seat) = m.planning?;
        let w = self.viewer.board_whatif().or(m.stashed_plan.as_ref())?;
        Some(w.turn_commands(seat))
    }
}

/// What the plan's deploys go through on the planned board: per (unit type, deploys, tile).
fn deploy_threats(
    w: &BoardWhatIf,
    config: &std::sync::Arc<terminal_core::engine::Config>,
    seat: Player,
) -> Vec<(u8, usize, threat::PathThreat)> {
    let mut stacks: Vec<(u8, usize, terminal_core::engine::geometry::Tile)> = Vec::new();
    for (unit_type, tile) in &w.deploys[seat.index()] {
        match stacks.iter_mut().find(|(t, _, at)| t == unit_type && at == tile) {
            Some(s) => s.1 += 1,
            None => stacks.push((*unit_type, 1, *tile)),
        }
    }
    stacks
        .into_iter()
        .filter_map(|(unit_type, n, tile)| threat::from_layout(&w.layout, config, tile).map(|t| (unit_type, n, t)))
        .collect()
}
