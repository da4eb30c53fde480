//! The studio as an eframe app, in a window or a web page: the frame, the kept state and the
//! autosave at exit, the autosave recovered at start.

use super::StudioApp;
use super::paths;
use super::state::{KEY, State};

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
        let state: State = cc.storage.and_then(|s| eframe::get_value(s, KEY)).unwrap_or_default();
        let mut app = StudioApp::new(state, Some(paths::autosave_path()));
        app.ctx = Some(cc.egui_ctx.clone());
        app.state.viewer.set_panels_on_clear_color(true);
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
