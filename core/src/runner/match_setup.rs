//! A match's start: the seats' names and algos, the replay file, the algos' environment,
//! the match log's first lines and the game that sends the config line.

use super::locate::{AlgoLocation, LocateError};
use super::match_log::MatchLog;
use super::result::RunnerError;
use super::seat::{Seat, SeatContext};
use super::seat_spec::SeatSpec;
use super::spec::{MatchSpec, ReplayTarget, TimeLimits, overrides_wait_forever, unique_replay_path};
use crate::engine::config::Config;
use crate::engine::game::Game;
use crate::engine::geometry::Player;
use crate::replay::ReplayWriter;
use std::sync::Arc;

pub(super) fn open_replay(spec: &MatchSpec, config: &Config, names: &[String; 2]) -> Result<ReplayWriter, RunnerError> {
    match &spec.replay {
        ReplayTarget::File(path) => {
            if path.exists() {
                return Err(RunnerError::Replay(format!("{} already exists", path.display())));
            }
            ReplayWriter::create(path, config).map_err(RunnerError::io("create the replay", path))
        }
        ReplayTarget::Dir(dir) => {
            let mut last = None;
            for _ in 0..100 {
                let path = unique_replay_path(dir, &names[0], &names[1]);
                match ReplayWriter::create(&path, config) {
                    Ok(w) => return Ok(w),
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                    Err(e) => return Err(RunnerError::io("create the replay", path)(e)),
                }
            }
            Err(RunnerError::Replay(format!("{}: no free file name ({last:?})", dir.display())))
        }
    }
}

/// The name each seat plays under: the algo's, the ghost's or the person's; an algo that
/// cannot be found plays as one that failed to load.
pub(super) fn seat_names(spec: &MatchSpec, locations: &[Option<Result<AlgoLocation, LocateError>>; 2]) -> [String; 2] {
    [Player::One, Player::Two].map(|p| match (&spec.seats[p.index()], &locations[p.index()]) {
        (_, Some(Ok(l))) => l.name.clone(),
        (_, Some(Err(_))) => super::seat::FAILED_TO_LOAD.into(),
        (SeatSpec::Ghost(g), None) => g.name_in(p),
        (SeatSpec::Human(h), None) => h.name.clone(),
        (SeatSpec::Algo(_), None) => super::seat::FAILED_TO_LOAD.into(),
    })
}

/// The algos' environment: the match's, plus its seed (also as `ALGO_SEED` unless that is
/// set already).
pub(super) fn algo_env(spec: &MatchSpec) -> Vec<(String, String)> {
    let mut env = spec.env.clone();
    if let Some(seed) = spec.seed {
        env.push(("TERMINAL_STUDIO_SEED".into(), seed.to_string()));
        if !env.iter().any(|(k, _)| k == "ALGO_SEED") {
            env.push(("ALGO_SEED".into(), seed.to_string()));
        }
    }
    env
}

/// Both seats, their algos started.
pub(super) fn start_seats(
    spec: &MatchSpec,
    locations: [Option<Result<AlgoLocation, LocateError>>; 2],
    ctx: &SeatContext<'_>,
) -> [Seat; 2] {
    let [l1, l2] = locations;
    [(Player::One, l1), (Player::Two, l2)].map(|(p, location)| match (&spec.seats[p.index()], location) {
        (SeatSpec::Algo(path), Some(location)) => Seat::start(p, location, path, ctx),
        (SeatSpec::Ghost(g), _) => Seat::ghost(p, g.clone()),
        (SeatSpec::Human(h), _) => Seat::human(p, h.clone()),
        (SeatSpec::Algo(path), None) => Seat::start(p, Err(LocateError::Missing(path.clone())), path, ctx),
    })
}

/// The time rules in force, for the match log: with waitForever the engine neither
/// penalises nor skips a turn.
pub(super) fn limits_text(spec: &MatchSpec, config: &Config, limits: &TimeLimits) -> String {
    if config.timing.wait_forever {
        return "no time limits (waitForever: no soft-limit penalty, no hard limit; an algo that hangs holds the \
                match until it is stopped, --max-ms sets a limit)"
            .to_string();
    }
    let overridden = if overrides_wait_forever(spec) {
        " (the limits asked for override the config's waitForever, written as false in the config sent and \
         recorded)"
    } else {
        ""
    };
    format!(
        "soft limit {} ms, hard limit {}, start-up allowance {} ms{overridden}",
        limits.soft_ms,
        limits.max_ms.map(|m| format!("{m} ms")).unwrap_or_else(|| "none".into()),
        limits.startup_ms
    )
}

/// What each seat is, in the match log: an algo that did not start, how an algo was started
/// and confined, or which recorded player a ghost replays.
pub(super) fn log_seats(log: &mut MatchLog, seats: &[Seat; 2]) {
    for s in seats {
        if let Some(e) = &s.result.load_error {
            log.line(None, Some(s.player), &format!("cannot start the algo: {e}"));
        }
        if let Some(launch) = &s.result.launch {
            log.line(None, Some(s.player), &format!("started {launch}"));
            match &s.result.confinement {
                Some(c) => log.line(None, Some(s.player), &format!("confined: {c}")),
                None => log.line(None, Some(s.player), "not confined (confinement turned off): it runs as you do"),
            }
        }
        if let Some((g, recorded)) = s.ghost_of() {
            let what = format!(
                "a ghost: player {} of {} ({} turns recorded), in this seat's own view",
                recorded.number(),
                g.replay.display(),
                g.last_turn() + 1
            );
            log.line(None, Some(s.player), &what);
        }
    }
}

/// Sends the config line to the algos and makes the game, with the seats' names.
pub(super) fn new_game(config: &Arc<Config>, seats: &mut [Seat; 2]) -> Game {
    let config_line: Arc<str> = config.to_line().into();
    for s in seats.iter_mut() {
        if let Some(p) = s.process.as_mut() {
            p.send(Arc::clone(&config_line));
        }
    }
    let mut game = Game::new(Arc::clone(config));
    for s in seats.iter() {
        game.player_mut(s.player).name = s.name.clone();
    }
    // Ghosts of an early-2020 replay on both seats replay that engine build's conventions.
    game.early_2020 = seats.iter().all(|s| s.ghost_of().is_some_and(|(g, _)| g.early_2020));
    game
}
