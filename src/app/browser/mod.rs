//! Where a web page differs from a desktop, for the views (the browser build only): files
//! come from drops, the picker and links and live in memory (`terminal_core::files::memory`);
//! the layouts the studio writes are kept in the page's storage; a file saved under a name
//! the user chose leaves as a download. The page's entry point is `crate::web` (with what
//! scripts around the page read and ask: `crate::web::automation`).

pub mod files_in;
pub mod inbox;
pub mod picker;
pub mod storage;
