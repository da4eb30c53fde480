//! Linux: the file, network and signal rules, by Landlock. The kernel's Landlock ABI
//! decides what can be enforced; the ruleset is built here, in the runner, and put in
//! force by the child just before it runs the start script (`limits.rs`), so the whole
//! process tree of the algo is under it, and nothing can lift it.
//!
//! By ABI: 1 files (read, write, run), 2 moving files between folders, 3 truncating, 4 TCP
//! connect and bind, 5 device ioctls, 6 signals to processes outside the algo's tree and
//! abstract Unix sockets. UDP and Unix sockets named by a path are not covered here.

use super::SeatPlan;
use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, Scope,
};
use std::sync::OnceLock;

/// Files the algo may write to wherever they are: the null and zero devices, and the
/// terminal-less standard ones.
const DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"];

/// The kernel's Landlock ABI (0: none), asked once.
pub(crate) fn kernel_abi() -> i32 {
    static ABI_VERSION: OnceLock<i32> = OnceLock::new();
    *ABI_VERSION.get_or_init(|| {
        const LANDLOCK_CREATE_RULESET_VERSION: nix::libc::c_uint = 1;
        // SAFETY: the version query takes no attribute (null, size 0) and returns a number.
        let v = unsafe {
            nix::libc::syscall(
                nix::libc::SYS_landlock_create_ruleset,
                std::ptr::null::<nix::libc::c_void>(),
                0usize,
                LANDLOCK_CREATE_RULESET_VERSION,
            )
        };
        i32::try_from(v).unwrap_or(0).max(0)
    })
}

/// The crate's ABI for the kernel's number (the newest the crate knows for a newer kernel).
fn abi() -> ABI {
    match kernel_abi() {
        0 => ABI::Unsupported,
        1 => ABI::V1,
        2 => ABI::V2,
        3 => ABI::V3,
        4 => ABI::V4,
        5 => ABI::V5,
        6 => ABI::V6,
        7 => ABI::V7,
        8 => ABI::V8,
        9 => ABI::V9,
        _ => ABI::V10,
    }
}

/// The ruleset for the seat, created (`None` where the kernel has no Landlock). Folders that
/// do not exist are skipped; any other failure is an error (the seat does not start).
pub fn ruleset(plan: &SeatPlan) -> std::io::Result<Option<RulesetCreated>> {
    let abi = abi();
    if abi == ABI::Unsupported {
        return Ok(None);
    }
    let err = |e: landlock::RulesetError| std::io::Error::other(format!("landlock: {e}"));
    let mut ruleset = Ruleset::default().set_compatibility(CompatLevel::BestEffort);
    ruleset = ruleset.handle_access(AccessFs::from_all(abi)).map_err(err)?;
    if !AccessNet::from_all(abi).is_empty() {
        ruleset = ruleset.handle_access(AccessNet::from_all(abi)).map_err(err)?;
    }
    if !Scope::from_all(abi).is_empty() {
        ruleset = ruleset.scope(Scope::from_all(abi)).map_err(err)?;
    }
    let mut created = ruleset.create().map_err(err)?;
    let read = AccessFs::from_read(abi);
    let all = AccessFs::from_all(abi);
    let rules = plan
        .read
        .iter()
        .map(|p| (p.as_path(), read))
        .chain(plan.write.iter().map(|p| (p.as_path(), all)))
        .chain(DEVICES.iter().map(|d| (std::path::Path::new(*d), AccessFs::from_file(abi))));
    for (path, access) in rules {
        // A folder that is not there (no /lib32 here) needs no rule.
        let Ok(fd) = PathFd::new(path) else { continue };
        let access = if path.is_dir() { access } else { access & AccessFs::from_file(abi) };
        created = created.add_rule(PathBeneath::new(fd, access)).map_err(err)?;
    }
    Ok(Some(created))
}

/// Which rules take effect with this kernel, in words.
pub fn describe(plan: &SeatPlan) -> String {
    let v = kernel_abi();
    if v == 0 {
        return "landlock: not supported by this kernel: file, network and signal rules not enforced".into();
    }
    let mut rules = vec![format!(
        "files: read only {} folders (its own, the system's, its interpreter's), write only {}",
        plan.read.len(),
        plan.write.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" and ")
    )];
    rules.push(if v >= 4 { "TCP connect and bind denied".into() } else { "network not confined (ABI < 4)".into() });
    rules.push(if v >= 6 {
        "no signals to processes outside its tree, no abstract Unix sockets".into()
    } else {
        "signals and abstract sockets not scoped (ABI < 6)".into()
    });
    format!("landlock ABI {v}: {}", rules.join(", "))
}
