//! Finding an algo's start script from the argument that names it (docs/protocol.md,
//! Starting an algo).

use super::os;
use std::path::{Path, PathBuf};

/// Where an algo lives: its start script, the folder, and its name (the folder's name,
/// docs/protocol.md, Starting an algo).
#[derive(Debug, Clone)]
pub struct AlgoLocation {
    pub script: PathBuf,
    pub dir: PathBuf,
    pub name: String,
}

/// Why an algo argument does not lead to a start script; each names the path.
#[derive(Debug, thiserror::Error)]
pub enum LocateError {
    #[error("{}: only run.ps1 (Windows) found, no run.sh", .0.display())]
    OnlyPowerShell(PathBuf),
    #[error("{}: no run.sh in this folder", .0.display())]
    NoStartScript(PathBuf),
    #[error("{}: no such algo folder or start script", .0.display())]
    Missing(PathBuf),
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
}

/// Resolves an algo argument: a folder holding a start script (`run.sh`; on Windows also
/// `run.ps1`, `run.bat`, `run.cmd`, `run.exe`, in the order of [`os::START_SCRIPTS`]), or
/// the start script itself.
pub fn locate(path: &Path) -> Result<AlgoLocation, LocateError> {
    let script = if path.is_dir() {
        match os::START_SCRIPTS.iter().map(|name| path.join(name)).find(|p| p.is_file()) {
            Some(script) => script,
            None if path.join("run.ps1").is_file() => return Err(LocateError::OnlyPowerShell(path.to_path_buf())),
            None => return Err(LocateError::NoStartScript(path.to_path_buf())),
        }
    } else if path.is_file() {
        path.to_path_buf()
    } else {
        return Err(LocateError::Missing(path.to_path_buf()));
    };
    let script = os::full_path(&script).map_err(|source| LocateError::Io { path: script.clone(), source })?;
    let dir = script.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("/"));
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "algo".into());
    Ok(AlgoLocation { script, dir, name })
}

/// Checks an algo argument before a match. A path that does not exist is refused (a typo
/// is not a match the missing player loses); a folder without a start script is played as
/// the official engine plays it: the player fails to load (`FailedToLoad`, crashed at turn
/// 0, a replay written) — `Ok(Some(why))` says so, for a warning.
pub fn check_algo_arg(path: &Path) -> Result<Option<LocateError>, LocateError> {
    match locate(path) {
        Ok(_) => Ok(None),
        Err(e @ LocateError::Missing(_)) => Err(e),
        Err(e) => Ok(Some(e)),
    }
}
