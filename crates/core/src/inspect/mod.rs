//! What the viewport's inspection modes show, as plain data for the renderer: the regions,
//! plates and motion of an evaluation result, the overlay image of the plates and regions
//! modes, and motion arrows. Domain only (no GPU types), so `render` knows nothing of graphs,
//! plates or evaluation.

pub mod climate;
pub mod landforms;
pub mod normals;
pub mod overlay;
pub mod realism;
pub mod tile_surface;

pub use climate::{elevation_image, precipitation_image, ramp_image, slope_image, temperature_image, texture_values, TextureValues};
pub use normals::{normal_image, tile_normals};
pub use tile_surface::CloseUp;

pub use overlay::{albedo_image, motion_arrows, overlay_image, overlay_size, OverlayColours, OverlayImage};

use crate::eval::EvalResult;
use crate::graph::Graph;
use crate::nodes::NodeKind;
use crate::planet::{RegionSurface, VectorField};
use crate::tectonics::Plates;
use std::sync::Arc;

/// The tectonic values of a result: from the graph's first Tectonic plates node (or else its
/// first Regions node) and the motion output of its first Plate elevation node (or else its
/// first Earth-like relief node).
#[derive(Default, Clone)]
pub struct TectonicValues {
    /// Region surface.
    pub regions: Option<Arc<RegionSurface>>,
    /// Plates.
    pub plates: Option<Arc<Plates>>,
    /// Plate motion per cell (planet radii per time unit).
    pub motion: Option<Arc<VectorField>>,
}

/// Output `port` of the first node of `kind` in `g` that has it in `res`.
fn first_output<T: crate::nodes::PortValue>(g: &Graph, res: &EvalResult, kind: NodeKind, port: crate::nodes::OutPort<T>) -> Option<Arc<T>> {
    g.nodes.iter().filter(|n| n.kind == kind).find_map(|n| res.port_value(n.id, port).cloned())
}

/// Collects the [`TectonicValues`] of `res` (evaluated from `g`).
pub fn tectonic_values(g: &Graph, res: &EvalResult) -> TectonicValues {
    use crate::nodes::tectonics::{earth_relief, plate_elevation, plates, regions};
    let plates = first_output(g, res, NodeKind::TectonicPlates, plates::PLATES);
    let regions = plates.as_ref().map(|p| p.regions.clone()).or_else(|| first_output(g, res, NodeKind::Regions, regions::REGIONS));
    let motion = first_output(g, res, NodeKind::PlateElevation, plate_elevation::MOTION).or_else(|| first_output(g, res, NodeKind::EarthRelief, earth_relief::MOTION));
    TectonicValues { regions, plates, motion }
}

impl TectonicValues {
    /// The overlay image for `colours` with or without borders (`None` without regions).
    pub fn overlay(&self, colours: OverlayColours, borders: bool) -> Option<OverlayImage> {
        let regions = self.regions.as_ref()?;
        Some(overlay_image(regions, self.plates.as_deref(), colours, borders, overlay_size(regions)))
    }
}
