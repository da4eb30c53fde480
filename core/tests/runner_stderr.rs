//! The algos' stderr in the runner: capped, filed under the turn it was written in, current
//! while the match runs; draw annotations.

use std::time::{Duration, Instant};
use terminal_core::runner::{MatchEvent, start_match};

#[path = "../../tests/common/corpus.rs"]
mod corpus;
#[path = "../../tests/common/matches.rs"]
mod matches;
#[path = "../../tests/common/processes.rs"]
mod processes;
use matches::{assert_exact, run, spec};

#[test]
fn a_stderr_flood_is_capped_in_the_log() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = spec("py-stderr-flood", "py-idle", dir.path());
    s.env.push(("STDERR_MB".into(), "5".into()));
    s.env.push(("FLOOD_TURNS".into(), "2".into()));
    let cap = s.stderr_cap;
    let r = run(s);
    assert_eq!(r.turns, 100);
    let p = &r.players[0];
    let log = p.stderr_log.as_ref().expect("stderr log");
    let size = std::fs::metadata(log).expect("log file").len();
    // Turn markers (one line per turn, again over the tail) and the notes are not counted
    // against the cap.
    assert!(size <= cap + 600 + 2 * 20 * 100, "log is {size} bytes");
    assert!(size >= cap / 2);
    assert!(p.stderr_bytes >= 5 << 20);
    assert!(p.stderr_dropped_bytes >= (4 << 20), "{p:?}");
    let text = std::fs::read_to_string(log).expect("log text");
    assert!(text.contains("bytes of stderr dropped"), "{}", &text[text.len().saturating_sub(3000)..]);
    // The tail: the last turn's line is kept.
    assert!(text.trim_end().ends_with(&"y".repeat(100)), "{}", &text[text.len().saturating_sub(300)..]);
    // Every turn keeps its marker after the cap is reached.
    assert!((0..100).all(|t| text.contains(&format!("--- turn {t} ---\n"))));
    assert_exact(&r.replay_path);
}

/// Over the cap the log keeps its head and its tail: a crash's traceback, written last, is
/// kept after a 100 MB line and megabytes of flood, and the log says exactly what is missing.
#[test]
fn the_stderr_cap_keeps_the_head_and_the_tail() {
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run(spec("py-stderr-crash", "py-idle", dir.path()));
    let p = &r.players[0];
    assert_eq!((p.crashed, p.crash_turn), (true, Some(2)), "{p:?}");
    let log = p.stderr_log.as_ref().expect("stderr log");
    let text = std::fs::read_to_string(log).expect("log text");
    let tail = &text[text.len().saturating_sub(2000)..];
    assert!(text.contains("Traceback (most recent call last)"), "{tail}");
    assert!(
        tail.trim_end().ends_with("RuntimeError: py-stderr-crash: the end of the log is what a player needs"),
        "{tail}"
    );
    // The long line: its first 64 KiB, and how much of it is missing.
    let long = 100_000_000 - 65_536;
    assert!(text.contains(&format!("z [terminal-studio: {long} more bytes of this line dropped]")), "{}", &text[..300]);
    // What fell between head and tail: 3 MB of 100-byte flood lines, less what the cap keeps.
    let gap = text.lines().find(|l| l.contains("bytes of stderr dropped (")).unwrap_or_else(|| panic!("{tail}"));
    let dropped_lines: u64 = gap
        .split(" bytes of stderr dropped (")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{gap}"));
    assert!(gap.contains("of turn 1)"), "{gap}");
    assert!(dropped_lines > 20_000 && dropped_lines < 30_000, "{gap}");
    assert_eq!(p.stderr_dropped_bytes, long + dropped_lines * 100, "{gap}");
    assert!(p.stderr_bytes > 103_000_000);
    // The traceback is under turn 2, after a marker repeated for the tail.
    let last_marker = text.rfind("--- turn 2 ---").expect("turn 2 marker");
    assert!(text[last_marker..].contains("Traceback"));
    assert_exact(&r.replay_path);
}

#[test]
fn draw_annotations_are_recorded_per_turn() {
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run(spec("py-idle", "py-annotate", dir.path()));
    let path = r.annotations_path.as_ref().expect("annotations file");
    let text = std::fs::read_to_string(path).expect("annotations");
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).expect("json line")).collect();
    assert_eq!(lines.len() as u64, r.players[1].annotations);
    assert!(!lines.is_empty());
    assert!(lines.iter().all(|l| l["player"] == 2 && l["draw"]["kind"].is_string()));
    assert!(lines.iter().any(|l| l["turn"] == 0));
    let log = std::fs::read_to_string(r.players[1].stderr_log.as_ref().expect("log")).expect("log");
    assert!(log.contains("plain debug line") && !log.contains("#draw"));
    assert_exact(&r.replay_path);
}

/// A stderr log split at its `--- turn N ---` markers: `(turn, lines)` in file order.
fn stderr_sections(text: &str) -> Vec<(i32, Vec<String>)> {
    let mut sections: Vec<(i32, Vec<String>)> = Vec::new();
    for line in text.lines() {
        let marker = line.strip_prefix("--- turn ").and_then(|l| l.strip_suffix(" ---"));
        match (marker.and_then(|m| m.parse().ok()), sections.last_mut()) {
            (Some(turn), _) => sections.push((turn, Vec::new())),
            (None, Some((_, lines))) => lines.push(line.to_string()),
            (None, None) => panic!("a line before the first marker: {line}"),
        }
    }
    sections
}

/// What py-stderr-turns writes in turn `t`.
fn stderr_turn_lines(t: i32) -> Vec<String> {
    let mut lines = Vec::new();
    if t % 3 != 2 {
        lines.push(format!("turn {t}: thinking"));
    }
    if t % 3 == 0 {
        lines.push(format!("turn {t}: after the reply, action frame 0"));
    }
    lines
}

/// Each stderr line is under the marker of the turn whose frames the algo was reading when
/// it wrote it: a line written after its reply, during the action frames, stays with that
/// turn (the runner has long sent the next turn frame by then), and a turn without any
/// line still has its marker.
#[test]
fn stderr_lines_are_filed_under_the_turn_the_algo_was_playing() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Its thinking line comes right after it parsed the turn frame, before the runner can
    // have looked (the turn frame's rest is sent once the runner has seen it start the
    // turn, so the filing does not depend on when the runner looks); several matches, as a
    // look that came late was what filed such a line a turn early.
    for (opponent, seed) in [("py-builder", 1), ("py-random", 2), ("py-random", 3), ("py-idle", 4)] {
        let mut s = spec("py-stderr-turns", opponent, dir.path());
        s.env.push(("THINK_MS".into(), "0".into()));
        s.seed = Some(seed);
        let r = run(s);
        let last = if r.turns == 100 { 99 } else { r.turns };
        assert!(last >= 2, "{} turns", r.turns);
        let text = std::fs::read_to_string(r.players[0].stderr_log.as_ref().expect("stderr log")).expect("log");
        let want: Vec<(i32, Vec<String>)> = (0..=last).map(|t| (t, stderr_turn_lines(t))).collect();
        assert_eq!(stderr_sections(&text), want, "against {opponent}: {text}");
        assert_exact(&r.replay_path);
    }
}

/// The stderr log is written as the algo writes, not in blocks at the end: while the match
/// waits for player 2 (hung at turn 1), player 1's log already holds its turns 0 and 1.
#[test]
fn the_stderr_log_is_current_while_the_match_runs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = spec("py-stderr-turns", "py-hang", dir.path());
    s.env.push(("THINK_MS".into(), "10".into()));
    let handle = start_match(s);
    let mut log_path = None;
    loop {
        match handle.events.recv_timeout(Duration::from_secs(30)) {
            Ok(MatchEvent::Started { replay_path, .. }) => {
                log_path = Some(terminal_core::runner::sibling(&replay_path, ".p1.stderr.log"));
            }
            Ok(MatchEvent::Frame { summary, .. }) if summary.turn == 1 => break,
            Ok(MatchEvent::Finished(_)) => panic!("the match ended"),
            Ok(MatchEvent::Failed(e)) => panic!("match failed: {e}"),
            Ok(_) => {}
            Err(e) => panic!("no event: {e}"),
        }
    }
    let log_path = log_path.expect("a Started event");
    let want =
        "--- turn 0 ---\nturn 0: thinking\nturn 0: after the reply, action frame 0\n--- turn 1 ---\nturn 1: thinking\n";
    // Player 1 answers turn 1 in a few ms; its lines must be in the file within a second.
    let t0 = Instant::now();
    let mut text = String::new();
    while t0.elapsed() < Duration::from_secs(1) {
        text = std::fs::read_to_string(&log_path).unwrap_or_default();
        if text == want {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(text, want);
    // Still running: py-hang holds turn 1 until the 35 s hard limit.
    while let Ok(event) = handle.events.try_recv() {
        assert!(!matches!(event, MatchEvent::Finished(_) | MatchEvent::Failed(_)));
    }
    handle.cancel();
    assert!(matches!(handle.wait(), Err(terminal_core::runner::RunnerError::Cancelled)));
}
