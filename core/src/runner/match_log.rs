//! The match log: the runner's own messages about a match (crashes, timeouts, penalties,
//! unreadable lines, rejected commands), in a text file beside the replay, optionally echoed
//! (`--verbose`) and sent as log events.

use super::events::{EventSink, MatchEvent};
use crate::engine::geometry::Player;
use std::io::Write;
use std::path::{Path, PathBuf};

pub struct MatchLog {
    path: Option<PathBuf>,
    file: Option<std::io::BufWriter<std::fs::File>>,
    verbose: bool,
    events: EventSink,
}

impl MatchLog {
    /// Opens the log; if the file cannot be created the messages still go to the echo and
    /// the events.
    pub fn create(path: &Path, verbose: bool, events: EventSink) -> MatchLog {
        let file = std::fs::File::create(path).ok().map(std::io::BufWriter::new);
        MatchLog { path: file.as_ref().map(|_| path.to_path_buf()), file, verbose, events }
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// One message. `turn` prefixes it when given.
    pub fn line(&mut self, turn: Option<i32>, player: Option<Player>, text: &str) {
        let mut msg = String::new();
        if let Some(t) = turn {
            msg.push_str(&format!("turn {t}: "));
        }
        if let Some(p) = player {
            msg.push_str(&format!("p{}: ", p.number()));
        }
        msg.push_str(text);
        if let Some(f) = self.file.as_mut() {
            let _ = writeln!(f, "{msg}");
        }
        if self.verbose {
            eprintln!("[runner] {msg}");
        }
        self.events.try_send(MatchEvent::Log { player, from_algo: false, line: msg });
    }

    pub fn flush(&mut self) {
        if let Some(f) = self.file.as_mut() {
            let _ = f.flush();
        }
    }
}
