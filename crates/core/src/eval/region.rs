//! Region evaluation: a compiled program evaluated on one tile of the planet (or on the whole
//! planet) at any level. Nodes that work cell by cell ([`Locality::Cellwise`]) run on the tile
//! alone, at the tile's level; nodes that read their neighbours ([`Locality::Halo`]) run on the
//! tile too, given their inputs on the tile with a halo (so what feeds them runs on the larger
//! square); nodes that need the whole planet ([`Locality::Whole`]) run once on the whole planet
//! at a capped level, or at a lower level of their own ([`whole_levels`]), through the
//! evaluator's cache, so every tile of a build or a close-up shares that one run, and the tile
//! samples their outputs.
//!
//! Guarantees (tested in `region_tests.rs` and `tests/region.rs`): at a level within the cap, a
//! tile holds exactly the values the whole evaluation gives its cells (for a chain of halo
//! nodes, except within two cells of a cube corner, where a halo's corner square has no cells
//! of its own); above the cap, the tiles of a planet together are exactly
//! [`super::Request::region`] on the whole grid, so tile borders and face edges add no seam of
//! their own.

use super::executor::{record, run_step, step_inputs, EvalResult, NodeOutputs, Progress};
use super::program::{Program, Step};
use crate::graph::NodeId;
use crate::nodes::{Locality, OpError, Refine, RefineFrom, Value};
use crate::planet::{ColourField, Field, Grid, VectorField};
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Where each step of a program runs in a region evaluation.
pub fn localities(program: &Program) -> Vec<Locality> {
    program
        .steps
        .iter()
        .map(|step| {
            let connected: Vec<bool> = step.inputs.iter().map(Option::is_some).collect();
            // A bypassed node passes its input on, which works on any grid.
            if step.bypass {
                Locality::Cellwise
            } else {
                step.kind.locality(&step.params, &connected)
            }
        })
        .collect()
}

/// The part of `program` the nodes that need the whole planet depend on (themselves
/// included), in order: what a region evaluation runs on the whole planet. `local` holds the
/// steps' [`localities`].
pub fn whole_part(program: &Program, local: &[Locality]) -> Program {
    program.upstream(whole_steps(program, local))
}

/// The steps of `program` that need the whole planet (`local` holds the steps'
/// [`localities`]).
pub fn whole_steps(program: &Program, local: &[Locality]) -> BTreeSet<NodeId> {
    program.steps.iter().zip(local).filter(|(_, l)| **l == Locality::Whole).map(|(s, _)| s.id).collect()
}

/// The level the nodes that need the whole planet run at for a region at level `n`: `n`, or
/// `cap` when that is lower.
pub fn whole_level(n: usize, cap: usize) -> usize {
    n.min(cap.max(1))
}

/// The level each step of `whole` (a program's [`whole_part`]) runs at for a region at level
/// `n`: [`whole_level`]`(n, cap)`, except for a node that needs the whole planet, makes its
/// outputs at a level of its own ([`crate::nodes::NodeKind::own_level`]: a Blur at the level
/// its blur works at, Precipitation at its climate level) and feeds only the tiles: that one
/// runs at its own level, given its inputs averaged down to it ([`at_level`]), as it would
/// average them itself. Its outputs reach the tiles as bilinear samples
/// ([`sample_bilinear_on`]), as it would sample them up, so within the cap a tile still gets
/// exactly the whole evaluation's values.
pub fn whole_levels(whole: &Program, n: usize, cap: usize) -> HashMap<NodeId, usize> {
    let base = whole_level(n, cap);
    let read: BTreeSet<NodeId> = whole.steps.iter().flat_map(|s| s.inputs.iter().flatten().map(|(src, _)| *src)).collect();
    whole
        .steps
        .iter()
        .zip(localities(whole))
        .map(|(step, l)| {
            let own = if l == Locality::Whole && !read.contains(&step.id) { step.kind.own_level(&step.params, base) } else { None };
            (step.id, own.unwrap_or(base))
        })
        .collect()
}

/// Value `v` (on the whole planet) at level `m`: as it is when already there; a field through
/// [`Field::resample`] (the mean of each coarse cell's fine cells where the levels divide, as
/// a node with a level of its own averages its inputs down); colours and vectors sampled at the
/// new cells' centres ([`sample_on`]).
pub fn at_level(v: Value, m: usize) -> Value {
    match (&v, v.grid()) {
        (Value::Field(f), Some(Grid::Whole(k))) if k != m => Value::Field(Arc::new(f.resample(m))),
        (_, Some(Grid::Whole(k))) if k != m => sample_on(&v, Grid::Whole(m)),
        _ => v,
    }
}

/// Value `v` (on the whole planet at its resolution `m`) on `grid`: the same cells' values when
/// the grid's level is `m`, otherwise samples at the grid's cell centres (seamless across face
/// edges): smooth ones for fields ([`Field::smooth_taps_ab`]: relief without facets along the
/// coarse cells), bilinear ones for colours and vectors. Region surfaces and plates do not
/// depend on the grid.
pub fn sample_on(v: &Value, grid: Grid) -> Value {
    sample_with(v, grid, true)
}

/// [`sample_on`] with bilinear samples for fields too (at the grid's cell centres, as
/// [`Field::resample`] samples a field up): how a node that makes its outputs at a level of its
/// own ([`crate::nodes::NodeKind::own_level`]) brings them to a finer level, so a tile gets
/// exactly the values the whole evaluation gives its cells.
pub fn sample_bilinear_on(v: &Value, grid: Grid) -> Value {
    sample_with(v, grid, false)
}

fn sample_with(v: &Value, grid: Grid, smooth: bool) -> Value {
    let Some(from) = v.grid() else { return v.clone() };
    if from == grid {
        return v.clone();
    }
    let m = from.n();
    let n = grid.n();
    match v {
        Value::Field(f) if smooth || n == m => Value::Field(Arc::new(f.smooth_on(grid))),
        Value::Field(f) => Value::Field(Arc::new(f.bilinear_on(grid))),
        Value::Colour(c) => Value::Colour(Arc::new(c.sample_on(grid))),
        Value::Vector(vf) => Value::Vector(Arc::new(vf.sample_on(grid))),
        Value::Regions(_) | Value::Plates(_) => v.clone(),
    }
}

/// The `wanted` outputs of the whole-planet step `step` (whose outputs are `outputs`) on
/// `grid`: the node's own refinement where the grid is finer than the run and the node has one
/// ([`crate::nodes::Node::refine`], asked once for all of them, given its inputs on any tile
/// through [`input_on`]), otherwise [`sample_on`] ([`sample_bilinear_on`] for a node with a
/// level of its own). `res` holds what the region evaluation made so far on its grid.
fn on_grid(step: &Step, outputs: &[Option<Value>], wanted: &[bool], grid: Grid, part: &Part, res: &EvalResult) -> Result<NodeOutputs, OpError> {
    let finer = !step.bypass && outputs.iter().flatten().any(|v| v.grid().is_some_and(|g| g.n() < grid.n()));
    let mut refined = Vec::new();
    if finer {
        let whole_inputs: Vec<Option<Value>> = if reads_run_inputs(step) { step.inputs.iter().map(|i| i.and_then(|(src, port)| part.whole.output(src, port).cloned())).collect() } else { Vec::new() };
        // What feeds each input, built once for all the grids the node asks its inputs on.
        let upstream: Vec<std::sync::OnceLock<(Program, Vec<Locality>)>> = step.inputs.iter().map(|_| std::sync::OnceLock::new()).collect();
        let input = |port: usize, g: Grid| input_on(step, port, g, part, res, &upstream);
        let r = Refine { outputs, wanted, whole_inputs: &whole_inputs, grid, planet: part.program.planet.as_ref(), input_on: &input, cancel: part.cancel };
        refined = step.kind.refine(&step.params, &r)?;
    }
    refined.resize(outputs.len(), None);
    let sample = if !step.bypass && step.kind.own_level(&step.params, grid.n()).is_some() { sample_bilinear_on } else { sample_on };
    Ok(Arc::new(outputs.iter().zip(wanted).zip(refined).map(|((v, &want), r)| v.as_ref().filter(|_| want).map(|v| r.unwrap_or_else(|| sample(v, grid)))).collect()))
}

/// What a region evaluation's second half works from: the program, its whole part's run and
/// the cancel flag.
struct Part<'a> {
    program: &'a Program,
    whole: &'a EvalResult,
    cancel: &'a AtomicBool,
}

/// Input `port` of `step` on grid `g` at the region's level, for a node's refinement: the
/// value the region evaluation already made on that grid (or on it with more halo), otherwise
/// what feeds the input evaluated there ([`run_local_part`] of its upstream part, reading the
/// same whole-planet run; `upstream` keeps that part and its localities per input port).
fn input_on(step: &Step, port: usize, g: Grid, part: &Part, res: &EvalResult, upstream: &[std::sync::OnceLock<(Program, Vec<Locality>)>]) -> Result<Value, OpError> {
    let (src, src_port) = step.inputs.get(port).copied().flatten().ok_or_else(|| OpError::Invalid(format!("internal error: input {port} of {} is not connected", step.kind.meta().label)))?;
    if let Some(v) = res.output(src, src_port) {
        if let Ok(v) = crop(v, g) {
            return Ok(v);
        }
    }
    let (upstream, local) = upstream.get(port).ok_or_else(|| OpError::Invalid(format!("internal error: {} has no input {port}", step.kind.meta().label)))?.get_or_init(|| {
        let upstream = part.program.upstream([src]);
        let local = localities(&upstream);
        (upstream, local)
    });
    let out = run_local_part(upstream, local, part.whole, g, Some(&[(src, src_port)]), part.cancel, &Progress::default());
    if out.cancelled {
        return Err(OpError::Cancelled);
    }
    if let Some(v) = out.output(src, src_port) {
        return Ok(v.clone());
    }
    Err(OpError::Invalid(out.errors.get(&src).or_else(|| out.errors.values().next()).cloned().unwrap_or_else(|| format!("internal error: what feeds {} did not run on {g}", step.kind.meta().label))))
}

/// The nodes that need the whole planet whose outputs a step on the tile reads, and what feeds
/// a node that refines from its inputs in the run ([`RefineFrom::TileAndRunInputs`]): what a
/// tiled build keeps of the whole part's run while it evaluates its tiles.
pub fn frontier(program: &Program, local: &[Locality]) -> Vec<NodeId> {
    let whole = whole_steps(program, local);
    let mut out = BTreeSet::new();
    for (step, l) in program.steps.iter().zip(local) {
        if *l != Locality::Whole {
            out.extend(step.inputs.iter().flatten().map(|(src, _)| *src).filter(|src| whole.contains(src)));
        } else if reads_run_inputs(step) {
            // Such a node reads its inputs' whole-planet values, whatever feeds them.
            out.extend(step.inputs.iter().flatten().map(|(src, _)| *src));
        }
    }
    out.into_iter().collect()
}

/// What `step`'s refinement reads besides the run's outputs ([`crate::nodes::Node::refines_from`];
/// a bypassed node refines nothing).
fn refines_from(step: &Step) -> RefineFrom {
    if step.bypass {
        RefineFrom::Outputs
    } else {
        step.kind.refines_from(&step.params)
    }
}

/// Whether `step` refines on a tile from its inputs there.
fn from_inputs(step: &Step) -> bool {
    refines_from(step) != RefineFrom::Outputs
}

/// Whether `step` refines from its inputs' whole-planet values too.
fn reads_run_inputs(step: &Step) -> bool {
    refines_from(step) == RefineFrom::TileAndRunInputs
}

/// The second half of a region evaluation: every step of `program` that is not in its whole
/// part runs on `grid`, reading the whole part's outputs from `whole_res` (a run of
/// [`whole_part`] at any level, sampled onto the grid). `local` holds the steps'
/// [`localities`]. The result's outputs and sink inputs lie on `grid`. Of the whole part's
/// outputs, those the steps on the grid read are sampled, and with `reads` only those and the
/// caller's `reads` (a tiled build's tile reads one output); `None`: every one.
///
/// On a tile, the steps upstream of a [`Locality::Halo`] node run on the tile with the halo it
/// needs ([`halos`]; halos add up along a chain of such nodes), and each step's inputs are
/// cropped to the halo it runs with; the result keeps only the tile's own cells.
pub(super) fn run_local_part(program: &Program, local: &[Locality], whole_res: &EvalResult, grid: Grid, reads: Option<&[(NodeId, usize)]>, cancel: &AtomicBool, progress: &Progress) -> EvalResult {
    let start = Instant::now();
    let mut res = EvalResult { n: grid.n(), errors: program.errors.clone(), idle: program.idle.clone(), cancelled: whole_res.cancelled, ..Default::default() };
    if res.cancelled {
        return res;
    }
    let read_here: BTreeSet<(NodeId, usize)> = program.steps.iter().zip(local).filter(|(s, l)| **l != Locality::Whole || from_inputs(s)).flat_map(|(s, _)| s.inputs.iter().flatten().copied()).collect();
    let part = Part { program, whole: whole_res, cancel };
    let wanted = |port: (NodeId, usize)| reads.is_none_or(|r| r.contains(&port)) || read_here.contains(&port);
    // Where each step runs: the tile with the halo its readers need, or the whole planet.
    let halo = halos(program, local);
    let on = |extra: usize| grid.tile().map_or(grid, |t| Grid::Tile(t.with_halo(t.halo + extra)));
    progress.total.store(program.steps.len(), Ordering::Relaxed);
    progress.done.store(0, Ordering::Relaxed);
    for ((step, locality), &extra) in program.steps.iter().zip(local).zip(&halo) {
        if *locality == Locality::Whole {
            if let Some(values) = whole_res.outputs.get(&step.id) {
                let t = Instant::now();
                let ports: Vec<bool> = (0..values.len()).map(|port| wanted((step.id, port))).collect();
                let sampled = on_grid(step, values, &ports, on(extra), &part, &res);
                let ms = whole_res.timings_ms.get(&step.id).copied().unwrap_or(0.0) + t.elapsed().as_secs_f64() * 1e3;
                if !record(&mut res, step.id, sampled, ms, cancel) {
                    break;
                }
            } else if let Some(e) = whole_res.errors.get(&step.id) {
                res.errors.insert(step.id, e.clone());
            }
            progress.done.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let Some(inputs) = step_inputs(&mut res, step) else { continue };
        let reach = match locality {
            Locality::Halo(h) => *h,
            _ => 0,
        };
        let inputs = match inputs.iter().map(|v| v.as_ref().map(|v| crop(v, on(extra + reach))).transpose()).collect::<Result<Vec<_>, String>>() {
            Ok(inputs) => inputs,
            Err(e) => {
                res.errors.insert(step.id, e);
                continue;
            }
        };
        if step.kind.meta().category.is_sink() {
            res.sink_inputs.insert(step.id, inputs.clone());
        }
        let t = Instant::now();
        let outcome = run_step(step, program, &inputs, on(extra), cancel, &progress.inner).map(|out| Arc::new(out.into_iter().map(Some).collect()));
        if !record(&mut res, step.id, outcome, t.elapsed().as_secs_f64() * 1e3, cancel) {
            break;
        }
        progress.done.fetch_add(1, Ordering::Relaxed);
    }
    // Only the tile's own cells leave the evaluation.
    for (&id, &extra) in program.steps.iter().map(|s| &s.id).zip(&halo) {
        if extra == 0 {
            continue;
        }
        let Some(values) = res.outputs.get(&id) else { continue };
        match values.iter().map(|v| v.as_ref().map(|v| crop(v, grid)).transpose()).collect::<Result<Vec<_>, String>>() {
            Ok(cropped) => {
                res.outputs.insert(id, Arc::new(cropped));
            }
            Err(e) => {
                res.outputs.remove(&id);
                res.errors.insert(id, e);
            }
        }
    }
    res.total_ms = start.elapsed().as_secs_f64() * 1e3;
    res
}

/// The halo, in cells of the tile's level, each step of `program` runs with on a tile: the
/// most that any step reading its outputs needs of its inputs (that step's own halo, plus the
/// reach of a [`Locality::Halo`] node). 0 for steps nothing on the tile reads through such a
/// node; steps that run on the whole planet read nothing on the tile.
pub fn halos(program: &Program, local: &[Locality]) -> Vec<usize> {
    let index: std::collections::HashMap<NodeId, usize> = program.steps.iter().enumerate().map(|(k, s)| (s.id, k)).collect();
    let mut halo = vec![0usize; program.steps.len()];
    for (k, (step, locality)) in program.steps.iter().zip(local).enumerate().rev() {
        let needs = match locality {
            Locality::Whole if from_inputs(step) => halo[k],
            Locality::Whole => continue,
            Locality::Cellwise => halo[k],
            Locality::Halo(h) => halo[k] + h,
        };
        for &(src, _) in step.inputs.iter().flatten() {
            if let Some(&from) = index.get(&src) {
                halo[from] = halo[from].max(needs);
            }
        }
    }
    halo
}

/// Value `v` on `to`, the grid it lies on or the same tile with less halo; an internal error
/// naming both otherwise.
fn crop(v: &Value, to: Grid) -> Result<Value, String> {
    let Some(from) = v.grid() else { return Ok(v.clone()) };
    if from == to {
        return Ok(v.clone());
    }
    let fail = || format!("internal error: a value on {from} was needed on {to}; please report it with the graph file");
    Ok(match v {
        Value::Field(f) => Value::Field(Arc::new(Field::from_vec_on(to, from.crop(f.data(), to).ok_or_else(fail)?).map_err(|e| e.to_string())?)),
        Value::Colour(c) => Value::Colour(Arc::new(ColourField { n: to.n(), tile: to.tile(), data: from.crop(&c.data, to).ok_or_else(fail)? })),
        Value::Vector(vf) => Value::Vector(Arc::new(VectorField { n: to.n(), tile: to.tile(), data: from.crop(&vf.data, to).ok_or_else(fail)? })),
        Value::Regions(_) | Value::Plates(_) => v.clone(),
    })
}

#[cfg(test)]
#[path = "region_tests.rs"]
mod tests;
