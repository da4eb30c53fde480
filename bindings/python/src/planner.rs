//! `best_attacks(state, player)`: the attack planner (docs/planner.md) on a state, for an
//! algo to call on its turn. Tiles are the state's own (the algo's view) for either player.

use crate::error::BindingError;
use crate::json::to_python;
use crate::state::{GameState, player_of};
use pyo3::prelude::*;
use std::sync::atomic::AtomicBool;
use terminal_core::planner::{PlanBoard, PlanError, PlanRequest, options, plan};

/// The `top` best distinct attacks for `player` against the other player's structures as
/// they stand in `state` (a deploy-phase state, after the builds given to it), best first:
/// deploys whose units walk the same paths to the same outcome are one row, given by its best
/// deploy. Dicts with `deploy` (the deploy line, `[shorthand, x, y]` entries), `groups`,
/// `damage`, `breaches`, `structures_destroyed`, `sp_destroyed`, `mp_spent`,
/// `damage_per_mp`, `units_destroyed`, `rank`, and the row's `alike` (its other deploys),
/// `start_tiles` and `summary` ("14 × PI from any of 7 tiles of the left edge").
/// `distinct=False` lists every deploy instead, alike ones too (without the row's fields).
///
/// `mp`: the attacker's MP (default: what it has in `state`); `groups`: at most this many
/// groups per deploy (1–3); `threads`: default one per core. The opponent's mobile units of
/// the turn and its reaction next turn are not modelled; every breach counts.
#[pyfunction]
#[pyo3(signature = (state, player=1, top=10, *, mp=None, groups=3, threads=None, distinct=true))]
#[allow(clippy::too_many_arguments)]
pub fn best_attacks(
    py: Python<'_>,
    state: &GameState,
    player: i64,
    top: usize,
    mp: Option<f32>,
    groups: usize,
    threads: Option<usize>,
    distinct: bool,
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
    let cancel = AtomicBool::new(false);
    let searched = py.detach(|| {
        let result = plan(&board, &request, &|_| {}, &cancel)?;
        let rows = if distinct { options(&board, &result, top, jobs, &cancel)? } else { Vec::new() };
        Ok::<_, PlanError>((result, rows))
    });
    let (result, rows) = searched.map_err(|e| BindingError::Planner(e.to_string()))?;
    let config = board.config();
    let json = |source| BindingError::Json { what: "candidate", source };
    let texts = if distinct {
        let records =
            rows.iter().enumerate().map(|(k, r)| serde_json::to_string(&r.record_in_view(config, false, k + 1)));
        records.collect::<Result<Vec<_>, _>>().map_err(json)?
    } else {
        let records = result
            .top(top)
            .iter()
            .enumerate()
            .map(|(k, c)| serde_json::to_string(&c.record_in_view(config, false, k + 1)));
        records.collect::<Result<Vec<_>, _>>().map_err(json)?
    };
    texts.iter().map(|text| to_python(py, text)).collect()
}
