//! Running a program: per-node cache keyed by (kind, parameters, input keys, resolution),
//! cancellation, progress and per-node timings.

use super::disk_cache::{DiskCache, Key, MIN_STORE_MS, PROGRAM_FINGERPRINT};
use super::program::{compile, Program, Step};
use super::request::Request;
use crate::graph::{Graph, NodeId};
use crate::nodes::{OpContext, OpError, Value};
use crate::planet::Grid;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Shared progress counters of a running evaluation (nodes done / nodes to run).
#[derive(Debug, Default)]
pub struct Progress {
    /// Steps finished.
    pub done: AtomicUsize,
    /// Steps in the program.
    pub total: AtomicUsize,
    /// Progress inside the node running now (erosion steps).
    pub inner: crate::nodes::StepProgress,
}

impl Progress {
    /// The share of the program done, 0..1: the finished nodes, plus the share of its own
    /// steps the running node has done (so the bar moves during a long erosion).
    pub fn fraction(&self) -> f32 {
        let (done, total) = (self.done.load(Ordering::Relaxed), self.total.load(Ordering::Relaxed));
        if total == 0 {
            return 0.0;
        }
        let (sd, st) = (self.inner.done.load(Ordering::Relaxed), self.inner.total.load(Ordering::Relaxed));
        let inner = if st > 0 { (sd as f32 / st as f32).min(1.0) } else { 0.0 };
        ((done as f32 + inner) / total as f32).min(1.0)
    }
}

/// The output values of one node that ran, one per output port (`None`: dropped by a build).
pub type NodeOutputs = Arc<Vec<Option<Value>>>;

/// What an evaluation produced.
#[derive(Debug, Clone, Default)]
pub struct EvalResult {
    /// Cells per face edge.
    pub n: usize,
    /// Output values per node that ran, one per output port; `None` for a port a releasing run
    /// (a build) dropped because no later node reads it. Read them with [`Self::output`].
    pub outputs: BTreeMap<NodeId, NodeOutputs>,
    /// The input values of each display and output node that ran (what a Preview shows, the
    /// Planet's albedo), one per input port.
    pub sink_inputs: BTreeMap<NodeId, Vec<Option<Value>>>,
    /// Error message per node that could not run.
    pub errors: BTreeMap<NodeId, String>,
    /// The nodes of `errors` whose error is a bug, not their input's (a panic caught, a node
    /// that stopped as though cancelled): a build reports them as internal failures.
    pub internal: std::collections::BTreeSet<NodeId>,
    /// Nodes that did not run because an input is not connected yet (not an error): the hint.
    pub idle: BTreeMap<NodeId, String>,
    /// Milliseconds per node computed in this run (cached nodes are absent).
    pub timings_ms: BTreeMap<NodeId, f64>,
    /// Nodes served from the cache (in memory or on disk).
    pub cached: usize,
    /// Of those, nodes read from the cache on disk.
    pub from_disk: usize,
    /// Whole evaluation in milliseconds.
    pub total_ms: f64,
    /// True when a cancellation stopped the run (outputs are then incomplete).
    pub cancelled: bool,
}

impl EvalResult {
    /// Output `port` (by position) of node `id`; `None` if the node did not run or a build
    /// dropped that output (nothing reads it).
    pub fn output(&self, id: NodeId, port: usize) -> Option<&Value> {
        self.outputs.get(&id)?.get(port)?.as_ref()
    }

    /// Output `port` of node `id` (a typed handle on one of its kind's outputs); `None` if the
    /// node did not run, a build dropped that output or it holds another type.
    pub fn port_value<T: crate::nodes::PortValue>(&self, id: NodeId, port: crate::nodes::OutPort<T>) -> Option<&Arc<T>> {
        port.value_in(self.outputs.get(&id)?).ok().flatten()
    }

    /// Milliseconds per node computed in this run, keyed by how messages name the node in `g`
    /// (`Kind #id`), as manifests and bench print them.
    pub fn timings_by_name(&self, g: &Graph) -> BTreeMap<String, f64> {
        self.timings_ms.iter().map(|(id, ms)| (g.describe_node(*id), *ms)).collect()
    }

    /// The first output of a node as a field.
    pub fn field(&self, id: NodeId) -> Option<&Arc<crate::planet::Field>> {
        self.output(id, 0)?.as_field()
    }

    /// The first output of a node as colours.
    pub fn colour(&self, id: NodeId) -> Option<&Arc<crate::planet::ColourField>> {
        self.output(id, 0)?.as_colour()
    }

    /// The field a display node shows (its first input).
    pub fn shown_field(&self, id: NodeId) -> Option<&Arc<crate::planet::Field>> {
        self.shown(id)?.as_field()
    }

    /// The colours a display node shows (its first input).
    pub fn shown_colour(&self, id: NodeId) -> Option<&Arc<crate::planet::ColourField>> {
        self.shown(id)?.as_colour()
    }

    /// The value on input `port` of display or output node `id` (the Planet's albedo, an
    /// Export's field); `None` if not connected, of another type or the node did not run.
    pub fn input<T: crate::nodes::PortValue>(&self, id: NodeId, port: crate::nodes::InPort<T>) -> Option<&Arc<T>> {
        port.value_in(self.sink_inputs.get(&id)?).ok().flatten()
    }

    /// The value a display node shows, of any type (its first input).
    pub fn shown(&self, id: NodeId) -> Option<&Value> {
        self.sink_inputs.get(&id)?.first()?.as_ref()
    }
}

/// The error a node gets when node `src`, whose output it reads, produced nothing (it failed
/// or was cancelled; its own error says why).
pub fn waiting_for(src: NodeId) -> String {
    format!("waiting for node {src}, which produced nothing")
}

/// The values on `step`'s input ports from the outputs in `res` (`None` for an optional input
/// left open); `None`, with the error put on the step's node, when a source produced nothing.
pub(super) fn step_inputs(res: &mut EvalResult, step: &Step) -> Option<Vec<Option<Value>>> {
    let mut inputs = Vec::with_capacity(step.inputs.len());
    for input in &step.inputs {
        match *input {
            None => inputs.push(None),
            Some((src, idx)) => match res.output(src, idx) {
                Some(v) => inputs.push(Some(v.clone())),
                None => {
                    res.errors.entry(step.id).or_insert_with(|| waiting_for(src));
                    return None;
                }
            },
        }
    }
    Some(inputs)
}

/// Runs `step` with its `inputs` on `grid` (the whole planet, or a tile for a cellwise node): a
/// bypassed node passes its inputs on, a node that reads the planet's settings waits while they
/// have an error, any other runs guarded.
pub(super) fn run_step(step: &Step, program: &Program, inputs: &[Option<Value>], grid: Grid, cancel: &AtomicBool, steps: &crate::nodes::StepProgress) -> Result<Vec<Value>, OpError> {
    let reads_planet = step.kind.meta().reads_planet;
    let ctx = OpContext { tile: grid.tile(), n: grid.n(), cancel, steps: Some(steps), planet: if reads_planet { program.planet.as_ref() } else { None }, files: &step.files };
    if step.bypass {
        bypassed(step.kind, inputs)
    } else if reads_planet && program.planet.is_none() {
        Err(OpError::Invalid("waiting for the Planet node, whose settings (the planet's radius, sea level, peak and depth) have an error".to_string()))
    } else {
        guarded(|| step.kind.run(&step.params, inputs, &ctx))
    }
}

/// Puts the outcome of node `id`'s run into `res`: its outputs and the `ms` it took, or its
/// error. Returns `false` when the evaluation was cancelled (`res.cancelled` is set; the caller
/// stops). A node that stops as though cancelled when nothing cancelled it has a bug: that is
/// reported on the node, and the rest of the graph goes on.
pub(super) fn record(res: &mut EvalResult, id: NodeId, outcome: Result<NodeOutputs, OpError>, ms: f64, cancel: &AtomicBool) -> bool {
    let message = match outcome {
        Ok(out) => {
            res.outputs.insert(id, out);
            res.timings_ms.insert(id, ms);
            return true;
        }
        Err(OpError::Cancelled) if cancel.load(Ordering::Relaxed) => {
            res.cancelled = true;
            return false;
        }
        Err(OpError::Cancelled) => {
            res.internal.insert(id);
            "internal error: the node stopped as though cancelled, but nothing cancelled it; please report it with the graph file".to_string()
        }
        Err(e @ OpError::Internal(_)) => {
            res.internal.insert(id);
            e.to_string()
        }
        Err(OpError::Invalid(m)) => m,
    };
    res.errors.insert(id, message);
    true
}

/// Runs one node (`run`); a panic inside it (a bug) becomes an error on that node, so the rest of the
/// evaluation goes on and the editor's evaluation thread survives.
fn guarded(run: impl FnOnce() -> Result<Vec<Value>, OpError>) -> Result<Vec<Value>, OpError> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| payload.downcast_ref::<String>().cloned()).unwrap_or_else(|| "no message".to_string());
            Err(OpError::Internal(what))
        }
    }
}

/// The outputs of a bypassed node: each output passes on the first input of its type.
fn bypassed(kind: crate::nodes::NodeKind, inputs: &[Option<Value>]) -> Result<Vec<Value>, OpError> {
    kind.meta().outputs.iter().map(|o| inputs.iter().flatten().find(|v| v.port_type() == o.ty).cloned().ok_or_else(|| OpError::Invalid(format!("bypassed, but no input of type {} to pass on to output '{}'", o.ty.name(), o.name)))).collect()
}

/// Evaluates graphs and keeps results of recent runs for reuse.
#[derive(Default)]
pub struct Evaluator {
    cache: HashMap<Key, (NodeOutputs, u64)>,
    run: u64,
    /// Node results on disk, kept between runs (see [`DiskCache`]); `None` for none.
    disk: Option<Arc<DiskCache>>,
}

impl Evaluator {
    /// A new evaluator with an empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads and writes node results in `disk` as well (a build with `--cache`, the editor).
    /// Nothing in it changes a result's bytes: an entry is used only for the same work by the
    /// same program, and only when it reads back intact.
    pub fn with_disk_cache(mut self, disk: Option<Arc<DiskCache>>) -> Self {
        self.disk = disk;
        self
    }

    /// Sets the cache on disk (see [`Self::with_disk_cache`]).
    pub fn set_disk_cache(&mut self, disk: Option<Arc<DiskCache>>) {
        self.disk = disk;
    }

    /// The cache on disk, if any.
    pub fn disk_cache(&self) -> Option<&Arc<DiskCache>> {
        self.disk.as_ref()
    }

    /// Drops every cached result.
    pub fn clear(&mut self) {
        self.cache.clear();
    }

    /// Number of cached node results.
    pub fn cached_entries(&self) -> usize {
        self.cache.len()
    }

    /// Compiles `g` and evaluates it on the whole planet at `n` cells per face edge, every
    /// output kept and cached: [`Self::run`] of [`Request::whole`] for a graph.
    pub fn evaluate(&mut self, g: &Graph, n: usize, cancel: &AtomicBool, progress: &Progress) -> EvalResult {
        self.run(&compile(g), &Request::whole(n), cancel, progress)
    }

    /// `program` on the whole planet at `n` cells per face edge, or each step listed in
    /// `levels` at its own ([`Request::at_levels`]), keeping and observing as `request` says
    /// ([`Request::keeping`], [`Request::observed_by`]).
    pub(super) fn run_whole(&mut self, program: &Program, n: usize, levels: Option<&HashMap<NodeId, usize>>, request: &Request, cancel: &AtomicBool, progress: &Progress) -> EvalResult {
        let (keep, observer) = (request.keep, request.observer);
        // For a releasing run: the index of the last step that reads each node.
        let last_use = if keep.is_some() { program.last_reads() } else { HashMap::new() };
        let start = Instant::now();
        self.run += 1;
        let mut res = EvalResult { n, errors: program.errors.clone(), idle: program.idle.clone(), ..Default::default() };
        progress.total.store(program.steps.len(), Ordering::Relaxed);
        progress.done.store(0, Ordering::Relaxed);
        let mut keys: HashMap<NodeId, Key> = HashMap::new();
        for (index, step) in program.steps.iter().enumerate() {
            if let Some(keep) = keep {
                // Outputs whose last reader ran in the step before, and the outputs of that
                // step's node that nothing reads, are no longer needed.
                if index > 0 {
                    for (src, port) in program.released_after(index - 1, &last_use).into_iter().filter(|(src, _)| !keep.contains(src)) {
                        if let Some(values) = res.outputs.get_mut(&src) {
                            if let Some(slot) = Arc::make_mut(values).get_mut(port) {
                                *slot = None;
                            }
                            if values.iter().all(Option::is_none) {
                                res.outputs.remove(&src);
                            }
                        }
                    }
                }
            }
            let level = levels.and_then(|l| l.get(&step.id)).copied().unwrap_or(n);
            // The key: what decides the step's result, the program included.
            let mut h = Sha256::new();
            h.update(PROGRAM_FINGERPRINT.as_bytes());
            h.update(format!("{:?}", step.kind).as_bytes());
            if !step.kind.resolution_independent() {
                h.update((level as u64).to_le_bytes());
            }
            let mut bytes = Vec::new();
            for (name, v) in &step.params {
                bytes.extend(name.as_bytes());
                v.hash_into(&mut bytes);
            }
            // A node that reads the planet's settings depends on them as on its own.
            let reads_planet = step.kind.meta().reads_planet;
            if reads_planet {
                if let Some(p) = &program.planet {
                    for v in [p.radius_km, p.sea_level, p.max_elevation_m, p.max_depth_m] {
                        bytes.extend(v.to_bits().to_le_bytes());
                    }
                }
            }
            h.update((bytes.len() as u64).to_le_bytes());
            h.update(&bytes);
            // A node that reads files depends on their content, not on their names.
            if let Some(content) = &step.content {
                h.update(content);
            }
            for input in &step.inputs {
                match *input {
                    // An optional input left open.
                    None => h.update([0xffu8; 32]),
                    Some((src, idx)) => {
                        h.update(keys.get(&src).copied().unwrap_or([0u8; 32]));
                        h.update((idx as u64).to_le_bytes());
                    }
                }
            }
            let Some(inputs) = step_inputs(&mut res, step) else { continue };
            h.update([step.bypass as u8]);
            let key: Key = h.finalize().into();
            keys.insert(step.id, key);
            if step.kind.meta().category.is_sink() {
                res.sink_inputs.insert(step.id, inputs.clone());
            }
            if let Some((v, used)) = self.cache.get_mut(&key) {
                *used = self.run;
                res.outputs.insert(step.id, v.clone());
                res.cached += 1;
                progress.done.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            if let Some(v) = self.disk.as_ref().filter(|_| !step.bypass).and_then(|d| d.load(&key, step.kind.meta().outputs.len())) {
                let v: NodeOutputs = Arc::new(v);
                if keep.is_none() {
                    self.cache.insert(key, (v.clone(), self.run));
                }
                res.outputs.insert(step.id, v);
                res.cached += 1;
                res.from_disk += 1;
                progress.done.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            let t = Instant::now();
            progress.inner.done.store(0, Ordering::Relaxed);
            progress.inner.total.store(0, Ordering::Relaxed);
            if let Some(observe) = observer {
                observe(step.kind, false);
            }
            let inputs: Vec<Option<Value>> = if levels.is_some() { inputs.into_iter().map(|v| v.map(|v| super::region::at_level(v, level))).collect() } else { inputs };
            let result = run_step(step, program, &inputs, Grid::Whole(level), cancel, &progress.inner);
            if let Some(observe) = observer {
                observe(step.kind, true);
            }
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let outcome = result.map(|out| {
                let out: NodeOutputs = Arc::new(out.into_iter().map(Some).collect());
                if keep.is_none() {
                    self.cache.insert(key, (out.clone(), self.run));
                }
                if let Some(d) = self.disk.as_ref().filter(|_| ms >= MIN_STORE_MS && !step.bypass && !cancel.load(Ordering::Relaxed)) {
                    d.store(&key, &out);
                }
                out
            });
            if !record(&mut res, step.id, outcome, ms, cancel) {
                break;
            }
            progress.done.fetch_add(1, Ordering::Relaxed);
            if keep.is_some() {
                // A build keeps no neighbour table past the node that used it.
                crate::planet::pipes::forget_tables(level);
            }
        }
        if cancel.load(Ordering::Relaxed) {
            res.cancelled = true;
        }
        // Keep what this run and the previous one used (previews and viewport alternate).
        let keep_from = self.run.saturating_sub(1);
        self.cache.retain(|_, (_, used)| *used >= keep_from);
        res.total_ms = start.elapsed().as_secs_f64() * 1e3;
        res
    }
}

#[cfg(test)]
mod progress_tests {
    use super::*;

    #[test]
    fn the_fraction_moves_with_the_running_node_s_steps() {
        let p = Progress::default();
        assert_eq!(p.fraction(), 0.0);
        p.total.store(8, Ordering::Relaxed);
        p.done.store(1, Ordering::Relaxed);
        assert_eq!(p.fraction(), 1.0 / 8.0);
        p.inner.total.store(200, Ordering::Relaxed);
        p.inner.done.store(100, Ordering::Relaxed);
        assert_eq!(p.fraction(), 1.5 / 8.0, "half of the second node's steps");
    }

    /// A node that panics (a bug) becomes an error on that node instead of ending the
    /// evaluation, or the editor's evaluation thread.
    #[test]
    fn a_panicking_node_is_an_error_on_that_node() {
        let e = guarded(|| panic!("index out of bounds")).expect_err("caught");
        assert!(e.to_string().contains("internal error") && e.to_string().contains("index out of bounds"), "{e}");
        assert!(guarded(|| Ok(Vec::new())).is_ok());
    }

    /// A build drops an output that nothing reads right after its node, not when the node's
    /// last read output is done with: Biomes' index is gone while its colours wait for the
    /// Planet node.
    #[test]
    fn a_build_drops_each_unread_output_after_its_node() {
        use crate::nodes::NodeKind;
        let mut g = Graph::default();
        let noise = g.add_node(NodeKind::Noise, (0.0, 0.0));
        let biomes = g.add_node(NodeKind::Biomes, (200.0, 0.0));
        let clamp = g.add_node(NodeKind::Clamp, (200.0, 200.0));
        let planet = g.add_node(NodeKind::Planet, (400.0, 0.0));
        use crate::nodes::texture::biomes as b;
        for input in [b::ELEVATION, b::TEMPERATURE, b::PRECIPITATION] {
            g.link(noise, crate::nodes::FIELD_OUT, biomes, input).expect("link");
        }
        g.link(noise, crate::nodes::FIELD_OUT, clamp, crate::nodes::FIELD_IN).expect("link");
        g.link(clamp, crate::nodes::FIELD_OUT, planet, crate::nodes::output::planet::ELEVATION).expect("link");
        g.link(biomes, b::COLOUR, planet, crate::nodes::output::planet::ALBEDO).expect("link");
        let program = crate::eval::compile_for(&g, &[planet]);
        let order: Vec<NodeId> = program.steps.iter().map(|s| s.id).collect();
        let at = |id: NodeId| order.iter().position(|x| *x == id).expect("compiled");
        let last = program.last_reads();
        let after_biomes = program.released_after(at(biomes), &last);
        assert!(after_biomes.contains(&(biomes, 0)) && !after_biomes.contains(&(biomes, 1)), "the unread index goes after Biomes runs: {after_biomes:?}");
        assert!(program.released_after(at(planet), &last).contains(&(biomes, 1)), "the colours go after the Planet node");
        // The run keeps the Planet's inputs; Biomes' index was dropped before the Planet ran.
        let res = Evaluator::new().run(&program, &Request::whole(16).keeping(&[planet]), &AtomicBool::new(false), &Progress::default());
        assert!(res.errors.is_empty(), "{:?}", res.errors);
        assert!(res.input(planet, crate::nodes::output::planet::ALBEDO).is_some());
        assert!(res.output(biomes, 0).is_none());
    }
}
