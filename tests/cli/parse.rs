//! How the command line is read: no arguments or a file open the studio, a subcommand runs,
//! and a mistyped subcommand is clap's error with its suggestion, never the studio opening.

use std::path::PathBuf;
use terminal_studio::cli::{Command, Invocation, parse_from};

fn studio_file(args: &[&str]) -> Option<PathBuf> {
    match parse_from(std::iter::once("terminal-studio").chain(args.iter().copied())) {
        Ok(Invocation::Studio(file)) => file,
        other => panic!("{args:?} should open the studio, got {other:?}"),
    }
}

#[test]
fn no_arguments_or_a_file_to_open_start_the_studio() {
    assert_eq!(studio_file(&[]), None);
    for file in ["board.json", "match.replay", "dir/match.replay.gz", "UPPER.REPLAY.GZ"] {
        assert_eq!(studio_file(&[file]), Some(PathBuf::from(file)));
    }
    assert_eq!(studio_file(&["gui"]), None);
    assert_eq!(studio_file(&["gui", "board.json"]), Some(PathBuf::from("board.json")));
    assert_eq!(studio_file(&["view", "m.replay"]), Some(PathBuf::from("m.replay")));
}

#[test]
fn an_existing_file_of_any_name_opens_the_studio() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("mach");
    std::fs::write(&file, "{}").expect("write");
    let arg = file.to_string_lossy().into_owned();
    assert_eq!(studio_file(&[&arg]), Some(file));
}

#[test]
fn a_mistyped_subcommand_is_an_error_with_a_suggestion() {
    let err = parse_from(["terminal-studio", "mach"]).expect_err("not a subcommand");
    assert_eq!(err.kind(), clap::error::ErrorKind::InvalidSubcommand);
    assert_eq!(err.exit_code(), 2);
    let text = err.render().to_string();
    assert!(text.contains("'mach'") && text.contains("'match'"), "{text}");
    let err = parse_from(["terminal-studio", "verfiy", "x"]).expect_err("not a subcommand");
    assert!(err.render().to_string().contains("'verify'"), "{err}");
}

#[test]
fn subcommands_keep_their_arguments() {
    let run = |args: &[&str]| match parse_from(std::iter::once("terminal-studio").chain(args.iter().copied())) {
        Ok(Invocation::Run(c)) => *c,
        other => panic!("{args:?}: {other:?}"),
    };
    match run(&["verify", "a", "b", "--json", "--jobs", "3", "-q"]) {
        Command::Verify(v) => {
            assert_eq!(v.paths, [PathBuf::from("a"), PathBuf::from("b")]);
            assert!(v.json && v.quiet && !v.ghosts);
            assert_eq!(v.jobs, Some(3));
        }
        other => panic!("{other:?}"),
    }
    match run(&["arena", "x", "y", "--sprt", "--games", "4", "--soft-ms", "200"]) {
        Command::Arena(a) => {
            assert_eq!((a.games, a.sprt.as_deref(), a.limits.soft_ms), (4, Some(""), Some(200)));
        }
        other => panic!("{other:?}"),
    }
    match run(&["show", "r.replay", "--turn", "3"]) {
        Command::Show(s) => assert_eq!((s.turn, s.frame), (3, 0)),
        other => panic!("{other:?}"),
    }
    let err = parse_from(["terminal-studio", "arena", "--seat", "1"]).expect_err("--seat needs --vs-ghosts");
    assert_eq!(err.exit_code(), 2);
}

/// `help`, `--help` and `-h` begin by saying what the program is, and exit 0.
#[test]
fn help_starts_by_saying_what_the_studio_is() {
    for arg in ["help", "--help", "-h"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
            .arg(arg)
            // Help never opens the studio: without a display a window would fail.
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .expect("binary runs");
        assert_eq!(out.status.code(), Some(0), "{arg}: {out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        let first = text.lines().next().unwrap_or_default();
        assert!(first.contains("workbench for Terminal"), "{arg}: the first line is {first:?}");
        assert!(text.contains("Commands:") && text.contains("match"), "{arg}: the commands are listed:\n{text}");
    }
}
