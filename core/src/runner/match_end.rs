//! The end of a match: the algos' input closed and each given a grace to exit, what they
//! left unread logged, the confinement rule a confined algo broke named, and each seat's
//! final result with the game's last word on its player.

use super::match_log::MatchLog;
use super::result::PlayerResult;
use super::seat::Seat;
use crate::engine::config::Config;
use crate::engine::game::Game;
use std::time::Duration;
use web_time::Instant;

/// Longest wait for an algo to exit by itself after the end frame.
const END_GRACE_MAX_MS: u64 = 1000;

/// After the end frame: the algos' input closed, each given until the config's end-of-game
/// time (at most `END_GRACE_MAX_MS`) to exit, and what they left unread or broke logged.
pub(super) fn shut_down_seats(seats: &mut [Seat; 2], log: &mut MatchLog, config: &Config) {
    for s in seats.iter_mut() {
        s.close_stdin();
    }
    let grace = Instant::now() + Duration::from_millis(config.timing.end_game_ms.min(END_GRACE_MAX_MS));
    for s in seats.iter_mut() {
        s.shut_down(grace);
        let undelivered = s.result.lines_not_delivered;
        if undelivered > 0 {
            let msg = format!("stopped reading its input: {undelivered} frames not delivered");
            log.line(None, Some(s.player), &msg);
        }
        name_rule_hit(s, log);
    }
}

/// A seat's result with the game's last word on its player.
pub(super) fn final_seat_result(game: &Game, seat: Seat) -> PlayerResult {
    let ps = game.player(seat.player);
    let mut r = seat.result;
    r.name = ps.name.clone();
    r.final_hp = ps.stats.hp;
    r.crashed = ps.crashed;
    r.timeout_death = ps.timeout_death;
    r.time_damage_taken = ps.time_damage_taken;
    r.total_computation_time = ps.total_computation_time;
    r
}

/// Names the confinement rule a confined algo that ended early broke, once, in the match
/// log, its stderr log and its result (the summary shows it).
fn name_rule_hit(s: &mut Seat, log: &mut MatchLog) {
    let ended_early = s.result.crash_turn.is_some() || s.result.silent_from_turn.is_some();
    // What the runner saw (the watch acted, the Job Object refused) counts always; a rule
    // read from the algo's end only if it ended early.
    let hit = match s.seen_rule_hit() {
        Some(hit) => hit,
        None if ended_early => match s.rule_hit_from_its_end() {
            Some(hit) => hit,
            None => return,
        },
        None => return,
    };
    let line = format!("confinement: {hit}");
    log.line(s.result.crash_turn.or(s.result.silent_from_turn), Some(s.player), &line);
    s.note_in_stderr_log(&line);
    s.result.rule_hit = Some(hit.to_string());
}
