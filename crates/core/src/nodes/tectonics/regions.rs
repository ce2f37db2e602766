//! The Regions node: seed 000's region surface.

use crate::nodes::prelude::*;
use crate::planet::RegionSurface;

crate::settings! {
    /// Settings of the Regions node.
    pub struct RegionsSettings, keys RegionsKeys {
        /// R: regions per face edge.
        resolution: usize = int("Regions per face edge", 50, 2, 400, "R: the surface has 6 R^2 regions (R = 50: 15 000 regions, each about 200 km across on Earth)."),
        /// How far centroids move from their cell centres (0..1).
        jitter: f32 = float("Jitter", 0.9, 0.0, 1.0, Unit::None, 0.005, "How far centroids move from their cell centres: 0 gives a square grid, 1 anywhere in the cell (irregular, natural borders)."),
        /// Random seed.
        seed: u32 = seed(3),
    }
}

/// The Regions node.
pub struct Regions;

crate::ports! {
    const OUTPUTS: Out = [
        /// The region surface.
        REGIONS: RegionSurface = PortDef::of("regions", PortType::Regions),
    ];
}

impl Node for Regions {
    type Settings = RegionsSettings;
    const META: NodeMeta = NodeMeta { resolution_independent: true, ..NodeMeta::new("Regions", Category::Tectonics, "R x R regions per cube face with jittered centroids, a Voronoi diagram on the sphere.", &[], OUTPUTS, file!()) }.costing(3);

    fn run(s: &RegionsSettings, _: &Inputs, _: &OpContext) -> Result<Vec<Value>, OpError> {
        Ok(vec![Value::Regions(Arc::new(RegionSurface::new(s.resolution.clamp(1, 4000), s.jitter, s.seed)))])
    }
}
