//! A comparison run: the algo saved as a version if it changed, then played against the base
//! head to head (game pairs, stopped by the pair SPRT) and against the same opponents, each
//! game taken from the cache when it was played before and recorded there as it ends. The run
//! is a thread of its own that reports [`RegressEvent`]s and can be cancelled.

use super::error::VersionsError;
use super::games::{DuelGame, GameTerms, OpponentGame, algo_opponents, ghost_opponents, version_entrant};
use super::noise::{NoiseCheck, compare_plays};
use super::report::{GameComparison, HeadToHead, Played, RegressReport, RulesetSource, RulesetUsed};
use super::results::{GameKey, Play, ResultCache};
use super::store::{Version, VersionStore, now_ms};
use crate::arena::ghosts::{GhostChoice, Skipped};
use crate::arena::plan::{Entrant, Format, Job, Plan};
use crate::arena::{ArenaEvent, ArenaSpec, MatchRecord, PairCounts, SprtDecision, SprtParams, start_arena};
use crate::engine::config::Config;
use crate::engine::geometry::Player;
use crate::engine::presets::{DEFAULT_PRESET, load_config};
use crate::panics::{Panicked, catch_panic};
use crate::runner::Confinement;
use crossbeam_channel::{Receiver, Sender};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

/// Which version the algo is compared with.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum BaseChoice {
    /// The newest saved version whose content differs from the algo's.
    #[default]
    NewestOther,
    /// A saved version of the algo, by label or the start of its hash.
    Named(String),
    /// Another algo folder (saved as a version of its own).
    Folder(PathBuf),
}

/// What to compare, and how.
#[derive(Debug, Clone)]
pub struct RegressSpec {
    pub algo: PathBuf,
    /// The label of the version saved, if the folder changed.
    pub label: Option<String>,
    pub base: BaseChoice,
    /// Replays whose recorded players both versions meet as ghosts.
    pub ghosts: Vec<PathBuf>,
    pub ghost_choice: GhostChoice,
    /// Other algos both versions meet, from both seats.
    pub vs: Vec<PathBuf>,
    /// The most head-to-head games (rounded up to whole pairs); 0 plays none.
    pub games: u32,
    /// Matches at once; 0 = one per core.
    pub jobs: usize,
    pub sprt: SprtParams,
    /// A preset or a `game-configs.json`; `None`: each ghost's own ruleset, and for the
    /// head-to-head and `vs` games the first ghost's (or the default preset without ghosts).
    pub ruleset: Option<String>,
    pub terms: GameTerms,
    pub confine: Confinement,
    /// Play the new version's first game twice and compare the two.
    pub check_noise: bool,
    pub store: VersionStore,
    /// The result cache (default: beside the versions).
    pub cache: PathBuf,
}

impl RegressSpec {
    /// A comparison of `algo` with its newest other version, kept in `store`: 24 head-to-head
    /// games at most (enough for the pair SPRT's Terminal bounds to decide a clean sweep either
    /// way), the noise check on.
    pub fn new(algo: impl Into<PathBuf>, store: VersionStore) -> RegressSpec {
        RegressSpec {
            algo: algo.into(),
            label: None,
            base: BaseChoice::NewestOther,
            ghosts: Vec::new(),
            ghost_choice: GhostChoice::Seat(Player::Two),
            vs: Vec::new(),
            games: 24,
            jobs: 0,
            sprt: SprtParams::terminal_pairs(),
            ruleset: None,
            terms: GameTerms { soft_ms: None, max_ms: None, startup_ms: None, seed: 1 },
            confine: Confinement::default(),
            check_noise: true,
            cache: super::results::ResultCache::default_path(store.root()),
            store,
        }
    }
}

/// The two parts of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    HeadToHead,
    Opponents,
}

/// What a running comparison reports, in order: `Saved`, `Base`, then per stage `Stage` and
/// its `GameFinished`, each sent once the game is in the cache (a head-to-head game's
/// `HeadToHead` just before it), possibly `Warning`s, and last `Finished`.
#[derive(Debug, Clone)]
pub enum RegressEvent {
    Saved {
        version: Version,
        created: bool,
    },
    Base(Version),
    /// A stage starts: `to_play` games to play, `cached` taken from the cache.
    Stage {
        stage: Stage,
        to_play: usize,
        cached: usize,
    },
    GameFinished {
        stage: Stage,
        job_id: String,
        record: Box<MatchRecord>,
    },
    /// The head-to-head test after a game.
    HeadToHead(Box<HeadToHead>),
    Warning(String),
    Finished(Box<RegressReport>),
}

/// Cancelling: a flag, and a channel whose sender is dropped so every wait wakes at once.
struct Cancel {
    flag: AtomicBool,
    tx: Mutex<Option<Sender<()>>>,
    rx: Receiver<()>,
}

impl Cancel {
    fn new() -> Cancel {
        let (tx, rx) = crossbeam_channel::bounded(0);
        Cancel { flag: AtomicBool::new(false), tx: Mutex::new(Some(tx)), rx }
    }

    fn cancel(&self) {
        self.flag.store(true, Ordering::SeqCst);
        self.tx.lock().unwrap_or_else(PoisonError::into_inner).take();
    }

    fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }
}

/// A running comparison. Dropping the handle does not stop it; call `cancel`.
pub struct RegressHandle {
    /// Unbounded: no event is ever dropped.
    pub events: Receiver<RegressEvent>,
    cancel: Arc<Cancel>,
    thread: JoinHandle<Result<RegressReport, VersionsError>>,
}

impl RegressHandle {
    /// Kills the games in flight (not recorded: the next run plays them) and starts no more;
    /// the run then ends with a report of what was recorded.
    pub fn cancel(&self) {
        self.cancel.cancel();
    }

    /// The run has ended (its report is ready for `wait`).
    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    pub fn wait(self) -> Result<RegressReport, VersionsError> {
        self.thread.join().map_err(|p| VersionsError::Panicked(crate::panics::panic_text(p.as_ref())))?
    }
}

/// Starts the comparison on its own thread.
pub fn start_regress(spec: RegressSpec) -> Result<RegressHandle, VersionsError> {
    let (tx, rx) = crossbeam_channel::unbounded();
    let cancel = Arc::new(Cancel::new());
    let c = Arc::clone(&cancel);
    let thread = std::thread::Builder::new()
        .name("regress".into())
        .spawn(move || {
            let result = catch_panic(|| Run::start(&spec, &tx, &c).and_then(Run::finish))
                .unwrap_or_else(|Panicked { message }| Err(VersionsError::Panicked(message)));
            if let Ok(report) = &result {
                let _ = tx.send(RegressEvent::Finished(Box::new(report.clone())));
            }
            result
        })
        .map_err(VersionsError::Thread)?;
    Ok(RegressHandle { events: rx, cancel, thread })
}

/// Runs a comparison on the calling thread, handing each event to `on_event`.
pub fn run_regress(spec: RegressSpec, mut on_event: impl FnMut(&RegressEvent)) -> Result<RegressReport, VersionsError> {
    let h = start_regress(spec)?;
    for ev in h.events.iter() {
        on_event(&ev);
    }
    h.wait()
}

/// The version a base choice names (never the new version itself).
fn resolve_base(spec: &RegressSpec, new: &Version) -> Result<Version, VersionsError> {
    let base = match &spec.base {
        BaseChoice::Folder(dir) => spec.store.save(dir, None)?.version,
        BaseChoice::Named(name) if std::path::Path::new(name).is_dir() => spec.store.save(name.as_ref(), None)?.version,
        BaseChoice::Named(name) => spec.store.find(&spec.algo, name)?,
        BaseChoice::NewestOther => {
            let mut list = spec.store.list(&spec.algo)?;
            list.sort_by_key(|v| v.saved_at_ms);
            list.into_iter()
                .rev()
                .find(|v| v.hash != new.hash)
                .ok_or_else(|| VersionsError::FirstVersion { algo: spec.algo.clone(), version: new.name() })?
        }
    };
    if base.hash == new.hash {
        return Err(VersionsError::NoBase { algo: spec.algo.clone() });
    }
    Ok(base)
}

/// A run in progress: what both stages share.
struct Run<'a> {
    spec: &'a RegressSpec,
    tx: &'a Sender<RegressEvent>,
    cancel: &'a Cancel,
    cache: ResultCache,
    new: Version,
    base: Version,
    saved: bool,
    /// The ruleset of the head-to-head and `vs` games.
    config: Arc<Config>,
    ruleset_from: RulesetSource,
    opponents: Vec<OpponentGame>,
    skipped: Skipped,
    /// This run's games: `games/<new version>-<time>/` in the store.
    run_dir: PathBuf,
    played: Played,
}

impl<'a> Run<'a> {
    fn start(
        spec: &'a RegressSpec,
        tx: &'a Sender<RegressEvent>,
        cancel: &'a Cancel,
    ) -> Result<Run<'a>, VersionsError> {
        crate::runner::check_algo_arg(&spec.algo)?;
        let saved = spec.store.save(&spec.algo, spec.label.as_deref())?;
        let _ = tx.send(RegressEvent::Saved { version: saved.version.clone(), created: saved.created });
        let base = resolve_base(spec, &saved.version)?;
        let _ = tx.send(RegressEvent::Base(base.clone()));
        let ruleset = match &spec.ruleset {
            Some(r) => Some(Arc::new(load_config(r)?)),
            None => None,
        };
        let (mut opponents, skipped) = if spec.ghosts.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            ghost_opponents(&spec.ghosts, &spec.ghost_choice, ruleset.as_ref())?
        };
        if !spec.ghosts.is_empty() && opponents.is_empty() {
            let names: Vec<String> = spec.ghosts.iter().map(|p| p.display().to_string()).collect();
            return Err(VersionsError::NoPlayableGhosts(names.join(", ")));
        }
        let (config, ruleset_from) = match (ruleset, opponents.first()) {
            (Some(c), _) => (c, RulesetSource::Chosen),
            (None, Some(g)) => (Arc::clone(&g.config), RulesetSource::FirstGhost),
            (None, None) => (Arc::new(load_config(DEFAULT_PRESET)?), RulesetSource::Default),
        };
        config.check_simulated()?;
        for path in &spec.vs {
            crate::runner::check_algo_arg(path)?;
            opponents.extend(algo_opponents(path, &config)?);
        }
        let run_dir = spec.store.root().join("games").join(format!("{}-{}", &saved.version.hash[..8], now_ms()));
        let cache = ResultCache::open(&spec.cache)?;
        if let Some(message) = cache.moved_aside_message() {
            let _ = tx.send(RegressEvent::Warning(message));
        }
        Ok(Run {
            spec,
            tx,
            cancel,
            cache,
            new: saved.version,
            base,
            saved: saved.created,
            config,
            ruleset_from,
            opponents,
            skipped,
            run_dir,
            played: Played::default(),
        })
    }

    fn finish(mut self) -> Result<RegressReport, VersionsError> {
        let head_to_head = self.head_to_head()?;
        let (games, noise) = if self.cancel.is_cancelled() { (Vec::new(), None) } else { self.against_opponents()? };
        Ok(RegressReport {
            new: self.new,
            base: self.base,
            saved: self.saved,
            games,
            head_to_head,
            noise,
            played: self.played,
            cancelled: self.cancel.is_cancelled(),
            skipped_replays: self.skipped,
            ruleset: RulesetUsed { name: crate::verify::ruleset_name(&self.config), from: self.ruleset_from },
        })
    }

    fn get(&mut self, play: Play, key: &GameKey) -> Result<Option<MatchRecord>, VersionsError> {
        let found = self.cache.get(play, key)?;
        self.played.cached += usize::from(found.is_some());
        Ok(found)
    }

    /// Records a finished game (a match that could not be played is not cached: the next run
    /// tries it again).
    fn record(&self, play: Play, key: &GameKey, rec: &MatchRecord) -> Result<(), VersionsError> {
        if rec.error.is_none() { self.cache.put(play, key, rec) } else { Ok(()) }
    }

    /// The head-to-head games, cached pairs first, until the pair SPRT decides or the games
    /// run out.
    fn head_to_head(&mut self) -> Result<HeadToHead, VersionsError> {
        let duel = DuelGame::all(self.spec.games.div_ceil(2));
        let keys: Vec<GameKey> =
            duel.iter().map(|g| g.key(&self.new, &self.base, &self.config, &self.spec.terms)).collect();
        let mut results = Vec::with_capacity(duel.len());
        for k in &keys {
            results.push(self.get(Play::First, k)?);
        }
        let params = self.spec.sprt;
        let todo: Vec<usize> = (0..duel.len()).filter(|&i| results[i].is_none()).collect();
        let decided = tally(params, &duel, &results).decision != SprtDecision::Continue;
        let to_play = if decided { 0 } else { todo.len() };
        let _ =
            self.tx.send(RegressEvent::Stage { stage: Stage::HeadToHead, to_play, cached: duel.len() - todo.len() });
        if to_play == 0 {
            return Ok(tally(params, &duel, &results));
        }
        let entrants = vec![version_entrant("new", &self.new), version_entrant("base", &self.base)];
        let mut at: HashMap<String, usize> = HashMap::new();
        let jobs: Vec<Job> = todo
            .iter()
            .map(|&i| {
                let g = duel[i];
                let (seat1, seat2) = if g.new_seat == Player::One { (0, 1) } else { (1, 0) };
                at.insert(g.job_id(), i);
                Job {
                    seat1,
                    seat2,
                    game: u32::try_from(i).unwrap_or(u32::MAX),
                    seed: g.seed(&self.spec.terms),
                    id: g.job_id(),
                }
            })
            .collect();
        let arena = self.arena_spec("duel", entrants, jobs);
        self.play(Stage::HeadToHead, arena, |run, rec| {
            let Some(&i) = at.get(&rec.job_id) else { return Ok(false) };
            run.record(Play::First, &keys[i], rec)?;
            run.played.head_to_head += 1;
            results[i] = Some(rec.clone());
            let state = tally(params, &duel, &results);
            let stop = state.decision != SprtDecision::Continue;
            let _ = run.tx.send(RegressEvent::HeadToHead(Box::new(state)));
            Ok(stop)
        })?;
        Ok(tally(params, &duel, &results))
    }

    /// Both versions against every opponent (what the cache lacks), and the new version's
    /// first game once more for the noise check.
    fn against_opponents(&mut self) -> Result<(Vec<GameComparison>, Option<NoiseCheck>), VersionsError> {
        let terms = self.spec.terms;
        let keys: Vec<[GameKey; 2]> =
            self.opponents.iter().map(|o| [o.key(&self.new, &terms), o.key(&self.base, &terms)]).collect();
        let mut recs = OpponentRecords::default();
        for [new, base] in &keys {
            let found = [self.get(Play::First, new)?, self.get(Play::First, base)?];
            recs.games.push(found);
        }
        let repeat_key = keys.first().filter(|_| self.spec.check_noise).map(|k| k[0].clone());
        if let Some(k) = &repeat_key {
            recs.repeat = self.get(Play::Repeat, k)?;
        }
        let (jobs, at) = self.opponent_jobs(&recs, repeat_key.is_some());
        let cached = 2 * keys.len() + usize::from(repeat_key.is_some()) - jobs.len();
        let _ = self.tx.send(RegressEvent::Stage { stage: Stage::Opponents, to_play: jobs.len(), cached });
        if !jobs.is_empty() {
            let mut entrants = vec![version_entrant("new", &self.new), version_entrant("base", &self.base)];
            entrants.extend(
                self.opponents
                    .iter()
                    .enumerate()
                    .map(|(i, o)| Entrant { path: o.seat_arg.clone(), label: format!("opponent{i}") }),
            );
            let arena = self.arena_spec("opponents", entrants, jobs);
            self.play(Stage::Opponents, arena, |run, rec| {
                let Some(&(slot, i)) = at.get(&rec.job_id) else { return Ok(false) };
                match slot {
                    Slot::Repeat => {
                        run.record(Play::Repeat, &keys[i][0], rec)?;
                        run.played.repeat += 1;
                        recs.repeat = Some(rec.clone());
                    }
                    Slot::Version(v) => {
                        run.record(Play::First, &keys[i][v], rec)?;
                        if v == 0 {
                            run.played.new += 1
                        } else {
                            run.played.base += 1
                        }
                        recs.games[i][v] = Some(rec.clone());
                    }
                }
                Ok(false)
            })?;
        }
        let rows = self
            .opponents
            .iter()
            .zip(&recs.games)
            .map(|(o, [new, base])| GameComparison::new(o, base.as_ref(), new.as_ref()))
            .collect();
        let first = recs.games.first().and_then(|g| g[0].as_ref());
        let noise = match (self.opponents.first(), first, recs.repeat.as_ref()) {
            (Some(o), Some(first), Some(again)) if first.error.is_none() && again.error.is_none() => {
                // A replay removed since its game was cached costs the check, not the report.
                compare_plays(&o.label, o.seat.number(), first.replay.as_ref(), again.replay.as_ref())
                    .inspect_err(|e| {
                        let _ = self.tx.send(RegressEvent::Warning(format!("no noise check: {e}")));
                    })
                    .ok()
            }
            _ => None,
        };
        Ok((rows, noise))
    }

    /// The opponents' games the cache lacks, as arena jobs (entrants: the new version, the
    /// base, then the opponents), and which game each job is.
    fn opponent_jobs(&self, recs: &OpponentRecords, repeat: bool) -> (Vec<Job>, HashMap<String, (Slot, usize)>) {
        let mut jobs = Vec::new();
        let mut at = HashMap::new();
        for (i, o) in self.opponents.iter().enumerate() {
            let wanted = [
                (Slot::Version(0), recs.games[i][0].is_none()),
                (Slot::Version(1), recs.games[i][1].is_none()),
                (Slot::Repeat, i == 0 && repeat && recs.repeat.is_none()),
            ];
            for (slot, _) in wanted.into_iter().filter(|w| w.1) {
                let (me, id) = match slot {
                    Slot::Version(0) => (0, format!("new-{i}")),
                    Slot::Version(_) => (1, format!("base-{i}")),
                    Slot::Repeat => (0, format!("new-{i}-again")),
                };
                let (seat1, seat2) = if o.seat == Player::One { (me, i + 2) } else { (i + 2, me) };
                at.insert(id.clone(), (slot, i));
                jobs.push(Job { seat1, seat2, game: 0, seed: self.spec.terms.seed, id });
            }
        }
        (jobs, at)
    }

    /// An arena of these jobs among these entrants, writing into this run's folder.
    fn arena_spec(&self, stage: &str, entrants: Vec<Entrant>, jobs: Vec<Job>) -> ArenaSpec {
        let plan = Plan { entrants, format: Format::RoundRobin, games: 1, jobs };
        let mut arena = ArenaSpec::new(plan, Arc::clone(&self.config), self.run_dir.join(stage));
        arena.jobs = self.spec.jobs;
        arena.soft_ms = self.spec.terms.soft_ms;
        arena.max_ms = self.spec.terms.max_ms;
        arena.startup_ms = self.spec.terms.startup_ms;
        arena.confine = self.spec.confine.clone();
        arena.ghost_rulesets = self.spec.ruleset.is_none();
        arena
    }

    /// Plays an arena, handing each finished game to `on_record`, which says whether to stop
    /// (the games in flight are then cancelled). A cancel of the run cancels the arena.
    fn play(
        &mut self,
        stage: Stage,
        arena: ArenaSpec,
        mut on_record: impl FnMut(&mut Self, &MatchRecord) -> Result<bool, VersionsError>,
    ) -> Result<(), VersionsError> {
        let handle = start_arena(arena)?;
        let mut cancel_rx = self.cancel.rx.clone();
        let mut failed = None;
        loop {
            crossbeam_channel::select! {
                recv(handle.events) -> ev => match ev {
                    Ok(ArenaEvent::MatchFinished(rec)) => {
                        // Said once it is kept: a run killed after the event finds the game
                        // in the cache.
                        let recorded = on_record(self, &rec);
                        let _ = self.tx.send(RegressEvent::GameFinished { stage, job_id: rec.job_id.clone(), record: rec.clone() });
                        match recorded {
                            Ok(false) => {}
                            Ok(true) => handle.cancel(),
                            Err(e) => {
                                handle.cancel();
                                failed.get_or_insert(e);
                            }
                        }
                    }
                    Ok(ArenaEvent::Warning(w)) => {
                        let _ = self.tx.send(RegressEvent::Warning(w));
                    }
                    Ok(_) => {}
                    Err(_) => break,
                },
                recv(cancel_rx) -> _ => {
                    handle.cancel();
                    cancel_rx = crossbeam_channel::never();
                }
            }
        }
        handle.wait()?;
        failed.map_or(Ok(()), Err)
    }
}

/// Which game of an opponent a job plays: a version's (0 the new one, 1 the base), or the
/// new version's played again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Version(usize),
    Repeat,
}

/// Each opponent's games so far, `[new, base]`, and the new version's first game played again.
#[derive(Default)]
struct OpponentRecords {
    games: Vec<[Option<MatchRecord>; 2]>,
    repeat: Option<MatchRecord>,
}

/// The head-to-head test over the complete pairs recorded so far.
fn tally(params: SprtParams, duel: &[DuelGame], results: &[Option<MatchRecord>]) -> HeadToHead {
    let mut pairs = PairCounts::default();
    let (mut wins, mut losses, mut errors) = (0, 0, 0);
    let new_won = |i: usize| -> Option<bool> {
        let rec = results.get(i)?.as_ref()?;
        rec.error.is_none().then(|| rec.winner == duel[i].new_seat.number())
    };
    for (i, rec) in results.iter().enumerate() {
        match (rec.as_ref(), new_won(i)) {
            (Some(_), Some(true)) => wins += 1,
            (Some(_), Some(false)) => losses += 1,
            (Some(_), None) => errors += 1,
            (None, _) => {}
        }
    }
    for first in (0..duel.len()).step_by(2) {
        if let (Some(a), Some(b)) = (new_won(first), new_won(first + 1)) {
            pairs.add_games([a, b]);
        }
    }
    HeadToHead::new(params, pairs, wins, losses, errors)
}
