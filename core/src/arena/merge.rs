//! `arena --merge`: results from anywhere (other machines, plan runs) into one set.

use super::error::ArenaError;
use super::files::{ReadRecords, find_result_files, read_records};
use super::jobfile::job_id_of_line;
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
    /// Every `plan.txt` found in a folder given to the merge, with the planned games that
    /// have no result: a plan run whose jobs silently did nothing shows here.
    pub plans: Vec<PlanProgress>,
}

/// How much of one `arena --plan` job list has results.
#[derive(Debug, Default, PartialEq)]
pub struct PlanProgress {
    pub plan: PathBuf,
    pub planned: usize,
    /// Job ids of the plan without a result record, in plan order.
    pub missing: Vec<String>,
}

/// Reads every result file under `paths` (files, or folders searched recursively for
/// `*.jsonl`), dropping exact repeats of a match.
pub fn merge(paths: &[PathBuf]) -> Result<Merged, ArenaError> {
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
    let done: HashSet<&str> = out.records.iter().map(|r| r.job_id.as_str()).collect();
    for dir in paths.iter().filter(|p| p.is_dir()) {
        let plan = dir.join("plan.txt");
        let Ok(text) = std::fs::read_to_string(&plan) else { continue };
        let ids: Vec<String> = text.lines().filter_map(job_id_of_line).collect();
        let missing = ids.iter().filter(|id| !done.contains(id.as_str())).cloned().collect();
        out.plans.push(PlanProgress { plan, planned: ids.len(), missing });
    }
    Ok(out)
}
