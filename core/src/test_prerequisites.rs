//! What the workspace's tests need from the machine beyond Rust, checked first: `cargo test
//! --workspace` runs this crate's unit tests before any other test binary and stops at the
//! first one that fails, so a machine without these stops here, at once, with their names —
//! not after a wall of failing runner and GUI tests.

use std::path::Path;
#[cfg(target_os = "linux")]
use std::process::Command;

/// Debian's names for what is missing, to install in one line.
#[cfg(target_os = "linux")]
fn missing_packages() -> Vec<&'static str> {
    let mut missing = Vec::new();
    // Our test algos are Python scripts.
    if !Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success()) {
        missing.push("python3");
    }
    // The GUI tests render with wgpu; without a GPU, Mesa's software Vulkan (lavapipe).
    let icd_dirs = ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"];
    let has_icd = icd_dirs.iter().any(|d| {
        std::fs::read_dir(d)
            .is_ok_and(|entries| entries.flatten().any(|e| e.path().extension().is_some_and(|x| x == "json")))
    });
    if !has_icd {
        missing.extend(["mesa-vulkan-drivers", "libgl1-mesa-dri", "libegl1", "libxkbcommon0"]);
    }
    missing
}

// Linux only: elsewhere (Windows, macOS) the README says what the Python-driven tests need,
// and the GPU driver comes with the system.
#[cfg(target_os = "linux")]
#[test]
fn the_machine_has_the_packages_the_tests_need() {
    let missing = missing_packages();
    assert!(
        missing.is_empty(),
        "the tests need system packages this machine lacks; on Debian or Ubuntu:\n    sudo apt-get install {}\n\
         (or run `bash .ci/run`, which installs them as root)",
        missing.join(" ")
    );
}

#[test]
fn the_shared_replays_are_beside_the_repository() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..").join("shared").join("replays");
    assert!(
        shared.is_dir(),
        "the replay tests need the shared data folder beside the repository: {} is missing",
        shared.display()
    );
}
