//! Companion files beside a replay (annotations and stderr logs), and what-if from an editor layout.

use std::sync::Arc;
use terminal_core::engine::config::{SCOUT, TURRET, WALL};
use terminal_core::engine::frame::Stats;
use terminal_core::engine::presets::preset;
use terminal_core::engine::{Command, Player, Tile};
use terminal_core::session::companions::{AnnotationKind, load};
use terminal_core::session::whatif::{PlacedStructure, WhatIfSpec, game_from_structures, run};
use terminal_core::session::{Event, Request, Session, WhatIfSource};

#[test]
fn annotations_and_logs_are_read_and_rotated_for_player_two() {
    let dir = tempfile::tempdir().expect("tempdir");
    let replay = dir.path().join("game.replay");
    let lines = [
        r##"{"turn":3,"player":1,"kind":"tile","x":13,"y":5,"color":"#ff0000","label":"hole"}"##,
        r#"{"turn":3,"player":2,"kind":"line","from":[14,0],"to":[13,27]}"#,
        r#"{"turn":4,"player":2,"kind":"text","x":13,"y":2,"text":"SP 12.0"}"#,
        r#"{"turn":4,"player":2,"kind":"circle","x":1,"y":1}"#,
        "not json",
        "",
    ];
    std::fs::write(dir.path().join("game.replay.annotations.jsonl"), lines.join("\n")).expect("write");
    std::fs::write(dir.path().join("game.replay.p1.log"), "hello\n--- turn 0 ---\nbuilding\n--- turn 1 ---\nattack\n")
        .expect("write");
    let c = load(&replay);
    let t3 = c.annotations(3);
    assert_eq!(t3.len(), 2);
    assert_eq!(t3[0].kind, AnnotationKind::Tile { tile: Tile::new(13, 5), label: Some("hole".into()) });
    assert_eq!(t3[0].color.as_deref(), Some("#ff0000"));
    assert_eq!(t3[1].kind, AnnotationKind::Line { from: Tile::new(13, 27), to: Tile::new(14, 0) });
    assert_eq!(c.annotations(4).len(), 1);
    assert_eq!(c.annotations(4)[0].kind, AnnotationKind::Text { tile: Tile::new(14, 25), text: "SP 12.0".into() });
    assert_eq!(c.problems.len(), 2, "{:?}", c.problems);
    assert_eq!(c.log_lines(Player::One, -1), ["hello"]);
    assert_eq!(c.log_lines(Player::One, 0), ["building"]);
    assert_eq!(c.log_lines(Player::One, 1), ["attack"]);
    assert!(c.log_lines(Player::Two, 0).is_empty());
    // Missing files: empty, no problems.
    let none = load(&dir.path().join("other.replay.gz"));
    assert!(none.annotations_by_turn.is_empty() && none.problems.is_empty());
}

#[test]
fn what_if_from_an_editor_layout() {
    let config = Arc::new(preset("base-s6").expect("preset"));
    let stats = Stats { hp: 30.0, sp: 40.0, mp: 10.0, time_ms: 0 };
    let walls = (0..28).filter_map(|x| {
        let t = Tile::new(x, 14);
        t.in_play().then_some(PlacedStructure { tile: t, unit_type: WALL as u8, upgraded: false })
    });
    let mut p2: Vec<PlacedStructure> = walls.collect();
    p2.retain(|s| s.tile.x != 20);
    p2.push(PlacedStructure { tile: Tile::new(20, 16), unit_type: TURRET as u8, upgraded: true });
    let layout = game_from_structures(Arc::clone(&config), 5, &[Vec::new(), p2], [stats, stats]).expect("layout");
    assert_eq!(layout.units.len(), 28);
    let scouts = vec![Command::spawn(SCOUT, 13, 0); 5];
    let spec = WhatIfSpec { commands: [Some(scouts), None], ..WhatIfSpec::default() };
    let t = run(&layout, None, &spec, "five scouts").expect("run");
    assert_eq!(t.turn, 5);
    assert_eq!(t.summary.rejected, [0, 0]);
    assert!(t.summary.mp_lost[0] > 0.0 || t.summary.breaches[0] > 0, "{:?}", t.summary);
    assert!(t.summary.unit_damage[1] > 0.0, "the upgraded turret shoots: {:?}", t.summary);
    // The same through the session, with the edit on the P1 side.
    let mut s = Session::inline();
    let events = s.request(Request::RunWhatIf {
        source: WhatIfSource::Layout(Box::new(layout)),
        spec: Box::new(spec),
        label: "again".into(),
    });
    match events.as_slice() {
        [Event::WhatIfResult(r)] => assert_eq!(r.summary, t.summary),
        other => panic!("{other:?}"),
    }
    // A structure on the wrong half is an error.
    let bad = [vec![PlacedStructure { tile: Tile::new(13, 20), unit_type: WALL as u8, upgraded: false }], Vec::new()];
    assert!(game_from_structures(config, 0, &bad, [stats, stats]).is_err());
}
