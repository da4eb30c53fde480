//! JSON between Python and Rust: algos hold the engine's lines either as text or as the
//! dicts `json.loads` made of them; both are accepted.

use crate::error::BindingError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use serde_json::Value;
use terminal_core::engine::Config;
use terminal_core::engine::frame::Frame;
use terminal_core::replay::frame_to_json;

/// The JSON text of `obj`: the string itself, or `json.dumps` of a dict or list.
pub fn text_of(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    if obj.is_instance_of::<PyString>() {
        return obj.extract::<String>();
    }
    let json = obj.py().import("json")?;
    json.call_method1("dumps", (obj,))?.extract::<String>()
}

/// `obj` (text or parsed JSON) as a serde value; `what` names it in errors.
pub fn value_of(obj: &Bound<'_, PyAny>, what: &'static str) -> PyResult<Value> {
    let text = text_of(obj)?;
    serde_json::from_str(&text).map_err(|source| BindingError::Json { what, source }.into())
}

/// A frame as the dict an algo gets from `json.loads` of the line the engine sends.
pub fn frame_object(py: Python<'_>, config: &Config, frame: &Frame) -> PyResult<Py<PyAny>> {
    to_python(py, &frame_to_json(frame, config.legacy, config.timing.store_bot_times))
}

/// `json.loads(text)`: frames are handed to Python as the dicts algos already work with.
pub fn to_python(py: Python<'_>, text: &str) -> PyResult<Py<PyAny>> {
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}
