//! Resource arithmetic: 32-bit floats rounded half up to one decimal (docs/config.md, Rounding).

/// `R(v)`: one-decimal rounding, half up, every step in 32-bit floats.
pub(crate) fn round1(v: f32) -> f32 {
    let t = v * 10.0;
    let n = floor(t + 0.5);
    n / 10.0
}

/// `x.floor()` without a call into the C library (the baseline x86-64 target has no
/// rounding instruction, and resources are rounded several times a command and a turn).
/// From 2^23 on every `f32` is a whole number; NaN and the infinities fall through as well.
#[inline]
fn floor(x: f32) -> f32 {
    if x.abs() < 8_388_608.0 {
        // The sign kept: −0.0 and (−1, 0) as the library gives them.
        let whole = (x as i32 as f32).copysign(x);
        if whole > x { whole - 1.0 } else { whole }
    } else {
        x
    }
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

    #[test]
    fn floor_is_the_library_floor() {
        let special = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 0.999_999_9, -0.000_001, 8_388_607.5, -8_388_607.5];
        let large = [8_388_608.0, -8_388_608.0, 1e30, -1e30, f32::MAX, f32::MIN, f32::INFINITY, f32::NEG_INFINITY];
        for x in special.into_iter().chain(large) {
            assert_eq!(floor(x).to_bits(), x.floor().to_bits(), "{x}");
        }
        assert!(floor(f32::NAN).is_nan());
        // Every f32 bit pattern in a stride over the whole range.
        for bits in (0..u32::MAX).step_by(4_099) {
            let x = f32::from_bits(bits);
            if !x.is_nan() {
                assert_eq!(floor(x).to_bits(), x.floor().to_bits(), "{x} ({bits:#x})");
            }
        }
    }
}
