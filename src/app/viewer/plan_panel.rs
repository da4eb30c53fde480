//! The Debugger's attack planner section: the attacking seat, its MP and the groups a deploy
//! may have; the search with its progress; the best candidates (hovering one draws its
//! units' walks on the board, "Try" runs it as a what-if beside the turn as played).

use super::plan::AttackPlanner;
use super::{Viewer, ViewerAction};
use egui::Ui;
use terminal_core::engine::Player;
use terminal_core::planner::{Candidate, FrontierPoint};

/// Where the planner is shown.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum PlannerIn {
    /// A replay's turn in the Debugger: either seat, any MP; a candidate is tried as a what-if.
    Debugger,
    /// A person's turn in Play: their seat and MP; a candidate goes into the turn's plan. A
    /// search for the other seat is its threat: its best attack's walks are drawn.
    YourTurn { you: Player },
}

/// The planner section: in the Debugger's right-hand panel, or in Play's turn panel.
pub fn planner(ui: &mut Ui, v: &Viewer, place: PlannerIn) -> Vec<ViewerAction> {
    let mut out = Vec::new();
    let p = &v.planner;
    let can = match place {
        PlannerIn::Debugger => {
            settings(ui, p, &mut out);
            v.turn().is_some() && v.shown.path.is_some() && !v.shown.live
        }
        PlannerIn::YourTurn { .. } => true,
    };
    if p.is_running() {
        ui.horizontal(|ui| {
            if ui.button("Stop planning").clicked() {
                out.push(ViewerAction::StopPlan);
            }
            ui.spinner();
        });
        if let Some(progress) = &p.progress {
            progress.show(ui);
        }
        // The thread's answer arrives without any input: look again soon.
        ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
    } else {
        let hint = "Search this turn's strongest deploys of the attacker: every single group, then pairs and triples";
        if ui.add_enabled(can, egui::Button::new("Plan attack")).on_hover_text(hint).clicked() {
            out.push(ViewerAction::PlanAttack);
        }
    }
    if let Some(e) = &p.error {
        ui.colored_label(ui.visuals().warn_fg_color, e);
    }
    candidates(ui, v, place, &mut out);
    out
}

/// The attacker, its MP and the groups per deploy.
fn settings(ui: &mut Ui, p: &AttackPlanner, out: &mut Vec<ViewerAction>) {
    let mut seat = p.seat;
    ui.horizontal(|ui| {
        for s in Player::both() {
            ui.selectable_value(&mut seat, s, format!("Player {} attacks", s.number()));
        }
    });
    if seat != p.seat {
        out.push(ViewerAction::SetPlanSeat(seat));
    }
    ui.horizontal(|ui| {
        let mut other = p.mp.is_some();
        if ui.checkbox(&mut other, "Other MP").on_hover_text("Unticked: the MP the attacker had that turn").changed() {
            out.push(ViewerAction::SetPlanMp(other.then_some(p.mp.unwrap_or(10.0))));
        }
        if let Some(mut mp) = p.mp {
            let drag = ui.add(egui::DragValue::new(&mut mp).range(0.0..=200.0).speed(0.5).suffix(" MP"));
            if drag.changed() {
                out.push(ViewerAction::SetPlanMp(Some(mp)));
            }
        }
    });
    let mut groups = p.max_groups;
    ui.horizontal(|ui| {
        ui.label("Groups per deploy");
        for n in 1..=3 {
            ui.selectable_value(&mut groups, n, n.to_string());
        }
    });
    if groups != p.max_groups {
        out.push(ViewerAction::SetPlanGroups(groups));
    }
}

/// The best candidates of the last search: what each sends, what it does, "Try" or "Use".
fn candidates(ui: &mut Ui, v: &Viewer, place: PlannerIn, out: &mut Vec<ViewerAction>) {
    let Some(done) = &v.planner.result else { return };
    ui.label(format!(
        "Turn {}: player {} attacking with {:.1} MP ({} deploys run, {:.1} s)",
        done.turn,
        done.seat.number(),
        done.board.mp(),
        done.evaluated,
        done.seconds
    ));
    if done.candidates.is_empty() {
        ui.weak("Nothing to deploy with this MP.");
        return;
    }
    let threat = matches!(place, PlannerIn::YourTurn { you } if you != done.seat);
    if threat {
        let best = &done.candidates[0];
        let text = format!(
            "Their threat: with {:.1} MP the opponent's best takes {:.0} HP and {:.1} SP of the base you are about to send",
            done.board.mp(),
            best.damage,
            best.sp_destroyed
        );
        ui.colored_label(ui.visuals().warn_fg_color, egui::RichText::new(text).strong());
        ui.weak("Its walks are on the board; hover another row for its own");
    }
    ui.weak("Distinct attacks: deploys whose units walk the same paths to the same outcome are one row");
    ui.weak("HP damage first, then the SP of structures destroyed, then MP kept · hover: the walks");
    let mut hovered = None;
    for (i, row) in done.options.iter().enumerate() {
        ui.separator();
        let c = &row.best;
        let row_ui = ui.horizontal_wrapped(|ui| {
            let (button, hint) = match place {
                PlannerIn::Debugger => ("Try", "Run it as a what-if, side by side with the turn as played"),
                PlannerIn::YourTurn { .. } => ("Use", "Put these deploys in your turn's plan, in place of its deploys"),
            };
            // The opponent's attacks cannot go into your plan.
            if !threat && ui.button(button).on_hover_text(hint).clicked() {
                out.push(ViewerAction::TryCandidate(i));
            }
            ui.strong(format!("#{}", i + 1));
            if row.recorded {
                ui.label(egui::RichText::new("recorded").italics()).on_hover_text("What the player sent that turn");
            }
            ui.label(v.describe_option(row)).on_hover_text(format!("Best of the row: {}", v.describe_groups(c)));
        });
        let figures = ui.weak(format!(
            "{:.0} HP · {} structure{} destroyed ({:.1} SP) · {:.1} MP · {:.2} HP/MP",
            c.damage,
            c.structures_destroyed,
            if c.structures_destroyed == 1 { "" } else { "s" },
            c.sp_destroyed,
            c.mp_spent,
            row.damage_per_mp()
        ));
        if row_ui.response.hovered() || figures.hovered() || ui.rect_contains_pointer(row_ui.response.rect) {
            hovered = Some(i);
        }
    }
    // A threat shows its best attack's walks until another row is hovered.
    if threat && hovered.is_none() {
        hovered = Some(0);
    }
    if hovered != v.planner.hovered_index() {
        out.push(ViewerAction::HoverCandidate(hovered));
    }
    if place == PlannerIn::Debugger {
        ui.separator();
        if let Some(i) = frontier_chart(ui, "planner-frontier", &done.frontier) {
            out.push(ViewerAction::TryFrontier(i));
        }
    }
}

/// The cost to break a base: the best attack's HP damage and SP destroyed against MP, a point
/// a level (`id` tells charts apart). Returns the level a click picked (the nearest in MP).
pub fn frontier_chart(ui: &mut Ui, id: &str, frontier: &[FrontierPoint]) -> Option<usize> {
    if frontier.is_empty() {
        return None;
    }
    ui.label(egui::RichText::new("Cost to break it: the best attack at each MP").strong());
    let first = frontier.iter().find(|p| p.best.as_ref().is_some_and(|b| b.damage > 0.0));
    let top = frontier.last().map_or(0.0, |p| p.mp);
    ui.weak(match first {
        Some(p) => format!("First HP lost at {} MP · click a point: its attack as a what-if", p.mp),
        None => format!("No HP lost up to {top} MP · click a point: its attack as a what-if"),
    });
    let series = |f: fn(&Candidate) -> f32| -> Vec<[f64; 2]> {
        frontier.iter().map(|p| [f64::from(p.mp), f64::from(p.best.as_ref().map_or(0.0, f))]).collect()
    };
    let (hp, sp) = (series(|c| c.damage), series(|c| c.sp_destroyed));
    let shown = egui_plot::Plot::new(id)
        .height(140.0)
        .allow_scroll(false)
        .allow_drag(false)
        .allow_zoom(false)
        // Top left: the curves rise to the right, so the legend covers none of them.
        .legend(egui_plot::Legend::default().position(egui_plot::Corner::LeftTop))
        .x_axis_label("MP")
        .show(ui, |pu| {
            pu.line(egui_plot::Line::new("HP damage", hp.clone()));
            pu.points(egui_plot::Points::new("HP damage", hp).radius(2.5));
            pu.line(egui_plot::Line::new("SP destroyed", sp));
            pu.pointer_coordinate()
        });
    let at = shown.inner.filter(|_| shown.response.clicked())?;
    let distance = |p: &FrontierPoint| (f64::from(p.mp) - at.x).abs();
    frontier.iter().enumerate().min_by(|a, b| distance(a.1).total_cmp(&distance(b.1))).map(|(i, _)| i)
}
