//! The figure the Debugger plots over turns.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlotMetric {
    #[default]
    Hp,
    Sp,
    Mp,
    StructureValue,
}

impl PlotMetric {
    pub const ALL: [PlotMetric; 4] = [PlotMetric::Hp, PlotMetric::Sp, PlotMetric::Mp, PlotMetric::StructureValue];

    pub fn label(self) -> &'static str {
        match self {
            PlotMetric::Hp => "HP",
            PlotMetric::Sp => "SP",
            PlotMetric::Mp => "MP",
            PlotMetric::StructureValue => "Structure value",
        }
    }

    fn index(self) -> usize {
        PlotMetric::ALL.iter().position(|m| *m == self).unwrap_or(0)
    }
}

// Kept as its index, as settings of earlier versions have it; an index a later version wrote
// falls back to the default.
impl Serialize for PlotMetric {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.index() as u64)
    }
}

impl<'de> Deserialize<'de> for PlotMetric {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let index = u64::deserialize(d)?;
        Ok(usize::try_from(index).ok().and_then(|i| PlotMetric::ALL.get(i).copied()).unwrap_or_default())
    }
}
