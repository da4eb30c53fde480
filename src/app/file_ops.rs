//! Files the studio reads and writes on the user's word: layouts (open, save, export), replays
//! (open in the Debugger, import a turn into the editor, compare two), asked for through the
//! native dialog or the in-app path window. Every action says what it did or why not.

use super::StudioApp;
use super::command::{FileAction, FileCommand};
use super::editor::export_png;
use super::file_prompt;
use super::model::View;
use super::paths::{display_name, layouts_dir};
use super::unsaved_prompt::UnsavedPrompt;
use std::path::{Path, PathBuf};
use terminal_core::files::is_replay;
use terminal_core::layout::Layout;

impl StudioApp {
    pub(super) fn apply_file(&mut self, command: FileCommand) {
        match command {
            FileCommand::Ask(action) => self.ask_path(action),
            FileCommand::Open(p) if is_replay(&p) => self.open_replay(&p),
            FileCommand::Open(p) => self.open_unless_unsaved(&p),
            FileCommand::OpenDiscarding(p) => self.open(&p),
            FileCommand::SaveTo(p) => self.save_to(p),
            FileCommand::ExportPython(p) => self.export_python(&p),
            FileCommand::ExportPng(p) => self.export_png(&p),
            FileCommand::ImportReplay(p) => match terminal_core::layout::files::ReplayImport::open(&p) {
                Ok(i) => self.state.editor.editor.import = Some(i),
                Err(e) => *self.message_mut() = format!("Import failed: {e}"),
            },
            FileCommand::OpenReplay(p) => self.open_replay(&p),
            FileCommand::Compare(a, b) => self.compare(&a, &b),
            FileCommand::CompareDialog => self.compare_dialog(),
            FileCommand::Download(p) => self.download(&p),
        }
    }

    /// Asks for a path (the native dialog, or the in-app window without one) and acts on it.
    fn ask_path(&mut self, action: FileAction) {
        let suggested = self.suggestion(action);
        if let Some(c) = file_prompt::ask(action, suggested, self.rt.native_dialogs, &mut self.rt.prompt) {
            self.apply(c);
        }
    }

    /// The path offered for an action: `layouts/<the layout's name>.<ext>` for the layout's
    /// files, the replays folder for replays.
    fn suggestion(&self, action: FileAction) -> PathBuf {
        let ext = match action {
            FileAction::OpenLayout | FileAction::SaveLayoutAs => "json",
            FileAction::ExportPython => "py",
            FileAction::ExportPng => "png",
            FileAction::OpenReplay | FileAction::ImportReplay => return self.replay_folder(),
            FileAction::Ruleset => return PathBuf::from("game-configs.json"),
        };
        let e = &self.state.editor.editor;
        let name = match e.path.as_ref().and_then(|p| p.file_stem()) {
            Some(stem) => stem.to_string_lossy().into_owned(),
            None if !e.layout.name.trim().is_empty() => e.layout.name.trim().replace(' ', "-"),
            None => "layout".into(),
        };
        layouts_dir().join(format!("{name}.{ext}"))
    }

    /// Opens a layout file, after asking when the editor holds unsaved changes to another.
    fn open_unless_unsaved(&mut self, path: &Path) {
        let e = &self.state.editor.editor;
        let same_file = e.path.as_deref() == Some(path);
        if e.dirty && !same_file && !is_replay(path) {
            // A file that cannot be opened is said now, not after the question.
            if terminal_core::files::is_file(path)
                && let Err(err) = terminal_core::layout::files::load_layout(path)
            {
                *self.message_mut() = format!("Open failed: {err}");
                return;
            }
            let current = e.path.as_deref().map_or_else(|| "The layout".to_string(), display_name);
            let saved_at = e.path.clone();
            *self.message_mut() = format!("{current} has unsaved changes: save them, or open without saving");
            self.rt.unsaved = Some(UnsavedPrompt { current, saved_at, next: path.to_path_buf() });
            return;
        }
        self.open(path);
    }

    /// Where replays are offered from: the folder of the replay shown, else `replays/`.
    fn replay_folder(&self) -> PathBuf {
        let shown = self.state.viewer.path().and_then(Path::parent).filter(|d| !d.as_os_str().is_empty());
        shown.map_or_else(|| PathBuf::from("replays"), Path::to_path_buf).join("")
    }

    /// Shows the Editor (before a layout is opened into it, so that its message is the
    /// Editor's).
    pub fn show_editor(&mut self) {
        self.state.view = View::Editor;
    }

    /// Opens a layout file, or a replay (for import), by extension and content.
    pub fn open(&mut self, path: &Path) {
        if is_replay(path) {
            return self.apply_file(FileCommand::ImportReplay(path.to_path_buf()));
        }
        if !terminal_core::files::is_file(path) && path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) {
            // A layout to be: start it empty, saved there by Save.
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let editor = &mut self.state.editor.editor;
            editor.set_layout(Layout { name, ..Default::default() }, Some(path.to_path_buf()));
            editor.dirty = true;
            *self.message_mut() = format!("New layout: Save writes {}", path.display());
            return;
        }
        match terminal_core::layout::files::load_layout(path) {
            Ok(l) => {
                // The layout's own ruleset, said aloud: the Layout lab's attacks follow it.
                let mut switched = String::new();
                if let Some(spec) = l.config.clone()
                    && spec != self.state.ruleset
                    && let Ok(c) = terminal_core::engine::presets::load_config(&spec)
                {
                    switched = format!("; ruleset {spec}, as the layout records (was {})", self.state.ruleset);
                    self.state.editor.editor.set_config(c);
                    self.state.ruleset = spec;
                }
                self.state.editor.editor.set_layout(l, Some(path.to_path_buf()));
                self.state.remember(path);
                // The Debugger keeps its view: its what-if board takes the editor's layout.
                if !matches!(self.state.view, View::Editor | View::Debugger) {
                    self.state.view = View::Editor;
                }
                *self.message_mut() = format!("Opened {}{switched}", display_name(path));
            }
            Err(e) => *self.message_mut() = format!("Open failed: {e}"),
        }
    }

    /// Opens a replay in the viewer and shows the Debugger.
    pub fn open_replay(&mut self, path: &Path) {
        if !self.state.view.shows_replay() {
            self.state.view = View::Debugger;
        }
        self.state.remember(path);
        self.state.viewer.open(path, self.ctx.as_ref());
    }

    fn save_to(&mut self, p: PathBuf) {
        let editor = &mut self.state.editor.editor;
        if editor.layout.name.is_empty() {
            editor.layout.name = p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        }
        editor.layout.config = Some(self.state.ruleset.clone());
        match terminal_core::layout::files::save_layout(&p, &editor.layout) {
            Ok(()) => {
                editor.path = Some(p.clone());
                editor.dirty = false;
                self.state.remember(&p);
                *self.message_mut() = format!("Saved {}", display_name(&p));
            }
            Err(e) => *self.message_mut() = format!("Save failed: {e}"),
        }
    }

    fn export_python(&mut self, p: &Path) {
        let e = &self.state.editor.editor;
        let text = e.layout.to_python(e.player);
        *self.message_mut() = match terminal_core::files::write_atomic(p, text.as_bytes()) {
            Ok(()) => format!("Exported player {}'s layout to {}", e.player.number(), p.display()),
            Err(err) => format!("Export failed: {err}"),
        };
    }

    fn export_png(&mut self, p: &Path) {
        let view = &self.state.editor;
        let options = export_png::PngOptions {
            dark: self.state.theme.is_dark(),
            coverage: view.prefs.overlays.coverage,
            paths: view.prefs.overlays.all_paths,
        };
        *self.message_mut() = match export_png::export(p, &view.editor.layout, &view.editor.analysis, options) {
            Ok(()) => format!("Exported {}", p.display()),
            Err(e) => format!("PNG export failed: {e}"),
        };
    }

    /// Takes a turn of the replay open in the import window into the editor, as one undoable
    /// edit; the ruleset follows the replay's when it is one of the presets.
    pub(super) fn import_turn(&mut self, turn: usize) {
        let editor = &mut self.state.editor.editor;
        let Some(import) = editor.import.as_ref() else {
            *self.message_mut() = "No replay is open for import".into();
            return;
        };
        let Some(layout) = import.layout_at(turn) else {
            *self.message_mut() = "That turn is not in the replay".into();
            return;
        };
        let replay_config = import.replay.config.clone();
        let other_ruleset = replay_config != editor.config;
        *self.message_mut() = format!("Imported {}", layout.name);
        if other_ruleset {
            let note = self.follow_replay_ruleset(replay_config);
            self.message_mut().push_str(&note);
        }
        if let Err(e) = self.state.editor.replace_layout(layout) {
            self.message_mut().push_str(&format!("; the autosave failed: {e}"));
        }
        self.state.editor.editor.import = None;
    }

    /// Takes the replay's ruleset if it is a preset; says which.
    fn follow_replay_ruleset(&mut self, config: terminal_core::engine::Config) -> String {
        use terminal_core::engine::presets::{PRESETS, preset};
        let slug = PRESETS.iter().map(|(slug, _, _)| *slug).find(|slug| preset(slug).is_some_and(|p| p == config));
        match slug {
            Some(slug) => {
                self.state.editor.editor.set_config(config);
                self.state.ruleset = slug.to_string();
                format!(" (ruleset {slug}, as in the replay)")
            }
            None => " (the replay's ruleset is not a preset: tallies use the selected one)".into(),
        }
    }

    /// Asks for two replays (the native dialog twice, or the in-app window), then compares them.
    fn compare_dialog(&mut self) {
        let folder = self.replay_folder();
        if let Some(c) = file_prompt::ask_two_replays(&folder, self.rt.native_dialogs, &mut self.rt.prompt) {
            self.apply(c);
        }
    }

    /// A file of the page offered as a download; on the desktop, where it is.
    fn download(&mut self, path: &Path) {
        #[cfg(target_arch = "wasm32")]
        let said = match crate::app::browser::storage::offer_download(path) {
            Ok(()) => format!("{} offered as a download", display_name(path)),
            Err(e) => format!("Download failed: {}: {e}", path.display()),
        };
        #[cfg(not(target_arch = "wasm32"))]
        let said = format!("{} is on disk at {}", display_name(path), path.display());
        *self.message_mut() = said;
    }

    fn compare(&mut self, a: &Path, b: &Path) {
        match self.state.arena.open_compare(a, b) {
            Ok(()) => {
                self.state.view = View::Arena;
                *self.message_mut() = format!("Comparing {} and {}", display_name(a), display_name(b));
            }
            Err(e) => *self.message_mut() = format!("Compare failed: {e}"),
        }
    }
}
