//! The files the runner writes beside a replay: `<replay>.annotations.jsonl` (one `#draw`
//! object per line with `turn` and `player`, tests/algos/ANNOTATIONS.md) and the algos'
//! stderr logs `<replay>.p1.stderr.log` (or `<replay>.p1.log`), split by `--- turn N ---`
//! markers. Missing or malformed files and lines are tolerated: whatever can be read is
//! returned, the rest is listed in `problems`.

use crate::engine::{Player, Tile};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq)]
pub enum AnnotationKind {
    Tile { tile: Tile, label: Option<String> },
    Line { from: Tile, to: Tile },
    Text { tile: Tile, text: String },
}

/// One annotation, its coordinates already in player 1's view.
#[derive(Debug, Clone, PartialEq)]
pub struct Annotation {
    pub turn: i32,
    pub player: Player,
    pub color: Option<String>,
    pub kind: AnnotationKind,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Companions {
    pub annotations_by_turn: BTreeMap<i32, Vec<Annotation>>,
    /// Per player: log lines by turn; lines before the first `--- turn N ---` marker (or all
    /// lines of a log without markers) are under turn −1.
    pub log_lines_by_turn: [BTreeMap<i32, Vec<String>>; 2],
    pub problems: Vec<String>,
}

impl Companions {
    pub fn annotations(&self, turn: i32) -> &[Annotation] {
        self.annotations_by_turn.get(&turn).map_or(&[], |v| v.as_slice())
    }

    pub fn log_lines(&self, p: Player, turn: i32) -> &[String] {
        self.log_lines_by_turn[p.index()].get(&turn).map_or(&[], |v| v.as_slice())
    }
}

/// Candidate companion paths: the replay's full name plus the suffix, then the name with
/// `.gz` and then `.replay` stripped.
fn candidates(replay: &Path, suffix: &str) -> Vec<PathBuf> {
    let name = replay.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut stems = vec![name.clone()];
    if let Some(s) = name.strip_suffix(".gz") {
        stems.push(s.to_string());
    }
    if let Some(s) = name.strip_suffix(".gz").unwrap_or(&name).strip_suffix(".replay") {
        stems.push(s.to_string());
    }
    stems.into_iter().map(|s| replay.with_file_name(format!("{s}{suffix}"))).collect()
}

fn read_first(replay: &Path, suffix: &str) -> Option<(PathBuf, String)> {
    candidates(replay, suffix).into_iter().find_map(|p| {
        let bytes = crate::files::read(&p).ok()?;
        Some((p, String::from_utf8_lossy(&bytes).into_owned()))
    })
}

pub fn load(replay_path: &Path) -> Companions {
    let mut c = Companions::default();
    if let Some((path, text)) = read_first(replay_path, ".annotations.jsonl") {
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            match parse_annotation(line) {
                Some(a) => c.annotations_by_turn.entry(a.turn).or_default().push(a),
                None => c.problems.push(format!("{}:{}: unreadable annotation", path.display(), i + 1)),
            }
        }
    }
    for p in Player::both() {
        let runner_log = read_first(replay_path, &format!(".p{}.stderr.log", p.number()));
        let Some((_, text)) = runner_log.or_else(|| read_first(replay_path, &format!(".p{}.log", p.number()))) else {
            continue;
        };
        let mut turn = -1;
        for line in text.lines() {
            if let Some(n) = turn_marker(line) {
                turn = n;
                continue;
            }
            c.log_lines_by_turn[p.index()].entry(turn).or_default().push(line.to_string());
        }
    }
    c
}

/// `--- turn N ---` → N.
fn turn_marker(line: &str) -> Option<i32> {
    let inner = line.trim().strip_prefix("---")?.strip_suffix("---")?.trim();
    inner.strip_prefix("turn")?.trim().parse().ok()
}

fn int(v: &Value) -> Option<i32> {
    v.as_i64().and_then(|n| i32::try_from(n).ok())
}

fn tile_xy(v: &Value) -> Option<Tile> {
    Some(Tile::new(int(v.get("x")?)?, int(v.get("y")?)?))
}

fn tile_pair(v: &Value) -> Option<Tile> {
    let a = v.as_array()?;
    Some(Tile::new(int(a.first()?)?, int(a.get(1)?)?))
}

/// One line of the annotations file; `None` if malformed or of an unknown kind.
pub(crate) fn parse_annotation(line: &str) -> Option<Annotation> {
    let v: Value = serde_json::from_str(line.strip_prefix("#draw").unwrap_or(line).trim()).ok()?;
    let turn = int(v.get("turn")?)?;
    let player = Player::from_number(v.get("player")?.as_i64()?)?;
    let view = |t: Tile| if player == Player::Two { t.rotated() } else { t };
    let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let kind = match v.get("kind")?.as_str()? {
        "tile" => AnnotationKind::Tile { tile: view(tile_xy(&v)?), label: text("label") },
        "line" => AnnotationKind::Line { from: view(tile_pair(v.get("from")?)?), to: view(tile_pair(v.get("to")?)?) },
        "text" => AnnotationKind::Text { tile: view(tile_xy(&v)?), text: text("text")? },
        _ => return None,
    };
    Some(Annotation { turn, player, color: text("color"), kind })
}
