//! Requests spaced evenly at a given rate, across every thread that shares the limiter: the
//! site is a free public service, and hundreds of replays asked at once would hammer it.

use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct RateLimiter {
    /// Time between two requests; zero for no limit.
    spacing: Duration,
    next: Mutex<Option<Instant>>,
}

impl RateLimiter {
    /// `per_second` requests a second at most; 0 (or less, or not a number) for no limit.
    pub fn new(per_second: f64) -> RateLimiter {
        let spacing = if per_second.is_finite() && per_second > 0.0 {
            Duration::from_secs_f64(1.0 / per_second)
        } else {
            Duration::ZERO
        };
        RateLimiter { spacing, next: Mutex::new(None) }
    }

    /// Waits for this request's turn.
    pub fn wait(&self) {
        if self.spacing.is_zero() {
            return;
        }
        let now = Instant::now();
        let at = {
            // A poisoned lock only means another thread panicked between two reads of a time.
            let mut next = self.next.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let at = next.map_or(now, |n| n.max(now));
            *next = Some(at + self.spacing);
            at
        };
        std::thread::sleep(at.saturating_duration_since(now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_spaced_at_the_rate() {
        let limiter = RateLimiter::new(20.0);
        let started = Instant::now();
        for _ in 0..5 {
            limiter.wait();
        }
        // The first goes at once, four more 50 ms apart.
        assert!(started.elapsed() >= Duration::from_millis(195), "{:?}", started.elapsed());
    }

    #[test]
    fn zero_is_no_limit() {
        let limiter = RateLimiter::new(0.0);
        let started = Instant::now();
        for _ in 0..1000 {
            limiter.wait();
        }
        assert!(started.elapsed() < Duration::from_millis(100));
    }
}
