//! The summary as CSV files and as a text table for the terminal.

use super::error::ArenaError;
use super::events::{ArenaOutcome, StopReason};
use super::sprt::SprtDecision;
use super::stats::Summary;
use crate::files::write_atomic;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

/// One row per algo: results, interval, per-seat results, incidents and rating.
pub(crate) fn algos_csv(s: &Summary) -> String {
    let mut out = String::from(
        "algo,games,wins,losses,errors,win_rate,wilson_lo,wilson_hi,p1_games,p1_wins,p2_games,p2_wins,\
         mean_hp_margin,mean_turns,mean_compute_ms_per_turn,crashes,failed_to_load,hard_timeouts,\
         matches_with_timeouts,timeout_deaths,time_penalty_hp,time_penalty_turns,elo,elo_sd,elo_lo,elo_hi\n",
    );
    for a in &s.algos {
        let f = &a.figures;
        let r = s.rating_of(&a.label);
        let _ = writeln!(
            out,
            "{},{},{},{},{},{:.4},{:.4},{:.4},{},{},{},{},{:.3},{:.2},{:.2},{},{},{},{},{},{},{},{:.1},{:.1},{:.1},{:.1}",
            csv_field(&a.label),
            a.games,
            a.wins,
            a.losses,
            a.errors,
            f.win_rate,
            f.wilson_lo,
            f.wilson_hi,
            a.as_p1.games,
            a.as_p1.wins,
            a.as_p2.games,
            a.as_p2.wins,
            f.mean_hp_margin,
            f.mean_turns,
            f.mean_compute_ms,
            a.crashes,
            a.failed_to_load,
            a.hard_timeouts,
            a.matches_with_timeouts,
            a.timeout_deaths,
            a.time_penalty_hp,
            a.time_penalty_turns,
            r.map_or(0.0, |r| r.elo),
            r.map_or(0.0, |r| r.sd),
            r.map_or(0.0, |r| r.lo),
            r.map_or(0.0, |r| r.hi),
        );
    }
    out
}

/// One row per pairing, from the first algo's side.
pub(crate) fn pairs_csv(s: &Summary) -> String {
    let mut out = String::from(
        "a,b,games,a_wins,b_wins,errors,a_win_rate,wilson_lo,wilson_hi,a_p1_games,a_p1_wins,a_p2_games,a_p2_wins,\
         mean_hp_margin,mean_turns,a_mean_compute_ms_per_turn,b_mean_compute_ms_per_turn\n",
    );
    for p in &s.pairs {
        let f = &p.figures;
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{:.4},{:.4},{:.4},{},{},{},{},{:.3},{:.2},{:.2},{:.2}",
            csv_field(&p.a),
            csv_field(&p.b),
            p.games,
            p.a_wins,
            p.b_wins,
            p.errors,
            f.win_rate,
            f.wilson_lo,
            f.wilson_hi,
            p.a_as_p1.games,
            p.a_as_p1.wins,
            p.a_as_p2.games,
            p.a_as_p2.wins,
            f.mean_hp_margin,
            f.mean_turns,
            f.mean_compute_ms,
            p.b_mean_compute_ms
        );
    }
    out
}

/// Writes `summary.csv` (per algo) and `pairs.csv` (per pairing) atomically into `dir`.
pub fn write_csv(dir: &Path, s: &Summary) -> Result<Vec<PathBuf>, ArenaError> {
    let a = dir.join("summary.csv");
    let p = dir.join("pairs.csv");
    write_atomic(&a, algos_csv(s).as_bytes()).map_err(ArenaError::io(&a))?;
    write_atomic(&p, pairs_csv(s).as_bytes()).map_err(ArenaError::io(&p))?;
    Ok(vec![a, p])
}

/// The summary as a text table.
pub fn table(s: &Summary) -> String {
    let w = s.algos.iter().map(|a| a.label.len()).max().unwrap_or(4).max(4);
    let mut out = String::new();
    let _ = writeln!(out, "{} matches recorded, {} without a result (runner errors)", s.matches, s.errors);
    let _ = writeln!(
        out,
        "\n{:w$}  {:>5} {:>4} {:>4}  {:>6} {:>15}  {:>9} {:>9}  {:>7} {:>6} {:>8}  {:>6} {:>4} {:>8} {:>7} {:>7}  {:>12}",
        "algo",
        "games",
        "win",
        "loss",
        "rate",
        "95% Wilson",
        "as p1",
        "as p2",
        "HPmarg",
        "turns",
        "ms/turn",
        "crash",
        "FTL",
        "timeouts",
        "t.death",
        "pen.HP",
        "Elo (BT)"
    );
    algo_rows(&mut out, s, w);
    pairing_lines(&mut out, s);
    let _ = writeln!(
        out,
        "\nFTL = failed to load; timeouts = turns skipped at the hard limit; pen.HP = HP lost to the soft limit.\n\
         Crashes and timeouts are also in the results (the engine's winner), never removed from them.\n\
         Elo: Bradley–Terry (MM) with a 0.5-win prior per pairing, ± bootstrap s.d. (200 resamples, fixed seed)."
    );
    out
}

/// A row of the table per algo, `w` wide in its first column.
fn algo_rows(out: &mut String, s: &Summary, w: usize) {
    for a in &s.algos {
        let f = &a.figures;
        let r = s.rating_of(&a.label);
        let _ = writeln!(
            out,
            "{:w$}  {:>5} {:>4} {:>4}  {:>5.1}% [{:>5.1}, {:>5.1}]  {:>4}/{:<4} {:>4}/{:<4}  {:>+7.2} {:>6.1} {:>8.1}  {:>6} {:>4} {:>8} {:>7} {:>7}  {:>+5.0} ± {:<4.0}",
            a.label,
            a.games,
            a.wins,
            a.losses,
            100.0 * f.win_rate,
            100.0 * f.wilson_lo,
            100.0 * f.wilson_hi,
            a.as_p1.wins,
            a.as_p1.games,
            a.as_p2.wins,
            a.as_p2.games,
            f.mean_hp_margin,
            f.mean_turns,
            f.mean_compute_ms,
            a.crashes,
            a.failed_to_load,
            a.hard_timeouts,
            a.timeout_deaths,
            a.time_penalty_hp,
            r.map_or(0.0, |r| r.elo),
            r.map_or(0.0, |r| r.sd),
        );
    }
}

/// A line per pairing, from the first algo's side.
fn pairing_lines(out: &mut String, s: &Summary) {
    if !s.pairs.is_empty() {
        let _ = writeln!(out, "\npairings (first algo's side):");
        for p in &s.pairs {
            let f = &p.figures;
            let _ = writeln!(
                out,
                "  {} vs {}: {}–{} of {} ({:.1}% [{:.1}, {:.1}]), as p1 {}/{}, as p2 {}/{}, HP margin {:+.2}, {:.1} turns, {:.1} vs {:.1} ms/turn{}",
                p.a,
                p.b,
                p.a_wins,
                p.b_wins,
                p.games,
                100.0 * f.win_rate,
                100.0 * f.wilson_lo,
                100.0 * f.wilson_hi,
                p.a_as_p1.wins,
                p.a_as_p1.games,
                p.a_as_p2.wins,
                p.a_as_p2.games,
                f.mean_hp_margin,
                f.mean_turns,
                f.mean_compute_ms,
                p.b_mean_compute_ms,
                if p.errors > 0 { format!(", {} errors", p.errors) } else { String::new() }
            );
        }
    }
}

/// The end-of-arena report: how it stopped, the SPRT, the table.
pub fn outcome_text(o: &ArenaOutcome) -> String {
    let mut out = String::new();
    let how = match &o.stop {
        StopReason::Completed => "completed".to_string(),
        StopReason::Cancelled => "cancelled (resume the arena to continue)".to_string(),
        StopReason::Sprt(SprtDecision::AcceptH1) => "stopped early by the SPRT: H1 accepted".to_string(),
        StopReason::Sprt(SprtDecision::AcceptH0) => "stopped early by the SPRT: H0 accepted".to_string(),
        StopReason::Sprt(SprtDecision::Continue) => "stopped".to_string(),
        StopReason::Error(e) => format!("stopped on an error: {e}"),
    };
    let _ = writeln!(
        out,
        "arena {how}: {} of {} planned matches recorded, {} played in {:.1} s",
        o.records.len(),
        o.planned,
        o.played_now,
        o.elapsed.as_secs_f64()
    );
    if let Some(s) = &o.sprt {
        let verdict = match s.decision {
            SprtDecision::AcceptH1 => format!("{} is better than {} (H1)", s.first, s.second),
            SprtDecision::AcceptH0 => format!("{} is not better than {} by the margin asked (H0)", s.first, s.second),
            SprtDecision::Continue => "undecided".to_string(),
        };
        let _ = writeln!(
            out,
            "SPRT {} vs {}: {}–{}, LLR {:.3} in [{:.3}, {:.3}]: {verdict}",
            s.first, s.second, s.wins, s.losses, s.llr, s.lower, s.upper
        );
    }
    out.push_str(&table(&o.summary));
    out
}
