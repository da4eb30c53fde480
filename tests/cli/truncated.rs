//! A `.replay.gz` cut short (a match killed while writing it) reads to its last complete
//! frame on the command line, exactly as a plain `.replay` cut the same way, and says so.

use crate::common::corpus::first_of;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    match Command::new(env!("CARGO_BIN_EXE_terminal-studio")).args(args).output() {
        Ok(out) => out,
        Err(e) => panic!("cannot run terminal-studio {args:?}: {e}"),
    }
}

/// The replay's text cut at its middle line, written plain and gzipped.
fn cut_replays(dir: &std::path::Path) -> (String, String) {
    let source = first_of("live-2022");
    let replay = terminal_core::replay::read_replay(&source).expect("a live-2022 replay");
    assert!(replay.frames.len() > 20, "a replay long enough to cut");
    let bytes = std::fs::read(&source).expect("the replay file");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text).expect("gzip text");
    let cut = text.len() / 2;
    let plain = dir.join("cut.replay");
    let gz = dir.join("cut.replay.gz");
    std::fs::write(&plain, &text.as_bytes()[..cut]).expect("write plain");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, &text.as_bytes()[..cut]).expect("gzip");
    let gz_bytes = enc.finish().expect("gzip end");
    // Cut the compressed stream too, as a killed writer leaves it: no gzip trailer.
    std::fs::write(&gz, &gz_bytes[..gz_bytes.len() - 8]).expect("write gz");
    (plain.display().to_string(), gz.display().to_string())
}

#[test]
fn a_truncated_gz_verifies_and_shows_like_the_same_cut_plain_replay() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (plain, gz) = cut_replays(dir.path());
    let figures = |path: &str| {
        let out = run(&["verify", path]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(out.status.code(), Some(0), "{path}: exact to where it stops\n{text}");
        assert!(text.contains("truncated at line"), "{path}: says it was cut\n{text}");
        text.lines().find(|l| l.starts_with("summary:")).map(|l| l.split(" in ").next().unwrap_or("").to_string())
    };
    let (a, b) = (figures(&plain), figures(&gz));
    assert!(a.is_some() && a == b, "the same frames checked: {a:?} vs {b:?}");
    let shown = |path: &str| {
        let out = run(&["show", path, "--turn", "1"]);
        assert_eq!(out.status.code(), Some(0), "{path}: {}", String::from_utf8_lossy(&out.stderr));
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(err.contains("truncated at line"), "{path}: says it was cut: {err}");
        out.stdout
    };
    assert_eq!(shown(&plain), shown(&gz), "the same board from both");
}

/// An empty replay file (0 bytes, or only blank lines) is refused saying the file is empty,
/// not that a field is missing from it.
#[test]
fn an_empty_replay_is_refused_as_empty() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, bytes) in [("empty.replay", &b""[..]), ("blank.replay", &b"\n \n\n"[..])] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).expect("write");
        let path = path.display().to_string();
        for command in [&["verify"][..], &["show", "--turn", "0"]] {
            let out = run(&[command, &[path.as_str()]].concat());
            let command = command[0];
            let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            assert!(!out.status.success(), "{command} {name}: {said}");
            assert!(
                said.contains(name) && (said.contains("is empty") || said.contains("only blank lines")),
                "{command} {name}: {said}"
            );
            assert!(!said.contains("unitInformation"), "{command} {name}: {said}");
        }
    }
}
