//! The Replays and Debugger views: a replay on the board frame by frame (timeline, playback,
//! keyboard), the debugger overlays (paths, moved-from tiles, attacks, shields, fading
//! markers), the unit inspector, the frame's event log, plots over turns, the algos' logs and
//! what-if tries. The simulation runs in `terminal_core::session` (a worker thread, or inline in tests).
//!
//! One concern per file: the session behind the viewer (`backend`), playback and navigation
//! (`playback`), the frame as text (`inspect`), the board (`board_draw`), what-if tries
//! (`whatif`, the edited what-if in `whatif_board`) and the side panels (`panels`, with the
//! what-if section in `whatif_panel` and the Replays tab's side in `replays_panel`).

mod backend;
mod board_draw;
mod inspect;
mod live;
pub mod panels;
mod plan;
pub mod plan_panel;
mod playback;
mod played_draw;
mod prefs;
mod replays_panel;
mod threat;
mod view;
mod whatif;
pub mod whatif_board;
pub mod whatif_budget;
mod whatif_panel;

pub use inspect::{LogEntry, unit_name};
pub use plan::{PlanSource, describe_groups};
pub use plan_panel::frontier_chart;
pub use playback::{BASE_FPS, SPEEDS, action_for};
pub use played_draw::LEGEND as PLAYED_LEGEND;
pub use prefs::ViewerPrefs;

use super::board;
use super::board::icons::IconTextures;
use super::command::{Command, FileAction, FileCommand};
use super::model::BoardView;
use super::model::{DebugOverlays, EventKind, PlotMetric};
use backend::Backend;
use egui::{Color32, Ui};
use std::path::{Path, PathBuf};
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::session::FrameView;
use terminal_core::session::Request;
use terminal_core::session::companions::{self, Companions};
use terminal_core::session::debug::Marker;
use terminal_core::session::summary::ReplaySummary;
use terminal_core::session::whatif::WhatIfTry;
use web_time::Instant;

/// What the viewer's panels, board and keys ask for. The panels and the board return these
/// and [`Viewer::apply`] carries them out after the frame's UI, so that no panel changes what
/// a later one is still reading; the keys' actions are applied before the UI, so that the frame
/// already shows where they went.
#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum ViewerAction {
    /// One frame forward (or back).
    Step { forward: bool },
    /// To the next (or previous) turn's turn frame.
    StepTurn { forward: bool },
    /// Frame `frame` of `turn` (within the watched try if it is of that turn).
    Seek { turn: i32, frame: usize },
    /// The first turn (the watched try's first frame).
    Home,
    /// The last frame of the replay (of the watched try).
    End,
    /// Play or pause.
    TogglePlay,
    /// Playback speed, one of [`SPEEDS`].
    SetSpeed(f32),
    /// Leave the watched try for the replay's turn.
    BackToReplay,
    /// The debugger overlays drawn.
    SetOverlays(DebugOverlays),
    /// Show (or hide) this kind of event in the event log.
    ShowLogKind(EventKind, bool),
    /// Show (or hide) this player's events in the event log.
    ShowLogPlayer(Player, bool),
    /// The metric plotted over turns.
    SetPlotMetric(PlotMetric),
    /// Select the unit with this id (`None`: nothing) for the inspector.
    Select(Option<u32>),
    /// Pick a replay file to open (the studio opens it).
    OpenReplayDialog,
    /// Start editing a what-if on the board from the shown turn's turn frame.
    EditWhatIfOnBoard,
    /// What a click on the what-if's board does.
    SetWhatIfTool(whatif_board::BoardTool),
    /// The player the what-if's tool acts for.
    SetWhatIfPlayer(Player),
    /// Replace (or keep) the turn's commands of this player with the what-if's deploys.
    ReplaceCommands(Player, bool),
    /// Take every deploy of the what-if back.
    ClearDeploys,
    /// A click on a tile with the what-if's tool; `undo` (a right click) takes one back.
    WhatIfClick { tile: Tile, undo: bool },
    /// A click on the board's area outside the diamond.
    WhatIfClickOff,
    /// Stop editing the what-if (the board shows the frame again).
    LeaveWhatIf,
    /// Run the what-if being edited, else the shown turn as played.
    RunWhatIf,
    /// Play this try (index in `tries`) on the board.
    WatchTry(usize),
    /// The two tries picked for the comparison (indices in `tries`).
    SetComparePick([usize; 2]),
    /// The player whose point of view the tries' figures take (dealt / taken).
    SetTriesPov(Player),
    /// Open these two tries side by side.
    CompareTries(usize, usize),
    /// Close the side-by-side comparison.
    CloseCompare,
    /// Show (or hide) the right-hand panel beside the side-by-side comparison.
    ShowCompareSidePanel(bool),
    /// Show a live match's frames as they arrive, at the live pace (or stay where the view is).
    FollowLive(bool),
    /// How fast a live match's frames are shown.
    SetLivePace(crate::app::model::LivePace),
    /// Zoom and pan back to the whole board.
    FitBoard,
    /// Zoom and pan the board.
    SetBoardView(BoardView),
    /// Hide the result until the last turn (a studio setting).
    HideWinner(bool),
    /// Show (or hide) the left side panel (overlays, filters).
    ShowLeftPanel(bool),
    /// Show (or hide) the right side panel (inspector, event log, what-if; plots).
    ShowRightPanel(bool),
    /// Hide both side panels, or show both again.
    ToggleSidePanels,
    /// Show (or hide) the attack planner's section in the Debugger.
    ShowPlanner(bool),
    /// Search the strongest deploys of the planner's seat on the shown turn.
    PlanAttack,
    /// Stop the search.
    StopPlan,
    /// The seat the planner attacks for.
    SetPlanSeat(Player),
    /// The MP the planner gives the attacker (`None`: what it had that turn).
    SetPlanMp(Option<f32>),
    /// Groups per deploy at most (1 to 3).
    SetPlanGroups(usize),
    /// The candidate whose walks the board draws (index in the list).
    HoverCandidate(Option<usize>),
    /// Run this candidate as a what-if beside the turn as played.
    TryCandidate(usize),
    /// Run the frontier's level `i` as a what-if beside the turn as played.
    TryFrontier(usize),
}

/// The viewer: what it keeps between runs ([`ViewerPrefs`]) and its runtime state, one
/// concern per part. Other modules act on it through [`ViewerAction`]s and read it through
/// its methods.
#[derive(Default)]
pub struct Viewer {
    prefs: ViewerPrefs,
    shown: Shown,
    session: SessionLink,
    playback: Playback,
    board: BoardState,
    whatif: WhatIfState,
    planner: plan::AttackPlanner,
    stats: FrameStats,
    /// The viewer's last word (shown in its header).
    message: String,
    /// What the empty board says (default: how to open a replay).
    empty_hint: Option<String>,
    /// The window is cleared to the panel colour (eframe), so panels skip their fill.
    panels_on_clear_color: bool,
}

/// What is shown: the replay (or live match) and the frame on the board.
#[derive(Default)]
struct Shown {
    path: Option<PathBuf>,
    summary: Option<ReplaySummary>,
    /// The frame shown, with its turn.
    current: Option<(i32, FrameView)>,
    /// The algos' logs and annotations beside the replay.
    companions: Companions,
    /// A replay asked for and not loaded yet (what is shown stays until it has).
    opening: Option<PathBuf>,
    /// A live match is being shown (its frames still arrive).
    live: bool,
    /// The board shows the live match's newest frame as it arrives.
    follow_live: bool,
}

/// The simulation session behind the viewer.
#[derive(Default)]
struct SessionLink {
    backend: Option<Backend>,
    /// Run the session synchronously (tests).
    inline: bool,
    /// Steps sent and not yet answered.
    pending_steps: usize,
    /// Frames of a live match sent and not yet in the summary (a threaded session answers
    /// later): until they are, the board cannot know it is at the newest frame.
    pending_appends: usize,
}

/// Playing the replay at a speed.
#[derive(Default)]
struct Playback {
    playing: bool,
    play_accum: f64,
    last_tick: Option<Instant>,
    /// egui's time at the last live tick, and the frames due at the live pace.
    live_clock: Option<f64>,
    live_accum: f64,
    /// Where the measurement hook starts: (turn, frame).
    autoplay_at: Option<(i32, usize)>,
}

/// The board: zoom and pan, the selection, what the pointer is over, fading markers.
#[derive(Default)]
struct BoardState {
    view: BoardView,
    geometry: Option<board::BoardGeometry>,
    selected: Option<u32>,
    hovered: Option<Tile>,
    /// The threat along the hovered edge tile's path (Debugger).
    threat: Option<threat::HoverThreat>,
    /// Markers of recent frames: (frame index, markers), for fading.
    recent_markers: Vec<(usize, Vec<Marker>)>,
    /// The figures written on the board in the last frame, and where.
    labels: Vec<(String, egui::Rect)>,
}

/// What-if tries, their comparison, and the what-if being edited on the board.
struct WhatIfState {
    tries: Vec<WhatIfTry>,
    /// The player the tries' figures are seen from: the acting player of the last what-if run.
    tries_pov: Player,
    /// The two tries picked for "Compare side by side" (indices in `tries`).
    compare_pick: [usize; 2],
    /// Two tries side by side (shown instead of the board while open).
    compare: Option<crate::app::compare_view::CompareView>,
    /// The right-hand panel stays beside the comparison (hidden by default: the boards need the width).
    compare_side_panel: bool,
    /// The what-if being edited on the board (the board shows it instead of the frame).
    board_whatif: Option<whatif_board::BoardWhatIf>,
    /// Waiting for this turn's turn frame to start a what-if on it.
    pending_whatif_turn: Option<i32>,
    /// Instead of that what-if, run this recorded attack as the Layout lab ran it (by this
    /// attacker), then watch it.
    pending_attack: Option<(Player, terminal_core::layout::stress::AttackTry)>,
    /// Watch the next try that comes back (an attack opened from the Layout lab).
    watch_next_try: bool,
    /// Why the last click on the what-if's board was refused (cleared by one that works).
    last_refusal: Option<whatif_board::Refusal>,
}

impl Default for WhatIfState {
    fn default() -> Self {
        WhatIfState {
            tries: Vec::new(),
            tries_pov: Player::One,
            compare_pick: [0, 1],
            compare: None,
            compare_side_panel: false,
            board_whatif: None,
            pending_whatif_turn: None,
            pending_attack: None,
            watch_next_try: false,
            last_refusal: None,
        }
    }
}

/// Frame rates for the measurement hook.
#[derive(Default)]
struct FrameStats {
    /// UI frames drawn while a replay was shown, and frames received from the session.
    ui_frames: u64,
    frames_received: u64,
    opened_at: Option<Instant>,
    /// Seconds from the open request to the first frame.
    open_seconds: Option<f64>,
    every: Option<Instant>,
    base: (u64, u64),
}

// What is kept of the viewer is its prefs.
impl serde::Serialize for Viewer {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.prefs.serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for Viewer {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Viewer { prefs: ViewerPrefs::deserialize(d)?.settled(), ..Viewer::default() })
    }
}

impl Viewer {
    /// A viewer; `inline` runs the session synchronously (tests).
    pub fn new(inline: bool) -> Viewer {
        Viewer { session: SessionLink { inline, ..Default::default() }, ..Viewer::default() }
    }

    /// Forgets what was shown before showing `path`.
    fn reset_for(&mut self, path: &Path, ctx: Option<&egui::Context>) {
        self.ensure_backend(ctx);
        self.shown.path = Some(path.to_path_buf());
        self.shown.summary = None;
        self.shown.current = None;
        self.playback.playing = false;
        self.whatif.tries.clear();
        self.whatif.compare = None;
        self.whatif.board_whatif = None;
        self.board.recent_markers.clear();
        self.board.selected = None;
        // Frame indices start again: a threat of the last file must not match this one's.
        self.board.threat = None;
        self.session.pending_steps = 0;
        self.session.pending_appends = 0;
        self.stats.opened_at = Some(Instant::now());
        self.stats.open_seconds = None;
        self.shown.live = false;
        // Each replay opens with the whole board in view.
        self.board.view = BoardView::default();
    }

    /// Opens a replay file. What is shown stays until the new replay has loaded: a file that
    /// fails to open leaves it as it was.
    pub fn open(&mut self, path: &Path, ctx: Option<&egui::Context>) {
        self.ensure_backend(ctx);
        self.shown.opening = Some(path.to_path_buf());
        self.stats.opened_at = Some(Instant::now());
        self.stats.open_seconds = None;
        self.message = format!("Opening {}…", path.display());
        self.request(Request::LoadReplay(path.to_path_buf()));
    }

    /// The replay asked for has loaded: what was shown before goes.
    fn take_opened(&mut self) {
        if let Some(path) = self.shown.opening.take() {
            let opened_at = self.stats.opened_at;
            self.reset_for(&path, None);
            self.stats.opened_at = opened_at;
            self.shown.companions = companions::load(&path);
        }
    }

    /// The replay asked for did not load: say why, and what is still shown.
    fn open_failed(&mut self, error: &str) -> bool {
        let Some(path) = self.shown.opening.take() else { return false };
        let still = match &self.shown.path {
            Some(p) if self.shown.summary.is_some() => {
                format!("; still showing {}", crate::app::paths::display_name(p))
            }
            _ => String::new(),
        };
        self.message = format!("Could not open {}: {error}{still}", path.display());
        true
    }

    pub fn turn(&self) -> Option<i32> {
        self.shown.current.as_ref().map(|(t, _)| *t)
    }

    pub fn frame_in_turn(&self) -> Option<usize> {
        self.shown.current.as_ref().map(|(_, v)| v.frame_in_turn)
    }

    /// The try whose frames are shown (index in `tries`), if any.
    pub fn watching(&self) -> Option<usize> {
        self.shown.current.as_ref().and_then(|(_, v)| v.watching)
    }

    /// One frame of the viewer's UI (Debugger when `debugger`, else Replays); returns what the
    /// studio has to do (open a replay).
    pub fn show(&mut self, ui: &mut Ui, debugger: bool, icons: Option<&IconTextures>, dark: bool) -> Vec<Command> {
        let ctx = ui.ctx().clone();
        self.poll();
        self.tick(&ctx);
        self.tick_live(&ctx);
        self.measure(&ctx);
        if debugger {
            self.update_threat();
        }
        // Under eframe the window is cleared to the panel colour, so the panels need not paint
        // it again: each covered pixel costs under software rendering.
        let frame = egui::Frame::side_top_panel(ui.style());
        let frame = if self.panels_on_clear_color { frame.fill(Color32::TRANSPARENT) } else { frame };
        let mut actions = Vec::new();
        egui::Panel::top("viewer-header").frame(frame).show(ui, |ui| panels::header(ui, self));
        egui::Panel::bottom("viewer-timeline").frame(frame).show(ui, |ui| actions.extend(panels::timeline(ui, self)));
        actions.extend(self.side_panels(ui, frame, debugger));
        egui::CentralPanel::no_frame().show(ui, |ui| {
            if self.whatif.compare.is_some() {
                actions.extend(panels::compare_header(ui, self));
            }
            match self.whatif.compare.as_mut() {
                Some(c) => c.boards(ui, icons, dark, Some(self.prefs.overlays)),
                None => actions.extend(self.board(ui, icons, dark)),
            }
        });
        if !actions.is_empty() {
            // The panels drawn so far show the state before the actions: draw the next frame.
            ctx.request_repaint();
        }
        actions.into_iter().flat_map(|a| self.apply(a)).collect()
    }

    /// The left (overlays, filters) and right (inspector, log, what-if; plots) panels. The
    /// board stays the largest thing on screen: each side panel takes at most a share of the
    /// width (at 1000 px: 200 + 300, the board 500), and either can be hidden. The
    /// side-by-side comparison needs the width: no left panel (its overlay toggles are in the
    /// comparison's header), and the right one only on request.
    fn side_panels(&mut self, ui: &mut Ui, frame: egui::Frame, debugger: bool) -> Vec<ViewerAction> {
        let mut actions = Vec::new();
        let width = ui.available_width();
        let (left_max, right_max) = ((width * 0.2).max(140.0), (width * 0.3).max(180.0));
        let comparing = self.whatif.compare.is_some();
        let left_wanted = self.prefs.left_panel && !comparing;
        let mut left_open = left_wanted;
        egui::Panel::left("viewer-left")
            .frame(frame)
            .resizable(true)
            .default_size(230.0f32.min(left_max))
            .size_range(120.0..=left_max)
            .show_collapsible(ui, &mut left_open, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| actions.extend(panels::left(ui, self)));
            });
        let right_wanted = if comparing { self.whatif.compare_side_panel } else { self.prefs.right_panel };
        let mut right_open = right_wanted;
        egui::Panel::right("viewer-right")
            .frame(frame)
            .resizable(true)
            .default_size(380.0f32.min(right_max))
            .size_range(160.0..=right_max)
            .show_collapsible(ui, &mut right_open, |ui| {
                let bottom = ui.max_rect().bottom();
                egui::ScrollArea::vertical().show(ui, |ui| {
                    actions.extend(if debugger {
                        panels::debugger_side(ui, self, bottom)
                    } else {
                        replays_panel::replays_side(ui, self)
                    });
                });
            });
        // Dragged shut by the user.
        if left_open != left_wanted {
            actions.push(ViewerAction::ShowLeftPanel(left_open));
        }
        if right_open != right_wanted && !comparing {
            actions.push(ViewerAction::ShowRightPanel(right_open));
        }
        actions
    }

    /// Carries out an action of the panels, the board or the keys; returns what the studio has
    /// to do.
    pub fn apply(&mut self, action: ViewerAction) -> Vec<Command> {
        self.follow_live_after(&action);
        match action {
            ViewerAction::FollowLive(follow) => self.set_follow_live(follow),
            ViewerAction::SetLivePace(pace) => self.set_live_pace(pace),
            ViewerAction::FitBoard => self.board.view = BoardView::default(),
            ViewerAction::SetBoardView(view) => self.board.view = view,
            ViewerAction::Step { forward } => self.step(forward),
            ViewerAction::StepTurn { forward } => self.step_turn(forward),
            ViewerAction::Seek { turn, frame } => self.seek(turn, frame),
            ViewerAction::Home => self.home(),
            ViewerAction::End => self.end(),
            ViewerAction::TogglePlay => self.toggle_play(),
            ViewerAction::BackToReplay => self.back_to_replay(),
            ViewerAction::Select(id) => self.board.selected = id,
            ViewerAction::OpenReplayDialog => return vec![Command::File(FileCommand::Ask(FileAction::OpenReplay))],
            ViewerAction::EditWhatIfOnBoard => self.edit_whatif_on_board(),
            ViewerAction::RunWhatIf => self.run_whatif(),
            ViewerAction::WatchTry(index) => self.watch_try(index),
            ViewerAction::CompareTries(a, b) => self.compare_tries(a, b),
            ViewerAction::ShowPlanner(show) => self.planner.open = show,
            ViewerAction::PlanAttack => self.plan_attack(),
            ViewerAction::StopPlan => self.stop_plan(),
            ViewerAction::SetPlanSeat(p) => self.planner.seat = p,
            ViewerAction::SetPlanMp(mp) => self.planner.mp = mp,
            ViewerAction::SetPlanGroups(n) => self.planner.max_groups = n.clamp(1, 3),
            ViewerAction::HoverCandidate(i) => self.hover_candidate(i),
            ViewerAction::TryCandidate(i) => self.try_candidate(i),
            ViewerAction::TryFrontier(i) => self.try_frontier(i),
            other => self.apply_setting(other),
        }
        Vec::new()
    }

    /// Moving in a live match's history stops following it; End catches up.
    fn follow_live_after(&mut self, action: &ViewerAction) {
        if !self.shown.live && !self.shown.follow_live {
            return;
        }
        match action {
            ViewerAction::End => self.shown.follow_live = true,
            ViewerAction::Step { .. }
            | ViewerAction::StepTurn { .. }
            | ViewerAction::Seek { .. }
            | ViewerAction::Home
            | ViewerAction::TogglePlay => self.shown.follow_live = false,
            _ => {}
        }
    }

    /// The actions that set a preference or a field of the what-if and tries panels.
    fn apply_setting(&mut self, action: ViewerAction) {
        let w = &mut self.whatif;
        match action {
            ViewerAction::ShowLeftPanel(show) => self.prefs.left_panel = show,
            ViewerAction::ShowRightPanel(show) => self.prefs.right_panel = show,
            ViewerAction::ToggleSidePanels => {
                let show = !(self.prefs.left_panel || self.prefs.right_panel);
                (self.prefs.left_panel, self.prefs.right_panel) = (show, show);
            }
            ViewerAction::HideWinner(hide) => self.prefs.hide_winner = hide,
            ViewerAction::SetSpeed(speed) => self.prefs.speed = speed,
            ViewerAction::SetOverlays(o) => self.prefs.overlays = o,
            ViewerAction::ShowLogKind(kind, true) => {
                self.prefs.log_kinds.insert(kind);
            }
            ViewerAction::ShowLogKind(kind, false) => {
                self.prefs.log_kinds.remove(&kind);
            }
            ViewerAction::ShowLogPlayer(p, on) => self.prefs.log_players[p.index()] = on,
            ViewerAction::SetPlotMetric(m) => self.prefs.plot_metric = m,
            ViewerAction::SetComparePick(pick) => w.compare_pick = pick,
            ViewerAction::SetTriesPov(p) => w.tries_pov = p,
            ViewerAction::CloseCompare => w.compare = None,
            ViewerAction::ShowCompareSidePanel(show) => w.compare_side_panel = show,
            ViewerAction::LeaveWhatIf => w.board_whatif = None,
            other => self.apply_whatif_edit(other),
        }
    }

    /// The edits of the what-if on the board.
    fn apply_whatif_edit(&mut self, action: ViewerAction) {
        let Some(w) = self.whatif.board_whatif.as_mut() else {
            return;
        };
        match action {
            ViewerAction::SetWhatIfTool(tool) => w.tool = tool,
            ViewerAction::SetWhatIfPlayer(p) => w.player = p,
            ViewerAction::ReplaceCommands(p, on) => w.replace_commands[p.index()] = on,
            ViewerAction::ClearDeploys => w.deploys = Default::default(),
            ViewerAction::WhatIfClick { tile, undo } => match w.click(tile, undo) {
                Ok(()) => self.whatif.last_refusal = None,
                Err(e) => {
                    self.message = e.to_string();
                    self.whatif.last_refusal = Some(e);
                }
            },
            ViewerAction::WhatIfClickOff => {
                let e = whatif_board::Refusal::OffBoard;
                self.message = e.to_string();
                self.whatif.last_refusal = Some(e);
            }
            _ => {}
        }
    }

    /// Whether the result may be shown: not hidden, or the last turn is on screen.
    /// A live match being followed at a pace keeps its result for when the board gets there.
    pub fn winner_shown(&self) -> bool {
        if self.shown.follow_live && self.frames_queued() > 0 {
            return false;
        }
        let last = self.shown.summary.as_ref().and_then(|s| s.turns.last()).map(|t| t.turn);
        !self.prefs.hide_winner || (self.turn().is_some() && self.turn() == last && self.watching().is_none())
    }

    pub fn plot_metric(&self) -> PlotMetric {
        self.prefs.plot_metric
    }

    /// The ruleset of what is shown: the replay's, else the layout what-if's, else the default
    /// ruleset (parsed once: the board asks every frame).
    fn ruleset(&self) -> Option<std::sync::Arc<terminal_core::engine::Config>> {
        use std::sync::{Arc, OnceLock};
        static DEFAULT: OnceLock<Option<Arc<terminal_core::engine::Config>>> = OnceLock::new();
        if let Some(s) = &self.shown.summary {
            return Some(Arc::clone(&s.config));
        }
        if let Some(whatif_board::WhatIfBase::Layout(config)) = self.whatif.board_whatif.as_ref().map(|w| &w.base) {
            return Some(Arc::clone(config));
        }
        DEFAULT
            .get_or_init(|| {
                terminal_core::engine::presets::preset(terminal_core::engine::presets::DEFAULT_PRESET).map(Arc::new)
            })
            .clone()
    }
}
