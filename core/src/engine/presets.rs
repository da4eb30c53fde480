//! Config presets shipped in the binary (`core/configs/`): every ruleset of the replay corpus,
//! the current-format ones and the 2018–2019 ones.

use super::config::{Config, ConfigLoadError};

/// `(slug, description, JSON text)` of every shipped ruleset.
pub const PRESETS: &[(&str, &str, &str)] = &[
    ("base-s6", "Base game, season 6 on (the rules page's BEFORE column)", include_str!("../../configs/base-s6.json")),
    (
        "special-2025",
        "Special competition 2025 (the rules page's AFTER column)",
        include_str!("../../configs/special-2025.json"),
    ),
    ("special-2024", "Summer competition 2024", include_str!("../../configs/special-2024.json")),
    ("special-2026", "Special competition July 2026", include_str!("../../configs/special-2026.json")),
    ("citadel-2026", "Citadel competition 2026", include_str!("../../configs/citadel-2026.json")),
    ("s8-2021a", "Season 8 (2021), config a", include_str!("../../configs/s8-2021a.json")),
    ("s8-2021b", "Season 8 (2021), config b", include_str!("../../configs/s8-2021b.json")),
    ("s7-2020", "Season 7 (2020 starter-kit default)", include_str!("../../configs/s7-2020.json")),
    ("live-2022", "Live ruleset 2020–2023", include_str!("../../configs/live-2022.json")),
    ("legacy-2019-s3", "Seasons 3–4 (2019), 2018–2019 rules", include_str!("../../configs/legacy-2019-s3.json")),
    ("legacy-2019-cmu", "CMU variant (Sep 2019), 2018–2019 rules", include_str!("../../configs/legacy-2019-cmu.json")),
    (
        "legacy-2018",
        "Seasons 1–2 (2018): decaying shields, half refunds",
        include_str!("../../configs/legacy-2018.json"),
    ),
    (
        "compat-mode-4",
        "A 2020 ruleset in the 2018–2019 format (season compatibility mode 4)",
        include_str!("../../configs/compat-mode-4.json"),
    ),
];

/// The default ruleset for new matches and layouts.
pub const DEFAULT_PRESET: &str = "base-s6";

/// Loads a shipped preset by slug.
pub fn preset(slug: &str) -> Option<Config> {
    PRESETS.iter().find(|(s, _, _)| *s == slug).and_then(|(_, _, text)| Config::from_json_str(text).ok())
}

/// The preset whose rules a config has (the same unit stats and resource rules; timing and
/// other keys aside), or `None` for a custom ruleset. Presets are tried in `PRESETS` order.
pub(crate) fn identify(config: &Config) -> Option<&'static str> {
    use std::sync::OnceLock;
    static PARSED: OnceLock<Vec<(&'static str, Config)>> = OnceLock::new();
    let parsed =
        PARSED.get_or_init(|| PRESETS.iter().filter_map(|(slug, _, _)| Some((*slug, preset(slug)?))).collect());
    parsed
        .iter()
        .find(|(_, p)| p.legacy == config.legacy && p.units == config.units && p.resources == config.resources)
        .map(|(slug, _)| *slug)
}

/// A preset slug or a path to a `game-configs.json` file.
pub fn load_config(spec: &str) -> Result<Config, ConfigLoadError> {
    if let Some(c) = preset(spec) {
        return Ok(c);
    }
    let path = std::path::Path::new(spec);
    if path.exists() {
        return Config::load(path);
    }
    let names: Vec<&str> = PRESETS.iter().map(|(s, _, _)| *s).collect();
    Err(ConfigLoadError::Unknown { spec: spec.to_string(), presets: names.join(", ") })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reach_shared_by_every_structure_form_is_known_without_the_target() {
        use super::super::config::{DEMOLISHER, ReachTable, WALL, form_index};
        let mut config = preset("live-2022").expect("preset");
        let demolisher = form_index(DEMOLISHER, false);
        let reach = ReachTable::new(&config.units, false);
        let on_wall = reach.attack[demolisher][form_index(WALL, false)];
        assert_eq!(reach.attack_on_structures[demolisher], Some(on_wall));
        // A Wall reached farther than the other structures: the search must look at the form.
        config.units[WALL].hit_radius += 1.0;
        let reach = ReachTable::new(&config.units, false);
        assert_ne!(reach.attack[demolisher][form_index(WALL, false)], on_wall);
        assert_eq!(reach.attack_on_structures[demolisher], None);
    }

    #[test]
    fn every_preset_parses() {
        for (slug, _, _) in PRESETS {
            let c = preset(slug).unwrap_or_else(|| panic!("{slug} does not parse"));
            assert_eq!(c.legacy, slug.starts_with("legacy") || *slug == "compat-mode-4", "{slug}");
            assert_eq!(c.units.len(), 6);
            assert_eq!(c.check_simulated(), Ok(()), "{slug}");
            assert_eq!(identify(&c), Some(*slug), "{slug} is identified as itself");
        }
    }

    #[test]
    fn upgrade_is_copy_then_patch() {
        let c = preset("special-2025").expect("preset");
        let support = c.unit(1);
        let up = support.upgrade.as_deref().expect("support upgrade");
        assert_eq!(up.cost_sp, 4.0, "absent cost1 inherits the base price");
        assert_eq!(up.shield_range, 10.0);
        assert_eq!(up.start_health, 35.0, "absent startHealth inherits");
        assert_eq!(c.invested_sp(2, true), 2.0 + 5.0);
        assert_eq!(up.shield_amount(9), 7.6000004);
    }

    #[test]
    fn mp_income_schedule() {
        let c = preset("base-s6").expect("preset");
        assert_eq!(c.mp_income(1), 5.0);
        assert_eq!(c.mp_income(9), 5.0);
        assert_eq!(c.mp_income(10), 6.0);
        assert_eq!(c.mp_income(19), 6.0);
        assert_eq!(c.mp_income(100), 15.0);
        let c = preset("citadel-2026").expect("preset");
        assert_eq!(c.mp_income(4), 1.0);
        assert_eq!(c.mp_income(5), 2.0);
        assert_eq!(c.mp_income(10), 3.0);
    }
}
