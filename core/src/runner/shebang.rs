//! A start script's `#!` line: the interpreter it names, read as Linux reads it (the
//! program up to the first blank, the rest of the line as one argument).

use std::io::Read;
use std::path::Path;

/// Longest `#!` line looked at (Linux reads 256 bytes).
const MAX_LINE: usize = 256;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shebang {
    pub program: String,
    /// Everything after the program, as one argument (`None` if nothing is there).
    pub arg: Option<String>,
}

impl Shebang {
    /// The interpreter as a command line would show it: `/usr/bin/env python3`.
    pub fn describe(&self) -> String {
        match &self.arg {
            Some(a) => format!("{} {a}", self.program),
            None => self.program.clone(),
        }
    }
}

/// The `#!` line of the file at `path`, if it starts with one that names a program.
pub fn read(path: &Path) -> Option<Shebang> {
    let mut head = Vec::with_capacity(MAX_LINE);
    std::fs::File::open(path).ok()?.take(MAX_LINE as u64).read_to_end(&mut head).ok()?;
    parse(&head)
}

/// Parses the start of a file.
pub fn parse(head: &[u8]) -> Option<Shebang> {
    let rest = head.strip_prefix(b"#!")?;
    let line = rest.split(|&b| b == b'\n').next().unwrap_or(rest);
    let line = String::from_utf8_lossy(line);
    let line = line.trim_matches(|c: char| c == ' ' || c == '\t' || c == '\r');
    let (program, arg) = match line.split_once([' ', '\t']) {
        Some((p, a)) => (p, Some(a.trim_matches([' ', '\t']))),
        None => (line, None),
    };
    if program.is_empty() {
        return None;
    }
    Some(Shebang { program: program.to_string(), arg: arg.filter(|a| !a.is_empty()).map(str::to_string) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sb(program: &str, arg: Option<&str>) -> Option<Shebang> {
        Some(Shebang { program: program.into(), arg: arg.map(Into::into) })
    }

    #[test]
    fn the_program_and_the_rest_as_one_argument() {
        assert_eq!(parse(b"#!/usr/bin/env python3\nimport sys\n"), sb("/usr/bin/env", Some("python3")));
        assert_eq!(parse(b"#! /bin/bash\n"), sb("/bin/bash", None));
        assert_eq!(parse(b"#!/usr/bin/env -S python3 -u\r\n"), sb("/usr/bin/env", Some("-S python3 -u")));
        assert_eq!(parse(b"#!/bin/sh"), sb("/bin/sh", None));
    }

    #[test]
    fn no_shebang() {
        assert_eq!(parse(b"python3 algo.py\n"), None);
        assert_eq!(parse(b"#!\n"), None);
        assert_eq!(parse(b""), None);
        assert_eq!(parse(b"# !/bin/sh\n"), None);
    }
}
