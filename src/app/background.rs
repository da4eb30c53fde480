//! Where the views' long work runs: a named thread on the desktop; in the browser, which has
//! no threads, on the caller's, at once (the page waits for it; its answer is waiting in its
//! channel when the view next looks).

/// Runs `work` on a thread named `name` (in the browser: now, on this thread).
pub fn spawn(name: &str, work: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    if cfg!(target_arch = "wasm32") {
        work();
        return Ok(());
    }
    std::thread::Builder::new().name(name.into()).spawn(work).map(drop)
}

/// Threads the views' searches may use: one in the browser.
pub fn jobs() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}
