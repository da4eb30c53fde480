//! A stand-in for the game's website on 127.0.0.1, started by the test that uses it: the
//! public API's shapes (`user/{id}/algos`, `algo/{id}/matches`, `replayexpanded/{id}`) built
//! from real replays of `../shared`, every request counted, and faults on demand (a status,
//! 429 with Retry-After, a connection cut mid-body, bodies that are not what was asked, a
//! slow answer).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// My user's id and name on the fake site, and my algo's.
pub const USER_ID: &str = "4242";
pub const USER_NAME: &str = "me-on-the-site";
pub const MY_ALGO: u64 = 700;
pub const MY_ALGO_NAME: &str = "my-ladder-algo";

/// What the site does wrong to one path, for its next `times` requests.
#[derive(Debug, Clone)]
pub enum Fault {
    /// Answers this status with an empty body.
    Status(u16),
    /// 429 with `Retry-After: seconds`.
    TooMany { retry_after: u64 },
    /// Sends the headers and half the body, then closes the connection.
    CutMidBody,
    /// 200 with a body that is not JSON.
    NotJson,
    /// 200 with JSON that has no `data.matches` (nor `data.algos`).
    NoData,
    /// 200 with an HTML page where the replay should be.
    Html,
    /// 200 with the replay gzipped and cut in half.
    TruncatedGzip,
    /// Waits this long before answering.
    Slow(Duration),
}

struct Planned {
    fault: Fault,
    times: usize,
}

/// One match the site knows: its replay's text (shared by the copies of one file) and its
/// listing.
struct SiteMatch {
    replay: Arc<Vec<u8>>,
    listing: serde_json::Value,
}

#[derive(Default)]
struct State {
    matches: HashMap<u64, SiteMatch>,
    /// Match ids by algo id, as `algo/{id}/matches` lists them.
    algo_matches: HashMap<u64, Vec<u64>>,
    faults: HashMap<String, Planned>,
    /// Every request's path, in order.
    requests: Vec<String>,
}

pub struct FakeSite {
    pub api: String,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    port: u16,
}

impl FakeSite {
    /// A site where my algo played `replays` (one match each, ids from 9001), the winner
    /// taken from each replay; I won the even ones. `copies` repeats the list (for the
    /// benchmark's 500 matches).
    pub fn start(replays: &[std::path::PathBuf], copies: usize) -> FakeSite {
        let mut state = State::default();
        let mut ids = Vec::new();
        let bytes: Vec<Arc<Vec<u8>>> = replays
            .iter()
            .map(|f| Arc::new(plain_text(&std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())))))
            .collect();
        for (k, replay) in bytes.iter().cycle().take(replays.len() * copies).enumerate() {
            let id = 9001 + k as u64;
            let replay = replay.clone();
            let listing = listing(id, k % 2 == 0);
            state.matches.insert(id, SiteMatch { replay, listing });
            ids.push(id);
        }
        state.algo_matches.insert(MY_ALGO, ids);
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().expect("local address").port();
        let state = Arc::new(Mutex::new(state));
        let stop = Arc::new(AtomicBool::new(false));
        let (st, sp) = (state.clone(), stop.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if sp.load(Ordering::Relaxed) {
                    return;
                }
                let Ok(conn) = conn else { continue };
                let st = st.clone();
                std::thread::spawn(move || serve(conn, &st));
            }
        });
        FakeSite { api: format!("http://127.0.0.1:{port}/api/game"), state, stop, port }
    }

    /// The match ids my algo played, in order.
    pub fn match_ids(&self) -> Vec<u64> {
        self.lock().algo_matches.get(&MY_ALGO).cloned().unwrap_or_default()
    }

    /// Keeps only the first `count` matches of my algo's list.
    pub fn keep_only(&self, count: usize) {
        if let Some(ids) = self.lock().algo_matches.get_mut(&MY_ALGO) {
            ids.truncate(count);
        }
    }

    /// Whether I won `match_id`, as the site lists it.
    pub fn i_won(&self, match_id: u64) -> bool {
        self.lock().matches[&match_id].listing["winning_algo"]["id"] == MY_ALGO
    }

    /// The fault for the next `times` requests of `path` (`/algo/700/matches`, …).
    pub fn fault(&self, path: &str, fault: Fault, times: usize) {
        self.lock().faults.insert(path.to_string(), Planned { fault, times });
    }

    /// Every request so far (paths under the API, query included).
    pub fn requests(&self) -> Vec<String> {
        self.lock().requests.clone()
    }

    /// Replay requests so far.
    pub fn replay_requests(&self) -> usize {
        self.requests().iter().filter(|r| r.starts_with("/replayexpanded/")).count()
    }

    pub fn clear_requests(&self) {
        self.lock().requests.clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Drop for FakeSite {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wakes the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// A replay's text (the site sends text), gunzipped when the file is gzipped.
fn plain_text(bytes: &[u8]) -> Vec<u8> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return bytes.to_vec();
    }
    let mut text = Vec::new();
    // The test's own files from ../shared: a damaged one fails the test here, by its error.
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut text).expect("a replay of ../shared gunzips");
    text
}

/// The site's listing of a match of mine against a rival (user `rival-N`).
fn listing(id: u64, i_won: bool) -> serde_json::Value {
    let me = serde_json::json!({"id": MY_ALGO, "name": MY_ALGO_NAME, "user": USER_NAME, "rating": 1500 + id % 7});
    let rival = id % 3;
    let them = serde_json::json!({"id": 800 + rival, "name": format!("rival-algo-{rival}"),
        "user": {"displayName": format!("rival-{rival}")}, "elo": 1400, "unknown_field": [1, 2]});
    let (winner, loser) = if i_won { (me, them) } else { (them, me) };
    serde_json::json!({"id": id, "turns": 50, "date": format!("2026-11-{:02}T10:00:00Z", id % 28 + 1),
        "winning_algo": winner, "losing_algo": loser, "some_new_field": {"x": 1}})
}

/// Reads one request's line and headers; answers it; closes.
fn serve(conn: TcpStream, state: &Mutex<State>) {
    let mut reader = BufReader::new(&conn);
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    loop {
        let mut header = String::new();
        match reader.read_line(&mut header) {
            Ok(0) | Err(_) => break,
            Ok(_) if header.trim().is_empty() => break,
            Ok(_) => {}
        }
    }
    let full = request_line.split_whitespace().nth(1).unwrap_or("").to_string();
    let path = full.strip_prefix("/api/game").unwrap_or(&full).to_string();
    let (fault, answer) = {
        let mut st = state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        st.requests.push(path.clone());
        let bare = path.split('?').next().unwrap_or("").to_string();
        let fault = match st.faults.get_mut(&bare) {
            Some(p) if p.times > 0 => {
                p.times -= 1;
                Some(p.fault.clone())
            }
            _ => None,
        };
        (fault, answer(&st, &bare))
    };
    let mut conn = conn;
    let _ = respond(&mut conn, fault, answer);
}

/// The status and body the site gives for `path`, faults aside.
fn answer(st: &State, path: &str) -> (u16, Vec<u8>) {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let json = |v: serde_json::Value| (200, v.to_string().into_bytes());
    match parts.as_slice() {
        ["user", id, "algos"] if *id == USER_ID => json(serde_json::json!({"data": {"algos": [
            {"id": MY_ALGO, "name": MY_ALGO_NAME, "rating": 1510, "extra": true}]}})),
        ["algo", id, "matches"] => match id.parse::<u64>().ok().and_then(|a| st.algo_matches.get(&a)) {
            Some(ids) => {
                let listed: Vec<&serde_json::Value> = ids.iter().map(|m| &st.matches[m].listing).collect();
                json(serde_json::json!({"data": {"matches": listed}}))
            }
            None => (404, b"{\"error\":\"no such algo\"}".to_vec()),
        },
        ["replayexpanded", id] => match id.parse::<u64>().ok().and_then(|m| st.matches.get(&m)) {
            Some(m) => (200, m.replay.to_vec()),
            None => (404, Vec::new()),
        },
        _ => (404, Vec::new()),
    }
}

fn respond(conn: &mut TcpStream, fault: Option<Fault>, (status, body): (u16, Vec<u8>)) -> std::io::Result<()> {
    let head = |status: u16, len: usize, extra: &str| {
        format!("HTTP/1.1 {status} X\r\nContent-Length: {len}\r\nConnection: close\r\n{extra}\r\n")
    };
    let send = |conn: &mut TcpStream, status: u16, body: &[u8], extra: &str| -> std::io::Result<()> {
        conn.write_all(head(status, body.len(), extra).as_bytes())?;
        conn.write_all(body)?;
        conn.flush()
    };
    match fault {
        None => send(conn, status, &body, ""),
        Some(Fault::Status(s)) => send(conn, s, b"", ""),
        Some(Fault::TooMany { retry_after }) => send(conn, 429, b"", &format!("Retry-After: {retry_after}\r\n")),
        Some(Fault::CutMidBody) => {
            conn.write_all(head(200, body.len(), "").as_bytes())?;
            conn.write_all(&body[..body.len() / 2])?;
            conn.flush()
            // Dropped here: the connection closes with half the body sent.
        }
        Some(Fault::NotJson) => send(conn, 200, b"<html><body>Bad gateway</body></html>", ""),
        Some(Fault::NoData) => send(conn, 200, br#"{"data":{"message":"nothing here"}}"#, ""),
        Some(Fault::Html) => send(conn, 200, b"<!DOCTYPE html><html><body>Please log in</body></html>", ""),
        Some(Fault::TruncatedGzip) => {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(&body)?;
            let gz = gz.finish()?;
            send(conn, 200, &gz[..gz.len() / 2], "")
        }
        Some(Fault::Slow(wait)) => {
            std::thread::sleep(wait);
            send(conn, status, &body, "")
        }
    }
}
