//! The Plate elevation node: seed 000's elevation modifier, reworked (plate levels, motion,
//! collision pressure, boundary features with widths in km, noise, smoothing).

use crate::nodes::prelude::*;
use crate::tectonics::{plate_elevation, BaseElevation, ElevationSettings};

crate::choices! {
    /// How plate base levels are set.
    pub enum BaseMode {
        /// Continental plates cover about the asked share of the planet.
        LandFraction = ("land_fraction", "Land fraction"),
        /// Seed 000's uniform random level per plate.
        RandomRange = ("random_range", "Random range"),
    }
}

crate::settings! {
    /// Settings of the Plate elevation node (elevation units: 1 = the Planet node's highest peak).
    pub struct PlateElevationSettings, keys PlateElevationKeys {
        /// How base levels are set.
        base_mode: BaseMode = BaseMode::LandFraction.param("Base levels", "Land fraction: continental plates cover about the asked share of the planet, the rest is ocean floor. Random range: a uniform random level per plate in -range..range."),
        /// Share of the planet on continental plates.
        land_fraction: f32 = float("Land fraction", 0.35, 0.0, 1.0, Unit::None, 0.005, "Share of the planet on continental plates (Earth: about 0.35 with shelves). Coasts then move with noise and boundary relief."),
        /// Seed 000's elevationRandomRange.
        elevation_range: f32 = float("Random range", 0.5, 0.0, 1.0, Unit::None, 0.005, "Plate base levels uniform in -range..range (about half land)."),
        /// Raise mountains and trenches where plates converge.
        collisions: bool = boolean("Plate collisions", true, "Raise mountains and trenches where plates converge, rifts and ridges where they part."),
        /// Multiplier of the boundary pressure.
        collision_strength: f32 = float("Collision strength", ElevationSettings::DEFAULT.collision_strength, 0.0, 5.0, Unit::None, 0.01, "Multiplies the boundary pressure (which lies in about -2..2)."),
        /// Height of mountain belts at full pressure.
        mountain_height: f32 = float("Mountain height", ElevationSettings::DEFAULT.mountain_height, 0.0, 2.0, Unit::None, 0.005, "Height of mountain belts and island arcs at full pressure (1 = the Planet node's highest peak)."),
        /// Reach of mountains from a converging boundary, km.
        mountain_width_km: f32 = float("Mountain width", ElevationSettings::DEFAULT.mountain_width_km, 10.0, 5000.0, Unit::Kilometre, 5.0, "How far from a converging boundary mountains reach, in km on the planet (Andes about 300, Himalaya and Tibet about 800)."),
        /// Depth of trenches at full pressure.
        trench_depth: f32 = float("Trench depth", ElevationSettings::DEFAULT.trench_depth, 0.0, 2.0, Unit::None, 0.005, "Depth of ocean trenches where a lower plate dives under a higher one, at full pressure."),
        /// Width of trenches, km.
        trench_width_km: f32 = float("Trench width", ElevationSettings::DEFAULT.trench_width_km, 5.0, 2000.0, Unit::Kilometre, 2.0, "Width of trenches from the boundary, km."),
        /// Depth of rift valleys at full opening speed.
        rift_depth: f32 = float("Rift depth", ElevationSettings::DEFAULT.rift_depth, 0.0, 2.0, Unit::None, 0.005, "Depth of rift valleys where continental plates part, at full opening speed."),
        /// Height of mid-ocean ridges at full opening speed.
        ridge_height: f32 = float("Ridge height", ElevationSettings::DEFAULT.ridge_height, 0.0, 2.0, Unit::None, 0.005, "Height of mid-ocean ridges where oceanic plates part, at full opening speed."),
        /// Width of rifts, km (ridges twice as wide).
        rift_width_km: f32 = float("Rift width", ElevationSettings::DEFAULT.rift_width_km, 5.0, 3000.0, Unit::Kilometre, 2.0, "Width of rifts from the boundary, km (mid-ocean ridges are twice as wide)."),
        /// Add 3D fBm noise.
        noise: bool = boolean("Noise", true, "Add 3D fBm noise for varied interiors, coasts, bays and islands."),
        /// Noise features around the equator.
        noise_frequency: f32 = float("Noise frequency", ElevationSettings::DEFAULT.noise_frequency, 0.5, 128.0, Unit::Named("/planet"), 0.05, "Noise features around the equator (also sets the scale of the mountain texture)."),
        /// Noise amplitude.
        noise_strength: f32 = float("Noise strength", ElevationSettings::DEFAULT.noise_strength, 0.0, 1.0, Unit::None, 0.002, "Noise amplitude, on the elevation's -1..1 scale."),
        /// Low-pass passes of the plate levels at R = 50.
        smoothing: usize = int("Smoothing passes", ElevationSettings::DEFAULT.smoothing_passes as i64, 0, 20, "A low-pass filter of the plate levels over the regions, counted at R = 50 and scaled with (R / 50)^2 so coastal slopes keep their width at any R."),
        /// Random seed.
        seed: u32 = seed(5),
    }
}

/// The Plate elevation node.
pub struct PlateElevation;

crate::ports! {
    const INPUTS: In = [
        /// The plates raised.
        PLATES: Plates = super::PLATES_PORT,
    ];
}

crate::ports! {
    const OUTPUTS: Out = [
        /// Elevation, -1..1.
        ELEVATION: Field = PortDef::field("elevation"),
        /// Plate of each cell (0, 1, ...).
        PLATE_ID: Field = super::PLATE_ID_PORT,
        /// Collision pressure at boundaries.
        PRESSURE: Field = PortDef::field("pressure"),
        /// Distance to the nearest plate boundary, km.
        BOUNDARY: Field = PortDef::field("boundary_km").with_unit(PortUnit::Of(Unit::Kilometre)),
        /// Plate motion per cell.
        MOTION: VectorField = super::MOTION_PORT,
    ];
}

impl Node for PlateElevation {
    type Settings = PlateElevationSettings;
    const META: NodeMeta = NodeMeta::new(
        "Plate elevation",
        Category::Tectonics,
        "The plates' elevation: plate levels, plate motion, collision pressure, noise and smoothing; boundary features (mountains, trenches, rifts, ridges) have widths in km.",
        INPUTS,
        OUTPUTS,
        file!(),
    )
    .reading_planet()
    .costing(133);

    fn run(s: &PlateElevationSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        let surface = plate_elevation(inputs.port(PLATES)?, &elevation_settings(s, ctx.planet()?.radius_km), ctx.n, ctx.cancel)?;
        Ok(vec![surface.elevation.into(), surface.plate_id.into(), surface.pressure.into(), surface.boundary_km.into(), surface.motion.into()])
    }

    fn shows(s: &PlateElevationSettings, key: &str) -> bool {
        let k = PlateElevationSettings::KEYS;
        if key == k.land_fraction {
            s.base_mode == BaseMode::LandFraction
        } else if key == k.elevation_range {
            s.base_mode == BaseMode::RandomRange
        } else {
            true
        }
    }
}

/// The tectonics module's settings from the node's, on a planet of `radius_km`.
pub fn elevation_settings(s: &PlateElevationSettings, radius_km: f32) -> ElevationSettings {
    let base = match s.base_mode {
        BaseMode::RandomRange => BaseElevation::RandomRange(s.elevation_range),
        BaseMode::LandFraction => BaseElevation::land(s.land_fraction),
    };
    ElevationSettings {
        seed: s.seed,
        base,
        collisions: s.collisions,
        collision_strength: s.collision_strength,
        mountain_height: s.mountain_height,
        mountain_width_km: s.mountain_width_km,
        trench_depth: s.trench_depth,
        trench_width_km: s.trench_width_km,
        rift_depth: s.rift_depth,
        ridge_height: s.ridge_height,
        rift_width_km: s.rift_width_km,
        noise: s.noise,
        noise_frequency: s.noise_frequency,
        noise_strength: s.noise_strength,
        smoothing_passes: s.smoothing,
        radius_km,
    }
}
