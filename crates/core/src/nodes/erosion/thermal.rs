//! The Thermal erosion node: rock slides to lower Moore neighbours beyond the talus angle.

use super::RELIEF;
use crate::erosion::hydraulic::steps_at;
use crate::erosion::thermal::{thermal, ThermalSettings};
use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Thermal erosion node.
    pub struct ThermalErosionSettings, keys ThermalErosionKeys {
        /// Steps at 128 cells per face edge.
        iterations: usize = int("Iterations", ThermalSettings::DEFAULT.iterations as i64, 0, 5000, "Steps at 128 cells per face edge, scaled with the resolution."),
        /// Talus angle, degrees.
        talus_deg: f32 = float("Talus angle", ThermalSettings::DEFAULT.talus_deg, 0.0, 89.0, Unit::Degree, 0.1, "Slopes steeper than this shed material (loose rock: 30 to 40 degrees)."),
        /// Share of the movable material moved per step (1: the stability limit).
        amount: f32 = float("Amount", ThermalSettings::DEFAULT.amount, 0.0, 1.0, Unit::None, 0.005, "Share of the movable material moved per step; 1 is the stability limit (half the height difference)."),
        /// Height of 1.0 of elevation in cells at 128.
        relief: f32 = RELIEF,
    }
}

/// The Thermal erosion node.
pub struct ThermalErosion;

impl Node for ThermalErosion {
    type Settings = ThermalErosionSettings;
    const META: NodeMeta = NodeMeta::new("Thermal erosion", Category::Erosion, "Rock slides to lower Moore neighbours where the slope is steeper than the talus angle (material is conserved).", IN, OUT, file!()).costing(63);

    fn run(s: &ThermalErosionSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let f = inputs.port(FIELD_IN)?;
        let sim = ThermalSettings { iterations: s.iterations, talus_deg: s.talus_deg, amount: s.amount, relief: s.relief };
        Ok(vec![with_steps(ctx, steps_at(sim.iterations, f.n()), |c| thermal(f, &sim, ctx.cancel, c))?.into()])
    }
}
