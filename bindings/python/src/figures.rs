//! Figures as the frames show them: the engine keeps HP, SP, MP, health and damage as 32-bit
//! floats, and frames print each as the shortest decimal that reads back as the same f32
//! (10.7). Widening the f32 to a Python float directly would give 10.699999809265137, so
//! `mp() >= 10.7` would be false where the frame says 10.7.

/// The Python float a frame's reader gets for `value`: the shortest decimal that round-trips
/// as this f32, read as an f64.
pub fn shown(value: f32) -> f64 {
    let widened = f64::from(value);
    // Whole numbers (most HP, costs, counts) need no formatting.
    if widened.fract() == 0.0 || !widened.is_finite() {
        return widened;
    }
    // `Display` for f32 prints the shortest round-trip decimal; it always reads back as a
    // float, so the fallback is never taken.
    value.to_string().parse().unwrap_or(widened)
}
