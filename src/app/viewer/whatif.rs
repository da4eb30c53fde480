//! What-if tries: starting one on the board (from the shown turn or from an editor layout),
//! running it as one request, watching a try and comparing two side by side.

use super::{Viewer, whatif_board};

use terminal_core::engine::Player;
use terminal_core::session::Request;

/// The label of a try of the turn as it was played (the attack planner's tries are
/// compared with the one of their turn).
pub(super) const AS_PLAYED: &str = "as played";

impl Viewer {
    /// "What-if try N: <label>", the on-screen title of a watched try.
    pub fn try_title(&self, index: usize) -> String {
        let label = self.whatif.tries.get(index).map_or("", |t| t.label.as_str());
        format!("What-if try {}: {label}", index + 1)
    }

    /// Plays the try at `index` on the board from its deploy frame, with the normal timeline.
    pub fn watch_try(&mut self, index: usize) {
        self.playback.playing = false;
        self.whatif.board_whatif = None;
        self.whatif.compare = None;
        self.request(Request::WatchTry { index, frame: 0 });
    }

    /// Opens two tries side by side (synchronised by frame, differing tiles highlighted).
    pub fn compare_tries(&mut self, a: usize, b: usize) {
        let (Some(ta), Some(tb)) = (self.whatif.tries.get(a), self.whatif.tries.get(b)) else {
            self.message = "pick two tries to compare".into();
            return;
        };
        let model =
            terminal_core::side_by_side::SideBySide::from_tries((ta, self.try_title(a)), (tb, self.try_title(b)));
        let debug = [std::sync::Arc::clone(&ta.debug), std::sync::Arc::clone(&tb.debug)];
        let compare = crate::app::compare_view::CompareView::with_debug(model, debug);
        self.playback.playing = false;
        self.whatif.compare = Some(compare);
    }

    /// Runs a what-if: the board's edits and deploys if a what-if is being edited, else the
    /// shown turn unchanged (a baseline row for the table).
    pub fn run_whatif(&mut self) {
        use terminal_core::session::WhatIfSource;
        use terminal_core::session::whatif::WhatIfSpec;
        let Some(w) = self.whatif.board_whatif.clone() else {
            let (spec, label) = (Box::default(), AS_PLAYED.to_string());
            self.request(Request::RunWhatIf { source: WhatIfSource::CurrentTurn, spec, label });
            return;
        };
        // The figures of the tries read from the side of the player who acted.
        self.whatif.tries_pov = w.acting();
        let commands = Player::both().map(|p| w.commands(p));
        let (source, structures) = match &w.base {
            whatif_board::WhatIfBase::ReplayTurn(turn) => {
                (WhatIfSource::ReplayTurn(*turn), Player::both().map(|p| w.structure_edits(p)))
            }
            whatif_board::WhatIfBase::Layout(config) => {
                // A layout has no stats: full health and resources enough for every deploy.
                let stats = terminal_core::engine::frame::Stats { hp: 30.0, sp: 1000.0, mp: 1000.0, time_ms: 0 };
                match terminal_core::session::whatif::game_from_structures(config.clone(), 0, &w.placed(), [stats; 2]) {
                    // The layout's structures are in the game already: no edits on top.
                    Ok(game) => (WhatIfSource::Layout(Box::new(game)), Default::default()),
                    Err(e) => {
                        self.message = format!("Error: {e}");
                        return;
                    }
                }
            }
        };
        let spec = Box::new(WhatIfSpec { structures, commands, ..WhatIfSpec::default() });
        self.request(Request::RunWhatIf { source, spec, label: w.describe() });
    }

    /// Starts editing a what-if on the board from the shown turn's turn frame (seeking to it
    /// first if a later frame is shown).
    pub fn edit_whatif_on_board(&mut self) {
        let Some(turn) = self.turn() else { return };
        self.playback.playing = false;
        // The what-if starts from the replay's turn frame, not from a watched try's.
        if self.frame_in_turn() == Some(0) && self.watching().is_none() {
            self.start_replay_whatif();
        } else {
            self.whatif.pending_whatif_turn = Some(turn);
            self.request(Request::Seek { turn, frame: 0 });
        }
    }

    /// Starts the what-if on the board from the shown frame's structures (a turn frame).
    pub(super) fn start_replay_whatif(&mut self) {
        let Some(config) = self.ruleset() else { return };
        let Some((turn, v)) = &self.shown.current else { return };
        let layout = terminal_core::layout::Layout::from_frame(&v.frame, &config, format!("turn {turn}"));
        let played = std::sync::Arc::clone(&v.played);
        let mut w = whatif_board::BoardWhatIf::on_replay_turn(*turn, layout, v.frame.stats, played);
        w.legacy = self.is_legacy();
        self.message = format!("What-if on turn {turn}: pick a tool and click the board");
        self.whatif.board_whatif = Some(w);
    }

    /// Opens a replay at the turn frame of `turn` (the Library's games, at a breach).
    pub fn open_at(&mut self, path: &std::path::Path, turn: i32, ctx: Option<&egui::Context>) {
        self.open(path, ctx);
        // The session answers in order: the turn frame comes after the load.
        self.request(Request::Seek { turn, frame: 0 });
    }

    /// Opens a recorded attack as the Layout lab ran it: the replay at `turn` for context,
    /// and the attack against the lab's layout as a try, watched on the board once run.
    pub fn open_attack_whatif(
        &mut self,
        path: &std::path::Path,
        turn: i32,
        attacker: Player,
        attack: terminal_core::layout::stress::AttackTry,
        ctx: Option<&egui::Context>,
    ) {
        self.open(path, ctx);
        self.whatif.pending_attack = Some((attacker, attack));
        self.whatif.pending_whatif_turn = Some(turn);
        // The session answers in order: the turn frame comes after the load.
        self.request(Request::Seek { turn, frame: 0 });
    }

    /// Runs a lab attack's try (its own start game and deploy) and watches it when it is back.
    pub(super) fn run_attack_try(&mut self, attacker: Player, attack: terminal_core::layout::stress::AttackTry) {
        use terminal_core::session::WhatIfSource;
        self.whatif.tries_pov = attacker;
        self.whatif.watch_next_try = true;
        self.message = format!("{}: as the Layout lab ran it (HP not capped: every breach counts)", attack.label);
        let source = WhatIfSource::Layout(Box::new(attack.game));
        self.request(Request::RunWhatIf { source, spec: Box::new(attack.spec), label: attack.label });
    }

    /// Starts a what-if from an editor layout (the Editor's "Simulate in debugger").
    pub fn start_layout_whatif(
        &mut self,
        layout: terminal_core::layout::Layout,
        config: std::sync::Arc<terminal_core::engine::Config>,
        ctx: Option<&egui::Context>,
    ) {
        self.ensure_backend(ctx);
        self.playback.playing = false;
        let name = if layout.name.is_empty() { "the editor's layout".to_string() } else { layout.name.clone() };
        let legacy = config.legacy;
        let mut w = whatif_board::BoardWhatIf::new(whatif_board::WhatIfBase::Layout(config), layout);
        w.legacy = legacy;
        self.whatif.board_whatif = Some(w);
        self.message = format!("What-if on {name}: deploy mobile units and run");
    }
}
