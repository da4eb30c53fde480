//! The browser's file picker: the file comes back later, with its bytes, and is opened as
//! the action asked.

use super::{files_in, inbox};
use crate::app::command::FileAction;

/// Opens the picker for `action`; what the user picks is opened when it has been read.
pub fn pick(action: FileAction) -> Result<(), String> {
    let dialog = rfd::AsyncFileDialog::new().set_title(action.title());
    let dialog = match action {
        FileAction::OpenReplay | FileAction::ImportReplay => dialog.add_filter("Replay", &["replay", "gz"]),
        FileAction::OpenLayout | FileAction::Ruleset => dialog.add_filter("JSON", &["json"]),
        _ => return Err(format!("{}: not in the browser", action.title())),
    };
    wasm_bindgen_futures::spawn_local(async move {
        let Some(file) = dialog.pick_file().await else { return };
        let path = files_in::store(&file.file_name(), file.read().await);
        inbox::push(action.command(path));
    });
    Ok(())
}
