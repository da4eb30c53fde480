//! A flipped game side by side: both versions' replays on two boards from the turn they
//! parted, with what each version did that turn and both HP curves beside them.

use super::{VersionsAction, VersionsView};
use crate::app::board::icons::IconTextures;
use crate::app::compare_view::CompareView;
use egui::Ui;
use egui_plot::{Line, LineStyle, Plot};
use terminal_core::engine::geometry::Player;
use terminal_core::replay::Replay;
use terminal_core::side_by_side::SideBySide;
use terminal_core::versions::GameComparison;

/// The flipped game open side by side.
pub struct FlippedGame {
    /// Its place in the report's flipped games.
    pub index: usize,
    pub game: GameComparison,
    /// Base on the left, the new version on the right.
    pub view: CompareView,
    /// Per turn: [base's HP, new's HP, the opponent's HP against the base, against the new].
    curves: [Vec<[f64; 2]>; 4],
}

/// A frame's place in its turn as the comparison counts it (0: the turn's deploy frame,
/// whose action frame is -1; then one per action tick).
fn frame_in_turn(action_frame: i32) -> i32 {
    action_frame + 1
}

/// HP at each turn's start of `seat` in `replay`.
fn hp_curve(replay: &Replay, seat: Player) -> Vec<[f64; 2]> {
    replay
        .turn_starts()
        .into_iter()
        .map(|i| &replay.frames[i])
        .map(|f| [f64::from(f.turn_info.turn), f64::from(f.stats[seat.index()].hp)])
        .collect()
}

impl VersionsView {
    /// Opens flipped game `i` side by side at the turn the versions parted (the first turn
    /// if they never did).
    pub(super) fn open_flipped(&mut self, i: usize) {
        let Some(report) = &self.rt.report else { return };
        let Some(game) = report.flipped().get(i).map(|g| (*g).clone()) else { return };
        let (Some(base), Some(new)) = (&game.base, &game.new) else {
            self.rt.message = "This game has no replay of one of the versions".into();
            return;
        };
        let mut model = match SideBySide::open(&base.replay, &new.replay) {
            Ok(model) => model,
            Err(e) => {
                self.rt.message = format!("Cannot open the two replays: {e}");
                return;
            }
        };
        let seat = Player::from_number(i64::from(game.seat)).unwrap_or(Player::One);
        let curves = [
            hp_curve(&model.a, seat),
            hp_curve(&model.b, seat),
            hp_curve(&model.a, seat.opponent()),
            hp_curve(&model.b, seat.opponent()),
        ];
        match &game.divergence {
            Some(d) => model.seek(d.turn, frame_in_turn(d.action_frame)),
            None => model.seek(0, 0),
        }
        self.rt.message = match &game.divergence {
            Some(d) => format!("{}: the versions parted at turn {}", game.opponent, d.turn),
            None => format!("{}: no turn where the versions parted was found", game.opponent),
        };
        self.rt.side_by_side = Some(FlippedGame { index: i, game, view: CompareView::new(model), curves });
    }
}

impl FlippedGame {
    /// The two boards, with what parted the versions beside them; true when "Close
    /// comparison" was pressed.
    pub fn show(
        &mut self,
        ui: &mut Ui,
        icons: Option<&IconTextures>,
        dark: bool,
        out: &mut Vec<VersionsAction>,
    ) -> bool {
        egui::Panel::right("versions-flipped-side").resizable(true).default_size(300.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| self.side(ui, out));
        });
        let mut close = false;
        egui::CentralPanel::default().show(ui, |ui| {
            ui.label("Left: the base version · right: the new version");
            close = self.view.show(ui, icons, dark);
        });
        close
    }

    fn side(&self, ui: &mut Ui, out: &mut Vec<VersionsAction>) {
        let g = &self.game;
        ui.heading(format!("{} (seat {})", g.opponent, g.seat));
        for (who, result) in [("Base", &g.base), ("New", &g.new)] {
            if let Some(r) = result {
                ui.label(format!("{who}: {} (HP {:.0} vs {:.0}, {} turns)", r.word(), r.hp, r.opponent_hp, r.turns));
            }
        }
        if let Some(swing) = g.hp_swing {
            ui.label(format!("HP swing {swing:+.0}"));
        }
        ui.separator();
        match &g.divergence {
            Some(d) => {
                ui.strong(format!("Parted at turn {}, frame {}", d.turn, frame_in_turn(d.action_frame)));
                for (who, commands) in [("Base", &d.base_commands), ("New", &d.new_commands)] {
                    ui.label(format!("{who} did:"));
                    if commands.is_empty() {
                        ui.weak("  nothing");
                    }
                    for c in commands {
                        ui.monospace(format!("  {c}"));
                    }
                }
                if d.opponent_differs {
                    ui.weak("The opponent's commands differ too that turn: it answered what it saw.");
                }
            }
            None => {
                let why = g.divergence_error.as_deref().unwrap_or("the two games are the same frame by frame");
                ui.weak(format!("No turn where they parted: {why}"));
            }
        }
        ui.separator();
        ui.label("HP by turn (dashed: the opponent's)");
        let names = ["base", "new", "opponent vs base", "opponent vs new"];
        Plot::new("versions-hp").height(160.0).allow_scroll(false).show(ui, |pu| {
            for (k, (name, points)) in names.iter().zip(&self.curves).enumerate() {
                let line = Line::new(*name, points.clone());
                pu.line(if k >= 2 { line.style(LineStyle::dashed_loose()) } else { line });
            }
        });
        let turn = g.divergence.as_ref().map_or(0, |d| d.turn);
        ui.horizontal_wrapped(|ui| {
            for (who, result) in [("base", &g.base), ("new", &g.new)] {
                if let Some(r) = result
                    && ui.button(format!("Open the {who} game in the Debugger")).clicked()
                {
                    out.push(VersionsAction::OpenReplay(r.replay.clone(), turn));
                }
            }
        });
    }
}
