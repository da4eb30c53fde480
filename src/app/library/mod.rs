//! The Library view: a folder of replays indexed (on a worker thread, incrementally) and
//! summed up from one player's side. Every game in a sortable, filterable table; results by
//! opponent; where the opponents breached me and where they spawned, on the board; my HP
//! curve. A game, or the games breached on a tile, open in the Debugger at that turn, and the
//! games shown go to the Layout lab as its attacks in one click.

mod job;
mod panels;
mod site_panels;
mod site_sync;
mod table;

use super::command::{Command, StudioCommand, UiCommand};
use super::view::{StudioView, ViewContext};
use job::{IndexEvent, IndexJob};
use serde::{Deserialize, Serialize};
use site_sync::{SyncJob, SyncJobEvent};
use std::path::PathBuf;
use terminal_core::library::query::{self, OpponentResults, TileHeat, first_breach_against};
use terminal_core::library::site_query::{self, AlgoRatings, BeatenBy, Rival};
use terminal_core::library::{EndKind, GameFilter, Library, Outcome, Perspective, UpdateReport};

/// The filter's fields as typed (kept between runs).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FilterForm {
    pub opponent: String,
    pub outcome: Option<Outcome>,
    pub ruleset: Option<String>,
    pub end: Option<EndKind>,
    pub min_turns: String,
    pub max_turns: String,
    pub mine_only: bool,
}

impl FilterForm {
    fn filter(&self) -> GameFilter {
        let text = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
        GameFilter {
            opponent: text(&self.opponent),
            outcome: self.outcome,
            ruleset: self.ruleset.clone(),
            end: self.end,
            min_turns: self.min_turns.trim().parse().ok(),
            max_turns: self.max_turns.trim().parse().ok(),
            file: None,
            mine_only: self.mine_only,
        }
    }
}

/// What the board shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum HeatKind {
    /// HP the opponents took from me, by tile.
    #[default]
    BreachesOnMe,
    /// Mobile units the opponents spawned, by tile.
    OpponentSpawns,
}

/// The table's sort.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SortBy {
    #[default]
    File,
    Opponent,
    Result,
    Turns,
    End,
    MyHp,
}

/// The Library view: what is kept (folder, "me", filter, sort), and the loaded library.
#[derive(Default, Serialize, Deserialize)]
#[serde(default)]
pub struct LibraryView {
    pub folder: String,
    /// Empty: the name in the most games.
    pub me: String,
    pub filter: FilterForm,
    pub sort: SortBy,
    pub descending: bool,
    pub heat: HeatKind,
    /// The index file; None: one per folder in the studio's data folder.
    pub db: Option<PathBuf>,
    /// The website's user id to sync (kept between sessions).
    pub site_user: String,
    /// Or the algo ids to sync, separated by spaces or commas.
    pub site_algos: String,
    /// The website's API; empty: the game's own.
    pub site_api: String,
    #[serde(skip)]
    rt: Runtime,
}

#[derive(Default)]
struct Runtime {
    job: Option<IndexJob>,
    sync: Option<SyncJob>,
    library: Option<Library>,
    report: Option<UpdateReport>,
    db_used: Option<PathBuf>,
    perspective: Option<Perspective>,
    /// Indices of the games the filter keeps, in the table's order.
    shown: Vec<usize>,
    /// The filter, "me" and sort `shown` was made with.
    shown_for: Option<(GameFilter, String, SortBy, bool)>,
    /// The game selected in the table (an index into the library's games).
    selected: Option<usize>,
    /// The heat tile clicked: the games breached there are listed.
    tile: Option<(i32, i32)>,
    /// The side panel's figures of the games shown, worked out when they change rather than
    /// at every repaint (tens of milliseconds for ten thousand games).
    sums: Option<Sums>,
    message: String,
    /// The kept folder was opened again when the view was first shown.
    reopened: bool,
}

/// What the side panel shows of the games shown.
struct Sums {
    breaches: TileHeat,
    spawns: TileHeat,
    /// Turn, my mean HP, games.
    hp_curve: Vec<(i32, f32, usize)>,
    opponents: Vec<OpponentResults>,
    /// From the website's facts (empty without them).
    ratings: Vec<AlgoRatings>,
    rivals: Vec<Rival>,
    beaten: BeatenBy,
}

impl LibraryView {
    pub fn library(&self) -> Option<&Library> {
        self.rt.library.as_ref()
    }

    /// Indices of the games shown, in the table's order.
    pub fn shown(&self) -> &[usize] {
        &self.rt.shown
    }

    pub fn perspective(&self) -> Option<&Perspective> {
        self.rt.perspective.as_ref()
    }

    pub fn is_indexing(&self) -> bool {
        self.rt.job.is_some()
    }

    pub fn is_syncing(&self) -> bool {
        self.rt.sync.is_some()
    }

    /// Starts fetching the website's matches of the user or algos typed into the folder.
    pub fn start_sync(&mut self, window: Option<&egui::Context>) {
        if self.folder.trim().is_empty() {
            self.rt.message = "Type the folder the replays go to first".into();
            return;
        }
        let who = match site_sync::who(&self.site_user, &self.site_algos) {
            Ok(who) => who,
            Err(line) => {
                self.rt.message = line;
                return;
            }
        };
        let api = self.website_api().to_string();
        self.rt.message = format!("Syncing from {api}…");
        let folder = PathBuf::from(self.folder.trim());
        self.rt.sync = Some(SyncJob::start(&folder, who, api, window.cloned()));
    }

    /// The website's API the player set, else the game's own.
    pub fn website_api(&self) -> &str {
        Some(self.site_api.trim()).filter(|a| !a.is_empty()).unwrap_or(terminal_core::library::sync::DEFAULT_API)
    }

    /// Takes what the sync thread sent; with `wait`, until it is done (tests). When it is
    /// done, the folder is indexed.
    pub fn poll_sync(&mut self, wait: bool, window: Option<&egui::Context>) {
        let Some(job) = &mut self.rt.sync else { return };
        loop {
            let event = if wait { job.events.recv().ok() } else { job.events.try_recv().ok() };
            match event {
                Some(SyncJobEvent::Progress(e)) => job.note(e),
                Some(SyncJobEvent::Done(result)) => {
                    self.rt.sync = None;
                    self.start_indexing(window);
                    // The sync's line stays shown while the index is read.
                    self.rt.message = site_sync::summary(&result);
                    return;
                }
                None if wait => {
                    self.rt.sync = None;
                    self.rt.message = "The sync stopped without an answer".into();
                    return;
                }
                None => return,
            }
        }
    }

    pub fn message(&self) -> &str {
        &self.rt.message
    }

    /// Starts indexing the folder typed (and loading what is indexed).
    pub fn start_indexing(&mut self, window: Option<&egui::Context>) {
        let folder = PathBuf::from(self.folder.trim());
        if self.folder.trim().is_empty() {
            self.rt.message = "Type the folder of your replays first".into();
            return;
        }
        if !folder.is_dir() {
            self.rt.message = format!("{}: not a folder", folder.display());
            return;
        }
        self.rt.message = format!("Indexing {}…", folder.display());
        let data_dir = super::paths::data_dir();
        self.rt.job = Some(IndexJob::start(&folder, self.db.clone(), &data_dir, window.cloned()));
    }

    /// Takes what the indexing thread sent; with `wait`, until it is done (tests).
    pub fn poll_job(&mut self, wait: bool) {
        let Some(job) = &mut self.rt.job else { return };
        loop {
            let event = if wait { job.events.recv().ok() } else { job.events.try_recv().ok() };
            match event {
                Some(IndexEvent::Progress(done, total)) => job.progress = (done, total),
                Some(IndexEvent::Notice(text)) => {
                    self.rt.message = format!("{text}…");
                    job.notices.push(text);
                }
                Some(IndexEvent::Done(result)) => {
                    let seconds = job.started.elapsed().as_secs_f64();
                    let notices = std::mem::take(&mut job.notices);
                    self.rt.job = None;
                    self.finish(result, seconds);
                    for n in notices.iter().rev() {
                        self.rt.message = format!("{n}. {}", self.rt.message);
                    }
                    return;
                }
                None if wait => {
                    self.rt.job = None;
                    self.rt.message = "Indexing stopped without an answer".into();
                    return;
                }
                None => return,
            }
        }
    }

    fn finish(
        &mut self,
        result: Result<(Library, UpdateReport, PathBuf), terminal_core::library::LibraryError>,
        seconds: f64,
    ) {
        // What a sync before the indexing said stays in front.
        let synced = Some(&self.rt.message).filter(|m| m.starts_with("Synced") || m.starts_with("Sync:")).cloned();
        match result {
            Ok((library, report, db)) => {
                self.rt.message = format!(
                    "{} games, {} damaged; {} read, {} removed in {seconds:.1} s (index {})",
                    library.games.len(),
                    library.damaged.len(),
                    report.added + report.changed,
                    report.removed,
                    db.display()
                );
                if report.cancelled {
                    self.rt.message.insert_str(0, "Stopped: what was read is kept. ");
                }
                if let Some(synced) = synced {
                    self.rt.message = format!("{synced}. {}", self.rt.message);
                }
                self.rt.library = Some(library);
                self.rt.report = Some(report);
                self.rt.db_used = Some(db);
                self.rt.shown_for = None;
                self.rt.selected = None;
                self.rt.tile = None;
            }
            Err(e) => self.rt.message = format!("Library: {e}"),
        }
    }

    /// Recomputes the games shown when the filter, "me" or the sort changed.
    fn refresh_shown(&mut self) {
        let Some(library) = &self.rt.library else { return };
        let asked = Some(self.me.trim()).filter(|s| !s.is_empty());
        let perspective = Perspective::choose(&library.games, asked);
        let key = (self.filter.filter(), perspective.me.clone(), self.sort, self.descending);
        if self.rt.shown_for.as_ref() == Some(&key) {
            return;
        }
        let mut shown = key.0.apply(&library.games, &perspective.me);
        table::sort(&mut shown, &library.games, &perspective.me, self.sort, self.descending);
        self.rt.sums = Some(Sums {
            breaches: query::breach_heat(&library.games, &shown, &perspective.me),
            spawns: query::spawn_heat(&library.games, &shown, &perspective.me),
            hp_curve: query::hp_curve(&library.games, &shown, &perspective.me),
            opponents: query::by_opponent(&library.games, &shown, &perspective.me),
            ratings: site_query::my_ratings(&library.games, &shown),
            rivals: site_query::rivals(&library.games, &shown),
            beaten: site_query::beaten_by(&library.games, &shown),
        });
        self.rt.shown = shown;
        self.rt.perspective = Some(perspective);
        self.rt.shown_for = Some(key);
        self.rt.tile = None;
    }

    /// The command that opens game `k` in the Debugger: at the first turn I was breached,
    /// else at its start.
    fn open_game(&self, k: usize, turn: Option<i32>) -> Option<Command> {
        let library = self.rt.library.as_ref()?;
        let game = library.games.get(k)?;
        let me = self.rt.perspective.as_ref().map_or("", |p| p.me.as_str());
        let turn = turn.or_else(|| first_breach_against(game, me)).unwrap_or(0);
        Some(Command::Studio(StudioCommand::OpenReplayAt { replay: library.root.join(&game.file), turn }))
    }

    /// The games shown that "me" played, as ghosts for the Arena: the opponents of "me" in
    /// them (a game "me" did not play has no seat to take). My seat in each goes with it, as
    /// a synced game's replay may not carry my name.
    fn send_to_arena(&mut self) -> Vec<Command> {
        let Some(me) = self.rt.perspective.as_ref().map(|p| p.me.clone()) else { return Vec::new() };
        let Some((label, files, my_seats)) = self.shown_files(Some(&me)) else { return Vec::new() };
        vec![Command::Studio(StudioCommand::ArenaGhosts { label, files, me, my_seats })]
    }

    /// The files of the games shown (of those `me` played, if given, with `me`'s seat in
    /// each: 1 or 2), and a label for them; says so when there is none.
    fn shown_files(&mut self, me: Option<&str>) -> Option<(String, Vec<PathBuf>, Vec<u8>)> {
        let library = self.rt.library.as_ref()?;
        let mut files = Vec::new();
        let mut my_seats = Vec::new();
        for g in self.rt.shown.iter().map(|&k| &library.games[k]) {
            if let Some(me) = me {
                let Some(seen) = terminal_core::library::query::seen_from(g, me) else { continue };
                my_seats.push(if seen.seat == 0 { 1 } else { 2 });
            }
            files.push(library.root.join(&g.file));
        }
        if files.is_empty() {
            self.rt.message = match me {
                Some(me) if !self.rt.shown.is_empty() => format!("None of the games shown has {me} in it"),
                _ => "No game shown to send".into(),
            };
            return None;
        }
        Some((format!("{} games from the Library", files.len()), files, my_seats))
    }

    /// The games shown, as the Layout lab's attacks.
    fn send_to_lab(&mut self) -> Vec<Command> {
        let Some((label, files, _)) = self.shown_files(None) else { return Vec::new() };
        let Some(library) = &self.rt.library else { return Vec::new() };
        let index = self.rt.db_used.clone().map(|db| (db, library.root.clone()));
        let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
        for g in self.rt.shown.iter().filter_map(|&k| library.games.get(k)) {
            *counts.entry(g.record.ruleset.as_str()).or_default() += 1;
        }
        let ruleset =
            counts.into_iter().filter(|(r, _)| !r.is_empty()).max_by_key(|&(_, n)| n).map(|(r, _)| r.to_string());
        vec![Command::Studio(StudioCommand::LabAttacks { label, files, index, ruleset })]
    }
}

/// What a panel of the view asks for, applied after the frame.
#[must_use]
enum LibraryAction {
    Index,
    StopIndexing,
    Sync,
    StopSync,
    Select(usize),
    Open(usize, Option<i32>),
    SortBy(SortBy),
    PickTile(i32, i32),
    SendToLab,
    SendToArena,
}

impl StudioView for LibraryView {
    fn show(&mut self, ui: &mut egui::Ui, cx: &mut ViewContext) -> Vec<Command> {
        // The folder of the last session comes back as it was left: its index is brought up
        // to date (only new and changed files are read) and shown.
        if !self.rt.reopened {
            self.rt.reopened = true;
            if self.rt.library.is_none() && self.rt.job.is_none() && !self.folder.trim().is_empty() {
                self.start_indexing(cx.window);
            }
        }
        self.poll_sync(false, cx.window);
        self.poll_job(false);
        self.refresh_shown();
        let mut actions = Vec::new();
        panels::top(self, ui, &mut actions);
        if self.rt.library.is_some() {
            panels::side(self, ui, cx, &mut actions);
            egui::CentralPanel::default().show(ui, |ui| table::show(self, ui, &mut actions));
        }
        self.take_dropped_folder(ui, &mut actions);
        let mut out = Vec::new();
        for a in actions {
            out.extend(self.apply(a, cx));
        }
        out
    }

    fn run(&mut self, _command: UiCommand, _cx: &mut ViewContext) -> Vec<Command> {
        Vec::new()
    }

    fn poll(&mut self, cx: &mut ViewContext) {
        self.poll_sync(false, cx.window);
        self.poll_job(false);
    }
}

impl LibraryView {
    /// A folder dropped anywhere on the Library is the folder to index (files dropped go on
    /// to the window, which opens them).
    fn take_dropped_folder(&mut self, ui: &egui::Ui, actions: &mut Vec<LibraryAction>) {
        let dir = ui.input(|i| i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).find(|p| p.is_dir()));
        let Some(dir) = dir else { return };
        ui.ctx().input_mut(|i| i.raw.dropped_files.retain(|f| f.path() != dir));
        self.folder = dir.display().to_string();
        actions.push(LibraryAction::Index);
    }

    fn apply(&mut self, action: LibraryAction, cx: &mut ViewContext) -> Vec<Command> {
        match action {
            LibraryAction::Index => self.start_indexing(cx.window),
            LibraryAction::StopIndexing => {
                if let Some(job) = &self.rt.job {
                    job.stop();
                }
            }
            LibraryAction::Sync => self.start_sync(cx.window),
            LibraryAction::StopSync => {
                if let Some(job) = &self.rt.sync {
                    job.stop();
                }
            }
            LibraryAction::Select(k) => self.rt.selected = Some(k),
            LibraryAction::Open(k, turn) => return self.open_game(k, turn).into_iter().collect(),
            LibraryAction::SortBy(s) => {
                self.descending = if self.sort == s { !self.descending } else { false };
                self.sort = s;
            }
            LibraryAction::PickTile(x, y) => self.rt.tile = Some((x, y)),
            LibraryAction::SendToLab => return self.send_to_lab(),
            LibraryAction::SendToArena => return self.send_to_arena(),
        }
        Vec::new()
    }
}
