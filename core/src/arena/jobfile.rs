//! `arena --plan`: the arena as a plain job list for GNU parallel, Slurm, or any engine
//! that runs shell lines: one `terminal-studio match ...` command per game.

use super::plan::Plan;
use std::path::Path;

/// Options passed through to every `match` line.
#[derive(Debug, Clone, Default)]
pub struct PlanOptions {
    pub config: Option<String>,
    pub soft_ms: Option<u64>,
    pub max_ms: Option<u64>,
    pub startup_ms: Option<u64>,
    /// Every match runs its algos unconfined (`--no-confine`).
    pub no_confine: bool,
    /// Confined algos may write their own folders (`--algo-writes`).
    pub algo_writes: bool,
}

/// Quotes a word for a POSIX shell.
pub(crate) fn shell_quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// One command line per game. Each writes its replay and logs to
/// `OUT/matches/<job>.replay*` and its result line to `OUT/results/<job>.jsonl` (one file
/// per game, so hosts sharing nothing but the final copy never contend), ready for
/// `arena --merge OUT`.
pub fn plan_lines(plan: &Plan, exe: &Path, out: &Path, opts: &PlanOptions) -> Vec<String> {
    let q = |p: &Path| shell_quote(&for_unix_hosts(p));
    let out = for_unix_hosts(out);
    let out = out.trim_end_matches('/');
    let under_out = |folder: &str, file: String| shell_quote(&format!("{out}/{folder}/{file}"));
    plan.jobs
        .iter()
        .map(|j| {
            let mut line = format!(
                "{} match {} {} --replay {} --seed {} --job-id {} --result-json {}",
                q(exe),
                q(&plan.entrants[j.seat1].path),
                q(&plan.entrants[j.seat2].path),
                under_out("matches", format!("{}.replay", j.id)),
                j.seed,
                shell_quote(&j.id),
                under_out("results", format!("{}.jsonl", j.id)),
            );
            if let Some(c) = &opts.config {
                line.push_str(&format!(" --config {}", shell_quote(c)));
            }
            for (flag, v) in [("--soft-ms", opts.soft_ms), ("--max-ms", opts.max_ms), ("--startup-ms", opts.startup_ms)]
            {
                if let Some(v) = v {
                    line.push_str(&format!(" {flag} {v}"));
                }
            }
            if opts.no_confine {
                line.push_str(" --no-confine");
            } else if opts.algo_writes {
                line.push_str(" --algo-writes");
            }
            line
        })
        .collect()
}

/// A path as the Unix hosts that run the lines read it, whatever machine wrote them: with
/// '/' between its parts (a plan written on Windows is still run by a POSIX shell).
fn for_unix_hosts(p: &Path) -> String {
    let s = p.to_string_lossy();
    if cfg!(windows) { s.replace('\\', "/") } else { s.into_owned() }
}

/// The job id of a plan line (the word after `--job-id`), undoing [`shell_quote`].
pub(crate) fn job_id_of_line(line: &str) -> Option<String> {
    let words = shell_words(line);
    let at = words.iter().position(|w| w == "--job-id")?;
    words.get(at + 1).cloned()
}

/// Splits a line into words as a POSIX shell does for the quoting [`shell_quote`] writes
/// (single quotes and `\'`); enough to read our own plan files back.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    w.push(q);
                }
            }
            '\\' => {
                if let Some(n) = chars.next() {
                    word.get_or_insert_with(String::new).push(n);
                }
            }
            c if c.is_whitespace() => words.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::plan::{Entrant, Format};
    use std::path::PathBuf;

    #[test]
    fn lines_are_quoted_and_complete() {
        assert_eq!(shell_quote("a b'c"), "'a b'\\''c'");
        assert_eq!(shell_quote("/x/y-z"), "/x/y-z");
        let e = |n: &str| Entrant { path: PathBuf::from(format!("/algos/{n}")), label: n.into() };
        let plan = Plan::new(vec![e("a"), e("b")], Format::RoundRobin, 2, 1).expect("plan");
        let opts = PlanOptions { config: Some("base-s6".into()), max_ms: Some(500), ..PlanOptions::default() };
        let lines = plan_lines(&plan, Path::new("/bin/ts"), Path::new("/out dir/"), &opts);
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[1],
            "/bin/ts match /algos/b /algos/a --replay '/out dir/matches/b__a__g1.replay' --seed 1 \
             --job-id b__a__g1 --result-json '/out dir/results/b__a__g1.jsonl' --config base-s6 --max-ms 500"
        );
        assert_eq!(job_id_of_line(&lines[1]).as_deref(), Some("b__a__g1"));
    }

    #[test]
    fn loosened_confinement_goes_into_every_line() {
        let e = |n: &str| Entrant { path: PathBuf::from(format!("/algos/{n}")), label: n.into() };
        let plan = Plan::new(vec![e("a"), e("b")], Format::RoundRobin, 2, 1).expect("plan");
        let line = |opts: &PlanOptions| plan_lines(&plan, Path::new("/bin/ts"), Path::new("/o"), opts)[0].clone();
        assert!(!line(&PlanOptions::default()).contains("confine"), "confined by default: nothing to say");
        let off = PlanOptions { no_confine: true, algo_writes: true, ..PlanOptions::default() };
        assert!(line(&off).ends_with(" --no-confine"), "{}", line(&off));
        let writes = PlanOptions { algo_writes: true, ..PlanOptions::default() };
        assert!(line(&writes).ends_with(" --algo-writes"), "{}", line(&writes));
    }

    #[test]
    fn a_quoted_job_id_reads_back() {
        for id in ["plain__x__g0", "it's a b__c__g3", "tab\there"] {
            let line = format!("/bin/ts match a b --job-id {} --result-json x", shell_quote(id));
            assert_eq!(job_id_of_line(&line).as_deref(), Some(id), "{line}");
        }
        assert_eq!(job_id_of_line("/bin/ts match a b"), None);
    }
}
