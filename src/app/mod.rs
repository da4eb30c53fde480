//! Terminal Studio's desktop app (eframe/egui). The app owns the kept [`State`] (which holds
//! the views) and the runtime resources; each frame it reads the command table's keys, draws
//! the top bar and the view shown (every view behind [`StudioView`]), then applies the
//! [`Command`]s the frame produced.
//!
//! Layers, each importing only those before it: `model` (plain types) → `command` (what can
//! be asked, the command table) → `paths`, `background` (where long work runs), `job_progress` (how far it is),
//! `time_text` (durations as shown), `browser` (the web page's edges, in the browser build) → `board`
//! (the board-drawing toolkit) → `compare_view`, `file_prompt`, `unsaved_prompt`,
//! `open_match`, `status_line`, `top_bar`, `view`, `desktop_only` → the views (`editor`, `viewer`, `play`, `arena`, `library`, `versions`) →
//! `state` → this module. `tests/module_layers.rs` checks that no cycle forms.

pub mod arena;
pub mod background;
pub mod board;
#[cfg(target_arch = "wasm32")]
pub mod browser;
pub mod command;
pub mod compare_view;
#[cfg(target_arch = "wasm32")]
pub mod desktop_only;
pub mod editor;
mod eframe_app;
mod file_ops;
pub mod file_prompt;
pub mod job_progress;
#[cfg(not(target_arch = "wasm32"))]
pub mod library;
pub mod model;
#[cfg(not(target_arch = "wasm32"))]
pub mod open_match;
pub mod path_field;
pub mod paths;
pub mod play;
pub mod state;
pub mod status_line;
mod studio_commands;
pub mod time_text;
pub mod top_bar;
pub mod unsaved_prompt;
#[cfg(not(target_arch = "wasm32"))]
pub mod versions;
pub mod view;
pub mod viewer;
#[cfg(not(target_arch = "wasm32"))]
mod window;

#[cfg(not(target_arch = "wasm32"))]
pub use window::run;

use board::icons::IconTextures;
use command::{Command, EditorCommand, Scope, UiCommand};
use egui::Ui;
use file_prompt::FilePrompt;
use model::{Theme, Tool, View};
use state::State;
use std::collections::HashMap;
use std::path::PathBuf;
use terminal_core::engine::geometry::Tile;
use view::{StudioView, ViewContext};

/// One view's own action, addressed to that view.
#[derive(Clone, Debug, PartialEq)]
pub enum ViewAction {
    Debugger(viewer::ViewerAction),
    Play(play::PlayAction),
    Arena(arena::ArenaAction),
}

impl From<viewer::ViewerAction> for ViewAction {
    fn from(a: viewer::ViewerAction) -> ViewAction {
        ViewAction::Debugger(a)
    }
}

impl From<play::PlayAction> for ViewAction {
    fn from(a: play::PlayAction) -> ViewAction {
        ViewAction::Play(a)
    }
}

impl From<arena::ArenaAction> for ViewAction {
    fn from(a: arena::ArenaAction) -> ViewAction {
        ViewAction::Arena(a)
    }
}

/// Runtime resources: never kept.
struct Runtime {
    icons: Option<IconTextures>,
    applied_theme: Option<Theme>,
    /// Each view's message: a view shows its own, never another's (the Debugger and Play
    /// take theirs into their own line as they are drawn).
    messages: HashMap<View, String>,
    show_help: bool,
    last_title: String,
    /// Text to put on the clipboard at the end of the frame.
    copy: Option<String>,
    /// The in-app window asking for a path, when open.
    prompt: Option<FilePrompt>,
    /// Whether the desktop has native file dialogs (else the in-app window asks).
    native_dialogs: bool,
    /// A layout waiting to be opened over unsaved changes, asked about.
    unsaved: Option<unsaved_prompt::UnsavedPrompt>,
    /// The window asking for a match of the website to open, when open.
    #[cfg(not(target_arch = "wasm32"))]
    open_match: Option<open_match::OpenMatchPrompt>,
    /// Seconds of CPU the window's last frame took (eframe's measure; None before the first).
    last_frame_cpu: Option<f32>,
    /// Shown in place of the views that need the desktop.
    #[cfg(target_arch = "wasm32")]
    desktop_only: desktop_only::DesktopOnly,
}

/// The whole app.
pub struct StudioApp {
    state: State,
    /// The window's context (None in tests: the viewer then runs the session inline).
    ctx: Option<egui::Context>,
    rt: Runtime,
}

impl StudioApp {
    /// The studio from its kept state; `autosave` is where edits are autosaved (None: off).
    pub fn new(mut state: State, autosave: Option<PathBuf>) -> StudioApp {
        let (config, message) = match terminal_core::engine::presets::load_config(&state.ruleset) {
            Ok(c) => (c, String::new()),
            Err(e) => (default_config(), format!("ruleset: {e}")),
        };
        state.editor.editor.set_config(config);
        state.editor.editor.autosave_path = autosave;
        state.arena.settle(&state.ruleset);
        let rt = Runtime {
            icons: None,
            applied_theme: None,
            messages: HashMap::from([(state.view, message)]),
            show_help: false,
            last_title: String::new(),
            copy: None,
            prompt: None,
            native_dialogs: file_prompt::native_dialogs_available(),
            unsaved: None,
            #[cfg(not(target_arch = "wasm32"))]
            open_match: None,
            last_frame_cpu: None,
            #[cfg(target_arch = "wasm32")]
            desktop_only: desktop_only::DesktopOnly,
        };
        StudioApp { state, ctx: None, rt }
    }

    /// The kept state (what eframe writes at exit).
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The editor view (its lab, board and panels).
    pub fn editor_view(&self) -> &editor::EditorView {
        &self.state.editor
    }

    /// The editor's layout, history and analysis.
    pub fn editor(&self) -> &editor::Editor {
        &self.state.editor.editor
    }

    pub fn viewer(&self) -> &viewer::Viewer {
        &self.state.viewer
    }

    pub fn arena(&self) -> &arena::ArenaTab {
        &self.state.arena
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn library(&self) -> &library::LibraryView {
        &self.state.library
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn versions(&self) -> &versions::VersionsView {
        &self.state.versions
    }

    pub fn play(&self) -> &play::PlayView {
        &self.state.play
    }

    /// Gives a view one of its own actions, as its widgets give it, and applies what follows
    /// as the frame's commands are applied (a test sets a view up this way).
    pub fn act(&mut self, action: impl Into<ViewAction>) {
        let follow = match action.into() {
            ViewAction::Debugger(a) => self.state.viewer.apply(a),
            ViewAction::Play(a) => self.state.play.apply(a),
            ViewAction::Arena(a) => self.state.arena.apply(a),
        };
        for c in follow {
            self.apply(c);
        }
    }

    /// Sends the Debugger's simulation worker a request of the session protocol, as its
    /// backend does: for the tests that break the worker on purpose.
    pub fn send_debugger_request(&mut self, request: terminal_core::session::Request) {
        self.state.viewer.request(request);
    }

    /// The message of the view shown, as its line shows it.
    pub fn message(&self) -> &str {
        match self.state.view {
            View::Debugger | View::Replays => self.state.viewer.message(),
            View::Play => self.state.play.message(),
            view => self.rt.messages.get(&view).map_or("", String::as_str),
        }
    }

    /// Puts a line in the status line of the view shown.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    fn say(&mut self, message: String) {
        match self.state.view {
            View::Debugger | View::Replays => self.state.viewer.set_message(message),
            _ => *self.message_mut() = message,
        }
    }

    /// The message of the view shown, to say what a command did there.
    fn message_mut(&mut self) -> &mut String {
        self.rt.messages.entry(self.state.view).or_default()
    }

    /// Seconds of CPU the window's last frame took, as eframe measured it.
    pub fn last_frame_cpu(&self) -> Option<f32> {
        self.rt.last_frame_cpu
    }

    pub fn show_help(&self) -> bool {
        self.rt.show_help
    }

    /// The view shown.
    pub fn view(&self) -> View {
        self.state.view
    }

    /// The editor's tool.
    pub fn tool(&self) -> Tool {
        self.state.editor.editor.tool
    }

    /// Screen position of a tile's centre on the editor's board as last drawn.
    pub fn tile_screen_pos(&self, t: Tile) -> Option<egui::Pos2> {
        self.state.editor.tile_screen_pos(t)
    }

    /// Native file dialogs on or off (off: the in-app path window; tests turn them off).
    pub fn set_native_dialogs(&mut self, on: bool) {
        self.rt.native_dialogs = on;
    }

    /// The question asked before unsaved changes are replaced, if it is open.
    pub fn unsaved_prompt(&self) -> Option<&unsaved_prompt::UnsavedPrompt> {
        self.rt.unsaved.as_ref()
    }

    /// The window asking for a match of the website, if it is open.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open_match_prompt(&self) -> Option<&open_match::OpenMatchPrompt> {
        self.rt.open_match.as_ref()
    }

    /// The same window, to change (tests point its cache at a folder of their own).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open_match_prompt_mut(&mut self) -> Option<&mut open_match::OpenMatchPrompt> {
        self.rt.open_match.as_mut()
    }

    /// The in-app path window, if it is open.
    pub fn file_prompt(&self) -> Option<&FilePrompt> {
        self.rt.prompt.as_ref()
    }

    /// The whole UI, one frame. Keys act before the views are drawn (the frame shows where
    /// they went); what the views ask for is applied after.
    pub fn show(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        self.prepare(&ctx);
        for c in command::keys::read(&ctx, self.state.view) {
            self.apply(c);
        }
        let mut commands = Vec::new();
        let shown = self.state.view;
        for view in View::ALL.into_iter().filter(|v| *v != shown) {
            // A live match is read whatever the view: it never waits on a hidden tab.
            let (v, mut cx) = self.view_and_context(view);
            v.poll(&mut cx);
        }
        egui::Panel::top("top-bar").show(ui, |ui| {
            commands.extend(top_bar::show(ui, shown, self.state.theme, &self.state.recent_files));
        });
        let (v, mut cx) = self.view_and_context(shown);
        commands.extend(v.show(ui, &mut cx));
        command::help::window(&ctx, &mut self.rt.show_help, shown);
        commands.extend(file_prompt::show(&ctx, &mut self.rt.prompt));
        commands.extend(unsaved_prompt::show(&ctx, &mut self.rt.unsaved));
        #[cfg(not(target_arch = "wasm32"))]
        commands.extend(open_match::show(&ctx, &mut self.rt.open_match));
        // After the views: a path field or the Library may have taken a drop for itself.
        commands.extend(dropped_files(&ctx));
        for c in commands {
            self.apply(c);
        }
        #[cfg(target_arch = "wasm32")]
        if let Some(m) = crate::app::browser::inbox::take_message() {
            self.say(m);
        }
        self.finish_frame(&ctx);
    }

    /// Theme and icons, once they are needed.
    fn prepare(&mut self, ctx: &egui::Context) {
        path_field::set_native_dialogs(ctx, self.rt.native_dialogs);
        if self.rt.applied_theme != Some(self.state.theme) {
            ctx.set_theme(if self.state.theme.is_dark() { egui::Theme::Dark } else { egui::Theme::Light });
            self.rt.applied_theme = Some(self.state.theme);
        }
        if self.rt.icons.is_none() {
            self.rt.icons = Some(IconTextures::load(ctx));
        }
    }

    /// The clipboard and the window title, after the commands.
    fn finish_frame(&mut self, ctx: &egui::Context) {
        if let Some(text) = self.rt.copy.take() {
            ctx.copy_text(text);
        }
        let title = self.state.editor.editor.title();
        if title != self.rt.last_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.rt.last_title = title;
        }
    }

    /// A view and what it is given for a frame.
    fn view_and_context(&mut self, view: View) -> (&mut dyn StudioView, ViewContext<'_>) {
        #[cfg(not(target_arch = "wasm32"))]
        let State { editor, viewer, arena, play, library, versions, ruleset, theme, .. } = &mut self.state;
        #[cfg(target_arch = "wasm32")]
        let State { editor, viewer, play, ruleset, theme, .. } = &mut self.state;
        let cx = ViewContext {
            view,
            window: self.ctx.as_ref(),
            icons: self.rt.icons.as_ref(),
            theme: *theme,
            ruleset: ruleset.as_str(),
            message: self.rt.messages.entry(view).or_default(),
        };
        let v: &mut dyn StudioView = match view {
            View::Editor => editor.as_mut(),
            View::Debugger | View::Replays => viewer.as_mut(),
            View::Play => play.as_mut(),
            #[cfg(not(target_arch = "wasm32"))]
            View::Arena => arena.as_mut(),
            #[cfg(not(target_arch = "wasm32"))]
            View::Library => library.as_mut(),
            #[cfg(not(target_arch = "wasm32"))]
            View::Versions => versions.as_mut(),
            #[cfg(target_arch = "wasm32")]
            View::Arena | View::Library | View::Versions => &mut self.rt.desktop_only,
        };
        (v, cx)
    }

    /// Applies one command, and what it leads to.
    pub fn apply(&mut self, command: Command) {
        match command {
            Command::Ui(c) => self.run(c),
            Command::Editor(EditorCommand::ImportReplayTurn(i)) => self.import_turn(i),
            Command::Editor(c) => self.state.editor.apply(c, self.rt.messages.entry(View::Editor).or_default()),
            Command::File(c) => self.apply_file(c),
            Command::Studio(c) => self.apply_studio(c),
        }
    }

    /// A command of the table: the studio's own, or the view it belongs to.
    fn run(&mut self, command: UiCommand) {
        let view = match command.info().scope {
            Scope::Studio => return self.run_studio(command),
            Scope::Editor => View::Editor,
            scope if scope.covers(self.state.view) => self.state.view,
            Scope::Replay => {
                *self.message_mut() = format!("{}: open a replay in the Debugger first", command.info().label);
                return;
            }
            _ => {
                *self.message_mut() = format!("{}: in the Play view, on your turn", command.info().label);
                return;
            }
        };
        let (v, mut cx) = self.view_and_context(view);
        let follow = v.run(command, &mut cx);
        for c in follow {
            self.apply(c);
        }
    }
}

/// The default ruleset.
pub(crate) fn default_config() -> terminal_core::engine::Config {
    use terminal_core::engine::presets::{DEFAULT_PRESET, PRESETS, preset};
    // Every preset parses (unit-tested in engine::presets); the fallbacks are only reached if
    // the binary's assets were broken.
    preset(DEFAULT_PRESET)
        .or_else(|| PRESETS.iter().find_map(|(_, _, t)| terminal_core::engine::Config::from_json_str(t).ok()))
        .expect("the rulesets embedded in the binary parse (unit-tested in engine::presets)")
}

/// The files dropped on the window, opened by their paths.
#[cfg(not(target_arch = "wasm32"))]
fn dropped_files(ctx: &egui::Context) -> Vec<Command> {
    ctx.input(|i| {
        i.raw
            .dropped_files
            .iter()
            .map(|f| f.path().to_path_buf())
            .filter(|p| !p.as_os_str().is_empty())
            .map(|p| Command::File(command::FileCommand::Open(p)))
            .collect()
    })
}

/// In the browser, dropped files have no paths: their bytes are read, then opened from the
/// page's files; what the page's other asynchronous work (picker, links) brought comes too.
#[cfg(target_arch = "wasm32")]
fn dropped_files(ctx: &egui::Context) -> Vec<Command> {
    browser::files_in::dropped(ctx);
    browser::inbox::take()
}
