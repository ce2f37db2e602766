//! Finds the values the viewport's inspection modes show in an evaluation result.

use super::executor::EvalResult;
use crate::graph::Graph;
use crate::ops::{NodeKind, VectorField};
use crate::planet::RegionSurface;
use crate::tectonics::Plates;
use std::sync::Arc;

/// The tectonic values of a result: from the graph's first Tectonic plates node (or else its
/// first Regions node) and its first Plate elevation node's motion output.
#[derive(Default, Clone)]
pub struct TectonicValues {
    /// Region surface.
    pub regions: Option<Arc<RegionSurface>>,
    /// Plates.
    pub plates: Option<Arc<Plates>>,
    /// Plate motion per cell (planet radii per time unit).
    pub motion: Option<Arc<VectorField>>,
}

/// Collects the [`TectonicValues`] of `res` (evaluated from `g`).
pub fn tectonic_values(g: &Graph, res: &EvalResult) -> TectonicValues {
    let output = |kind: NodeKind, k: usize| g.nodes.iter().filter(|n| n.kind == kind).find_map(|n| res.outputs.get(&n.id).and_then(|o| o.get(k).cloned()));
    let plates = output(NodeKind::TectonicPlates, 0).and_then(|v| v.as_plates().cloned());
    let regions = plates.as_ref().map(|p| p.regions.clone()).or_else(|| output(NodeKind::Regions, 0).and_then(|v| v.as_regions().cloned()));
    let motion = output(NodeKind::PlateElevation, 4).and_then(|v| v.as_vector().cloned());
    TectonicValues { regions, plates, motion }
}
