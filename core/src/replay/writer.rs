//! Writing frames and replays in the official format (docs/replay-format.md, Layout; docs/protocol.md, Frames).

use crate::engine::config::Config;
use crate::engine::frame::*;
use crate::engine::geometry::Tile;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// An `f32` as the engine prints it: the shortest round-tripping decimal, with `.0` for
/// whole numbers (`30.0`, `6.6000004`). Zero is `0.0` whatever its sign: no official replay
/// holds `-0.0`, and a sum of nothing is `-0.0` in Rust (a player without structures'
/// `stationary_resource_left_on_board`).
pub fn fmt_f32(out: &mut String, v: f32) {
    if v.is_finite() && v == v.trunc() && v.abs() < 1e7 {
        // Fast path (the runner serialises every frame twice): same text as `{v:.1}`.
        if v < 0.0 {
            out.push('-');
        }
        push_int(out, v.abs() as i64);
        out.push_str(".0");
    } else if v.is_finite() {
        let _ = write!(out, "{v}");
    } else {
        out.push_str("0.0");
    }
}

/// Appends an integer in decimal (what `write!("{v}")` prints, without the formatter's cost).
fn push_int(out: &mut String, v: i64) {
    let mut buf = [0u8; 20];
    let mut n = v.unsigned_abs();
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if v < 0 {
        out.push('-');
    }
    if let Ok(digits) = std::str::from_utf8(&buf[i..]) {
        out.push_str(digits);
    }
}

fn tile(out: &mut String, t: Tile) {
    out.push('[');
    push_int(out, i64::from(t.x));
    out.push(',');
    push_int(out, i64::from(t.y));
    out.push(']');
}

fn list<T>(out: &mut String, items: &[T], mut each: impl FnMut(&mut String, &T)) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(out, item);
    }
    out.push(']');
}

fn units(out: &mut String, lists: &[Vec<UnitEntry>], count: usize) {
    out.push('[');
    for i in 0..count {
        if i > 0 {
            out.push(',');
        }
        let empty = Vec::new();
        list(out, lists.get(i).unwrap_or(&empty), |o, u| {
            tile(o, u.tile);
            o.pop();
            o.push(',');
            fmt_f32(o, u.health);
            o.push_str(",\"");
            push_int(o, i64::from(u.id));
            o.push_str("\"]");
        });
    }
    out.push(']');
}

fn stats(out: &mut String, s: &Stats, with_time: bool) {
    out.push('[');
    fmt_f32(out, s.hp);
    out.push(',');
    fmt_f32(out, s.sp);
    out.push(',');
    fmt_f32(out, s.mp);
    if with_time {
        let _ = write!(out, ",{}", s.time_ms);
    }
    out.push(']');
}

/// Opens an event entry: `[` then its tiles and (if any) its amount, comma-separated, ready
/// for the entry's tail (`,type,"id",…]`), which every event list writes the same way.
fn event_head(o: &mut String, tiles: &[Tile], amount: Option<f32>) {
    o.push('[');
    for (i, t) in tiles.iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        tile(o, *t);
    }
    if let Some(a) = amount {
        o.push(',');
        fmt_f32(o, a);
    }
}

fn events(out: &mut String, e: &Events) {
    out.push_str("{\"selfDestruct\":");
    list(out, &e.self_destruct, |o, x| {
        event_head(o, &[x.tile], None);
        o.push(',');
        list(o, &x.victims, |o, t| tile(o, *t));
        o.push(',');
        fmt_f32(o, x.damage);
        let _ = write!(o, ",{},\"{}\",{}]", x.unit_type, x.id, x.owner.number());
    });
    out.push_str(",\"breach\":");
    list(out, &e.breach, |o, x| {
        event_head(o, &[x.tile], Some(x.damage));
        let _ = write!(o, ",{},\"{}\",{}]", x.unit_type, x.id, x.owner.number());
    });
    out.push_str(",\"damage\":");
    list(out, &e.damage, |o, x| {
        event_head(o, &[x.tile], Some(x.damage));
        let _ = write!(o, ",{},\"{}\",{}]", x.unit_type, x.id, x.owner.number());
    });
    out.push_str(",\"shield\":");
    list(out, &e.shield, |o, x| {
        event_head(o, &[x.from, x.to], Some(x.amount));
        let _ = write!(o, ",{},\"{}\",\"{}\",{}]", x.support_type, x.support_id, x.target_id, x.owner.number());
    });
    out.push_str(",\"move\":");
    list(out, &e.moves, |o, x| {
        event_head(o, &[x.from, x.to], None);
        let _ = write!(o, ",[0,0],{},\"{}\",{}]", x.unit_type, x.id, x.owner.number());
    });
    out.push_str(",\"spawn\":");
    list(out, &e.spawn, |o, x| {
        event_head(o, &[x.tile], None);
        let _ = write!(o, ",{},\"{}\",{}]", x.unit_type, x.id, x.owner.number());
    });
    out.push_str(",\"death\":");
    list(out, &e.death, |o, x| {
        event_head(o, &[x.tile], None);
        let _ = write!(o, ",{},\"{}\",{},{}]", x.unit_type, x.id, x.owner.number(), x.removed);
    });
    out.push_str(",\"attack\":");
    list(out, &e.attack, |o, x| {
        event_head(o, &[x.from, x.to], Some(x.damage));
        let _ = write!(o, ",{},\"{}\",\"{}\",{}]", x.attacker_type, x.attacker_id, x.target_id, x.owner.number());
    });
    out.push_str(",\"melee\":");
    list(out, &e.melee, |o, x| {
        event_head(o, &[x.from, x.to], Some(x.damage));
        let _ = write!(o, ",{},\"{}\",{}]", x.unit_type, x.id, x.owner.number());
    });
    out.push('}');
}

fn end_stats(out: &mut String, es: &EndStats) {
    let _ = write!(out, "{{\"duration\":{},\"winner\":{},", es.duration, es.winner);
    for (i, p) in es.players.iter().enumerate() {
        let _ = write!(out, "\"player{}\":{{", i + 1);
        let floats = [
            ("stationary_resource_spent", p.stationary_resource_spent),
            ("dynamic_resource_spoiled", p.dynamic_resource_spoiled),
            ("dynamic_resource_destroyed", p.dynamic_resource_destroyed),
            ("dynamic_resource_spent", p.dynamic_resource_spent),
            ("stationary_resource_left_on_board", p.stationary_resource_left_on_board),
            ("points_scored", p.points_scored),
        ];
        for (k, v) in floats {
            let _ = write!(out, "\"{k}\":");
            fmt_f32(out, v);
            out.push(',');
        }
        let _ = write!(
            out,
            "\"crashed\":{},\"name\":{},\"time_damage_taken\":{},\"timeout_death\":{},\"total_computation_time\":{}}},",
            p.crashed,
            serde_json::Value::from(p.name.as_str()),
            p.time_damage_taken,
            p.timeout_death,
            p.total_computation_time
        );
    }
    let _ = write!(out, "\"frames\":{},\"turns\":{}}}", es.frames, es.turns);
}

/// One frame as a JSON line (without the newline), in the official key order of the
/// local engine. `legacy` writes the 2018–2019 layout (3-element `turnInfo`, 7 lists).
pub fn frame_to_json(f: &Frame, legacy: bool, store_times: bool) -> String {
    let mut out = String::with_capacity(1024);
    let lists = if legacy { 7 } else { UNIT_LISTS };
    out.push_str("{\"p2Units\":");
    units(&mut out, &f.units[1], lists);
    let ti = &f.turn_info;
    let _ = write!(out, ",\"turnInfo\":[{},{},{}", ti.phase.number(), ti.turn, ti.action_frame);
    if !legacy {
        let _ = write!(out, ",{}", ti.total_frame.unwrap_or(0));
    }
    out.push_str("],\"p1Stats\":");
    stats(&mut out, &f.stats[0], store_times);
    if let Some(es) = &f.end_stats {
        out.push_str(",\"endStats\":");
        end_stats(&mut out, es);
    }
    out.push_str(",\"p1Units\":");
    units(&mut out, &f.units[0], lists);
    out.push_str(",\"p2Stats\":");
    stats(&mut out, &f.stats[1], store_times);
    out.push_str(",\"events\":");
    events(&mut out, &f.events);
    out.push('}');
    out
}

/// What a replay file holds before its frames: a blank line, the config line, a blank line.
pub fn replay_header(config: &Config) -> String {
    format!("\n{}\n\n", config.to_line())
}

/// Streams a replay to disk as frames happen, so a killed run leaves a readable file up to
/// the last frame written. Layout: blank line, config, blank line, one frame per line.
/// Where files live in memory (the browser), the replay is gathered and stored when it is
/// finished or dropped, so a stopped match keeps its frames there too.
pub struct ReplayWriter {
    path: PathBuf,
    sink: Sink,
    legacy: bool,
    store_times: bool,
}

enum Sink {
    File(std::io::BufWriter<std::fs::File>),
    /// The replay so far, stored among the page's files once finished (or dropped).
    Memory(Vec<u8>),
    /// Finished: stored already.
    Stored,
}

impl ReplayWriter {
    pub fn create(path: &Path, config: &Config) -> std::io::Result<ReplayWriter> {
        let sink = if crate::files::IN_MEMORY {
            if crate::files::is_file(path) {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    format!("{}: a file of that name is there", path.display()),
                ));
            }
            Sink::Memory(Vec::new())
        } else {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)?;
            }
            let file = std::fs::OpenOptions::new().write(true).create_new(true).open(path)?;
            Sink::File(std::io::BufWriter::new(file))
        };
        let mut w = ReplayWriter {
            path: path.to_path_buf(),
            sink,
            legacy: config.legacy,
            store_times: config.timing.store_bot_times,
        };
        w.write_raw(&[replay_header(config).as_bytes()])?;
        Ok(w)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `parts` one after the other, flushed to the file as one.
    fn write_raw(&mut self, parts: &[&[u8]]) -> std::io::Result<()> {
        match &mut self.sink {
            Sink::File(f) => {
                for part in parts {
                    f.write_all(part)?;
                }
                f.flush()
            }
            Sink::Memory(buf) => {
                parts.iter().for_each(|part| buf.extend_from_slice(part));
                Ok(())
            }
            Sink::Stored => Err(std::io::Error::other("the replay was finished already")),
        }
    }

    pub fn write_frame(&mut self, frame: &Frame) -> std::io::Result<()> {
        let line = frame_to_json(frame, self.legacy, self.store_times);
        self.write_line(&line)
    }

    /// Writes a frame already serialised with [`frame_to_json`] (the runner serialises
    /// once for the replay and player 1's algo).
    pub fn write_line(&mut self, line: &str) -> std::io::Result<()> {
        self.write_raw(&[line.as_bytes(), b"\n"])
    }

    /// Flushes the file and, with `sync`, waits until it is on disk.
    pub fn finish(mut self, sync: bool) -> std::io::Result<PathBuf> {
        match std::mem::replace(&mut self.sink, Sink::Stored) {
            Sink::File(mut f) => {
                f.flush()?;
                if sync {
                    f.get_ref().sync_all()?;
                }
            }
            Sink::Memory(buf) => crate::files::write_atomic(&self.path, &buf)?,
            Sink::Stored => {}
        }
        Ok(std::mem::take(&mut self.path))
    }
}

impl Drop for ReplayWriter {
    /// In memory, a replay left unfinished (a stopped match) is stored as far as it got.
    fn drop(&mut self) {
        if let Sink::Memory(buf) = std::mem::replace(&mut self.sink, Sink::Stored) {
            let _ = crate::files::write_atomic(&self.path, &buf);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fmt_f32;

    #[test]
    fn fast_whole_number_path_prints_like_the_formatter() {
        let values =
            [0.0f32, -0.0, 1.0, -1.0, 30.0, -31.0, 60.0, 9_999_999.0, -9_999_999.0, 6.6000004, 0.1, 1e7, 2.5e9];
        for v in values.into_iter().chain((-300..300).map(|i| i as f32 * 0.5)) {
            let mut ours = String::new();
            fmt_f32(&mut ours, v);
            let expected = if v == v.trunc() && v.abs() < 1e7 { format!("{:.1}", v + 0.0) } else { format!("{v}") };
            assert_eq!(ours, expected, "{v}");
        }
    }

    #[test]
    fn negative_zero_prints_as_zero() {
        let mut out = String::new();
        fmt_f32(&mut out, std::iter::empty::<f32>().sum());
        fmt_f32(&mut out, -0.0);
        assert_eq!(out, "0.00.0");
    }
}
