//! The tectonic nodes: parameters in, regions / plates / plate surface out.

use super::context::{OpContext, OpError, Params};
use crate::planet::RegionSurface;
use crate::tectonics::{plate_elevation as elevation, BaseElevation, ElevationSettings, PlateSettings, PlateSurface, Plates};
use std::sync::Arc;

/// The Regions node.
pub fn regions(p: &Params) -> RegionSurface {
    RegionSurface::new(p.int("resolution").clamp(1, 4000) as usize, p.float("jitter"), p.seed())
}

/// The Tectonic plates node.
pub fn plates(regions: Arc<RegionSurface>, p: &Params) -> Result<Plates, OpError> {
    let settings = PlateSettings {
        count: p.int("plates").max(0) as usize,
        expansion_range: p.float("expansion_range"),
        random_driven: p.boolean("random_driven"),
        max_cycles: p.boolean("step_mode").then(|| p.int("cycles").max(0) as usize),
        seed: p.seed(),
    };
    Plates::grow(regions, &settings).map_err(|e| OpError::Invalid(e.to_string()))
}

/// The elevation settings of a Plate elevation node.
pub fn elevation_settings(p: &Params) -> ElevationSettings {
    let base = if p.choice("base_mode") == "Random range" {
        BaseElevation::RandomRange(p.float("elevation_range"))
    } else {
        BaseElevation::land(p.float("land_fraction"))
    };
    ElevationSettings {
        seed: p.seed(),
        base,
        collisions: p.boolean("collisions"),
        collision_strength: p.float("collision_strength"),
        mountain_height: p.float("mountain_height"),
        mountain_width_km: p.float("mountain_width_km"),
        trench_depth: p.float("trench_depth"),
        trench_width_km: p.float("trench_width_km"),
        rift_depth: p.float("rift_depth"),
        ridge_height: p.float("ridge_height"),
        rift_width_km: p.float("rift_width_km"),
        noise: p.boolean("noise"),
        noise_frequency: p.float("noise_frequency"),
        noise_strength: p.float("noise_strength"),
        smoothing_passes: p.int("smoothing").max(0) as usize,
        radius_km: p.float("radius_km"),
    }
}

/// The Plate elevation node.
pub fn plate_elevation(plates: &Plates, p: &Params, ctx: &OpContext) -> Result<PlateSurface, OpError> {
    elevation(plates, &elevation_settings(p), ctx.n, ctx.cancel).ok_or(OpError::Cancelled)
}
