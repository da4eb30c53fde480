//! Panics in worker threads, turned into reports: a thread that stops on a bug must say what
//! it was doing and why, never leave its window waiting.

/// A panic payload as text (panics carry a `&str` or a `String`).
pub(crate) fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
}

/// A panic caught in a worker thread, with its message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Panicked {
    pub message: String,
}

/// Runs `f`, catching a panic. The caller's state may be half-updated after a panic:
/// callers reset what `f` was building.
pub fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, Panicked> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .map_err(|payload| Panicked { message: panic_text(payload.as_ref()) })
}
