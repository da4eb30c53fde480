//! Algo annotations: `#draw {json}` lines on an algo's stderr (tests/algos/ANNOTATIONS.md),
//! recorded per turn into `<replay>.annotations.jsonl`.

use crate::engine::geometry::Player;
use serde_json::{Map, Value};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

/// The prefix that marks an annotation line.
pub(crate) const DRAW_PREFIX: &str = "#draw ";

/// One `.annotations.jsonl` file shared by both players' stderr threads. The file is
/// created at the first annotation.
pub struct AnnotationSink {
    path: PathBuf,
    file: Mutex<Option<std::io::BufWriter<std::fs::File>>>,
}

impl AnnotationSink {
    pub fn new(path: PathBuf) -> AnnotationSink {
        AnnotationSink { path, file: Mutex::new(None) }
    }

    /// Records one `#draw` payload. Returns the bytes written, or `None` if the payload is
    /// not a JSON object (malformed annotations are ignored) or the file cannot be written.
    pub fn record(&self, player: Player, current_turn: i32, payload: &str) -> Option<usize> {
        let Ok(Value::Object(draw)) = serde_json::from_str::<Value>(payload) else {
            return None;
        };
        let turn = draw.get("turn").and_then(Value::as_i64).unwrap_or(i64::from(current_turn));
        let mut rec = Map::new();
        rec.insert("player".into(), Value::from(player.number()));
        rec.insert("turn".into(), Value::from(turn));
        rec.insert("draw".into(), Value::Object(draw));
        let mut line = Value::Object(rec).to_string();
        line.push('\n');
        let mut guard = self.file.lock().ok()?;
        if guard.is_none() {
            let f = std::fs::OpenOptions::new().create(true).append(true).open(&self.path).ok()?;
            *guard = Some(std::io::BufWriter::new(f));
        }
        let w = guard.as_mut()?;
        w.write_all(line.as_bytes()).ok()?;
        // A live view reads the file while the match goes on: each line is there at once.
        w.flush().ok()?;
        Some(line.len())
    }

    /// Writes out what is buffered, so that a live viewer finds it.
    pub fn flush(&self) {
        if let Ok(mut guard) = self.file.lock()
            && let Some(w) = guard.as_mut()
        {
            let _ = w.flush();
        }
    }

    /// Flushes the file; returns its path if any annotation was written.
    pub fn finish(&self) -> Option<PathBuf> {
        let mut guard = self.file.lock().ok()?;
        let w = guard.as_mut()?;
        let _ = w.flush();
        Some(self.path.clone())
    }
}
