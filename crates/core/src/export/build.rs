//! A whole build: evaluate what a graph's Export nodes need and write their files. The one code
//! path of `planetgraph build`, the editor's File > Export and the Python package's
//! `Graph.build`.

use super::base::{Control, ExportProgress, Share};
use super::build_error::BuildError;
use super::context::ExportContext;
use super::jobs::jobs_from_result;
use super::manifest::Manifest;
use super::write::write_exports;
use super::{tiled, tiled_build};
use crate::eval::{compile_for, memory, DiskCache, EvalResult, Evaluator, Program, Progress, Request};
use crate::graph::{Graph, NodeId};
use crate::nodes::output::planet::PlanetSettings;
use crate::nodes::NodeKind;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What a build evaluates: the program compiled for its targets (the Export nodes, or the
/// Planet node where there are none) and the nodes whose values it keeps (the targets and the
/// Planet node).
struct Compiled {
    program: Program,
    targets: Vec<NodeId>,
    keep: Vec<NodeId>,
    /// The node cache on disk the build reads and writes (`build --cache`), if any.
    cache: Option<Arc<DiskCache>>,
}

/// What a build of `g` evaluates for: its Export and Splat map nodes, or where it has none its
/// Planet node (its default set); empty when it has neither.
pub fn build_targets(g: &Graph) -> Vec<NodeId> {
    let targets: Vec<NodeId> = g.nodes.iter().filter(|x| x.kind.writes_files()).map(|x| x.id).collect();
    if targets.is_empty() {
        return g.first_of(NodeKind::Planet).map(|p| p.id).into_iter().collect();
    }
    targets
}

impl Compiled {
    fn of(g: &Graph, path: &Path) -> Result<Compiled, BuildError> {
        let targets = build_targets(g);
        if targets.is_empty() {
            return Err(BuildError::graph(path.display(), "the graph has neither Export nodes nor a Planet node"));
        }
        // Two Export nodes must not write one file: each would overwrite the other's.
        let clashes = super::names::clash_messages(g);
        if !clashes.is_empty() {
            return Err(BuildError::graph(path.display(), clashes.join("; ")));
        }
        let mut keep = targets.clone();
        keep.extend(g.first_of(NodeKind::Planet).map(|p| p.id));
        Ok(Compiled { program: compile_for(g, &targets), targets, keep, cache: None })
    }
}

/// Evaluates what the graph's Export nodes need (the Planet node where there are none) at
/// resolution `n`: the result, or an error naming the first node that failed. `path` is the
/// graph's file, for messages.
pub fn evaluate_exports(g: &Graph, path: &Path, n: usize, cancel: &AtomicBool, progress: &Progress) -> Result<EvalResult, BuildError> {
    let c = Compiled::of(g, path)?;
    memory::check_fits(n, &c.program).map_err(|e| BuildError::graph(path.display(), e))?;
    evaluate(g, path, &c, n, cancel, progress)
}

/// Runs the compiled build whole at `n`, dropping each output once read.
fn evaluate(g: &Graph, path: &Path, c: &Compiled, n: usize, cancel: &AtomicBool, progress: &Progress) -> Result<EvalResult, BuildError> {
    let file = path.display();
    let (program, targets) = (&c.program, &c.targets);
    let res = Evaluator::new().with_disk_cache(c.cache.clone()).run(program, &Request::whole(n).keeping(&c.keep), cancel, progress);
    if res.cancelled {
        return Err(BuildError::Cancelled { file: file.to_string() });
    }
    let idle = res.idle.iter().filter(|(id, _)| targets.contains(id));
    // The targets' own errors and those found while running, and the errors upstream that the
    // targets wait for (a file an Import raster node cannot read), which say what to fix.
    let upstream = upstream_of(g, targets);
    let failed: Vec<(&NodeId, &String)> = res.errors.iter().filter(|(id, m)| targets.contains(id) || !program.errors.contains_key(id) || (upstream.contains(id) && !m.starts_with("waiting for "))).chain(idle).collect();
    if !failed.is_empty() {
        return Err(BuildError::of_nodes(g, failed, &res.internal, &file.to_string()));
    }
    Ok(res)
}

/// The nodes that `targets` read from, directly or not (the targets too).
fn upstream_of(g: &Graph, targets: &[NodeId]) -> std::collections::BTreeSet<NodeId> {
    let mut from: std::collections::HashMap<NodeId, Vec<NodeId>> = std::collections::HashMap::new();
    for l in &g.links {
        from.entry(l.to).or_default().push(l.from);
    }
    let mut seen: std::collections::BTreeSet<NodeId> = std::collections::BTreeSet::new();
    let mut stack: Vec<NodeId> = targets.to_vec();
    while let Some(id) = stack.pop() {
        if seen.insert(id) {
            stack.extend(from.get(&id).into_iter().flatten());
        }
    }
    seen
}

/// Evaluates `g` (from the file `path`) at resolution `n` and writes its exports into `out`
/// (with `share`, that share of them), counting progress in `eval` and `export`.
///
/// A build whose estimated memory exceeds `budget` bytes (or 90 % of the memory available;
/// a share plans with `budget` alone, so that all shares of a build plan alike) is tiled ([`super::tiled`]): the whole-planet nodes run at the finest level that fits, and
/// the files are written from tiles evaluated as they are read. A budget too small even for
/// that is an error before any work. With `cache`, node results are read from and written to
/// that node cache on disk (the files' bytes are the same either way).
// One argument per thing a build needs; a struct would only rename them.
#[allow(clippy::too_many_arguments)]
pub fn export_graph(g: &Graph, path: &Path, out: &Path, n: usize, share: Option<Share>, budget: u64, cache: Option<Arc<DiskCache>>, cancel: &AtomicBool, eval: &Progress, export: &ExportProgress) -> Result<Manifest, BuildError> {
    let c = Compiled { cache, ..Compiled::of(g, path)? };
    // A share plans with the budget alone, not this machine's free memory: every share of a
    // build, on whatever machine, must make the same plan (merge checks it).
    let budget = if share.is_some() { budget } else { tiled::within_memory(budget) };
    let plan = tiled::plan(n, &c.program, budget).map_err(|e| BuildError::graph(path.display(), e))?;
    write_build(g, path, out, n, share, plan, &c, cancel, eval, export)
}

/// [`export_graph`] with the plan decided: `None` evaluates the whole planet at `n`, a
/// [`tiled::TilePlan`] (at `n`) builds by tiles.
#[allow(clippy::too_many_arguments)]
pub fn export_graph_planned(g: &Graph, path: &Path, out: &Path, n: usize, share: Option<Share>, plan: Option<tiled::TilePlan>, cancel: &AtomicBool, eval: &Progress, export: &ExportProgress) -> Result<Manifest, BuildError> {
    if let Some(p) = plan.filter(|p| p.n != n || !n.is_multiple_of(p.tile) || p.cap > n) {
        return Err(BuildError::graph(path.display(), format!("the tile plan {p:?} does not fit a build at {n} cells per face edge")));
    }
    write_build(g, path, out, n, share, plan, &Compiled::of(g, path)?, cancel, eval, export)
}

/// Evaluates the compiled build (whole, or by tiles under `plan`) and writes its files.
#[allow(clippy::too_many_arguments)]
fn write_build(g: &Graph, path: &Path, out: &Path, n: usize, share: Option<Share>, plan: Option<tiled::TilePlan>, c: &Compiled, cancel: &AtomicBool, eval: &Progress, export: &ExportProgress) -> Result<Manifest, BuildError> {
    let file = path.display();
    let planet = g.first_of(NodeKind::Planet).map(|p| p.settings::<PlanetSettings>().map_err(|e| BuildError::of_nodes(g, [(&p.id, &e.to_string())], &Default::default(), &file.to_string()))).transpose()?;
    let (jobs, timings, own_levels) = match plan {
        None => {
            let res = evaluate(g, path, c, n, cancel, eval)?;
            (jobs_from_result(g, &res).map_err(|e| BuildError::graph(&file, e))?, res.timings_by_name(g), BTreeMap::new())
        }
        Some(plan) => {
            let built = tiled_build::start(g, path, &c.program, &c.targets, plan, c.cache.clone(), cancel, eval)?;
            (built.jobs, built.timings_ms, built.own_levels)
        }
    };
    // Only a share records the graph's identity (merge compares them).
    let graph_sha256 = match share {
        Some(_) => evaluated_sha256(g, &c.program).map_err(|e| BuildError::graph(&file, format!("the graph cannot be written as RON for its identity: {e}")))?,
        None => String::new(),
    };
    let ctx = ExportContext { graph: file.to_string(), graph_sha256, resolution: n, planet, timings_ms: timings, share, tiled: plan, own_levels };
    Ok(write_exports(out, &jobs, &ctx, &Control { cancel, progress: export })?)
}

/// SHA-256 (hex) of what a build of `g` evaluates: its nodes (kinds, settings, names, bypass)
/// and links in order, as RON, and the content of the files the steps of its compiled
/// `program` read (Import raster, hashed when the program was compiled: shares built from
/// different files are different builds); the editor's layout, frames, reroutes and groups,
/// which change no value, are left out.
fn evaluated_sha256(g: &Graph, program: &Program) -> Result<String, ron::Error> {
    let mut content = Graph { nodes: g.nodes.clone(), links: g.links.clone(), ..Graph::default() };
    content.nodes.sort_by_key(|x| x.id);
    content.links.sort();
    for node in &mut content.nodes {
        node.collapsed = false;
    }
    let mut text = crate::io::graph_file::to_ron_string(&content)?;
    for step in &program.steps {
        if let Some(hash) = &step.content {
            text.push_str(&format!("\nfiles of {}: {}", step.id, super::share::sha256_hex(hash)));
        }
    }
    Ok(super::share::sha256_hex(text.as_bytes()))
}
