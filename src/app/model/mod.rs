//! The studio's plain data: the types every view, the command table and the saved state share.
//! A leaf: it imports nothing from the rest of the app, so no view depends on another view
//! through it.

mod board_view;
mod editing;
mod event_kind;
mod live_pace;
mod overlays;
mod plot_metric;
mod theme;
mod view;

pub use board_view::{BoardView, MAX_ZOOM, MIN_ZOOM};
pub use editing::{Edit, NO_UPGRADES, Tool};
pub use event_kind::EventKind;
pub use live_pace::LivePace;
pub use overlays::{DebugOverlays, Overlays};
pub use plot_metric::PlotMetric;
pub use theme::Theme;
pub use view::View;
