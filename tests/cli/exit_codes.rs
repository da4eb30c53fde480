//! One exit-status convention for every command: 0 done, 1 ran and found a difference or a
//! failure, 2 bad input or usage (clap's errors included).

use crate::common::corpus::{LONG, algo, replay};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::Output;

fn run(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_terminal-studio"))
        .args(args)
        // A command that wrongly opened the studio fails fast instead of showing a window.
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("binary runs")
}

fn code(out: &Output) -> Option<i32> {
    out.status.code()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn text(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

#[test]
fn a_mistyped_subcommand_exits_2_with_the_suggestion() {
    let out = run(&["mach"]);
    assert_eq!(code(&out), Some(2), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("unrecognized subcommand 'mach'") && err.contains("'match'"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    for args in
        [&["verify"][..], &["match", "a"], &["show", "x.replay"], &["--no-such-flag"], &["arena", "--seat", "3"]]
    {
        let out = run(args);
        assert_eq!(code(&out), Some(2), "{args:?}: {out:?}");
    }
    assert_eq!(code(&run(&["--help"])), Some(0));
    assert_eq!(code(&run(&["--version"])), Some(0));
}

#[test]
fn bad_input_exits_2_naming_what_is_wrong() {
    let dir = tempfile::tempdir().expect("tempdir");
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).expect("mkdir");
    let out = run(&["verify", text(&empty)]);
    assert_eq!(code(&out), Some(2), "{out:?}");
    assert!(stderr(&out).contains(text(&empty)), "{}", stderr(&out));

    let missing = dir.path().join("missing.replay");
    for args in [vec!["show", text(&missing), "--turn", "1"], vec!["bench", text(&missing)]] {
        let out = run(&args);
        assert_eq!(code(&out), Some(2), "{args:?}: {out:?}");
        assert!(stderr(&out).contains(text(&missing)), "{}", stderr(&out));
    }
    let out = run(&["bench-paths", text(&dir.path().join("missing.json"))]);
    assert_eq!(code(&out), Some(2), "{out:?}");

    let long = replay(LONG);
    let out = run(&["show", text(&long), "--turn", "9999"]);
    assert_eq!(code(&out), Some(2), "{out:?}");
    assert!(stderr(&out).contains("no turn 9999"), "{}", stderr(&out));
    let out = run(&["show", text(&long), "--turn", "3", "--frame", "100000"]);
    assert_eq!(code(&out), Some(2), "{out:?}");
    assert!(stderr(&out).contains("turn 3 has frames 0–"), "{}", stderr(&out));
}

#[test]
fn arena_settings_the_core_refuses_exit_2_in_the_users_words() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out_dir = dir.path().join("out");
    let (a, b, c) = (algo("py-idle"), algo("py-builder"), algo("py-random"));
    let three = [text(&a), text(&b), text(&c)];
    let cases: [(Vec<&str>, &str); 4] = [
        (vec!["--sprt"], "SPRT early stop compares exactly two algos (3 given)"),
        (vec!["--config", "no-such-ruleset"], "no-such-ruleset"),
        (vec!["--games", "0"], "at least one game"),
        (vec!["--max-ms", "0"], "hard time limit"),
    ];
    for (extra, expected) in cases {
        let mut args = vec!["arena"];
        args.extend(three);
        args.extend(["--out", text(&out_dir)]);
        args.extend(&extra);
        let out = run(&args);
        assert_eq!(code(&out), Some(2), "{extra:?}: {out:?}");
        assert!(stderr(&out).contains(expected), "{extra:?}: {}", stderr(&out));
        assert!(!out_dir.exists(), "{extra:?}: nothing was started");
    }
    let missing = dir.path().join("no-such-algo");
    let out = run(&["arena", text(&a), text(&missing), "--out", text(&out_dir)]);
    assert_eq!(code(&out), Some(2), "{out:?}");
    assert!(stderr(&out).contains(text(&missing)), "{}", stderr(&out));
}

/// An exact replay verifies with 0; the same replay with one hit-point changed in the middle
/// of the match verifies with 1 (it ran and found a difference).
#[test]
fn verify_exits_0_when_exact_and_1_on_a_difference() {
    let long = replay(LONG);
    let out = run(&["verify", text(&long)]);
    assert_eq!(code(&out), Some(0), "{out:?}");

    let dir = tempfile::tempdir().expect("tempdir");
    let mut raw = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&long).expect("open")).read_to_string(&mut raw).expect("gunzip");
    let mut lines: Vec<String> = BufReader::new(raw.as_bytes()).lines().map(|l| l.expect("line")).collect();
    let middle = lines.len() / 2;
    let (at, mut frame) = (middle..lines.len())
        .find_map(|i| {
            let v: serde_json::Value = serde_json::from_str(&lines[i]).ok()?;
            (v["turnInfo"][0] == 1 && v["p1Stats"].is_array()).then_some((i, v))
        })
        .expect("an action frame after the middle");
    let hp = frame["p1Stats"][0].as_f64().expect("hp");
    frame["p1Stats"][0] = serde_json::json!(hp + 1.0);
    lines[at] = frame.to_string();
    let changed = dir.path().join("changed.replay");
    let mut f = std::fs::File::create(&changed).expect("create");
    f.write_all(lines.join("\n").as_bytes()).expect("write");
    drop(f);
    let out = run(&["verify", text(&changed)]);
    assert_eq!(code(&out), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 diverged"), "{out:?}");
}
