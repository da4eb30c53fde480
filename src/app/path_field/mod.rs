//! A field that holds a path, with a button beside it to pick one (the desktop's file dialog,
//! or the in-app file browser where the desktop has no portal) and a folder or files dropped
//! on it. In the browser build the field is typed only: paths there name the page's files,
//! which come from its picker and drops.

#[cfg(not(target_arch = "wasm32"))]
mod browser;
pub mod places;

use std::path::{Path, PathBuf};

/// The kind of file a field takes: the browser lists only these (and folders).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Replay,
    Json,
    Python,
    Png,
    Any,
}

impl FileKind {
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Replay => "Replay",
            FileKind::Json => "JSON",
            FileKind::Python => "Python",
            FileKind::Png => "PNG",
            FileKind::Any => "Any file",
        }
    }

    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            FileKind::Replay => &["replay", "gz"],
            FileKind::Json => &["json"],
            FileKind::Python => &["py"],
            FileKind::Png => &["png"],
            FileKind::Any => &[],
        }
    }

    /// Whether a file of this name is of the kind (by its extension; any file for `Any`).
    pub fn matches(self, path: &Path) -> bool {
        let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
        self == FileKind::Any || ext.is_some_and(|e| self.extensions().contains(&e.as_str()))
    }
}

/// What a field's button picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    Folder,
    File(FileKind),
    /// Several files at once (a field of one path a line).
    Files(FileKind),
    /// A file to write.
    SaveFile(FileKind),
}

impl Pick {
    pub fn kind(self) -> FileKind {
        match self {
            Pick::Folder => FileKind::Any,
            Pick::File(k) | Pick::Files(k) | Pick::SaveFile(k) => k,
        }
    }
}

/// Where the desktop's own dialogs are (set by the studio each frame; absent: the in-app one).
fn native_key() -> egui::Id {
    egui::Id::unique("studio-native-file-dialogs")
}

/// Tells the path fields whether the desktop has file dialogs of its own.
pub fn set_native_dialogs(ctx: &egui::Context, on: bool) {
    ctx.data_mut(|d| d.insert_temp(native_key(), on));
}

#[cfg(not(target_arch = "wasm32"))]
fn native_dialogs(ctx: &egui::Context) -> bool {
    ctx.data(|d| d.get_temp(native_key())).unwrap_or(false)
}

/// A path field: `PathField::new(&mut text, Pick::Folder).show(ui)`.
#[must_use = "a field is drawn by show()"]
pub struct PathField<'a> {
    text: &'a mut String,
    picks: Vec<(Pick, &'static str)>,
    lines: bool,
    hint: &'a str,
    width: Option<f32>,
    label: Option<egui::Id>,
    title: &'a str,
}

/// What the field did this frame.
pub struct PathFieldOutput {
    /// The text field's response (labelled, hover and focus as usual).
    pub response: egui::Response,
    /// A path was picked or dropped into the field this frame.
    pub filled: bool,
}

impl<'a> PathField<'a> {
    /// A field with one button, "Browse…", that picks as `pick` says.
    pub fn new(text: &'a mut String, pick: Pick) -> PathField<'a> {
        PathField {
            text, picks: vec![(pick, "Browse…")], lines: false, hint: "", width: None, label: None, title: ""
        }
    }

    /// One path a line; each pick adds its paths as lines.
    pub fn lines(mut self) -> Self {
        self.lines = true;
        self
    }

    /// A second way to pick (a field of folders or files: "Folder…" and "Replays…").
    pub fn buttons(mut self, picks: &[(Pick, &'static str)]) -> Self {
        self.picks = picks.to_vec();
        self
    }

    pub fn hint(mut self, hint: &'a str) -> Self {
        self.hint = hint;
        self
    }

    pub fn width(mut self, width: f32) -> Self {
        self.width = Some(width);
        self
    }

    /// The label that names the field (for screen readers and tests), and the dialog's title.
    pub fn labelled_by(mut self, label: egui::Id, title: &'a str) -> Self {
        self.label = Some(label);
        self.title = title;
        self
    }

    pub fn show(self, ui: &mut egui::Ui) -> PathFieldOutput {
        let PathField { text, picks, lines, hint, width, label, title } = self;
        // The title names the field across frames (an open browser must find its field again).
        let id = if title.is_empty() { ui.next_auto_id() } else { egui::Id::unique(("path-field", title)) };
        let mut filled = false;
        let response = ui
            .horizontal(|ui| {
                let buttons = if cfg!(target_arch = "wasm32") { 0.0 } else { 80.0 * picks.len() as f32 };
                let room = (ui.available_width() - buttons).max(120.0);
                let width = width.map_or(room, |w| w.min(room));
                let edit = if lines {
                    egui::TextEdit::multiline(text).desired_rows(2)
                } else {
                    egui::TextEdit::singleline(text)
                };
                let mut response = ui.add(edit.hint_text(hint).desired_width(width));
                if let Some(label) = label {
                    response = response.labelled_by(label);
                }
                if !text.is_empty() && !lines {
                    response = response.on_hover_text(text.as_str());
                }
                #[cfg(not(target_arch = "wasm32"))]
                for (pick, name) in &picks {
                    let hover = format!("Pick {} ({})", describe(*pick), title_or(title, *pick));
                    if ui.button(*name).on_hover_text(hover).clicked() {
                        let picked = pick_now(ui.ctx(), id.with(name), *pick, title_or(title, *pick), text);
                        filled |= fill(ui.ctx(), text, lines, picked);
                    }
                    let picked = poll_browser(ui.ctx(), id.with(name));
                    filled |= fill(ui.ctx(), text, lines, picked);
                }
                #[cfg(target_arch = "wasm32")]
                let _ = (&picks, id);
                filled |= take_drop(ui, &response, text, lines);
                response
            })
            .inner;
        let mut response = response;
        if filled {
            response.mark_changed();
        }
        PathFieldOutput { response, filled }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn title_or(title: &str, pick: Pick) -> &str {
    if !title.is_empty() {
        return title;
    }
    match pick {
        Pick::Folder => "Choose a folder",
        Pick::File(_) | Pick::Files(_) => "Choose files",
        Pick::SaveFile(_) => "Choose where to write",
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn describe(pick: Pick) -> String {
    match pick {
        Pick::Folder => "a folder".into(),
        Pick::File(k) => format!("a {} file", k.name()),
        Pick::Files(k) => format!("{} files", k.name()),
        Pick::SaveFile(k) => format!("where to write the {} file", k.name()),
    }
}

/// Puts the picked paths into the field: the first one, or each as a line (once) in a field
/// of lines. Remembers the place picked from. Whether anything was put.
fn fill(ctx: &egui::Context, text: &mut String, lines: bool, picked: Vec<PathBuf>) -> bool {
    let Some(first) = picked.first() else { return false };
    places::remember(ctx, first);
    if !lines {
        *text = first.display().to_string();
        return true;
    }
    let mut all: Vec<String> = text.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect();
    for p in &picked {
        let line = p.display().to_string();
        if !all.contains(&line) {
            all.push(line);
        }
    }
    *text = all.join("\n");
    true
}

/// Files dropped with the pointer over the field go into it, and no further (the window
/// would otherwise open them).
fn take_drop(ui: &egui::Ui, field: &egui::Response, text: &mut String, lines: bool) -> bool {
    let over = ui.input(|i| i.pointer.latest_pos()).is_some_and(|p| field.rect.contains(p));
    if !over {
        return false;
    }
    if ui.input(|i| !i.raw.hovered_files.is_empty()) {
        ui.painter().rect_stroke(
            field.rect.expand(2.0),
            2.0,
            egui::Stroke::new(2.0, ui.visuals().selection.stroke.color),
            egui::StrokeKind::Outside,
        );
    }
    let dropped: Vec<PathBuf> = ui.input(|i| {
        i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).filter(|p| !p.as_os_str().is_empty()).collect()
    });
    if dropped.is_empty() {
        return false;
    }
    ui.ctx().input_mut(|i| i.raw.dropped_files.clear());
    fill(ui.ctx(), text, lines, dropped)
}

/// Opens the in-app browser of the field titled `title` (a one-button field), as its Browse…
/// would without a desktop dialog, at `at`: for a window that asks for a path because there is
/// none (the browser opens beside it, not over it).
#[cfg(not(target_arch = "wasm32"))]
pub fn open_browser(ctx: &egui::Context, title: &str, pick: Pick, start: &str, at: egui::Pos2) {
    let id = egui::Id::unique(("path-field", title)).with("Browse…");
    let dialog = browser::open(pick, title, Path::new(start.trim()), places::offered(ctx), Some(at));
    ctx.data_mut(|d| d.insert_temp(id, std::sync::Arc::new(std::sync::Mutex::new(dialog))));
}

/// The pick, now if the desktop's dialog answers (it blocks, as the desktop's dialogs do), or
/// later from the in-app browser opened for the field.
#[cfg(not(target_arch = "wasm32"))]
fn pick_now(ctx: &egui::Context, id: egui::Id, pick: Pick, title: &str, text: &str) -> Vec<PathBuf> {
    let start = PathBuf::from(text.lines().next().unwrap_or("").trim());
    if native_dialogs(ctx) {
        let picked = native_dialog(pick, title, &start);
        if !picked.is_empty() {
            return picked;
        }
    }
    let dialog = browser::open(pick, title, &start, places::offered(ctx), None);
    ctx.data_mut(|d| d.insert_temp(id, std::sync::Arc::new(std::sync::Mutex::new(dialog))));
    Vec::new()
}

#[cfg(not(target_arch = "wasm32"))]
type OpenBrowser = std::sync::Arc<std::sync::Mutex<egui_file::FileDialog>>;

/// Draws the field's in-app browser if it is open; what it chose, once.
#[cfg(not(target_arch = "wasm32"))]
fn poll_browser(ctx: &egui::Context, id: egui::Id) -> Vec<PathBuf> {
    let Some(open) = ctx.data(|d| d.get_temp::<OpenBrowser>(id)) else { return Vec::new() };
    let Ok(mut dialog) = open.lock() else { return Vec::new() };
    dialog.show(ctx);
    if dialog.visible() {
        return Vec::new();
    }
    let picked = if !dialog.selected() {
        Vec::new()
    } else if dialog.has_multi_select() {
        dialog.selection().into_iter().map(Path::to_path_buf).collect()
    } else {
        dialog.path().map(Path::to_path_buf).into_iter().collect()
    };
    drop(dialog);
    ctx.data_mut(|d| d.remove::<OpenBrowser>(id));
    picked
}

/// The desktop's dialog for `pick`, starting at `start` (the folder of a file, or the nearest
/// folder that exists); a file to write is offered under `start`'s name.
#[cfg(not(target_arch = "wasm32"))]
pub fn native_dialog(pick: Pick, title: &str, start: &Path) -> Vec<PathBuf> {
    let mut d = rfd::FileDialog::new().set_title(title);
    if let Some(dir) = start.ancestors().find(|p| p.is_dir() && !p.as_os_str().is_empty()) {
        d = d.set_directory(dir);
    }
    let kind = pick.kind();
    if kind != FileKind::Any {
        d = d.add_filter(kind.name(), kind.extensions());
    }
    match pick {
        Pick::Folder => d.pick_folder().into_iter().collect(),
        Pick::File(_) => d.pick_file().into_iter().collect(),
        Pick::Files(_) => d.pick_files().unwrap_or_default(),
        Pick::SaveFile(_) => {
            let name = start.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            d.set_file_name(name).save_file().into_iter().collect()
        }
    }
}
