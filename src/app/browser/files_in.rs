//! Files the page is given: dropped on it, picked, or named by a link (`?replay=URL`,
//! `?layout=URL`). Each goes into the page's files — replays under `/browser/replays`, the
//! rest under `/browser/layouts` — and is then opened as the desktop opens a path.

use super::inbox;
use crate::app::command::{Command, FileCommand, StudioCommand};
use crate::app::model::View;
use crate::app::paths::{BROWSER_ROOT, browser_replays_dir};
use std::path::{Path, PathBuf};
use terminal_core::files::is_replay;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Where a file of this name goes among the page's files.
pub fn place_for(name: &str) -> PathBuf {
    // Only the last part of a name: a link's path or a dropped name cannot climb out.
    let base = Path::new(name).file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    if is_replay(Path::new(&base)) {
        browser_replays_dir().join(base)
    } else {
        Path::new(BROWSER_ROOT).join("layouts").join(base)
    }
}

/// Puts a file the user gave (dropped, picked, linked) among the page's files; its path there.
pub fn store(name: &str, bytes: Vec<u8>) -> PathBuf {
    let path = place_for(name);
    terminal_core::files::memory::put(&path, bytes);
    path
}

/// Puts a linked file into the page's files and opens it: a replay in the Debugger, a
/// layout in the editor.
pub fn receive(name: &str, bytes: Vec<u8>) {
    let path = store(name, bytes);
    // The editor first, so the status line that says what opened is the editor's.
    if !is_replay(&path) {
        inbox::push(Command::Studio(StudioCommand::SetView(View::Editor)));
    }
    inbox::push(Command::File(FileCommand::Open(path)));
}

/// Reads the files dropped on the page this frame (their bytes come later). All go into the
/// page's files; the first is opened, and the status line says where the others went (a set
/// of replays dropped for the Layout lab, say).
pub fn dropped(ctx: &egui::Context) {
    let files = ctx.input(|i| i.raw.dropped_files.clone());
    if files.is_empty() {
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let mut placed = Vec::new();
        for file in files {
            let name = file.path().to_string_lossy().into_owned();
            match file.bytes_async().await {
                Ok(bytes) => placed.push(store(&name, bytes)),
                Err(e) => inbox::say(format!("{name}: could not read the dropped file: {e}")),
            }
        }
        let Some(first) = placed.first() else { return };
        inbox::push(Command::File(FileCommand::Open(first.clone())));
        if placed.len() > 1 {
            let replays = placed.iter().filter(|p| is_replay(p)).count();
            inbox::say(format!(
                "{} files added to the page ({replays} replays, in {}: the Layout lab's folder); opened {}",
                placed.len(),
                browser_replays_dir().display(),
                crate::app::paths::display_name(first)
            ));
        }
    });
}

/// The links in the page's address: `?replay=URL` and `?layout=URL`, in that order.
pub fn links_in_address() -> Vec<String> {
    let Some(search) = web_sys::window().and_then(|w| w.location().search().ok()) else { return Vec::new() };
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else { return Vec::new() };
    ["replay", "layout"].iter().filter_map(|key| params.get(key)).filter(|url| !url.trim().is_empty()).collect()
}

/// Fetches a linked file and opens it; says why not if it cannot.
pub fn fetch(url: String) {
    wasm_bindgen_futures::spawn_local(async move {
        match fetch_bytes(&url).await {
            Ok(bytes) => {
                let name = url.split(['?', '#']).next().unwrap_or(&url).rsplit('/').next().unwrap_or("linked");
                receive(name, bytes);
            }
            // A refused request from another site shows as a network error, not an HTTP status.
            Err(e) if e.starts_with("HTTP") => inbox::say(format!("{url}: could not fetch it ({e})")),
            Err(e) => inbox::say(format!("{url}: could not fetch it ({e}); another site must allow it (CORS)")),
        }
    });
}

async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let js = |e: wasm_bindgen::JsValue| e.as_string().unwrap_or_else(|| format!("{e:?}"));
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url)).await.map_err(js)?;
    let response: web_sys::Response = response.dyn_into().map_err(js)?;
    if !response.ok() {
        return Err(format!("HTTP {} {}", response.status(), response.status_text()));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(js)?).await.map_err(js)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}
