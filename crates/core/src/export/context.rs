//! What every export of one build shares: the graph, its resolution, the Planet node's
//! settings, the timings and, for a share or a tiled build, its plan.

use super::base::Share;
use super::tiled::TilePlan;
use crate::nodes::output::planet::PlanetSettings;
use std::collections::BTreeMap;

/// What every export of one build shares.
#[derive(Debug, Clone)]
pub struct ExportContext {
    /// The graph file (for the manifest).
    pub graph: String,
    /// SHA-256 (hex) of what the build evaluates, for a share's build identity (empty outside
    /// a share).
    pub graph_sha256: String,
    /// Cells per face edge of the evaluation.
    pub resolution: usize,
    /// The Planet node's settings (radius, metres range), if the graph has one.
    pub planet: Option<PlanetSettings>,
    /// Milliseconds per node of the evaluation, by `Kind #id`.
    pub timings_ms: BTreeMap<String, f64>,
    /// Only this share of the files, with a share record instead of the manifest (see
    /// [`super::share`]); None for the whole build.
    pub share: Option<Share>,
    /// A tiled build's plan; None for a build that evaluated the whole planet.
    pub tiled: Option<TilePlan>,
    /// A tiled build's whole-planet nodes that ran below the plan's level, at a level of their
    /// own (cells per face edge, by `Kind #id`; [`crate::eval::whole_levels`]).
    pub own_levels: BTreeMap<String, usize>,
}
