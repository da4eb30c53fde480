//! Systems with no processes or pipes (the browser, `wasm32-unknown-unknown`): the runner's
//! logic compiles, and starting an algo fails with `Unsupported` before any pipe exists,
//! so nothing below is ever reached with a real pipe. Ghosts and people at the studio need
//! none of it.

use super::StartCommand;
use std::io;
use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;

/// Where no process can start.
fn unsupported() -> io::Error {
    io::Error::new(io::ErrorKind::Unsupported, "algos cannot run here: this build has no processes")
}

/// A pipe end: none exists here.
#[derive(Debug)]
pub struct Pipe(());
/// A borrowed pipe end: none exists here.
#[derive(Debug, Clone, Copy)]
pub struct PipeRef<'a>(std::marker::PhantomData<&'a ()>);

impl PipeRef<'_> {
    pub(crate) fn try_clone_to_owned(&self) -> io::Result<Pipe> {
        Err(unsupported())
    }
}

/// What can be seen as a pipe.
pub trait AsPipe {
    fn as_pipe_ref(&self) -> PipeRef<'_> {
        PipeRef(std::marker::PhantomData)
    }
}
impl AsPipe for Pipe {}
impl AsPipe for std::process::ChildStdin {}
impl AsPipe for std::process::ChildStdout {}
impl AsPipe for std::process::ChildStderr {}

pub(crate) fn as_pipe<P: AsPipe + ?Sized>(p: &P) -> PipeRef<'_> {
    p.as_pipe_ref()
}

pub(crate) fn unread(_p: PipeRef<'_>) -> io::Result<u64> {
    Err(unsupported())
}

pub(crate) fn wait_readable<const N: usize>(_pipes: [PipeRef<'_>; N], _timeout: Duration) -> [bool; N] {
    [true; N]
}

pub(crate) fn reader_gone(_stdin: PipeRef<'_>) -> bool {
    true
}

pub(crate) fn read_watch(_stdin: PipeRef<'_>) -> Option<Pipe> {
    None
}

pub(crate) fn drain_watch(_watch: &Pipe) {}

/// No process tree can exist.
#[derive(Debug)]
pub struct ProcessTree(());

pub struct TreeMark(());

impl ProcessTree {
    pub fn prepare(_cmd: &mut Command) -> TreeMark {
        TreeMark(())
    }

    pub fn of(_child: &Child, _mark: TreeMark) -> io::Result<ProcessTree> {
        Err(unsupported())
    }

    pub fn kill(&self) {}
}

pub(crate) fn full_path(p: &Path) -> io::Result<std::path::PathBuf> {
    Ok(p.to_path_buf())
}

pub(crate) const START_SCRIPTS: &[&str] = &["run.sh"];

pub(crate) fn start_command(script: &Path) -> StartCommand {
    StartCommand { command: Command::new(script), how: "not run: this build has no processes".into() }
}

pub(crate) fn thread_cpu_time() -> Option<Duration> {
    None
}
