//! The website's facts about one match, as plain types: the algos, the match as the site lists
//! it (what `facts` keeps), and the match seated on a replay's players (what a game carries).

use serde::{Deserialize, Serialize};

/// One algo of a match, as the site describes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct SiteAlgo {
    pub id: u64,
    pub name: String,
    /// The user's name (empty when the site gave none).
    #[serde(default)]
    pub user: String,
    /// The algo's rating (`rating`, else `elo`) when the match was listed.
    #[serde(default)]
    pub rating: Option<f64>,
}

/// One match, as the site lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteMatch {
    pub id: u64,
    /// As the site writes it (empty when it gave none).
    #[serde(default)]
    pub date: String,
    #[serde(default)]
    pub turns: Option<i64>,
    pub winning_algo: SiteAlgo,
    pub losing_algo: SiteAlgo,
    /// The synced algo whose match list held this match.
    pub my_algo: u64,
}

impl SiteMatch {
    /// The replay file the match is kept in.
    pub fn file_name(&self) -> String {
        replay_file_name(self.id)
    }
}

/// `<match id>.replay.gz`.
pub fn replay_file_name(match_id: u64) -> String {
    format!("{match_id}.replay.gz")
}

/// A game's facts from the site, by seat: worked out from the match's winning algo and the
/// replay's winner (the names in the replay may be anonymised).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SiteGame {
    pub match_id: u64,
    pub date: String,
    /// My seat: 0 (player 1) or 1 (player 2).
    pub my_seat: usize,
    /// Player 1's and player 2's algos.
    pub algos: [SiteAlgo; 2],
}

impl SiteGame {
    /// Places the match's algos on the seats of a replay whose winner was `winner` (1 or 2).
    pub fn seat(m: &SiteMatch, winner: Option<u8>) -> Option<SiteGame> {
        let winner_seat = match winner {
            Some(1) => 0,
            Some(2) => 1,
            _ => return None,
        };
        let mut algos = [m.losing_algo.clone(), m.losing_algo.clone()];
        algos[winner_seat] = m.winning_algo.clone();
        let my_seat = if m.my_algo == m.winning_algo.id { winner_seat } else { 1 - winner_seat };
        Some(SiteGame { match_id: m.id, date: m.date.clone(), my_seat, algos })
    }

    /// My user's name, as the site gives it.
    pub fn my_user(&self) -> &str {
        &self.algos[self.my_seat].user
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn algo(id: u64, user: &str) -> SiteAlgo {
        SiteAlgo { id, name: format!("algo-{id}"), user: user.into(), rating: Some(1500.0) }
    }

    #[test]
    fn my_seat_follows_from_the_winning_algo_and_the_replay_winner() {
        let m = SiteMatch {
            id: 7,
            date: String::new(),
            turns: None,
            winning_algo: algo(1, "me"),
            losing_algo: algo(2, "rival"),
            my_algo: 1,
        };
        let won_as_p2 = SiteGame::seat(&m, Some(2)).expect("seated");
        assert_eq!(won_as_p2.my_seat, 1);
        assert_eq!(won_as_p2.algos[1].id, 1);
        let lost = SiteMatch { my_algo: 2, ..m.clone() };
        let seated = SiteGame::seat(&lost, Some(1)).expect("seated");
        assert_eq!((seated.my_seat, seated.my_user()), (1, "rival"));
        assert!(SiteGame::seat(&m, None).is_none(), "no winner, no seats");
    }
}
