//! The in-app file browser (egui_file's dialog) for desktops without a file-dialog portal:
//! folders, the files of the kind asked for, the recent places above every listing, and the
//! path still typed at the top. Its listing sorts names by their numbers (replay 2 before 10).

use super::{FileKind, Pick};
use egui_file::vfs::{Vfs, VfsFile};
use egui_file::{FileDialog, Filter};
use std::path::{Path, PathBuf};

/// The dialog for `pick`, open, starting at `start` (a folder, or a file whose folder is shown).
pub fn open(pick: Pick, title: &str, start: &Path, places: Vec<PathBuf>, at: Option<egui::Pos2>) -> FileDialog {
    let folder = start_folder(start);
    let kind = pick.kind();
    let dialog = match pick {
        Pick::Folder => FileDialog::select_folder(),
        Pick::File(_) => FileDialog::open_file(),
        Pick::Files(_) => FileDialog::open_file().multi_select(true),
        Pick::SaveFile(_) => {
            let name = start.file_name().filter(|_| !start.is_dir()).map(|n| n.to_string_lossy().into_owned());
            FileDialog::save_file().default_filename(name.unwrap_or_default())
        }
    };
    let shown: Filter<PathBuf> = Box::new(move |p: &Path| kind.matches(p));
    let named: Filter<String> = Box::new(move |name: &str| kind.matches(Path::new(name)));
    let mut dialog = dialog
        .initial_path(folder)
        .title(title)
        .id(egui::Id::unique(("studio-file-browser", title)))
        .default_size([560.0, 420.0])
        .open_button_text(if pick == Pick::Folder { "Choose this folder".into() } else { "Choose".into() })
        .save_button_text("Choose".into())
        .cancel_button_text("Close the browser".into())
        .show_rename(false)
        .show_files_filter(shown)
        .filename_filter(named)
        .with_fs(Box::new(PlacesFs { kind, places }));
    if let Some(at) = at {
        dialog = dialog.default_pos(at);
    }
    dialog.open();
    dialog
}

/// The folder a browse starts in: `start` if it is one, else its nearest existing parent,
/// else the studio's start folder; always absolute (the browser's "up" walks its parents).
fn start_folder(start: &Path) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_default();
    let start = cwd.join(start);
    start.ancestors().find(|p| p.is_dir()).map_or(cwd, Path::to_path_buf)
}

/// The file system as the browser lists it: the places first, then folders, then the files of
/// the kind asked for, each group in natural order.
struct PlacesFs {
    kind: FileKind,
    places: Vec<PathBuf>,
}

impl Vfs for PlacesFs {
    fn create_dir(&self, path: &Path) -> std::io::Result<()> {
        std::fs::create_dir(path)
    }

    fn rename(&self, from: &Path, to: &Path) -> std::io::Result<()> {
        std::fs::rename(from, to)
    }

    fn read_folder(
        &self,
        path: &Path,
        _show_system_files: bool,
        _show_files_filter: &Filter<PathBuf>,
        #[cfg(unix)] show_hidden: bool,
        #[cfg(windows)] _show_drives: bool,
    ) -> std::io::Result<Vec<Box<dyn VfsFile>>> {
        #[cfg(not(unix))]
        let show_hidden = false;
        let mut entries: Vec<Entry> = std::fs::read_dir(path)?
            .filter_map(Result::ok)
            .map(|e| Entry::new(e.path(), e.file_name().to_string_lossy().into_owned()))
            .filter(|e| show_hidden || !e.name.starts_with('.'))
            .filter(|e| e.dir || (e.file && self.kind.matches(&e.path)))
            .collect();
        entries.sort_by(|a, b| b.dir.cmp(&a.dir).then_with(|| natord::compare_ignore_case(&a.name, &b.name)));
        let places = self
            .places
            .iter()
            .filter(|p| p.as_path() != path)
            .map(|p| Entry::new(p.clone(), format!("★ {}", p.display())));
        Ok(places.chain(entries).map(|e| Box::new(e) as Box<dyn VfsFile>).collect())
    }
}

/// One row of the listing.
#[derive(Clone, Debug)]
struct Entry {
    path: PathBuf,
    name: String,
    dir: bool,
    file: bool,
    selected: bool,
}

impl Entry {
    fn new(path: PathBuf, name: String) -> Entry {
        let meta = std::fs::metadata(&path).ok();
        let dir = meta.as_ref().is_some_and(|m| m.is_dir());
        let file = meta.as_ref().is_some_and(|m| m.is_file());
        Entry { path, name, dir, file, selected: false }
    }
}

impl VfsFile for Entry {
    fn is_file(&self) -> bool {
        self.file
    }
    fn is_dir(&self) -> bool {
        self.dir
    }
    fn path(&self) -> &Path {
        &self.path
    }
    fn selected(&self) -> bool {
        self.selected
    }
    fn set_selected(&mut self, selected: bool) {
        self.selected = selected;
    }
    fn get_file_name(&self) -> &str {
        &self.name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listing_puts_places_then_folders_then_replays_in_natural_order() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for name in ["g10.replay", "g2.replay", "g1.replay.gz", "notes.txt"] {
            std::fs::write(dir.path().join(name), b"x").expect("a file written");
        }
        std::fs::create_dir(dir.path().join("zeta")).expect("a folder");
        let place = tempfile::tempdir().expect("a second folder");
        let fs =
            PlacesFs { kind: FileKind::Replay, places: vec![place.path().to_path_buf(), dir.path().to_path_buf()] };
        let all: Filter<PathBuf> = Box::new(|_: &Path| true);
        #[cfg(unix)]
        let listing = fs.read_folder(dir.path(), false, &all, false).expect("the folder listed");
        #[cfg(windows)]
        let listing = fs.read_folder(dir.path(), false, &all, false).expect("the folder listed");
        let names: Vec<&str> = listing.iter().map(|e| e.get_file_name()).collect();
        let place_name = format!("★ {}", place.path().display());
        assert_eq!(names, [place_name.as_str(), "zeta", "g1.replay.gz", "g2.replay", "g10.replay"]);
    }

    #[test]
    fn a_browse_starts_at_the_nearest_existing_folder() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let missing = dir.path().join("not").join("there.replay");
        assert_eq!(start_folder(&missing), dir.path());
    }
}
