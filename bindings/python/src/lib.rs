//! `terminal_studio._engine`: Terminal Studio's engine for algos, in the algo's own view.
//! The Python package `terminal_studio` re-exports it with docs and type stubs.

mod commands;
mod error;
mod figures;
mod json;
mod outcome;
mod planner;
mod rules;
mod self_play;
mod sim;
mod state;
mod tally;
mod unit;

use pyo3::prelude::*;
use terminal_core::replay::parse_frame;

/// How `actual` differs from `expected` under the replay format's rules (ordered lists in
/// order, unordered ones as multisets, floats as 32-bit), or `None` if they match. Both
/// are frames as JSON text or dicts.
#[pyfunction]
fn frame_difference(expected: &Bound<'_, PyAny>, actual: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let parse = |obj: &Bound<'_, PyAny>, what: &'static str| -> PyResult<_> {
        let value = json::value_of(obj, what)?;
        parse_frame(&value).map_err(|(field, message)| error::BindingError::Frame { field, message }.into())
    };
    let (e, a) = (parse(expected, "expected")?, parse(actual, "actual")?);
    Ok(terminal_core::verify::compare_frames(&e, &a).err().map(|d| d.to_string()))
}

#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<rules::Rules>()?;
    m.add_class::<state::GameState>()?;
    m.add_class::<outcome::Outcome>()?;
    m.add_class::<outcome::PlayerOutcome>()?;
    m.add_class::<unit::Unit>()?;
    m.add_class::<commands::Rejection>()?;
    m.add_class::<rules::Commands>()?;
    m.add_class::<self_play::Match>()?;
    m.add("UnsupportedRules", m.py().get_type::<error::UnsupportedRules>())?;
    m.add_function(wrap_pyfunction!(frame_difference, m)?)?;
    m.add_function(wrap_pyfunction!(planner::best_attacks, m)?)?;
    Ok(())
}
