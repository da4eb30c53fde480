//! Stop requests for the commands that run algos: Ctrl+C, and on Unix SIGTERM and SIGHUP,
//! on Windows the console being closed. Each algo runs as a process tree of its own, so the
//! terminal's Ctrl+C does not reach it and it would be left running if we just died. The
//! commands cancel their matches instead.

use crossbeam_channel::Receiver;

/// Stop requests as they arrive (the signal's number; on Windows the console event's, plus
/// 100), until the guard is dropped.
pub struct StopSignals {
    pub received: Receiver<i32>,
    #[cfg(unix)]
    handle: signal_hook::iterator::Handle,
}

#[cfg(unix)]
impl Drop for StopSignals {
    fn drop(&mut self) {
        self.handle.close();
    }
}

/// Signals (1-based numbers as bits) the process was started with ignored, from
/// `/proc/self/status`; 0 where there is no such file (other Unix systems: all are caught).
#[cfg(unix)]
fn ignored_signals() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| l.strip_prefix("SigIgn:")).and_then(|h| u64::from_str_radix(h.trim(), 16).ok())
        })
        .unwrap_or(0)
}

/// Catches SIGINT, SIGTERM and SIGHUP (those not ignored by whoever started us, e.g.
/// `nohup`); `None` if they cannot be caught (the command then runs without).
#[cfg(unix)]
pub fn catch_stop_signals() -> Option<StopSignals> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let ignored = ignored_signals();
    let wanted: Vec<i32> =
        [SIGINT, SIGTERM, SIGHUP].into_iter().filter(|&s| ignored & (1u64 << (s - 1)) == 0).collect();
    let mut signals = signal_hook::iterator::Signals::new(&wanted).ok()?;
    let handle = signals.handle();
    let (tx, rx) = crossbeam_channel::bounded(1);
    let waiter = std::thread::Builder::new().name("signals".into()).spawn(move || {
        for sig in signals.forever() {
            let _ = tx.try_send(sig);
        }
    });
    if waiter.is_err() {
        handle.close();
        return None;
    }
    Some(StopSignals { received: rx, handle })
}

/// Where the console handler sends: set once per process (a handler cannot carry state).
#[cfg(windows)]
static CONSOLE_EVENTS: std::sync::OnceLock<crossbeam_channel::Sender<i32>> = std::sync::OnceLock::new();

#[cfg(windows)]
unsafe extern "system" fn on_console_event(event: u32) -> windows_sys::core::BOOL {
    match CONSOLE_EVENTS.get() {
        Some(tx) => {
            let _ = tx.try_send(100 + event as i32);
            // Handled: Ctrl+C does not end us; the command stops its matches and exits. For
            // a closed console Windows still ends the process once handlers return, after
            // the matches had this moment to be cancelled.
            1
        }
        None => 0,
    }
}

/// Catches Ctrl+C, Ctrl+Break and the console being closed; `None` if the handler cannot be
/// installed (the command then runs without).
#[cfg(windows)]
pub fn catch_stop_signals() -> Option<StopSignals> {
    let (tx, rx) = crossbeam_channel::bounded(1);
    let received = match CONSOLE_EVENTS.set(tx) {
        Ok(()) => rx,
        // A second command in one process shares the first one's channel.
        Err(_) => return None,
    };
    // SAFETY: the handler is a plain function that only sends on a channel.
    let ok = unsafe { windows_sys::Win32::System::Console::SetConsoleCtrlHandler(Some(on_console_event), 1) };
    (ok != 0).then_some(StopSignals { received })
}
