//! The studio in a window of its own (eframe): the renderer, the kept state, the autosave at exit.

use super::StudioApp;
use super::paths;
use super::state::{KEY, State};
use std::cell::Cell;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use terminal_core::files::is_replay;

impl eframe::App for StudioApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
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
    /// Restores the autosaved layout (after a crash or an unsaved exit), if there is one.
    pub fn recover_autosave(&mut self) {
        let editor = &mut self.state.editor.editor;
        let Some(path) = editor.autosave_path.clone() else {
            return;
        };
        if !path.exists() {
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
        paths::APP_ID,
        options,
        Box::new(move |cc| {
            started.set(true);
            let state: State = cc.storage.and_then(|s| eframe::get_value(s, KEY)).unwrap_or_default();
            let mut app = StudioApp::new(state, Some(paths::autosave_path()));
            app.ctx = Some(cc.egui_ctx.clone());
            app.state.viewer.set_panels_on_clear_color(true);
            match &file {
                Some(f) if is_replay(f) => app.open_replay(f),
                Some(f) => app.open(f),
                None => app.recover_autosave(),
            }
            Ok(Box::new(app))
        }),
    )
}
