//! An algo's stderr: kept in a log file beside the replay up to a byte cap (the rest is
//! counted, not kept), `#draw` annotations split off, optional live echo (`--verbose`)
//! and log events for the GUI.

use super::annotations::{AnnotationSink, DRAW_PREFIX};
use super::events::{EventSink, MatchEvent};
use super::lines::BoundedLines;
use crate::engine::geometry::Player;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};

/// Longest stderr line looked at (longer lines are cut; the excess counts as dropped).
const MAX_LINE: usize = 64 * 1024;
/// Longest line echoed live (the official engine is believed to cut at 2,000, H-P3).
const ECHO_MAX: usize = 2000;
/// Annotation bytes kept per algo.
const ANNOTATION_CAP: u64 = 8 << 20;

/// What happened to an algo's stderr.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StderrSummary {
    pub log_path: Option<PathBuf>,
    /// Bytes the algo wrote to stderr (newlines included).
    pub bytes_total: u64,
    /// Bytes kept in the log file.
    pub bytes_kept: u64,
    /// Bytes dropped beyond the cap.
    pub bytes_dropped: u64,
    pub annotations: u64,
    pub annotations_dropped: u64,
}

pub struct StderrCapture {
    pub player: Player,
    pub name: String,
    pub log_path: PathBuf,
    pub cap: u64,
    pub verbose: bool,
    pub annotations: Arc<AnnotationSink>,
    /// The turn of the latest turn frame sent to this algo.
    pub turn: Arc<AtomicI32>,
    pub events: EventSink,
}

impl StderrCapture {
    /// Consumes the stream until end of file. Never fails: a log file that cannot be
    /// created only means nothing is kept.
    pub fn run(self, stream: impl Read) -> StderrSummary {
        let mut file =
            std::fs::File::create(&self.log_path).ok().map(|f| std::io::BufWriter::with_capacity(64 * 1024, f));
        let mut sum =
            StderrSummary { log_path: file.as_ref().map(|_| self.log_path.clone()), ..StderrSummary::default() };
        let mut lines = BoundedLines::new(stream, MAX_LINE);
        let mut buf = Vec::new();
        let mut annotation_bytes = 0u64;
        let mut marked_turn = i32::MIN;
        while let Ok(Some(cut)) = lines.next_line(&mut buf) {
            let len = buf.len() as u64 + cut + 1;
            sum.bytes_total += len;
            if let Some(payload) = buf.strip_prefix(DRAW_PREFIX.as_bytes()) {
                let payload = String::from_utf8_lossy(payload);
                if annotation_bytes < ANNOTATION_CAP {
                    let turn = self.turn.load(Ordering::Relaxed);
                    if let Some(n) = self.annotations.record(self.player, turn, &payload) {
                        annotation_bytes += n as u64;
                        sum.annotations += 1;
                    }
                } else {
                    sum.annotations_dropped += 1;
                }
                continue;
            }
            let room = self.cap.saturating_sub(sum.bytes_kept);
            let keep = (buf.len() as u64 + 1).min(room);
            // A turn marker before the first kept line of each turn lets viewers split the log.
            let turn = self.turn.load(Ordering::Relaxed);
            if keep > 0 && turn != marked_turn {
                marked_turn = turn;
                if let Some(f) = file.as_mut() {
                    let _ = writeln!(f, "--- turn {turn} ---");
                }
            }
            if keep > 0
                && let Some(f) = file.as_mut()
            {
                {
                    let body = &buf[..(keep as usize).min(buf.len())];
                    if f.write_all(body).and_then(|_| f.write_all(b"\n")).is_ok() {
                        sum.bytes_kept += keep;
                    }
                }
            }
            sum.bytes_dropped += len - keep.min(len);
            // Echo and GUI events only while under the cap, so a flood cannot swamp them.
            if keep > 0 && (self.verbose || self.events.is_some()) {
                let text = String::from_utf8_lossy(&buf);
                let shown: String = text.chars().take(ECHO_MAX).collect();
                if self.verbose {
                    eprintln!("[p{} {}] {}", self.player.number(), self.name, shown);
                }
                self.events.try_send(MatchEvent::Log { player: Some(self.player), from_algo: true, line: shown });
            }
        }
        if let Some(f) = file.as_mut() {
            if sum.bytes_dropped > 0 {
                let _ = writeln!(
                    f,
                    "[terminal-studio: {} more bytes of stderr dropped beyond the {}-byte cap]",
                    sum.bytes_dropped, self.cap
                );
            }
            let _ = f.flush();
        }
        sum
    }
}
