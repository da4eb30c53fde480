//! The Play view's panels: the match form (seats, ruleset, Start) or the running match's
//! status and replay; beside the board, the planned turn of a person's seat (SP/MP, the
//! engine's objections in a player's words, the deploys' threat, End turn) and the turns
//! played with their recaps.

use super::{LiveMatch, PlayAction, PlayView, SeatKind, refusals, status};
use crate::app::board::threat as board_threat;
use crate::app::model::{LivePace, Tool};
use crate::app::path_field::{FileKind, PathField, Pick};
use crate::app::viewer::plan_panel::PlannerIn;
use crate::app::viewer::whatif_board::BoardTool;
use egui::{Color32, RichText, Ui};
use terminal_core::engine::config::unit_name;
use terminal_core::engine::geometry::Player;
use terminal_core::engine::presets::PRESETS;
use terminal_core::replay::decision::Decision;

/// The form before a match, the status during one.
pub fn setup(ui: &mut Ui, v: &mut PlayView) -> Vec<PlayAction> {
    let mut out = Vec::new();
    if let Some(m) = &v.running {
        ui.horizontal_wrapped(|ui| {
            ui.strong(format!("Live: {} vs {}", m.names[0], m.names[1]));
            if ui.button("Stop match").on_hover_text("End the match now; its replay keeps what was played").clicked() {
                out.push(PlayAction::Stop);
            }
            ui.separator();
            ui.label(RichText::new(status::line(m, web_time::Instant::now())).strong());
        });
        if let Some(path) = &m.replay_path {
            replay_location(ui, path, "Replay being written", &mut out);
        }
        return out;
    }
    if let Some(m) = &v.last_match
        && !v.board_reached_the_end()
    {
        // The board is still showing the match: it keeps the room the form would take.
        ui.horizontal_wrapped(|ui| {
            ui.strong(format!("{} vs {}", m.names[0], m.names[1]));
            ui.label(RichText::new("The match is over: its result shows when the board gets to the end").strong());
        });
        if let Some(path) = &v.finished_replay {
            replay_location(ui, path, "Replay", &mut out);
        }
        return out;
    }
    if let Some(f) = &v.watching {
        ui.horizontal(|ui| {
            ui.strong(format!("Watching {}", f.path.display()));
            if ui.button("Stop watching").clicked() {
                out.push(PlayAction::StopWatching);
            }
        });
    }
    seat_forms(ui, v);
    // The ruleset and Start on a row of their own: the seats wrap first on a narrow window.
    ui.horizontal_wrapped(|ui| {
        ui.group(|ui| {
            let label = ui.label("Ruleset");
            PathField::new(&mut v.ruleset, Pick::File(FileKind::Json))
                .hint("preset or config file (empty: the ghost's, else base-s6)")
                .width(200.0)
                .labelled_by(label.id, "The game-configs.json of the match")
                .show(ui);
            egui::ComboBox::from_label("Presets").selected_text("pick").show_ui(ui, |ui| {
                for (slug, name, _) in PRESETS {
                    if ui.selectable_label(v.ruleset == *slug, *slug).on_hover_text(*name).clicked() {
                        v.ruleset = slug.to_string();
                    }
                }
            });
        });
        pace(ui, v, &mut out);
        if terminal_core::runner::CAN_START_ALGOS {
            ui.checkbox(&mut v.confine, "Confine algos (recommended)").on_hover_text("Limits and file, network and process rules on the algos (docs/runner.md, Confinement). Off: they run as you do — only for an algo you trust that needs more.");
        }
        if ui.button(RichText::new("Start match").strong()).clicked() {
            out.push(PlayAction::Start);
        }
    });
    if let Some(p) = &v.finished_replay {
        replay_location(ui, p, "Replay", &mut out);
    }
    out
}

/// How fast the board shows the match, chosen before it starts: a fast match is then seen
/// from turn 0 at that pace.
fn pace(ui: &mut Ui, v: &PlayView, out: &mut Vec<PlayAction>) {
    let pace = v.viewer.live_pace();
    egui::ComboBox::from_label("Pace")
        .selected_text(pace.label())
        .show_ui(ui, |ui| {
            for p in LivePace::ALL {
                if ui.selectable_label(p == pace, p.label()).clicked() {
                    out.push(PlayAction::SetPace(p));
                }
            }
        })
        .response
        .on_hover_text("How fast the board shows the match; every pace shows its last turn before the result");
}

/// Where the match's replay is, with a button that opens it in the Debugger.
fn replay_location(ui: &mut Ui, path: &std::path::Path, what: &str, out: &mut Vec<PlayAction>) {
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("{what}:"));
        ui.monospace(path.display().to_string());
        // In a page the replay is among its files once the match has ended (on disk it is
        // there from the start: no need to look every frame).
        if terminal_core::files::IN_MEMORY && !terminal_core::files::is_file(path) {
            return;
        }
        if ui.button("Open in Debugger").on_hover_text("Open this replay in the Debugger view").clicked() {
            out.push(PlayAction::OpenReplay(path.to_path_buf()));
        }
        if terminal_core::files::IN_MEMORY
            && ui.button("Download").on_hover_text("Save the replay from the page to your computer").clicked()
        {
            out.push(PlayAction::DownloadReplay(path.to_path_buf()));
        }
    });
}

/// Each seat: who sits in it, and the algo or replay. Side by side where both paths have
/// room, else one above the other; a path field takes its seat's width and shows the whole
/// path on hover.
fn seat_forms(ui: &mut Ui, v: &mut PlayView) {
    let [a, b] = &mut v.seats;
    if ui.available_width() >= 1300.0 {
        ui.columns(2, |cols| {
            seat_form(&mut cols[0], 1, a);
            seat_form(&mut cols[1], 2, b);
        });
    } else {
        seat_form(ui, 1, a);
        seat_form(ui, 2, b);
    }
}

fn seat_form(ui: &mut Ui, number: usize, seat: &mut super::SeatForm) {
    ui.horizontal(|ui| {
        ui.strong(format!("Seat {number}"));
        for k in SeatKind::ALL {
            if k == SeatKind::Algo && !terminal_core::runner::CAN_START_ALGOS {
                ui.add_enabled(false, egui::Button::selectable(false, k.label())).on_disabled_hover_text(
                    "Algos are programs, which a web page cannot start: use the desktop studio",
                );
                continue;
            }
            ui.selectable_value(&mut seat.kind, k, k.label());
        }
        match seat.kind {
            SeatKind::Human => {
                ui.weak("you play this seat, with no time limit");
            }
            SeatKind::Algo => {
                let label = ui.label(format!("Seat {number} algo"));
                let title = format!("Seat {number}'s algo folder");
                path_field(ui, &mut seat.path, Pick::Folder, "algo folder or run.sh", label.id, &title);
            }
            SeatKind::Ghost => ghost_player(ui, number, seat),
        }
    });
    if seat.kind == SeatKind::Ghost {
        // A replay's name is long: its path has a row of its own.
        ui.horizontal(|ui| {
            let label = ui.label(format!("Seat {number} replay"));
            let title = format!("Seat {number}'s replay");
            path_field(ui, &mut seat.path, Pick::File(FileKind::Replay), "a .replay[.gz]", label.id, &title);
        });
        if terminal_core::files::IN_MEMORY {
            page_replay_choice(ui, number, seat);
        }
    }
}

/// In a web page: the replays the page holds (dropped, picked, linked, played), to choose a
/// ghost from; the first is taken while the field is empty.
fn page_replay_choice(ui: &mut Ui, number: usize, seat: &mut super::SeatForm) {
    let replays: Vec<std::path::PathBuf> = terminal_core::files::memory::list_all()
        .into_iter()
        .map(|(p, _)| p)
        .filter(|p| terminal_core::files::is_replay(p))
        .collect();
    ui.horizontal_wrapped(|ui| {
        if replays.is_empty() {
            ui.weak("Drop a replay on the page (or open one) to play against its ghost");
            return;
        }
        if seat.path.trim().is_empty() {
            seat.path = replays[0].display().to_string();
        }
        let name = |p: &std::path::Path| {
            p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
        };
        let chosen = name(std::path::Path::new(seat.path.trim()));
        egui::ComboBox::from_label(format!("Seat {number}: replays in this page")).selected_text(chosen).show_ui(
            ui,
            |ui| {
                for p in &replays {
                    let text = p.display().to_string();
                    if ui.selectable_label(seat.path == text, name(p)).clicked() {
                        seat.path = text;
                    }
                }
            },
        );
    });
}

/// A path field as wide as the row leaves, the whole path on hover, Browse… beside it.
fn path_field(ui: &mut Ui, path: &mut String, pick: Pick, hint: &str, label: egui::Id, title: &str) {
    let width = (ui.available_width() - 80.0).max(160.0);
    PathField::new(path, pick).hint(hint).width(width).labelled_by(label, title).show(ui);
}

fn ghost_player(ui: &mut Ui, number: usize, seat: &mut super::SeatForm) {
    let label = |p: Option<Player>| match p {
        None => "its player of this seat".to_string(),
        Some(p) => format!("its player {}", p.number()),
    };
    egui::ComboBox::from_label(format!("Seat {number} plays")).selected_text(label(seat.ghost_player)).show_ui(
        ui,
        |ui| {
            for p in [None, Some(Player::One), Some(Player::Two)] {
                ui.selectable_value(&mut seat.ghost_player, p, label(p));
            }
        },
    );
}

/// Beside the board: the turn being planned (or being watched resolve), why the last edit
/// was refused, what the deploys would go through, and the turns played so far.
pub fn match_side(ui: &mut Ui, v: &PlayView) -> Vec<PlayAction> {
    let mut out = Vec::new();
    let Some(m) = v.running.as_ref().or(v.last_match.as_ref()) else { return out };
    let live = v.running.is_some();
    match m.planning {
        Some((turn, seat)) if live => plan(ui, v, m, turn, seat, &mut out),
        _ if live && v.viewer.live().1 && !v.viewer.caught_up() => {
            ui.heading(format!("Turn {} resolving", v.viewer.turn().unwrap_or(0)));
            ui.label(format!("{} frames to show at pace {}", v.viewer.frames_queued(), v.viewer.live_pace().label()));
            if ui.button("Skip to the present").on_hover_text("Show the match's newest frame now").clicked() {
                out.push(PlayAction::ToThePresent);
            }
        }
        _ => {}
    }
    if !live && v.board_reached_the_end() {
        if let Some(d) = m.end_frame.as_ref().and_then(Decision::of) {
            ui.heading("Match over");
            ui.label(RichText::new(d.to_string()).strong());
        }
    } else if !live {
        ui.heading(format!("Turn {} on the board", v.viewer.turn().unwrap_or(0)));
        ui.label(format!(
            "The match is over; the board shows it at pace {} ({} frames to go)",
            v.viewer.live_pace().label(),
            v.viewer.frames_queued()
        ));
        if ui.button("Skip to the end").on_hover_text("Show the last frame and the result now").clicked() {
            out.push(PlayAction::ToThePresent);
        }
    }
    ui.separator();
    history(ui, v, m, &mut out);
    out
}

const REFUSED: Color32 = Color32::from_rgb(230, 80, 60);

/// A person's planned turn: the tools, what it costs against what the player has, what the
/// engine refuses and why, the deploys' threat, Undo and End turn.
fn plan(ui: &mut Ui, v: &PlayView, m: &LiveMatch, turn: i32, seat: Player, out: &mut Vec<PlayAction>) {
    ui.heading(format!("Your turn {turn}"));
    ui.label(format!(
        "You are player {} (the {} half)",
        seat.number(),
        if seat == Player::One { "bottom" } else { "top" }
    ));
    let Some(w) = v.viewer.board_whatif() else {
        ui.label("You are looking at a past frame: your plan is kept.");
        if ui.button(RichText::new("Back to your turn").strong()).clicked() {
            out.push(PlayAction::ToThePresent);
        }
        return;
    };
    let mut tool = w.tool;
    ui.horizontal_wrapped(|ui| {
        for t in BoardTool::available(w.legacy) {
            // In a real turn an existing structure cannot vanish: it is marked for removal.
            let label = if t == BoardTool::Structure(Tool::Erase) { "Remove" } else { t.label_for(w.legacy) };
            let response = ui.selectable_value(&mut tool, t, label);
            if let Some(key) = super::shortcut_of(&PlayAction::SetTool(t)) {
                response.on_hover_text(format!("Key: {key}"));
            }
        }
    });
    if tool != w.tool {
        out.push(PlayAction::SetTool(tool));
    }
    ui.weak("Click a tile: apply the tool · right click: take a deploy or a new structure back");
    if let Some(r) = &m.refusal {
        ui.label(RichText::new(format!("Refused: {r}")).color(REFUSED).strong());
    }
    ui.separator();
    let (build, deploy) = v.planned_commands().unwrap_or_default();
    ui.label(format!("{} build command(s), {} deploy(s)", build.len(), deploy.len()));
    match &m.check {
        Some(Ok(c)) => {
            ui.label(format!("SP: spend {:.1} of {:.1}", c.sp_spent, c.sp));
            ui.label(format!("MP: spend {:.1} of {:.1}", c.mp_spent, c.mp));
            for (cmd, why) in &c.rejected {
                let words = refusals::words(&m.config, c, &w.layout, seat, cmd, why);
                ui.label(RichText::new(format!("The engine refuses: {words}")).color(REFUSED));
            }
        }
        Some(Err(e)) => {
            ui.colored_label(REFUSED, e.to_string());
        }
        None => {}
    }
    threats(ui, m);
    ui.horizontal(|ui| {
        let key = |a: &PlayAction| super::shortcut_of(a).unwrap_or_default();
        let undo = format!("Take the last edit of this turn back ({})", key(&PlayAction::UndoPlan));
        if ui.button("Undo").on_hover_text(undo).clicked() {
            out.push(PlayAction::UndoPlan);
        }
        let end = format!("Send this turn to the match ({})", key(&PlayAction::EndTurn));
        if ui.button(RichText::new("End turn").strong()).on_hover_text(end).clicked() {
            out.push(PlayAction::EndTurn);
        }
        // Said beside the button, not only in its tooltip: players look for the key.
        let end_key = key(&PlayAction::EndTurn);
        if !end_key.is_empty() {
            ui.weak(format!("or press {end_key}"));
        }
    });
    ui.separator();
    attack_planner(ui, v, seat, out);
}

/// The planner on your turn: your strongest deploys, and their threat against your base.
fn attack_planner(ui: &mut Ui, v: &PlayView, seat: Player, out: &mut Vec<PlayAction>) {
    egui::CollapsingHeader::new("Attack planner").default_open(true).show(ui, |ui| {
        ui.weak("Your strongest deploys against the opponent's structures as they stand, after your builds");
        ui.horizontal_wrapped(|ui| {
            let hint = "The opponent's strongest attack against the base you are about to send (your builds made)";
            let idle = !v.viewer.is_planning();
            if ui.add_enabled(idle, egui::Button::new("Their threat now")).on_hover_text(hint).clicked() {
                out.push(PlayAction::Threat { next_turn: false });
            }
            let hint = "The same with the MP they will have next turn if they send nothing now";
            if ui.add_enabled(idle, egui::Button::new("Their threat next turn")).on_hover_text(hint).clicked() {
                out.push(PlayAction::Threat { next_turn: true });
            }
        });
        let asked = crate::app::viewer::plan_panel::planner(ui, &v.viewer, PlannerIn::YourTurn { you: seat });
        out.extend(asked.into_iter().map(PlayAction::Planner));
    });
}

/// What each stack of the plan's deploys would go through on the planned board.
fn threats(ui: &mut Ui, m: &LiveMatch) {
    if m.threats.is_empty() {
        return;
    }
    ui.separator();
    ui.strong("Path threat of your deploys");
    for (unit_type, n, t) in &m.threats {
        let name = unit_name(usize::from(*unit_type), m.config.legacy);
        let Some(u) = t.units.iter().find(|u| u.unit_type == usize::from(*unit_type)) else { continue };
        let name = if *n == 1 { name.to_string() } else { format!("{name}s") };
        let line = format!(
            "{n} {name} from [{},{}]: each takes {} damage, {}",
            t.start.x,
            t.start.y,
            board_threat::amount(u.damage_taken),
            board_threat::outcome(&u.end)
        );
        let color = if u.end.is_killed() { REFUSED } else { ui.visuals().text_color() };
        ui.label(RichText::new(line).color(color));
    }
}

/// The turns played, each with its recap; a click plays that turn again on the board.
fn history(ui: &mut Ui, v: &PlayView, m: &LiveMatch, out: &mut Vec<PlayAction>) {
    let shown_turn = v.viewer.turn().unwrap_or(i32::MAX);
    // A turn's recap appears once the board has shown it resolve.
    let seen: Vec<_> = m.recaps.iter().filter(|r| r.turn < shown_turn || v.board_reached_the_end()).collect();
    ui.strong(format!("Turns played, from P{}'s side", m.side().number()));
    if seen.is_empty() {
        ui.weak("Each turn's recap appears here once it has resolved.");
    }
    for r in seen.iter().rev() {
        let text = r.to_string();
        if ui.add(egui::Button::new(text).wrap()).on_hover_text("Play this turn again on the board").clicked() {
            out.push(PlayAction::ReplayTurn(r.turn));
        }
    }
}
