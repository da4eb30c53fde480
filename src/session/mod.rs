//! The non-GUI core of the visual debugger and replay viewer (issue 5): a simulation worker
//! on its own thread (or inline, for tests) driven by typed requests, the frame history of a
//! replay, per-frame debugger data from the engine, what-if runs, the algos' companion files
//! and a text rendering of the board. No GUI dependency: the UI passes a repaint callback.

pub mod board_text;
pub mod companions;
pub mod debug;
pub mod handle;
pub mod history;
pub mod protocol;
pub mod summary;
pub mod whatif;
mod worker;

pub use handle::{Session, SessionHandle};
pub use protocol::{Event, FrameView, Request, WhatIfSource};
