//! An algo's stderr: kept in a log file beside the replay up to a byte cap — its first and
//! its last lines (`stderr_keep.rs`), what falls between counted and named — split by `--- turn N ---` markers, `#draw` annotations split off,
//! optional live echo (`--verbose`) and log events for the GUI.
//!
//! Each line goes under the turn whose frames the algo was working on when it wrote it
//! (`progress.rs`); the thread also does the watching for that, woken by the algo's reads
//! of its stdin. Every turn the algo starts gets its marker, and the file is flushed
//! whenever the algo has nothing more written, so a live viewer finds it current.

use super::annotations::{AnnotationSink, DRAW_PREFIX};
use super::events::{EventSink, MatchEvent};
use super::lines::BoundedLines;
use super::os::{self, AsPipe, Pipe, PipeRef, drain_watch, wait_readable};
use super::progress::Progress;
use super::stderr_keep::Keep;
use crate::engine::geometry::Player;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

/// Longest stderr line looked at (longer lines are cut; the excess counts as dropped).
const MAX_LINE: usize = 64 * 1024;
/// Longest line echoed live (the official engine is believed to cut at 2,000: docs/protocol.md, Assumptions).
const ECHO_MAX: usize = 2000;
/// The last stderr lines remembered for the end (which rule a confined algo broke), and
/// the longest part of each remembered.
const TAIL_LINES: usize = 12;
const TAIL_CHARS: usize = 1000;
/// Annotation bytes kept per algo.
const ANNOTATION_CAP: u64 = 8 << 20;
/// Longest sleep without stderr output: markers of turns the algo started meanwhile are
/// written and the file flushed at least this often.
const IDLE_WAKE: Duration = Duration::from_millis(200);
/// While a delivered turn frame has not been seen started: the longest sleep when the
/// algo's reads wake this thread (a safety net), and the polling step when they cannot.
const WATCH_WAKE: Duration = Duration::from_millis(2);
const WATCH_POLL: Duration = Duration::from_micros(200);

/// What happened to an algo's stderr.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StderrSummary {
    pub log_path: Option<PathBuf>,
    /// Bytes the algo wrote to stderr (newlines included).
    pub bytes_total: u64,
    /// Bytes kept in the log file (markers not counted).
    pub bytes_kept: u64,
    /// Bytes dropped: the ends of over-long lines, and whole lines between the head and
    /// the tail kept under the cap.
    pub bytes_dropped: u64,
    /// Lines cut at the longest line looked at.
    pub lines_cut: u64,
    /// Whole lines dropped between the head and the tail.
    pub lines_dropped: u64,
    pub annotations: u64,
    pub annotations_dropped: u64,
    /// The last few lines (annotations aside), oldest first, each cut at 1,000 characters.
    pub tail: Vec<String>,
}

pub struct StderrCapture {
    pub player: Player,
    pub name: String,
    pub log_path: PathBuf,
    pub cap: u64,
    pub verbose: bool,
    pub annotations: Arc<AnnotationSink>,
    /// The turn of the latest turn frame sent to this algo: lines are filed by it when the
    /// algo's reading cannot be seen.
    pub turn: Arc<AtomicI32>,
    pub progress: Arc<Progress>,
    pub events: EventSink,
}

/// The log file and what has been written to it.
struct Log {
    file: Option<std::io::BufWriter<std::fs::File>>,
    /// Which lines are kept under the cap (head now, tail at the end).
    keep: Keep,
    /// The last turn marker written.
    marked: i32,
    unflushed: bool,
    annotations_flushed: u64,
    /// The last lines, for `StderrSummary::tail`.
    tail: std::collections::VecDeque<String>,
}

impl Log {
    /// One kept line; a line cut at the longest line looked at says how much of it is missing.
    fn write_line(&mut self, text: &[u8], cut: u64) {
        if let Some(f) = self.file.as_mut() {
            let _ = f.write_all(text);
            if cut > 0 {
                let _ = write!(f, " [terminal-studio: {cut} more bytes of this line dropped]");
            }
            let _ = f.write_all(b"\n");
            self.unflushed = true;
        }
    }

    /// At the end: what was dropped, then the tail lines under their turns' markers (again).
    fn write_tail(&mut self, cap: u64, sum: &mut StderrSummary) {
        let keep = std::mem::replace(&mut self.keep, Keep::new(cap));
        let head = keep.head_bytes();
        let (tail, tail_bytes, gap) = keep.finish();
        sum.bytes_kept += tail_bytes;
        sum.bytes_dropped += gap.bytes;
        sum.lines_dropped = gap.lines;
        let Some(f) = self.file.as_mut() else { return };
        if sum.lines_cut > 0 {
            let cut = sum.bytes_dropped - gap.bytes;
            let _ = writeln!(
                f,
                "[terminal-studio: {cut} bytes dropped from the ends of {} lines longer than {MAX_LINE} bytes (each says how many)]",
                sum.lines_cut
            );
        }
        if let Some((first, last)) = gap.turns {
            let turns = if first == last { format!("turn {first}") } else { format!("turns {first}–{last}") };
            let _ = writeln!(
                f,
                "[terminal-studio: {} bytes of stderr dropped ({} whole lines of {turns}) between the first {head} \
                 and the last {tail_bytes} bytes kept, the {cap}-byte cap; the last lines follow under their turns]",
                gap.bytes, gap.lines
            );
        }
        let mut marked = None;
        for line in tail {
            if marked != Some(line.turn) {
                let _ = writeln!(f, "--- turn {} ---", line.turn);
                marked = Some(line.turn);
            }
            let _ = f.write_all(&line.text);
            if line.cut > 0 {
                let _ = write!(f, " [terminal-studio: {} more bytes of this line dropped]", line.cut);
            }
            let _ = f.write_all(b"\n");
        }
        self.unflushed = true;
    }

    /// Markers for every turn after the last one marked, up to `turn`.
    fn mark_to(&mut self, turn: i32) {
        while self.marked < turn {
            self.marked += 1;
            if let Some(f) = self.file.as_mut() {
                let _ = writeln!(f, "--- turn {} ---", self.marked);
                self.unflushed = true;
            }
        }
    }
}

impl StderrCapture {
    /// Consumes the stream until end of file. Never fails: a log file that cannot be
    /// created only means nothing is kept.
    pub fn run(self, stream: impl Read + AsPipe) -> StderrSummary {
        let file = std::fs::File::create(&self.log_path).ok().map(|f| std::io::BufWriter::with_capacity(64 * 1024, f));
        let mut sum =
            StderrSummary { log_path: file.as_ref().map(|_| self.log_path.clone()), ..StderrSummary::default() };
        let mut log = Log {
            file,
            keep: Keep::new(self.cap),
            marked: -1,
            unflushed: false,
            annotations_flushed: 0,
            tail: std::collections::VecDeque::with_capacity(TAIL_LINES),
        };
        // Start-up output counts as turn 0's.
        log.mark_to(0);
        let wake = if self.progress.observing() { self.progress.take_inotify() } else { None };
        if wake.is_some() {
            self.progress.stderr_watching_on_reads();
        }
        let mut lines = BoundedLines::new(stream, MAX_LINE);
        let mut buf = Vec::new();
        let mut annotation_bytes = 0u64;
        loop {
            while let Some(cut) = lines.buffered_line(&mut buf) {
                self.take_line(lines.last_start(), cut, &buf, &mut log, &mut sum, &mut annotation_bytes);
            }
            // Nothing complete is left: bring the file up to date before waiting.
            log.mark_to(self.turn_reached(lines.offset()));
            self.flush(&mut log, &sum);
            let timeout = match (self.progress.has_pending(), &wake) {
                (false, _) => IDLE_WAKE,
                (true, Some(_)) => WATCH_WAKE,
                (true, None) => WATCH_POLL,
            };
            let readable = wait(os::as_pipe(lines.get_ref()), wake.as_ref(), timeout);
            // Watch before reading: what waits in the pipe was written before this look,
            // so a turn seen started now takes only later lines.
            self.progress.observe(|| lines.read_total() + os::unread(os::as_pipe(lines.get_ref())).unwrap_or(0));
            if readable {
                match lines.fill() {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        }
        // A last line without a newline.
        if let Ok(Some(cut)) = lines.next_line(&mut buf) {
            self.take_line(lines.last_start(), cut, &buf, &mut log, &mut sum, &mut annotation_bytes);
        }
        self.progress.stderr_done();
        log.mark_to(self.turn_reached(u64::MAX));
        sum.tail = std::mem::take(&mut log.tail).into();
        log.write_tail(self.cap, &mut sum);
        log.unflushed = true;
        self.flush(&mut log, &sum);
        sum
    }

    /// The turn of a line starting at stream position `offset`.
    fn turn_reached(&self, offset: u64) -> i32 {
        if self.progress.observing() { self.progress.turn_at(offset) } else { self.turn.load(Ordering::Relaxed) }
    }

    fn flush(&self, log: &mut Log, sum: &StderrSummary) {
        if log.unflushed
            && let Some(f) = log.file.as_mut()
        {
            let _ = f.flush();
        }
        log.unflushed = false;
        if sum.annotations != log.annotations_flushed {
            self.annotations.flush();
            log.annotations_flushed = sum.annotations;
        }
    }

    fn take_line(
        &self,
        start: u64,
        cut: u64,
        buf: &[u8],
        log: &mut Log,
        sum: &mut StderrSummary,
        annotation_bytes: &mut u64,
    ) {
        let len = buf.len() as u64 + cut + 1;
        sum.bytes_total += len;
        let turn = self.turn_reached(start);
        if let Some(payload) = buf.strip_prefix(DRAW_PREFIX.as_bytes()) {
            let payload = String::from_utf8_lossy(payload);
            if *annotation_bytes < ANNOTATION_CAP {
                if let Some(n) = self.annotations.record(self.player, turn, &payload) {
                    *annotation_bytes += n as u64;
                    sum.annotations += 1;
                }
            } else {
                sum.annotations_dropped += 1;
            }
            return;
        }
        // The oldest line's buffer is reused: a flood of lines costs no allocation each.
        let mut kept =
            if log.tail.len() == TAIL_LINES { log.tail.pop_front().unwrap_or_default() } else { String::new() };
        kept.clear();
        kept.extend(String::from_utf8_lossy(&buf[..buf.len().min(TAIL_CHARS * 4)]).chars().take(TAIL_CHARS));
        log.tail.push_back(kept);
        // Markers are not counted against the cap: one per turn, so a flood cannot hide
        // where the later turns begin.
        log.mark_to(turn);
        sum.bytes_dropped += cut;
        if cut > 0 {
            sum.lines_cut += 1;
        }
        let to_head = log.keep.take(turn, buf, cut);
        if to_head {
            log.write_line(buf, cut);
            sum.bytes_kept += buf.len() as u64 + 1;
        }
        // Echo and GUI events only while the head is written, so a flood cannot swamp them.
        if to_head && (self.verbose || self.events.is_some()) {
            let text = String::from_utf8_lossy(buf);
            let shown: String = text.chars().take(ECHO_MAX).collect();
            if self.verbose {
                eprintln!("[p{} {}] {}", self.player.number(), self.name, shown);
            }
            self.events.try_send(MatchEvent::Log { player: Some(self.player), from_algo: true, line: shown });
        }
    }
}

/// Waits until the stderr pipe has bytes (or its end), the algo reads its stdin (`wake`)
/// or `timeout` passes. Returns whether the stderr pipe is ready.
fn wait(stderr: PipeRef<'_>, wake: Option<&Pipe>, timeout: Duration) -> bool {
    match wake {
        Some(w) => {
            let [err, woken] = wait_readable([stderr, os::as_pipe(w)], timeout);
            if woken {
                drain_watch(w);
            }
            err
        }
        None => wait_readable([stderr], timeout)[0],
    }
}
