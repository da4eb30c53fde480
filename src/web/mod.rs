//! The studio in a browser: the entry point the page calls (`start`). The views are the
//! desktop's; where a page differs from a desktop is `app::browser`.

pub mod automation;

use crate::app::StudioApp;
use crate::app::browser::{files_in, inbox, storage};
use wasm_bindgen::prelude::*;

/// The studio as the page runs it: each frame drawn, then published for the scripts around
/// the page (`automation`).
struct PageApp(StudioApp);

impl eframe::App for PageApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        self.0.ui(ui, frame);
        automation::publish(&self.0, ui.ctx());
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        self.0.clear_color(visuals)
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.0.save(storage);
    }
}

/// Starts the studio on the page's `<canvas id=canvas_id>`; a `?replay=URL` (or `?layout=URL`)
/// in the page's address is fetched and opened.
#[wasm_bindgen]
pub async fn start(canvas_id: String) -> Result<(), JsValue> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let canvas = document
        .get_element_by_id(&canvas_id)
        .ok_or_else(|| format!("no element #{canvas_id} in the page"))?
        .dyn_into::<web_sys::HtmlCanvasElement>()
        .map_err(|_| format!("#{canvas_id} is not a canvas"))?;
    storage::restore_files();
    terminal_core::files::memory::set_write_hook(Box::new(storage::on_write));
    let links = files_in::links_in_address();
    let runner = eframe::WebRunner::new();
    runner
        .start(
            canvas,
            eframe::WebOptions::default(),
            Box::new(move |cc| {
                inbox::set_window(cc.egui_ctx.clone());
                let mut app = StudioApp::for_window(cc);
                if links.is_empty() {
                    app.recover_autosave();
                }
                for link in links {
                    files_in::fetch(link);
                }
                Ok(Box::new(PageApp(app)))
            }),
        )
        .await
}
