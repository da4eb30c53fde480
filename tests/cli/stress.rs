//! `terminal-studio stress` on the real base-s6 replays: one JSON line per attack and a
//! summary that adds them up, the exit codes, and a suggestion that lowers HP lost.

use crate::common::corpus::{layouts, replay};

fn stress(args: &[&str]) -> (Option<i32>, String, String) {
    crate::run_studio("stress", args)
}

#[test]
fn json_lines_add_up_to_the_summary() {
    let layout = layouts().join("funnel.json");
    let dir = replay("base-s6");
    let (code, out, err) = stress(&[&layout.to_string_lossy(), "--attacks", &dir.to_string_lossy(), "--json"]);
    let lines: Vec<serde_json::Value> =
        out.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}"))).collect();
    let (summary, attacks) = lines.split_last().unwrap_or_else(|| panic!("no output; stderr: {err}"));
    let summary = &summary["summary"];
    assert_eq!(summary["attacks"].as_u64(), Some(attacks.len() as u64), "{summary}");
    assert!(attacks.len() >= 50, "only {} attacks in the base-s6 replays", attacks.len());
    let hp: f64 = attacks.iter().map(|a| a["hp_lost"].as_f64().unwrap_or(f64::NAN)).sum();
    assert_eq!(summary["hp_lost"].as_f64(), Some(hp));
    for a in attacks {
        for key in ["replay", "turn", "attacker", "breaches", "hp_lost", "structures_lost", "sp_lost"] {
            assert!(!a[key].is_null(), "{key} missing from {a}");
        }
        assert!(matches!(a["attacker"].as_u64(), Some(1 | 2)), "{a}");
    }
    assert_eq!(code, Some(if hp > 0.0 { 1 } else { 0 }), "exit code; stderr: {err}");
}

#[test]
fn bad_input_exits_2() {
    let dir = replay("base-s6");
    let (code, _, err) = stress(&["no-such-layout.json", "--attacks", &dir.to_string_lossy()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no-such-layout.json"), "{err}");
    let layout = layouts().join("funnel.json");
    let (code, _, err) = stress(&[&layout.to_string_lossy(), "--attacks", "/no/such/folder"]);
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn suggestion_lowers_hp_lost() {
    let layout = layouts().join("funnel.json");
    let dir = replay("base-s6");
    let args =
        [&*layout.to_string_lossy(), "--attacks", &dir.to_string_lossy(), "--suggest", "--budget", "6", "--json"];
    let (_, out, err) = stress(&args);
    let last = out.lines().last().unwrap_or_else(|| panic!("no output; stderr: {err}"));
    let summary: serde_json::Value = serde_json::from_str(last).unwrap_or_else(|e| panic!("{last}: {e}"));
    let steps = summary["summary"]["suggestion"].as_array().unwrap_or_else(|| panic!("no suggestion in {last}"));
    assert!(!steps.is_empty(), "{last}");
    let mut before = summary["summary"]["hp_lost"].as_f64().unwrap_or(f64::NAN);
    let mut cost = 0.0;
    for s in steps {
        let (b, a) = (s["hp_lost_before"].as_f64(), s["hp_lost_after"].as_f64());
        assert_eq!(b, Some(before), "{s}");
        assert!(a.is_some_and(|a| a < before), "a step must lower HP lost: {s}");
        before = a.unwrap_or(f64::NAN);
        cost += s["cost"].as_f64().unwrap_or(f64::NAN);
    }
    assert!(cost <= 6.0, "the steps cost {cost} SP, over the budget");
}

#[test]
fn a_suggestion_against_the_planner_reports_each_mp_before_and_after() {
    let layout = layouts().join("funnel-2022.json");
    let args = [
        &*layout.to_string_lossy(),
        "--suggest",
        "--budget",
        "4",
        "--steps",
        "2",
        "--against",
        "planner",
        "--mp",
        "8,16",
        "--json",
    ];
    let (code, out, err) = stress(&args);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "against the planner alone, one summary line; stderr: {err}");
    let summary: serde_json::Value = serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("{}: {e}", lines[0]));
    let planner = &summary["summary"]["planner"];
    assert_eq!(planner["against"], "planner", "{planner}");
    let levels = planner["levels"].as_array().unwrap_or_else(|| panic!("no levels in {planner}"));
    let mps: Vec<f64> = levels.iter().filter_map(|l| l["mp"].as_f64()).collect();
    assert_eq!(mps, [8.0, 16.0]);
    let damage = |l: &serde_json::Value, when: &str| l[when]["damage"].as_f64().unwrap_or(0.0);
    for l in levels {
        assert!(damage(l, "after") <= damage(l, "before"), "stronger after: {l}");
        assert!(l["before"]["deploy"].is_array(), "the deploy is given: {l}");
    }
    let sum: f64 = levels.iter().map(|l| damage(l, "after")).sum();
    assert_eq!(planner["damage_after"].as_f64(), Some(sum), "{planner}");
    assert_eq!(code, Some(if sum > 0.0 { 1 } else { 0 }), "exit code; stderr: {err}");

    let (code, _, err) = stress(&[&*layout.to_string_lossy(), "--suggest", "--budget", "4", "--mp", "8,16"]);
    assert_eq!(code, Some(2), "recorded attacks need --attacks: {err}");
    assert!(err.contains("--attacks"), "{err}");
}

/// Against both, each reply counts as the recorded attacks over the levels unless
/// `--reply-weight` says otherwise; a weight that is not a positive number is refused.
#[test]
fn against_both_each_reply_weighs_its_share_of_the_recorded_attacks() {
    let layout = layouts().join("funnel.json");
    let dir = replay("base-s6");
    let (layout, dir) = (layout.to_string_lossy(), dir.to_string_lossy());
    let base = [&*layout, "--attacks", &*dir, "--suggest", "--budget", "2", "--steps", "1", "--against", "both"];
    let summary = |extra: &[&str]| {
        let args: Vec<&str> =
            base.iter().copied().chain(["--mp", "8,16", "--json"]).chain(extra.iter().copied()).collect();
        let (_, out, err) = stress(&args);
        let last = out.lines().last().unwrap_or_else(|| panic!("no output; stderr: {err}")).to_string();
        let v: serde_json::Value = serde_json::from_str(&last).unwrap_or_else(|e| panic!("{last}: {e}"));
        v["summary"].clone()
    };
    let s = summary(&[]);
    let attacks = s["attacks"].as_f64().unwrap_or_else(|| panic!("no attack count in {s}"));
    assert!(attacks >= 4.0, "{s}");
    assert_eq!(s["planner"]["reply_weight"].as_f64(), Some((attacks / 2.0).max(1.0)), "{s}");
    let s = summary(&["--reply-weight", "3"]);
    assert_eq!(s["planner"]["reply_weight"].as_f64(), Some(3.0), "{s}");

    let (code, _, err) = stress(&base.iter().copied().chain(["--reply-weight", "0"]).collect::<Vec<_>>());
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a positive number"), "{err}");
}
