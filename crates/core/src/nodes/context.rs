//! What a node's run function receives besides its settings and inputs: resolution,
//! cancellation and progress; and why it may fail.

use crate::nodes::Value;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use thiserror::Error;

/// Why an op did not produce a result.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum OpError {
    /// The evaluation was cancelled by a newer request.
    #[error("cancelled")]
    Cancelled,
    /// A value the node cannot work with (the message is shown on the node).
    #[error("{0}")]
    Invalid(String),
    /// A bug: the node failed in a way no input explains (a panic caught); what failed.
    #[error("internal error: the node failed ({0}); please report it with the graph file")]
    Internal(String),
}

impl From<crate::planet::SimError> for OpError {
    fn from(e: crate::planet::SimError) -> Self {
        match e {
            crate::planet::SimError::Cancelled => OpError::Cancelled,
            crate::planet::SimError::Invalid(m) => OpError::Invalid(m),
        }
    }
}

impl From<crate::planet::stencil::StencilError> for OpError {
    fn from(e: crate::planet::stencil::StencilError) -> Self {
        OpError::Invalid(e.to_string())
    }
}

impl From<crate::planet::FieldSizeError> for OpError {
    fn from(e: crate::planet::FieldSizeError) -> Self {
        OpError::Invalid(e.to_string())
    }
}

/// Where a node can run: on a tile alone, on a tile with a halo, or only on the whole planet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Locality {
    /// Each output cell depends on nothing but the same cell of the inputs, the cell's position
    /// and the settings: the node runs on any tile alone and gives there exactly the values it
    /// gives those cells on the whole planet.
    Cellwise,
    /// Each output cell depends on the inputs' cells up to this many cells away (at the level
    /// it runs at, across face seams): on a tile, the node gets its inputs on the tile with that
    /// much more halo ([`crate::planet::Tile::halo`]) than its outputs, and gives exactly the
    /// values it gives those cells on the whole planet.
    Halo(usize),
    /// The node reaches beyond the cell (neighbours, transport, drainage, plates, a whole-field
    /// minimum): region evaluation runs it once on the whole planet, at a capped level, and
    /// tiles sample its outputs.
    Whole,
}

/// Evaluation context of one op call.
pub struct OpContext<'a> {
    /// Cells per face edge of the fields to produce (the tile's level on a tile).
    pub n: usize,
    /// The tile to produce the outputs on (region evaluation, given only to
    /// [`Locality::Cellwise`] and [`Locality::Halo`] nodes; a halo node's inputs have more
    /// halo than this tile); `None`: the whole planet.
    pub tile: Option<crate::planet::Tile>,
    /// Set when the evaluation should stop as soon as possible.
    pub cancel: &'a AtomicBool,
    /// Steps done and steps in all of a long op (erosion), for progress; `None` where nobody
    /// watches.
    pub steps: Option<&'a StepProgress>,
    /// The planet's settings (radius, sea level, highest peak, deepest ocean: the Planet
    /// node's), given only to nodes whose metadata says they read them
    /// ([`crate::nodes::NodeMeta::reads_planet`]), so their cached results follow the settings.
    pub planet: Option<&'a crate::nodes::output::planet::PlanetSettings>,
    /// The files the node reads ([`crate::nodes::Node::files`]), resolved against the graph
    /// file's folder, in the node's order; empty for the other nodes.
    pub files: &'a [std::path::PathBuf],
}

/// Progress inside one long-running op.
#[derive(Debug, Default)]
pub struct StepProgress {
    /// Steps finished.
    pub done: std::sync::atomic::AtomicUsize,
    /// Steps the op will run (0 while unknown).
    pub total: std::sync::atomic::AtomicUsize,
}

impl OpContext<'_> {
    /// Where the outputs lie: the whole planet at `n`, or the tile.
    pub fn grid(&self) -> crate::planet::Grid {
        self.tile.map_or(crate::planet::Grid::Whole(self.n), crate::planet::Grid::Tile)
    }

    /// The planet's settings, or an error naming the omission when the node's metadata does
    /// not declare that it reads them (a bug in the node, shown on the node).
    pub fn planet(&self) -> Result<&crate::nodes::output::planet::PlanetSettings, OpError> {
        self.planet.ok_or_else(|| OpError::Invalid("internal error: this node reads the planet's settings but does not declare it".to_string()))
    }

    /// `Err(Cancelled)` once cancellation was requested.
    pub fn check(&self) -> Result<(), OpError> {
        if self.cancel.load(Ordering::Relaxed) {
            Err(OpError::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// Runs `f` with a step counter wired to the evaluation's progress (`total` steps); a
/// cancel or an error of `f` becomes the node's.
pub fn with_steps<T>(ctx: &OpContext, total: usize, f: impl FnOnce(&AtomicUsize) -> Result<T, crate::planet::SimError>) -> Result<T, OpError> {
    let local = AtomicUsize::new(0);
    let counter = match ctx.steps {
        Some(s) => {
            s.total.store(total, Ordering::Relaxed);
            &s.done
        }
        None => &local,
    };
    Ok(f(counter)?)
}

/// What a whole-planet node's refinement on a finer tile reads besides the run's outputs
/// ([`crate::nodes::Node::refines_from`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefineFrom {
    /// Nothing more (Landscape evolution, and every node that does not refine).
    Outputs,
    /// Its inputs on tiles at the region's level ([`Refine::input_on`]): Warp, Ice sheet.
    TileInputs,
    /// Its inputs on tiles and in the whole-planet run ([`Refine::whole_inputs`], which a
    /// tiled build then keeps): Curvature, Terrace, Normalize.
    TileAndRunInputs,
}

/// What a whole-planet node's refinement ([`crate::nodes::Node::refine`]) works from, on a grid
/// finer than the node's whole-planet run (a tile of a close-up or of a tiled build above the
/// cap).
pub struct Refine<'a> {
    /// The node's outputs of the whole-planet run (at the run's level), in port order.
    pub outputs: &'a [Option<Value>],
    /// Which of them the steps on the grid read (in port order).
    pub wanted: &'a [bool],
    /// The node's inputs in the whole-planet run, in port order (`None` for an input that is
    /// not connected). Kept for nodes that refine from them
    /// ([`RefineFrom::TileAndRunInputs`]); empty for the others.
    pub whole_inputs: &'a [Option<Value>],
    /// Where the refined outputs lie.
    pub grid: crate::planet::Grid,
    /// The planet's settings, where the program has a Planet node.
    pub planet: Option<&'a crate::nodes::output::planet::PlanetSettings>,
    /// Input `port` (in port order) evaluated on any grid at the region's level: the tile
    /// itself, or another tile elsewhere on the planet (what feeds the node runs there as it
    /// runs on the region's tiles). Errors as a node's run would (`Cancelled` included). Only
    /// for nodes that refine from their inputs (not [`RefineFrom::Outputs`]).
    pub input_on: &'a (dyn Fn(usize, crate::planet::Grid) -> Result<Value, OpError> + Sync),
    /// Set when the evaluation should stop as soon as possible.
    pub cancel: &'a AtomicBool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet::SimError;

    #[test]
    fn a_simulation_s_error_stays_an_error_and_its_cancel_a_cancel() {
        let cancel = AtomicBool::new(false);
        let steps = StepProgress::default();
        let ctx = OpContext { tile: None, n: 8, cancel: &cancel, steps: Some(&steps), planet: None, files: &[] };
        let failed: Result<(), OpError> = with_steps(&ctx, 10, |_| Err(SimError::Invalid("internal error: 5 values for 384 cells".into())));
        assert_eq!(failed, Err(OpError::Invalid("internal error: 5 values for 384 cells".into())));
        assert_eq!(steps.total.load(Ordering::Relaxed), 10);
        let stopped: Result<(), OpError> = with_steps(&ctx, 10, |_| Err(SimError::Cancelled));
        assert_eq!(stopped, Err(OpError::Cancelled));
        assert_eq!(with_steps(&ctx, 1, |c| Ok(c.load(Ordering::Relaxed))), Ok(0));
    }
}
