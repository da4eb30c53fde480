//! Terminal Studio: the desktop studio (map editor, Debugger, arena tab) and the command line,
//! built on `terminal_core`; the same studio in a browser (`web`, built for wasm32).

pub mod app;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
#[cfg(target_arch = "wasm32")]
pub mod web;
