//! Which folders a confined algo may read and write. Read (and run programs from): its own
//! folder, the system's folders, the interpreter it is likely to run wherever that is
//! installed (pyenv, conda, a venv), and its temp folder. Write: its temp folder, and its
//! own folder when the user allows. Never the home folder as a whole.

use super::SeatPlan;
use super::policy::SHARED_MARKER;
use crate::runner::locate::AlgoLocation;
use std::path::{Path, PathBuf};

/// The system's folders: programs, libraries, configuration, and the kernel's views
/// (`/proc` of other processes is still guarded by Landlock's own ptrace rule).
const SYSTEM: &[&str] = &[
    "/usr",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/bin",
    "/sbin",
    "/etc",
    "/opt",
    "/proc",
    "/sys",
    "/dev",
    "/nix/store",
];

/// Programs an algo's start script usually runs by name: their installation is readable
/// wherever it is (`cargo` is not among them: its folder holds the crates.io token).
const INTERPRETERS: &[&str] = &["python3", "python", "java", "node"];

/// Fills the plan's read and write folders for the algo at `loc`.
pub fn fill(plan: &mut SeatPlan, loc: &AlgoLocation, env: &[(String, String)]) {
    let homes = homes(env);
    plan.read.extend(SYSTEM.iter().map(PathBuf::from).filter(|p| p.exists()));
    plan.read.push(loc.dir.clone());
    if homes.iter().any(|h| holds(&loc.dir, h)) {
        plan.notes
            .push(format!("the algo's folder {} holds the home folder: all of it is readable", loc.dir.display()));
    }
    if plan.policy.algo_folder_writable {
        plan.write.push(loc.dir.clone());
    }
    if let Some(parent) = loc.dir.parent()
        && parent.join(SHARED_MARKER).is_file()
    {
        grant(plan, &homes, parent.to_path_buf(), "the shared algos folder");
    }
    for program in programs(&loc.script) {
        for found in find_on_path(&program, env) {
            let root = install_root(&found);
            if !plan.read.iter().any(|r| root.starts_with(r)) {
                grant(plan, &homes, root, &format!("{program}'s installation"));
            }
        }
    }
    for extra in plan.policy.extra_read.clone() {
        let extra = extra.canonicalize().unwrap_or(extra);
        grant(plan, &homes, extra, "a folder granted");
    }
}

/// Adds a read folder unless it is the root or holds a home folder (then says so).
fn grant(plan: &mut SeatPlan, homes: &[PathBuf], folder: PathBuf, what: &str) {
    if folder == Path::new("/") || homes.iter().any(|h| holds(&folder, h)) {
        plan.notes.push(format!("{what} {} not readable: it holds the home folder", folder.display()));
    } else if !plan.read.contains(&folder) {
        plan.read.push(folder);
    }
}

/// Whether `folder` is `home` or one of its parents.
fn holds(folder: &Path, home: &Path) -> bool {
    home.starts_with(folder)
}

/// The runner's home folder and the one the algo is given, as far as they are known.
fn homes(env: &[(String, String)]) -> Vec<PathBuf> {
    let given = env.iter().rev().find(|(k, _)| k == "HOME").map(|(_, v)| PathBuf::from(v));
    let own = std::env::var_os("HOME").map(PathBuf::from);
    let mut out: Vec<PathBuf> = given.into_iter().chain(own).filter(|h| h.is_absolute()).collect();
    out.extend(out.iter().filter_map(|h| h.canonicalize().ok()).collect::<Vec<_>>());
    out
}

/// The programs the algo is likely to run: the usual interpreters, and the one its start
/// script's `#!` line names (through `env` too).
fn programs(script: &Path) -> Vec<String> {
    let mut out: Vec<String> = INTERPRETERS.iter().map(|p| (*p).to_string()).collect();
    if let Some(sb) = crate::runner::shebang::read(script) {
        let named = if sb.program.ends_with("/env") {
            sb.arg.as_deref().and_then(|a| a.split_whitespace().find(|w| !w.starts_with('-'))).map(str::to_string)
        } else {
            Some(sb.program.clone())
        };
        out.extend(named.filter(|n| !out.contains(n)));
    }
    out
}

/// Where `program` is found on the algo's `PATH` (an absolute path as it is), as found and
/// with links resolved.
fn find_on_path(program: &str, env: &[(String, String)]) -> Vec<PathBuf> {
    let found = if program.contains('/') {
        Some(PathBuf::from(program)).filter(|p| p.is_file())
    } else {
        let path = env
            .iter()
            .rev()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| std::ffi::OsString::from(v))
            .or_else(|| std::env::var_os("PATH"))
            .unwrap_or_default();
        std::env::split_paths(&path).map(|d| d.join(program)).find(|p| p.is_file())
    };
    let Some(found) = found else { return Vec::new() };
    let real = found.canonicalize().ok().filter(|r| *r != found);
    std::iter::once(found).chain(real).collect()
}

/// The installation a program belongs to: the folder above its `bin` (or pyenv's `shims`),
/// else its own folder.
fn install_root(program: &Path) -> PathBuf {
    let dir = program.parent().unwrap_or(Path::new("/"));
    match dir.file_name().and_then(|n| n.to_str()) {
        Some("bin" | "sbin" | "shims") => dir.parent().unwrap_or(dir).to_path_buf(),
        _ => dir.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_installation_is_the_folder_above_its_bin() {
        assert_eq!(install_root(Path::new("/root/.pyenv/shims/python3")), PathBuf::from("/root/.pyenv"));
        assert_eq!(install_root(Path::new("/h/u/miniconda3/bin/python")), PathBuf::from("/h/u/miniconda3"));
        assert_eq!(install_root(Path::new("/h/u/tools/python3")), PathBuf::from("/h/u/tools"));
    }

    #[test]
    fn the_home_folder_and_its_parents_hold_it() {
        let home = Path::new("/home/u");
        assert!(holds(Path::new("/home/u"), home));
        assert!(holds(Path::new("/home"), home));
        assert!(!holds(Path::new("/home/u/.pyenv"), home));
    }
}
