//! The per-turn time-limit overrides shared by `match` and `arena` (which passes them on
//! to every match, and writes them into `--plan` lines).

use terminal_core::runner::MatchSpec;

#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct TimeLimitArgs {
    /// Soft time limit per turn in ms (overrides waitTimeBotSoft).
    #[arg(long)]
    pub soft_ms: Option<u64>,
    /// Hard time limit per turn in ms (overrides waitTimeBotMax).
    #[arg(long)]
    pub max_ms: Option<u64>,
    /// Start-up allowance in ms taken off turn 0's time (default waitTimeStartGame).
    #[arg(long)]
    pub startup_ms: Option<u64>,
}

impl TimeLimitArgs {
    pub fn apply(&self, spec: &mut MatchSpec) {
        spec.soft_ms = self.soft_ms;
        spec.max_ms = self.max_ms;
        spec.startup_ms = self.startup_ms;
    }
}
