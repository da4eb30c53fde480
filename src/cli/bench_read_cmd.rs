//! `terminal-studio bench-read`: how fast replays are read, on one thread, beside Python's
//! `gzip` + `json.loads` of every line of the same files in the same run, and beside
//! inflating alone (the floor no JSON reader goes under): the full read and the summary read
//! (no unit lists of action frames), in MB of JSON per second; with `--threads N`, the full
//! read of the folder on N threads too.

use super::error::{CliError, Outcome};
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;
use terminal_core::replay::{Detail, ReplayError, maybe_gunzip, read_replay_bytes_with};
use terminal_core::verify::collect_replays;

#[derive(clap::Args, Debug)]
pub struct BenchReadArgs {
    /// Replay files or folders (searched recursively).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Read at most this many files (in name order).
    #[arg(long)]
    pub files: Option<usize>,
    /// Rounds of each measurement; the median is reported.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
    /// The Python to compare with (`none` to skip the comparison).
    #[arg(long, default_value = "python3")]
    pub python: String,
    /// Also time the full read of all the files on this many threads (rayon), each file on one.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Python's side: the same files, read into memory first, then decompressed and every
/// non-empty line parsed; prints the seconds of the best of the rounds' medians.
const PYTHON_READER: &str = r#"
import gzip, json, statistics, sys, time
paths = sys.stdin.read().splitlines()
blobs = [open(p, "rb").read() for p in paths]
rounds = int(sys.argv[1])
times = []
for _ in range(rounds):
    t = time.perf_counter()
    for b in blobs:
        data = gzip.decompress(b) if b[:2] == b"\x1f\x8b" else b
        for line in data.splitlines():
            if line.strip():
                json.loads(line)
    times.append(time.perf_counter() - t)
print(statistics.median(times))
"#;

pub fn run(args: &BenchReadArgs) -> Result<Outcome, CliError> {
    let mut files = collect_replays(&args.paths);
    if files.is_empty() {
        return Err(CliError::NoReplays { paths: args.paths.clone() });
    }
    files.truncate(args.files.unwrap_or(usize::MAX));
    let blobs = files.iter().map(|f| read_file(f)).collect::<Result<Vec<_>, _>>()?;
    let gzip_bytes: usize = blobs.iter().map(Vec::len).sum();
    let rounds = args.rounds.max(1);
    let mut json_bytes = 0;
    let inflate = median_seconds(rounds, || {
        json_bytes = 0;
        for (file, blob) in files.iter().zip(&blobs) {
            json_bytes += maybe_gunzip(blob).map_err(|e| gzip_error(file, &e))?.len();
        }
        Ok(())
    })?;
    let read_all = |detail| {
        median_seconds(rounds, || {
            for (file, blob) in files.iter().zip(&blobs) {
                std::hint::black_box(read_replay_bytes_with(file, blob, detail)?);
            }
            Ok(())
        })
    };
    let (full, summary) = (read_all(Detail::Full)?, read_all(Detail::Summary)?);
    let parallel = args.threads.map(|n| parallel_seconds(n.max(1), rounds, &files, &blobs)).transpose()?;
    let python = python_seconds(&args.python, &files, rounds);
    let mb_s = |seconds: f64| json_bytes as f64 / 1e6 / seconds;
    out!(
        "{} replays: {:.1} MB gzip, {:.1} MB of JSON; one thread, median of {rounds} rounds",
        files.len(),
        gzip_bytes as f64 / 1e6,
        json_bytes as f64 / 1e6
    );
    out!("inflate alone         {inflate:>7.3} s  {:>6.0} MB/s of JSON", mb_s(inflate));
    let vs_python = |seconds: f64| match &python {
        Ok(Some(python)) => format!(", {:.1}x Python", python / seconds),
        _ => String::new(),
    };
    for (what, seconds) in [("full read", full), ("summary read", summary)] {
        out!(
            "studio: {what:<13} {seconds:>7.3} s  {:>6.0} MB/s of JSON ({:.0}% of inflate's speed{})",
            mb_s(seconds),
            100.0 * inflate / seconds,
            vs_python(seconds)
        );
    }
    if let (Some(threads), Some(seconds)) = (args.threads, parallel) {
        out!(
            "studio: full read on {threads} threads {seconds:>7.3} s  {:>6.0} MB/s of JSON ({:.1}x one thread)",
            mb_s(seconds),
            full / seconds
        );
    }
    match python {
        Ok(Some(python)) => {
            out!("python: gzip + json   {python:>7.3} s  {:>6.0} MB/s of JSON", mb_s(python));
            out!("the studio reads {:.1}x as fast as Python (a summary {:.1}x)", python / full, python / summary);
        }
        Ok(None) => out!("python: not run (--python none)"),
        Err(why) => out!("python: not run: {why}"),
    }
    Ok(Outcome::Done)
}

/// The median wall time of a full read of every file on `threads` threads, one file per task.
fn parallel_seconds(threads: usize, rounds: usize, files: &[PathBuf], blobs: &[Vec<u8>]) -> Result<f64, ReplayError> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| ReplayError {
        file: String::new(),
        line: None,
        field: String::new(),
        message: format!("cannot start {threads} threads: {e}"),
    })?;
    median_seconds(rounds, || {
        pool.install(|| {
            files.par_iter().zip(blobs).try_for_each(|(file, blob)| {
                std::hint::black_box(read_replay_bytes_with(file, blob, Detail::Full)?);
                Ok(())
            })
        })
    })
}

fn read_file(path: &Path) -> Result<Vec<u8>, ReplayError> {
    std::fs::read(path).map_err(|e| ReplayError {
        file: path.display().to_string(),
        line: None,
        field: String::new(),
        message: e.to_string(),
    })
}

fn gzip_error(path: &Path, e: &std::io::Error) -> ReplayError {
    ReplayError {
        file: path.display().to_string(),
        line: None,
        field: String::new(),
        message: format!("not valid gzip: {e}"),
    }
}

/// The median wall time of `rounds` runs of `work`.
fn median_seconds(rounds: usize, mut work: impl FnMut() -> Result<(), ReplayError>) -> Result<f64, ReplayError> {
    let mut times = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let started = Instant::now();
        work()?;
        times.push(started.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// Python's median seconds over the same files; `Ok(None)` when asked not to run it, `Err`
/// with the reason when it could not be run.
fn python_seconds(python: &str, files: &[PathBuf], rounds: usize) -> Result<Option<f64>, String> {
    if python == "none" {
        return Ok(None);
    }
    let mut child = Command::new(python)
        .args(["-c", PYTHON_READER, &rounds.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start `{python}`: {e}"))?;
    let list: String = files.iter().map(|f| format!("{}\n", f.display())).collect();
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(list.as_bytes()).map_err(|e| format!("cannot send the file list to `{python}`: {e}"))?;
    }
    let output = child.wait_with_output().map_err(|e| format!("`{python}` did not finish: {e}"))?;
    if !output.status.success() {
        return Err(format!("`{python}` failed: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    text.trim().parse().map(Some).map_err(|_| format!("`{python}` printed `{}`, not seconds", text.trim()))
}
