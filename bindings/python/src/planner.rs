//! `best_attacks(state, player)`: the attack planner (docs/planner.md) on a state, for an
//! algo to call on its turn. Tiles are the state's own (the algo's view) for either player.

use crate::error::BindingError;
use crate::json::to_python;
use crate::state::{GameState, player_of};
use pyo3::prelude::*;
use std::sync::atomic::AtomicBool;
use terminal_core::planner::{PlanBoard, PlanRequest, plan};

/// The `top` best deploys for `player` against the other player's structures as they stand
/// in `state` (a deploy-phase state, after the builds given to it), best first: dicts with
/// `deploy` (the deploy line, `[shorthand, x, y]` entries), `groups`, `damage`, `breaches`,
/// `structures_destroyed`, `sp_destroyed`, `mp_spent`, `units_destroyed`, `rank`.
///
/// `mp`: the attacker's MP (default: what it has in `state`); `groups`: at most this many
/// groups per deploy (1–3); `threads`: default one per core. The opponent's mobile units of
/// the turn and its reaction next turn are not modelled; every breach counts.
#[pyfunction]
#[pyo3(signature = (state, player=1, top=10, *, mp=None, groups=3, threads=None))]
pub fn best_attacks(
    py: Python<'_>,
    state: &GameState,
    player: i64,
    top: usize,
    mp: Option<f32>,
    groups: usize,
    threads: Option<usize>,
) -> PyResult<Vec<Py<PyAny>>> {
    let attacker = player_of(player)?;
    let game = state.game();
    if game.action_frame >= 0 {
        return Err(BindingError::NotDeployPhase(game.action_frame).into());
    }
    if game.config.legacy {
        return Err(
            BindingError::Planner("2018–2019 rules: the planner runs current-format rulesets only".into()).into()
        );
    }
    let mut board = PlanBoard::from_game(game, attacker, "state");
    if let Some(mp) = mp {
        board = board.with_mp(mp);
    }
    let jobs = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let request = PlanRequest { max_groups: groups.clamp(1, 3), jobs, ..PlanRequest::default() };
    let result = py
        .detach(|| plan(&board, &request, &|_| {}, &AtomicBool::new(false)))
        .map_err(|e| BindingError::Planner(e.to_string()))?;
    let config = board.config();
    let mut out = Vec::new();
    for (k, c) in result.top(top).iter().enumerate() {
        let record = c.record_in_view(config, false, k + 1);
        let text = serde_json::to_string(&record).map_err(|source| BindingError::Json { what: "candidate", source })?;
        out.push(to_python(py, &text)?);
    }
    Ok(out)
}
