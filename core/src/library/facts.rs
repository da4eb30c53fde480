//! The website's facts about synced matches, kept in one file beside the replays
//! (`site-matches.jsonl`, one match a line): the match id and date, both algos' ids, names,
//! users and ratings, and which algo was mine. `library sync` writes it; loading a library
//! reads it, so "me" and the names come from the site even when the replay says `algo1`
//! and `algo2`. The index never copies it: it stays a cache rebuildable from the folder.

use super::site::{SiteGame, SiteMatch};
use super::store::{DamagedFile, IndexedGame};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The facts file's name, at the root of the replay folder.
pub const FACTS_FILE: &str = "site-matches.jsonl";

/// The facts file of a folder.
pub fn facts_path(root: &Path) -> PathBuf {
    root.join(FACTS_FILE)
}

/// The facts kept in `root`, by match id, and the lines that could not be read (named by
/// file and line). A missing file is no facts.
pub fn read_facts(root: &Path) -> (BTreeMap<u64, SiteMatch>, Vec<DamagedFile>) {
    let path = facts_path(root);
    let mut facts = BTreeMap::new();
    let mut damaged = Vec::new();
    let text = match crate::files::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (facts, damaged),
        Err(e) => return (facts, vec![DamagedFile { file: FACTS_FILE.into(), error: e.to_string() }]),
    };
    for (k, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        match serde_json::from_str::<SiteMatch>(line) {
            Ok(m) => {
                facts.insert(m.id, m);
            }
            Err(e) => damaged.push(DamagedFile { file: format!("{FACTS_FILE}:{}", k + 1), error: e.to_string() }),
        }
    }
    (facts, damaged)
}

/// Writes every fact of `facts` to the folder's facts file at once (atomically: a crash
/// leaves the old file or the new one).
pub fn write_facts(root: &Path, facts: &BTreeMap<u64, SiteMatch>) -> std::io::Result<()> {
    let mut text = String::new();
    for m in facts.values() {
        // A `SiteMatch` is plain data: serialising it cannot fail.
        text.push_str(&serde_json::to_string(m).unwrap_or_default());
        text.push('\n');
    }
    crate::files::write_atomic(&facts_path(root), text.as_bytes())
}

/// Gives each game of a `<match id>.replay.gz` file the site's facts of its match, and the
/// site's algo names in place of the replay's (which may be `algo1`/`algo2`).
pub fn attach(games: &mut [IndexedGame], facts: &BTreeMap<u64, SiteMatch>) {
    for g in games {
        let Some(m) = match_id_of_file(&g.file).and_then(|id| facts.get(&id)) else { continue };
        let Some(site) = SiteGame::seat(m, g.record.winner) else { continue };
        for (seat, algo) in site.algos.iter().enumerate() {
            if !algo.name.is_empty() {
                g.record.players[seat] = algo.name.clone();
            }
        }
        g.site = Some(site);
    }
}

/// The match id of a file named `<match id>.replay.gz` (at any depth).
pub fn match_id_of_file(file: &str) -> Option<u64> {
    let name = file.rsplit('/').next()?;
    name.strip_suffix(".replay.gz")?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_give_match_ids() {
        assert_eq!(match_id_of_file("sub/123.replay.gz"), Some(123));
        assert_eq!(match_id_of_file("x_123.replay.gz"), None);
        assert_eq!(match_id_of_file("123.replay"), None);
    }
}
