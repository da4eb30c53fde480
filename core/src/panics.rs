//! Panics in worker threads, turned into reports: a thread that stops on a bug must say what
//! it was doing and why, never leave its window waiting.

/// A panic payload as text (panics carry a `&str` or a `String`).
pub fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
}

/// Runs `f`, catching a panic as its message. The caller's state may be half-updated after
/// a panic: callers reset what `f` was building.
pub fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|payload| panic_text(payload.as_ref()))
}
