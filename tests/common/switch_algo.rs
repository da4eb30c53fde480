//! `tests/algos/py-turn-switch` written as a player's own algo folder, a setting edited as a
//! player edits a line: the Versions tests make versions of it that part at a known turn.

use super::corpus;
use std::path::Path;

/// Writes `tests/algos/py-turn-switch` into `dir` as a self-contained algo (its helpers
/// beside it), with its two settings edited as a player edits a line.
pub fn write_algo(dir: &Path, change_from_turn: Option<u32>, noisy: bool) {
    std::fs::create_dir_all(dir).expect("the algo's folder");
    let source = corpus::algo("py-turn-switch");
    let lib = corpus::root().join("tests/algos/lib");
    for (from, name) in
        [(lib.join("terminal_algo.py"), "terminal_algo.py"), (lib.join("strategies.py"), "strategies.py")]
    {
        std::fs::copy(&from, dir.join(name)).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
    std::fs::copy(source.join("run.sh"), dir.join("run.sh")).expect("run.sh");
    let text = std::fs::read_to_string(source.join("algo.py")).expect("algo.py");
    let change = change_from_turn.map_or("None".to_string(), |k| k.to_string());
    let text = text
        .replace("CHANGE_FROM_TURN = None", &format!("CHANGE_FROM_TURN = {change}"))
        .replace("NOISY = False", if noisy { "NOISY = True" } else { "NOISY = False" });
    std::fs::write(dir.join("algo.py"), text).expect("algo.py written");
}
