//! The Tectonic plates node: seed 000's Algorithm 3, plates grown by flood fill.

use crate::nodes::prelude::*;
use crate::tectonics::{PlateSettings, Plates};

crate::settings! {
    /// Settings of the Tectonic plates node.
    pub struct TectonicPlatesSettings, keys TectonicPlatesKeys {
        /// Number of plates.
        plates: usize = int("Plates", 50, 1, 5000, "Number of plates (Earth has 7 large and about 50 smaller ones)."),
        /// Spread of growth rates.
        expansion_range: f32 = float("Expansion range", 0.5, 0.0, 10.0, Unit::None, 0.01, "Spread of growth rates: below 1, rates lie in 1-e..1+e (similar plate sizes); from 1 up, in 0..e (a few large plates and many small)."),
        /// Random-driven growth (organic shapes) or whole rings (blocky).
        random_driven: bool = boolean("Random growth", true, "On: each expansion claims one random region at the plate's edge (organic shapes). Off: the whole ring around the plate (blocky shapes)."),
        /// Stop after `cycles` growth cycles.
        step_mode: bool = boolean("Step mode", false, "Stop the growth after a number of cycles to watch it; use Step, Play and Reset below. Off: grow until every region has a plate."),
        /// Growth cycles run in step mode.
        cycles: usize = int("Cycles", 0, 0, 1_000_000, "Growth cycles run in step mode (0: only the seed regions)."),
        /// Random seed.
        seed: u32 = seed(11),
    }
}

/// The Tectonic plates node.
pub struct TectonicPlates;

crate::ports! {
    const INPUTS: In = [
        /// The regions the plates grow over.
        REGIONS: RegionSurface = PortDef::of("regions", PortType::Regions),
    ];
}

crate::ports! {
    const OUTPUTS: Out = [
        /// The plates.
        PLATES: Plates = super::PLATES_PORT,
    ];
}

impl Node for TectonicPlates {
    type Settings = TectonicPlatesSettings;
    const META: NodeMeta = NodeMeta { resolution_independent: true, ..NodeMeta::new("Tectonic plates", Category::Tectonics, "Plates grow from random regions by flood fill until every region belongs to one.", INPUTS, OUTPUTS, file!()) }.costing(2);

    fn run(s: &TectonicPlatesSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let settings = PlateSettings { count: s.plates, expansion_range: s.expansion_range, random_driven: s.random_driven, max_cycles: s.step_mode.then_some(s.cycles), seed: s.seed };
        let plates = Plates::grow(inputs.port(REGIONS)?.clone(), &settings).map_err(|e| OpError::Invalid(e.to_string()))?;
        Ok(vec![Value::Plates(Arc::new(plates))])
    }

    fn shows(s: &TectonicPlatesSettings, key: &str) -> bool {
        key != TectonicPlatesSettings::KEYS.cycles || s.step_mode
    }
}

/// A rule between this node and the Regions node that feeds it, which no resolution changes
/// and so `check` applies as well as `build`: the plates asked for are 1 to the surface's
/// 6 R^2 regions.
pub fn check_against_regions(plates: &TectonicPlatesSettings, regions: &super::regions::RegionsSettings) -> Result<(), String> {
    let count = 6 * regions.resolution.max(1) * regions.resolution.max(1);
    if plates.plates == 0 || plates.plates > count {
        return Err(crate::tectonics::plates::PlateError::BadCount { plates: plates.plates, regions: count }.to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::nodes::params::{ParamMap, ParamValue};
    use crate::nodes::NodeKind;

    #[test]
    fn cycles_show_only_in_step_mode() {
        let step = |on: bool| -> ParamMap { [("step_mode".to_string(), ParamValue::Bool(on))].into_iter().collect() };
        assert!(NodeKind::TectonicPlates.shows(&step(true), "cycles"));
        assert!(!NodeKind::TectonicPlates.shows(&step(false), "cycles"));
        assert!(NodeKind::TectonicPlates.shows(&step(false), "plates"));
    }
}
