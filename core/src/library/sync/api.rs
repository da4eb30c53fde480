//! The website's public API, as players' scripts use it: the addresses, and the fields read
//! from its JSON answers, by name. Unknown fields are ignored; a field needed and missing is
//! named with the address it was missing from.

use super::error::SyncError;
use crate::library::site::{SiteAlgo, SiteMatch};
use serde_json::Value;

/// The site's API, unless `--api` says otherwise.
pub const DEFAULT_API: &str = "https://terminal.c1games.com/api/game";

pub fn user_algos_url(api: &str, user: &str) -> String {
    format!("{}/user/{user}/algos?team=false", api.trim_end_matches('/'))
}

pub fn algo_matches_url(api: &str, algo: u64) -> String {
    format!("{}/algo/{algo}/matches", api.trim_end_matches('/'))
}

pub fn replay_url(api: &str, match_id: u64) -> String {
    format!("{}/replayexpanded/{match_id}", api.trim_end_matches('/'))
}

/// One of a user's algos, as `user/{id}/algos` lists it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ListedAlgo {
    pub id: u64,
    pub name: String,
    pub rating: Option<f64>,
}

fn parse(url: &str, body: &[u8]) -> Result<Value, SyncError> {
    serde_json::from_slice(body).map_err(|e| SyncError::NotJson { url: url.into(), message: e.to_string() })
}

/// `data.<list>[]` of a body.
fn data_list(url: &str, body: &[u8], list: &str) -> Result<Vec<Value>, SyncError> {
    let value = parse(url, body)?;
    match value.get("data").and_then(|d| d.get(list)) {
        Some(Value::Array(items)) => Ok(items.clone()),
        _ => Err(SyncError::MissingField { url: url.into(), field: format!("data.{list}") }),
    }
}

/// An id, as a number or a string of digits.
fn id_of(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn text_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn rating_of(v: &Value) -> Option<f64> {
    v.get("rating").or_else(|| v.get("elo")).and_then(Value::as_f64)
}

/// `data.algos[]` of `user/{id}/algos` (or of the leaderboard).
pub fn read_algos(url: &str, body: &[u8]) -> Result<Vec<ListedAlgo>, SyncError> {
    let missing = |field: String| SyncError::MissingField { url: url.into(), field };
    data_list(url, body, "algos")?
        .iter()
        .enumerate()
        .map(|(k, a)| {
            let id = id_of(a.get("id")).ok_or_else(|| missing(format!("data.algos[{k}].id")))?;
            Ok(ListedAlgo { id, name: text_of(a.get("name")).unwrap_or_default(), rating: rating_of(a) })
        })
        .collect()
}

/// `data.matches[]` of `algo/{id}/matches`, each marked as a match of `my_algo`.
pub fn read_matches(url: &str, body: &[u8], my_algo: u64) -> Result<Vec<SiteMatch>, SyncError> {
    let items = data_list(url, body, "matches")?;
    items.iter().enumerate().map(|(k, m)| read_match(url, &format!("data.matches[{k}]"), m, my_algo)).collect()
}

fn read_match(url: &str, at: &str, m: &Value, my_algo: u64) -> Result<SiteMatch, SyncError> {
    let missing = |field: &str| SyncError::MissingField { url: url.into(), field: format!("{at}.{field}") };
    let id = id_of(m.get("id")).ok_or_else(|| missing("id"))?;
    let algo = |side: &str| -> Result<SiteAlgo, SyncError> {
        let a = m.get(format!("{side}_algo")).ok_or_else(|| missing(&format!("{side}_algo")))?;
        let user = m.get(format!("{side}_user")).and_then(|u| text_of(u.get("displayName")));
        Ok(SiteAlgo {
            id: id_of(a.get("id")).ok_or_else(|| missing(&format!("{side}_algo.id")))?,
            name: text_of(a.get("name")).unwrap_or_default(),
            user: user.or_else(|| user_name(a.get("user"))).unwrap_or_default(),
            rating: rating_of(a),
        })
    };
    let date = ["date", "created_at", "createdAt", "time"].iter().find_map(|k| text_of(m.get(*k)));
    Ok(SiteMatch {
        id,
        date: date.unwrap_or_default(),
        turns: m.get("turns").and_then(Value::as_i64),
        winning_algo: algo("winning")?,
        losing_algo: algo("losing")?,
        my_algo,
    })
}

/// An algo's `user`: a name, or an object holding one.
fn user_name(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::Object(o) => ["displayName", "name", "username"].iter().find_map(|k| text_of(o.get(*k))),
        other => text_of(Some(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_is_read_by_field_names_and_unknown_fields_are_ignored() {
        let body = br#"{"data":{"matches":[{"id":"42","turns":55,"extra":1,"date":"2026-01-02",
            "winning_algo":{"id":7,"name":"mine","user":"me","elo":1600.5},
            "losing_algo":{"id":9,"name":"theirs","user":{"displayName":"rival"},"rating":1400},
            "losing_user":{"displayName":"Rival!"}}]}}"#;
        let m = read_matches("u", body, 7).expect("read");
        assert_eq!(m.len(), 1);
        assert_eq!((m[0].id, m[0].turns, m[0].date.as_str()), (42, Some(55), "2026-01-02"));
        assert_eq!((m[0].winning_algo.user.as_str(), m[0].winning_algo.rating), ("me", Some(1600.5)));
        assert_eq!(m[0].losing_algo.user, "Rival!", "losing_user.displayName first");
    }

    #[test]
    fn a_missing_field_is_named() {
        let no_list = read_matches("http://x/algo/1/matches", br#"{"data":{}}"#, 1).expect_err("no list");
        assert_eq!(no_list.to_string(), "http://x/algo/1/matches: the JSON has no field `data.matches`");
        let no_loser = read_matches("u", br#"{"data":{"matches":[{"id":1,"winning_algo":{"id":2}}]}}"#, 1);
        assert!(no_loser.expect_err("no loser").to_string().contains("data.matches[0].losing_algo"));
        let html = read_algos("u", b"<html>oops</html>").expect_err("not JSON");
        assert!(matches!(html, SyncError::NotJson { .. }), "{html}");
    }
}
