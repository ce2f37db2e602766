//! The Coral reef node (seed 002 after Nakamura and Nakamori).

use crate::erosion::coral::{coral, CoralSettings};
use crate::nodes::prelude::*;

crate::settings! {
    /// Settings of the Coral reef node.
    pub struct CoralReefSettings, keys CoralReefKeys {
        /// Growth steps.
        iterations: usize = int("Iterations", CoralSettings::DEFAULT.iterations as i64, 0, 10000, "Growth steps."),
        /// Years per step.
        dt: f32 = float("Time step", CoralSettings::DEFAULT.dt, 0.1, 1000.0, Unit::Year, 0.1, "Years per step."),
        /// Sea-level rise, m per year (k_W).
        sea_rise: f32 = float("Sea-level rise", CoralSettings::DEFAULT.sea_rise, 0.0, 0.1, Unit::MetrePerYear, 0.0001, "Sea-level rise per year (k_W)."),
        /// Growth at the surface with full carbon, m per year (k_B).
        growth_rate: f32 = float("Growth rate", CoralSettings::DEFAULT.growth_rate, 0.0, 1.0, Unit::MetrePerYear, 0.0005, "Reef growth at the surface with full carbon (k_B)."),
        /// Fading of growth with depth, per m (k_A).
        absorption: f32 = float("Light absorption", CoralSettings::DEFAULT.absorption, 0.0, 1.0, Unit::Named("/m"), 0.001, "How fast growth fades with depth (k_A)."),
        /// No growth deeper than this, m (k_G).
        max_depth: f32 = float("Deepest growth", CoralSettings::DEFAULT.max_depth, 1.0, 500.0, Unit::Metre, 0.5, "No growth deeper than this (k_G)."),
        /// Carbon used per metre of growth and metre of depth (1 / k_U).
        carbon_use: f32 = float("Carbon use", CoralSettings::DEFAULT.carbon_use, 0.0, 1.0, Unit::None, 0.0005, "Carbon used per metre of growth and metre of depth (1 / k_U)."),
        /// Water deeper than this is open sea with full carbon, m.
        open_sea_depth: f32 = float("Open sea depth", CoralSettings::DEFAULT.open_sea_depth, 1.0, 10000.0, Unit::Metre, 1.0, "Water deeper than this is open sea with full carbon."),
        /// Carbon diffusion passes per step.
        diffusion: usize = int("Carbon diffusion", CoralSettings::DEFAULT.diffusion as i64, 0, 100, "Jacobi diffusion passes of carbon per step."),
    }
}

/// The Coral reef node.
pub struct CoralReef;

crate::ports! {
    const OUTPUTS: Out = [
        /// The elevation with the reefs grown.
        ELEVATION: Field = PortDef::field("elevation"),
        /// How much reef grew per cell.
        GROWTH: Field = PortDef::field("growth"),
    ];
}

impl Node for CoralReef {
    type Settings = CoralReefSettings;
    const META: NodeMeta = NodeMeta::new("Coral reef", Category::Erosion, "After Nakamura and Nakamori: reefs grow in shallow sunlit water, limited by carbon that diffuses in from the open sea, while the sea slowly rises.", IN, OUTPUTS, file!())
        .reading_planet()
        .costing(43);

    fn run(s: &CoralReefSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let sim = CoralSettings {
            iterations: s.iterations,
            dt: s.dt,
            metres_per_unit: ctx.planet()?.max_elevation_m,
            sea_level: ctx.planet()?.sea_level,
            sea_rise: s.sea_rise,
            growth_rate: s.growth_rate,
            absorption: s.absorption,
            max_depth: s.max_depth,
            carbon_use: s.carbon_use,
            open_sea_depth: s.open_sea_depth,
            diffusion: s.diffusion,
        };
        let f = inputs.port(FIELD_IN)?;
        let r = with_steps(ctx, sim.iterations, |c| coral(f, &sim, ctx.cancel, c))?;
        Ok(vec![r.elevation.into(), r.growth.into()])
    }
}
