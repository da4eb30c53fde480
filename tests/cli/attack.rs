//! `terminal-studio attack` on a real replay turn and a shipped layout: one JSON line per
//! candidate, best first, within the MP; and the errors for what is missing.

use crate::common::corpus::{BUSY, layouts, replay};

fn attack(args: &[&str]) -> (Option<i32>, String, String) {
    crate::run_studio("attack", args)
}

fn json_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}"))).collect()
}

#[test]
fn a_replay_turn_gives_ranked_deploys_as_json() {
    let file = replay(BUSY);
    let (code, out, err) = attack(&[&file.to_string_lossy(), "--turn", "12", "--seat", "1", "--top", "5", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 5, "{out}");
    let damage: Vec<f64> = lines.iter().map(|c| c["damage"].as_f64().unwrap_or(f64::NAN)).collect();
    assert!(damage.windows(2).all(|w| w[0] >= w[1]), "best first: {damage:?}");
    for (k, c) in lines.iter().enumerate() {
        assert_eq!(c["rank"].as_u64(), Some(k as u64 + 1));
        for key in ["deploy", "damage", "structures_destroyed", "sp_destroyed", "mp_spent", "groups"] {
            assert!(!c[key].is_null(), "{key} missing from {c}");
        }
        let entry = &c["deploy"][0];
        assert!(entry[0].is_string() && entry[1].is_i64() && entry[2].is_i64(), "[shorthand, x, y]: {c}");
    }
}

#[test]
fn a_layout_takes_the_mp_given() {
    let layout = layouts().join("funnel.json");
    let (code, out, err) = attack(&[&layout.to_string_lossy(), "--mp", "4", "--seat", "2", "--top", "3", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let lines = json_lines(&out);
    assert!(!lines.is_empty() && lines.iter().all(|c| c["mp_spent"].as_f64().is_some_and(|m| m <= 4.0)), "{out}");
    let (code, out, _) = attack(&[&layout.to_string_lossy(), "--mp", "4", "--seat", "2"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("rank") && out.contains("deploy"), "a table: {out}");
}

#[test]
fn missing_arguments_exit_2_and_say_which() {
    let file = replay(BUSY);
    let (code, _, err) = attack(&[&file.to_string_lossy(), "--turn", "12"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--seat"), "{err}");
    let (code, _, err) = attack(&[&layouts().join("funnel.json").to_string_lossy(), "--seat", "2"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--mp"), "{err}");
    let (code, _, err) = attack(&[&file.to_string_lossy(), "--turn", "999", "--seat", "1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no turn 999"), "{err}");
}

/// Issue #47's turn: the ten best deploys were one attack ("12 × PI" from ten tiles of one
/// edge); the rows are different attacks, the first naming the edge's tiles, each with its
/// HP per MP; `--every` still lists every deploy.
#[test]
fn the_rows_are_distinct_attacks_with_damage_per_mp() {
    let file = replay("live-2022/Acceleraizer__c1terminal-algo__1003.replay.gz");
    let file = file.to_string_lossy();
    let (code, out, err) = attack(&[&file, "--turn", "12", "--seat", "1", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 10, "{out}");
    let first = &rows[0];
    let summary = first["summary"].as_str().unwrap_or_default();
    assert!(summary.starts_with("12 × PI from any of ") && summary.contains("left edge"), "{summary}");
    assert!(first["alike"].as_u64().is_some_and(|n| n >= 9), "{first}");
    let groups: Vec<String> = rows.iter().map(|r| r["groups"].to_string()).collect();
    assert!(groups.iter().filter(|g| g.contains("\"count\":12") && !g.contains("},{")).count() == 1, "{out}");
    for r in &rows {
        let (damage, mp) = (r["damage"].as_f64().unwrap_or(f64::NAN), r["mp_spent"].as_f64().unwrap_or(f64::NAN));
        let per = r["damage_per_mp"].as_f64().unwrap_or(f64::NAN);
        assert!((per - damage / mp).abs() < 1e-4, "{r}");
        assert_eq!(r["recorded"].as_bool(), Some(false), "player 1 sent nothing that turn: {r}");
    }
    let (code, every, _) = attack(&[&file, "--turn", "12", "--seat", "1", "--every", "--json"]);
    assert_eq!(code, Some(0));
    let every = json_lines(&every);
    assert_eq!(every.len(), 10);
    assert!(every.iter().all(|c| c["damage"] == rows[0]["damage"] && c["groups"][0]["count"] == 12), "one attack");
}

/// The recorded deploy is a row of its own, placed among the searched ones by rank.
#[test]
fn the_recorded_deploy_is_a_row_of_its_own() {
    let file = replay("s8-2021b/jinkim22__Correlation-one-bot__champ.replay.gz");
    let (code, out, err) = attack(&[&file.to_string_lossy(), "--turn", "34", "--seat", "2", "--top", "5"]);
    assert_eq!(code, Some(0), "{err}");
    let recorded = out.lines().find(|l| l.contains("recorded: ")).unwrap_or_else(|| panic!("no recorded row: {out}"));
    assert!(recorded.contains("5 × PI (12,1) + 21 × PI (14,0)"), "{recorded}");
    assert!(recorded.split_whitespace().nth(1) == Some("16"), "16 HP as recorded: {recorded}");
    assert!(out.contains("HP/MP"), "{out}");
}

/// `--frontier`: one level a MP from the cheapest unit to the turn's MP, never down; a
/// layout's goes to --mp (default 40).
#[test]
fn the_frontier_lists_the_best_attack_at_each_mp() {
    let file = replay("live-2022/Acceleraizer__c1terminal-algo__1003.replay.gz");
    let (code, out, err) = attack(&[&file.to_string_lossy(), "--turn", "12", "--seat", "1", "--frontier", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let levels = json_lines(&out);
    let mp: Vec<f64> = levels.iter().map(|l| l["mp"].as_f64().unwrap_or(f64::NAN)).collect();
    assert_eq!(mp.len(), 13, "1 to 12 MP and the turn's 12.8: {mp:?}");
    assert!((mp[0] - 1.0).abs() < 1e-6 && (mp[12] - 12.8).abs() < 1e-4, "{mp:?}");
    let damage: Vec<f64> = levels.iter().map(|l| l["best"]["damage"].as_f64().unwrap_or(f64::NAN)).collect();
    assert!(damage.windows(2).all(|w| w[0] <= w[1]), "never down: {damage:?}");
    assert!(
        levels
            .iter()
            .all(|l| l["best"]["mp_spent"].as_f64().unwrap_or(f64::NAN) <= l["mp"].as_f64().unwrap_or(0.0) + 1e-4)
    );
    let layout = layouts().join("funnel.json");
    let (code, out, err) = attack(&[&layout.to_string_lossy(), "--seat", "2", "--frontier", "--mp", "6"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("the cost to break the base") && out.lines().count() >= 3 + 6, "{out}");
}
