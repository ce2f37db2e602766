//! The tiled path of a build ([`super::tiled`]): the whole-planet run at the plan's cap, the
//! store of tiles, and the jobs that read it.

use super::base::ExportError;
use super::build_error::BuildError;
use super::job::ExportJob;
use super::jobs::{default_set, export_node_job, splat_tiled_job, DefaultLayer};
use super::mesh::TiledMesh;
use super::source::TiledSource;
use super::tiled::{TilePlan, TileStore, TileValue};
use crate::eval::{frontier, localities, whole_levels, whole_part, EvalResult, Evaluator, Program, Progress, Request};
use crate::graph::{Graph, NodeId};
use crate::nodes::output::export::{self as export_node, ExportLayer, ExportSettings};
use crate::nodes::output::planet::{self as planet_node, PlanetSettings};
use crate::nodes::output::splat_map as splat_node;
use crate::nodes::NodeKind;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A tiled build ready to write: its jobs (reading the store) and the whole-planet run's
/// timings by node name.
pub struct TiledBuild {
    /// One per Export node, or the Planet node's default set.
    pub jobs: Vec<ExportJob>,
    /// The store the jobs read.
    pub store: Arc<TileStore>,
    /// Milliseconds per node of the whole-planet run (`Kind #id`).
    pub timings_ms: BTreeMap<String, f64>,
    /// The whole-planet nodes that ran below `plan.cap`, at a level of their own (`Kind #id`).
    pub own_levels: BTreeMap<String, usize>,
}

/// Runs the whole part of `program` (compiled for `targets`, the Export nodes or the Planet
/// node) at `plan.cap` (a node with a level of its own that feeds only the tiles at that
/// level, [`whole_levels`]), keeping what the tiles read, and makes the jobs. `path` is the
/// graph's file, for messages.
#[allow(clippy::too_many_arguments)]
pub fn start(g: &Graph, path: &Path, program: &Program, targets: &[NodeId], plan: TilePlan, cache: Option<std::sync::Arc<crate::eval::DiskCache>>, cancel: &AtomicBool, progress: &Progress) -> Result<TiledBuild, BuildError> {
    let file = path.display();
    // What cannot run whatever the tiles: a target's own error or missing input.
    let blocked: Vec<(&NodeId, &String)> = program.errors.iter().chain(&program.idle).filter(|(id, _)| targets.contains(id)).collect();
    if !blocked.is_empty() {
        return Err(BuildError::of_nodes(g, blocked, &Default::default(), &file.to_string()));
    }
    let local = localities(program);
    let whole = whole_part(program, &local);
    let kept = frontier(program, &local);
    let levels = whole_levels(&whole, plan.n, plan.cap);
    let own_levels: BTreeMap<String, usize> = levels.iter().filter(|(_, l)| **l < plan.cap).map(|(id, l)| (g.describe_node(*id), *l)).collect();
    let whole_res = if whole.steps.is_empty() { EvalResult::default() } else { Evaluator::new().with_disk_cache(cache).run(&whole, &Request::whole(plan.cap).at_levels(&levels).keeping(&kept), cancel, progress) };
    if whole_res.cancelled {
        return Err(BuildError::Cancelled { file: file.to_string() });
    }
    let failed: Vec<(&NodeId, &String)> = whole_res.errors.iter().filter(|(id, _)| !program.errors.contains_key(id)).collect();
    if !failed.is_empty() {
        return Err(BuildError::of_nodes(g, failed, &whole_res.internal, &file.to_string()));
    }
    let timings_ms = whole_res.timings_by_name(g);
    let labels: HashMap<NodeId, String> = program.steps.iter().map(|s| (s.id, g.describe_node(s.id))).collect();
    let invalid = |e: ExportError| BuildError::graph(&file, e);
    // The Export and Splat map nodes, in the graph's order (as a whole build writes them).
    let writers: Vec<_> = g.nodes.iter().filter(|n| n.kind.writes_files() && targets.contains(&n.id)).collect();
    if writers.is_empty() {
        let planet = g.first_of(NodeKind::Planet).ok_or_else(|| BuildError::graph(&file, "the graph has neither Export nodes nor a Planet node"))?;
        let settings: PlanetSettings = planet.settings().map_err(|e| BuildError::of_nodes(g, [(&planet.id, &e.to_string())], &Default::default(), &file.to_string()))?;
        let albedo = step_input(program, planet.id, planet_node::ALBEDO.index());
        // The store's values in the order of `DefaultLayer`.
        let mut values = vec![TileValue::Output(planet.id), TileValue::Tint { of: 0, depth_m: settings.max_depth_m, height_m: settings.max_elevation_m }];
        if albedo {
            values.push(TileValue::Input { node: planet.id, port: planet_node::ALBEDO.index() });
        }
        let store = Arc::new(TileStore::new(plan, program, whole_res, values, labels));
        let jobs = default_set(&planet.describe(), albedo)
            .into_iter()
            .map(|(layer, mut job)| {
                let value = match layer {
                    DefaultLayer::Elevation => 0,
                    DefaultLayer::Tint => 1,
                    DefaultLayer::Albedo => 2,
                };
                job.tiled = Some(TiledSource { store: store.clone(), value });
                job
            })
            .collect();
        return Ok(TiledBuild { jobs, store, timings_ms, own_levels });
    }
    // Each Export node's input, and after a normal map's field its normals (which need the
    // Planet node's radius; without one the job says so); after a mesh's field its normals
    // and its colour input; each Splat map node's weights.
    let radius_km = g.first_of(NodeKind::Planet).and_then(|p| p.settings::<PlanetSettings>().ok()).map(|p| p.radius_km);
    let mut values = Vec::new();
    let mut reads = Vec::new();
    for node in &writers {
        if node.kind == NodeKind::SplatMap {
            // Each connected weight.
            let mut ports = Vec::new();
            for port in splat_node::WEIGHTS.iter().map(|p| p.index()).filter(|&p| step_input(program, node.id, p)) {
                values.push(TileValue::Input { node: node.id, port });
                ports.push((port, values.len() - 1));
            }
            reads.push(Reads::Splat(ports));
            continue;
        }
        let port = if step_input(program, node.id, export_node::FIELD.index()) { export_node::FIELD.index() } else { export_node::COLOUR.index() };
        values.push(TileValue::Input { node: node.id, port });
        let input = values.len() - 1;
        let settings = node.settings::<ExportSettings>().ok();
        reads.push(match (settings, radius_km) {
            (Some(s), Some(radius_km)) if s.layer == ExportLayer::Normals && port == export_node::FIELD.index() => {
                values.push(TileValue::Normals { of: input, radius_km, relief: s.relief });
                Reads::Export { value: values.len() - 1, mesh: None }
            }
            (Some(s), Some(radius_km)) if s.layer == ExportLayer::Mesh && port == export_node::FIELD.index() => {
                values.push(TileValue::Normals { of: input, radius_km, relief: s.relief });
                let normals = values.len() - 1;
                let colour = step_input(program, node.id, export_node::COLOUR.index()).then(|| {
                    values.push(TileValue::Input { node: node.id, port: export_node::COLOUR.index() });
                    values.len() - 1
                });
                Reads::Export { value: input, mesh: Some((normals, colour)) }
            }
            _ => Reads::Export { value: input, mesh: None },
        });
    }
    let store = Arc::new(TileStore::new(plan, program, whole_res, values, labels));
    let source = |value| TiledSource { store: store.clone(), value };
    let jobs = writers
        .iter()
        .zip(reads)
        .map(|(node, read)| match read {
            Reads::Splat(ports) => splat_tiled_job(g, node, |port| ports.iter().find(|(p, _)| *p == port.index()).map(|&(_, v)| source(v))).map_err(invalid),
            Reads::Export { value, mesh } => {
                let mut job = export_node_job(g, node, None, None, None, Some(source(value))).map_err(invalid)?;
                job.tiled_mesh = mesh.map(|(normals, colour)| TiledMesh { normals: source(normals), colour: colour.map(source) });
                Ok(job)
            }
        })
        .collect::<Result<Vec<_>, BuildError>>()?;
    Ok(TiledBuild { jobs, store, timings_ms, own_levels })
}

/// The store values an Export or Splat map node's job reads.
enum Reads {
    /// An Export node: its input (or the normals of it), and for a mesh its normals and colour.
    Export { value: usize, mesh: Option<(usize, Option<usize>)> },
    /// A Splat map node: each connected weight input's port and value.
    Splat(Vec<(usize, usize)>),
}

/// Whether input `port` of node `id` is connected in `program`.
fn step_input(program: &Program, id: NodeId, port: usize) -> bool {
    program.steps.iter().find(|s| s.id == id).is_some_and(|s| s.inputs.get(port).is_some_and(Option::is_some))
}
