//! The places the file browser offers above every folder's listing: the home folder, the
//! folder the studio started in, and the folders the player picked from most recently (kept
//! with the studio's other remembered state, in egui's persisted memory).

use std::path::{Path, PathBuf};

/// How many picked folders are remembered.
const KEPT: usize = 8;

fn key() -> egui::Id {
    egui::Id::unique("studio-recent-places")
}

/// The folders picked from, the newest first.
pub fn recent(ctx: &egui::Context) -> Vec<PathBuf> {
    ctx.data_mut(|d| d.get_persisted::<Vec<PathBuf>>(key())).unwrap_or_default()
}

/// Remembers the folder of `picked` (itself when it is a folder) as the newest recent place.
pub fn remember(ctx: &egui::Context, picked: &Path) {
    let folder = if picked.is_dir() { picked } else { picked.parent().unwrap_or(picked) };
    if folder.as_os_str().is_empty() {
        return;
    }
    let folder = std::path::absolute(folder).unwrap_or_else(|_| folder.to_path_buf());
    ctx.data_mut(|d| {
        let list = d.get_persisted_mut_or_default::<Vec<PathBuf>>(key());
        list.retain(|p| *p != folder);
        list.insert(0, folder);
        list.truncate(KEPT);
    });
}

/// Every place offered: the recent folders that still exist, then home and the start folder,
/// each once.
pub fn offered(ctx: &egui::Context) -> Vec<PathBuf> {
    let mut places: Vec<PathBuf> = recent(ctx).into_iter().filter(|p| p.is_dir()).collect();
    for fixed in [std::env::home_dir(), std::env::current_dir().ok()].into_iter().flatten() {
        if !places.contains(&fixed) {
            places.push(fixed);
        }
    }
    places
}
