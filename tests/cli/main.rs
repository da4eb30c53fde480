//! The `terminal-studio` command line run as a player runs it, and the workspace's shape read
//! from its source: one test binary, linked once.

#[path = "../common/mod.rs"]
mod common;

mod arena;
mod attack;
mod exit_codes;
mod library;
mod library_sync;
mod lying_replay;
mod match_cmd;
mod module_layers;
mod parse;
mod regress;
mod show;
mod stress;
mod truncated;

/// Runs `terminal-studio <subcommand> <args>`: its exit code, stdout and stderr.
fn run_studio(subcommand: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .arg(subcommand)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run terminal-studio {subcommand}: {e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
