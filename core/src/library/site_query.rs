//! Answers that need the website's facts (`library sync`): each of my algos' rating over its
//! matches, my rivals (the opponents' users, by games, with my wins and losses) and which
//! opponents beat which of my algos. Games without the site's facts are left out.

use super::site::SiteGame;
use super::store::IndexedGame;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// One of my algos' rating at one match (as the site listed it), oldest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingPoint {
    pub match_id: u64,
    pub date: String,
    pub rating: f64,
    /// The game's index in the library.
    pub game: usize,
}

/// One of my algos and its rating over its matches.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlgoRatings {
    pub algo: u64,
    pub name: String,
    pub points: Vec<RatingPoint>,
}

/// An opponent's user, and my results against them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rival {
    pub user: String,
    pub games: usize,
    pub wins: usize,
    pub losses: usize,
}

/// My algos (rows) against the opponents that beat any of them (columns, by user): each cell
/// the games that opponent won against that algo.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BeatenBy {
    /// My algos: id and name.
    pub my_algos: Vec<(u64, String)>,
    /// The opponents' users, most wins over me first.
    pub opponents: Vec<String>,
    /// `cells[row][column]`: the indices of the games, oldest first.
    pub cells: Vec<Vec<Vec<usize>>>,
}

/// The selected games that carry the site's facts, with those facts, oldest first (by date,
/// then match id).
fn site_games<'a>(games: &'a [IndexedGame], selected: &[usize]) -> Vec<(usize, &'a SiteGame, bool)> {
    let mut out: Vec<(usize, &SiteGame, bool)> = selected
        .iter()
        .filter_map(|&k| {
            let site = games[k].site.as_ref()?;
            let won = games[k].record.winner.map(|w| usize::from(w) == site.my_seat + 1)?;
            Some((k, site, won))
        })
        .collect();
    out.sort_by(|a, b| a.1.date.cmp(&b.1.date).then(a.1.match_id.cmp(&b.1.match_id)));
    out
}

/// Each of my algos' rating over its matches, oldest match first; algos by name.
pub fn my_ratings(games: &[IndexedGame], selected: &[usize]) -> Vec<AlgoRatings> {
    let mut by_algo: BTreeMap<u64, AlgoRatings> = BTreeMap::new();
    for (k, site, _) in site_games(games, selected) {
        let mine = &site.algos[site.my_seat];
        let Some(rating) = mine.rating else { continue };
        let entry = by_algo.entry(mine.id).or_insert_with(|| AlgoRatings {
            algo: mine.id,
            name: mine.name.clone(),
            points: Vec::new(),
        });
        entry.points.push(RatingPoint { match_id: site.match_id, date: site.date.clone(), rating, game: k });
    }
    let mut out: Vec<AlgoRatings> = by_algo.into_values().collect();
    out.sort_by(|a, b| a.name.cmp(&b.name).then(a.algo.cmp(&b.algo)));
    out
}

/// My rivals: the opponents' users, most games first.
pub fn rivals(games: &[IndexedGame], selected: &[usize]) -> Vec<Rival> {
    let mut by_user: HashMap<&str, Rival> = HashMap::new();
    for (_, site, won) in site_games(games, selected) {
        let user = site.algos[1 - site.my_seat].user.as_str();
        let rival =
            by_user.entry(user).or_insert_with(|| Rival { user: user.to_string(), games: 0, wins: 0, losses: 0 });
        rival.games += 1;
        rival.wins += usize::from(won);
        rival.losses += usize::from(!won);
    }
    let mut out: Vec<Rival> = by_user.into_values().collect();
    out.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.user.cmp(&b.user)));
    out
}

/// Which opponents beat which of my algos, in which games.
pub fn beaten_by(games: &[IndexedGame], selected: &[usize]) -> BeatenBy {
    let losses: Vec<(usize, &SiteGame)> =
        site_games(games, selected).into_iter().filter(|(_, _, won)| !won).map(|(k, s, _)| (k, s)).collect();
    let mut my_algos: Vec<(u64, String)> =
        losses.iter().map(|(_, s)| (s.algos[s.my_seat].id, s.algos[s.my_seat].name.clone())).collect();
    my_algos.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
    my_algos.dedup();
    let mut wins_over_me: HashMap<&str, usize> = HashMap::new();
    for (_, s) in &losses {
        *wins_over_me.entry(s.algos[1 - s.my_seat].user.as_str()).or_default() += 1;
    }
    let mut opponents: Vec<(&str, usize)> = wins_over_me.into_iter().collect();
    opponents.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let opponents: Vec<String> = opponents.into_iter().map(|(u, _)| u.to_string()).collect();
    let mut cells = vec![vec![Vec::new(); opponents.len()]; my_algos.len()];
    for (k, s) in &losses {
        let row = my_algos.iter().position(|(id, _)| *id == s.algos[s.my_seat].id);
        let column = opponents.iter().position(|u| *u == s.algos[1 - s.my_seat].user);
        if let (Some(r), Some(c)) = (row, column) {
            cells[r][c].push(*k);
        }
    }
    BeatenBy { my_algos, opponents, cells }
}
