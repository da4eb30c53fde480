//! `terminal-studio`: the command line (and, later, the desktop studio).

/// mimalloc: a replay is read as many small lists, which it serves faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    terminal_studio::cli::run()
}
