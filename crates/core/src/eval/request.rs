//! What an evaluation is asked for: one [`Request`] handed to [`Evaluator::run`], one
//! [`EvalResult`] back. Every caller (the editor's worker, builds whole and tiled, close-ups,
//! Python, the benchmarks) states where the program runs, at which levels, what the result
//! must keep and whether the memory cache takes part, instead of choosing among entry points.

use super::executor::{EvalResult, Evaluator, Progress};
use super::program::Program;
use super::region::{localities, run_local_part, whole_level, whole_levels, whole_part};
use crate::graph::NodeId;
use crate::nodes::{Locality, NodeKind};
use crate::planet::Grid;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Where a request's program runs.
#[derive(Clone, Copy)]
enum Scope<'a> {
    /// The whole planet at `n` cells per face edge, or each listed step at its own level.
    Whole { n: usize, levels: Option<&'a HashMap<NodeId, usize>> },
    /// A region evaluation on `grid` (a tile, or the whole planet) at the grid's level; the
    /// nodes that need the whole planet run at [`whole_level`]`(n, cap)` or their own lower
    /// level, through the evaluator's cache.
    Region { grid: Grid, cap: usize },
    /// The second half of a region evaluation alone: the steps that do not need the whole
    /// planet run on `grid`, reading the whole part's outputs from `whole` (a tiled build's
    /// tiles, which share one whole-planet run).
    Part { whole: &'a EvalResult, local: &'a [Locality], grid: Grid },
}

/// One evaluation asked of an [`Evaluator`]: where (the whole planet, a region, or a tile
/// from a whole-planet run made before), at which level in cells per face edge, which outputs
/// the result keeps, and whether the evaluator's memory cache takes part. Made with
/// [`Request::whole`], [`Request::region`] or [`Request::part`], then narrowed with the
/// other methods.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    scope: Scope<'a>,
    /// A build's run: only these nodes' outputs (and every sink's inputs) stay in the result,
    /// each other output is dropped once its last reader has run, and nothing enters the
    /// memory cache. `None`: every output is kept and cached (the editor).
    pub(super) keep: Option<&'a [NodeId]>,
    /// Of the whole part's outputs, a [`Request::part`] samples only those its own steps
    /// read and these; `None`: every one.
    reads: Option<&'a [(NodeId, usize)]>,
    /// Called just before (`false`) and just after (`true`) each node that runs (not for
    /// results from a cache).
    pub(super) observer: Option<fn(NodeKind, bool)>,
}

impl<'a> Request<'a> {
    fn of(scope: Scope<'a>) -> Self {
        Request { scope, keep: None, reads: None, observer: None }
    }

    /// The whole planet at `n` cells per face edge, every output kept and cached: the
    /// editor's evaluations.
    pub fn whole(n: usize) -> Self {
        Self::of(Scope::Whole { n, levels: None })
    }

    /// `grid` (a tile, or the whole planet) at the grid's level: the nodes that need the
    /// whole planet, and what they depend on, run once on the whole planet at
    /// [`whole_level`]`(n, cap)` cells per face edge (or lower where a node declares its own
    /// level), through the evaluator's cache, so that many tiles share one run; every other
    /// node runs on the grid. The result's outputs and sink inputs lie on `grid`.
    pub fn region(grid: Grid, cap: usize) -> Self {
        Self::of(Scope::Region { grid, cap })
    }

    /// The second half of a region evaluation on `grid`, from a run of the program's whole
    /// part made before (`whole`, at any level; `local` holds the steps' [`localities`]):
    /// every step that does not need the whole planet runs on the grid, reading the whole
    /// part's outputs sampled there. Runs without the evaluator's cache.
    pub fn part(whole: &'a EvalResult, local: &'a [Locality], grid: Grid) -> Self {
        Self::of(Scope::Part { whole, local, grid })
    }

    /// A whole-planet request with each listed step at its own level (cells per face edge; a
    /// step not listed runs at the request's level): a tiled build's or a region's whole part
    /// ([`whole_levels`]). A step's inputs made at another level are brought to its own first.
    /// No effect on other requests.
    pub fn at_levels(mut self, levels: &'a HashMap<NodeId, usize>) -> Self {
        if let Scope::Whole { n, .. } = self.scope {
            self.scope = Scope::Whole { n, levels: Some(levels) };
        }
        self
    }

    /// A build's run of a whole-planet request: the result holds the outputs of `keep` (the
    /// build's targets) and the inputs of every sink; every other output is dropped once the
    /// last node that reads it has run, the neighbour tables of the level after each node,
    /// and nothing enters the memory cache (the disk cache still serves and stores). The peak
    /// memory is what is alive at once, not every field.
    pub fn keeping(mut self, keep: &'a [NodeId]) -> Self {
        self.keep = Some(keep);
        self
    }

    /// For a [`Request::part`]: of the whole part's outputs, sample only those the grid's
    /// steps read and `reads` (a tiled build's tile reads one output).
    pub fn reading(mut self, reads: &'a [(NodeId, usize)]) -> Self {
        self.reads = Some(reads);
        self
    }

    /// Calls `observer` just before (`false`) and just after (`true`) each node the request
    /// runs on the whole planet (not for results from a cache): `bench --memory` measures each
    /// node's memory so.
    pub fn observed_by(mut self, observer: fn(NodeKind, bool)) -> Self {
        self.observer = Some(observer);
        self
    }
}

impl Evaluator {
    /// Evaluates `program` as `request` asks; `cancel` stops it between nodes (and inside the
    /// long ones), `progress` counts the nodes done.
    pub fn run(&mut self, program: &Program, request: &Request, cancel: &AtomicBool, progress: &Progress) -> EvalResult {
        match request.scope {
            Scope::Whole { n, levels } => self.run_whole(program, n, levels, request, cancel, progress),
            Scope::Region { grid, cap } => {
                let start = Instant::now();
                let n = grid.n();
                let local = localities(program);
                let whole = whole_part(program, &local);
                let whole_res = if whole.steps.is_empty() {
                    EvalResult::default()
                } else {
                    // The whole part goes through the memory cache (no `keep`): the tiles share it.
                    let part = Request { observer: request.observer, ..Request::whole(0) };
                    self.run_whole(&whole, whole_level(n, cap), Some(&whole_levels(&whole, n, cap)), &part, cancel, progress)
                };
                let mut res = run_local_part(program, &local, &whole_res, grid, request.reads, cancel, progress);
                res.cached = whole_res.cached;
                res.total_ms = start.elapsed().as_secs_f64() * 1e3;
                res
            }
            Scope::Part { whole, local, grid } => run_local_part(program, local, whole, grid, request.reads, cancel, progress),
        }
    }
}
