//! The L-system rivers node: seed 003's stochastic parametric L-system rivers from mouths on
//! the coasts, grown along valleys (never over a ridge) and carved with box-filtered banks
//! (see `crate::erosion::lsystem`).

use crate::erosion::lsystem::{lsystem_rivers, LSystemSettings};
use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the L-system rivers node.
    pub struct LSystemRiversSettings, keys LSystemRiversKeys {
        /// Number of river mouths.
        rivers: usize = int("Rivers", 40, 1, 500, "Number of rivers, each from a mouth on a coast picked at random."),
        /// Seed 003's i.
        iterations: usize = int("Iterations (i)", 25, 1, 200, "The most segments from a mouth to a spring. Branches end early, at random, in the last 40 %."),
        /// Seed 003's s.
        tributaries: usize = int("Tributaries (s)", 8, 0, 100, "The most splits of one river into two branches."),
        /// Seed 003's k.
        box_steps: usize = int("Box filter steps (k)", 2, 0, 20, "Box-filter passes over the banks per round, four rounds (at 128 cells per face edge; scaled with the resolution so the banks are as wide on the planet). The channel keeps its bed; the filter only lowers the banks towards it."),
        /// Seed 003's hmin.
        h_min: f32 = float("Lowest bed (hmin)", -0.01, -10.0, 10.0, Unit::None, 0.001, "No bed is carved below this height (input units); just below the sea level lets mouths open into the sea."),
        /// Seed 003's hmax.
        h_max: f32 = float("Highest ground (hmax)", 0.6, -10.0, 10.0, Unit::None, 0.005, "Rivers grow only over ground below this height (input units); springs lie below it."),
        /// Segment length, km.
        segment_km: f32 = float("Segment length", 80.0, 1.0, 2000.0, Unit::Kilometre, 1.0, "Length of one L-system segment along the planet."),
        /// Largest turn per segment, degrees.
        turn_deg: f32 = float("Turn", 25.0, 0.0, 90.0, Unit::Degree, 0.5, "Largest random change of direction from one segment to the next; the terrain then bends it by up to 20 deg towards the lowest ground ahead."),
        /// Chance of a split.
        split_chance: f32 = float("Split chance", 0.3, 0.0, 1.0, Unit::None, 0.01, "Chance that a segment's end splits into two branches (while the river has tributaries left)."),
        /// Channel depth at the mouth, input units.
        depth: f32 = float("Depth", 0.02, 0.0, 10.0, Unit::None, 0.001, "Depth of the channel below the ground where the river is widest (at the mouth, input units); it thins to 30 % at the springs."),
        /// Valley half-width at the mouth, km.
        width_km: f32 = float("Valley width", 60.0, 0.1, 2000.0, Unit::Kilometre, 1.0, "Half-width of the box-filtered valley around the channel at the mouth; 30 % of it at the springs."),
        /// Random seed.
        seed: u32 = seed(1),
    }
}

impl LSystemRiversSettings {
    /// The algorithm's settings.
    pub fn lsystem(&self, planet: &crate::nodes::output::planet::PlanetSettings) -> LSystemSettings {
        LSystemSettings {
            rivers: self.rivers,
            iterations: self.iterations,
            tributaries: self.tributaries,
            box_steps: self.box_steps,
            h_min: self.h_min,
            h_max: self.h_max,
            sea_level: planet.sea_level,
            segment_km: self.segment_km,
            turn_deg: self.turn_deg,
            split_chance: self.split_chance,
            depth: self.depth,
            width_km: self.width_km,
            radius_km: planet.radius_km,
            seed: self.seed,
        }
    }
}

/// The L-system rivers node.
pub struct LSystemRivers;

crate::ports! {
    const OUTPUTS: Out = [
        /// The elevation with the rivers carved.
        ELEVATION: Field = PortDef::field("elevation"),
        /// 1 on the channels.
        RIVERS: Field = PortDef::field("rivers"),
    ];
}

impl Node for LSystemRivers {
    type Settings = LSystemRiversSettings;
    const META: NodeMeta = NodeMeta::new(
        "L-system rivers",
        Category::Erosion,
        "From mouths on the coasts, segments that go on or split with changed angles and end early near the last iteration, bent towards the lowest ground and never over a ridge; drawn into the heightmap, deeper downstream, with box-filtered banks. Outputs the carved elevation and the channel mask.",
        IN,
        OUTPUTS,
        file!(),
    )
    .reading_planet().costing(75);

    fn run(s: &LSystemRiversSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        ctx.check()?;
        let r = lsystem_rivers(inputs.port(FIELD_IN)?, &s.lsystem(ctx.planet()?), ctx.cancel)?;
        Ok(vec![r.elevation.into(), r.rivers.into()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::NodeKind;

    #[test]
    fn the_node_carves_with_its_defaults() {
        let s = LSystemRiversSettings::from_params(&NodeKind::LSystemRivers.default_params()).expect("the declared defaults");
        let h = crate::erosion::test_hills(64).map(|v| v - 0.3);
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let ctx = OpContext { tile: None, n: 64, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
        let out = LSystemRivers::run(&s, &Inputs(&[Some(h.clone().into())]), &ctx).expect("runs");
        let carved = out[0].as_field().expect("field");
        let mask = out[1].as_field().expect("field");
        assert!(mask.data().iter().filter(|&&v| v > 0.0).count() > 50);
        assert!(carved.data().iter().zip(h.data()).all(|(a, b)| a <= b));
    }
}
