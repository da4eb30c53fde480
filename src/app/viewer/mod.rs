//! The Replays and Debugger views: a replay on the board frame by frame (timeline, playback,
//! keyboard), the debugger overlays (paths, moved-from tiles, attacks, shields, fading
//! markers), the unit inspector, the frame's event log, plots over turns, the algos' logs and
//! what-if tries. The simulation runs in `terminal_core::session` (a worker thread, or inline in tests).
//!
//! One concern per file: the session behind the viewer (`backend`), playback and navigation
//! (`playback`), the frame as text (`inspect`), the board (`board_draw`), what-if tries
//! (`whatif`, the edited what-if in `whatif_board`) and the side panels (`panels`).

mod backend;
mod board_draw;
pub mod frame_draw;
mod inspect;
mod live;
pub mod panels;
mod playback;
mod played_draw;
mod prefs;
mod threat;
mod whatif;
pub mod whatif_board;
pub mod whatif_budget;

pub use inspect::{EventKind, LogEntry, unit_name};
pub use playback::{BASE_FPS, KEYS, SPEEDS};
pub use played_draw::LEGEND as PLAYED_LEGEND;
pub use prefs::ViewerPrefs;

use super::board::{self, BoardView};
use super::command::Command;
use super::icons::IconTextures;
use backend::Backend;
use egui::{Color32, Ui};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;
use terminal_core::engine::geometry::{Player, Tile};
use terminal_core::session::FrameView;
use terminal_core::session::Request;
use terminal_core::session::companions::{self, Companions};
use terminal_core::session::debug::Marker;
use terminal_core::session::summary::ReplaySummary;
use terminal_core::session::whatif::WhatIfTry;

/// Frames a death/breach/self-destruct marker stays visible.
pub const MARKER_FRAMES: usize = 4;

/// Which debugger overlays are drawn.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct DebugOverlays {
    pub paths: bool,
    pub moved_from: bool,
    pub attacks: bool,
    pub shields: bool,
    pub markers: bool,
    pub annotations: bool,
}

impl Default for DebugOverlays {
    fn default() -> Self {
        DebugOverlays { paths: true, moved_from: true, attacks: true, shields: true, markers: true, annotations: true }
    }
}

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
    /// The metric plotted over turns (index in the plot's metrics).
    SetPlotMetric(usize),
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
    /// Show a live match's newest frame as it arrives (or stay where the view is).
    FollowLive(bool),
    /// Zoom and pan back to the whole board.
    FitBoard,
    /// Hide the result until the last turn (a studio setting).
    HideWinner(bool),
    /// Show (or hide) the left side panel (overlays, filters).
    ShowLeftPanel(bool),
    /// Show (or hide) the right side panel (inspector, event log, what-if; plots).
    ShowRightPanel(bool),
    /// Hide both side panels, or show both again.
    ToggleSidePanels,
}

/// The viewer. What it keeps between runs is [`ViewerPrefs`]; the rest is runtime state.
pub struct Viewer {
    backend: Option<Backend>,
    inline: bool,
    pub path: Option<PathBuf>,
    pub summary: Option<ReplaySummary>,
    /// The frame shown, with its turn.
    pub current: Option<(i32, FrameView)>,
    pub playing: bool,
    pub speed: f32,
    play_accum: f64,
    last_tick: Option<Instant>,
    /// Steps sent and not yet answered.
    pending_steps: usize,
    pub overlays: DebugOverlays,
    pub selected: Option<u32>,
    pub hovered: Option<Tile>,
    /// The threat along the hovered edge tile's path (Debugger).
    threat: Option<threat::HoverThreat>,
    pub tries: Vec<WhatIfTry>,
    /// The player the tries' figures are seen from: the acting player of the last what-if run.
    pub tries_pov: Player,
    /// The two tries picked for "Compare side by side" (indices in `tries`).
    pub compare_pick: [usize; 2],
    /// Two tries side by side (shown instead of the board while open).
    pub compare: Option<crate::app::compare_view::CompareView>,
    /// The right-hand panel stays beside the comparison (hidden by default: the boards need the width).
    pub compare_side_panel: bool,
    /// The what-if being edited on the board (the board shows it instead of the frame).
    pub board_whatif: Option<whatif_board::BoardWhatIf>,
    /// Waiting for this turn's turn frame to start a what-if on it.
    pending_whatif_turn: Option<i32>,
    pub companions: Companions,
    pub message: String,
    /// Markers of recent frames: (frame index, markers), for fading.
    recent_markers: Vec<(usize, Vec<Marker>)>,
    pub log_filter: HashSet<EventKind>,
    pub log_players: [bool; 2],
    pub board_view: BoardView,
    pub geometry: Option<board::BoardGeometry>,
    /// UI frames drawn while a replay was shown, and frames received from the session.
    pub ui_frames: u64,
    pub frames_received: u64,
    pub opened_at: Option<Instant>,
    /// Seconds from the open request to the first frame.
    pub open_seconds: Option<f64>,
    plot_metric: usize,
    /// Where the measurement hook starts: (turn, frame).
    autoplay_at: Option<(i32, usize)>,
    stats_every: Option<Instant>,
    stats_base: (u64, u64),
    /// The window is cleared to the panel colour (eframe), so panels skip their fill.
    pub panels_on_clear_color: bool,
    /// A live match is being shown (its frames still arrive).
    pub live: bool,
    /// The board shows the live match's newest frame as it arrives.
    pub follow_live: bool,
    /// What the empty board says (default: how to open a replay).
    pub empty_hint: Option<String>,
    /// The result stays hidden until the last turn is shown (the studio's setting).
    pub hide_winner: bool,
    /// The figures written on the board in the last frame, and where.
    pub board_labels: Vec<(String, egui::Rect)>,
    /// The side panels shown (hidden ones leave the width to the board).
    pub left_panel: bool,
    pub right_panel: bool,
}

impl Default for Viewer {
    fn default() -> Self {
        Viewer::new(false)
    }
}

impl Viewer {
    /// A viewer; `inline` runs the session synchronously (tests).
    pub fn new(inline: bool) -> Viewer {
        Viewer {
            backend: None,
            inline,
            path: None,
            summary: None,
            current: None,
            playing: false,
            speed: 1.0,
            play_accum: 0.0,
            last_tick: None,
            pending_steps: 0,
            overlays: DebugOverlays::default(),
            selected: None,
            hovered: None,
            threat: None,
            tries: Vec::new(),
            tries_pov: Player::One,
            compare_pick: [0, 1],
            compare: None,
            compare_side_panel: false,
            board_whatif: None,
            pending_whatif_turn: None,
            companions: Companions::default(),
            message: String::new(),
            recent_markers: Vec::new(),
            log_filter: EventKind::ALL.into_iter().collect(),
            log_players: [true, true],
            board_view: BoardView::default(),
            geometry: None,
            ui_frames: 0,
            frames_received: 0,
            opened_at: None,
            open_seconds: None,
            plot_metric: 0,
            autoplay_at: None,
            stats_every: None,
            stats_base: (0, 0),
            panels_on_clear_color: false,
            live: false,
            follow_live: false,
            empty_hint: None,
            hide_winner: false,
            board_labels: Vec::new(),
            left_panel: true,
            right_panel: true,
        }
    }

    /// Forgets what was shown before showing `path`.
    fn reset_for(&mut self, path: &Path, ctx: Option<&egui::Context>) {
        self.ensure_backend(ctx);
        self.path = Some(path.to_path_buf());
        self.summary = None;
        self.current = None;
        self.playing = false;
        self.tries.clear();
        self.compare = None;
        self.board_whatif = None;
        self.recent_markers.clear();
        self.selected = None;
        // Frame indices start again: a threat of the last file must not match this one's.
        self.threat = None;
        self.pending_steps = 0;
        self.opened_at = Some(Instant::now());
        self.open_seconds = None;
        self.live = false;
        // Each replay opens with the whole board in view.
        self.board_view = BoardView::default();
    }

    /// Opens a replay file.
    pub fn open(&mut self, path: &Path, ctx: Option<&egui::Context>) {
        self.reset_for(path, ctx);
        self.companions = companions::load(path);
        self.message = format!("Opening {}…", path.display());
        self.request(Request::LoadReplay(path.to_path_buf()));
    }

    pub fn turn(&self) -> Option<i32> {
        self.current.as_ref().map(|(t, _)| *t)
    }

    pub fn frame_in_turn(&self) -> Option<usize> {
        self.current.as_ref().map(|(_, v)| v.frame_in_turn)
    }

    /// The try whose frames are shown (index in `tries`), if any.
    pub fn watching(&self) -> Option<usize> {
        self.current.as_ref().and_then(|(_, v)| v.watching)
    }

    /// One frame of the viewer's UI (Debugger when `debugger`, else Replays); returns what the
    /// studio has to do (open a replay).
    pub fn show(&mut self, ui: &mut Ui, debugger: bool, icons: Option<&IconTextures>, dark: bool) -> Vec<Command> {
        let ctx = ui.ctx().clone();
        self.poll();
        let mut commands = Vec::new();
        for action in self.read_keys(&ctx) {
            commands.extend(self.apply(action));
        }
        self.tick(&ctx);
        self.measure(&ctx);
        if debugger {
            self.update_threat();
        }
        let mut actions = Vec::new();
        // Under eframe the window is cleared to the panel colour, so the panels need not paint
        // it again: each covered pixel costs under software rendering.
        let frame = egui::Frame::side_top_panel(ui.style());
        let frame = if self.panels_on_clear_color { frame.fill(Color32::TRANSPARENT) } else { frame };
        egui::Panel::top("viewer-header").frame(frame).show(ui, |ui| panels::header(ui, self));
        egui::Panel::bottom("viewer-timeline").frame(frame).show(ui, |ui| actions.extend(panels::timeline(ui, self)));
        // The board stays the largest thing on screen: each side panel takes at most a share
        // of the width (at 1000 px: 200 + 300, the board 500), and either can be hidden. The
        // side-by-side comparison needs the width: no left panel (its overlay toggles are in
        // the comparison's header), and the right one only on request.
        let width = ui.available_width();
        let (left_max, right_max) = ((width * 0.2).max(140.0), (width * 0.3).max(180.0));
        let left_wanted = self.left_panel && self.compare.is_none();
        let mut left_open = left_wanted;
        egui::Panel::left("viewer-left")
            .frame(frame)
            .resizable(true)
            .default_size(230.0f32.min(left_max))
            .size_range(120.0..=left_max)
            .show_collapsible(ui, &mut left_open, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| actions.extend(panels::left(ui, self)));
            });
        let right_wanted = if self.compare.is_none() { self.right_panel } else { self.compare_side_panel };
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
                        panels::replays_side(ui, self)
                    });
                });
            });
        // Dragged shut by the user.
        if left_open != left_wanted {
            actions.push(ViewerAction::ShowLeftPanel(left_open));
        }
        if right_open != right_wanted && self.compare.is_none() {
            actions.push(ViewerAction::ShowRightPanel(right_open));
        }
        egui::CentralPanel::no_frame().show(ui, |ui| {
            if self.compare.is_some() {
                actions.extend(panels::compare_header(ui, self));
            }
            match self.compare.as_mut() {
                Some(c) => c.boards(ui, icons, dark, Some(self.overlays)),
                None => actions.extend(self.board(ui, icons, dark)),
            }
        });
        if !actions.is_empty() {
            // The panels drawn so far show the state before the actions: draw the next frame.
            ctx.request_repaint();
        }
        for action in actions {
            commands.extend(self.apply(action));
        }
        commands
    }

    /// Carries out an action of the panels, the board or the keys; returns what the studio has
    /// to do.
    pub fn apply(&mut self, action: ViewerAction) -> Vec<Command> {
        // Moving in a live match's history stops following it; End catches up.
        if self.live {
            match action {
                ViewerAction::End => self.follow_live = true,
                ViewerAction::Step { .. }
                | ViewerAction::StepTurn { .. }
                | ViewerAction::Seek { .. }
                | ViewerAction::Home
                | ViewerAction::TogglePlay => self.follow_live = false,
                _ => {}
            }
        }
        match action {
            ViewerAction::FollowLive(follow) => self.set_follow_live(follow),
            ViewerAction::FitBoard => self.board_view = BoardView::default(),
            ViewerAction::ShowLeftPanel(show) => self.left_panel = show,
            ViewerAction::ShowRightPanel(show) => self.right_panel = show,
            ViewerAction::ToggleSidePanels => {
                let show = !(self.left_panel || self.right_panel);
                (self.left_panel, self.right_panel) = (show, show);
            }
            ViewerAction::HideWinner(hide) => {
                self.hide_winner = hide;
                return vec![Command::SetHideWinner(hide)];
            }
            ViewerAction::Step { forward } => self.step(forward),
            ViewerAction::StepTurn { forward } => self.step_turn(forward),
            ViewerAction::Seek { turn, frame } => self.seek(turn, frame),
            ViewerAction::Home => self.home(),
            ViewerAction::End => self.end(),
            ViewerAction::TogglePlay => self.toggle_play(),
            ViewerAction::SetSpeed(speed) => self.speed = speed,
            ViewerAction::BackToReplay => self.back_to_replay(),
            ViewerAction::SetOverlays(o) => self.overlays = o,
            ViewerAction::ShowLogKind(kind, true) => {
                self.log_filter.insert(kind);
            }
            ViewerAction::ShowLogKind(kind, false) => {
                self.log_filter.remove(&kind);
            }
            ViewerAction::ShowLogPlayer(p, on) => self.log_players[p.index()] = on,
            ViewerAction::SetPlotMetric(m) => self.plot_metric = m,
            ViewerAction::Select(id) => self.selected = id,
            ViewerAction::OpenReplayDialog => return vec![Command::OpenReplayDialog],
            ViewerAction::EditWhatIfOnBoard => self.edit_whatif_on_board(),
            ViewerAction::SetWhatIfTool(tool) => {
                if let Some(w) = self.board_whatif.as_mut() {
                    w.tool = tool;
                }
            }
            ViewerAction::SetWhatIfPlayer(p) => {
                if let Some(w) = self.board_whatif.as_mut() {
                    w.player = p;
                }
            }
            ViewerAction::ReplaceCommands(p, on) => {
                if let Some(w) = self.board_whatif.as_mut() {
                    w.replace_commands[p.index()] = on;
                }
            }
            ViewerAction::ClearDeploys => {
                if let Some(w) = self.board_whatif.as_mut() {
                    w.deploys = Default::default();
                }
            }
            ViewerAction::WhatIfClick { tile, undo } => {
                if let Some(w) = self.board_whatif.as_mut()
                    && let Err(e) = w.click(tile, undo)
                {
                    self.message = e;
                }
            }
            ViewerAction::LeaveWhatIf => self.board_whatif = None,
            ViewerAction::RunWhatIf => self.run_whatif(),
            ViewerAction::WatchTry(index) => self.watch_try(index),
            ViewerAction::SetComparePick(pick) => self.compare_pick = pick,
            ViewerAction::SetTriesPov(p) => self.tries_pov = p,
            ViewerAction::CompareTries(a, b) => self.compare_tries(a, b),
            ViewerAction::CloseCompare => self.compare = None,
            ViewerAction::ShowCompareSidePanel(show) => self.compare_side_panel = show,
        }
        Vec::new()
    }

    /// Whether the result may be shown: not hidden, or the last turn is on screen.
    pub fn winner_shown(&self) -> bool {
        let last = self.summary.as_ref().and_then(|s| s.turns.last()).map(|t| t.turn);
        !self.hide_winner || (self.turn().is_some() && self.turn() == last && self.watching().is_none())
    }

    pub fn plot_metric(&self) -> usize {
        self.plot_metric
    }

    /// The ruleset of what is shown: the replay's, else the layout what-if's, else the default
    /// ruleset (parsed once: the board asks every frame).
    fn ruleset(&self) -> Option<std::sync::Arc<terminal_core::engine::Config>> {
        use std::sync::{Arc, OnceLock};
        static DEFAULT: OnceLock<Option<Arc<terminal_core::engine::Config>>> = OnceLock::new();
        if let Some(s) = &self.summary {
            return Some(Arc::clone(&s.config));
        }
        if let Some(whatif_board::WhatIfBase::Layout(config)) = self.board_whatif.as_ref().map(|w| &w.base) {
            return Some(Arc::clone(config));
        }
        DEFAULT
            .get_or_init(|| {
                terminal_core::engine::presets::preset(terminal_core::engine::presets::DEFAULT_PRESET).map(Arc::new)
            })
            .clone()
    }
}
