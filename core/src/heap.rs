//! Handing freed heap back to the system after a large read: glibc keeps what its per-thread
//! arenas freed (a folder of replays parsed on several threads), so a long-lived studio would
//! hold a read's peak for the rest of its life.

/// Returns the heap's free pages to the system where the allocator does not do it by itself
/// (glibc); elsewhere nothing to do.
pub fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: malloc_trim only releases free pages of glibc's own arenas; it takes no
        // pointer and leaves every live allocation in place.
        unsafe {
            malloc_trim(0);
        }
    }
}
