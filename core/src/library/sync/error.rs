//! What can go wrong talking to the website, each naming the address (and the field, for a
//! body that lacks one).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error("{url}: not found (404): {what}")]
    NotFound { url: String, what: String },
    #[error("{url}: the server answered {status}")]
    Status { url: String, status: u16 },
    #[error("{url}: no answer within {seconds:.1} s (timeout)")]
    Timeout { url: String, seconds: f64 },
    #[error("{url}: {message}")]
    Transport { url: String, message: String },
    #[error("{source} (tried {attempts} times)")]
    GaveUp { url: String, attempts: u32, source: Box<SyncError> },
    #[error("{url}: the body is not JSON: {message}")]
    NotJson { url: String, message: String },
    #[error("{url}: the JSON has no field `{field}`")]
    MissingField { url: String, field: String },
    #[error("{url}: not a replay ({why}); not kept")]
    NotAReplay { url: String, why: String },
    #[error("{}: cannot write: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    #[error("{file}: {error}: the facts file is left as it is (mend or move that line, then sync again)")]
    DamagedFacts { file: String, error: String },
    #[error("{0}: not a match id or a watch link (a number, or a link ending in one)")]
    NotAMatch(String),
    #[error("stopped")]
    Cancelled,
}

impl SyncError {
    /// The address the error is about (the innermost one for a retried request).
    pub fn url(&self) -> Option<&str> {
        match self {
            SyncError::NotFound { url, .. }
            | SyncError::Status { url, .. }
            | SyncError::Timeout { url, .. }
            | SyncError::Transport { url, .. }
            | SyncError::GaveUp { url, .. }
            | SyncError::NotJson { url, .. }
            | SyncError::MissingField { url, .. }
            | SyncError::NotAReplay { url, .. } => Some(url),
            SyncError::Write { .. }
            | SyncError::DamagedFacts { .. }
            | SyncError::NotAMatch(_)
            | SyncError::Cancelled => None,
        }
    }
}
