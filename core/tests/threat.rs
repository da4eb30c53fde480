//! The path threat against the real games of `../shared/replays`: wherever a turn's only
//! mobile unit walked alone, the threat computed from the board it was deployed on tells how
//! it ended exactly as the replay shows (same end, tile, frame and damage taken).

use std::sync::Arc;
use terminal_core::engine::frame::Phase;
use terminal_core::engine::{Command, CommandKind, Player};
use terminal_core::layout::threat::{self, ThreatEnd};
use terminal_core::replay::read_replay;
use terminal_core::verify::collect_replays;
use terminal_core::verify::rebuild::{game_at_turn_frame, running_max_ids};

#[path = "../../tests/common/corpus.rs"]
mod corpus;
use corpus::{CURRENT_RULESETS, replay};

/// How the replay shows a unit's walk ending: (breached?, tile, action frame, damage taken).
fn replay_end(
    frames: &[terminal_core::engine::Frame],
    id: u32,
) -> Option<(bool, terminal_core::engine::Tile, usize, f32)> {
    let mut damage = 0.0;
    for (k, f) in frames.iter().take_while(|f| f.turn_info.phase == Phase::Action).enumerate() {
        damage += f.events.damage.iter().filter(|d| d.id == id).map(|d| d.damage).sum::<f32>();
        if let Some(b) = f.events.breach.iter().find(|b| b.id == id) {
            return Some((true, b.tile, k, damage));
        }
        if let Some(d) = f.events.death.iter().find(|d| d.id == id) {
            return Some((false, d.tile, k, damage));
        }
    }
    None
}

#[test]
fn lone_units_of_the_corpus_end_as_predicted() {
    let mut checked = 0usize;
    let mut killed = 0usize;
    for ruleset in CURRENT_RULESETS {
        for file in collect_replays(&[replay(ruleset)]).into_iter().take(12) {
            let Ok(r) = read_replay(&file) else { continue };
            if r.legacy {
                continue;
            }
            let config = Arc::new(r.config.clone());
            let max_ids = running_max_ids(&r.frames);
            for start in r.turn_starts() {
                let Ok((mut game, inputs)) = game_at_turn_frame(&r, &config, start, &max_ids, None) else { continue };
                let is_mobile = |c: &Command| matches!(c.kind, CommandKind::Spawn(t) if config.units.get(t as usize).is_some_and(|u| !u.is_structure));
                let deploys: Vec<(Player, Command)> = Player::both()
                    .into_iter()
                    .flat_map(|p| inputs.lines[p.index()].1.iter().filter(|c| is_mobile(c)).map(move |c| (p, *c)))
                    .collect();
                let [(owner, deploy)] = deploys[..] else { continue };
                if inputs.early_2020 || game.units.iter().any(|u| !u.is_structure) {
                    continue;
                }
                let CommandKind::Spawn(unit_type) = deploy.kind else { continue };
                // The board the unit walks on: the turn frame with both players' builds.
                for p in Player::both() {
                    game.apply_line(p, &inputs.lines[p.index()].0);
                }
                let board = game.turn_frame();
                let Some(predicted) = threat::from_frame(&board, &config, deploy.tile) else {
                    panic!("{}: no threat from {:?}", file.display(), deploy.tile)
                };
                assert_eq!(predicted.owner, owner);
                let unit = predicted.units.iter().find(|u| u.unit_type == unit_type as usize).expect("simulated type");
                let Some(id) = r.frames[start + 1]
                    .events
                    .spawn
                    .iter()
                    .find(|s| s.tile == deploy.tile && s.unit_type == unit_type)
                    .map(|s| s.id)
                else {
                    continue;
                };
                let Some((breached, tile, frame, damage)) = replay_end(&r.frames[start + 1..], id) else { continue };
                let what = format!("{} turn {}: {:?}", file.display(), r.frames[start].turn_info.turn, unit.end);
                match unit.end {
                    ThreatEnd::Breach { tile: t, frame: f, .. } => {
                        assert!(breached && t == tile && f == frame, "{what}")
                    }
                    ThreatEnd::Killed { tile: t, frame: f, .. } | ThreatEnd::SelfDestruct { tile: t, frame: f, .. } => {
                        assert!(!breached && t == tile && f == frame, "{what} vs {tile:?} frame {frame}");
                    }
                    ThreatEnd::Stalled { .. } => panic!("{what}"),
                }
                assert_eq!(unit.damage_taken, damage, "{what}");
                checked += 1;
                killed += usize::from(unit.end.is_killed());
            }
        }
    }
    eprintln!("{checked} lone units checked, {killed} of them shot down");
    assert!(checked >= 20 && killed >= 5, "too few lone units in the corpus: {checked} ({killed} killed)");
}
