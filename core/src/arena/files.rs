//! Result files: append one JSON line per match (flushed and fsynced), read them back
//! (tolerating a torn last line), and find them under folders.

use super::error::ArenaError;
use super::record::MatchRecord;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Appends one record as a line and syncs it to disk before returning. The line is
/// written with a single `write_all` on an `O_APPEND` file, so concurrent writers (e.g.
/// GNU parallel jobs on one machine) do not interleave within a line.
pub fn append_record(path: &Path, rec: &MatchRecord) -> Result<(), ArenaError> {
    let mut line = rec.to_line()?;
    line.push('\n');
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(ArenaError::io(dir))?;
    }
    let write = || -> std::io::Result<()> {
        let mut f = OpenOptions::new().create(true).append(true).open(path)?;
        f.write_all(line.as_bytes())?;
        f.flush()?;
        f.sync_data()
    };
    write().map_err(ArenaError::io(path))
}

/// What reading a result file gave.
#[derive(Debug, Default)]
pub struct ReadRecords {
    pub records: Vec<MatchRecord>,
    /// Lines that were not a record (e.g. a line torn by a kill mid-write), with their
    /// 1-based numbers.
    pub bad_lines: Vec<(PathBuf, usize)>,
}

/// Reads a JSON-lines result file; a missing file is empty.
pub fn read_records(path: &Path, into: &mut ReadRecords) -> Result<(), ArenaError> {
    let text = match std::fs::read(path) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(ArenaError::Io { path: path.to_path_buf(), source: e }),
    };
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<MatchRecord>(line) {
            Ok(r) => into.records.push(r),
            Err(_) => into.bad_lines.push((path.to_path_buf(), i + 1)),
        }
    }
    Ok(())
}

/// `*.jsonl` files under the given files or folders (recursively, sorted), skipping the
/// per-match `*.annotations.jsonl`.
pub(crate) fn find_result_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, ArenaError> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), ArenaError> {
        let rd = std::fs::read_dir(dir).map_err(ArenaError::io(dir))?;
        for entry in rd {
            let entry = entry.map_err(ArenaError::io(dir))?;
            let p = entry.path();
            if p.is_dir() {
                walk(&p, out)?;
            } else if is_result_file(&p) {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(ArenaError::NotFound(p.clone()));
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn is_result_file(p: &Path) -> bool {
    let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    name.ends_with(".jsonl") && !name.ends_with(".annotations.jsonl")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_torn_last_line_is_skipped_not_fatal() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("results.jsonl");
        let rec = MatchRecord { job_id: "a__b__g0".into(), winner: 1, ..MatchRecord::default() };
        append_record(&path, &rec).expect("append");
        let mut f = OpenOptions::new().append(true).open(&path).expect("open");
        f.write_all(b"{\"job_id\":\"a__b__g1\",\"ga").expect("write");
        drop(f);
        let mut got = ReadRecords::default();
        read_records(&path, &mut got).expect("read");
        assert_eq!(got.records, vec![rec]);
        assert_eq!(got.bad_lines, vec![(path.clone(), 2)]);
        let files = find_result_files(&[dir.path().to_path_buf()]).expect("find");
        assert_eq!(files, vec![path]);
    }
}
