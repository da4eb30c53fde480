//! File ▸ Open match…: a match of the game's website, named by its id or its watch link, is
//! downloaded into the studio's cache on a thread of its own (once: a match already there is
//! not asked for again), then opened in the Debugger.

use super::command::{Command, FileCommand};
use crossbeam_channel::Receiver;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use terminal_core::library::sync::{self, SyncOptions};

/// The window asking for a match, and its download while one runs.
pub struct OpenMatchPrompt {
    /// What the person typed: a match id or a watch link.
    pub text: String,
    /// The website's API the match is asked of.
    pub api: String,
    /// Where the downloaded replays are kept.
    pub cache: PathBuf,
    /// The last failure, in one line.
    pub error: Option<String>,
    download: Option<Download>,
    /// Frames in which the field takes the keyboard, so the person types at once (a window's
    /// first frame only measures it, and a focus asked then is lost).
    focus_frames: u8,
}

struct Download {
    match_id: u64,
    answer: Receiver<Result<PathBuf, String>>,
    cancel: Arc<AtomicBool>,
}

impl OpenMatchPrompt {
    pub fn new(api: &str, cache: PathBuf) -> OpenMatchPrompt {
        OpenMatchPrompt {
            text: String::new(),
            api: api.to_string(),
            cache,
            error: None,
            download: None,
            focus_frames: 3,
        }
    }

    /// The match being downloaded, if one is.
    pub fn downloading(&self) -> Option<u64> {
        self.download.as_ref().map(|d| d.match_id)
    }

    /// Starts the download of the match typed; a text that names no match is said at once.
    pub fn start(&mut self, wake: Option<egui::Context>) {
        let match_id = match sync::match_id_of(&self.text) {
            Ok(id) => id,
            Err(e) => {
                self.error = Some(e.to_string());
                return;
            }
        };
        let (tx, answer) = crossbeam_channel::bounded(1);
        let cancel = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&cancel);
        let options = SyncOptions { api: self.api.clone(), ..SyncOptions::default() };
        let cache = self.cache.clone();
        let spawned = super::background::spawn("open-match", move || {
            let result = sync::fetch_match(&cache, match_id, &options, &stop).map_err(|e| e.to_string());
            let _ = tx.send(result);
            if let Some(w) = wake {
                w.request_repaint();
            }
        });
        match spawned {
            Ok(()) => {
                self.error = None;
                self.download = Some(Download { match_id, answer, cancel });
            }
            Err(e) => self.error = Some(format!("cannot start the download's thread: {e}")),
        }
    }

    /// The download's answer, if it came: the replay to open, or the failure kept to show.
    pub fn poll(&mut self) -> Option<PathBuf> {
        let answer = self.download.as_ref()?.answer.try_recv().ok()?;
        let match_id = self.download.take().map_or(0, |d| d.match_id);
        match answer {
            Ok(path) => Some(path),
            Err(e) => {
                self.error = Some(format!("Match {match_id} not opened: {e}"));
                None
            }
        }
    }

    fn cancel(&self) {
        if let Some(d) = &self.download {
            d.cancel.store(true, Ordering::Relaxed);
        }
    }
}

/// Draws the window; returns the replay to open once it is downloaded (closing the window).
pub fn show(ctx: &egui::Context, prompt: &mut Option<OpenMatchPrompt>) -> Vec<Command> {
    let Some(p) = prompt.as_mut() else { return Vec::new() };
    if let Some(path) = p.poll() {
        *prompt = None;
        return vec![Command::File(FileCommand::OpenReplay(path))];
    }
    let mut close = false;
    egui::Window::new("Open match")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            let label = ui.label("Match id or watch link");
            let field = ui
                .add(
                    egui::TextEdit::singleline(&mut p.text)
                        .hint_text("https://terminal.c1games.com/watch/12345678")
                        .desired_width(360.0),
                )
                .labelled_by(label.id);
            if p.focus_frames > 0 {
                p.focus_frames -= 1;
                field.request_focus();
            }
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.horizontal(|ui| {
                let idle = p.download.is_none();
                if (ui.add_enabled(idle, egui::Button::new("Download and open")).clicked() || (entered && idle))
                    && !p.text.trim().is_empty()
                {
                    p.start(Some(ctx.clone()));
                }
                if ui.button("Cancel").clicked() {
                    p.cancel();
                    close = true;
                }
            });
            if let Some(id) = p.downloading() {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!("Downloading match {id}…"));
                });
            }
            if let Some(e) = &p.error {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            ui.small(format!("Kept in {}", p.cache.display()));
        });
    if close {
        *prompt = None;
    }
    Vec::new()
}
