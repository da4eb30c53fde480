//! The studio's window driven as a player drives it (egui_kittest): one test binary, so the
//! GUI and its dependencies are linked once rather than once per story file.

#[path = "../common/mod.rs"]
mod common;

mod arena;
mod debugger;
mod editor;
mod files_and_messages;
mod lab;
mod library;
mod library_sync;
mod path_fields;
mod planner;
mod play;
mod play_stories;
mod robustness;
mod settings;
mod versions;
mod viewer;
mod what_if;
