//! Terminal Studio's desktop app (eframe/egui): the top bar with the studio's views, the map
//! editor, the status bar. Persisted [`Settings`] are kept apart from runtime resources.

pub mod arena;
pub mod board;
pub mod board_labels;
pub mod command;
pub mod compare_view;
pub mod editor;
pub mod file_prompt;
pub mod icons;
pub mod play;
pub mod settings;
pub mod shortcuts;
pub mod status_bar;
pub mod threat_view;
pub mod top_bar;
pub mod viewer;

use command::{Command, Edit, Tool};
use editor::Editor;
use editor::canvas::Stroke;
use egui::{Pos2, Ui};
use file_prompt::{FileAction, FilePrompt};
use settings::{Settings, Theme};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;
use terminal_core::engine::geometry::Tile;
use terminal_core::layout::EditOutcome;

/// Runtime resources: never persisted.
struct Runtime {
    icons: Option<icons::IconTextures>,
    applied_theme: Option<Theme>,
    stroke: Option<Stroke>,
    hovered: Option<Tile>,
    board: Option<board::BoardGeometry>,
    message: String,
    show_help: bool,
    last_title: String,
    /// Text to put on the clipboard at the end of the frame.
    copy: Option<String>,
    /// The in-app window asking for a path, when open.
    prompt: Option<FilePrompt>,
    /// Whether the desktop has native file dialogs (else the in-app window asks).
    native_dialogs: bool,
}

/// The whole app.
pub struct StudioApp {
    pub settings: Settings,
    pub editor: Editor,
    /// The Replays / Debugger views.
    pub viewer: viewer::Viewer,
    /// The Arena tab (runtime state: the running arena, results, comparison).
    pub arena: arena::ArenaTab,
    /// The Play view: live matches, with algos, ghosts or you in the seats.
    pub play: play::PlayView,
    /// The window's context (None in tests: the viewer then runs the session inline).
    ctx: Option<egui::Context>,
    rt: Runtime,
}

impl StudioApp {
    /// A fresh app with these settings; `autosave` is where edits are autosaved (None: off).
    pub fn new(settings: Settings, autosave: Option<PathBuf>) -> StudioApp {
        let (config, message) = match terminal_core::engine::presets::load_config(&settings.ruleset) {
            Ok(c) => (c, String::new()),
            Err(e) => (
                terminal_core::engine::presets::preset(terminal_core::engine::presets::DEFAULT_PRESET)
                    .unwrap_or_else(fallback_config),
                format!("ruleset: {e}"),
            ),
        };
        let editor = Editor::new(config, autosave);
        let rt = Runtime {
            icons: None,
            applied_theme: None,
            stroke: None,
            hovered: None,
            board: None,
            message,
            show_help: false,
            last_title: String::new(),
            copy: None,
            prompt: None,
            native_dialogs: file_prompt::native_dialogs_available(),
        };
        let mut arena = arena::ArenaTab::new(&settings.ruleset);
        arena.set_form(settings.arena.clone());
        let mut viewer = viewer::Viewer::default();
        viewer.set_prefs(settings.viewer.clone());
        let play = play::PlayView::new(editor::files::data_dir().join("matches"));
        StudioApp { settings, editor, viewer, arena, play, ctx: None, rt }
    }

    /// The settings to keep, with each view's current choices.
    pub fn persisted_settings(&self) -> Settings {
        Settings { viewer: self.viewer.prefs(), arena: self.arena.form(), ..self.settings.clone() }
    }

    /// Restores the autosaved layout (after a crash or an unsaved exit), if there is one.
    pub fn recover_autosave(&mut self) {
        let Some(path) = self.editor.autosave_path.clone() else {
            return;
        };
        if !path.exists() {
            return;
        }
        match terminal_core::layout::files::load_layout(&path) {
            Ok(l) if !l.is_empty() => {
                self.editor.set_layout(l, None);
                self.editor.dirty = true;
                self.rt.message = format!("Recovered the autosave ({})", path.display());
            }
            Ok(_) => {}
            Err(e) => self.rt.message = format!("Autosave not recovered: {e}"),
        }
    }

    pub fn message(&self) -> &str {
        &self.rt.message
    }

    pub fn show_help(&self) -> bool {
        self.rt.show_help
    }

    /// Screen position of a tile's centre on the board as last drawn (for tests and tools).
    pub fn tile_screen_pos(&self, t: Tile) -> Option<Pos2> {
        self.rt.board.map(|g| g.tile_center(t))
    }

    /// The whole UI, one frame. Commands from every panel are applied after the frame.
    pub fn show(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        if self.rt.applied_theme != Some(self.settings.theme) {
            ctx.set_theme(if self.settings.theme.is_dark() { egui::Theme::Dark } else { egui::Theme::Light });
            self.rt.applied_theme = Some(self.settings.theme);
        }
        if self.rt.icons.is_none() {
            self.rt.icons = Some(icons::IconTextures::load(&ctx));
        }
        let mut commands = shortcuts::read(&ctx, self.settings.view == top_bar::View::Editor);
        commands.extend(dropped_files(&ctx));
        if self.settings.view != top_bar::View::Play {
            // A live match's frames are read whatever the view: it never waits on a hidden tab.
            self.play.poll(self.ctx.as_ref());
        }

        egui::Panel::top("top-bar").show(ui, |ui| {
            commands.extend(top_bar::show(ui, self.settings.view, &self.settings));
        });
        if self.settings.view == top_bar::View::Play {
            let dark = self.settings.theme.is_dark();
            let window = self.ctx.clone();
            commands.extend(self.play.show(ui, window.as_ref(), self.rt.icons.as_ref(), dark));
        } else if self.settings.view == top_bar::View::Arena {
            // The editor's tile, tool and tallies mean nothing here: the last message only.
            egui::Panel::bottom("status-bar").show(ui, |ui| ui.label(&self.rt.message));
            let dark = self.settings.theme.is_dark();
            commands.extend(self.arena.show(ui, self.rt.icons.as_ref(), dark));
        } else if matches!(self.settings.view, top_bar::View::Debugger | top_bar::View::Replays) {
            let debugger = self.settings.view == top_bar::View::Debugger;
            let dark = self.settings.theme.is_dark();
            self.viewer.hide_winner = self.settings.hide_winner;
            commands.extend(self.viewer.show(ui, debugger, self.rt.icons.as_ref(), dark));
        } else {
            egui::Panel::bottom("status-bar").show(ui, |ui| {
                status_bar::show(ui, &self.editor, self.rt.hovered, &self.rt.message);
            });
            egui::Panel::left("editor-tools").resizable(false).default_size(190.0).show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    commands.extend(editor::panels::tools(
                        ui,
                        &self.editor,
                        &self.settings.ruleset,
                        &mut self.settings.overlays,
                    ));
                });
            });
            self.editor.update_threat(self.rt.hovered);
            // A fixed width: what is hovered never moves the board.
            egui::Panel::right("editor-info").resizable(false).exact_size(230.0).show(ui, |ui| {
                // The threat table can push the panel past a small window's height.
                egui::ScrollArea::vertical().show(ui, |ui| editor::panels::info(ui, &self.editor, self.rt.hovered));
            });
            egui::CentralPanel::no_frame().show(ui, |ui| {
                let out = editor::canvas::show(
                    ui,
                    &self.editor,
                    &mut self.rt.stroke,
                    &mut self.settings.board_view,
                    &self.settings.overlays,
                    self.rt.icons.as_ref(),
                    self.settings.theme.is_dark(),
                );
                commands.extend(out.commands);
                self.rt.hovered = out.hovered;
                self.rt.board = Some(out.geometry);
            });
        }
        commands.extend(editor::panels::import_window(&ctx, &mut self.editor));
        shortcuts::help_window(&ctx, &mut self.rt.show_help, self.settings.view);
        if let Some(c) = file_prompt::show(&ctx, &mut self.rt.prompt) {
            commands.push(c);
        }

        for c in commands {
            self.apply(c);
        }
        if let Some(text) = self.rt.copy.take() {
            ctx.copy_text(text);
        }
        let title = self.editor.title();
        if title != self.rt.last_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.rt.last_title = title;
        }
    }

    /// Applies one command.
    pub fn apply(&mut self, command: Command) {
        match command {
            Command::BeginStroke => self.editor.begin(),
            Command::Edit(Edit::Upgrade(_)) if self.editor.config.legacy => {
                self.rt.message = command::NO_UPGRADES.into();
            }
            Command::Edit(e) => {
                let outcome = self.editor.apply_edit(e);
                let p = self.editor.player.number();
                // Every edit says what it did: an older message (say "Redone") would be stale.
                self.rt.message = match (outcome, e) {
                    (
                        EditOutcome::NotYours,
                        Edit::Place(..) | Edit::Upgrade(_) | Edit::ToggleRemove(_) | Edit::Erase(_),
                    ) => {
                        format!("That tile is not player {p}'s (Tab switches player)")
                    }
                    (EditOutcome::Unchanged, _) => "No change".into(),
                    (_, Edit::MirrorX) => format!("Mirrored player {p}'s structures left/right"),
                    (_, Edit::CopyToOpponent) => format!("Copied player {p}'s structures to the opponent"),
                    (_, Edit::Clear) => format!("Cleared player {p}'s structures"),
                    (_, Edit::Place(t, k)) => format!("{} at {},{}", k.label_for(self.editor.config.legacy), t.x, t.y),
                    (_, Edit::Upgrade(t)) => format!("Upgraded {},{}", t.x, t.y),
                    (_, Edit::ToggleRemove(t) | Edit::SetRemove(t, _)) => {
                        format!("Removal mark on {},{} changed", t.x, t.y)
                    }
                    (_, Edit::Erase(t)) => format!("Erased {},{}", t.x, t.y),
                };
            }
            Command::EndStroke => {
                if let Err(e) = self.editor.end() {
                    self.rt.message = format!("Autosave failed: {e}");
                }
            }
            Command::Undo => {
                self.rt.message = match self.editor.undo() {
                    Ok(true) => "Undone".into(),
                    Ok(false) => "Nothing to undo".into(),
                    Err(e) => format!("Undone, but the autosave failed: {e}"),
                };
            }
            Command::Redo => {
                self.rt.message = match self.editor.redo() {
                    Ok(true) => "Redone".into(),
                    Ok(false) => "Nothing to redo".into(),
                    Err(e) => format!("Redone, but the autosave failed: {e}"),
                };
            }
            Command::Rename(name) => {
                if name != self.editor.layout.name {
                    self.editor.layout.name = name;
                    self.editor.dirty = true;
                }
            }
            Command::SetTool(Tool::Upgrade) if self.editor.config.legacy => {
                self.rt.message = command::NO_UPGRADES.into();
            }
            Command::SetTool(t) => self.editor.tool = t,
            Command::SetPlayer(p) => self.editor.player = p,
            Command::SwitchPlayer => self.editor.player = self.editor.player.opponent(),
            Command::New => {
                // An edit like any other: Ctrl+Z brings the old layout back, nothing is lost.
                self.editor.begin();
                self.editor.layout = terminal_core::layout::Layout::default();
                self.editor.path = None;
                self.editor.dirty = true;
                self.editor.refresh();
                self.rt.message = match self.editor.end() {
                    Ok(()) => "New layout (Undo brings the previous one back)".into(),
                    Err(e) => format!("New layout; the autosave failed: {e}"),
                };
            }
            Command::OpenDialog => self.ask_path(FileAction::OpenLayout, self.suggested("json")),
            Command::Open(p) if is_replay(&p) => self.open_replay(&p),
            Command::Open(p) => self.open(&p),
            Command::Save => match self.editor.path.clone() {
                Some(p) => self.apply(Command::SaveTo(p)),
                None => self.apply(Command::SaveAsDialog),
            },
            Command::SaveAsDialog => self.ask_path(FileAction::SaveLayoutAs, self.suggested("json")),
            Command::SaveTo(p) => {
                if self.editor.layout.name.is_empty() {
                    self.editor.layout.name =
                        p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                }
                self.editor.layout.config = Some(self.settings.ruleset.clone());
                match terminal_core::layout::files::save_layout(&p, &self.editor.layout) {
                    Ok(()) => {
                        self.settings.remember(&p);
                        self.rt.message = format!("Saved {}", display_name(&p));
                        self.editor.path = Some(p);
                        self.editor.dirty = false;
                    }
                    Err(e) => self.rt.message = format!("Save failed: {e}"),
                }
            }
            Command::ExportPythonDialog => self.ask_path(FileAction::ExportPython, self.suggested("py")),
            Command::ExportPython(p) => {
                let text = self.editor.layout.to_python(self.editor.player);
                self.rt.message = match terminal_core::files::write_atomic(&p, text.as_bytes()) {
                    Ok(()) => format!("Exported player {}'s layout to {}", self.editor.player.number(), p.display()),
                    Err(e) => format!("Export failed: {e}"),
                };
            }
            Command::SimulateLayout => {
                let config = std::sync::Arc::new(self.editor.config.clone());
                self.viewer.start_layout_whatif(self.editor.layout.clone(), config, self.ctx.as_ref());
                self.settings.view = top_bar::View::Debugger;
            }
            Command::CopyPythonToClipboard => {
                let text = self.editor.layout.to_python(self.editor.player);
                self.rt.message = format!(
                    "Copied {} lines of Python for player {}",
                    text.lines().count(),
                    self.editor.player.number()
                );
                self.rt.copy = Some(text);
            }
            Command::ExportPngDialog => self.ask_path(FileAction::ExportPng, self.suggested("png")),
            Command::ExportPng(p) => {
                let options = editor::export_png::PngOptions {
                    dark: self.settings.theme.is_dark(),
                    coverage: self.settings.overlays.coverage,
                    paths: self.settings.overlays.all_paths,
                };
                let img = editor::export_png::render(&self.editor.layout, &self.editor.analysis, options);
                let result = editor::export_png::encode(&img)
                    .and_then(|bytes| terminal_core::files::write_atomic(&p, &bytes).map_err(|e| e.to_string()));
                self.rt.message = match result {
                    Ok(()) => format!("Exported {}", p.display()),
                    Err(e) => format!("PNG export failed: {e}"),
                };
            }
            Command::ImportReplayDialog => self.ask_path(FileAction::ImportReplay, PathBuf::from("replays").join("")),
            Command::ImportReplay(p) => match terminal_core::layout::files::ReplayImport::open(&p) {
                Ok(i) => self.editor.import = Some(i),
                Err(e) => self.rt.message = format!("Import failed: {e}"),
            },
            Command::ImportReplayTurn(i) => {
                let layout = self.editor.import.as_ref().and_then(|imp| imp.layout_at(i));
                match layout {
                    Some(l) => {
                        self.rt.message = format!("Imported {}", l.name);
                        // Tallies follow the replay's ruleset when it is one of the presets.
                        let replay_config = self.editor.import.as_ref().map(|imp| imp.replay.config.clone());
                        if let Some(c) = replay_config
                            && c != self.editor.config
                        {
                            let slug = terminal_core::engine::presets::PRESETS
                                .iter()
                                .map(|(slug, _, _)| *slug)
                                .find(|slug| terminal_core::engine::presets::preset(slug).is_some_and(|p| p == c));
                            match slug {
                                Some(slug) => {
                                    self.editor.set_config(c);
                                    self.settings.ruleset = slug.to_string();
                                    self.rt.message.push_str(&format!(" (ruleset {slug}, as in the replay)"));
                                }
                                None => self
                                    .rt
                                    .message
                                    .push_str(" (the replay's ruleset is not a preset: tallies use the selected one)"),
                            }
                        }
                        // Importing is an edit: it can be undone.
                        self.editor.begin();
                        self.editor.layout = l;
                        self.editor.dirty = true;
                        self.editor.refresh();
                        if let Err(e) = self.editor.end() {
                            self.rt.message.push_str(&format!("; the autosave failed: {e}"));
                        }
                        self.editor.import = None;
                    }
                    None => self.rt.message = "That turn is not in the replay".into(),
                }
            }
            Command::CloseImport => self.editor.import = None,
            Command::SetRuleset(spec) => match terminal_core::engine::presets::load_config(&spec) {
                Ok(c) => {
                    self.editor.set_config(c);
                    self.rt.message = format!("Ruleset: {spec}");
                    self.settings.ruleset = spec;
                }
                Err(e) => self.rt.message = format!("Ruleset not loaded: {e}"),
            },
            Command::RulesetDialog => self.ask_path(FileAction::Ruleset, PathBuf::from("game-configs.json")),
            Command::SetTheme(t) => self.settings.theme = t,
            Command::ToggleHelp => self.rt.show_help = !self.rt.show_help,
            Command::ResetView => self.settings.board_view = board::BoardView::default(),
            Command::SetView(v) => self.settings.view = v,
            Command::OpenReplay(p) => self.open_replay(&p),
            Command::SetHideWinner(hide) => self.settings.hide_winner = hide,
            Command::WatchReplay(p) => {
                self.play.watch_file(&p);
                self.settings.view = top_bar::View::Play;
            }
            Command::CompareDialog => {
                let pick = |title: &str| {
                    rfd::FileDialog::new().set_title(title).add_filter("Replay", &["replay", "gz"]).pick_file()
                };
                if !self.rt.native_dialogs {
                    self.rt.message =
                        "No file dialog on this desktop: compare two replays from the Arena tab's finished matches"
                            .into();
                } else if let Some(a) = pick("First replay (A)")
                    && let Some(b) = pick("Second replay (B)")
                {
                    self.apply(Command::Compare(a, b));
                } else {
                    self.rt.message = "Compare: the file dialog gave no replay".into();
                }
            }
            Command::Compare(a, b) => match self.arena.open_compare(&a, &b) {
                Ok(()) => {
                    self.settings.view = top_bar::View::Arena;
                    self.rt.message = format!("Comparing {} and {}", display_name(&a), display_name(&b));
                }
                Err(e) => self.rt.message = format!("Compare failed: {e}"),
            },
            Command::OpenReplayDialog => self.ask_path(FileAction::OpenReplay, PathBuf::from("replays").join("")),
        }
    }

    /// Asks for a path (the native dialog, or the in-app window without one) and acts on it.
    fn ask_path(&mut self, action: FileAction, suggested: PathBuf) {
        if let Some(c) = file_prompt::ask(action, suggested, self.rt.native_dialogs, &mut self.rt.prompt) {
            self.apply(c);
        }
    }

    /// `layouts/<the layout's name>.<ext>` (or `layout.<ext>`), the path offered for a layout.
    fn suggested(&self, ext: &str) -> PathBuf {
        let name = match self.editor.path.as_ref().and_then(|p| p.file_stem()) {
            Some(stem) => stem.to_string_lossy().into_owned(),
            None if !self.editor.layout.name.trim().is_empty() => self.editor.layout.name.trim().replace(' ', "-"),
            None => "layout".into(),
        };
        layouts_dir().join(format!("{name}.{ext}"))
    }

    /// Native file dialogs on or off (off: the in-app path window; tests turn them off).
    pub fn set_native_dialogs(&mut self, on: bool) {
        self.rt.native_dialogs = on;
    }

    /// The in-app path window, if it is open.
    pub fn file_prompt(&self) -> Option<&FilePrompt> {
        self.rt.prompt.as_ref()
    }

    /// Opens a layout file, or a replay (for import), by extension and content.
    pub fn open(&mut self, path: &Path) {
        if is_replay(path) {
            self.apply(Command::ImportReplay(path.to_path_buf()));
            return;
        }
        if !path.exists() && path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) {
            // A layout to be: start it empty, saved there by Save.
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            self.editor
                .set_layout(terminal_core::layout::Layout { name, ..Default::default() }, Some(path.to_path_buf()));
            self.editor.dirty = true;
            self.rt.message = format!("New layout: Save writes {}", path.display());
            return;
        }
        match terminal_core::layout::files::load_layout(path) {
            Ok(l) => {
                if let Some(spec) = l.config.clone()
                    && spec != self.settings.ruleset
                    && let Ok(c) = terminal_core::engine::presets::load_config(&spec)
                {
                    self.editor.set_config(c);
                    self.settings.ruleset = spec;
                }
                self.editor.set_layout(l, Some(path.to_path_buf()));
                self.settings.remember(path);
                self.rt.message = format!("Opened {}", display_name(path));
            }
            Err(e) => self.rt.message = format!("Open failed: {e}"),
        }
    }

    /// Opens a replay in the viewer and shows the Debugger.
    pub fn open_replay(&mut self, path: &Path) {
        if !matches!(self.settings.view, top_bar::View::Debugger | top_bar::View::Replays) {
            self.settings.view = top_bar::View::Debugger;
        }
        self.settings.remember(path);
        self.viewer.open(path, self.ctx.as_ref());
    }

    /// The view shown.
    pub fn view(&self) -> top_bar::View {
        self.settings.view
    }

    /// The current tool (for tests).
    pub fn tool(&self) -> Tool {
        self.editor.tool
    }
}

/// A `.replay` or `.replay.gz` file name.
pub use terminal_core::files::is_replay;

fn fallback_config() -> terminal_core::engine::Config {
    // Every preset parses (tested); this is only reached if the binary's assets were broken.
    terminal_core::engine::presets::PRESETS
        .iter()
        .find_map(|(_, _, t)| terminal_core::engine::Config::from_json_str(t).ok())
        .expect("the rulesets embedded in the binary parse (unit-tested in engine::presets)")
}

/// A file's name for messages (the full path is in the recent-files menu).
fn display_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| path.display().to_string())
}

fn layouts_dir() -> PathBuf {
    let here = PathBuf::from("layouts");
    if here.is_dir() { here } else { std::env::current_dir().unwrap_or_default() }
}

fn dropped_files(ctx: &egui::Context) -> Vec<Command> {
    ctx.input(|i| {
        i.raw
            .dropped_files
            .iter()
            .map(|f| f.path().to_path_buf())
            .filter(|p| !p.as_os_str().is_empty())
            .map(Command::Open)
            .collect()
    })
}

impl eframe::App for StudioApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    /// The panel colour, so views may skip painting it (fill rate matters under llvmpipe).
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, settings::KEY, &self.persisted_settings());
        // Called at exit too, when no window is left to show a message in.
        if let Err(e) = self.editor.autosave() {
            eprintln!("terminal-studio: the layout's autosave failed: {e}");
        }
    }
}

/// The renderer: `TERMINAL_STUDIO_RENDERER=glow|wgpu`, else glow. Under software rendering
/// (Mesa's llvmpipe, e.g. a VM or Xvfb) glow draws the debugger 4–5× faster than wgpu on
/// lavapipe (docs/viewer.md); on a GPU both are fast.
fn renderer_from_env() -> eframe::Renderer {
    match std::env::var("TERMINAL_STUDIO_RENDERER") {
        Ok(name) => name.trim().parse().unwrap_or_else(|e| {
            eprintln!("TERMINAL_STUDIO_RENDERER: {e}; using glow");
            eframe::Renderer::Glow
        }),
        Err(_) => eframe::Renderer::Glow,
    }
}

/// Opens the window; `file` is a layout (or replay) to open at start. If the renderer
/// cannot start (no OpenGL, say), the other one is tried before giving up.
pub fn run(file: Option<PathBuf>) -> ExitCode {
    let first = renderer_from_env();
    let started = Rc::new(Cell::new(false));
    let mut result = open_window(first, file.clone(), started.clone());
    if let Err(e) = &result
        && !started.get()
    {
        let other = match first {
            eframe::Renderer::Glow => eframe::Renderer::Wgpu,
            eframe::Renderer::Wgpu => eframe::Renderer::Glow,
        };
        eprintln!("terminal-studio: the {first} renderer did not start ({e}); trying {other}");
        result = open_window(other, file, started);
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("terminal-studio: could not open the window: {e}");
            ExitCode::from(1)
        }
    }
}

/// Runs the studio in a window drawn by `renderer`; `started` is set once the app exists
/// (after that, an error is not retried: the user has seen the window).
fn open_window(renderer: eframe::Renderer, file: Option<PathBuf>, started: Rc<Cell<bool>>) -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1400.0, 900.0])
            .with_min_inner_size([800.0, 560.0])
            .with_title("Terminal Studio"),
        renderer,
        ..Default::default()
    };
    eframe::run_native(
        editor::files::APP_ID,
        options,
        Box::new(move |cc| {
            started.set(true);
            let settings: Settings = cc.storage.and_then(|s| eframe::get_value(s, settings::KEY)).unwrap_or_default();
            let mut app = StudioApp::new(settings, Some(editor::files::autosave_path()));
            app.ctx = Some(cc.egui_ctx.clone());
            app.viewer.panels_on_clear_color = true;
            match &file {
                Some(f) if is_replay(f) => app.open_replay(f),
                Some(f) => app.open(f),
                None => app.recover_autosave(),
            }
            Ok(Box::new(app))
        }),
    )
}
