//! The studio as an eframe app, in a window or a web page: the frame, the kept state and the
//! autosave at exit, the autosave recovered at start.

use super::StudioApp;
use super::paths;
use super::state::{KEY, State};
use std::path::Path;

impl eframe::App for StudioApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        self.rt.last_frame_cpu = frame.info().cpu_usage;
        self.show(ui);
    }

    /// The panel colour, so views may skip painting it (fill rate matters under llvmpipe).
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, KEY, &self.state);
        // Called at exit too, when no window is left to show a message in.
        if let Err(e) = self.state.editor.editor.autosave() {
            eprintln!("terminal-studio: the layout's autosave failed: {e}");
        }
    }
}

impl StudioApp {
    /// The studio in eframe's window (or page): its kept state, its autosave, the window's
    /// context for the background work to wake it.
    pub fn for_window(cc: &eframe::CreationContext<'_>) -> StudioApp {
        #[cfg(not(target_arch = "wasm32"))]
        let file = eframe::storage_dir(paths::APP_ID).map(|d| d.join("app.ron"));
        #[cfg(target_arch = "wasm32")]
        let file: Option<std::path::PathBuf> = None;
        let mut app = StudioApp::from_storage(cc.storage, file.as_deref(), Some(paths::autosave_path()));
        app.ctx = Some(cc.egui_ctx.clone());
        app.state.viewer.set_panels_on_clear_color(true);
        app
    }

    /// The studio with the state kept in eframe's `storage` (kept in `file`), its status line
    /// saying so when that state was damaged and the studio starts with its defaults.
    pub fn from_storage(
        storage: Option<&dyn eframe::Storage>,
        file: Option<&Path>,
        autosave: Option<std::path::PathBuf>,
    ) -> StudioApp {
        let (state, damaged) = kept_state(storage, file);
        let mut app = StudioApp::new(state, autosave);
        if let Some(message) = damaged {
            *app.message_mut() = message;
        }
        app
    }

    /// Restores the autosaved layout (after a crash or an unsaved exit), if there is one.
    pub fn recover_autosave(&mut self) {
        let editor = &mut self.state.editor.editor;
        let Some(path) = editor.autosave_path.clone() else {
            return;
        };
        if !terminal_core::files::is_file(&path) {
            return;
        }
        match terminal_core::layout::files::load_layout(&path) {
            Ok(l) if !l.is_empty() => {
                editor.set_layout(l, None);
                editor.dirty = true;
                *self.message_mut() = format!("Recovered the autosave ({})", path.display());
            }
            Ok(_) => {}
            Err(e) => *self.message_mut() = format!("Autosave not recovered: {e}"),
        }
    }
}

/// The state kept by eframe in `storage` (its file `file`), and, when it was there but could
/// not be read, the message saying the studio started with its defaults. eframe itself drops
/// an unreadable file silently and writes over it at exit: the damaged file is moved aside
/// first, so nothing is lost without a word.
fn kept_state(storage: Option<&dyn eframe::Storage>, file: Option<&Path>) -> (State, Option<String>) {
    let Some(storage) = storage else { return (State::default(), None) };
    if storage.get_string(KEY).is_some() {
        return match eframe::get_value::<State>(storage, KEY) {
            Some(state) => (state, None),
            None => (
                State::default(),
                Some(format!(
                    "The kept studio state{} could not be read (damaged, or from an incompatible studio): \
                     the studio started with its defaults",
                    file.map(|f| format!(" ({})", f.display())).unwrap_or_default()
                )),
            ),
        };
    }
    // No state kept: a first run, or a file eframe could not read at all.
    let Some(file) = file.filter(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > 0)) else {
        return (State::default(), None);
    };
    let moved = match terminal_core::files::move_aside(file) {
        Ok(to) => format!("moved aside to {}", to.display()),
        Err(e) => format!("not moved aside ({e})"),
    };
    let message = format!(
        "The kept studio state {} is damaged (not readable): {moved}; the studio started with its defaults",
        file.display()
    );
    (State::default(), Some(message))
}
