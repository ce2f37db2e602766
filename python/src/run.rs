//! Evaluations and builds from Python: the work runs on its own thread with the GIL released;
//! the calling thread reports progress to the callback and turns Ctrl+C into cancellation.

use crate::arrays::{flatten, to_numpy, Layout};
use crate::graph::Graph;
use crate::PlanetGraphError;
use planetgraph_core::eval::{memory, Evaluator, Progress, Request};
use planetgraph_core::export::export_graph;
use planetgraph_core::export::{share, Control, ExportProgress, Share};
use planetgraph_core::graph::NodeId;
use planetgraph_core::limits::{budget_bytes, with_threads, MAX_RESOLUTION};
use planetgraph_core::nodes::Value;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyString, PyTuple};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Runs `work` on a thread of its own while this thread, holding the GIL only between waits,
/// calls `progress(fraction, stage)` about five times a second (stage from `poll`) and checks
/// for signals: Ctrl+C (or an exception in the callback) sets `cancel`, waits for the work to
/// stop and raises that exception.
fn run_with_progress<T: Send>(py: Python<'_>, cancel: &AtomicBool, progress: Option<&Bound<'_, PyAny>>, poll: impl Fn() -> (f32, &'static str), work: impl FnOnce() -> T + Send) -> PyResult<T> {
    let finished = AtomicBool::new(false);
    std::thread::scope(|s| {
        let handle = s.spawn(|| {
            let out = work();
            finished.store(true, Ordering::Release);
            out
        });
        let mut raised: Option<PyErr> = None;
        let mut last = (f32::NAN, "");
        while !finished.load(Ordering::Acquire) {
            py.detach(|| {
                for _ in 0..20 {
                    if finished.load(Ordering::Acquire) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            });
            if raised.is_some() {
                continue;
            }
            let step = py.check_signals().and_then(|()| match progress {
                Some(cb) => {
                    let now = poll();
                    if now != last {
                        last = now;
                        cb.call1(now).map(|_| ())
                    } else {
                        Ok(())
                    }
                }
                None => Ok(()),
            });
            if let Err(e) = step {
                cancel.store(true, Ordering::Relaxed);
                raised = Some(e);
            }
        }
        let out = handle.join().map_err(|_| PlanetGraphError::new_err("internal error: the work thread panicked; please report it with the graph file"))?;
        if let Some(e) = raised {
            return Err(e);
        }
        if let Some(cb) = progress {
            cb.call1((1.0f32, "done"))?;
        }
        Ok(out)
    })
}

/// The operating system refused the threads asked for.
fn threads_error(e: rayon::ThreadPoolBuildError) -> PyErr {
    PlanetGraphError::new_err(format!("cannot start the threads: {e}"))
}

/// The integer argument `name` as a `u32` in `min..=max`, or a ValueError naming the argument
/// (Python's ints are unbounded and signed; a negative or too large one must not surface as a
/// bare OverflowError).
pub fn int_arg(name: &str, value: i64, min: u32, max: u32) -> PyResult<u32> {
    match u32::try_from(value) {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(PyValueError::new_err(format!("{name} must be an integer from {min} to {max} (got {value})"))),
    }
}

/// The optional thread count argument: at least 1 (None: every core).
pub fn threads_arg(threads: Option<i64>) -> PyResult<Option<u32>> {
    threads.map(|t| int_arg("threads", t, 1, 4096)).transpose()
}

fn check_resolution(resolution: u32) -> PyResult<usize> {
    if resolution == 0 || resolution > MAX_RESOLUTION {
        return Err(PyValueError::new_err(format!("resolution {resolution} is outside 1..{MAX_RESOLUTION} cells per face edge")));
    }
    Ok(resolution as usize)
}

/// One requested output: the node and which output port (None: a display or output node's
/// first input, what it shows).
struct Want {
    key: Py<PyAny>,
    node: NodeId,
    port: Option<usize>,
}

/// Reads one entry of `outputs`: a node id, `"id"`, `"id:port"` or `(id, "port")`.
fn parse_want(g: &Graph, item: &Bound<'_, PyAny>) -> PyResult<Want> {
    let bad = || PyValueError::new_err(format!("{}: an output is a node id, \"id:port\" or (id, \"port\"), not {}", g.path.display(), item.repr().map(|r| r.to_string()).unwrap_or_default()));
    let (id, port): (u32, Option<String>) = if item.is_instance_of::<PyInt>() {
        (item.extract().map_err(|_| bad())?, None)
    } else if item.is_instance_of::<PyString>() {
        let s: String = item.extract()?;
        match s.split_once(':') {
            Some((a, b)) => (a.trim().parse().map_err(|_| bad())?, Some(b.trim().to_string())),
            None => (s.trim().parse().map_err(|_| bad())?, None),
        }
    } else if item.is_instance_of::<PyTuple>() {
        let (a, b): (u32, String) = item.extract().map_err(|_| bad())?;
        (a, Some(b))
    } else {
        return Err(bad());
    };
    let node = g.node(i64::from(id))?;
    let outs = node.kind.meta().outputs;
    let port = match port {
        Some(name) => Some(
            outs.iter().position(|p| p.name == name).ok_or_else(|| PyValueError::new_err(format!("{}: {} has no output '{name}' (its outputs: {})", g.path.display(), node.describe(), outs.iter().map(|p| p.name).collect::<Vec<_>>().join(", "))))?,
        ),
        None if outs.is_empty() => None,
        None => Some(0),
    };
    if port.is_none() && node.kind.meta().inputs.is_empty() {
        return Err(PyValueError::new_err(format!("{}: {} has neither outputs nor inputs to return", g.path.display(), node.describe())));
    }
    Ok(Want { key: item.clone().unbind(), node: node.id, port })
}

/// `Graph.evaluate`.
#[allow(clippy::too_many_arguments)]
pub fn evaluate<'py>(py: Python<'py>, g: &Graph, resolution: u32, outputs: Option<Vec<Bound<'py, PyAny>>>, threads: Option<u32>, progress: Option<Bound<'py, PyAny>>, projection: &str, width: Option<u32>) -> PyResult<Bound<'py, PyDict>> {
    let n = check_resolution(resolution)?;
    let layout = match projection {
        "faces" => Layout::Faces,
        "equirect" | "equirectangular" => {
            let w = width.unwrap_or(4 * resolution) as usize;
            if !(2..=65536).contains(&w) {
                return Err(PyValueError::new_err(format!("width {w} is outside 2..65536 pixels")));
            }
            Layout::Equirect { width: w }
        }
        other => return Err(PyValueError::new_err(format!("projection '{other}' is not 'faces' or 'equirect'"))),
    };
    let wants = wants(py, g, outputs)?;
    let targets: Vec<NodeId> = wants.iter().map(|w| w.node).collect();
    let program = compile_wants(g, &wants);
    memory::check_fits(n, &program).map_err(|e| PlanetGraphError::new_err(format!("{}: {e}", g.path.display())))?;
    let cancel = AtomicBool::new(false);
    let counters = Progress::default();
    let res = run_with_progress(py, &cancel, progress.as_ref(), || (counters.fraction(), "evaluating"), || with_threads(threads, || Evaluator::new().run(&program, &Request::whole(n).keeping(&targets), &cancel, &counters)))?.map_err(threads_error)?;
    arrays(py, g, &program, &res, &wants, layout)
}

/// The program that computes `wants` and nothing else: a node asked for by one of its outputs
/// needs only what its outputs read (an elevation asked of the Planet node does not evaluate
/// the chain that colours the planet).
fn compile_wants(g: &Graph, wants: &[Want]) -> planetgraph_core::eval::Program {
    let shown: Vec<NodeId> = wants.iter().filter(|w| w.port.is_none()).map(|w| w.node).collect();
    let outputs: Vec<NodeId> = wants.iter().filter(|w| w.port.is_some()).map(|w| w.node).collect();
    planetgraph_core::eval::program::compile_outputs(&g.doc, &shown, &outputs)
}

/// The outputs asked for (`outputs`), or the Planet node's elevation.
fn wants(py: Python<'_>, g: &Graph, outputs: Option<Vec<Bound<'_, PyAny>>>) -> PyResult<Vec<Want>> {
    match outputs {
        Some(items) => items.iter().map(|i| parse_want(g, i)).collect(),
        None => {
            let planet = g.doc.first_of(planetgraph_core::nodes::NodeKind::Planet).ok_or_else(|| PlanetGraphError::new_err(format!("{}: the graph has no Planet output node; name the outputs to evaluate", g.path.display())))?;
            Ok(vec![Want { key: planet.id.0.into_pyobject(py)?.into_any().unbind(), node: planet.id, port: Some(0) }])
        }
    }
}

/// The arrays of `wants` from an evaluation `res` of `program`, or the errors of the nodes
/// that failed.
fn arrays<'py>(py: Python<'py>, g: &Graph, program: &planetgraph_core::eval::Program, res: &planetgraph_core::eval::EvalResult, wants: &[Want], layout: Layout) -> PyResult<Bound<'py, PyDict>> {
    if res.cancelled {
        return Err(PlanetGraphError::new_err(format!("{}: the evaluation was cancelled", g.path.display())));
    }
    let targets: Vec<NodeId> = wants.iter().map(|w| w.node).collect();
    let describe = |id: &NodeId| g.doc.node(*id).map(|x| x.describe()).unwrap_or_else(|| id.to_string());
    let errors: Vec<String> = res.errors.iter().filter(|(id, _)| targets.contains(id) || !program.errors.contains_key(id)).chain(res.idle.iter().filter(|(id, _)| targets.contains(id))).map(|(id, msg)| format!("{}: {msg}", describe(id))).collect();
    if !errors.is_empty() {
        return Err(PlanetGraphError::new_err(format!("{}: {}", g.path.display(), errors.join("; "))));
    }
    let out = PyDict::new(py);
    for w in wants {
        let value: Option<&Value> = match w.port {
            Some(k) => res.output(w.node, k),
            None => res.shown(w.node),
        };
        let value = value.ok_or_else(|| PlanetGraphError::new_err(format!("{}: {} produced nothing to return", g.path.display(), describe(&w.node))))?;
        let (data, shape) = py.detach(|| flatten(value, layout)).ok_or_else(|| PyValueError::new_err(format!("{}: {} gives {} (not numbers per cell), which cannot be an array", g.path.display(), describe(&w.node), value.port_type().name())))?;
        out.set_item(w.key.bind(py), to_numpy(py, data, &shape)?)?;
    }
    Ok(out)
}

/// `Graph.evaluate_tile`: the outputs on one tile (`face` by index or name, `level` cells per
/// face edge, first `column` and `row`, `size` cells a side), the nodes that need the whole
/// planet at `whole_level` at most.
#[allow(clippy::too_many_arguments)]
pub fn evaluate_tile<'py>(
    py: Python<'py>,
    g: &Graph,
    face: &Bound<'py, PyAny>,
    level: u32,
    column: usize,
    row: usize,
    size: usize,
    outputs: Option<Vec<Bound<'py, PyAny>>>,
    whole_level: u32,
    threads: Option<u32>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    use planetgraph_core::planet::{Face, Grid, Tile};
    let face = if let Ok(k) = face.extract::<usize>() {
        *Face::ALL.get(k).ok_or_else(|| PyValueError::new_err(format!("face {k} is not 0..5")))?
    } else {
        let name: String = face.extract().map_err(|_| PyValueError::new_err("a face is its index 0..5 or its name in FACES"))?;
        *Face::ALL.iter().find(|f| f.name() == name).ok_or_else(|| PyValueError::new_err(format!("face '{name}' is not one of {}", Face::ALL.map(|f| f.name()).join(", "))))?
    };
    let cap = check_resolution(whole_level)?;
    let tile = Tile::new(face, level as usize, column, row, size).map_err(|e| PyValueError::new_err(e.to_string()))?;
    if size > 8192 {
        return Err(PyValueError::new_err(format!("a tile of {size} cells a side is over 8192: ask for several")));
    }
    let wants = wants(py, g, outputs)?;
    let program = compile_wants(g, &wants);
    memory::check_fits(planetgraph_core::eval::whole_level(tile.n, cap), &program).map_err(|e| PlanetGraphError::new_err(format!("{}: {e}", g.path.display())))?;
    let cancel = AtomicBool::new(false);
    let counters = Progress::default();
    let res =
        run_with_progress(py, &cancel, progress.as_ref(), || (counters.fraction(), "evaluating"), || with_threads(threads, || Evaluator::new().run(&program, &Request::region(Grid::Tile(tile), cap), &cancel, &counters)))?.map_err(threads_error)?;
    arrays(py, g, &program, &res, &wants, Layout::Tile)
}

/// `Graph.build`.
// The keyword arguments of `Graph.build`, one by one.
#[allow(clippy::too_many_arguments)]
pub fn build<'py>(py: Python<'py>, g: &Graph, out: &Path, resolution: u32, threads: Option<u32>, progress: Option<Bound<'py, PyAny>>, tiles: Option<(usize, usize)>, memory_gib: f64) -> PyResult<Bound<'py, PyAny>> {
    let n = check_resolution(resolution)?;
    let budget = budget_bytes(memory_gib).map_err(|e| PyValueError::new_err(format!("memory_gib: {e}")))?;
    let tiles = tiles.map(|(i, count)| Share::parse(&format!("{i}/{count}")).map_err(|e| PyValueError::new_err(format!("tiles {e}")))).transpose()?;
    let cancel = AtomicBool::new(false);
    let (eval, export) = (Progress::default(), ExportProgress::default());
    let poll = || {
        if export.files_total.load(Ordering::Relaxed) > 0 {
            (export.fraction(), "writing")
        } else {
            (eval.fraction(), "evaluating")
        }
    };
    let manifest = run_with_progress(py, &cancel, progress.as_ref(), poll, || with_threads(threads, || export_graph(&g.doc, &g.path, out, n, tiles, budget, None, &cancel, &eval, &export)))?
        .map_err(threads_error)?
        .map_err(|e| PlanetGraphError::new_err(e.to_string()))?;
    let text = serde_json::to_string(&manifest).map_err(|e| PlanetGraphError::new_err(format!("cannot describe the manifest: {e}")))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// `planetgraph.merge`: joins the shares in the folders `shares` into `out`; returns the
/// manifest.
#[pyfunction]
pub fn merge<'py>(py: Python<'py>, shares: Vec<std::path::PathBuf>, out: std::path::PathBuf) -> PyResult<Bound<'py, PyAny>> {
    let cancel = AtomicBool::new(false);
    let export = ExportProgress::default();
    let manifest = run_with_progress(py, &cancel, None, || (export.fraction(), "writing"), || share::merge(&shares, &out, &Control { cancel: &cancel, progress: &export }))?.map_err(|e| PlanetGraphError::new_err(e.to_string()))?;
    let text = serde_json::to_string(&manifest).map_err(|e| PlanetGraphError::new_err(format!("cannot describe the manifest: {e}")))?;
    py.import("json")?.call_method1("loads", (text,))
}
