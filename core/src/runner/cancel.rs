//! The one check for a stop asked of a running match, shared by the match loop and its seats.

use crossbeam_channel::{Receiver, TryRecvError};

/// Whether a stop was asked on `cancel`: a message, or its sender gone.
pub(super) fn cancelled<T>(cancel: &Receiver<T>) -> bool {
    !matches!(cancel.try_recv(), Err(TryRecvError::Empty))
}
