//! Following a replay file while a match still writes it (the runner writes one line per
//! frame, flushed): each call reads the complete frames that arrived since the last one. A
//! line still being written (no newline yet) waits for the next call.

use super::reader::{ReplayError, read_replay_bytes};
use crate::engine::config::Config;
use crate::engine::frame::Frame;
use std::path::{Path, PathBuf};

/// What a poll found.
#[derive(Debug, Default)]
pub struct FollowUpdate {
    /// The replay's config, the first time it is read.
    pub config: Option<Config>,
    pub frames: Vec<Frame>,
    /// The end frame has been read: the match is over.
    pub ended: bool,
}

/// A replay file being written.
#[derive(Debug)]
pub struct ReplayFollower {
    pub path: PathBuf,
    frames_read: usize,
    config_read: bool,
}

impl ReplayFollower {
    pub fn new(path: &Path) -> ReplayFollower {
        ReplayFollower { path: path.to_path_buf(), frames_read: 0, config_read: false }
    }

    /// The complete frames written since the last call. A file not created yet, or holding
    /// no complete line, gives nothing; a file that is not a replay is an error.
    pub fn poll(&mut self) -> Result<FollowUpdate, ReplayError> {
        let bytes = match std::fs::read(&self.path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(FollowUpdate::default()),
            Err(e) => {
                return Err(ReplayError {
                    file: self.path.display().to_string(),
                    line: None,
                    field: String::new(),
                    message: e.to_string(),
                });
            }
        };
        let Some(end) = bytes.iter().rposition(|&b| b == b'\n') else { return Ok(FollowUpdate::default()) };
        let replay = read_replay_bytes(&self.path, &bytes[..=end])?;
        let mut update = FollowUpdate::default();
        if !self.config_read {
            self.config_read = true;
            update.config = Some(replay.config.clone());
        }
        update.ended = replay.end_frame().is_some();
        update.frames = replay.frames.into_iter().skip(self.frames_read).collect();
        self.frames_read += update.frames.len();
        Ok(update)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::presets::preset;
    use crate::replay::{ReplayWriter, frame_to_json};
    use std::io::Write;

    #[test]
    fn frames_are_read_as_their_lines_complete() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("m.replay");
        let config = preset("base-s6").expect("preset");
        let mut game = crate::engine::Game::new(std::sync::Arc::new(config.clone()));
        let mut f = ReplayFollower::new(&path);
        assert!(f.poll().expect("no file yet").config.is_none());
        let mut w = ReplayWriter::create(&path, &config).expect("writer");
        let first = f.poll().expect("config only");
        assert!(first.config.is_some() && first.frames.is_empty());
        w.write_line(&frame_to_json(&game.turn_frame(), false, true)).expect("write");
        let line = frame_to_json(&game.action_frame(), false, true);
        // Half a line: not a frame yet.
        let mut raw = std::fs::OpenOptions::new().append(true).open(&path).expect("open");
        raw.write_all(&line.as_bytes()[..10]).expect("write");
        let u = f.poll().expect("one frame");
        assert_eq!(u.frames.len(), 1);
        assert!(u.config.is_none() && !u.ended);
        raw.write_all(&line.as_bytes()[10..]).expect("write");
        raw.write_all(b"\n").expect("write");
        assert_eq!(f.poll().expect("the second").frames.len(), 1);
        assert!(f.poll().expect("nothing new").frames.is_empty());
    }
}
