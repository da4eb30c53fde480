//! Looking for an algo's processes after a match: none may be left behind.
#![allow(dead_code)]

use std::time::{Duration, Instant};
use terminal_core::runner::MatchResult;

/// The process group id of a process, from `/proc/<pid>/stat`.
pub fn pgrp_of(stat: &str) -> Option<u32> {
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(2)?.parse().ok()
}

/// No process of either algo's group is left (polls briefly: SIGKILL is asynchronous).
pub fn assert_no_leftovers(r: &MatchResult) {
    let groups: Vec<u32> = r.players.iter().filter_map(|p| p.pid).collect();
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let mut left = Vec::new();
        if let Ok(entries) = std::fs::read_dir("/proc") {
            for e in entries.flatten() {
                let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
                    continue;
                };
                if pgrp_of(&stat).is_some_and(|g| groups.contains(&g)) && !stat.contains(") Z ") {
                    left.push(stat);
                }
            }
        }
        if left.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "leftover algo processes: {left:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Children of `parent` (their pids are their process groups: each algo has its own).
pub fn children_of(parent: u32) -> Vec<u32> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for e in entries.flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
                continue;
            };
            let ppid = stat
                .rfind(')')
                .and_then(|i| stat[i + 1..].split_whitespace().nth(1))
                .and_then(|p| p.parse::<u32>().ok());
            if ppid == Some(parent) {
                out.push(pid);
            }
        }
    }
    out
}
