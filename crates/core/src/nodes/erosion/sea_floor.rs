//! The Sea floor node (seed 002): smoothing below sea level.

use crate::erosion::seafloor::smooth_sea_floor;
use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Sea floor node.
    pub struct SeaFloorSettings, keys SeaFloorKeys {
        /// Smoothing passes at 128.
        passes: usize = int("Passes", 20, 0, 2000, "Smoothing passes at 128 cells per face edge, scaled with the square of the resolution (the same smoothing distance on the planet)."),
    }
}

/// The Sea floor node.
pub struct SeaFloor;

impl Node for SeaFloor {
    type Settings = SeaFloorSettings;
    const META: NodeMeta = NodeMeta::new("Sea floor", Category::Erosion, "Smooths the ground below sea level (Jacobi steps of the 4-neighbour mean); land stays as it is. Sea level is the planet's (set on the Planet node).", IN, OUT, file!())
        .reading_planet()
        .costing(32);

    fn run(s: &SeaFloorSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![smooth_sea_floor(inputs.port(FIELD_IN)?, ctx.planet()?.sea_level, s.passes, ctx.cancel)?.into()])
    }
}
