//! Numbers and compact unit entries read straight from the bytes, exact where the shortcut
//! applies.

use crate::engine::frame::UnitEntry;
use crate::engine::geometry::Tile;

/// Powers of ten exact in `f64` (and in `u64`), for the decimal shortcut.
pub(super) const POW10: [f64; 16] =
    [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
pub(super) const POW10_INT: [u64; 16] = {
    let mut p = [1u64; 16];
    let mut k = 1;
    while k < 16 {
        p[k] = p[k - 1] * 10;
        k += 1;
    }
    p
};

/// The longest integer read: 18 digits always fit in an `i64`.
pub(super) const MAX_INT_DIGITS: usize = 18;
/// The most significant digits of a decimal read: below 2^53, exact in an `f64`.
pub(super) const MAX_DECIMAL_DIGITS: usize = 15;

/// The byte at `i`; 0 past the end (a byte JSON never has outside strings).
#[inline(always)]
pub(super) fn byte(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

/// The run of digits from `i`: its value (wrapping past 19 digits) and where it ends.
#[inline(always)]
pub(super) fn digits_at(b: &[u8], mut i: usize) -> (u64, usize) {
    let mut v = 0u64;
    loop {
        let d = byte(b, i).wrapping_sub(b'0');
        if d > 9 {
            return (v, i);
        }
        v = v.wrapping_mul(10).wrapping_add(u64::from(d));
        i += 1;
    }
}

/// A JSON integer part from `start` to `end`: 1 to `max` digits, no leading zero.
#[inline(always)]
pub(super) fn whole_number(b: &[u8], start: usize, end: usize, max: usize) -> bool {
    let n = end - start;
    n == 1 || (n > 1 && n <= max && b[start] != b'0')
}

/// A unit entry as the engines write it, `[x,y,health,"id"]` with no whitespace, non-negative
/// figures and no exponent, read with its index in a register; and where it ends. `None` for
/// anything else, which `Cursor::unit` reads (or refuses).
#[inline(always)]
pub(super) fn compact_unit(b: &[u8], start: usize) -> Option<(UnitEntry, usize)> {
    if byte(b, start) != b'[' {
        return None;
    }
    let (x, end) = digits_at(b, start + 1);
    if !whole_number(b, start + 1, end, MAX_INT_DIGITS) || byte(b, end) != b',' {
        return None;
    }
    let (y, y_end) = digits_at(b, end + 1);
    if !whole_number(b, end + 1, y_end, MAX_INT_DIGITS) || byte(b, y_end) != b',' {
        return None;
    }
    let (whole, mut end) = digits_at(b, y_end + 1);
    let n = end - y_end - 1;
    if !whole_number(b, y_end + 1, end, MAX_DECIMAL_DIGITS) {
        return None;
    }
    let mut health = whole as i64 as f64;
    if byte(b, end) == b'.' {
        let (fraction, fraction_end) = digits_at(b, end + 1);
        let k = fraction_end - end - 1;
        if k == 0 || n + k > MAX_DECIMAL_DIGITS {
            return None;
        }
        if fraction != 0 {
            health = (whole * POW10_INT[k] + fraction) as i64 as f64 / POW10[k];
        }
        end = fraction_end;
    }
    if byte(b, end) != b',' || byte(b, end + 1) != b'"' {
        return None;
    }
    let (id, id_end) = digits_at(b, end + 2);
    let digits = id_end - end - 2;
    if digits == 0 || digits > 10 || byte(b, id_end) != b'"' || byte(b, id_end + 1) != b']' {
        return None;
    }
    let unit = UnitEntry { tile: Tile::new(x as i32, y as i32), health: health as f32, id: u32::try_from(id).ok()? };
    Some((unit, id_end + 2))
}
