//! Asking for a file path. The native dialog is used where the desktop has one (on Linux a
//! file-dialog portal on the session bus); where it has none, or it gives no path back, an
//! in-app window asks for the path, prefilled, so that every file action works or says why.

use super::command::{Command, FileAction, FileCommand};
use super::path_field::{FileKind, PathField, Pick};
use std::path::{Path, PathBuf};

/// How the file browser picks the path of an action.
fn pick(action: FileAction) -> Pick {
    match action {
        FileAction::OpenLayout | FileAction::Ruleset => Pick::File(FileKind::Json),
        FileAction::SaveLayoutAs => Pick::SaveFile(FileKind::Json),
        FileAction::OpenReplay | FileAction::ImportReplay => Pick::File(FileKind::Replay),
        FileAction::ExportPython => Pick::SaveFile(FileKind::Python),
        FileAction::ExportPng => Pick::SaveFile(FileKind::Png),
    }
}

/// What a file dialog answered.
enum Answer {
    Path(PathBuf),
    /// It will answer later, with a command of its own (the browser's picker).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    Later,
    /// No path: closed, or no dialog.
    Nothing,
}

impl From<Option<PathBuf>> for Answer {
    fn from(p: Option<PathBuf>) -> Answer {
        p.map_or(Answer::Nothing, Answer::Path)
    }
}

/// The native dialog for an action, starting at `suggested` (its folder, or itself when a
/// folder is asked for).
#[cfg(not(target_arch = "wasm32"))]
fn native_dialog(action: FileAction, suggested: &Path) -> Answer {
    super::path_field::native_dialog(pick(action), action.title(), suggested).into_iter().next().into()
}

/// The browser's: a file to open comes from the page's picker, later; a file to write goes
/// to the page's files under the name offered, and from there to a download.
#[cfg(target_arch = "wasm32")]
fn native_dialog(action: FileAction, suggested: &Path) -> Answer {
    if action.writes() {
        crate::app::browser::storage::download_next_write(suggested);
        return Answer::Path(suggested.to_path_buf());
    }
    match crate::app::browser::picker::pick(action) {
        Ok(()) => Answer::Later,
        Err(_) => Answer::Nothing,
    }
}

/// The native dialog for one replay of a comparison.
#[cfg(not(target_arch = "wasm32"))]
fn native_replay_dialog(title: &str) -> Option<PathBuf> {
    rfd::FileDialog::new().set_title(title).add_filter("Replay", &["replay", "gz"]).pick_file()
}

/// The browser compares replays in the desktop's arena only: the paths are typed.
#[cfg(target_arch = "wasm32")]
fn native_replay_dialog(_title: &str) -> Option<PathBuf> {
    None
}

/// Whether a native file dialog can answer: on Linux and the BSDs rfd asks the desktop portal
/// over the session bus, which a minimal window manager, WSL or a remote desktop may lack.
pub fn native_dialogs_available() -> bool {
    if cfg!(any(target_os = "windows", target_os = "macos", target_arch = "wasm32")) {
        return true;
    }
    std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|v| !v.is_empty())
}

/// The in-app window asking for a path (two for a comparison of replays).
#[derive(Clone, Debug, PartialEq)]
pub struct FilePrompt {
    pub action: FileAction,
    pub text: String,
    /// Why the window is shown (no portal, or the dialog gave no path).
    pub note: String,
    /// The second replay (B) of a comparison; `None`: one path is asked.
    pub second: Option<String>,
    /// The in-app file browser opens with the window (there is no desktop dialog).
    pub browse_first: bool,
}

impl FilePrompt {
    /// Asks for the two replays of a comparison, both prefilled with `folder`.
    pub fn two_replays(folder: String, note: String) -> FilePrompt {
        FilePrompt {
            action: FileAction::OpenReplay,
            text: folder.clone(),
            note,
            second: Some(folder),
            browse_first: false,
        }
    }

    pub fn title(&self) -> &'static str {
        if self.second.is_some() { "Compare two replays" } else { self.action.title() }
    }

    /// What the studio does with the typed path(s), once they are all there.
    fn command(&self) -> Option<Command> {
        let path = |text: &str| Some(PathBuf::from(text.trim())).filter(|p| !p.as_os_str().is_empty());
        let first = path(&self.text)?;
        match &self.second {
            Some(b) => Some(Command::File(FileCommand::Compare(first, path(b)?))),
            None => Some(self.action.command(first)),
        }
    }
}

/// Asks for a path for `action`: the native dialog if `native`, else (or if it gives no path)
/// the in-app window prefilled with `suggested`. Returns the command to run now, if any.
pub fn ask(action: FileAction, suggested: PathBuf, native: bool, prompt: &mut Option<FilePrompt>) -> Option<Command> {
    let note = if native {
        match native_dialog(action, &suggested) {
            Answer::Path(p) => return Some(action.command(p)),
            Answer::Later => return None,
            Answer::Nothing => "The file dialog gave no path (closed, or no desktop portal): type one here, \
                                or Browse…."
                .to_string(),
        }
    } else {
        "No file dialog on this desktop (no portal on the session bus): pick in the browser, or type the path."
            .to_string()
    };
    let browse_first = !native && cfg!(not(target_arch = "wasm32"));
    *prompt = Some(FilePrompt { action, text: suggested.display().to_string(), note, second: None, browse_first });
    None
}

/// Asks for the two replays of a comparison: the native dialog twice if `native`, else (or
/// if it gives no replay) the in-app window prefilled with `folder`.
pub fn ask_two_replays(folder: &Path, native: bool, prompt: &mut Option<FilePrompt>) -> Option<Command> {
    let note = if !native {
        "No file dialog on this desktop (no portal on the session bus): type or browse to the two replays."
    } else if let Some(a) = native_replay_dialog("First replay (A)")
        && let Some(b) = native_replay_dialog("Second replay (B)")
    {
        return Some(Command::File(FileCommand::Compare(a, b)));
    } else {
        "The file dialog gave no replay (closed, or no desktop portal): type the two paths."
    };
    *prompt = Some(FilePrompt::two_replays(folder.display().to_string(), note.into()));
    None
}

/// Draws the in-app window; returns the command once the path (or both) is confirmed.
pub fn show(ctx: &egui::Context, prompt: &mut Option<FilePrompt>) -> Option<Command> {
    let p = prompt.as_mut()?;
    let mut out = None;
    let mut close = false;
    egui::Window::new(p.title()).collapsible(false).resizable(false).default_pos(egui::pos2(80.0, 80.0)).show(
        ctx,
        |ui| {
            ui.weak(&p.note);
            let mut enter = false;
            let title = p.title();
            let pick = pick(p.action);
            #[cfg(not(target_arch = "wasm32"))]
            if std::mem::take(&mut p.browse_first) {
                let below = ui.min_rect().left_bottom() + egui::vec2(0.0, 120.0);
                crate::app::path_field::open_browser(ctx, title, pick, &p.text, below);
            }
            let fields = match p.second.as_mut() {
                Some(b) => vec![("Replay A", "Replay A", &mut p.text), ("Replay B", "Replay B", b)],
                None => vec![("Path", title, &mut p.text)],
            };
            let mut picked = false;
            for (name, title, text) in fields {
                let label = ui.label(name);
                let field = PathField::new(text, pick).width(420.0).labelled_by(label.id, title).show(ui);
                enter |= field.response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                picked |= field.filled;
            }
            ui.horizontal(|ui| {
                let ready = p.command();
                // A path chosen in the browser is the answer: the window need not be confirmed.
                let go = enter || (picked && p.second.is_none());
                if (ui.add_enabled(ready.is_some(), egui::Button::new("OK")).clicked() || go) && ready.is_some() {
                    out = ready;
                    close = true;
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        },
    );
    if close {
        *prompt = None;
    }
    out
}
