//! `terminal-studio`: the command line (and, later, the desktop studio).

fn main() -> std::process::ExitCode {
    terminal_studio::cli::run()
}
