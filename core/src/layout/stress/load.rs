//! Attacks read from many replay files at once: each replay's config line read first so
//! other rulesets are skipped cheaply, the replays read on worker threads, and one config
//! shared by all the attacks of the same rules.

use super::attack::{Attack, AttackError, AttackFilter, attacks_of_replay};
use crate::engine::config::Config;
use crate::parallel::parallel_map;
use crate::replay::read_replay;
use crate::verify::ruleset_name;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A replay that gave no attack, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct SkippedReplay {
    pub file: PathBuf,
    pub reason: String,
    /// The replay's ruleset, when its config could be read (`verify::ruleset_name`).
    pub ruleset: Option<String>,
}

/// Attacks read from replay files, in file then turn order.
#[derive(Debug, Clone, Default)]
pub struct AttackSet {
    pub attacks: Vec<Attack>,
    pub skipped: Vec<SkippedReplay>,
    /// Turns of the read replays whose attack could not be rebuilt, each naming file and turn.
    pub unusable_turns: Vec<AttackError>,
    /// Replays whose attacks came from a cache (an index), not from reading the file.
    pub kept_replays: usize,
}

impl AttackSet {
    /// The skipped replays by ruleset, most first ("300 replays of live-2022"); replays whose
    /// ruleset could not be told are left out.
    pub fn skipped_rulesets(&self) -> Vec<(String, usize)> {
        let mut counts: Vec<(String, usize)> = Vec::new();
        for r in self.skipped.iter().filter_map(|s| s.ruleset.as_ref()) {
            match counts.iter_mut().find(|(name, _)| name == r) {
                Some((_, n)) => *n += 1,
                None => counts.push((r.clone(), 1)),
            }
        }
        counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        counts
    }
}

/// Gives `cache` the attacks of a replay when every turn rebuilt and they run under the rules
/// the replay recorded (attacks moved to other rules are made again each time).
fn keep_whole(cache: &dyn AttackCache, path: &Path, recorded: &Config, attacks: &[Result<Attack, AttackError>]) {
    let under_recorded_rules =
        |a: &Attack| a.config.units == recorded.units && a.config.resources == recorded.resources;
    let whole: Option<Vec<Attack>> =
        attacks.iter().map(|a| a.as_ref().ok().filter(|a| under_recorded_rules(a)).cloned()).collect();
    if let Some(whole) = whole {
        cache.keep(path, recorded, &whole);
    }
}

/// Why a replay of these rules gives no attack at all under the filter (`None`: it does).
fn skip_reason(config: &Config, legacy_format: bool, filter: &AttackFilter) -> Option<String> {
    if legacy_format || config.legacy {
        return Some("2018–2019 format: attacks of those rules are not run".into());
    }
    let same = config.units == filter.config.units && config.resources == filter.config.resources;
    if !same && !filter.any_ruleset {
        return Some(format!("ruleset {}, the layout's is {}", ruleset_name(config), ruleset_name(&filter.config)));
    }
    None
}

/// The config line of a replay file, read without its frames, so that the replays of other
/// rulesets are skipped at a fraction of a full read. `None` if the file does not open with
/// a readable config line: the full read then says what is wrong.
fn config_line(path: &Path) -> Option<Config> {
    use std::io::BufRead;
    let mut file = std::io::BufReader::new(crate::files::open_read(path).ok()?);
    let gzip = file.fill_buf().ok()?.starts_with(&[0x1f, 0x8b]);
    let reader: Box<dyn BufRead> = if gzip {
        Box::new(std::io::BufReader::new(flate2::bufread::MultiGzDecoder::new(file)))
    } else {
        Box::new(file)
    };
    let line = reader.lines().map_while(Result::ok).find(|l| !l.trim().is_empty())?;
    let value: serde_json::Value = serde_json::from_str(line.trim()).ok()?;
    value.get("unitInformation")?;
    Config::from_value(value).ok()
}

/// Attacks kept from an earlier read of a replay (an index keeps them), and the place where
/// those of replays read now are kept.
pub trait AttackCache: Sync {
    /// The attacks of `file` as `filter` runs them, kept when the file was last read, if the
    /// file has not changed since and they were prepared under the filter's rules.
    fn kept(&self, file: &Path, filter: &AttackFilter) -> Option<Vec<Attack>>;
    /// The attacks of `file` (none, when no turn had one), just read with every turn
    /// rebuilt, under the rules it `recorded`.
    fn keep(&self, file: &Path, recorded: &Config, attacks: &[Attack]);
}

/// No cache: every replay is read.
pub struct NoCache;

impl AttackCache for NoCache {
    fn kept(&self, _: &Path, _: &AttackFilter) -> Option<Vec<Attack>> {
        None
    }
    fn keep(&self, _: &Path, _: &Config, _: &[Attack]) {}
}

/// Reads every replay of `files` on `jobs` threads and keeps the attacks the filter lets
/// through. `progress(done, total)` is called after each file; setting `cancel` stops early.
pub fn load_attacks(
    files: &[PathBuf],
    filter: &AttackFilter,
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &AtomicBool,
) -> Result<AttackSet, AttackError> {
    load_attacks_cached(files, filter, jobs, progress, cancel, &NoCache)
}

/// As `load_attacks`, taking a replay's attacks from `cache` where it has them, and giving it
/// those of the replays read.
pub fn load_attacks_cached(
    files: &[PathBuf],
    filter: &AttackFilter,
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &AtomicBool,
    cache: &dyn AttackCache,
) -> Result<AttackSet, AttackError> {
    enum Read {
        Attacks(Vec<Result<Attack, AttackError>>),
        Kept(Vec<Attack>),
        Skipped(String, Option<String>),
    }
    let configs = ConfigInterner::default();
    let read_one = |path: &Path| -> Read {
        if let Some(attacks) = cache.kept(path, filter) {
            let interned = |mut a: Attack| {
                a.config = configs.intern(&a.config);
                a
            };
            return Read::Kept(attacks.into_iter().map(interned).collect());
        }
        if let Some(config) = config_line(path)
            && let Some(reason) = skip_reason(&config, false, filter)
        {
            return Read::Skipped(reason, Some(ruleset_name(&config)));
        }
        match read_replay(path) {
            Err(e) => Read::Skipped(e.to_string(), None),
            Ok(replay) => match skip_reason(&replay.config, replay.legacy, filter) {
                Some(reason) => Read::Skipped(reason, Some(ruleset_name(&replay.config))),
                None => {
                    let mut attacks = attacks_of_replay(&replay, filter);
                    for a in attacks.iter_mut().flatten() {
                        a.config = configs.intern(&a.config);
                    }
                    keep_whole(cache, path, &replay.config, &attacks);
                    Read::Attacks(attacks)
                }
            },
        }
    };
    let results = parallel_map(files.len(), jobs, cancel, progress, |k, _: &mut ()| read_one(&files[k]));
    crate::heap::return_freed_memory();
    if cancel.load(Ordering::Relaxed) {
        return Err(AttackError::Cancelled);
    }
    let mut set = AttackSet::default();
    for (file, r) in files.iter().zip(results) {
        match r {
            Some(Read::Attacks(list)) => {
                for a in list {
                    match a {
                        Ok(a) => set.attacks.push(a),
                        Err(e) => set.unusable_turns.push(e),
                    }
                }
            }
            Some(Read::Kept(list)) => {
                set.kept_replays += 1;
                set.attacks.extend(list);
            }
            Some(Read::Skipped(reason, ruleset)) => {
                set.skipped.push(SkippedReplay { file: file.clone(), reason, ruleset })
            }
            None => set.skipped.push(SkippedReplay {
                file: file.clone(),
                reason: "not read (worker failed)".into(),
                ruleset: None,
            }),
        }
    }
    Ok(set)
}

/// One `Config` shared by every attack of the same rules: each replay parses its own, and a
/// parsed config (its raw JSON kept for the algos) costs more than the attacks of a replay.
#[derive(Default)]
struct ConfigInterner(std::sync::Mutex<Vec<Arc<Config>>>);

impl ConfigInterner {
    fn intern(&self, config: &Arc<Config>) -> Arc<Config> {
        let same = |c: &Arc<Config>| {
            Arc::ptr_eq(c, config)
                || (c.raw == config.raw
                    && c.legacy == config.legacy
                    && c.mechanics == config.mechanics
                    && c.death_threshold == config.death_threshold)
        };
        // A poisoned lock only means another reader panicked; its list is still sound.
        let mut known = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(c) = known.iter().find(|c| same(c)) {
            return Arc::clone(c);
        }
        known.push(Arc::clone(config));
        Arc::clone(config)
    }
}
