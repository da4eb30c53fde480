//! Reading replays: every variant of docs/replay-format.md (Layout, Reading robustly), never a panic on bad input.
//!
//! One reader for every command and view, in three ways of reading a frame line, fastest
//! first, each giving up on what it does not know for the next: a hand-written scanner of the
//! bytes the engines write (`scan`), typed deserialisation borrowing from the line
//! (`typed_frame`), and the JSON tree of `parse::parse_frame`, which names the bad field of a
//! line neither of the others took. All three build the same frame from a line.
//!
//! How much of each frame is kept is the caller's choice ([`Detail`]):
//! - [`Detail::Full`] ([`read_replay`], [`read_replay_bytes`]): every field of every frame;
//! - [`Detail::Summary`] ([`read_replay_summary`], [`read_replay_bytes_with`]): every frame's
//!   turn info, stats, events and end stats, and the unit lists of the turn frames (phase 0,
//!   the first frame of each turn) and of the end frame; the unit lists of action frames, most
//!   of a replay's bytes, are skipped to their closing bracket without being read and come out
//!   empty (as many empty lists as the line has). All that is read is checked as in a full
//!   read, with the same errors; a bad unit inside a skipped list goes unnoticed (a full read
//!   names it). For indexes and statistics of many files.
//!
//! Every function here is a pure function of its input: a folder is read in parallel by
//! mapping one over its files (with rayon, `files.par_iter().map(|f| read_replay_summary(f))`).

use super::parse::parse_frame;
use super::scan::Scanner;
use super::typed_frame::parse_frame_line;
use crate::engine::config::Config;
use crate::engine::frame::Frame;
use crate::engine::frame_check::{FrameError, check_frame};
use crate::engine::mechanics::LegacyBuild;
use serde_json::Value;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// An error naming the file, the line (1-based, if known) and the field.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayError {
    pub file: String,
    pub line: Option<usize>,
    pub field: String,
    pub message: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        if !self.field.is_empty() {
            write!(f, ": field `{}`", self.field)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ReplayError {}

/// A replay in memory.
#[derive(Debug, Clone)]
pub struct Replay {
    pub source: PathBuf,
    pub config: Config,
    /// 1-based line number of the config line.
    pub config_line: usize,
    pub frames: Vec<Frame>,
    /// 1-based line number of each frame.
    pub frame_lines: Vec<usize>,
    /// 2018–2019 format (3-element `turnInfo`, 7 unit lists, legacy config keys).
    pub legacy: bool,
    /// The file ends in an incomplete line (a match killed while writing it): its number.
    /// The frames before it are read; the replay has no end frame.
    pub truncated_at: Option<usize>,
}

impl Replay {
    /// The end frame, if the file has one.
    pub fn end_frame(&self) -> Option<&Frame> {
        self.frames.last().filter(|f| f.end_stats.is_some())
    }

    /// Index of the first frame of each turn's deploy phase.
    pub fn turn_starts(&self) -> Vec<usize> {
        self.frames
            .iter()
            .enumerate()
            .filter(|(_, f)| f.turn_info.phase == crate::engine::frame::Phase::Deploy)
            .map(|(i, _)| i)
            .collect()
    }

    pub fn file_name(&self) -> String {
        self.source.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    }
}

/// A death event of 4 elements: the August 2018 engine build wrote no `removed` flag.
fn has_death_without_removed_flag(frame: &Value) -> bool {
    let deaths = frame.get("events").and_then(|e| e.get("death")).and_then(Value::as_array);
    deaths.is_some_and(|d| d.iter().any(|e| e.as_array().is_some_and(|a| a.len() == 4)))
}

/// A 2018–2019 config without a start-of-game time limit: the local builds of 2018 wrote
/// no `waitTimeStartGame` (the August build's five kit runs, the October build's two runs),
/// every season config has it (20 replays of 2018 and 2019). Together with the frames'
/// computation times it tells the two local builds apart in a replay without a death event.
fn lacks_start_game_limit(config: &Value) -> bool {
    let timing = config.get("timingAndReplay").and_then(Value::as_object);
    config.get("mechanics").is_some() && timing.is_some_and(|t| !t.contains_key("waitTimeStartGame"))
}

/// True if every frame says 0 ms of computation: the August 2018 build writes 0 in every frame
/// (its five kit runs), while the October 2018 build records the turn's time (its two runs:
/// 7 and 33 ms at turn 0) as the season builds do.
fn records_no_computation_time(frames: &[Frame]) -> bool {
    frames.iter().all(|f| f.stats.iter().all(|s| s.time_ms == 0))
}

/// How much of each frame a read keeps (see the module's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Detail {
    /// Every field of every frame.
    #[default]
    Full,
    /// Every frame, but the unit lists of action frames are skipped unread and left empty.
    Summary,
}

/// Reads a `.replay` or `.replay.gz` file.
pub fn read_replay(path: &Path) -> Result<Replay, ReplayError> {
    read_replay_with(path, Detail::Full)
}

/// Reads a `.replay` or `.replay.gz` file without the unit lists of its action frames
/// ([`Detail::Summary`]).
pub fn read_replay_summary(path: &Path) -> Result<Replay, ReplayError> {
    read_replay_with(path, Detail::Summary)
}

/// Reads a `.replay` or `.replay.gz` file, keeping `detail`.
pub fn read_replay_with(path: &Path, detail: Detail) -> Result<Replay, ReplayError> {
    let bytes = crate::files::read(path).map_err(|e| ReplayError {
        file: path.display().to_string(),
        line: None,
        field: String::new(),
        message: e.to_string(),
    })?;
    read_replay_bytes_with(path, &bytes, detail)
}

/// The size of the data a gzip stream holds, as its trailer says (modulo 4 GiB, and only of
/// its last member), bounded by what deflate can make of the stream's size: a capacity to
/// start from, not a fact.
fn gzip_size_hint(bytes: &[u8]) -> usize {
    let trailer = bytes.len().checked_sub(4).and_then(|at| bytes.get(at..)).unwrap_or_default();
    let stated = trailer.try_into().map_or(0, u32::from_le_bytes) as usize;
    stated.min(bytes.len().saturating_mul(1032)).min(1 << 30)
}

/// Decompresses gzip data if the bytes start with the gzip magic number.
pub fn maybe_gunzip(bytes: &[u8]) -> std::io::Result<std::borrow::Cow<'_, [u8]>> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::with_capacity(gzip_size_hint(bytes));
        flate2::read::MultiGzDecoder::new(bytes).read_to_end(&mut out)?;
        Ok(std::borrow::Cow::Owned(out))
    } else {
        Ok(std::borrow::Cow::Borrowed(bytes))
    }
}

/// Decompresses gzip data as far as it goes: a file cut short (a match stopped while writing
/// it) gives what it holds, and `true`. A stream that is corrupt, not cut, is an error.
fn gunzip_what_is_there(bytes: &[u8]) -> std::io::Result<(std::borrow::Cow<'_, [u8]>, bool)> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok((std::borrow::Cow::Borrowed(bytes), false));
    }
    let mut out = Vec::with_capacity(gzip_size_hint(bytes));
    match flate2::read::MultiGzDecoder::new(bytes).read_to_end(&mut out) {
        Ok(_) => Ok((std::borrow::Cow::Owned(out), false)),
        // Cut before any data (inside the gzip header, say): nothing to read, an error.
        Err(e)
            if !out.is_empty()
                && (e.kind() == std::io::ErrorKind::UnexpectedEof || e.to_string().contains("incomplete")) =>
        {
            Ok((std::borrow::Cow::Owned(out), true))
        }
        Err(e) => Err(e),
    }
}

/// The 2018 engine build a replay comes from, told by its death events (`older_build`: one
/// without the `removed` flag), its config and its frames' computation times; `None` for the
/// season builds.
fn legacy_build(older_build: bool, no_start_game_limit: bool, frames: &[Frame]) -> Option<LegacyBuild> {
    match (older_build, no_start_game_limit) {
        (true, _) => Some(LegacyBuild::August2018),
        (false, true) if records_no_computation_time(frames) => Some(LegacyBuild::August2018),
        (false, true) => Some(LegacyBuild::October2018),
        (false, false) => None,
    }
}

/// The frames read so far and their lines. A frame that parses can still lie (a tile off the
/// board, a structure on the wrong half, a figure that is not finite): it is refused, naming
/// its line, before anything builds a game from it. Each is checked once read (once the config
/// is), while it is in the cache; the first lie is reported once every line has parsed (a line
/// that does not parse is reported first).
struct ReadFrames {
    frames: Vec<Frame>,
    lines: Vec<usize>,
    /// How many frames are checked.
    checked: usize,
    /// The first frame found lying: its line and what is wrong.
    lie: Option<(usize, FrameError)>,
}

impl ReadFrames {
    fn with_capacity(lines: usize) -> ReadFrames {
        ReadFrames { frames: Vec::with_capacity(lines), lines: Vec::with_capacity(lines), checked: 0, lie: None }
    }

    /// Adds the frame of line `line`, checked if the config is known.
    fn push(&mut self, frame: Frame, line: usize, config: &Option<(Config, usize)>) {
        self.frames.push(frame);
        self.lines.push(line);
        if let Some((config, _)) = config {
            self.check(config);
        }
    }

    /// Checks the frames not yet checked, until one lies.
    fn check(&mut self, config: &Config) {
        while self.lie.is_none() && self.checked < self.frames.len() {
            if let Err(e) = check_frame(config, &self.frames[self.checked]) {
                self.lie = Some((self.lines[self.checked], e));
            }
            self.checked += 1;
        }
    }
}

/// Parses replay bytes (plain or gzip); `path` is only used in messages.
pub fn read_replay_bytes(path: &Path, bytes: &[u8]) -> Result<Replay, ReplayError> {
    read_replay_bytes_with(path, bytes, Detail::Full)
}

/// A frame read the slow way, as `detail` keeps it: a summary empties an action frame's unit
/// lists, as the scanner leaves them.
fn kept(mut frame: Frame, detail: Detail) -> Frame {
    if detail == Detail::Summary && frame.turn_info.phase == crate::engine::frame::Phase::Action {
        frame.units = frame.units.map(|lists| vec![Vec::new(); lists.len()]);
    }
    frame
}

/// The text of the data, a bad byte read as U+FFFD.
fn text_of(data: &[u8]) -> std::borrow::Cow<'_, str> {
    // Checking for valid UTF-8 is several times faster than the lossy scan that a bad byte needs.
    match std::str::from_utf8(data) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(data),
    }
}

/// An empty file said as such, rather than as a replay without its config line.
fn not_empty(bytes: &[u8], text: &str) -> Result<(), &'static str> {
    if bytes.is_empty() {
        Err("the file is empty (0 bytes): not a replay")
    } else if text.trim().is_empty() {
        Err("the file holds only blank lines: not a replay")
    } else {
        Ok(())
    }
}

/// Parses replay bytes (plain or gzip), keeping `detail`; `path` is only used in messages.
pub fn read_replay_bytes_with(path: &Path, bytes: &[u8], detail: Detail) -> Result<Replay, ReplayError> {
    let file = path.display().to_string();
    let fail = |line: Option<usize>, field: &str, message: String| ReplayError {
        file: file.clone(),
        line,
        field: field.into(),
        message,
    };
    let (data, gzip_cut) = gunzip_what_is_there(bytes).map_err(|e| fail(None, "", format!("not valid gzip: {e}")))?;
    let text = text_of(&data);
    not_empty(bytes, &text).map_err(|m| fail(None, "", m.into()))?;

    let mut config: Option<(Config, usize)> = None;
    let lines: Vec<&str> = text.split('\n').collect();
    let mut read = ReadFrames::with_capacity(lines.len());
    let mut scanner = Scanner::default();
    let mut legacy = false;
    let mut truncated_at = None;
    let mut older_build = false;
    let mut no_start_game_limit = false;
    let last_content = lines.iter().rposition(|l| !l.trim().is_empty());
    for (i, raw_line) in lines.iter().enumerate() {
        let line_no = i + 1;
        let line = raw_line.strip_suffix('\r').unwrap_or(raw_line).trim();
        if line.is_empty() {
            continue;
        }
        if config.is_some()
            && let Some((frame, death_without_flag)) = scanner
                .frame(line, detail == Detail::Summary)
                .or_else(|| parse_frame_line(line).map(|(frame, flag)| (kept(frame, detail), flag)))
        {
            older_build |= death_without_flag;
            legacy |= frame.turn_info.total_frame.is_none();
            read.push(frame, line_no, &config);
            continue;
        }
        let value: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            // JSON cut short on the file's last line: the writer was stopped mid-line. What came
            // before is a replay; the rest of the file is an error as usual.
            Err(e) if e.is_eof() && Some(i) == last_content && config.is_some() => {
                truncated_at = Some(line_no);
                break;
            }
            Err(e) => return Err(fail(Some(line_no), "", format!("invalid JSON at column {}: {e}", e.column()))),
        };
        if !value.is_object() {
            return Err(fail(Some(line_no), "", "expected a JSON object".into()));
        }
        if config.is_none() && value.get("unitInformation").is_some() {
            no_start_game_limit = lacks_start_game_limit(&value);
            let c = Config::from_value(value).map_err(|e| fail(Some(line_no), &e.field, e.message))?;
            legacy |= c.legacy;
            read.check(&c);
            config = Some((c, line_no));
            continue;
        }
        if value.get("turnInfo").is_some() {
            older_build |= has_death_without_removed_flag(&value);
            let frame = parse_frame(&value).map_err(|(field, message)| fail(Some(line_no), &field, message))?;
            let frame = kept(frame, detail);
            if frame.turn_info.total_frame.is_none() {
                legacy = true;
            }
            read.push(frame, line_no, &config);
        }
        // Other objects (unknown keys, stray lines) are ignored.
    }
    if gzip_cut && truncated_at.is_none() {
        // Cut at a line's end: every line read is whole, the file still ends early.
        truncated_at = Some(lines.len());
    }
    let (mut config, config_line) =
        config.ok_or_else(|| fail(None, "unitInformation", "no config line found".into()))?;
    let ReadFrames { frames, lines: frame_lines, lie, .. } = read;
    if let Some(build) = legacy_build(older_build, no_start_game_limit, &frames)
        && let Some(m) = config.mechanics.as_mut()
    {
        m.build = build;
    }
    if let Some((line, e)) = lie {
        return Err(fail(Some(line), &e.field, format!("{}: {}", e.place, e.problem)));
    }
    Ok(Replay { source: path.to_path_buf(), config, config_line, frames, frame_lines, legacy, truncated_at })
}
