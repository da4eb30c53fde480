//! The studio in a window of its own (eframe): the renderer, the window, what it opens with.

use super::StudioApp;
use super::paths;
use std::cell::Cell;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use terminal_core::files::is_replay;

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
    if let Some(missing) = missing_display() {
        eprintln!("terminal-studio: cannot open the window: {missing}. {CLI_WORKS}");
        return ExitCode::from(1);
    }
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
            eprintln!(
                "terminal-studio: could not open the window: {e}. The window needs OpenGL 2 or \
                 Vulkan: on a machine without a GPU, Mesa's software renderer (Debian and Ubuntu: \
                 apt install libgl1-mesa-dri libegl1 mesa-vulkan-drivers). {CLI_WORKS}"
            );
            ExitCode::from(1)
        }
    }
}

/// Said whenever the window cannot open: the studio's other half needs no display.
const CLI_WORKS: &str = "Every command of the command line works without a window: terminal-studio --help";

/// Why no window can open here, if that is known before trying: on Linux and the BSDs a
/// window needs an X11 or Wayland display, which a remote shell, a container or CI lacks.
fn missing_display() -> Option<&'static str> {
    if cfg!(all(unix, not(target_os = "macos")))
        && ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
            .iter()
            .all(|v| std::env::var_os(v).is_none_or(|s| s.is_empty()))
    {
        Some("no display (neither DISPLAY nor WAYLAND_DISPLAY is set: a remote shell, a container or CI)")
    } else {
        None
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
            let mut app = StudioApp::for_window(cc);
            match &file {
                Some(f) if is_replay(f) => app.open_replay(f),
                Some(f) => {
                    // A layout named on the command line is to be edited, whatever view was
                    // last shown.
                    app.show_editor();
                    app.open(f);
                }
                None => app.recover_autosave(),
            }
            Ok(Box::new(app))
        }),
    )
}
