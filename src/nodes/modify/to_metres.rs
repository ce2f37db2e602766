//! The To metres node: unitless elevation to metres, as the Planet node maps it, for the
//! nodes that work in physical units (climate, biomes, materials) upstream of the Planet.

use crate::nodes::output::planet::to_metres;
use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the To metres node (keep them equal to the Planet node's).
    pub struct ToMetresSettings, keys ToMetresKeys {
        /// Input value that becomes 0 m.
        sea_level: f32 = float("Sea level", 0.0, -1.0, 1.0, "", 0.005, "Input value that becomes 0 m (keep it equal to the Planet node's)."),
        /// Metres of input value 1.
        max_elevation_m: f32 = float("Highest peak", 6000.0, 1.0, 50000.0, "m", 10.0, "Elevation in metres of input value 1 (keep it equal to the Planet node's)."),
        /// Metres below sea level of input value -1.
        max_depth_m: f32 = float("Deepest ocean", 7000.0, 1.0, 50000.0, "m", 10.0, "Depth in metres of input value -1 (keep it equal to the Planet node's)."),
    }
}

/// The To metres node.
pub struct ToMetres;

impl Node for ToMetres {
    type Settings = ToMetresSettings;
    const META: NodeMeta = NodeMeta::new("To metres", Category::Modify, "Unitless elevation to metres relative to sea level, mapped like the Planet node (for climate, biomes and materials).", IN, &[PortDef::field("out").with_unit(PortUnit::Of("m"))], file!());

    fn run(s: &ToMetresSettings, inputs: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        let (sea, peak, depth) = (s.sea_level, s.max_elevation_m, s.max_depth_m);
        Ok(vec![inputs.field(0)?.map(|v| to_metres(v, sea, peak, depth)).into()])
    }
}
