//! A replay body from the site checked before it is kept: a page of HTML, a truncated
//! download or anything the replay reader refuses is named and dropped, never written.
//! A good one is stored gzipped, atomically, as `<match id>.replay.gz`.

use super::error::SyncError;
use crate::replay::{Detail, read_replay_bytes_with};
use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::Write;
use std::path::{Path, PathBuf};

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Why `body` is not a whole replay, if it is not.
pub fn check_replay(url: &str, body: &[u8]) -> Result<(), SyncError> {
    let refuse = |why: String| SyncError::NotAReplay { url: url.into(), why };
    if looks_like_html(body) {
        return Err(refuse("an HTML page".into()));
    }
    let replay = read_replay_bytes_with(Path::new(url), body, Detail::Summary).map_err(|e| refuse(e.message))?;
    if let Some(line) = replay.truncated_at {
        return Err(refuse(format!("truncated at line {line}")));
    }
    if replay.end_frame().is_none() {
        return Err(refuse("truncated: no end frame".into()));
    }
    Ok(())
}

fn looks_like_html(body: &[u8]) -> bool {
    let start = body.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(body.len());
    let head = String::from_utf8_lossy(&body[start..body.len().min(start + 256)]).to_ascii_lowercase();
    head.starts_with("<!doctype html") || head.starts_with("<html") || head.starts_with('<')
}

/// The body as a `.replay.gz` file's bytes: kept as it is when the site sent it gzipped.
fn gzipped(body: &[u8]) -> std::io::Result<Vec<u8>> {
    if body.starts_with(&GZIP_MAGIC) {
        return Ok(body.to_vec());
    }
    // The fastest level: a replay is mostly repeated lists and still shrinks tenfold, and a
    // sync of hundreds of replays must not wait on the compressor.
    let mut encoder = GzEncoder::new(Vec::with_capacity(body.len() / 8), Compression::fast());
    encoder.write_all(body)?;
    encoder.finish()
}

/// Checks `body` and writes it to `path` atomically (a crash leaves no half file).
pub fn keep_replay(url: &str, body: &[u8], path: &Path) -> Result<PathBuf, SyncError> {
    check_replay(url, body)?;
    let write_error = |source| SyncError::Write { path: path.to_path_buf(), source };
    let bytes = gzipped(body).map_err(write_error)?;
    crate::files::write_atomic(path, &bytes).map_err(write_error)?;
    Ok(path.to_path_buf())
}

/// The match id of a `view` argument: a number, or a watch link whose last path part is
/// one (`https://terminal.c1games.com/watch/12345678`).
pub fn match_id_of(arg: &str) -> Result<u64, SyncError> {
    let trimmed = arg.trim();
    let path = trimmed.split(['?', '#']).next().unwrap_or(trimmed);
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or(path);
    last.parse().map_err(|_| SyncError::NotAMatch(arg.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watch_links_and_ids() {
        assert_eq!(match_id_of("12345").ok(), Some(12345));
        assert_eq!(match_id_of("https://terminal.c1games.com/watch/987/").ok(), Some(987));
        assert_eq!(match_id_of("https://terminal.c1games.com/watch/987?x=1#t").ok(), Some(987));
        assert!(match_id_of("https://terminal.c1games.com/watch/").is_err());
        assert!(match_id_of("abc").is_err());
    }

    #[test]
    fn html_and_junk_are_refused() {
        let html = check_replay("u", b"  <!DOCTYPE html><html><body>Cloudflare</body></html>");
        assert_eq!(html.expect_err("html").to_string(), "u: not a replay (an HTML page); not kept");
        assert!(check_replay("u", b"").is_err());
        assert!(check_replay("u", b"{\"not\": \"a replay\"}\n").is_err());
    }
}
