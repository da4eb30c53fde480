//! Frame comparison as docs/replay-format.md (Comparing two replays) says: ordered lists as sequences, the lists the
//! engine does not order as multisets; floats compared exactly as `f32`.

use crate::engine::frame::*;
use std::fmt::Debug;

/// The first difference between an expected and an actual frame, described for a person
/// (which list or field, at which index, both values).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct FrameDifference(pub String);

fn show<T: Debug>(items: &[T]) -> String {
    let s = format!("{items:?}");
    if s.len() > 600 { format!("{}… ({} items)", &s[..600], items.len()) } else { s }
}

fn sequence<T: Debug + PartialEq>(what: &str, expected: &[T], actual: &[T]) -> Result<(), FrameDifference> {
    if expected == actual {
        return Ok(());
    }
    let first = expected.iter().zip(actual).position(|(a, b)| a != b).unwrap_or(expected.len().min(actual.len()));
    Err(FrameDifference(format!(
        "{what}: first difference at index {first} (expected {} items, got {})\n    expected: {}\n    actual:   {}",
        expected.len(),
        actual.len(),
        expected.get(first).map(|e| format!("{e:?}")).unwrap_or_else(|| "(nothing)".into()),
        actual.get(first).map(|e| format!("{e:?}")).unwrap_or_else(|| "(nothing)".into()),
    )))
}

fn keys<T: Debug>(items: &[T]) -> Vec<String> {
    let mut k: Vec<String> = items.iter().map(|i| format!("{i:?}")).collect();
    k.sort();
    k
}

fn multiset<T: Debug>(what: &str, expected: &[T], actual: &[T]) -> Result<(), FrameDifference> {
    let (e, a) = (keys(expected), keys(actual));
    if e == a {
        return Ok(());
    }
    // Counted per key: a key present on both sides but more often on one is reported too.
    let count = |v: &[String], k: &String| v.iter().filter(|x| *x == k).count();
    let surplus = |of: &[String], over: &[String]| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for k in of {
            let n = count(of, k).saturating_sub(count(over, k));
            if n > 0 && !out.iter().any(|o| o.ends_with(k.as_str())) {
                out.push(if n > 1 { format!("{n}× {k}") } else { k.clone() });
            }
        }
        out
    };
    let (missing, extra) = (surplus(&e, &a), surplus(&a, &e));
    Err(FrameDifference(format!(
        "{what} (unordered) differ\n    missing: {}\n    extra:   {}",
        show(&missing),
        show(&extra)
    )))
}

fn canonical_self_destruct(list: &[SelfDestructEvent]) -> Vec<SelfDestructEvent> {
    list.iter()
        .map(|e| {
            let mut e = e.clone();
            e.victims.sort();
            e
        })
        .collect()
}

/// `legacy`: frames of the 2018–2019 engines, which list shields in an order no property of
/// the Supports explains (docs/fidelity.md); their shields are compared as a multiset only.
fn compare_events_in(expected: &Events, actual: &Events, legacy: bool) -> Result<(), FrameDifference> {
    sequence("spawn events", &expected.spawn, &actual.spawn)?;
    sequence("move events", &expected.moves, &actual.moves)?;
    sequence("attack events", &expected.attack, &actual.attack)?;
    if legacy {
        // The 2018–2019 engines interleave each unit's attack with its blast, whose victims
        // come in no fixed order, after the melee hits (also unordered).
        multiset("damage events", &expected.damage, &actual.damage)?;
    } else {
        // The self-destruct hits first (unordered), then one per attack, in order.
        let before_attacks = |e: &Events| e.damage.len().saturating_sub(e.attack.len());
        let (pe, pa) = (before_attacks(expected), before_attacks(actual));
        multiset("self-destruct damage events", &expected.damage[..pe], &actual.damage[..pa])?;
        sequence("attack damage events", &expected.damage[pe..], &actual.damage[pa..])?;
    }
    multiset(
        "selfDestruct events",
        &canonical_self_destruct(&expected.self_destruct),
        &canonical_self_destruct(&actual.self_destruct),
    )?;
    // Shields: grouped by Support in ascending id; recipients of one Support unordered.
    let groups = |e: &Events| {
        let mut g: Vec<u32> = e.shield.iter().map(|s| s.support_id).collect();
        g.dedup();
        g
    };
    if !legacy {
        sequence("shield groups (support ids)", &groups(expected), &groups(actual))?;
    }
    multiset("shield events", &expected.shield, &actual.shield)?;
    multiset("death events", &expected.death, &actual.death)?;
    multiset("breach events", &expected.breach, &actual.breach)?;
    // The 2018–2019 engines list melee hits in an order no property of the units explains
    // (docs/fidelity.md): compared as a multiset.
    multiset("melee events", &expected.melee, &actual.melee)?;
    Ok(())
}

fn compare_end_stats(expected: &EndStats, actual: &EndStats) -> Result<(), FrameDifference> {
    let mut e = expected.clone();
    let mut a = actual.clone();
    // Wall-clock duration and algo names are not simulated.
    e.duration = 0;
    a.duration = 0;
    for p in e.players.iter_mut().chain(a.players.iter_mut()) {
        p.name.clear();
    }
    if e == a {
        Ok(())
    } else {
        Err(FrameDifference(format!("endStats differ\n    expected: {e:?}\n    actual:   {a:?}")))
    }
}

/// Compares two frames. `Err` describes the first difference found.
pub fn compare_frames(expected: &Frame, actual: &Frame) -> Result<(), FrameDifference> {
    let (et, at) = (&expected.turn_info, &actual.turn_info);
    if et.phase != at.phase
        || et.turn != at.turn
        || et.action_frame != at.action_frame
        || (et.total_frame.is_some() && et.total_frame != at.total_frame)
    {
        return Err(FrameDifference(format!("turnInfo differs: expected {et:?}, got {at:?}")));
    }
    for (i, name) in ["p1Stats", "p2Stats"].iter().enumerate() {
        let (e, a) = (&expected.stats[i], &actual.stats[i]);
        if e.hp.to_bits() != a.hp.to_bits()
            || e.sp.to_bits() != a.sp.to_bits()
            || e.mp.to_bits() != a.mp.to_bits()
            || e.time_ms != a.time_ms
        {
            return Err(FrameDifference(format!(
                "{name} differ: expected [{}, {}, {}, {}], got [{}, {}, {}, {}]",
                e.hp, e.sp, e.mp, e.time_ms, a.hp, a.sp, a.mp, a.time_ms
            )));
        }
    }
    for (p, name) in ["p1Units", "p2Units"].iter().enumerate() {
        let lists = expected.units[p].len().max(actual.units[p].len());
        let empty = Vec::new();
        for i in 0..lists {
            let e = expected.units[p].get(i).unwrap_or(&empty);
            let a = actual.units[p].get(i).unwrap_or(&empty);
            sequence(&format!("{name}[{i}]"), e, a)?;
        }
    }
    // Only the 2018–2019 format has a 3-element `turnInfo`.
    let legacy = et.total_frame.is_none();
    compare_events_in(&expected.events, &actual.events, legacy)?;
    match (&expected.end_stats, &actual.end_stats) {
        (Some(e), Some(a)) => compare_end_stats(e, a),
        (None, None) => Ok(()),
        (Some(_), None) => Err(FrameDifference("endStats missing".into())),
        (None, Some(_)) => Err(FrameDifference("unexpected endStats".into())),
    }
}

/// How closely one replay's frames follow another's.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReplayMatch {
    pub frames_total: usize,
    pub frames_exact: usize,
    /// The first frame that differs: its index and the difference.
    pub first_difference: Option<(usize, FrameDifference)>,
}

impl ReplayMatch {
    pub fn is_exact(&self) -> bool {
        self.first_difference.is_none() && self.frames_exact == self.frames_total
    }
}

/// Compares `actual` with `expected` frame by frame, in order; frames one has and the other
/// lacks count as differing.
pub fn compare_replays(expected: &[Frame], actual: &[Frame]) -> ReplayMatch {
    let mut m = ReplayMatch { frames_total: expected.len().max(actual.len()), ..ReplayMatch::default() };
    for (k, (e, a)) in expected.iter().zip(actual).enumerate() {
        match compare_frames(e, a) {
            Ok(()) => m.frames_exact += 1,
            Err(d) if m.first_difference.is_none() => m.first_difference = Some((k, d)),
            Err(_) => {}
        }
    }
    if m.first_difference.is_none() && expected.len() != actual.len() {
        let k = expected.len().min(actual.len());
        let d = FrameDifference(format!("expected {} frames, got {}", expected.len(), actual.len()));
        m.first_difference = Some((k, d));
    }
    m
}
