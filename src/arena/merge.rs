//! `arena --merge`: results from anywhere (other machines, plan runs) into one set.

use super::files::{ReadRecords, find_result_files, read_records};
use super::record::MatchRecord;
use std::collections::HashSet;
use std::path::PathBuf;

#[derive(Debug, Default)]
pub struct Merged {
    pub files: Vec<PathBuf>,
    pub records: Vec<MatchRecord>,
    /// The same match (job id and replay) found more than once: counted once.
    pub duplicates: usize,
    pub bad_lines: Vec<(PathBuf, usize)>,
}

/// Reads every result file under `paths` (files, or folders searched recursively for
/// `*.jsonl`), dropping exact repeats of a match.
pub fn merge(paths: &[PathBuf]) -> Result<Merged, String> {
    let files = find_result_files(paths)?;
    let mut read = ReadRecords::default();
    for f in &files {
        read_records(f, &mut read)?;
    }
    let mut seen = HashSet::new();
    let mut out = Merged { files, bad_lines: read.bad_lines, ..Merged::default() };
    for r in read.records {
        if seen.insert((r.job_id.clone(), r.replay.clone())) {
            out.records.push(r);
        } else {
            out.duplicates += 1;
        }
    }
    Ok(out)
}
