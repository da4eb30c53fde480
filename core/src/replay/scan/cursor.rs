//! The cursor over a frame line: whitespace, punctuation, numbers, ids, keys, tiles and the
//! frame's small objects.

use super::numbers::*;
use crate::engine::frame::*;
use crate::engine::geometry::{Player, Tile};

pub(super) struct Cursor<'a> {
    pub(super) b: &'a [u8],
    pub(super) i: usize,
}

impl<'a> Cursor<'a> {
    /// The byte at the cursor; 0 past the end (a byte JSON never has outside strings).
    #[inline(always)]
    pub(super) fn at(&self) -> u8 {
        self.b.get(self.i).copied().unwrap_or(0)
    }

    #[inline]
    pub(super) fn ws(&mut self) {
        while let b' ' | b'\t' | b'\n' | b'\r' = self.at() {
            self.i += 1;
        }
    }

    /// The next byte that is not whitespace.
    #[inline]
    pub(super) fn peek(&mut self) -> u8 {
        self.ws();
        self.at()
    }

    /// Takes `c` if it comes next: at once in the engines' compact lines, after whitespace
    /// in others.
    #[inline(always)]
    pub(super) fn eat(&mut self, c: u8) -> bool {
        if self.at() == c {
            self.i += 1;
            return true;
        }
        self.eat_after_ws(c)
    }

    #[inline(never)]
    pub(super) fn eat_after_ws(&mut self, c: u8) -> bool {
        let found = self.peek() == c;
        self.i += usize::from(found);
        found
    }

    #[inline(always)]
    pub(super) fn expect(&mut self, c: u8) -> Option<()> {
        self.eat(c).then_some(())
    }

    /// Takes `word` (`null`, `true`, `false`) if it comes next.
    pub(super) fn eat_word(&mut self, word: &[u8]) -> bool {
        self.ws();
        let found = self.b[self.i..].starts_with(word);
        if found {
            self.i += word.len();
        }
        found
    }

    /// A run of digits: its value (wrapping past 19 digits) and its length.
    #[inline(always)]
    pub(super) fn digits(&mut self) -> (u64, usize) {
        let start = self.i;
        let mut v = 0u64;
        loop {
            let d = self.at().wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            v = v.wrapping_mul(10).wrapping_add(u64::from(d));
            self.i += 1;
        }
        (v, self.i - start)
    }

    /// The digits of a JSON number's integer part: at least one, no leading zero.
    #[inline(always)]
    pub(super) fn integer_part(&mut self) -> Option<(u64, usize)> {
        let first = self.at();
        let (v, n) = self.digits();
        (n == 1 || (n > 1 && first != b'0')).then_some((v, n))
    }

    /// Skips whitespace where a number or an id is due and takes its minus sign.
    #[inline(always)]
    pub(super) fn sign(&mut self) -> bool {
        if !self.at().is_ascii_digit() {
            self.ws();
        }
        let negative = self.at() == b'-';
        self.i += usize::from(negative);
        negative
    }

    /// A JSON integer (no fraction, no exponent) of at most 18 digits.
    #[inline(always)]
    pub(super) fn int(&mut self) -> Option<i64> {
        let negative = self.sign();
        let (v, n) = self.integer_part()?;
        if n > MAX_INT_DIGITS || matches!(self.at(), b'.' | b'e' | b'E') {
            return None;
        }
        Some(if negative { -(v as i64) } else { v as i64 })
    }

    /// A JSON number without exponent, of at most 15 digits, as the `f64` closest to it.
    #[inline(always)]
    pub(super) fn number(&mut self) -> Option<f64> {
        let negative = self.sign();
        let (whole, n) = self.integer_part()?;
        let v = if self.at() == b'.' {
            self.i += 1;
            let (fraction, k) = self.digits();
            if k == 0 || n + k > MAX_DECIMAL_DIGITS || matches!(self.at(), b'e' | b'E') {
                return None;
            }
            if fraction == 0 {
                // `120.0`, the usual figure: its whole part, no division.
                whole as i64 as f64
            } else {
                (whole * POW10_INT[k] + fraction) as i64 as f64 / POW10[k]
            }
        } else {
            if n > MAX_DECIMAL_DIGITS || matches!(self.at(), b'e' | b'E') {
                return None;
            }
            whole as i64 as f64
        };
        Some(if negative { -v } else { v })
    }

    /// A number narrowed to `f32`, as `parse_frame` reads figures.
    #[inline(always)]
    pub(super) fn figure(&mut self) -> Option<f32> {
        self.number().map(|v| v as f32)
    }

    /// A unit id: a string of 1 to 10 digits within `u32`, or a whole number (truncated to
    /// `u32` as `parse_frame` does).
    #[inline(always)]
    pub(super) fn id(&mut self) -> Option<u32> {
        if self.at() != b'"' {
            return self.numeric_id();
        }
        self.i += 1;
        let (v, n) = self.digits();
        if n == 0 || n > 10 || self.at() != b'"' {
            return None;
        }
        self.i += 1;
        u32::try_from(v).ok()
    }

    #[inline(never)]
    pub(super) fn numeric_id(&mut self) -> Option<u32> {
        if self.peek() == b'"' {
            return self.id();
        }
        let (v, n) = self.integer_part()?;
        if n > MAX_INT_DIGITS || matches!(self.at(), b'.' | b'e' | b'E') {
            return None;
        }
        Some(v as u32)
    }

    pub(super) fn unit_type(&mut self) -> Option<u8> {
        u8::try_from(self.int()?).ok().filter(|t| *t < 8)
    }

    pub(super) fn owner(&mut self) -> Option<Player> {
        Player::from_number(self.int()?)
    }

    /// A key without escapes, and its colon.
    #[inline]
    pub(super) fn key(&mut self) -> Option<&'a [u8]> {
        self.expect(b'"')?;
        let rest = &self.b[self.i..];
        let len = rest.iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
        if rest[len] != b'"' {
            return None;
        }
        self.i += len + 1;
        self.expect(b':')?;
        Some(&rest[..len])
    }

    /// `[x, y]`.
    #[inline]
    pub(super) fn tile(&mut self) -> Option<Tile> {
        self.expect(b'[')?;
        let x = self.int()?;
        self.expect(b',')?;
        let y = self.int()?;
        self.expect(b']')?;
        Some(Tile::new(x as i32, y as i32))
    }

    /// `[phase, turn, actionFrame]` and, after 2019, `totalFrame`.
    pub(super) fn turn_info(&mut self) -> Option<TurnInfo> {
        self.expect(b'[')?;
        let phase = Phase::from_number(self.int()?)?;
        self.expect(b',')?;
        let turn = self.int()? as i32;
        self.expect(b',')?;
        let action_frame = self.int()? as i32;
        let total_frame = if self.eat(b',') { Some(self.int()?) } else { None };
        self.expect(b']')?;
        Some(TurnInfo { phase, turn, action_frame, total_frame })
    }

    /// `[hp, sp, mp, timeMs]`.
    pub(super) fn stats(&mut self) -> Option<Stats> {
        self.expect(b'[')?;
        let hp = self.figure()?;
        self.expect(b',')?;
        let sp = self.figure()?;
        self.expect(b',')?;
        let mp = self.figure()?;
        self.expect(b',')?;
        let time_ms = self.int()?;
        self.expect(b']')?;
        Some(Stats { hp, sp, mp, time_ms })
    }
}
