//! The Play view: a live match on the Debugger's board as the engine plays it. Each seat is
//! an algo folder, a ghost of a recorded replay, or "You": on your turns the board becomes
//! your turn's plan (the what-if tools), checked by the engine as you edit, until End turn.
//! The match runs on its own thread (`terminal_core::runner::start_match`), or inline in a
//! web page, a turn at most per frame of the window; its frames come over the match's event
//! channel and are appended to the viewer's session.

mod live_match;
mod message;
mod panels;
mod planning;
mod refusals;
mod status;

pub use live_match::{LiveMatch, Waiting};

use super::board::icons::IconTextures;
use super::command::{Command, FileCommand};
use super::viewer::whatif_board::BoardTool;
use super::viewer::{Viewer, ViewerAction};
use crossbeam_channel::TryRecvError;
use egui::Ui;
use live_match::HumanSenders;
use std::path::PathBuf;
use std::sync::Arc;
use terminal_core::engine::Config;
use terminal_core::engine::geometry::Player;
use terminal_core::engine::presets::{DEFAULT_PRESET, load_config};
use terminal_core::replay::decision::Decision;
use terminal_core::replay::follow::ReplayFollower;
use terminal_core::runner::{Ghost, HumanSeat, MatchEvent, MatchSpec, ReplayTarget, SeatSpec, locate, start_match};

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    Algo,
    Ghost,
    Human,
}

impl SeatKind {
    pub const ALL: [SeatKind; 3] = [SeatKind::Algo, SeatKind::Ghost, SeatKind::Human];

    /// The seat facing the person by default: an algo, or a ghost where algos cannot run.
    pub fn opponent() -> SeatKind {
        if terminal_core::runner::CAN_START_ALGOS { SeatKind::Algo } else { SeatKind::Ghost }
    }

    pub fn label(self) -> &'static str {
        match self {
            SeatKind::Algo => "Algo",
            SeatKind::Ghost => "Ghost",
            SeatKind::Human => "You",
        }
    }
}

/// One seat as chosen in the form.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatForm {
    pub kind: SeatKind,
    /// The algo folder or start script, or the ghost's replay.
    pub path: String,
    /// The ghost's recorded player (`None`: the one of this seat).
    pub ghost_player: Option<Player>,
}

/// What the Play view's panels ask for; applied after the frame's UI.
#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum PlayAction {
    Start,
    Stop,
    /// Send the planned turn.
    EndTurn,
    /// Stop following another match's replay.
    StopWatching,
    /// Take the last edit of the planned turn back.
    UndoPlan,
    /// What a click on the board does while planning.
    SetTool(BoardTool),
    /// How fast the board shows the match (before it starts, or while it runs).
    SetPace(crate::app::model::LivePace),
    /// Open the finished match's replay in the Debugger.
    OpenReplay(PathBuf),
    /// Offer the match's replay as a download (where files live in the page).
    DownloadReplay(PathBuf),
    /// The newest frame, followed: skips the action phase being shown, or comes back from
    /// a past frame to the turn being planned.
    ToThePresent,
    /// Play this turn's action phase again on the board.
    ReplayTurn(i32),
    /// The attack planner on your turn: `PlanAttack` searches from your plan's builds,
    /// `TryCandidate` puts a candidate's deploys in the plan, the rest is the viewer's.
    Planner(ViewerAction),
    /// The opponent's strongest attack against the planned base, with its MP now or next turn.
    Threat {
        next_turn: bool,
    },
}

/// Why the form's match cannot start, in the form's words.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("Seat {0}: type the algo's folder")]
    NoAlgo(usize),
    #[error("Seat {0}: type the ghost's replay")]
    NoReplay(usize),
    #[error("Seat {0}: {1}")]
    Seat(usize, String),
    #[error("a match has two seats")]
    TwoSeats,
    #[error("Ruleset: {0}")]
    Ruleset(String),
}

/// The Play view: runtime state (the form's fields are kept while the studio runs).
pub struct PlayView {
    seats: [SeatForm; 2],
    /// A preset name or a config file; empty: a ghost's ruleset, else the default preset.
    ruleset: String,
    /// The algos run confined (the default; docs/runner.md, Confinement).
    confine: bool,
    viewer: Viewer,
    running: Option<LiveMatch>,
    /// The last match that ended: its recaps, its end and its replay stay on screen.
    last_match: Option<LiveMatch>,
    message: String,
    /// The replay of the last finished match.
    finished_replay: Option<PathBuf>,
    /// Where the matches' replays go.
    out_dir: PathBuf,
    /// A replay being written by another match (an arena's), followed as it grows.
    watching: Option<ReplayFollower>,
    /// When the followed file was last read (it is read a few times a second, not every frame).
    watched_at: Option<web_time::Instant>,
    /// The board's message as last taken into the view's.
    board_said: String,
    /// The turn on the board when the message was last checked for staleness.
    message_turn: Option<i32>,
    /// The ended match's result, said once the board gets to its end.
    pending_result: Option<String>,
}

impl Default for PlayView {
    /// Matches written under the studio's data folder.
    fn default() -> Self {
        PlayView::new(crate::app::paths::matches_dir())
    }
}

impl crate::app::view::StudioView for PlayView {
    fn show(&mut self, ui: &mut Ui, cx: &mut crate::app::view::ViewContext) -> Vec<Command> {
        self.poll(cx.window);
        self.refresh_message(cx.message);
        crate::app::status_line::panel(ui, "play-status", &self.message);
        self.show(ui, cx.icons, cx.dark())
    }

    fn run(
        &mut self,
        command: crate::app::command::UiCommand,
        _cx: &mut crate::app::view::ViewContext,
    ) -> Vec<Command> {
        if command == crate::app::command::UiCommand::StopMatch {
            if self.running.is_none() {
                self.message = "No match to stop".into();
                return Vec::new();
            }
            return self.apply(PlayAction::Stop);
        }
        match turn_action(command) {
            Some(action) => self.apply_on_your_turn(action),
            None => self.viewer.run_command(command),
        }
    }

    fn poll(&mut self, cx: &mut crate::app::view::ViewContext) {
        self.poll(cx.window);
    }
}

/// What a key of the command table does on a person's turn (`None`: the board's own keys).
fn turn_action(command: crate::app::command::UiCommand) -> Option<PlayAction> {
    use crate::app::command::UiCommand as C;
    use crate::app::model::Tool;
    use terminal_core::layout::Kind;
    let tool = |t| Some(PlayAction::SetTool(t));
    match command {
        C::WallTool => tool(BoardTool::Structure(Tool::Place(Kind::Wall))),
        C::SupportTool => tool(BoardTool::Structure(Tool::Place(Kind::Support))),
        C::TurretTool => tool(BoardTool::Structure(Tool::Place(Kind::Turret))),
        C::UpgradeTool => tool(BoardTool::Structure(Tool::Upgrade)),
        // In a real turn a structure is not erased but marked for removal: Play's Remove tool.
        C::RemoveTool => tool(BoardTool::Structure(Tool::Erase)),
        C::ScoutTool => tool(BoardTool::Deploy(3)),
        C::DemolisherTool => tool(BoardTool::Deploy(4)),
        C::InterceptorTool => tool(BoardTool::Deploy(5)),
        C::EndTurn => Some(PlayAction::EndTurn),
        C::UndoTurnEdit => Some(PlayAction::UndoPlan),
        _ => None,
    }
}

/// The key of the command table that does `action` on a person's turn, as help shows it.
fn shortcut_of(action: &PlayAction) -> Option<String> {
    let command = crate::app::command::UiCommand::ALL.into_iter().find(|c| turn_action(*c).as_ref() == Some(action));
    command.map(|c| c.shortcut_text())
}

impl PlayView {
    pub fn new(out_dir: PathBuf) -> PlayView {
        let mut viewer = Viewer::default();
        viewer.set_empty_hint("Choose the two seats above and press Start match");
        // The board and the turn panel take the width; the Debugger's panels open on request.
        for hide in [ViewerAction::ShowLeftPanel(false), ViewerAction::ShowRightPanel(false)] {
            let _ = viewer.apply(hide);
        }
        PlayView {
            seats: [
                SeatForm { kind: SeatKind::Human, path: String::new(), ghost_player: None },
                SeatForm { kind: SeatKind::opponent(), path: String::new(), ghost_player: None },
            ],
            ruleset: String::new(),
            confine: true,
            viewer,
            running: None,
            last_match: None,
            message: String::new(),
            finished_replay: None,
            out_dir,
            watching: None,
            watched_at: None,
            board_said: String::new(),
            message_turn: None,
            pending_result: None,
        }
    }

    /// What the running match is doing, as its status line says it now.
    pub fn status_line(&self) -> Option<String> {
        self.running.as_ref().map(|m| status::line(m, web_time::Instant::now()))
    }

    /// The match ended and the board has shown it to its last frame (or the person stopped
    /// following it): its result and every recap may be shown.
    pub fn board_reached_the_end(&self) -> bool {
        self.running.is_none() && !(self.viewer.live().1 && self.viewer.frames_to_show())
    }

    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The match running, if one is.
    pub fn running(&self) -> Option<&LiveMatch> {
        self.running.as_ref()
    }

    /// The board: the Debugger's viewer, showing the match.
    pub fn viewer(&self) -> &Viewer {
        &self.viewer
    }

    /// The two seats as the form holds them.
    pub fn seats(&self) -> &[SeatForm; 2] {
        &self.seats
    }

    /// What the view says, as its line shows it.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The replay of the last finished match.
    pub fn finished_replay(&self) -> Option<&std::path::Path> {
        self.finished_replay.as_deref()
    }

    /// Whether another match's replay is being followed.
    pub fn is_watching(&self) -> bool {
        self.watching.is_some()
    }

    /// The seats as the runner takes them, or why the form is not ready.
    fn seat_specs(&self) -> Result<([SeatSpec; 2], HumanSenders), StartError> {
        let mut humans: HumanSenders = [None, None];
        let mut specs = Vec::new();
        for (i, s) in self.seats.iter().enumerate() {
            let seat = i + 1;
            let path = s.path.trim();
            let spec = match s.kind {
                SeatKind::Human => {
                    let (h, tx) = HumanSeat::new("You");
                    humans[i] = Some(tx);
                    SeatSpec::Human(h)
                }
                SeatKind::Algo if path.is_empty() => return Err(StartError::NoAlgo(seat)),
                SeatKind::Algo => {
                    locate(std::path::Path::new(path)).map_err(|e| StartError::Seat(seat, e.to_string()))?;
                    SeatSpec::Algo(PathBuf::from(path))
                }
                SeatKind::Ghost if path.is_empty() => return Err(StartError::NoReplay(seat)),
                // The path as typed: a trailing `:1` here is part of the name, the player is chosen apart.
                SeatKind::Ghost => SeatSpec::Ghost(
                    Ghost::load(std::path::Path::new(path), s.ghost_player)
                        .map_err(|e| StartError::Seat(seat, e.to_string()))?,
                ),
            };
            specs.push(spec);
        }
        let [a, b]: [SeatSpec; 2] = specs.try_into().map_err(|_| StartError::TwoSeats)?;
        Ok(([a, b], humans))
    }

    fn config_for(&self, seats: &[SeatSpec; 2]) -> Result<Arc<Config>, StartError> {
        let text = self.ruleset.trim();
        match (text.is_empty(), seats.iter().find_map(SeatSpec::ghost)) {
            (false, _) => load_config(text).map(Arc::new).map_err(|e| StartError::Ruleset(e.to_string())),
            (true, Some(g)) => Ok(Arc::clone(&g.config)),
            (true, None) => load_config(DEFAULT_PRESET).map(Arc::new).map_err(|e| StartError::Ruleset(e.to_string())),
        }
    }

    /// Starts the match of the form.
    pub fn start(&mut self) {
        if self.running.is_some() {
            self.message = "A match is running: stop it first".into();
            return;
        }
        let (seats, humans) = match self.seat_specs() {
            Ok(s) => s,
            Err(e) => {
                self.message = e.to_string();
                return;
            }
        };
        let config = match self.config_for(&seats) {
            Ok(c) => c,
            Err(e) => {
                self.message = e.to_string();
                return;
            }
        };
        if let Err(e) = config.check_simulated() {
            self.message = format!("Ruleset: {e}");
            return;
        }
        let [s1, s2] = seats;
        let mut spec = MatchSpec::new(s1, s2, Arc::clone(&config));
        spec.replay = ReplayTarget::Dir(self.out_dir.clone());
        spec.every_frame_event = true;
        if !self.confine {
            spec.confine = terminal_core::runner::Confinement::off();
        }
        let handle = start_match(spec);
        self.finished_replay = None;
        self.last_match = None;
        self.message.clear();
        self.viewer.set_empty_hint("Starting the algos…");
        self.running = Some(LiveMatch::new(handle, config, humans));
    }

    /// Starts a match of a person (player 1) against player 2 of `replay`, in its ruleset.
    pub fn play_against(&mut self, replay: &std::path::Path) {
        if self.running.is_some() {
            self.message = "A match is running: stop it first".into();
            return;
        }
        self.seats = [
            SeatForm { kind: SeatKind::Human, path: String::new(), ghost_player: None },
            SeatForm { kind: SeatKind::Ghost, path: replay.display().to_string(), ghost_player: Some(Player::Two) },
        ];
        self.ruleset.clear();
        self.start();
    }

    /// Stops the running match (the replay keeps the frames played).
    pub fn stop(&mut self) {
        if let Some(m) = &self.running {
            m.handle.cancel();
            self.message = "Stopping the match…".into();
        }
    }

    /// Follows the replay a match (of the arena, or a `match` command) is writing: the board
    /// shows it live as for a match of this view.
    pub fn watch_file(&mut self, path: &std::path::Path) {
        if self.running.is_some() {
            self.message = "A match is running here: stop it to watch another".into();
            return;
        }
        self.watching = Some(ReplayFollower::new(path));
        self.finished_replay = None;
        self.message = format!("Watching {}", path.display());
    }

    fn poll_watched(&mut self, ctx: Option<&egui::Context>) {
        let Some(f) = self.watching.as_mut() else { return };
        let now = web_time::Instant::now();
        if self.watched_at.is_some_and(|t| now.duration_since(t) < std::time::Duration::from_millis(200)) {
            return;
        }
        self.watched_at = Some(now);
        match f.poll() {
            Ok(u) => {
                if let Some(config) = u.config {
                    let name = f.path.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    let (a, b) = name.split_once("__").unwrap_or((name.as_str(), ""));
                    let names = [a.to_string(), b.split("__").next().unwrap_or_default().to_string()];
                    self.viewer.start_live(Arc::new(config), f.path.clone(), names, ctx);
                }
                self.viewer.append_live(u.frames);
                if u.ended {
                    self.message = format!("The match is over: {}", f.path.display());
                    self.finished_replay = Some(f.path.clone());
                    self.viewer.end_live();
                    self.watching = None;
                }
            }
            Err(e) => {
                self.message = format!("Cannot follow the replay: {e}");
                self.watching = None;
            }
        }
    }

    /// Reads the match's events: frames go to the board; a person's turn starts the plan.
    /// Called every UI frame whatever the view, so a match never waits on a hidden tab.
    pub fn poll(&mut self, ctx: Option<&egui::Context>) {
        self.poll_watched(ctx);
        let Some(m) = self.running.as_mut() else { return };
        // A match played inline (in the browser) moves a turn at most per frame of the window.
        m.handle.advance();
        let mut frames = Vec::new();
        let mut ended = None;
        loop {
            match m.handle.events.try_recv() {
                Ok(MatchEvent::Started { replay_path, names }) => {
                    self.viewer.start_live(Arc::clone(&m.config), replay_path.clone(), names.clone(), ctx);
                    m.names = names;
                    m.replay_path = Some(replay_path);
                }
                Ok(MatchEvent::Frame { frame, .. }) => {
                    m.take_frame(&frame);
                    frames.push((*frame).clone());
                }
                Ok(MatchEvent::TurnSent { turn, at, limits }) => {
                    m.waiting = Some(Waiting { turn, since: at, limits, replied: [None, None] });
                }
                Ok(MatchEvent::Replied { turn, player, after_ms }) => {
                    if let Some(w) = m.waiting.as_mut().filter(|w| w.turn == turn) {
                        w.replied[player.index()] = Some(after_ms);
                    }
                }
                Ok(MatchEvent::Log { .. }) => {}
                Ok(MatchEvent::Finished(r)) => {
                    ended = Some(Ok(*r));
                    break;
                }
                Ok(MatchEvent::Failed(e)) => {
                    ended = Some(Err(e));
                    break;
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    ended = Some(Err(terminal_core::runner::RunnerError::Internal("the match thread ended".into())));
                    break;
                }
            }
        }
        self.viewer.append_live(frames);
        if let Some(end) = ended {
            self.finish(end);
            return;
        }
        self.begin_planning_if_due();
        self.keep_plan_with_the_present();
        self.track_plan();
    }

    fn finish(&mut self, end: Result<terminal_core::runner::MatchResult, terminal_core::runner::RunnerError>) {
        let Some(mut m) = self.running.take() else { return };
        self.viewer.end_live();
        self.viewer.set_board_whatif(None);
        m.planning = None;
        m.waiting = None;
        let names = format!("{} vs {}", m.names[0], m.names[1]);
        // A match that did not finish keeps its replay where it was being written.
        self.finished_replay = match &end {
            Ok(r) => Some(r.replay_path.clone()),
            Err(_) => m.replay_path.clone(),
        };
        let said = match end {
            Ok(r) => {
                let decided = m.end_frame.as_ref().and_then(Decision::of).map(|d| d.to_string());
                // A confined algo that broke a rule (or was refused a file): why, and how to allow it.
                let rules: String = r
                    .players
                    .iter()
                    .enumerate()
                    .filter_map(|(i, p)| p.rule_hit.as_ref().map(|hit| format!(" P{}: confinement: {hit}.", i + 1)))
                    .collect();
                format!(
                    "Match over, {names}: {}. {} turns, {} action frames.{rules}",
                    decided.unwrap_or_else(|| format!("winner P{}", r.winner)),
                    r.turns,
                    r.frames
                )
            }
            Err(terminal_core::runner::RunnerError::Cancelled) => {
                format!("Match stopped, {names}, at turn {}: its replay keeps the turns played", m.turn())
            }
            Err(e) => format!("The match ended, {names}: {e}"),
        };
        self.say_at_the_end(said);
        self.last_match = Some(m);
    }

    /// One frame of the view, once its match has been read (`poll`).
    pub fn show(&mut self, ui: &mut Ui, icons: Option<&IconTextures>, dark: bool) -> Vec<Command> {
        let ctx = ui.ctx().clone();
        let mut actions = Vec::new();
        egui::Panel::top("play-setup").show(ui, |ui| actions.extend(panels::setup(ui, self)));
        if self.running.is_some() || self.last_match.is_some() {
            // Beside the board, on the right: the Debugger's overlays keep the left.
            let max = (ui.available_width() * 0.3).max(220.0);
            egui::Panel::right("play-turn")
                .resizable(true)
                .default_size(280.0f32.min(max))
                .size_range(200.0..=max)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| actions.extend(panels::match_side(ui, self)));
                });
        }
        let mut commands = self.viewer.show(ui, true, icons, dark);
        if self.running.is_some() || self.watching.is_some() {
            // Frames arrive from the match thread while the window waits for input.
            ctx.request_repaint_after(std::time::Duration::from_millis(30));
        }
        for a in actions {
            commands.extend(self.apply(a));
        }
        commands
    }

    /// A key of a person's turn: said, not done, when no turn of yours is being planned.
    fn apply_on_your_turn(&mut self, action: PlayAction) -> Vec<Command> {
        let planning = self.running.as_ref().and_then(|m| m.planning).is_some();
        if !planning {
            self.message = "No turn of yours to plan now".into();
            return Vec::new();
        }
        if let PlayAction::SetTool(t) = action
            && self.viewer.board_whatif().is_some_and(|w| !BoardTool::available(w.legacy).any(|a| a == t))
        {
            self.message = crate::app::model::NO_UPGRADES.into();
            return Vec::new();
        }
        self.apply(action)
    }

    pub fn apply(&mut self, action: PlayAction) -> Vec<Command> {
        match action {
            PlayAction::Start => self.start(),
            PlayAction::Stop => self.stop(),
            PlayAction::EndTurn => self.end_turn(),
            PlayAction::StopWatching => {
                self.watching = None;
                self.viewer.end_live();
                self.message = "Stopped watching (the match goes on)".into();
            }
            PlayAction::UndoPlan => self.undo_plan(),
            PlayAction::SetTool(t) => return self.viewer.apply(ViewerAction::SetWhatIfTool(t)),
            PlayAction::SetPace(p) => return self.viewer.apply(ViewerAction::SetLivePace(p)),
            // Skip the action phase, or come back from a past frame: the newest frame, followed.
            PlayAction::ToThePresent => return self.viewer.apply(ViewerAction::End),
            PlayAction::ReplayTurn(turn) => {
                let mut out = self.viewer.apply(ViewerAction::Seek { turn, frame: 0 });
                if !self.viewer.playing() {
                    out.extend(self.viewer.apply(ViewerAction::TogglePlay));
                }
                return out;
            }
            PlayAction::OpenReplay(p) => return vec![Command::File(FileCommand::OpenReplay(p))],
            PlayAction::DownloadReplay(p) => return vec![Command::File(FileCommand::Download(p))],
            PlayAction::Planner(ViewerAction::PlanAttack) => self.plan_your_attack(),
            PlayAction::Threat { next_turn } => self.plan_their_threat(next_turn),
            PlayAction::Planner(ViewerAction::TryCandidate(i)) => self.use_candidate(i),
            PlayAction::Planner(other) => return self.viewer.apply(other),
        }
        Vec::new()
    }
}
