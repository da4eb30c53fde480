//! What a running match is doing, in one line that is always there: which seat the match is
//! waiting for, for how long, against which limits; during start-up, which algo has not
//! answered yet. Figures are the match's own (turns, action frames), as its result gives them.

use super::live_match::LiveMatch;
use terminal_core::engine::geometry::Player;
use web_time::Instant;

fn seconds(ms: u64) -> String {
    let s = ms as f64 / 1000.0;
    if s.fract() == 0.0 { format!("{s:.0} s") } else { format!("{s:.1} s") }
}

/// "(soft limit 5 s, hard 35 s)", with the start-up allowance on turn 0.
fn limits_text(m: &LiveMatch, turn: i32) -> String {
    let Some(w) = &m.waiting else { return String::new() };
    let l = w.limits;
    let hard = match l.max_ms {
        Some(ms) if turn == 0 => format!("hard {} + {} start-up", seconds(ms), seconds(l.startup_ms)),
        Some(ms) => format!("hard {}", seconds(ms)),
        None => "no hard limit".to_string(),
    };
    format!("(soft limit {}, {hard})", seconds(l.soft_ms))
}

/// The line: "P2 py-hang thinking: 12.3 s (soft limit 5 s, hard 35 s)" while a seat thinks,
/// "Waiting for you: your turn 4" on a person's turn.
pub fn line(m: &LiveMatch, now: Instant) -> String {
    let Some(w) = &m.waiting else {
        return format!("Starting the algos: {}", tenths(now.duration_since(m.started).as_secs_f64()));
    };
    let thinking: Vec<Player> = Player::both().into_iter().filter(|p| w.replied[p.index()].is_none()).collect();
    let waited = tenths(now.duration_since(w.since).as_secs_f64());
    let mut parts = Vec::new();
    for p in &thinking {
        let name = &m.names[p.index()];
        if m.is_human(*p) && m.planning.is_none() {
            // The board is still showing the turn before: the plan opens when it gets there.
            parts.push(format!(
                "Your turn {} is next (P{}, no time limit): it opens after the turn before",
                w.turn,
                p.number()
            ));
        } else if m.is_human(*p) {
            parts.push(format!("Waiting for you ({name}, P{}): your turn {}, no time limit", p.number(), w.turn));
        } else if w.turn == 0 {
            parts.push(format!(
                "Starting: P{} {name} has not answered yet: {waited} {}",
                p.number(),
                limits_text(m, w.turn)
            ));
        } else {
            parts.push(format!("P{} {name} thinking: {waited} {}", p.number(), limits_text(m, w.turn)));
        }
    }
    if parts.is_empty() {
        parts.push(format!("Turn {} playing", w.turn));
    }
    format!("{} · turn {}, {} action frames played", parts.join(" · "), m.turn(), m.action_frames)
}

/// Seconds to a tenth: "12.3 s".
fn tenths(s: f64) -> String {
    format!("{s:.1} s")
}
