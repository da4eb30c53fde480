//! GET with the manners a public site asks for: requests spaced by the rate limiter, a
//! timeout per request, and retries with a growing wait on 429, 5xx and broken connections,
//! waiting as long as the server's `Retry-After` says when it says so.

use super::error::SyncError;
use super::rate::RateLimiter;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The largest body read: a long replay is a few MB of text.
const BODY_LIMIT: u64 = 512 << 20;
/// The longest `Retry-After` honoured; a server asking for more is given up on.
const LONGEST_RETRY_AFTER: Duration = Duration::from_secs(120);

/// How requests are made.
#[derive(Debug, Clone)]
pub struct RequestPolicy {
    /// Requests a second at most (0: no limit).
    pub rate: f64,
    /// The longest one request (connecting, the answer and its body) may take.
    pub timeout: Duration,
    /// Tries of one request before it is given up (at least 1).
    pub attempts: u32,
    /// The wait before the second try; doubled before each next one.
    pub backoff: Duration,
}

impl Default for RequestPolicy {
    fn default() -> RequestPolicy {
        RequestPolicy { rate: 2.0, timeout: Duration::from_secs(30), attempts: 4, backoff: Duration::from_millis(500) }
    }
}

/// One try's failure: whether another try may help, and how long to wait first if the
/// server said.
struct Failed {
    error: SyncError,
    retry: bool,
    retry_after: Option<Duration>,
}

pub struct Client {
    agent: ureq::Agent,
    limiter: RateLimiter,
    policy: RequestPolicy,
}

impl Client {
    pub fn new(policy: RequestPolicy) -> Client {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(policy.timeout))
            .http_status_as_error(false)
            .user_agent(concat!("terminal-studio/", env!("CARGO_PKG_VERSION")))
            .build();
        Client { agent: config.into(), limiter: RateLimiter::new(policy.rate), policy }
    }

    /// The body at `url`, tried again on failures that may pass; `what` names the thing asked
    /// for in a 404's message. `cancel` stops between tries, and a try still waiting for its turn.
    pub fn get(&self, url: &str, what: &str, cancel: &AtomicBool) -> Result<Vec<u8>, SyncError> {
        let attempts = self.policy.attempts.max(1);
        let mut wait = self.policy.backoff;
        for attempt in 1..=attempts {
            if cancel.load(Ordering::Relaxed) {
                return Err(SyncError::Cancelled);
            }
            self.limiter.wait();
            // A stop asked while this request waited its turn: it is not sent.
            if cancel.load(Ordering::Relaxed) {
                return Err(SyncError::Cancelled);
            }
            let failed = match self.try_get(url, what) {
                Ok(body) => return Ok(body),
                Err(f) => f,
            };
            if !failed.retry {
                return Err(failed.error);
            }
            if attempt == attempts {
                return Err(SyncError::GaveUp { url: url.into(), attempts, source: Box::new(failed.error) });
            }
            let pause = match failed.retry_after {
                Some(asked) if asked > LONGEST_RETRY_AFTER => return Err(failed.error),
                Some(asked) => asked,
                None => wait,
            };
            std::thread::sleep(pause);
            wait = wait.saturating_mul(2);
        }
        // Not reached: the last try returns above.
        Err(SyncError::Cancelled)
    }

    fn try_get(&self, url: &str, what: &str) -> Result<Vec<u8>, Failed> {
        let mut response = self.agent.get(url).call().map_err(|e| self.transport(url, e))?;
        let status = response.status().as_u16();
        if status == 404 {
            let error = SyncError::NotFound { url: url.into(), what: what.into() };
            return Err(Failed { error, retry: false, retry_after: None });
        }
        if !(200..300).contains(&status) {
            let retry_after = response
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(Duration::from_secs);
            let retry = status == 429 || status >= 500;
            return Err(Failed { error: SyncError::Status { url: url.into(), status }, retry, retry_after });
        }
        response.body_mut().with_config().limit(BODY_LIMIT).read_to_vec().map_err(|e| self.transport(url, e))
    }

    /// A failure below HTTP: a timeout, a refused or reset connection. All may pass.
    fn transport(&self, url: &str, e: ureq::Error) -> Failed {
        let error = match e {
            ureq::Error::Timeout(_) => {
                SyncError::Timeout { url: url.into(), seconds: self.policy.timeout.as_secs_f64() }
            }
            other => SyncError::Transport { url: url.into(), message: other.to_string() },
        };
        Failed { error, retry: true, retry_after: None }
    }
}
