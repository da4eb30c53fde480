//! Terminal Studio: the desktop studio (map editor, Debugger, arena tab) and the command line,
//! built on `terminal_core`.

pub mod app;
pub mod cli;
