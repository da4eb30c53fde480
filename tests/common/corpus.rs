//! Where the tests find their material: the workspace's own test algos and layouts, and the
//! real replays of `../shared` beside the clone. Shared by the studio's and the core's tests
//! (the core includes this file by path). A missing folder fails the test with its path:
//! no test passes by skipping what it could not find.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every ruleset folder of `../shared/replays` that holds current-format replays.
pub const CURRENT_RULESETS: [&str; 9] = [
    "base-s6",
    "citadel-2026",
    "live-2022",
    "s7-2020",
    "s8-2021a",
    "s8-2021b",
    "special-2024",
    "special-2025",
    "special-2026",
];

/// Every ruleset folder of `../shared/replays` that holds 2018–2019 replays (and the newer
/// engine's compatibility mode 4, which plays them).
pub const LEGACY_RULESETS: [&str; 4] = ["compat-mode-4", "legacy-2018", "legacy-2019-cmu", "legacy-2019-s3"];

/// The workspace root (the folder holding `tests/algos`), from the compiled crate's folder.
pub fn root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    match here.ancestors().find(|p| p.join("tests/algos").is_dir()) {
        Some(p) => p.to_path_buf(),
        None => panic!("no tests/algos folder above {}: the workspace is incomplete", here.display()),
    }
}

/// `../shared/replays` beside the clone, or a failure naming where it was looked for.
pub fn replays() -> PathBuf {
    let p = root().join("../shared/replays");
    assert!(p.is_dir(), "{} is missing: these tests need the real replays of ../shared beside the clone", p.display());
    p
}

/// A file or folder of `../shared/replays` (path relative to it), which must exist.
pub fn replay(rel: &str) -> PathBuf {
    let p = replays().join(rel);
    assert!(p.exists(), "{} is missing from ../shared/replays", p.display());
    p
}

/// The first replay of a ruleset's folder, by name.
pub fn first_of(ruleset: &str) -> PathBuf {
    let mut found = terminal_core::verify::collect_replays(&[replay(ruleset)]);
    found.sort();
    match found.into_iter().next() {
        Some(p) => p,
        None => panic!("../shared/replays/{ruleset} holds no replay"),
    }
}

/// One of our test algos (`tests/algos/NAME`), which must exist.
pub fn algo(name: &str) -> PathBuf {
    let p = root().join("tests/algos").join(name);
    assert!(p.exists(), "test algo {} is missing", p.display());
    p
}

/// The shipped example layouts (`layouts/`).
pub fn layouts() -> PathBuf {
    root().join("layouts")
}

/// A 100-turn, 1,921-frame live-2022 replay.
pub const LONG: &str = "live-2022/Acceleraizer__c1terminal-algo__99.replay.gz";
/// A busy live-2022 replay used for the Debugger's pictures.
pub const BUSY: &str = "live-2022/Acceleraizer__c1terminal-algo__1011.replay.gz";

/// The test algo `rust-scout` built for this machine (cargo, into its own target folder);
/// fails if it does not build.
pub fn rust_scout_binary() -> PathBuf {
    let dir = algo("rust-scout");
    let built = std::process::Command::new("cargo")
        .args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(dir.join("target"))
        .status()
        .expect("cargo runs");
    assert!(built.success(), "tests/algos/rust-scout did not build");
    dir.join("target/release/rust-scout")
}
