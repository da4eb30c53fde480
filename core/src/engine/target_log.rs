//! What the engine records of each attack when `Game::target_log` is on: the target it hit,
//! the one the explaining variant (`targeting.rs`) picks, and the criterion that decided.

/// The criterion that separated the chosen target from the best other candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Criterion {
    /// Only one unit was in reach.
    Single,
    /// Mobile units are preferred over structures.
    MobileBeforeStructure,
    /// Nearest.
    Distance,
    /// Lowest health.
    Health,
    /// Nearest the attacker's own back row (furthest down the board for player 1).
    Row,
    /// Nearest a side edge.
    Side,
    /// Newest (highest id).
    Id,
}

/// One attack as the engine chose it, with the deciding criterion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TargetChoice {
    pub attacker_id: u32,
    /// The target the engine hit.
    pub target_id: u32,
    /// The target `explain_target` picked (equal to `target_id` unless the two disagree).
    pub explained_id: u32,
    pub criterion: Criterion,
}
