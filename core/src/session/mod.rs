//! The non-GUI core of the visual debugger and replay viewer: a simulation worker
//! on its own thread (or inline, for tests) driven by typed requests, the frame history of a
//! replay, per-frame debugger data from the engine, what-if runs, the algos' companion files
//! and a text rendering of the board. No GUI dependency: the UI passes a repaint callback.
//!
//! Use from a GUI:
//!
//! ```text
//! let ctx2 = ctx.clone();
//! let sim = SessionHandle::spawn(Box::new(move || ctx2.request_repaint()))?;
//! sim.send(Request::LoadReplay(path));            // never blocks; Err(request) if the queue is full
//! sim.send(Request::RunWhatIf { source, spec, label }); // one try; WhatIfSpec::default() = as played
//! // each UI frame:
//! for event in sim.drain() {
//!     match event {
//!         Event::ReplayLoaded(summary) => { /* names, turns[i].hp/sp/mp/structure_value/time_ms */ }
//!         Event::Frame { turn, frame, view } => { /* view.frame (replay frame), view.debug (overlays) */ }
//!         Event::WhatIfResult(t) => { /* t.summary; t.frames + t.debug, shown by Request::WatchTry */ }
//!         Event::Progress { .. } | Event::Error(_) => {}
//!     }
//! }
//! ```
//!
//! Tests use `Session::inline().request(..)`, which returns the events synchronously.

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
pub use protocol::{Event, FrameView, Request, SessionError, WhatIfSource};
