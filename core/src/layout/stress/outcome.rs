//! What one attack did to the layout, and the totals, heatmap and worst attacks of a run.
//! Every tile is in the layout's own view (attacks met in the other seat are rotated back).

use super::Attack;
use crate::engine::geometry::{CELLS, Tile};

/// How much of an attack's course `simulate` keeps besides its counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// The counts only (the suggestion search's thousands of runs).
    Counts,
    /// Also the tiles: breaches, deaths, losses, damage taken and the tiles walked (heatmaps).
    Tiles,
    /// Also each unit's walk, tile by tile (an attack shown on the board): kilobytes per
    /// attack, so not for a whole set of them.
    Walks,
}

/// A set of board tiles (one bit per tile of the 28×28 square).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileSet([u64; CELLS.div_ceil(64)]);

impl Default for TileSet {
    fn default() -> Self {
        TileSet([0; CELLS.div_ceil(64)])
    }
}

impl TileSet {
    pub fn insert(&mut self, t: Tile) {
        if t.in_play() {
            let i = t.index();
            self.0[i / 64] |= 1 << (i % 64);
        }
    }

    pub fn contains(&self, t: Tile) -> bool {
        t.in_play() && self.0[t.index() / 64] & (1 << (t.index() % 64)) != 0
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn iter(&self) -> impl Iterator<Item = Tile> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &w)| {
            let mut bits = w;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(Tile::from_index(k * 64 + b))
            })
        })
    }
}

/// What one attack did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AttackOutcome {
    pub breaches: u32,
    /// HP the defender lost to breaches.
    pub hp_lost: f32,
    /// Mobile units the attacker deployed.
    pub attackers_spawned: u32,
    /// Attacker's mobile units shot down (or caught in a blast) by the layout.
    pub attackers_destroyed: u32,
    /// Attacker's mobile units that ended their path short of the edge and exploded.
    pub self_destructs: u32,
    pub structures_lost: u32,
    /// SP invested (base and upgrade prices) in the structures lost.
    pub sp_lost: f32,
    pub action_frames: u32,
    /// Damage the attacker's units dealt to the layout's structures, every hit in full.
    pub structure_damage: f32,
    /// Damage the attacker's mobile units took (shields first, every hit in full).
    pub damage_received: f32,
    /// Entries of the deploy line the engine refused (0 for a recorded attack).
    pub rejected: u32,
    // The tiles below are filled by a detailed run only.
    /// Where each breach scored, with its damage.
    pub breach_tiles: Vec<(Tile, f32)>,
    /// Where the attacker's units were destroyed or exploded.
    pub attacker_deaths: Vec<Tile>,
    /// Where the layout's structures were destroyed.
    pub lost_tiles: Vec<Tile>,
    /// Damage taken per structure of the layout (by tile), every hit counted in full.
    pub damage_taken: Vec<(Tile, f32)>,
    /// Every tile an attacker's mobile unit stood on.
    pub path: TileSet,
    /// Each attacker's mobile unit's walk, in id (deploy) order.
    pub unit_paths: Vec<UnitTrack>,
}

/// The tiles one mobile unit stood on, from its deploy tile to where its walk ended.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UnitTrack {
    pub id: u32,
    pub unit_type: u8,
    pub tiles: Vec<Tile>,
}

/// Sums over a run.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct Totals {
    pub attacks: usize,
    /// Attacks with at least one breach.
    pub attacks_breached: usize,
    pub breaches: u64,
    pub hp_lost: f64,
    pub attackers_spawned: u64,
    pub attackers_destroyed: u64,
    pub structures_lost: u64,
    pub sp_lost: f64,
}

impl Totals {
    pub fn of(outcomes: &[AttackOutcome]) -> Totals {
        let mut t = Totals { attacks: outcomes.len(), ..Totals::default() };
        for o in outcomes {
            t.attacks_breached += usize::from(o.breaches > 0);
            t.breaches += u64::from(o.breaches);
            t.hp_lost += f64::from(o.hp_lost);
            t.attackers_spawned += u64::from(o.attackers_spawned);
            t.attackers_destroyed += u64::from(o.attackers_destroyed);
            t.structures_lost += u64::from(o.structures_lost);
            t.sp_lost += f64::from(o.sp_lost);
        }
        t
    }
}

/// Per-tile sums for the board overlay, indexed by `Tile::index()` (layout view).
#[derive(Debug, Clone, PartialEq)]
pub struct Heatmap {
    /// Breaches scored on each tile.
    pub breaches: Vec<u32>,
    /// Attacker's units destroyed or exploded on each tile.
    pub attacker_deaths: Vec<u32>,
    /// Damage taken by the layout's structure on each tile.
    pub damage_taken: Vec<f32>,
    /// Attacks in which the structure on each tile was destroyed.
    pub structures_lost: Vec<u32>,
}

impl Heatmap {
    pub fn of(outcomes: &[AttackOutcome]) -> Heatmap {
        let mut h = Heatmap {
            breaches: vec![0; CELLS],
            attacker_deaths: vec![0; CELLS],
            damage_taken: vec![0.0; CELLS],
            structures_lost: vec![0; CELLS],
        };
        for o in outcomes {
            for (t, _) in &o.breach_tiles {
                h.breaches[t.index()] += 1;
            }
            for t in &o.attacker_deaths {
                h.attacker_deaths[t.index()] += 1;
            }
            for (t, d) in &o.damage_taken {
                h.damage_taken[t.index()] += d;
            }
            for t in &o.lost_tiles {
                h.structures_lost[t.index()] += 1;
            }
        }
        h
    }
}

/// The result of a run: per attack (in the attack set's order), totals and heatmap.
#[derive(Debug, Clone, PartialEq)]
pub struct StressReport {
    pub outcomes: Vec<AttackOutcome>,
    pub totals: Totals,
    pub heatmap: Heatmap,
    /// Indices of the attacks by harm: HP lost, then SP lost, then breaches; most first.
    pub worst: Vec<usize>,
}

impl StressReport {
    pub fn new(attacks: &[Attack], outcomes: Vec<AttackOutcome>) -> StressReport {
        debug_assert_eq!(attacks.len(), outcomes.len());
        let totals = Totals::of(&outcomes);
        let heatmap = Heatmap::of(&outcomes);
        let mut worst: Vec<usize> = (0..outcomes.len()).collect();
        worst.sort_by(|&a, &b| {
            let (x, y) = (&outcomes[a], &outcomes[b]);
            y.hp_lost.total_cmp(&x.hp_lost).then(y.sp_lost.total_cmp(&x.sp_lost)).then(y.breaches.cmp(&x.breaches))
        });
        StressReport { outcomes, totals, heatmap, worst }
    }

    /// The `n` worst attacks that did any harm.
    pub fn worst(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        self.worst.iter().copied().filter(|&i| self.outcomes[i].hp_lost > 0.0 || self.outcomes[i].sp_lost > 0.0).take(n)
    }
}

/// Two runs of the same attacks: per attack the change in HP lost (second minus first).
pub fn compare(first: &StressReport, second: &StressReport) -> Vec<f32> {
    first.outcomes.iter().zip(&second.outcomes).map(|(a, b)| b.hp_lost - a.hp_lost).collect()
}
