//! rust-scout: a tiny Terminal test algo with no dependencies.
//!
//! Reads the config line (recognised by "replaySave"), then frames. On every turn
//! frame (turnInfo[0] == 0) it answers `[]` and a deploy line that spends all MP
//! on scouts from tile [13, 0]; action frames get no answer; the end frame
//! (phase 2) or EOF ends the program. The scout's shorthand and MP price come
//! from config unitInformation[3] ("shorthand", "cost2", or legacy "cost").
//!
//! For the runner's tests, on every platform (a Windows build plays under Wine):
//! `RUST_SCOUT_HANG_TURN=N` stops answering from turn N on (it sleeps);
//! `RUST_SCOUT_CHILD=FILE` starts a copy of itself that appends a line to FILE every
//! 50 ms until it is killed (a grandchild the runner must end with the algo).
//!
//! Hostile modes, for confinement's tests (docs/runner.md, Confinement), at turn
//! `RUST_SCOUT_HOSTILE_TURN` (default 1), before answering; bounded, so that unconfined they
//! harm nothing, and reported on stderr (`rust-scout: hostile …`):
//! `RUST_SCOUT_HOSTILE=memory` allocates and touches 16 MiB at a time up to
//! `RUST_SCOUT_HOSTILE_MB` (default 512, at most 4096) and keeps it; a refused allocation
//! ends the program as any Rust program's does (`memory allocation of … failed`, abort).
//! `RUST_SCOUT_HOSTILE=spawn` starts `RUST_SCOUT_HOSTILE_COUNT` (default 16, at most 64)
//! copies of itself that each sleep up to 10 minutes, reports how many started and the
//! error that stopped it, waits a second (a process watch looks every 100 ms), and plays on.

use std::io::{self, BufRead, Write};

/// Minimal JSON value, enough for config and frames.
#[derive(Debug, Clone)]
#[allow(dead_code)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(kv) => kv.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    fn idx(&self, i: usize) -> Option<&Json> {
        match self {
            Json::Arr(a) => a.get(i),
            _ => None,
        }
    }
    fn num(&self) -> Option<f64> {
        match self {
            Json::Num(n) => Some(*n),
            _ => None,
        }
    }
    fn str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Parser<'a> {
    fn parse(text: &'a str) -> Option<Json> {
        let mut p = Parser { b: text.as_bytes(), i: 0 };
        let v = p.value()?;
        p.ws();
        if p.i == p.b.len() { Some(v) } else { None }
    }
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        if self.b.get(self.i) == Some(&c) {
            self.i += 1;
            Some(())
        } else {
            None
        }
    }
    fn lit(&mut self, s: &str, v: Json) -> Option<Json> {
        if self.b[self.i..].starts_with(s.as_bytes()) {
            self.i += s.len();
            Some(v)
        } else {
            None
        }
    }
    fn value(&mut self) -> Option<Json> {
        self.ws();
        match *self.b.get(self.i)? {
            b'{' => {
                self.i += 1;
                let mut kv = Vec::new();
                if self.eat(b'}').is_some() {
                    return Some(Json::Obj(kv));
                }
                loop {
                    self.ws();
                    let k = self.string()?;
                    self.eat(b':')?;
                    kv.push((k, self.value()?));
                    if self.eat(b',').is_none() {
                        self.eat(b'}')?;
                        return Some(Json::Obj(kv));
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut a = Vec::new();
                if self.eat(b']').is_some() {
                    return Some(Json::Arr(a));
                }
                loop {
                    a.push(self.value()?);
                    if self.eat(b',').is_none() {
                        self.eat(b']')?;
                        return Some(Json::Arr(a));
                    }
                }
            }
            b'"' => self.string().map(Json::Str),
            b't' => self.lit("true", Json::Bool(true)),
            b'f' => self.lit("false", Json::Bool(false)),
            b'n' => self.lit("null", Json::Null),
            _ => {
                let start = self.i;
                while self.i < self.b.len()
                    && matches!(self.b[self.i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                {
                    self.i += 1;
                }
                std::str::from_utf8(&self.b[start..self.i]).ok()?.parse().ok().map(Json::Num)
            }
        }
    }
    fn string(&mut self) -> Option<String> {
        if self.b.get(self.i) != Some(&b'"') {
            return None;
        }
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = *self.b.get(self.i)?;
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => {
                    let e = *self.b.get(self.i)?;
                    self.i += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let hex = std::str::from_utf8(self.b.get(self.i..self.i + 4)?).ok()?;
                            self.i += 4;
                            let ch = char::from_u32(u32::from_str_radix(hex, 16).ok()?).unwrap_or('?');
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        other => out.push(other),
                    }
                }
                _ => out.push(c),
            }
        }
    }
}

/// The grandchild of `RUST_SCOUT_CHILD`: shows it is alive until killed.
fn heartbeat(file: &str) -> ! {
    loop {
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(file) {
            let _ = writeln!(f, "alive");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// The sleeping copies `RUST_SCOUT_HOSTILE=spawn` starts: never longer than this.
const SPAWNED_SLEEP: std::time::Duration = std::time::Duration::from_secs(600);
const MAX_HOSTILE_MB: usize = 4096;
const MAX_HOSTILE_SPAWNS: usize = 64;
const CHUNK_MB: usize = 16;

/// A bounded number from the environment.
fn env_count(name: &str, default: usize, max: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default).min(max)
}

/// Allocates and touches memory up to the bound, keeping it for the rest of the run.
fn hostile_memory() -> Vec<Vec<u8>> {
    let total = env_count("RUST_SCOUT_HOSTILE_MB", 512, MAX_HOSTILE_MB);
    let mut kept = Vec::new();
    for _ in 0..total / CHUNK_MB {
        // Touched, not only reserved: every page is committed and resident.
        kept.push(vec![1u8; CHUNK_MB << 20]);
    }
    eprintln!("rust-scout: hostile memory: {} MiB allocated and touched", kept.len() * CHUNK_MB);
    kept
}

/// Starts sleeping copies of itself up to the bound; stops at the first refusal.
fn hostile_spawn() -> Vec<std::process::Child> {
    let wanted = env_count("RUST_SCOUT_HOSTILE_COUNT", 16, MAX_HOSTILE_SPAWNS);
    let mut started = Vec::new();
    let mut refused = None;
    match std::env::current_exe() {
        Ok(me) => {
            while started.len() < wanted {
                let child = std::process::Command::new(&me)
                    .env_remove("RUST_SCOUT_HOSTILE")
                    .env("RUST_SCOUT_SLEEP", "1")
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .spawn();
                match child {
                    Ok(c) => started.push(c),
                    Err(e) => {
                        refused = Some(e.to_string());
                        break;
                    }
                }
            }
        }
        Err(e) => refused = Some(format!("cannot find itself: {e}")),
    }
    let end = refused.map_or_else(String::new, |e| format!(", then: {e}"));
    eprintln!("rust-scout: hostile spawn: {} of {wanted} started{end}", started.len());
    std::thread::sleep(std::time::Duration::from_secs(1));
    started
}

fn main() {
    if let Ok(file) = std::env::var("RUST_SCOUT_HEARTBEAT") {
        heartbeat(&file);
    }
    if std::env::var_os("RUST_SCOUT_SLEEP").is_some() {
        std::thread::sleep(SPAWNED_SLEEP);
        return;
    }
    if let (Ok(file), Ok(me)) = (std::env::var("RUST_SCOUT_CHILD"), std::env::current_exe()) {
        let child = std::process::Command::new(me)
            .env_remove("RUST_SCOUT_CHILD")
            .env("RUST_SCOUT_HEARTBEAT", &file)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .spawn();
        match child {
            // Answer nothing before the grandchild has beaten once: a test that checks it is
            // gone after the match must know it ran (starting it can take seconds under Wine).
            Ok(_) => {
                let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
                while std::fs::metadata(&file).map_or(0, |m| m.len()) == 0 && std::time::Instant::now() < deadline {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
            }
            Err(e) => eprintln!("rust-scout: no child: {e}"),
        }
    }
    let hang_turn: Option<f64> = std::env::var("RUST_SCOUT_HANG_TURN").ok().and_then(|t| t.parse().ok());
    let mut hostile = std::env::var("RUST_SCOUT_HOSTILE").ok();
    let hostile_turn = env_count("RUST_SCOUT_HOSTILE_TURN", 1, 100) as f64;
    // What a hostile act took, held until the program ends.
    let mut _kept_memory = Vec::new();
    let mut _spawned = Vec::new();
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut scout = String::from("PI");
    let mut scout_cost = 1.0_f64;
    let mut have_config = false;

    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if !have_config && line.contains("replaySave") {
            have_config = true;
            if let Some(unit) = Parser::parse(line)
                .as_ref()
                .and_then(|c| c.get("unitInformation"))
                .and_then(|u| u.idx(3))
            {
                if let Some(s) = unit.get("shorthand").and_then(Json::str) {
                    scout = s.to_string();
                }
                // Current format: cost2 = MP; legacy format: a single `cost`.
                if let Some(c) = unit.get("cost2").or_else(|| unit.get("cost")).and_then(Json::num) {
                    if c > 0.0 {
                        scout_cost = c;
                    }
                }
            }
            eprintln!("rust-scout: scout = {scout:?}, cost {scout_cost} MP");
            continue;
        }
        let Some(frame) = Parser::parse(line) else {
            eprintln!("rust-scout: unparsable frame ignored");
            continue;
        };
        let phase = frame.get("turnInfo").and_then(|t| t.idx(0)).and_then(Json::num);
        match phase {
            Some(0.0) => {
                let turn = frame.get("turnInfo").and_then(|t| t.idx(1)).and_then(Json::num);
                if hang_turn.is_some() && turn >= hang_turn {
                    std::thread::sleep(std::time::Duration::from_secs(3600));
                }
                if turn >= Some(hostile_turn) {
                    match hostile.take().as_deref() {
                        Some("memory") => _kept_memory = hostile_memory(),
                        Some("spawn") => _spawned = hostile_spawn(),
                        Some(other) => eprintln!("rust-scout: unknown RUST_SCOUT_HOSTILE={other:?} ignored"),
                        None => {}
                    }
                }
                let mp = frame
                    .get("p1Stats")
                    .and_then(|s| s.idx(2))
                    .and_then(Json::num)
                    .unwrap_or(0.0);
                // Small epsilon: MP is kept at one decimal.
                let n = ((mp + 1e-6) / scout_cost).floor().max(0.0) as usize;
                let entry = format!("[\"{scout}\",13,0]");
                let deploy = vec![entry; n].join(",");
                let ok = writeln!(out, "[]").and_then(|_| writeln!(out, "[{deploy}]")).and_then(|_| out.flush());
                if ok.is_err() {
                    break;
                }
            }
            Some(2.0) => break,
            _ => {}
        }
    }
}
