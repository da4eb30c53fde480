//! Work spread over threads (`std::thread::scope`): each thread takes the next index, keeps
//! its own scratch state (a reused game) and stops when the cancel flag is set. One job runs
//! on the calling thread: no thread is started (the browser has none).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// `work(k, scratch)` for every `k` in `0..count` on `jobs` threads; `progress(done, count)`
/// after each. Results in index order; `None` where no result came (cancelled, or a worker
/// that panicked).
pub(crate) fn parallel_map<S: Default, T: Send>(
    count: usize,
    jobs: usize,
    cancel: &AtomicBool,
    progress: &(dyn Fn(usize, usize) + Sync),
    work: impl Fn(usize, &mut S) -> T + Sync,
) -> Vec<Option<T>> {
    let mut slots: Vec<Option<T>> = (0..count).map(|_| None).collect();
    if jobs <= 1 || count <= 1 {
        let mut scratch = S::default();
        for (k, slot) in slots.iter_mut().enumerate() {
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            // As a worker thread would: a panic leaves this slot and the rest empty.
            let Ok(t) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(k, &mut scratch))) else {
                break;
            };
            *slot = Some(t);
            progress(k + 1, count);
        }
        return slots;
    }
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs.clamp(1, count.max(1)))
            .map(|_| {
                let (next, done, work) = (&next, &done, &work);
                s.spawn(move || {
                    let mut scratch = S::default();
                    let mut mine = Vec::new();
                    while !cancel.load(Ordering::Relaxed) {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= count {
                            break;
                        }
                        mine.push((k, work(k, &mut scratch)));
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1, count);
                    }
                    mine
                })
            })
            .collect();
        for w in workers {
            // A panicking worker leaves its slots empty; callers report them.
            if let Ok(mine) = w.join() {
                for (k, t) in mine {
                    slots[k] = Some(t);
                }
            }
        }
    });
    slots
}
