//! The studio's own commands: views, theme, ruleset, help, and what one view hands another.

use super::StudioApp;
use super::arena::ArenaAction;
use super::command::{Command, FileAction, FileCommand, StudioCommand, UiCommand};
use super::model::View;

impl StudioApp {
    pub(super) fn apply_studio(&mut self, command: StudioCommand) {
        match command {
            StudioCommand::SetView(v) => self.state.view = v,
            StudioCommand::SetTheme(t) => self.state.theme = t,
            StudioCommand::SetRuleset(spec) => self.set_ruleset(spec),
            StudioCommand::WatchReplay(p) => {
                self.state.play.watch_file(&p);
                self.state.view = View::Play;
            }
            StudioCommand::PlayAgainstGhost(p) => {
                self.state.play.play_against(&p);
                self.state.view = View::Play;
            }
            StudioCommand::SimulateLayout => {
                let e = &self.state.editor.editor;
                let config = std::sync::Arc::new(e.config.clone());
                self.state.viewer.start_layout_whatif(e.layout.clone(), config, self.ctx.as_ref());
                self.state.view = View::Debugger;
            }
            StudioCommand::OpenAttackWhatIf { replay, turn, attacker, attack_try } => {
                self.state.remember(&replay);
                self.state.view = View::Debugger;
                self.state.viewer.open_attack_whatif(&replay, turn, attacker, *attack_try, self.ctx.as_ref());
            }
            StudioCommand::RunAttackTry { attacker, attack_try } => {
                self.state.view = View::Debugger;
                self.state.viewer.open_layout_attack(attacker, *attack_try, self.ctx.as_ref());
            }
            StudioCommand::OpenReplayAt { replay, turn } => {
                self.state.remember(&replay);
                self.state.view = View::Debugger;
                self.state.viewer.open_at(&replay, turn, self.ctx.as_ref());
            }
            StudioCommand::LabAttacks { label, files, index, ruleset } => {
                let empty = self.state.editor.editor.layout.is_empty();
                self.state.editor.lab.use_selection(label, files, index, ruleset.as_deref(), empty);
                self.state.editor.prefs.lab_shown = true;
                self.state.view = View::Editor;
            }
            StudioCommand::CopyText(text) => self.rt.copy = Some(text),
            StudioCommand::Remember(p) => self.state.remember(&p),
            StudioCommand::ArenaGhosts { label, files, me, my_seats } => {
                self.apply_arena(ArenaAction::UseGhosts(super::arena::GhostSelection { label, files, me, my_seats }));
                self.state.view = View::Arena;
            }
        }
    }

    /// An action of the Arena tab, and what it leads to.
    fn apply_arena(&mut self, action: ArenaAction) {
        for c in self.state.arena.apply(action) {
            self.apply(c);
        }
    }

    /// The table's commands that belong to no view.
    pub(super) fn run_studio(&mut self, command: UiCommand) {
        let ask = |action| Command::File(FileCommand::Ask(action));
        let next = match command {
            // Open… (Ctrl+O) opens what the view shown opens: the Editor's layouts, else replays.
            UiCommand::OpenLayout if self.state.view == View::Editor => ask(FileAction::OpenLayout),
            UiCommand::OpenLayout => ask(FileAction::OpenReplay),
            UiCommand::OpenReplay => ask(FileAction::OpenReplay),
            UiCommand::ImportReplay => ask(FileAction::ImportReplay),
            UiCommand::ExportPython => ask(FileAction::ExportPython),
            UiCommand::ExportPng => ask(FileAction::ExportPng),
            UiCommand::CompareReplays => Command::File(FileCommand::CompareDialog),
            UiCommand::CopyPython => return self.copy_python(),
            UiCommand::ToggleTheme => Command::Studio(StudioCommand::SetTheme(self.state.theme.toggled())),
            UiCommand::OpenMatch => return self.ask_for_match(),
            UiCommand::ToggleHelp => {
                self.rt.show_help = !self.rt.show_help;
                return;
            }
            other => {
                *self.message_mut() = format!("{} is not a studio command", other.info().label);
                return;
            }
        };
        self.apply(next);
    }

    /// Switches the studio's ruleset (and the editor's tallies with it).
    fn set_ruleset(&mut self, spec: String) {
        match terminal_core::engine::presets::load_config(&spec) {
            Ok(c) => {
                self.state.editor.editor.set_config(c);
                *self.message_mut() = format!("Ruleset: {spec}");
                self.state.ruleset = spec;
            }
            Err(e) => *self.message_mut() = format!("Ruleset not loaded: {e}"),
        }
    }

    /// Opens the window asking for a match of the website (not in the browser, which cannot
    /// reach the site: its replays are downloaded there by hand and dropped on the page).
    fn ask_for_match(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let api = self.state.library.website_api();
            self.rt.open_match = Some(super::open_match::OpenMatchPrompt::new(api, super::paths::site_matches_dir()));
        }
        #[cfg(target_arch = "wasm32")]
        {
            *self.message_mut() =
                "Open match…: the web page cannot reach the game's website; download the replay there and drop it here"
                    .into();
        }
    }

    fn copy_python(&mut self) {
        let e = &self.state.editor.editor;
        let text = e.layout.to_python(e.player);
        *self.message_mut() =
            format!("Copied {} lines of Python for player {}", text.lines().count(), e.player.number());
        self.rt.copy = Some(text);
    }
}
