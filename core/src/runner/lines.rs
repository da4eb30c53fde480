//! Reading lines from an algo's pipe with a bound on line length, so an algo that prints
//! megabytes without a newline cannot exhaust memory. Every byte's position in the stream
//! is known, so other threads can compare it with what they saw of the pipe.

use std::io::{ErrorKind, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

pub struct BoundedLines<R> {
    inner: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    max_line: usize,
    /// Bytes read from `inner` so far.
    read_total: u64,
    /// Shared copy of `read_total`, for other threads that compare stream positions.
    counter: Option<Arc<AtomicU64>>,
}

impl<R: Read> BoundedLines<R> {
    pub fn new(inner: R, max_line: usize) -> Self {
        BoundedLines {
            inner,
            buf: vec![0; 64 * 1024].into_boxed_slice(),
            start: 0,
            end: 0,
            max_line,
            read_total: 0,
            counter: None,
        }
    }

    /// Publishes the number of bytes read from the stream in `counter` after every read.
    pub fn with_counter(mut self, counter: Arc<AtomicU64>) -> Self {
        self.counter = Some(counter);
        self
    }

    /// Stream position where the next line starts (call between lines): the bytes of the
    /// lines returned so far, newlines included.
    pub fn offset(&self) -> u64 {
        self.read_total - (self.end - self.start) as u64
    }

    /// Reads the next line into `out` (without the `\n` or a trailing `\r`). Returns the
    /// number of bytes of this line dropped beyond `max_line`, or `None` at end of stream.
    /// A last line without a newline is returned before `None`.
    pub fn next_line(&mut self, out: &mut Vec<u8>) -> std::io::Result<Option<u64>> {
        out.clear();
        let mut dropped = 0u64;
        let mut any = false;
        loop {
            if self.start == self.end {
                let n = loop {
                    match self.inner.read(&mut self.buf) {
                        Ok(n) => break n,
                        Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                        Err(e) => return Err(e),
                    }
                };
                if n == 0 {
                    return Ok(any.then_some(dropped));
                }
                self.read_total += n as u64;
                if let Some(c) = &self.counter {
                    c.store(self.read_total, Ordering::SeqCst);
                }
                self.start = 0;
                self.end = n;
            }
            any = true;
            let chunk = &self.buf[self.start..self.end];
            let (take, found) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            let keep = take.min(self.max_line.saturating_sub(out.len()));
            out.extend_from_slice(&chunk[..keep]);
            dropped += (take - keep) as u64;
            self.start += take + usize::from(found);
            if found {
                if out.last() == Some(&b'\r') {
                    out.pop();
                }
                return Ok(Some(dropped));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<(String, u64)> {
        let mut r = BoundedLines::new(input, max);
        let mut out = Vec::new();
        let mut lines = Vec::new();
        while let Ok(Some(d)) = r.next_line(&mut out) {
            lines.push((String::from_utf8_lossy(&out).into_owned(), d));
        }
        lines
    }

    #[test]
    fn splits_and_bounds() {
        assert_eq!(
            all(b"a\r\nbb\n\nlast", 10),
            vec![("a".into(), 0), ("bb".into(), 0), ("".into(), 0), ("last".into(), 0)]
        );
        assert_eq!(all(b"abcdef\nx\n", 3), vec![("abc".into(), 3), ("x".into(), 0)]);
        assert!(all(b"", 3).is_empty());
    }

    #[test]
    fn positions_count_every_byte_of_the_stream() {
        let mut r = BoundedLines::new(&b"ab\r\nlong line\nx"[..], 3);
        let mut out = Vec::new();
        assert_eq!(r.offset(), 0);
        r.next_line(&mut out).expect("read");
        assert_eq!(r.offset(), 4);
        // A cut line still counts in full.
        r.next_line(&mut out).expect("read");
        assert_eq!(r.offset(), 14);
        r.next_line(&mut out).expect("read");
        assert_eq!(r.offset(), 15);
    }
}
