//! The page's own storage (`localStorage`): the layouts the studio writes are kept there
//! and put back among the page's files when it opens again; a file saved under a name the
//! user chose (Save as, the exports) is also offered as a download.

use std::path::{Path, PathBuf};
use wasm_bindgen::JsCast;

/// The storage keys of kept files start with this, then the file's path.
const PREFIX: &str = "terminal-studio-file:";

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Puts the kept files back among the page's files.
pub fn restore_files() {
    let Some(storage) = local_storage() else { return };
    let count = storage.length().unwrap_or(0);
    let keys: Vec<String> = (0..count).filter_map(|i| storage.key(i).ok().flatten()).collect();
    for key in keys {
        let Some(path) = key.strip_prefix(PREFIX) else { continue };
        if let Ok(Some(text)) = storage.get_item(&key) {
            terminal_core::files::memory::put(Path::new(path), text.into_bytes());
        }
    }
}

/// Whether a written file is kept in the page's storage: text files the studio writes
/// (layouts, the autosave), not images.
fn kept(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

thread_local! {
    /// Files to be offered as a download when next written (named by the user: Save as, exports).
    static TO_DOWNLOAD: std::cell::RefCell<Vec<PathBuf>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The next write of `path` is also offered as a download.
pub fn download_next_write(path: &Path) {
    TO_DOWNLOAD.with(|d| d.borrow_mut().push(path.to_path_buf()));
}

/// Told of every write of the studio's (`files::memory`'s hook).
pub fn on_write(path: &Path, bytes: &[u8]) {
    if kept(path)
        && let Some(storage) = local_storage()
        && let Ok(text) = std::str::from_utf8(bytes)
        && storage.set_item(&format!("{PREFIX}{}", path.display()), text).is_err()
    {
        super::inbox::say(format!("{}: the browser's storage is full: download it to keep it", path.display()));
    }
    let wanted = TO_DOWNLOAD.with(|d| {
        let mut d = d.borrow_mut();
        let before = d.len();
        d.retain(|p| p != path);
        d.len() != before
    });
    if wanted && let Err(e) = download(path, bytes) {
        super::inbox::say(format!("{}: the download failed: {e}", path.display()));
    }
}

/// Offers a file of the page as a download named after it.
pub fn offer_download(path: &Path) -> Result<(), String> {
    let bytes = terminal_core::files::read(path).map_err(|e| e.to_string())?;
    download(path, &bytes)
}

/// Offers bytes as a download named after the file.
fn download(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let js = |e: wasm_bindgen::JsValue| e.as_string().unwrap_or_else(|| format!("{e:?}"));
    let name = path.file_name().map_or_else(|| "download".into(), |n| n.to_string_lossy().into_owned());
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(js)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(js)?;
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let anchor: web_sys::HtmlAnchorElement =
        document.create_element("a").map_err(js)?.dyn_into().map_err(|_| "not an anchor".to_string())?;
    anchor.set_href(&url);
    anchor.set_download(&name);
    anchor.click();
    web_sys::Url::revoke_object_url(&url).map_err(js)?;
    Ok(())
}
