//! What the page's asynchronous work (a file read, a fetch) hands the studio: commands taken
//! at the start of the next frame, and the window woken to draw it.

use crate::app::command::Command;
use std::cell::RefCell;

thread_local! {
    static COMMANDS: RefCell<Vec<Command>> = const { RefCell::new(Vec::new()) };
    static MESSAGES: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    static WINDOW: RefCell<Option<egui::Context>> = const { RefCell::new(None) };
}

/// The window to wake.
pub fn set_window(ctx: egui::Context) {
    WINDOW.with(|w| *w.borrow_mut() = Some(ctx));
}

/// Asks the window for a frame.
pub fn wake() {
    WINDOW.with(|w| {
        if let Some(ctx) = w.borrow().as_ref() {
            ctx.request_repaint();
        }
    });
}

/// A command for the next frame.
pub fn push(command: Command) {
    COMMANDS.with(|c| c.borrow_mut().push(command));
    wake();
}

/// A line for the status bar (what went wrong with a file the page was given).
pub fn say(message: String) {
    web_sys::console::warn_1(&message.clone().into());
    MESSAGES.with(|m| m.borrow_mut().push(message));
    wake();
}

/// The commands waiting.
pub fn take() -> Vec<Command> {
    COMMANDS.with(|c| std::mem::take(&mut *c.borrow_mut()))
}

/// The newest message waiting, if any.
pub fn take_message() -> Option<String> {
    MESSAGES.with(|m| std::mem::take(&mut *m.borrow_mut()).pop())
}
