//! `--no-confine`, shared by `match` and `arena` (which passes it on to every match, and
//! writes it into `--plan` lines): confinement is the default (docs/runner.md, Confinement).

use terminal_core::runner::Confinement;

#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct ConfineArgs {
    /// Run the algos unconfined: no file, network or process rules, no resource limits.
    /// Only for an algo you trust that needs more than confinement allows.
    #[arg(long)]
    pub no_confine: bool,
    /// Let confined algos write their own folder (a cache, a learned table).
    #[arg(long, conflicts_with = "no_confine")]
    pub algo_writes: bool,
}

impl ConfineArgs {
    pub fn confinement(&self) -> Confinement {
        if self.no_confine {
            Confinement::off()
        } else {
            Confinement { algo_folder_writable: self.algo_writes, ..Confinement::default() }
        }
    }
}
