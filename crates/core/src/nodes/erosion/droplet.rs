//! The Droplet erosion node (seed 004): droplets run downhill with inertia across seams.

use super::RELIEF;
use crate::erosion::droplet::{batches, droplets, DropletSettings};
use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Droplet erosion node.
    pub struct DropletErosionSettings, keys DropletErosionKeys {
        /// Droplets per cell.
        density: f32 = float("Droplets per cell", DropletSettings::DEFAULT.density, 0.0, 20.0, Unit::None, 0.01, "Droplets per cell, the same density at any resolution (a build at 512 runs 16 times the droplets of a preview at 128)."),
        /// Most steps of a droplet at 128.
        lifetime: usize = int("Lifetime", DropletSettings::DEFAULT.lifetime as i64, 1, 1000, "Most steps of a droplet at 128 cells per face edge (scaled with the resolution)."),
        /// 0: follow the slope; near 1: keep direction.
        inertia: f32 = float("Inertia", DropletSettings::DEFAULT.inertia, 0.0, 0.99, Unit::None, 0.005, "0: droplets follow the slope; near 1: they keep their direction."),
        /// Sediment per unit of speed, water and slope.
        capacity: f32 = float("Capacity", DropletSettings::DEFAULT.capacity, 0.0, 50.0, Unit::None, 0.005, "Sediment a droplet can carry per unit of speed, water and slope (slope in height units per cell at 128). Large values with a large relief pile the sediment into spikes."),
        /// Smallest slope used for the capacity.
        min_slope: f32 = float("Minimum slope", DropletSettings::DEFAULT.min_slope, 0.0, 1.0, Unit::None, 0.001, "Smallest slope used for the capacity."),
        /// Share of the free capacity taken per step.
        erode: f32 = float("Erosion", DropletSettings::DEFAULT.erode, 0.0, 1.0, Unit::None, 0.005, "Share of the free capacity taken from the ground per step."),
        /// Share of the excess sediment dropped per step.
        deposit: f32 = float("Deposition", DropletSettings::DEFAULT.deposit, 0.0, 1.0, Unit::None, 0.005, "Share of the excess sediment dropped per step."),
        /// Water lost per step.
        evaporation: f32 = float("Evaporation", DropletSettings::DEFAULT.evaporation, 0.0, 1.0, Unit::None, 0.001, "Water lost per step."),
        /// Acceleration downhill.
        gravity: f32 = float("Gravity", DropletSettings::DEFAULT.gravity, 0.0, 50.0, Unit::None, 0.05, "Acceleration downhill."),
        /// Erosion brush radius, cells at 128.
        radius: f32 = float("Brush radius", DropletSettings::DEFAULT.radius, 0.5, 8.0, Unit::Named("cells@128"), 0.05, "Radius of the area a droplet erodes, in cells at 128 per face edge."),
        /// Height of 1.0 of elevation in cells at 128.
        relief: f32 = RELIEF,
        /// Random seed.
        seed: u32 = seed(4),
    }
}

impl DropletErosionSettings {
    /// The simulation's settings.
    pub fn simulation(&self, planet: &crate::nodes::output::planet::PlanetSettings) -> DropletSettings {
        DropletSettings {
            density: self.density,
            lifetime: self.lifetime,
            inertia: self.inertia,
            capacity: self.capacity,
            min_slope: self.min_slope,
            erode: self.erode,
            deposit: self.deposit,
            evaporation: self.evaporation,
            gravity: self.gravity,
            radius: self.radius,
            relief: self.relief,
            sea_level: planet.sea_level,
            seed: self.seed,
        }
    }
}

/// The Droplet erosion node.
pub struct DropletErosion;

impl Node for DropletErosion {
    type Settings = DropletErosionSettings;
    const META: NodeMeta =
        NodeMeta::new("Droplet erosion", Category::Erosion, "Many droplets run downhill with inertia, pick up ground by speed and slope and drop it where they slow; they roll over face seams.", IN, OUT, file!()).reading_planet().costing(14);

    fn run(s: &DropletErosionSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let f = inputs.port(FIELD_IN)?;
        let sim = s.simulation(ctx.planet()?);
        Ok(vec![with_steps(ctx, batches(sim.density, f.n()), |c| droplets(f, &sim, ctx.cancel, c).map(|r| r.elevation))?.into()])
    }
}
