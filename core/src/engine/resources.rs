//! Resource arithmetic: 32-bit floats rounded half up to one decimal (docs/config.md, Rounding).

/// `R(v)`: one-decimal rounding, half up, every step in 32-bit floats.
pub(crate) fn round1(v: f32) -> f32 {
    let t = v * 10.0;
    let n = (t + 0.5).floor();
    n / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_half_up_in_f32() {
        // 3.8 × 0.75 = 2.85 is 2.8499999 in f32, but ×10 gives exactly 28.5 → 2.9.
        assert_eq!(round1(3.8f32 * 0.75f32), 2.9);
        assert_eq!(round1(5.0 * 0.75), 3.8);
        assert_eq!(round1(0.04), 0.0);
        assert_eq!(round1(0.05), 0.1);
        assert_eq!(round1(12.34), 12.3);
    }
}
