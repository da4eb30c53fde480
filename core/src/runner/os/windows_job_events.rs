//! What a confined algo's Job Object says happened: the system posts a message to an I/O
//! completion port for every limit the job enforces (a process refused by the active
//! process limit, an allocation refused by the memory limit). The runner reads them without
//! waiting when it asks which rule an algo broke, so the rule is named from what the system
//! did, not guessed from the algo's stderr.

use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle};
use std::sync::Mutex;
use windows_sys::Win32::Foundation::{HANDLE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::System::IO::{CreateIoCompletionPort, GetQueuedCompletionStatus, OVERLAPPED};
use windows_sys::Win32::System::JobObjects::{
    JOBOBJECT_ASSOCIATE_COMPLETION_PORT, JobObjectAssociateCompletionPortInformation, SetInformationJobObject,
};
use windows_sys::Win32::System::SystemServices::{
    JOB_OBJECT_MSG_ACTIVE_PROCESS_LIMIT, JOB_OBJECT_MSG_PROCESS_MEMORY_LIMIT,
};

/// More messages than this in one reading are left for the next: a reading never runs on
/// without end, even against a job that refuses processes as fast as they are asked for.
const MOST_MESSAGES_PER_READING: usize = 100_000;

/// The limits a job's messages said it enforced, counted since the job was made.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct JobLimitHits {
    /// New processes refused by the active process limit.
    pub processes_refused: usize,
    /// Allocations refused by the per-process memory limit.
    pub memory_refused: usize,
}

/// The completion port of one job, and what its messages have said so far.
#[derive(Debug)]
pub struct JobEvents {
    port: OwnedHandle,
    hits: Mutex<JobLimitHits>,
}

impl JobEvents {
    /// A new completion port, associated with `job` (a job gets one port, for its life).
    pub(crate) fn attach(job: HANDLE) -> io::Result<JobEvents> {
        // SAFETY: plain Win32 calls; the port handle is owned from its creation on, and the
        // association's structure is ours, sized as passed.
        unsafe {
            let raw = CreateIoCompletionPort(INVALID_HANDLE_VALUE, std::ptr::null_mut(), 0, 1);
            if raw.is_null() {
                let e = io::Error::last_os_error();
                return Err(io::Error::new(e.kind(), format!("cannot make the Job Object's completion port: {e}")));
            }
            let port = OwnedHandle::from_raw_handle(raw as _);
            let association = JOBOBJECT_ASSOCIATE_COMPLETION_PORT {
                CompletionKey: std::ptr::null_mut(),
                CompletionPort: port.as_raw_handle() as HANDLE,
            };
            let size = std::mem::size_of::<JOBOBJECT_ASSOCIATE_COMPLETION_PORT>() as u32;
            let info = (&association as *const JOBOBJECT_ASSOCIATE_COMPLETION_PORT).cast();
            if SetInformationJobObject(job, JobObjectAssociateCompletionPortInformation, info, size) == 0 {
                let e = io::Error::last_os_error();
                return Err(io::Error::new(
                    e.kind(),
                    format!("cannot associate a completion port with the Job Object: {e}"),
                ));
            }
            Ok(JobEvents { port, hits: Mutex::new(JobLimitHits::default()) })
        }
    }

    /// Reads the messages waiting, without waiting for more, and returns the limit hits
    /// counted so far. The port outlives the job: messages posted before the job was closed
    /// are still read.
    pub fn limit_hits(&self) -> JobLimitHits {
        let Ok(mut hits) = self.hits.lock() else { return JobLimitHits::default() };
        for _ in 0..MOST_MESSAGES_PER_READING {
            let Some(message) = self.next_message() else { break };
            match message {
                JOB_OBJECT_MSG_ACTIVE_PROCESS_LIMIT => hits.processes_refused += 1,
                JOB_OBJECT_MSG_PROCESS_MEMORY_LIMIT => hits.memory_refused += 1,
                // New and exited processes, the last one gone: not a rule.
                _ => {}
            }
        }
        *hits
    }

    /// The next message's kind, if one waits.
    fn next_message(&self) -> Option<u32> {
        let (mut message, mut key) = (0u32, 0usize);
        let mut overlapped: *mut OVERLAPPED = std::ptr::null_mut();
        // SAFETY: the port is ours for the call; the out-pointers are ours. For a job's
        // messages `overlapped` carries a process id, never a pointer to read through.
        let ok = unsafe {
            GetQueuedCompletionStatus(self.port.as_raw_handle() as HANDLE, &mut message, &mut key, &mut overlapped, 0)
        };
        (ok != 0).then_some(message)
    }
}
