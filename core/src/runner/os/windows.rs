//! Windows: pipes are handles (`PeekNamedPipe` sees what waits on the read end; the write
//! end of an algo's stdin cannot be looked into, so turn frames are delivered at once), an
//! algo runs in a Job Object, killed with everything it started by `TerminateJobObject`
//! (and by the system if the runner itself dies: the job kills on close).

use super::StartCommand;
pub use super::windows_job_events::{JobEvents, JobLimitHits};
use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle};
use std::os::windows::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};
use windows_sys::Win32::Foundation::{FILETIME, HANDLE, WAIT_OBJECT_0};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_ACTIVE_PROCESS, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
    JOB_OBJECT_LIMIT_PROCESS_MEMORY, JOB_OBJECT_UILIMIT_DESKTOP, JOB_OBJECT_UILIMIT_DISPLAYSETTINGS,
    JOB_OBJECT_UILIMIT_EXITWINDOWS, JOB_OBJECT_UILIMIT_GLOBALATOMS, JOB_OBJECT_UILIMIT_HANDLES,
    JOB_OBJECT_UILIMIT_READCLIPBOARD, JOB_OBJECT_UILIMIT_SYSTEMPARAMETERS, JOB_OBJECT_UILIMIT_WRITECLIPBOARD,
    JOBOBJECT_BASIC_UI_RESTRICTIONS, JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectBasicUIRestrictions,
    JobObjectExtendedLimitInformation, QueryInformationJobObject, SetInformationJobObject, TerminateJobObject,
};
use windows_sys::Win32::System::Pipes::PeekNamedPipe;
use windows_sys::Win32::System::Threading::{
    CREATE_NEW_PROCESS_GROUP, CREATE_NO_WINDOW, GetCurrentThread, GetThreadTimes, WaitForSingleObject,
};

pub use std::os::windows::io::AsHandle as AsPipe;
/// An owned pipe end.
pub type Pipe = OwnedHandle;
pub type PipeRef<'a> = std::os::windows::io::BorrowedHandle<'a>;

/// How often a wait looks at the pipes again: Windows cannot wait on an anonymous pipe.
const POLL_STEP: Duration = Duration::from_millis(2);

pub(crate) fn as_pipe<P: AsPipe + ?Sized>(p: &P) -> PipeRef<'_> {
    p.as_handle()
}

/// Bytes waiting on the read end of a pipe; an error on a write end, or once the other
/// end is closed.
pub(crate) fn unread(p: PipeRef<'_>) -> io::Result<u64> {
    let mut avail = 0u32;
    let handle = p.as_raw_handle() as HANDLE;
    // SAFETY: a valid pipe handle borrowed for the call; no buffer is read into.
    let ok = unsafe {
        PeekNamedPipe(handle, std::ptr::null_mut(), 0, std::ptr::null_mut(), &mut avail, std::ptr::null_mut())
    };
    if ok == 0 { Err(io::Error::last_os_error()) } else { Ok(u64::from(avail)) }
}

/// Waits until one of `pipes` has bytes waiting (or is at its end) or `timeout` passes;
/// returns which are.
pub(crate) fn wait_readable<const N: usize>(pipes: [PipeRef<'_>; N], timeout: Duration) -> [bool; N] {
    let deadline = Instant::now() + timeout;
    loop {
        let ready = pipes.map(|p| !matches!(unread(p), Ok(0)));
        if ready.iter().any(|r| *r) || Instant::now() >= deadline {
            return ready;
        }
        std::thread::sleep(POLL_STEP.min(deadline.saturating_duration_since(Instant::now())));
    }
}

/// The write end of a pipe cannot be looked into here (`unread` fails on it first).
pub(crate) fn reader_gone(_stdin: PipeRef<'_>) -> bool {
    false
}

/// Windows has no way to be woken by a read of an anonymous pipe.
pub(crate) fn read_watch(_stdin: PipeRef<'_>) -> Option<Pipe> {
    None
}

pub(crate) fn drain_watch(_watch: &Pipe) {}

/// What `ProcessTree::prepare` gave the command: nothing, the Job Object holds the tree.
pub struct TreeMark;

/// The algo's whole process tree: a Job Object holding its process and every process it
/// starts.
#[derive(Debug)]
pub struct ProcessTree {
    job: OwnedHandle,
}

impl ProcessTree {
    /// No console window per algo, and Ctrl+C in the runner's console does not reach it
    /// (the runner stops its matches itself).
    pub fn prepare(cmd: &mut Command) -> TreeMark {
        cmd.creation_flags(CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW);
        TreeMark
    }

    /// Puts a just-started child in a new job that kills its processes when closed. A
    /// process the child starts before this call is not in the job: the window is the few
    /// instructions between the spawn and here, before any interpreter has started.
    ///
    /// Assigning fails (access denied) for a child that has already exited, which a start
    /// script that fails at once does: then the job stays empty, there is nothing left to
    /// kill, and the match sees the script's exit as it is. A failure while the child runs
    /// is tried again a few times before it counts.
    pub fn of(child: &Child, _mark: TreeMark) -> io::Result<ProcessTree> {
        let job = new_kill_on_close_job()?;
        let process = child.as_raw_handle() as HANDLE;
        let mut tries = 0;
        loop {
            // SAFETY: both handles are valid for the call (the job is ours, the process
            // handle is the child's, borrowed).
            if unsafe { AssignProcessToJobObject(job.as_raw_handle() as HANDLE, process) } != 0 {
                return Ok(ProcessTree { job });
            }
            let error = io::Error::last_os_error();
            if has_exited(process) {
                return Ok(ProcessTree { job });
            }
            tries += 1;
            if tries == ASSIGN_TRIES {
                return Err(io::Error::new(
                    error.kind(),
                    format!("cannot put the algo's process in a Job Object ({tries} tries): {error}"),
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Confines the job (docs/runner.md, Confinement): memory per process, processes at a
    /// time, and the UI restrictions (no clipboard, no other desktop, no handles of windows
    /// outside the job, no system settings, no logging off). Files and network are not
    /// confined on Windows. Set right after the job is made: the few instructions the child
    /// runs before are the start of its interpreter, before any algo code. `memory` is in
    /// bytes per process, `max_processes` the processes at a time. Returns the job's
    /// messages (which limit it enforced) and whether the limits read back as set.
    pub fn confine(&self, memory: u64, max_processes: u32) -> io::Result<ConfinedJob> {
        let job = self.job.as_raw_handle() as HANDLE;
        let memory = usize::try_from(memory).unwrap_or(usize::MAX);
        // Before the limits: no refusal goes unreported.
        let events = JobEvents::attach(job)?;
        // SAFETY: plain Win32 calls on the job we own; the structures are ours, sized as passed.
        unsafe {
            let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
            limits.BasicLimitInformation.LimitFlags = CONFINED_LIMITS;
            limits.BasicLimitInformation.ActiveProcessLimit = max_processes;
            limits.ProcessMemoryLimit = memory;
            let size = std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32;
            let info = (&limits as *const JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast();
            if SetInformationJobObject(job, JobObjectExtendedLimitInformation, info, size) == 0 {
                return Err(io::Error::last_os_error());
            }
            let ui = JOBOBJECT_BASIC_UI_RESTRICTIONS {
                UIRestrictionsClass: JOB_OBJECT_UILIMIT_DESKTOP
                    | JOB_OBJECT_UILIMIT_DISPLAYSETTINGS
                    | JOB_OBJECT_UILIMIT_EXITWINDOWS
                    | JOB_OBJECT_UILIMIT_GLOBALATOMS
                    | JOB_OBJECT_UILIMIT_HANDLES
                    | JOB_OBJECT_UILIMIT_READCLIPBOARD
                    | JOB_OBJECT_UILIMIT_SYSTEMPARAMETERS
                    | JOB_OBJECT_UILIMIT_WRITECLIPBOARD,
            };
            let size = std::mem::size_of::<JOBOBJECT_BASIC_UI_RESTRICTIONS>() as u32;
            let info = (&ui as *const JOBOBJECT_BASIC_UI_RESTRICTIONS).cast();
            if SetInformationJobObject(job, JobObjectBasicUIRestrictions, info, size) == 0 {
                return Err(io::Error::last_os_error());
            }
        }
        let limits_not_in_force = limits_read_back(job, memory, max_processes).err();
        Ok(ConfinedJob { events, limits_not_in_force })
    }

    /// Ends every process of the job (errors, e.g. all already gone, are ignored).
    pub fn kill(&self) {
        // SAFETY: the job handle is valid for as long as `self`.
        unsafe {
            TerminateJobObject(self.job.as_raw_handle() as HANDLE, 1);
        }
    }
}

/// The limits of a confined job.
const CONFINED_LIMITS: u32 =
    JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_ACTIVE_PROCESS | JOB_OBJECT_LIMIT_PROCESS_MEMORY;

/// A confined job as the system reports it.
#[derive(Debug)]
pub struct ConfinedJob {
    /// Its messages: which limit it enforced.
    pub events: JobEvents,
    /// Why its memory and process limits are not known to be in force, in words: the
    /// system reported other limits than were set, or could not report them. Wine's jobs
    /// accept the limits, report none back and enforce none (docs/windows.md).
    pub limits_not_in_force: Option<String>,
}

/// Whether the job reports the limits just set; if not, what it reported, in words.
fn limits_read_back(job: HANDLE, memory: usize, max_processes: u32) -> Result<(), String> {
    // SAFETY: a plain query on the job we own, into a structure of ours sized as passed.
    let read = unsafe {
        let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
        let size = std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32;
        let info = (&mut limits as *mut JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast();
        if QueryInformationJobObject(job, JobObjectExtendedLimitInformation, info, size, std::ptr::null_mut()) == 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(limits)
        }
    };
    let limits = read.map_err(|e| format!("the system cannot report them back ({e})"))?;
    let basic = &limits.BasicLimitInformation;
    let as_set = basic.LimitFlags & CONFINED_LIMITS == CONFINED_LIMITS
        && basic.ActiveProcessLimit == max_processes
        && limits.ProcessMemoryLimit == memory;
    if as_set {
        return Ok(());
    }
    Err(format!(
        "the system reports back flags {:#x}, {} processes, {} bytes per process",
        basic.LimitFlags, basic.ActiveProcessLimit, limits.ProcessMemoryLimit
    ))
}

/// How many times a running child's assignment to its job is tried.
const ASSIGN_TRIES: u32 = 5;

/// A new job whose processes are all killed when its last handle closes.
fn new_kill_on_close_job() -> io::Result<OwnedHandle> {
    // SAFETY: plain Win32 calls; the job handle is owned from its creation on.
    unsafe {
        let raw = CreateJobObjectW(std::ptr::null(), std::ptr::null());
        if raw.is_null() {
            return Err(io::Error::last_os_error());
        }
        let job = OwnedHandle::from_raw_handle(raw as _);
        let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
        limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        let size = std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32;
        let info = (&limits as *const JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast();
        if SetInformationJobObject(raw, JobObjectExtendedLimitInformation, info, size) == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(job)
    }
}

/// True if the process has ended (its handle is signalled).
fn has_exited(process: HANDLE) -> bool {
    // SAFETY: a valid process handle, borrowed for the call; a zero timeout only polls.
    unsafe { WaitForSingleObject(process, 0) == WAIT_OBJECT_0 }
}

/// A script's full path, without the `\\?\` prefix `canonicalize` gives on Windows:
/// cmd.exe and PowerShell do not take it.
pub(crate) fn full_path(p: &Path) -> io::Result<std::path::PathBuf> {
    let full = p.canonicalize()?;
    let plain = {
        let text = full.to_string_lossy();
        match text.strip_prefix(r"\\?\") {
            Some(rest) if rest.as_bytes().get(1) == Some(&b':') => Some(rest.to_string()),
            Some(rest) => rest.strip_prefix("UNC\\").map(|share| format!(r"\\{share}")),
            None => None,
        }
    };
    Ok(plain.map_or(full, std::path::PathBuf::from))
}

/// The start scripts looked for in an algo folder, in order: the official kit's
/// PowerShell script first, then batch files and programs, and run.sh for a bash on PATH.
pub(crate) const START_SCRIPTS: &[&str] = &["run.ps1", "run.bat", "run.cmd", "run.exe", "run.sh"];

/// The command that runs a start script, chosen by its extension as Windows does.
pub(crate) fn start_command(script: &Path) -> StartCommand {
    let ext = script.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    let mut c;
    let how = match ext.as_str() {
        "ps1" => {
            c = Command::new("powershell");
            c.args(["-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File"]).arg(script);
            "run with PowerShell"
        }
        "bat" | "cmd" => {
            c = Command::new("cmd");
            c.arg("/C").arg(script);
            "run with cmd"
        }
        "sh" => {
            c = Command::new("bash");
            c.arg(script);
            "run with bash"
        }
        _ => {
            c = Command::new(script);
            "run directly"
        }
    };
    StartCommand { command: c, how: how.into() }
}

/// CPU time used so far by the calling thread, kernel and user.
pub(crate) fn thread_cpu_time() -> Option<Duration> {
    let zero = FILETIME { dwLowDateTime: 0, dwHighDateTime: 0 };
    let (mut created, mut exited, mut kernel, mut user) = (zero, zero, zero, zero);
    // SAFETY: GetCurrentThread's pseudo handle needs no closing; the four out-pointers are ours.
    let ok = unsafe { GetThreadTimes(GetCurrentThread(), &mut created, &mut exited, &mut kernel, &mut user) };
    if ok == 0 {
        return None;
    }
    let ticks = |t: FILETIME| (u64::from(t.dwHighDateTime) << 32) | u64::from(t.dwLowDateTime);
    // FILETIME counts 100 ns ticks.
    Some(Duration::from_nanos((ticks(kernel) + ticks(user)).saturating_mul(100)))
}
