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
    /// The line being assembled (cut at `max_line`), the bytes dropped beyond the cut, and
    /// the stream position of its first byte.
    line: Vec<u8>,
    line_dropped: u64,
    in_line: bool,
    line_start: u64,
    /// Stream position of the first byte of the line returned last.
    last_start: u64,
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
            line: Vec::new(),
            line_dropped: 0,
            in_line: false,
            line_start: 0,
            last_start: 0,
        }
    }

    /// Publishes the number of bytes read from the stream in `counter` after every read.
    pub(crate) fn with_counter(mut self, counter: Arc<AtomicU64>) -> Self {
        self.counter = Some(counter);
        self
    }

    pub(crate) fn get_ref(&self) -> &R {
        &self.inner
    }

    /// Bytes read from the stream so far (returned as lines or not).
    pub(crate) fn read_total(&self) -> u64 {
        self.read_total
    }

    /// Stream position where the next line starts (or started, if it is partly read).
    pub fn offset(&self) -> u64 {
        if self.in_line { self.line_start } else { self.read_total - (self.end - self.start) as u64 }
    }

    /// Stream position of the first byte of the line returned last.
    pub(crate) fn last_start(&self) -> u64 {
        self.last_start
    }

    /// Reads once from the stream if nothing read is left over (blocking until bytes come).
    /// Returns the bytes now waiting, 0 at end of stream.
    pub fn fill(&mut self) -> std::io::Result<usize> {
        if self.start < self.end {
            return Ok(self.end - self.start);
        }
        let n = loop {
            match self.inner.read(&mut self.buf) {
                Ok(n) => break n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        self.read_total += n as u64;
        if let Some(c) = &self.counter {
            c.store(self.read_total, Ordering::SeqCst);
        }
        self.start = 0;
        self.end = n;
        Ok(n)
    }

    /// The next complete line among the bytes already read, without reading more: into
    /// `out` (without the `\n` or a trailing `\r`), returning the bytes of it dropped beyond
    /// `max_line`. `None` if no complete line is left (a partial one is kept).
    pub(crate) fn buffered_line(&mut self, out: &mut Vec<u8>) -> Option<u64> {
        if self.start == self.end {
            return None;
        }
        if !self.in_line {
            self.line_start = self.offset();
            self.in_line = true;
            self.line.clear();
            self.line_dropped = 0;
        }
        let chunk = &self.buf[self.start..self.end];
        let (take, found) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        let keep = take.min(self.max_line.saturating_sub(self.line.len()));
        self.line.extend_from_slice(&chunk[..keep]);
        self.line_dropped += (take - keep) as u64;
        self.start += take + usize::from(found);
        if !found {
            return None;
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        Some(self.finish_line(out))
    }

    fn finish_line(&mut self, out: &mut Vec<u8>) -> u64 {
        self.in_line = false;
        self.last_start = self.line_start;
        out.clear();
        std::mem::swap(out, &mut self.line);
        self.line_dropped
    }

    /// Reads the next line into `out` (without the `\n` or a trailing `\r`). Returns the
    /// number of bytes of this line dropped beyond `max_line`, or `None` at end of stream.
    /// A last line without a newline is returned before `None`.
    pub(crate) fn next_line(&mut self, out: &mut Vec<u8>) -> std::io::Result<Option<u64>> {
        loop {
            if let Some(dropped) = self.buffered_line(out) {
                return Ok(Some(dropped));
            }
            if self.fill()? == 0 {
                return Ok(self.in_line.then(|| self.finish_line(out)));
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
        assert_eq!((r.last_start(), r.offset()), (0, 4));
        // A cut line still counts in full.
        r.next_line(&mut out).expect("read");
        assert_eq!((r.last_start(), r.offset()), (4, 14));
        r.next_line(&mut out).expect("read");
        assert_eq!((out.as_slice(), r.last_start(), r.read_total()), (&b"x"[..], 14, 15));
    }

    /// A reader that hands out its chunks one read at a time.
    struct Chunks(Vec<&'static [u8]>);

    impl Read for Chunks {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            let c = self.0.remove(0);
            buf[..c.len()].copy_from_slice(c);
            Ok(c.len())
        }
    }

    #[test]
    fn a_line_split_across_reads_is_kept_until_its_newline() {
        let mut r = BoundedLines::new(Chunks(vec![b"one\npa", b"rt", b"ial\n"]), 100);
        let mut out = Vec::new();
        assert_eq!(r.fill().expect("fill"), 6);
        assert_eq!(r.buffered_line(&mut out), Some(0));
        assert_eq!(out, b"one");
        assert_eq!(r.buffered_line(&mut out), None);
        assert_eq!(r.offset(), 4);
        r.fill().expect("fill");
        assert_eq!(r.buffered_line(&mut out), None);
        r.fill().expect("fill");
        assert_eq!(r.buffered_line(&mut out), Some(0));
        assert_eq!((out.as_slice(), r.last_start()), (&b"partial"[..], 4));
        assert_eq!(r.fill().expect("fill"), 0);
    }
}
