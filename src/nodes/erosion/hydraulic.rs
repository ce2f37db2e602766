//! The Hydraulic erosion node: seed 002's virtual pipes on the whole planet.

use super::RELIEF;
use crate::erosion::hydraulic::{hydraulic, steps_at, HydraulicSettings};
use crate::nodes::prelude::*;

crate::choices! {
    /// How suspended sediment moves with the water.
    pub enum SedimentTransport {
        /// With the water the pipes carry between neighbours (conservative).
        DonorCell = ("donor_cell", "Donor cell"),
        /// Seed 002's back-trace, with the total restored after each step.
        SemiLagrangian = ("semi_lagrangian", "Semi-Lagrangian"),
    }
}

crate::settings! {
    /// Settings of the Hydraulic erosion node (height units: elevation times relief).
    pub struct HydraulicErosionSettings, keys HydraulicErosionKeys {
        /// Steps at 128 cells per face edge.
        iterations: usize = int("Iterations", 100, 0, 5000, "Simulation steps at 128 cells per face edge; scaled with the resolution (so previews run fewer), the same simulated time at any resolution. Simulated time = iterations x time step."),
        /// Time per step at 128 cells per face edge.
        dt: f32 = float("Time step", 0.15, 0.001, 0.5, "", 0.001, "Time per step at 128 cells per face edge (scaled with the resolution). Larger is faster but coarser."),
        /// Height of 1.0 of elevation in cells at 128.
        relief: f32 = RELIEF,
        /// Water added per unit time, height units.
        rain: f32 = float("Rain", 0.1, 0.0, 1.0, "/time", 0.001, "Water added to every land cell per unit time (seed 002's r), in height units."),
        /// Seed 002's g A / l.
        gravity: f32 = float("Gravity", 10.0, 0.1, 50.0, "", 0.1, "Gravity times pipe cross-section over pipe length (seed 002's g A / l): how hard height differences push water."),
        /// Seed 002's k_S.
        capacity: f32 = float("Capacity", 1.0, 0.0, 20.0, "", 0.01, "Sediment capacity constant (seed 002's k_S): capacity = k_S |v| sin(slope)."),
        /// Smallest slope sine used for the capacity.
        min_slope: f32 = float("Minimum slope", 0.05, 0.0, 1.0, "", 0.001, "Smallest slope sine used for the capacity, so flat ground still erodes a little."),
        /// Water depth from which the capacity is full, height units.
        full_depth: f32 = float("Full-capacity depth", 0.5, 0.0, 10.0, "", 0.01, "Water depth, in height units, from which the capacity is full; shallower water carries proportionally less, so erosion follows where water gathers and carves channels instead of roughening every slope. 0: no ramp (seed 002's capacity)."),
        /// Seed 002's k_E per unit time.
        dissolve: f32 = float("Dissolving", 0.5, 0.0, 10.0, "/time", 0.01, "Rate at which water picks up ground below its capacity (seed 002's k_E)."),
        /// Seed 002's k_D per unit time.
        deposit: f32 = float("Deposition", 0.5, 0.0, 10.0, "/time", 0.01, "Rate at which water drops sediment above its capacity (seed 002's k_D)."),
        /// Seed 002's k_T per unit time.
        evaporation: f32 = float("Evaporation", 0.3, 0.0, 10.0, "/time", 0.01, "Share of the water lost per unit time (seed 002's k_T)."),
        /// How sediment moves.
        transport: SedimentTransport = SedimentTransport::DonorCell.param("Sediment transport", "How suspended sediment moves with the water. Donor cell: with the water the pipes carry between neighbours (conservative, little smearing). Semi-Lagrangian: seed 002's back-trace, each cell takes the sediment from where its water came from (up to 2 cells, across seams), with the total restored after each step."),
        /// Sediment exchange between wet neighbours per unit time.
        sediment_diffusion: f32 = float("Sediment diffusion", 0.2, 0.0, 10.0, "/time", 0.01, "Exchange of suspended sediment between wet neighbours (seed 002's fix for streaks)."),
        /// Hillslope creep, reference cells squared per unit time.
        creep: f32 = float("Hillslope creep", 0.02, 0.0, 1.0, "cells²/time", 0.001, "Land heights diffuse with this coefficient, in cells of a 128 face edge squared per unit time (material is conserved). Sets how wide valleys and ridges are on the planet, independent of resolution; 0 turns it off."),
    }
}

impl HydraulicErosionSettings {
    /// The simulation's settings.
    pub fn simulation(&self, planet: &crate::nodes::output::planet::PlanetSettings) -> HydraulicSettings {
        HydraulicSettings {
            iterations: self.iterations,
            dt: self.dt,
            relief: self.relief,
            rain: self.rain,
            gravity: self.gravity,
            capacity: self.capacity,
            min_slope: self.min_slope,
            full_depth: self.full_depth,
            dissolve: self.dissolve,
            deposit: self.deposit,
            evaporation: self.evaporation,
            sediment_diffusion: self.sediment_diffusion,
            creep: self.creep,
            sea_level: planet.sea_level,
            semi_lagrangian: self.transport == SedimentTransport::SemiLagrangian,
        }
    }
}

/// The Hydraulic erosion node.
pub struct HydraulicErosion;

impl Node for HydraulicErosion {
    type Settings = HydraulicErosionSettings;
    const META: NodeMeta = NodeMeta::new(
        "Hydraulic erosion",
        Category::Erosion,
        "Seed 002's virtual-pipe model: rain, flow across the whole planet, dissolving and deposition, sediment carried with the water, evaporation. Water reaching the sea leaves and drops its sediment.",
        IN,
        &[
            PortDef::field("elevation"),
            PortDef::field("water"),
            PortDef::field("sediment"),
            PortDef::field("deposited"),
            PortDef::field("flow"),
            PortDef::field("presence"),
        ],
        file!(),
    )
    .reading_planet();

    fn run(s: &HydraulicErosionSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let f = inputs.field(0)?;
        let sim = s.simulation(ctx.planet()?);
        let r = with_steps(ctx, steps_at(sim.iterations, f.n()), |c| hydraulic(f, &sim, ctx.cancel, c))?;
        Ok(vec![r.elevation.into(), r.water.into(), r.sediment.into(), r.deposited.into(), r.speed.into(), r.presence.into()])
    }
}
