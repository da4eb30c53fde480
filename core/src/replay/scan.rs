//! The fast path of the frame reader: a hand-written scanner over the bytes of a frame line
//! that reads numbers and ids straight from the bytes, with no JSON tree and no serde. It takes
//! only the shape the engines write (the keys it knows, each once; tiles of two integers, unit
//! entries of four elements, stats of four, plain decimal numbers of at most 15 digits, ids of
//! digits) and gives up (`None`) on anything else: a null where a list belongs, an exponent, an
//! escape in a key, an unknown key, `endStats`, a float where an integer belongs, a number too
//! long for the exact shortcut below. The reader then reads the line the typed way
//! (`typed_frame`) and, failing that, through `parse::parse_frame`, which names the bad field.
//! So every frame it returns is exactly the one `parse_frame` builds from the same line:
//!
//! - an integer of at most 18 digits is exact in an `i64`; narrowing to `i32` (tiles, turn)
//!   and the `u32` of a numeric id truncate as `parse_frame` does;
//! - a decimal of at most 15 significant digits `m` with `k` of them after the point is
//!   `m / 10^k` in `f64`: both exact, and IEEE division rounds correctly, so it is the `f64`
//!   serde_json's exact parser gives; then narrowed to `f32` as `parse_frame` does;
//! - every byte it accepts is one that JSON accepts at that place (no leading zero, no `+`,
//!   no trailing comma, nothing after the object but whitespace).
//!
//! With `skip_action_units`, the unit lists of action frames are skipped to their closing
//! bracket (strings heeded) without being read: they come out as that many empty lists.

use crate::engine::frame::*;
use crate::engine::geometry::{Player, Tile};

/// The scanner, with buffers kept from line to line so that a unit or event list costs one
/// allocation of its exact size.
#[derive(Default)]
pub(super) struct Scanner {
    units: Vec<UnitEntry>,
    events: Events,
}

impl Scanner {
    /// The frame of a line and whether one of its death events lacks the `removed` flag, as
    /// `typed_frame::parse_frame_line` tells them; `None`: not the usual shape, read it
    /// another way. With `skip_action_units`, an action frame's unit lists are left empty
    /// (as many lists as the line has).
    pub(super) fn frame(&mut self, line: &str, skip_action_units: bool) -> Option<(Frame, bool)> {
        let mut c = Cursor { b: line.as_bytes(), i: 0 };
        c.expect(b'{')?;
        let mut frame = Frame::default();
        let mut seen = 0u8;
        let mut death_without_flag = false;
        // Unit lists skipped before `turnInfo` told the phase: where they start, how many.
        let mut skipped: [Option<(usize, usize)>; 2] = [None, None];
        loop {
            let key = c.key()?;
            let bit = match key {
                b"turnInfo" => 0,
                b"p1Stats" => 1,
                b"p2Stats" => 2,
                b"p1Units" => 3,
                b"p2Units" => 4,
                b"events" => 5,
                _ => return None,
            };
            if seen & (1 << bit) != 0 {
                return None;
            }
            seen |= 1 << bit;
            match bit {
                0 => frame.turn_info = c.turn_info()?,
                1 | 2 => frame.stats[bit as usize - 1] = c.stats()?,
                3 | 4 => {
                    let p = bit as usize - 3;
                    let phase_known = seen & 1 != 0;
                    if skip_action_units && !(phase_known && frame.turn_info.phase != Phase::Action) {
                        let start = c.i;
                        let lists = c.skip_lists()?;
                        if phase_known {
                            frame.units[p] = vec![Vec::new(); lists];
                        } else {
                            skipped[p] = Some((start, lists));
                        }
                    } else {
                        frame.units[p] = c.unit_lists(&mut self.units)?;
                    }
                }
                _ => c.events(&mut frame.events, &mut self.events, &mut death_without_flag)?,
            }
            if !c.eat(b',') {
                break;
            }
        }
        c.expect(b'}')?;
        c.ws();
        if c.i != c.b.len() || seen & 1 == 0 {
            return None;
        }
        for (p, skipped) in skipped.into_iter().enumerate() {
            let Some((start, lists)) = skipped else { continue };
            frame.units[p] = if frame.turn_info.phase == Phase::Action {
                vec![Vec::new(); lists]
            } else {
                Cursor { b: c.b, i: start }.unit_lists(&mut self.units)?
            };
        }
        Some((frame, death_without_flag))
    }
}

/// Powers of ten exact in `f64` (and in `u64`), for the decimal shortcut.
const POW10: [f64; 16] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
const POW10_INT: [u64; 16] = {
    let mut p = [1u64; 16];
    let mut k = 1;
    while k < 16 {
        p[k] = p[k - 1] * 10;
        k += 1;
    }
    p
};

/// The longest integer read: 18 digits always fit in an `i64`.
const MAX_INT_DIGITS: usize = 18;
/// The most significant digits of a decimal read: below 2^53, exact in an `f64`.
const MAX_DECIMAL_DIGITS: usize = 15;

/// The byte at `i`; 0 past the end (a byte JSON never has outside strings).
#[inline(always)]
fn byte(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

/// The run of digits from `i`: its value (wrapping past 19 digits) and where it ends.
#[inline(always)]
fn digits_at(b: &[u8], mut i: usize) -> (u64, usize) {
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
fn whole_number(b: &[u8], start: usize, end: usize, max: usize) -> bool {
    let n = end - start;
    n == 1 || (n > 1 && n <= max && b[start] != b'0')
}

/// A unit entry as the engines write it, `[x,y,health,"id"]` with no whitespace, non-negative
/// figures and no exponent, read with its index in a register; and where it ends. `None` for
/// anything else, which `Cursor::unit` reads (or refuses).
#[inline(always)]
fn compact_unit(b: &[u8], start: usize) -> Option<(UnitEntry, usize)> {
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

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    /// The byte at the cursor; 0 past the end (a byte JSON never has outside strings).
    #[inline(always)]
    fn at(&self) -> u8 {
        self.b.get(self.i).copied().unwrap_or(0)
    }

    #[inline]
    fn ws(&mut self) {
        while let b' ' | b'\t' | b'\n' | b'\r' = self.at() {
            self.i += 1;
        }
    }

    /// The next byte that is not whitespace.
    #[inline]
    fn peek(&mut self) -> u8 {
        self.ws();
        self.at()
    }

    /// Takes `c` if it comes next: at once in the engines' compact lines, after whitespace
    /// in others.
    #[inline(always)]
    fn eat(&mut self, c: u8) -> bool {
        if self.at() == c {
            self.i += 1;
            return true;
        }
        self.eat_after_ws(c)
    }

    #[inline(never)]
    fn eat_after_ws(&mut self, c: u8) -> bool {
        let found = self.peek() == c;
        self.i += usize::from(found);
        found
    }

    #[inline(always)]
    fn expect(&mut self, c: u8) -> Option<()> {
        self.eat(c).then_some(())
    }

    /// Takes `word` (`null`, `true`, `false`) if it comes next.
    fn eat_word(&mut self, word: &[u8]) -> bool {
        self.ws();
        let found = self.b[self.i..].starts_with(word);
        if found {
            self.i += word.len();
        }
        found
    }

    /// A run of digits: its value (wrapping past 19 digits) and its length.
    #[inline(always)]
    fn digits(&mut self) -> (u64, usize) {
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
    fn integer_part(&mut self) -> Option<(u64, usize)> {
        let first = self.at();
        let (v, n) = self.digits();
        (n == 1 || (n > 1 && first != b'0')).then_some((v, n))
    }

    /// Skips whitespace where a number or an id is due and takes its minus sign.
    #[inline(always)]
    fn sign(&mut self) -> bool {
        if !self.at().is_ascii_digit() {
            self.ws();
        }
        let negative = self.at() == b'-';
        self.i += usize::from(negative);
        negative
    }

    /// A JSON integer (no fraction, no exponent) of at most 18 digits.
    #[inline(always)]
    fn int(&mut self) -> Option<i64> {
        let negative = self.sign();
        let (v, n) = self.integer_part()?;
        if n > MAX_INT_DIGITS || matches!(self.at(), b'.' | b'e' | b'E') {
            return None;
        }
        Some(if negative { -(v as i64) } else { v as i64 })
    }

    /// A JSON number without exponent, of at most 15 digits, as the `f64` closest to it.
    #[inline(always)]
    fn number(&mut self) -> Option<f64> {
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
    fn figure(&mut self) -> Option<f32> {
        self.number().map(|v| v as f32)
    }

    /// A unit id: a string of 1 to 10 digits within `u32`, or a whole number (truncated to
    /// `u32` as `parse_frame` does).
    #[inline(always)]
    fn id(&mut self) -> Option<u32> {
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
    fn numeric_id(&mut self) -> Option<u32> {
        if self.peek() == b'"' {
            return self.id();
        }
        let (v, n) = self.integer_part()?;
        if n > MAX_INT_DIGITS || matches!(self.at(), b'.' | b'e' | b'E') {
            return None;
        }
        Some(v as u32)
    }

    fn unit_type(&mut self) -> Option<u8> {
        u8::try_from(self.int()?).ok().filter(|t| *t < 8)
    }

    fn owner(&mut self) -> Option<Player> {
        Player::from_number(self.int()?)
    }

    /// A key without escapes, and its colon.
    #[inline]
    fn key(&mut self) -> Option<&'a [u8]> {
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
    fn tile(&mut self) -> Option<Tile> {
        self.expect(b'[')?;
        let x = self.int()?;
        self.expect(b',')?;
        let y = self.int()?;
        self.expect(b']')?;
        Some(Tile::new(x as i32, y as i32))
    }

    /// `[phase, turn, actionFrame]` and, after 2019, `totalFrame`.
    fn turn_info(&mut self) -> Option<TurnInfo> {
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
    fn stats(&mut self) -> Option<Stats> {
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

    /// A player's unit lists, read into `buffer` and copied out at their exact size.
    fn unit_lists(&mut self, buffer: &mut Vec<UnitEntry>) -> Option<Vec<Vec<UnitEntry>>> {
        self.expect(b'[')?;
        let mut lists = Vec::with_capacity(UNIT_LISTS);
        if self.eat(b']') {
            return Some(lists);
        }
        loop {
            lists.push(self.unit_list(buffer)?);
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b']')?;
        Some(lists)
    }

    /// `[[x, y, health, id], …]`.
    #[inline]
    fn unit_list(&mut self, buffer: &mut Vec<UnitEntry>) -> Option<Vec<UnitEntry>> {
        self.expect(b'[')?;
        if self.eat(b']') {
            return Some(Vec::new());
        }
        buffer.clear();
        loop {
            match compact_unit(self.b, self.i) {
                Some((unit, next)) => {
                    buffer.push(unit);
                    self.i = next;
                }
                None => buffer.push(self.unit()?),
            }
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b']')?;
        Some(buffer.as_slice().to_vec())
    }

    /// `[x, y, health, id]` in any form this scanner reads.
    fn unit(&mut self) -> Option<UnitEntry> {
        self.expect(b'[')?;
        let x = self.int()?;
        self.expect(b',')?;
        let y = self.int()?;
        self.expect(b',')?;
        let health = self.figure()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b']')?;
        Some(UnitEntry { tile: Tile::new(x as i32, y as i32), health, id })
    }

    /// Skips a player's unit lists to the closing bracket without reading them (the brackets
    /// and strings are followed, nothing else is checked); returns how many lists there are.
    fn skip_lists(&mut self) -> Option<usize> {
        if self.peek() != b'[' {
            return None;
        }
        let b = self.b;
        let (mut depth, mut lists) = (0usize, 0);
        let mut i = self.i;
        while let Some(&c) = b.get(i) {
            match c {
                b'[' => {
                    depth += 1;
                    lists += usize::from(depth == 2);
                }
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        self.i = i + 1;
                        return Some(lists);
                    }
                }
                b'"' => loop {
                    i += 1;
                    match b.get(i)? {
                        b'"' => break,
                        b'\\' => i += 1,
                        _ => {}
                    }
                },
                b'{' | b'}' => return None,
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// A list of events `[[…], …]`, each read by `event` after its opening bracket, into
    /// `buffer`, then copied to `out`.
    fn event_list<T: Clone>(
        &mut self,
        buffer: &mut Vec<T>,
        out: &mut Vec<T>,
        mut event: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<()> {
        if self.at() != b'[' && self.eat_word(b"null") {
            return Some(());
        }
        self.expect(b'[')?;
        if self.eat(b']') {
            return Some(());
        }
        buffer.clear();
        loop {
            self.expect(b'[')?;
            buffer.push(event(self)?);
            self.expect(b']')?;
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b']')?;
        out.extend_from_slice(buffer);
        Some(())
    }

    /// `events`: an object of the nine lists (each at most once), or null.
    fn events(&mut self, ev: &mut Events, room: &mut Events, death_without_flag: &mut bool) -> Option<()> {
        if self.eat_word(b"null") {
            return Some(());
        }
        self.expect(b'{')?;
        if self.eat(b'}') {
            return Some(());
        }
        let mut seen = 0u16;
        loop {
            let key = self.key()?;
            let bit = match key {
                b"spawn" => 0,
                b"move" => 1,
                b"attack" => 2,
                b"damage" => 3,
                b"death" => 4,
                b"shield" => 5,
                b"breach" => 6,
                b"selfDestruct" => 7,
                b"melee" => 8,
                _ => return None,
            };
            if seen & (1 << bit) != 0 {
                return None;
            }
            seen |= 1 << bit;
            match bit {
                0 => self.event_list(&mut room.spawn, &mut ev.spawn, Self::spawn)?,
                1 => self.event_list(&mut room.moves, &mut ev.moves, Self::move_event)?,
                2 => self.event_list(&mut room.attack, &mut ev.attack, Self::attack)?,
                3 => self.event_list(&mut room.damage, &mut ev.damage, Self::damage)?,
                4 => self.event_list(&mut room.death, &mut ev.death, |c| c.death(death_without_flag))?,
                5 => self.event_list(&mut room.shield, &mut ev.shield, Self::shield)?,
                6 => self.event_list(&mut room.breach, &mut ev.breach, Self::breach)?,
                7 => self.event_list(&mut room.self_destruct, &mut ev.self_destruct, Self::self_destruct)?,
                _ => self.event_list(&mut room.melee, &mut ev.melee, Self::melee)?,
            }
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b'}')
    }

    /// `tile, unitType, id, owner`.
    fn spawn(&mut self) -> Option<SpawnEvent> {
        let tile = self.tile()?;
        self.expect(b',')?;
        let unit_type = self.unit_type()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(SpawnEvent { tile, unit_type, id, owner })
    }

    /// `from, to, [dx, dy], unitType, id, owner` (the third, unused, is read as a tile).
    fn move_event(&mut self) -> Option<MoveEvent> {
        let from = self.tile()?;
        self.expect(b',')?;
        let to = self.tile()?;
        self.expect(b',')?;
        self.tile()?;
        self.expect(b',')?;
        let unit_type = self.unit_type()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(MoveEvent { from, to, unit_type, id, owner })
    }

    /// `from, to, damage, attackerType, attackerId, targetId, owner`.
    fn attack(&mut self) -> Option<AttackEvent> {
        let from = self.tile()?;
        self.expect(b',')?;
        let to = self.tile()?;
        self.expect(b',')?;
        let damage = self.figure()?;
        self.expect(b',')?;
        let attacker_type = self.unit_type()?;
        self.expect(b',')?;
        let attacker_id = self.id()?;
        self.expect(b',')?;
        let target_id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(AttackEvent { from, to, damage, attacker_type, attacker_id, target_id, owner })
    }

    /// `tile, damage, unitType, id, owner`.
    fn damage(&mut self) -> Option<DamageEvent> {
        let tile = self.tile()?;
        self.expect(b',')?;
        let damage = self.figure()?;
        self.expect(b',')?;
        let unit_type = self.unit_type()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(DamageEvent { tile, damage, unit_type, id, owner })
    }

    /// `tile, unitType, id, owner` and, after August 2018, `removed` (`true` or `false`).
    fn death(&mut self, without_flag: &mut bool) -> Option<DeathEvent> {
        let tile = self.tile()?;
        self.expect(b',')?;
        let unit_type = self.unit_type()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        let removed = if self.eat(b',') {
            if self.eat_word(b"true") {
                true
            } else if self.eat_word(b"false") {
                false
            } else {
                return None;
            }
        } else {
            *without_flag = true;
            false
        };
        Some(DeathEvent { tile, unit_type, id, owner, removed })
    }

    /// `from, to, amount, supportType, supportId, targetId, owner`.
    fn shield(&mut self) -> Option<ShieldEvent> {
        let from = self.tile()?;
        self.expect(b',')?;
        let to = self.tile()?;
        self.expect(b',')?;
        let amount = self.figure()?;
        self.expect(b',')?;
        let support_type = self.unit_type()?;
        self.expect(b',')?;
        let support_id = self.id()?;
        self.expect(b',')?;
        let target_id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(ShieldEvent { from, to, amount, support_type, support_id, target_id, owner })
    }

    /// `tile, damage, unitType, id, owner`.
    fn breach(&mut self) -> Option<BreachEvent> {
        let tile = self.tile()?;
        self.expect(b',')?;
        let damage = self.figure()?;
        self.expect(b',')?;
        let unit_type = self.unit_type()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(BreachEvent { tile, damage, unit_type, id, owner })
    }

    /// `tile, [victim tiles], damage, unitType, id, owner`.
    fn self_destruct(&mut self) -> Option<SelfDestructEvent> {
        let tile = self.tile()?;
        self.expect(b',')?;
        self.expect(b'[')?;
        let mut victims = Vec::new();
        if !self.eat(b']') {
            loop {
                victims.push(self.tile()?);
                if !self.eat(b',') {
                    break;
                }
            }
            self.expect(b']')?;
        }
        self.expect(b',')?;
        let damage = self.figure()?;
        self.expect(b',')?;
        let unit_type = self.unit_type()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(SelfDestructEvent { tile, victims, damage, unit_type, id, owner })
    }

    /// `from, to, damage, unitType, id, owner` (2018).
    fn melee(&mut self) -> Option<MeleeEvent> {
        let from = self.tile()?;
        self.expect(b',')?;
        let to = self.tile()?;
        self.expect(b',')?;
        let damage = self.figure()?;
        self.expect(b',')?;
        let unit_type = self.unit_type()?;
        self.expect(b',')?;
        let id = self.id()?;
        self.expect(b',')?;
        let owner = self.owner()?;
        Some(MeleeEvent { from, to, damage, unit_type, id, owner })
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse_frame;
    use super::super::reader::maybe_gunzip;
    use super::super::typed_frame::parse_frame_line;
    use super::Scanner;
    use crate::engine::frame::{Frame, Phase};
    use proptest::prelude::*;
    use serde_json::Value;
    use std::path::Path;

    /// The frame `parse_frame` builds from the line, `None` where it refuses it.
    fn slow(line: &str) -> Option<Frame> {
        let v: Value = serde_json::from_str(line).ok()?;
        parse_frame(&v).ok()
    }

    /// The frame a summary keeps of a full one.
    fn summary_of(mut frame: Frame) -> Frame {
        if frame.turn_info.phase == Phase::Action {
            frame.units = frame.units.map(|lists| vec![Vec::new(); lists.len()]);
        }
        frame
    }

    /// Every line the scanner accepts gives the frame `parse_frame` gives, and the death flag
    /// the typed reader gives; a summary, the same frame without its action units.
    fn agrees(line: &str) -> bool {
        let mut scanner = Scanner::default();
        let full = scanner.frame(line, false);
        let full_agrees = full.as_ref().is_none_or(|(fast, flag)| {
            Some(fast) == slow(line).as_ref()
                && parse_frame_line(line).is_none_or(|(_, typed_flag)| typed_flag == *flag)
        });
        // A summary does not read the unit lists of action frames: a bad unit there is missed.
        let summary_agrees = scanner.frame(line, true).is_none_or(|(fast, _)| match slow(line) {
            Some(frame) => fast == summary_of(frame),
            None => fast.turn_info.phase == Phase::Action,
        });
        full_agrees && summary_agrees
    }

    fn real_frame_lines(per_ruleset: usize) -> Vec<(String, String)> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/replays");
        let rulesets = std::fs::read_dir(&root).unwrap_or_else(|e| panic!("{}: {e}", root.display()));
        let mut lines = Vec::new();
        for ruleset in rulesets.flatten().filter(|e| e.path().is_dir()) {
            let mut files: Vec<_> = std::fs::read_dir(ruleset.path()).expect("ruleset folder").flatten().collect();
            files.sort_by_key(|e| e.path());
            for file in files.iter().take(per_ruleset) {
                let bytes = std::fs::read(file.path()).expect("replay file");
                let data = maybe_gunzip(&bytes).expect("gzip");
                for line in String::from_utf8_lossy(&data).lines().filter(|l| l.contains("\"turnInfo\"")) {
                    lines.push((file.path().display().to_string(), line.trim().to_string()));
                }
            }
        }
        lines
    }

    #[test]
    fn real_replays_of_every_ruleset_scan_as_parse_frame_reads_them() {
        let lines = real_frame_lines(3);
        let mut scanned = 0;
        for (file, line) in &lines {
            assert!(agrees(line), "{file}: {}", &line[..line.len().min(200)]);
            scanned += usize::from(Scanner::default().frame(line, false).is_some());
        }
        assert!(lines.len() > 5_000, "only {} frame lines read", lines.len());
        // The end frames (`endStats`) and a few odd 2018 lines go the typed way.
        assert!(scanned * 100 >= lines.len() * 97, "{scanned} of {} lines scanned", lines.len());
    }

    const FRAME: &str = r#"{"p2Units":[[[19,15,120.0,"27"]],[],[[27,14,75.5,"19"],[0,14,0.06,"20"]],[],[],[],[],[]],"turnInfo":[1,4,0,78],"p1Stats":[40.0,0.0,26.06,240],"p1Units":[[[2,12,60.0,"17"]],[],[],[[24,11,15.0,"32"]],[],[],[[2,12,1.0,"17"]],[]],"p2Stats":[39.0,0.0,0.0,5],"events":{"selfDestruct":[[[4,13],[[4,14],[5,14]],40.0,5,"99",1]],"breach":[[[3,17],1.0,3,"74",1]],"damage":[[[2,16],20.0,4,"33",2]],"shield":[[[4,9],[1,12],7.6000004,1,"120","138",1]],"move":[[[24,10],[24,11],[0,0],3,"32",1]],"spawn":[[[1,13],7,"27",1]],"death":[[[2,16],4,"33",2,false]],"attack":[[[1,13],[2,16],20.0,2,"27","33",1]],"melee":[[[1,1],[1,2],3.5,3,"8",2]]}}"#;

    /// Changes to `FRAME`: each line made is scanned as `parse_frame` reads it, or left to it.
    const SWAPS: &[(&str, &str)] = &[
        (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":null"#),
        (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[39]"#),
        (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[39.0,0.0,0.0,5.5]"#),
        (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[39.0,0.0,0.0,5,6]"#),
        (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[3.9e1,0.0,0.0,5]"#),
        (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[039.0,0.0,0.0,5]"#),
        (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[-0,-0.0,-1.25,-0]"#),
        (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[39.,0.0,0.0,5]"#),
        (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[+39,0.0,0.0,5]"#),
        (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[0.1234567890123456789,0.0,0.0,5]"#),
        (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[123456789012345,0.30000000000000004,0.0,5]"#),
        (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats":[39.0,0.0,0.0,99999999999999999999]"#),
        (r#""p2Stats":[39.0,0.0,0.0,5]"#, r#""p2Stats" : [ 39.0 , 0.0,0.0 ,5 ] "#),
        ("[1,4,0,78]", "[1,4,0]"),
        ("[1,4,0,78]", "[1,4]"),
        ("[1,4,0,78]", "[1.0,4,0,78]"),
        ("[1,4,0,78]", "[3,4,0,78]"),
        ("[1,4,0,78]", "[1,4,0,78,]"),
        ("[1,4,0,78]", "[1,4,0,78,9]"),
        ("[1,4,0,78]", "[1,4,0,4294967296]"),
        (r#""17"]],[]"#, r#"17]],[]"#),
        (r#""17"]],[]"#, r#"-17]],[]"#),
        (r#""17"]],[]"#, r#"17.5]],[]"#),
        (r#""17"]],[]"#, r#""+17"]],[]"#),
        (r#""17"]],[]"#, r#"" 17"]],[]"#),
        (r#""17"]],[]"#, r#""017"]],[]"#),
        (r#""17"]],[]"#, r#""4294967296"]],[]"#),
        (r#""17"]],[]"#, r#"4294967296]],[]"#),
        (r#""17"]],[]"#, r#""17","x"]],[]"#),
        (r#""17"]],[]"#, r#""1\u0037"]],[]"#),
        (r#"[[2,12,60.0,"17"]]"#, r#"[[2,12,60.0]]"#),
        (r#"[[2,12,60.0,"17"]]"#, r#"[[2,12,60.0,"17"],]"#),
        (r#"[[2,12,60.0,"17"]]"#, r#"[[2, 12, 60 ,"17"] ]"#),
        (r#"[[2,12,60.0,"17"]]"#, r#"[null]"#),
        ("[19,15,120.0", "[19,15,1.0E2"),
        ("[19,15,120.0", "[19.5,15,120.0"),
        ("[19,15,120.0", "[-19,-15,-120.0"),
        (r#""74",1]"#, r#""74",3]"#),
        (r#""74",1]"#, r#""74",0]"#),
        (r#"[[2,16],4,"33",2,false]"#, r#"[[2,16],4,"33",2]"#),
        (r#"[[2,16],4,"33",2,false]"#, r#"[[2,16],4,"33",2,true]"#),
        (r#"[[2,16],4,"33",2,false]"#, r#"[[2,16],4,"33",2,1]"#),
        (r#"[[2,16],4,"33",2,false]"#, r#"[[2,16],4,"33",2,false,0]"#),
        (r#"[[2,16],4,"33",2,false]"#, r#"[[2,16],9,"33",2,false]"#),
        (r#"[24,11],[0,0],3"#, r#"[24,11],null,3"#),
        (r#"[24,11],[0,0],3"#, r#"[24,11],[0,0,1],3"#),
        (r#"[[4,14],[5,14]]"#, r#"[]"#),
        (r#"[[4,14],[5,14]]"#, r#"[[4,14,1]]"#),
        (r#""spawn":[[[1,13],7,"27",1]]"#, r#""spawn":null"#),
        (r#""spawn":[[[1,13],7,"27",1]]"#, r#""spawn":[]"#),
        (r#""spawn":[[[1,13],7,"27",1]]"#, r#""spawn":{}"#),
        (r#""spawn":[[[1,13],7,"27",1]]"#, r#""spawn":[[[1,13],7,"27",1],"#),
        (r#""melee":"#, r#""melee":[],"melee":"#),
        (r#""melee":"#, r#""other":[],"melee":"#),
        (r#""melee":"#, r#""me\u006cee":"#),
        (r#""events":{"#, r#""events":null,"x":{"#),
        (r#""events":{"#, r#""events":{},"x":{"#),
        (r#""events":{"#, r#""events":[],"x":{"#),
        (r#""turnInfo":"#, r#""turnInfo":[1,1,1,1],"turnInfo":"#),
        (r#""turnInfo":"#, r#""endStats":{"winner":1},"turnInfo":"#),
        (r#""turnInfo":"#, r#""unknown":1,"turnInfo":"#),
        (r#""turnInfo":[1,4,0,78],"#, ""),
        (r#""p1Units":"#, r#""p1Units":[],"x":"#),
        (r#""p1Units":"#, r#""p1Units":null,"x":"#),
        (r#""p2Units":"#, r#""p2Units":[[],[],[],[],[],[],[],[],[]],"x":"#),
        (r#""p2Units":[[[19,15,120.0,"27"]]"#, r#""p2Units":[[[19,15,120.0,"2]7"]]"#),
        (r#""p2Units":[[[19,15,120.0,"27"]]"#, r#""p2Units":[[[19,15,{},"27"]]"#),
        ("}}", "}} x"),
        ("}}", "}}  \t"),
        ("}}", "},}"),
        ("}}", "}"),
    ];

    #[test]
    fn the_usual_shape_is_scanned_and_odd_lines_are_left_to_the_others_or_read_the_same() {
        let (fast, flag) = Scanner::default().frame(FRAME, false).expect("the usual shape is scanned");
        assert_eq!(Some(fast), slow(FRAME));
        assert!(!flag);
        let (summary, _) = Scanner::default().frame(FRAME, true).expect("the usual shape is scanned");
        assert_eq!(summary.units.each_ref().map(Vec::len), [8, 8], "as many lists, empty");
        assert!(summary.units.iter().flatten().all(Vec::is_empty));
        let turn_frame = FRAME.replace("[1,4,0,78]", "[0,4,-1,78]");
        assert_eq!(
            Scanner::default().frame(&turn_frame, true).map(|f| f.0),
            slow(&turn_frame),
            "turn frames keep units"
        );
        for (from, to) in SWAPS {
            assert!(FRAME.contains(from), "{from}");
            for line in [FRAME.replacen(from, to, 1), turn_frame.replacen(from, to, 1)] {
                assert!(agrees(&line), "{line}");
            }
        }
    }

    /// Bytes a mutation puts in: JSON's punctuation, words and numbers of every kind.
    const PIECES: &[&str] = &[
        "",
        "0",
        "1",
        "-",
        ".",
        "e",
        "E5",
        "\"",
        "[",
        "]",
        ",",
        " ",
        "\n",
        "null",
        "true",
        "false",
        "{",
        "}",
        ":",
        "\\",
        "9999999999",
        "00",
        "+",
        "x",
        "[]",
        "[0,0]",
        "1.5",
        "-0",
        "\"7\"",
        "0.1",
        "\u{e9}",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

        /// A line with a few bytes changed, cut or added is scanned as `parse_frame` reads it,
        /// or left to it.
        #[test]
        fn mutated_lines_are_scanned_as_parse_frame_reads_them(
            edits in proptest::collection::vec((0usize..2000, 0usize..4, 0usize..PIECES.len()), 1..4),
            turn_frame in any::<bool>(),
        ) {
            let mut line = if turn_frame { FRAME.replace("[1,4,0,78]", "[0,4,-1,78]") } else { FRAME.to_string() };
            for (at, cut, piece) in edits {
                let mut at = at % (line.len() + 1);
                while !line.is_char_boundary(at) {
                    at -= 1;
                }
                let mut end = (at + cut).min(line.len());
                while !line.is_char_boundary(end) {
                    end += 1;
                }
                line.replace_range(at..end, PIECES[piece]);
            }
            prop_assert!(agrees(&line), "{}", line);
        }

        /// Numbers of every size and form read as serde_json reads them.
        #[test]
        fn numbers_are_read_as_serde_json_reads_them(
            whole in "-?(0|[1-9][0-9]{0,20})",
            fraction in proptest::option::of("[0-9]{1,20}"),
            exponent in proptest::option::of("[eE][+-]?[0-9]{1,3}"),
        ) {
            let number = format!("{whole}{}{}", fraction.map(|f| format!(".{f}")).unwrap_or_default(), exponent.unwrap_or_default());
            let line = FRAME
                .replacen("60.0", &number, 1)
                .replacen("[39.0,", &format!("[{number},"), 1)
                .replacen("[1,13],[2,16],20.0", &format!("[1,13],[2,16],{number}"), 1);
            prop_assert!(agrees(&line), "{}", line);
            let id = FRAME.replacen(r#""17"]],[]"#, &format!("{number}]],[]"), 1);
            prop_assert!(agrees(&id), "{}", id);
            let tile = FRAME.replacen("[19,15,", &format!("[{number},15,"), 1);
            prop_assert!(agrees(&tile), "{}", tile);
        }
    }
}
