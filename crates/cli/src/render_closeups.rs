//! Close-ups for `planetgraph render`: where the camera is near the ground, the graph is
//! evaluated again on the leaves of the view's quadtree of tiles
//! ([`planetgraph_renderer::quadtree::tiles_for_view`]), each at a level fine enough for the
//! picture's pixels there (region evaluation: the whole-planet nodes come from the cached whole
//! evaluation, the cellwise ones, the Detail node among them, run on the tile), and the tiles
//! are drawn over the planet as detail patches.

use super::CliError;
use anyhow::anyhow;
use planetgraph_core::eval::{Evaluator, Program, Progress, Request};
use planetgraph_core::graph::{Graph, NodeId};
use planetgraph_core::inspect::CloseUp;
use planetgraph_core::nodes::output::planet::PlanetSettings;
use planetgraph_core::planet::Tile;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Evaluates `program` (what `g`'s Planet node `planet` needs, [`planetgraph_core::eval::compile_for`]) on
/// `tile`, with the whole-planet nodes at `n` through `ev`'s cache (evaluate the whole planet
/// at `n` with `ev` first so they are there), lit with the relief exaggerated `exaggeration`
/// times.
#[allow(clippy::too_many_arguments)]
pub fn evaluate(ev: &mut Evaluator, program: &Program, g: &Graph, path: &Path, planet: NodeId, settings: &PlanetSettings, tile: Tile, n: usize, exaggeration: f32, cancel: &AtomicBool) -> Result<CloseUp, CliError> {
    let res = ev.run(program, &Request::region(CloseUp::grid(tile), n), cancel, &Progress::default());
    if res.cancelled {
        return Err(CliError::internal(anyhow!("cancelled")));
    }
    if let Some((id, msg)) = res.errors.iter().next() {
        return Err(CliError::input(anyhow!("{}: {} (on the close-up's tile): {msg}", path.display(), g.describe_node(*id))));
    }
    CloseUp::from_result(&res, planet, settings, exaggeration, true).map_err(|e| CliError::internal(anyhow!(e)))
}
