//! The Replays and Debugger views: a replay on the board frame by frame (timeline, playback,
//! keyboard), the debugger overlays (paths, moved-from tiles, attacks, shields, fading
//! markers), the unit inspector, the frame's event log, plots over turns, the algos' logs and
//! what-if tries. The simulation runs in `terminal_core::session` (a worker thread, or inline in tests).

pub mod panels;
pub mod whatif_board;

use super::board::{self, BoardUnit, BoardView, Palette};
use super::icons::{Icon, IconTextures};
use egui::{Color32, Key, Modifiers, Stroke, Ui, vec2};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;
use terminal_core::engine::Player;
use terminal_core::engine::config::{REMOVE, UPGRADE};
use terminal_core::engine::geometry::Tile;
use terminal_core::layout::Kind;
use terminal_core::session::companions::{self, Companions};
use terminal_core::session::debug::{Marker, PathEnd};
use terminal_core::session::summary::ReplaySummary;
use terminal_core::session::whatif::WhatIfTry;
use terminal_core::session::{Event, FrameView, Request, Session, SessionHandle};

/// Playback speeds offered.
pub const SPEEDS: [f32; 7] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0];
/// Frames per second at 1×.
pub const BASE_FPS: f64 = 8.0;
/// Frames a death/breach/self-destruct marker stays visible.
pub const MARKER_FRAMES: usize = 4;

/// Which debugger overlays are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
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

/// Event types of the event log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    Spawn,
    Move,
    Attack,
    Damage,
    Shield,
    Death,
    Breach,
    SelfDestruct,
}

impl EventKind {
    pub const ALL: [EventKind; 8] = [
        EventKind::Spawn,
        EventKind::Move,
        EventKind::Attack,
        EventKind::Damage,
        EventKind::Shield,
        EventKind::Death,
        EventKind::Breach,
        EventKind::SelfDestruct,
    ];

    pub fn label(self) -> &'static str {
        match self {
            EventKind::Spawn => "spawn",
            EventKind::Move => "move",
            EventKind::Attack => "attack",
            EventKind::Damage => "damage",
            EventKind::Shield => "shield",
            EventKind::Death => "death",
            EventKind::Breach => "breach",
            EventKind::SelfDestruct => "self-destruct",
        }
    }
}

/// One line of the event log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    pub kind: EventKind,
    pub owner: Player,
    pub text: String,
}

enum Backend {
    Thread(SessionHandle),
    Inline(Box<Session>),
}

/// The viewer: runtime state only (nothing here is persisted).
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
    pub tries: Vec<WhatIfTry>,
    /// The two tries picked for "Compare side by side" (indices in `tries`).
    pub compare_pick: [usize; 2],
    /// Two tries side by side (shown instead of the board while open).
    pub compare: Option<crate::app::compare_view::CompareView>,
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
            tries: Vec::new(),
            compare_pick: [0, 1],
            compare: None,
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
        }
    }

    fn ensure_backend(&mut self, ctx: Option<&egui::Context>) {
        if self.backend.is_some() {
            return;
        }
        if self.inline || ctx.is_none() {
            self.backend = Some(Backend::Inline(Box::new(Session::inline())));
            return;
        }
        let ctx = ctx.cloned().expect("checked");
        match SessionHandle::spawn(Box::new(move || ctx.request_repaint())) {
            Ok(h) => self.backend = Some(Backend::Thread(h)),
            Err(e) => {
                self.message = format!("could not start the simulation thread ({e}); running inline");
                self.backend = Some(Backend::Inline(Box::new(Session::inline())));
            }
        }
    }

    /// Sends a request; inline sessions answer at once.
    pub fn request(&mut self, r: Request) {
        let events = match self.backend.as_mut() {
            None => return,
            Some(Backend::Inline(s)) => s.request(r),
            Some(Backend::Thread(h)) => {
                if h.send(r).is_err() {
                    self.message = "the simulation is busy".into();
                }
                Vec::new()
            }
        };
        for e in events {
            self.handle(e);
        }
    }

    /// Opens a replay file.
    pub fn open(&mut self, path: &Path, ctx: Option<&egui::Context>) {
        self.ensure_backend(ctx);
        self.path = Some(path.to_path_buf());
        self.summary = None;
        self.current = None;
        self.playing = false;
        self.tries.clear();
        self.compare = None;
        self.recent_markers.clear();
        self.selected = None;
        self.pending_steps = 0;
        self.companions = companions::load(path);
        self.opened_at = Some(Instant::now());
        self.open_seconds = None;
        self.message = format!("Opening {}…", path.display());
        self.request(Request::LoadReplay(path.to_path_buf()));
    }

    /// Reads every waiting event (thread backend).
    pub fn poll(&mut self) {
        let events = match &self.backend {
            Some(Backend::Thread(h)) => h.drain(),
            _ => Vec::new(),
        };
        for e in events {
            self.handle(e);
        }
    }

    fn handle(&mut self, e: Event) {
        match e {
            Event::ReplayLoaded(s) => {
                self.message = format!(
                    "{}: {} vs {}, {} turns, {} frames{}",
                    s.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
                    s.names[0],
                    s.names[1],
                    s.turns.len(),
                    s.frames,
                    if s.legacy { " (legacy format: replay events only)" } else { "" }
                );
                self.summary = Some(*s);
                // Measurement hook: TERMINAL_STUDIO_AUTOPLAY="SPEED[@TURN[:FRAME]]" plays at once (SPEED 0: holds the frame) and
                // prints frame rates to stderr every second.
                if let Ok(spec) = std::env::var("TERMINAL_STUDIO_AUTOPLAY") {
                    let (speed, turn) = spec.split_once('@').unwrap_or((&spec, ""));
                    self.speed = speed.parse().unwrap_or(16.0);
                    let (turn, frame) = turn.split_once(':').unwrap_or((turn, "0"));
                    self.autoplay_at = turn.parse().ok().map(|t| (t, frame.parse().unwrap_or(0)));
                    self.stats_every = Some(Instant::now());
                }
            }
            Event::Frame { turn, view, .. } => {
                self.pending_steps = self.pending_steps.saturating_sub(1);
                self.frames_received += 1;
                if self.open_seconds.is_none()
                    && let Some(t) = self.opened_at
                {
                    self.open_seconds = Some(t.elapsed().as_secs_f64());
                }
                let index = view.index;
                let contiguous =
                    self.current.as_ref().is_some_and(|(_, v)| v.index + 1 == index && v.watching == view.watching);
                if !contiguous {
                    self.recent_markers.clear();
                }
                self.recent_markers.retain(|(i, _)| *i + MARKER_FRAMES > index && *i < index);
                if !view.debug.markers.is_empty() {
                    self.recent_markers.push((index, view.debug.markers.clone()));
                }
                let last = match view.watching {
                    Some(_) => view.frame_in_turn + 1 >= view.frames_in_turn,
                    None => self.summary.as_ref().is_some_and(|s| index + 1 >= s.frames),
                };
                if last {
                    self.playing = false;
                }
                self.current = Some((turn, *view));
                if self.pending_whatif_turn == Some(turn) && self.frame_in_turn() == Some(0) {
                    self.pending_whatif_turn = None;
                    self.start_replay_whatif();
                }
            }
            Event::WhatIfResult(t) => {
                self.message = format!(
                    "Try {} ({}) done: {} action frames",
                    self.tries.len() + 1,
                    t.label,
                    t.summary.action_frames
                );
                self.tries.push(*t);
                // The newest try is B of the next comparison.
                self.compare_pick[1] = self.tries.len() - 1;
            }
            Event::Progress { .. } => {}
            Event::Error(e) => {
                self.pending_steps = 0;
                self.message = format!("Error: {e}");
            }
        }
    }

    pub fn turn(&self) -> Option<i32> {
        self.current.as_ref().map(|(t, _)| *t)
    }

    pub fn frame_in_turn(&self) -> Option<usize> {
        self.current.as_ref().map(|(_, v)| v.frame_in_turn)
    }

    /// "Turn T, frame F/N" as shown in the timeline.
    pub fn position_label(&self) -> String {
        match &self.current {
            Some((t, v)) => format!("Turn {t} · frame {}/{}", v.frame_in_turn, v.frames_in_turn.saturating_sub(1)),
            None => "No replay".into(),
        }
    }

    /// Units listed in the shown frame (both players, real unit types).
    pub fn unit_count(&self) -> usize {
        self.current.as_ref().map_or(0, |(_, v)| Player::both().iter().map(|p| v.frame.real_units(*p).count()).sum())
    }

    pub fn mobile_count(&self) -> usize {
        self.current.as_ref().map_or(0, |(_, v)| {
            Player::both().iter().map(|p| v.frame.real_units(*p).filter(|(t, _)| *t >= 3).count()).sum()
        })
    }

    /// Shows frame `frame` of `turn`: within the watched try if it is of that turn, else of
    /// the replay (which ends watching).
    pub fn seek(&mut self, turn: i32, frame: usize) {
        match self.watching() {
            Some(index) if self.tries.get(index).is_some_and(|t| t.turn == turn) => {
                self.request(Request::WatchTry { index, frame })
            }
            _ => self.request(Request::Seek { turn, frame }),
        }
    }

    /// The try whose frames are shown (index in `tries`), if any.
    pub fn watching(&self) -> Option<usize> {
        self.current.as_ref().and_then(|(_, v)| v.watching)
    }

    /// "What-if try N: <label>", the on-screen title of a watched try.
    pub fn try_title(&self, index: usize) -> String {
        let label = self.tries.get(index).map_or("", |t| t.label.as_str());
        format!("What-if try {}: {label}", index + 1)
    }

    /// Plays the try at `index` on the board from its deploy frame, with the normal timeline.
    pub fn watch_try(&mut self, index: usize) {
        self.playing = false;
        self.board_whatif = None;
        self.compare = None;
        self.request(Request::WatchTry { index, frame: 0 });
    }

    /// Leaves the watched try for the replay's turn frame of the same turn.
    pub fn back_to_replay(&mut self) {
        let Some(turn) = self.turn() else { return };
        self.playing = false;
        self.request(Request::Seek { turn, frame: 0 });
    }

    /// Opens two tries side by side (synchronised by frame, differing tiles highlighted).
    pub fn compare_tries(&mut self, a: usize, b: usize) {
        let (Some(ta), Some(tb)) = (self.tries.get(a), self.tries.get(b)) else {
            self.message = "pick two tries to compare".into();
            return;
        };
        let compare = crate::app::compare_view::CompareView::new(terminal_core::side_by_side::SideBySide::from_tries(
            (ta, self.try_title(a)),
            (tb, self.try_title(b)),
        ));
        self.playing = false;
        self.compare = Some(compare);
    }

    pub fn step(&mut self, forward: bool) {
        self.pending_steps += 1;
        self.request(if forward { Request::Step } else { Request::StepBack });
    }

    /// Moves to the next (or previous) turn's turn frame.
    pub fn step_turn(&mut self, forward: bool) {
        let (Some(s), Some(t)) = (&self.summary, self.turn()) else { return };
        let pos = s.turns.iter().position(|x| x.turn == t).unwrap_or(0);
        let next = if forward { (pos + 1).min(s.turns.len() - 1) } else { pos.saturating_sub(1) };
        let turn = s.turns[next].turn;
        self.seek(turn, 0);
    }

    pub fn home(&mut self) {
        if let Some(index) = self.watching() {
            return self.request(Request::WatchTry { index, frame: 0 });
        }
        if let Some(t) = self.summary.as_ref().and_then(|s| s.turns.first()).map(|t| t.turn) {
            self.seek(t, 0);
        }
    }

    pub fn end(&mut self) {
        if let Some(index) = self.watching() {
            return self.request(Request::WatchTry { index, frame: usize::MAX });
        }
        if let Some(t) = self.summary.as_ref().and_then(|s| s.turns.last()).map(|t| t.turn) {
            self.seek(t, usize::MAX);
        }
    }

    /// Reads the viewer's keys: arrows = frame, Ctrl+arrows = turn, Space, Home/End.
    pub fn read_keys(&mut self, ctx: &egui::Context) {
        let nothing_shown = self.summary.is_none() && self.watching().is_none();
        if ctx.text_edit_focused() || nothing_shown || self.compare.is_some() {
            return;
        }
        type Action = fn(&mut Viewer);
        const KEYS: [(Modifiers, Key, Action); 7] = [
            (Modifiers::COMMAND, Key::ArrowRight, |v| v.step_turn(true)),
            (Modifiers::COMMAND, Key::ArrowLeft, |v| v.step_turn(false)),
            (Modifiers::NONE, Key::ArrowRight, |v| v.step(true)),
            (Modifiers::NONE, Key::ArrowLeft, |v| v.step(false)),
            (Modifiers::NONE, Key::Space, Viewer::toggle_play),
            (Modifiers::NONE, Key::Home, Viewer::home),
            (Modifiers::NONE, Key::End, Viewer::end),
        ];
        // Consumed in this order (Ctrl+arrow before the bare arrow), applied after the input lock.
        let pressed: Vec<Action> =
            ctx.input_mut(|i| KEYS.iter().filter(|(m, k, _)| i.consume_key(*m, *k)).map(|(_, _, a)| *a).collect());
        for action in pressed {
            action(self);
        }
    }

    pub fn toggle_play(&mut self) {
        self.playing = !self.playing;
        self.last_tick = None;
        self.play_accum = 0.0;
    }

    /// Advances playback by the time since the last call.
    fn tick(&mut self, ctx: &egui::Context) {
        if !self.playing {
            self.last_tick = None;
            return;
        }
        let now = Instant::now();
        let dt = self.last_tick.map_or(0.0, |t| now.duration_since(t).as_secs_f64()).min(0.25);
        self.last_tick = Some(now);
        self.play_accum += dt * BASE_FPS * self.speed as f64;
        while self.play_accum >= 1.0 && self.pending_steps < 48 {
            self.play_accum -= 1.0;
            self.step(true);
        }
        self.play_accum = self.play_accum.min(48.0);
        ctx.request_repaint();
    }

    /// The event log of the shown frame, filtered.
    pub fn event_log(&self) -> Vec<LogEntry> {
        let Some((_, v)) = &self.current else { return Vec::new() };
        let e = &v.frame.events;
        let mut out = Vec::new();
        let name = |t: u8| unit_name(t as usize);
        for s in &e.spawn {
            // Types 6 and 7 are the removal mark and the upgrade echoed as spawns (REPLAY.md §6).
            let text = match s.unit_type {
                REMOVE_TYPE => format!("marks {},{} for removal (#{})", s.tile.x, s.tile.y, s.id),
                UPGRADE_TYPE => format!("upgrades {},{} (new id #{})", s.tile.x, s.tile.y, s.id),
                t => format!("{} #{} at {},{}", name(t), s.id, s.tile.x, s.tile.y),
            };
            out.push((EventKind::Spawn, s.owner, text));
        }
        for m in &e.moves {
            out.push((
                EventKind::Move,
                m.owner,
                format!("{} #{} {},{} → {},{}", name(m.unit_type), m.id, m.from.x, m.from.y, m.to.x, m.to.y),
            ));
        }
        for a in &e.attack {
            out.push((
                EventKind::Attack,
                a.owner,
                format!("{} #{} hits #{} for {:.1}", name(a.attacker_type), a.attacker_id, a.target_id, a.damage),
            ));
        }
        for d in &e.damage {
            out.push((EventKind::Damage, d.owner, format!("{} #{} takes {:.1}", name(d.unit_type), d.id, d.damage)));
        }
        for s in &e.shield {
            out.push((
                EventKind::Shield,
                s.owner,
                format!("support #{} shields #{} +{:.1}", s.support_id, s.target_id, s.amount),
            ));
        }
        for d in &e.death {
            out.push((
                EventKind::Death,
                d.owner,
                format!(
                    "{} #{} {} at {},{}",
                    name(d.unit_type),
                    d.id,
                    if d.removed { "removed" } else { "dies" },
                    d.tile.x,
                    d.tile.y
                ),
            ));
        }
        for b in &e.breach {
            out.push((
                EventKind::Breach,
                b.owner,
                format!("#{} breaches at {},{} ({:.0})", b.id, b.tile.x, b.tile.y, b.damage),
            ));
        }
        for s in &e.self_destruct {
            out.push((
                EventKind::SelfDestruct,
                s.owner,
                format!("#{} self-destructs at {},{} ({:.1})", s.id, s.tile.x, s.tile.y, s.damage),
            ));
        }
        out.into_iter()
            .filter(|(k, p, _)| self.log_filter.contains(k) && self.log_players[p.index()])
            .map(|(kind, owner, text)| LogEntry { kind, owner, text })
            .collect()
    }

    /// The inspector's text for the selected unit (or the hovered tile's units).
    pub fn inspector_text(&self) -> String {
        let Some((_, v)) = &self.current else { return String::new() };
        let early_2020 = self.summary.as_ref().is_some_and(|s| s.early_2020);
        let mut out = String::new();
        let mobile = self
            .selected
            .and_then(|id| v.debug.mobiles.iter().find(|m| m.id == id))
            .or_else(|| self.hovered.and_then(|t| v.debug.mobiles.iter().find(|m| m.tile == t)));
        if let Some(m) = mobile {
            out.push_str(&format!(
                "#{} {} (player {})\ntile {},{}\nhealth {:.1} (shield {:.1})\nsteps {}\n",
                m.id,
                unit_name(m.unit_type as usize),
                m.owner.number(),
                m.tile.x,
                m.tile.y,
                m.health,
                m.shield,
                m.steps
            ));
            match &m.target {
                Some(t) => out.push_str(&format!(
                    "target #{} at {},{} — decided by {}\n",
                    t.target_id,
                    t.target_tile.x,
                    t.target_tile.y,
                    t.criterion.label_for(early_2020)
                )),
                None => out.push_str("no target this frame\n"),
            }
            let end = match m.path_end {
                PathEnd::Breach => "breach",
                PathEnd::SelfDestruct => "self-destruct",
            };
            out.push_str(&format!("path: {} tiles to {}\n", m.path.len().saturating_sub(1), end));
            for s in &m.shields {
                out.push_str(&format!(
                    "shielded +{:.1} by support #{} at {},{}\n",
                    s.amount, s.support_id, s.support_tile.x, s.support_tile.y
                ));
            }
            return out;
        }
        let tile = self.hovered.or_else(|| {
            self.selected.and_then(|id| {
                Player::both()
                    .iter()
                    .find_map(|p| v.frame.real_units(*p).find(|(_, u)| u.id == id).map(|(_, u)| u.tile))
            })
        });
        let Some(tile) = tile else { return out };
        for p in Player::both() {
            let upgraded: HashSet<u32> =
                v.frame.units_of(p).get(UPGRADE).map(|l| l.iter().map(|u| u.id).collect()).unwrap_or_default();
            let removing: HashSet<u32> =
                v.frame.units_of(p).get(REMOVE).map(|l| l.iter().map(|u| u.id).collect()).unwrap_or_default();
            for (t, u) in v.frame.real_units(p).filter(|(_, u)| u.tile == tile) {
                out.push_str(&format!(
                    "#{} {}{} (player {})\ntile {},{}\nhealth {:.1}{}\n",
                    u.id,
                    if upgraded.contains(&u.id) { "upgraded " } else { "" },
                    unit_name(t),
                    p.number(),
                    u.tile.x,
                    u.tile.y,
                    u.health,
                    if removing.contains(&u.id) { "\nmarked for removal" } else { "" }
                ));
            }
        }
        out
    }

    /// Draws the board with the frame's units and the overlays.
    fn board(&mut self, ui: &mut Ui, icons: Option<&IconTextures>, dark: bool) {
        let frame = board::begin_with(ui, &mut self.board_view, Palette::new(dark), !self.panels_on_clear_color);
        self.geometry = Some(frame.geometry);
        self.hovered = frame.hovered;
        if self.board_whatif.is_some() {
            self.draw_whatif(frame, icons);
            return;
        }
        let Some((turn, v)) = &self.current else {
            frame.painter.text(
                frame.geometry.rect.center(),
                egui::Align2::CENTER_CENTER,
                "Open a replay: File ▸ Open replay…, drag and drop, or `terminal-studio view FILE`",
                egui::FontId::proportional(16.0),
                frame.palette.text,
            );
            return;
        };
        let g = frame.geometry;
        let tile = g.tile;
        let pal = frame.palette;
        let o = self.overlays;
        // Moved-from tiles under the units.
        if o.moved_from {
            for m in &v.debug.mobiles {
                if let Some(from) = m.moved_from {
                    frame.fill_tile(from, pal.player(m.owner).gamma_multiply(0.25));
                }
            }
        }
        // Fading markers (blast areas under the units).
        if o.markers {
            for (i, markers) in self.recent_markers.iter() {
                let age = v.index.saturating_sub(*i);
                let alpha = 1.0 - age as f32 / MARKER_FRAMES as f32;
                for mk in markers {
                    if let Marker::SelfDestruct { blast, .. } = mk {
                        for t in blast {
                            frame.fill_tile(*t, Color32::from_rgb(255, 140, 0).gamma_multiply(0.25 * alpha));
                        }
                    }
                }
            }
        }
        // Structures, their health bars against the replay's own ruleset.
        let max_health =
            self.ruleset().map_or([[60.0; 2]; 3], |c| terminal_core::session::summary::structure_max_health(&c));
        let mut units = Vec::new();
        for p in Player::both() {
            let lists = v.frame.units_of(p);
            let upgraded: HashSet<u32> =
                lists.get(UPGRADE).map(|l| l.iter().map(|u| u.id).collect()).unwrap_or_default();
            let removing: HashSet<u32> =
                lists.get(REMOVE).map(|l| l.iter().map(|u| u.id).collect()).unwrap_or_default();
            for (t, kind) in [(0, Kind::Wall), (1, Kind::Support), (2, Kind::Turret)] {
                for u in lists.get(t).into_iter().flatten() {
                    let up = upgraded.contains(&u.id);
                    units.push(BoardUnit {
                        tile: u.tile,
                        icon: Icon::of(kind, up),
                        owner: p,
                        health: u.health / max_health.get(t).map_or(0.0, |m| m[usize::from(up)]).max(1.0),
                        marked_for_removal: removing.contains(&u.id),
                    });
                }
            }
        }
        frame.draw_units(icons, units);
        // Mobile units: a disc per tile with the count.
        let mut stacks: std::collections::BTreeMap<(i32, i32, usize, usize), u32> = Default::default();
        for p in Player::both() {
            for (t, u) in v.frame.real_units(p).filter(|(t, _)| *t >= 3) {
                *stacks.entry((u.tile.x, u.tile.y, p.index(), t)).or_default() += 1;
            }
        }
        for ((x, y, pi, t), n) in stacks {
            draw_mobile(&frame, Tile::new(x, y), pal.player[pi], t, n);
        }
        // Paths.
        if o.paths {
            for m in &v.debug.mobiles {
                let c = pal.player(m.owner).gamma_multiply(0.8);
                let width = if self.selected == Some(m.id) { 3.5 } else { 1.5 };
                draw_path_with_end(&frame, &m.path, m.path_end, Stroke::new(width, c));
            }
        }
        // Shields: support → unit with the amount.
        if o.shields {
            for s in &v.frame.events.shield {
                let a = g.tile_center(s.from);
                let b = g.tile_center(s.to);
                frame.painter.line_segment([a, b], Stroke::new(1.5, Color32::from_rgb(80, 220, 255)));
                frame.painter.circle_filled(b, tile * 0.12, Color32::from_rgb(80, 220, 255));
                if tile >= 14.0 {
                    frame.painter.text(
                        b + vec2(0.0, tile * 0.45),
                        egui::Align2::CENTER_CENTER,
                        format!("+{:.0}", s.amount),
                        egui::FontId::monospace(11.0),
                        Color32::from_rgb(80, 220, 255),
                    );
                }
            }
        }
        // Attacks with damage.
        if o.attacks {
            for a in &v.debug.attacks {
                let from = g.tile_center(a.from);
                let to = g.tile_center(a.to);
                frame.painter.arrow(from, to - from, Stroke::new(1.5, Color32::from_rgb(255, 80, 60)));
                if tile >= 14.0 {
                    frame.painter.text(
                        from.lerp(to, 0.6),
                        egui::Align2::CENTER_CENTER,
                        format!("{:.0}", a.damage),
                        egui::FontId::monospace(11.0),
                        Color32::from_rgb(255, 200, 190),
                    );
                }
            }
        }
        // Death, breach and self-destruct markers, fading.
        if o.markers {
            for (i, markers) in self.recent_markers.iter() {
                let age = v.index.saturating_sub(*i);
                let alpha = 1.0 - age as f32 / MARKER_FRAMES as f32;
                for mk in markers {
                    let (t, color) = match mk {
                        Marker::Death { tile, .. } => (*tile, Color32::from_rgb(240, 240, 240)),
                        Marker::Breach { tile, .. } => (*tile, Color32::from_rgb(255, 220, 0)),
                        Marker::SelfDestruct { tile, .. } => (*tile, Color32::from_rgb(255, 140, 0)),
                    };
                    let c = g.tile_center(t);
                    let d = tile * 0.4;
                    let s = Stroke::new(2.5, color.gamma_multiply(alpha));
                    frame.painter.line_segment([c - vec2(d, d), c + vec2(d, d)], s);
                    frame.painter.line_segment([c + vec2(-d, d), c + vec2(d, -d)], s);
                }
            }
        }
        // The algos' annotations.
        if o.annotations {
            for a in self.companions.annotations(*turn) {
                draw_annotation(&frame, a);
            }
        }
        if let Some(index) = v.watching {
            frame.painter.text(
                g.rect.left_top() + vec2(8.0, 6.0),
                egui::Align2::LEFT_TOP,
                self.try_title(index),
                egui::FontId::proportional(16.0),
                Color32::from_rgb(255, 220, 0),
            );
        }
        frame.draw_hover(pal.text);
        // Click selects a unit.
        if frame.response.clicked() {
            self.selected = frame.hovered.and_then(|t| {
                v.debug.mobiles.iter().find(|m| m.tile == t).map(|m| m.id).or_else(|| {
                    Player::both()
                        .iter()
                        .find_map(|p| v.frame.real_units(*p).find(|(_, u)| u.tile == t).map(|(_, u)| u.id))
                })
            });
        }
    }

    /// Draws the what-if being edited (structures, deploys, their predicted paths) and applies
    /// the tool on a click (a right click takes a deploy or a placed structure back).
    fn draw_whatif(&mut self, frame: board::BoardFrame, icons: Option<&IconTextures>) {
        let Some(w) = self.board_whatif.as_mut() else { return };
        let pal = frame.palette;
        if let whatif_board::BoardTool::Deploy(_) = w.tool {
            for e in terminal_core::engine::geometry::Edge::ALL.iter().filter(|e| e.owner() == w.player) {
                for t in terminal_core::engine::geometry::all_tiles().filter(|t| e.contains(*t)) {
                    frame.fill_tile(t, pal.player(w.player).gamma_multiply(0.3));
                }
            }
        }
        let units = w.layout.structures.iter().map(|(tile, s)| BoardUnit {
            tile: *tile,
            icon: Icon::of(s.kind, s.upgraded),
            owner: tile.owner_half(),
            health: s.health,
            marked_for_removal: s.remove,
        });
        frame.draw_units(icons, units);
        // Changed tiles outlined, so the edits stand out from the turn's own structures.
        let changed = Player::both().into_iter().flat_map(|p| w.structure_edits(p));
        for e in changed {
            use terminal_core::session::whatif::StructureEdit;
            let (StructureEdit::Add { tile, .. } | StructureEdit::Remove { tile } | StructureEdit::Upgrade { tile }) =
                e;
            let r = frame.geometry.tile_rect(tile);
            frame.painter.rect_stroke(
                r,
                0.0,
                Stroke::new(2.0, Color32::from_rgb(255, 220, 0)),
                egui::StrokeKind::Inside,
            );
        }
        let mut stacks: std::collections::BTreeMap<(Tile, usize, u8), u32> = Default::default();
        for p in Player::both() {
            for (t, tile) in &w.deploys[p.index()] {
                *stacks.entry((*tile, p.index(), *t)).or_default() += 1;
            }
        }
        for ((tile, pi, t), n) in stacks {
            draw_mobile(&frame, tile, pal.player[pi], t as usize, n);
        }
        for path in w.paths() {
            draw_path_with_end(
                &frame,
                &path.tiles,
                path.end,
                Stroke::new(2.0, pal.player(path.owner).gamma_multiply(0.9)),
            );
        }
        frame.draw_hover(pal.text);
        let undo = frame.response.secondary_clicked();
        if (frame.response.clicked() || undo)
            && let Some(tile) = frame.hovered
            && let Err(e) = w.click(tile, undo)
        {
            self.message = e;
        }
    }

    /// One frame of the viewer's UI (Debugger when `debugger`, else Replays).
    pub fn show(&mut self, ui: &mut Ui, debugger: bool, icons: Option<&IconTextures>, dark: bool) -> Vec<PathBuf> {
        let ctx = ui.ctx().clone();
        self.poll();
        self.read_keys(&ctx);
        self.tick(&ctx);
        if self.current.is_some() {
            self.ui_frames += 1;
        }
        if let Some((turn, frame)) = self.autoplay_at.take() {
            self.seek(turn, frame);
            // Speed 0 holds the frame (screenshots).
            self.playing = self.speed > 0.0;
        }
        if let Some(t) = self.stats_every
            && t.elapsed().as_secs_f64() >= 1.0
        {
            let dt = t.elapsed().as_secs_f64();
            eprintln!(
                "viewer: {:.1} UI frames/s, {:.1} replay frames/s ({}); opened in {:.3} s; {}",
                (self.ui_frames - self.stats_base.0) as f64 / dt,
                (self.frames_received - self.stats_base.1) as f64 / dt,
                self.position_label(),
                self.open_seconds.unwrap_or(0.0),
                std::fs::read_to_string("/proc/self/status")
                    .ok()
                    .and_then(|s| s
                        .lines()
                        .find(|l| l.starts_with("VmRSS"))
                        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")))
                    .unwrap_or_default()
            );
            self.stats_base = (self.ui_frames, self.frames_received);
            self.stats_every = Some(Instant::now());
            ctx.request_repaint();
        }
        if self.stats_every.is_some() {
            ctx.request_repaint();
        }
        let mut open = Vec::new();
        // Under eframe the window is cleared to the panel colour, so the panels need not paint
        // it again: each covered pixel costs under software rendering.
        let frame = egui::Frame::side_top_panel(ui.style());
        let frame = if self.panels_on_clear_color { frame.fill(Color32::TRANSPARENT) } else { frame };
        egui::Panel::top("viewer-header").frame(frame).show(ui, |ui| panels::header(ui, self));
        egui::Panel::bottom("viewer-timeline").frame(frame).show(ui, |ui| panels::timeline(ui, self));
        // The side-by-side comparison needs the width; the overlays do not apply to it.
        let left_panel = self.compare.is_none();
        if left_panel {
            egui::Panel::left("viewer-left").frame(frame).resizable(true).default_size(230.0).show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    if let Some(p) = panels::left(ui, self) {
                        open.push(p);
                    }
                });
            });
        }
        egui::Panel::right("viewer-right").frame(frame).resizable(true).default_size(380.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                if debugger {
                    panels::debugger_side(ui, self);
                } else {
                    panels::replays_side(ui, self);
                }
            });
        });
        egui::CentralPanel::no_frame().show(ui, |ui| match self.compare.as_mut() {
            Some(c) => {
                if c.show(ui, icons, dark) {
                    self.compare = None;
                }
            }
            None => self.board(ui, icons, dark),
        });
        open
    }

    pub fn plot_metric(&self) -> usize {
        self.plot_metric
    }

    pub fn set_plot_metric(&mut self, m: usize) {
        self.plot_metric = m;
    }

    /// Runs a what-if: the board's edits and deploys if a what-if is being edited, else the
    /// shown turn unchanged (a baseline row for the table).
    pub fn run_whatif(&mut self) {
        use terminal_core::session::WhatIfSource;
        use terminal_core::session::whatif::WhatIfSpec;
        let Some(w) = self.board_whatif.clone() else {
            let (spec, label) = (WhatIfSpec::default(), "as played".to_string());
            self.request(Request::RunWhatIf { source: WhatIfSource::CurrentTurn, spec, label });
            return;
        };
        let commands = Player::both().map(|p| w.commands(p));
        let (source, structures) = match &w.base {
            whatif_board::WhatIfBase::ReplayTurn(turn) => {
                (WhatIfSource::ReplayTurn(*turn), Player::both().map(|p| w.structure_edits(p)))
            }
            whatif_board::WhatIfBase::Layout(config) => {
                // A layout has no stats: full health and resources enough for every deploy.
                let stats = terminal_core::engine::frame::Stats { hp: 30.0, sp: 1000.0, mp: 1000.0, time_ms: 0 };
                match terminal_core::session::whatif::game_from_structures(config.clone(), 0, &w.placed(), [stats; 2]) {
                    // The layout's structures are in the game already: no edits on top.
                    Ok(game) => (WhatIfSource::Layout(Box::new(game)), Default::default()),
                    Err(e) => {
                        self.message = format!("Error: {e}");
                        return;
                    }
                }
            }
        };
        let spec = WhatIfSpec { structures, commands };
        self.request(Request::RunWhatIf { source, spec, label: w.describe() });
    }

    /// Starts editing a what-if on the board from the shown turn's turn frame (seeking to it
    /// first if a later frame is shown).
    pub fn edit_whatif_on_board(&mut self) {
        let Some(turn) = self.turn() else { return };
        self.playing = false;
        // The what-if starts from the replay's turn frame, not from a watched try's.
        if self.frame_in_turn() == Some(0) && self.watching().is_none() {
            self.start_replay_whatif();
        } else {
            self.pending_whatif_turn = Some(turn);
            self.request(Request::Seek { turn, frame: 0 });
        }
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

    fn start_replay_whatif(&mut self) {
        let Some(config) = self.ruleset() else { return };
        let Some((turn, v)) = &self.current else { return };
        let layout = terminal_core::layout::Layout::from_frame(&v.frame, &config, format!("turn {turn}"));
        self.board_whatif = Some(whatif_board::BoardWhatIf::new(whatif_board::WhatIfBase::ReplayTurn(*turn), layout));
        self.message = format!("What-if on turn {turn}: pick a tool and click the board");
    }

    /// Starts a what-if from an editor layout (the Editor's "Simulate in debugger").
    pub fn start_layout_whatif(
        &mut self,
        layout: terminal_core::layout::Layout,
        config: std::sync::Arc<terminal_core::engine::Config>,
        ctx: Option<&egui::Context>,
    ) {
        self.ensure_backend(ctx);
        self.playing = false;
        let name = if layout.name.is_empty() { "the editor's layout".to_string() } else { layout.name.clone() };
        self.board_whatif = Some(whatif_board::BoardWhatIf::new(whatif_board::WhatIfBase::Layout(config), layout));
        self.message = format!("What-if on {name}: deploy mobile units and run");
    }
}

/// A mobile unit (or a stack of `n`) on a tile: disc = scout, square = demolisher, triangle =
/// interceptor, with the count when tiles are big enough.
fn draw_mobile(frame: &board::BoardFrame, at: Tile, color: Color32, unit_type: usize, n: u32) {
    let tile = frame.geometry.tile;
    let c = frame.geometry.tile_center(at);
    let r = tile * 0.36;
    match unit_type {
        3 => {
            frame.painter.circle_filled(c, r, color);
        }
        4 => {
            frame.painter.rect_filled(egui::Rect::from_center_size(c, vec2(r * 1.8, r * 1.8)), 2.0, color);
        }
        _ => {
            let pts = vec![c + vec2(0.0, -r), c + vec2(r, r * 0.8), c + vec2(-r, r * 0.8)];
            frame.painter.add(egui::Shape::convex_polygon(pts, color, Stroke::NONE));
        }
    }
    frame.painter.circle_stroke(c, r, Stroke::new(1.0, Color32::BLACK));
    if n > 1 && tile >= 12.0 {
        frame.painter.text(
            c,
            egui::Align2::CENTER_CENTER,
            n.to_string(),
            egui::FontId::monospace((tile * 0.4).clamp(8.0, 14.0)),
            Color32::BLACK,
        );
    }
}

/// A predicted path with its end marked: a yellow ring = breach, an orange cross = self-destruct.
fn draw_path_with_end(frame: &board::BoardFrame, path: &[Tile], end: PathEnd, stroke: Stroke) {
    let tile = frame.geometry.tile;
    frame.draw_path(path, stroke);
    let Some(last) = path.last() else { return };
    let p = frame.geometry.tile_center(*last);
    match end {
        PathEnd::Breach => {
            frame.painter.circle_stroke(p, tile * 0.3, Stroke::new(2.0, Color32::from_rgb(255, 220, 0)));
        }
        PathEnd::SelfDestruct => {
            let d = tile * 0.3;
            let s = Stroke::new(2.0, Color32::from_rgb(255, 140, 0));
            frame.painter.line_segment([p - vec2(d, d), p + vec2(d, d)], s);
            frame.painter.line_segment([p + vec2(-d, d), p + vec2(d, -d)], s);
        }
    }
}

fn draw_annotation(frame: &board::BoardFrame, a: &terminal_core::session::companions::Annotation) {
    use terminal_core::session::companions::AnnotationKind;
    let color = a.color.as_deref().and_then(parse_color).unwrap_or(Color32::from_rgb(200, 120, 255));
    let g = frame.geometry;
    match &a.kind {
        AnnotationKind::Tile { tile, label } => {
            frame.fill_tile(*tile, color.gamma_multiply(0.45));
            if let Some(l) = label {
                frame.tile_label(*tile, l, Color32::WHITE);
            }
        }
        AnnotationKind::Line { from, to } => {
            frame.painter.line_segment([g.tile_center(*from), g.tile_center(*to)], Stroke::new(2.0, color));
        }
        AnnotationKind::Text { tile, text } => {
            frame.painter.text(
                g.tile_center(*tile),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(12.0),
                color,
            );
        }
    }
}

fn parse_color(s: &str) -> Option<Color32> {
    let h = s.trim_start_matches('#');
    if h.len() != 6 {
        return None;
    }
    let v = u32::from_str_radix(h, 16).ok()?;
    Some(Color32::from_rgb((v >> 16) as u8, (v >> 8) as u8, v as u8))
}

/// Spawn-event types that are not units: the removal mark and the upgrade.
const REMOVE_TYPE: u8 = 6;
const UPGRADE_TYPE: u8 = 7;

/// A unit type's name.
pub fn unit_name(t: usize) -> &'static str {
    ["wall", "support", "turret", "scout", "demolisher", "interceptor"].get(t).copied().unwrap_or("unit")
}
