//! Ctrl-C, SIGTERM and SIGHUP for the commands that run algos: each algo runs in its own
//! process group, so the terminal's Ctrl-C does not reach it and it would be left running
//! if we just died. The commands cancel their matches instead.

use crossbeam_channel::Receiver;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Handle;

/// Signals (1-based numbers as bits) the process was started with ignored, from
/// `/proc/self/status` (0 if unknown).
fn ignored_signals() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| l.strip_prefix("SigIgn:")).and_then(|h| u64::from_str_radix(h.trim(), 16).ok())
        })
        .unwrap_or(0)
}

/// Stop signals as they arrive, until the guard is dropped.
pub struct StopSignals {
    pub received: Receiver<i32>,
    handle: Handle,
}

impl Drop for StopSignals {
    fn drop(&mut self) {
        self.handle.close();
    }
}

/// Catches SIGINT, SIGTERM and SIGHUP (those not ignored by whoever started us, e.g.
/// `nohup`); `None` if they cannot be caught (the command then runs without).
pub fn catch_stop_signals() -> Option<StopSignals> {
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
