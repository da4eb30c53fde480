//! Terminal Studio: a clean-room engine for Correlation One's Terminal, with a replay
//! reader/writer, a fidelity verifier, and (in later modules) the runner and the studio GUI.

pub mod app;
pub mod arena;
pub mod cli;
pub mod engine;
pub mod replay;
pub mod runner;
pub mod session;
pub mod verify;
