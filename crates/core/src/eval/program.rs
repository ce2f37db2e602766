//! Compiling a graph into a flat program: validation, dependency order, the nodes each sink
//! needs, and which nodes cannot run because of an error upstream.

use crate::graph::{topological_order, validate, Graph, NodeId};
use crate::nodes::output::planet::PlanetSettings;
use crate::nodes::params::Settings;
use crate::nodes::{NodeKind, ParamMap};
use std::collections::{BTreeMap, BTreeSet};

/// One node to run: its kind, parameters and where its inputs come from.
#[derive(Debug, Clone)]
pub struct Step {
    /// The node.
    pub id: NodeId,
    /// Its kind.
    pub kind: NodeKind,
    /// Its parameter values.
    pub params: ParamMap,
    /// For each input port in order: producing node and its output index (`None` for an
    /// optional input that is not connected).
    pub inputs: Vec<Option<(NodeId, usize)>>,
    /// Bypassed: each output passes on the first input of its type.
    pub bypass: bool,
    /// The files the node reads ([`crate::nodes::Node::files`]), resolved against the graph
    /// file's folder; empty for most nodes.
    pub files: Vec<std::path::PathBuf>,
    /// The SHA-256 of those files' contents, in order (part of the node's identity); `None`
    /// for a node that reads no file.
    pub content: Option<crate::raster::store::Hash>,
}

/// A compiled graph: runnable steps in order, and the errors of nodes that cannot run.
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// Steps in dependency order.
    pub steps: Vec<Step>,
    /// Error message per node that cannot run (its own problem or one upstream).
    pub errors: BTreeMap<NodeId, String>,
    /// Nodes that are idle, not wrong: an input is not connected yet (or one upstream is
    /// waiting for one). The hint says which.
    pub idle: BTreeMap<NodeId, String>,
    /// The planet's settings (see [`planet_of`]) that nodes reading them get; `None` when the
    /// Planet node's settings cannot be read (that node shows why).
    pub planet: Option<PlanetSettings>,
}

/// The planet's settings of `g`: those of its Planet node (the first by id, should there be
/// several), or Earth's ([`crate::nodes::output::planet::EARTH`]) in a graph without one.
/// `None` when the Planet node's values cannot be read as its settings.
pub fn planet_of(g: &Graph) -> Option<PlanetSettings> {
    match g.first_of(NodeKind::Planet) {
        Some(node) => PlanetSettings::from_params(&node.params).ok(),
        None => Some(crate::nodes::output::planet::EARTH),
    }
}

impl Program {
    /// For every output port `(node, port)` that some step reads, the index of the last step
    /// that reads it (when a build may drop it).
    pub fn last_reads(&self) -> std::collections::HashMap<(NodeId, usize), usize> {
        let mut last = std::collections::HashMap::new();
        for (i, step) in self.steps.iter().enumerate() {
            for &port in step.inputs.iter().flatten() {
                last.insert(port, i);
            }
        }
        last
    }

    /// The output ports that step `i` reads for the last time (per `last`, from
    /// [`Self::last_reads`]) and the ports of step `i`'s own node that no step reads, each once,
    /// in order: what a build may drop after step `i`.
    pub fn released_after(&self, i: usize, last: &std::collections::HashMap<(NodeId, usize), usize>) -> Vec<(NodeId, usize)> {
        let Some(step) = self.steps.get(i) else { return Vec::new() };
        let mut out: Vec<(NodeId, usize)> = step.inputs.iter().flatten().copied().filter(|port| last.get(port) == Some(&i)).collect();
        out.extend((0..step.kind.meta().outputs.len()).map(|k| (step.id, k)).filter(|port| !last.contains_key(port)));
        out.sort();
        out.dedup();
        out
    }

    /// The steps the nodes `ids` depend on, themselves included, in order; the rest of the
    /// program (errors, planet settings) as it is.
    pub fn upstream(&self, ids: impl IntoIterator<Item = NodeId>) -> Program {
        let mut needed: BTreeSet<NodeId> = ids.into_iter().collect();
        for step in self.steps.iter().rev() {
            if needed.contains(&step.id) {
                needed.extend(step.inputs.iter().flatten().map(|(src, _)| *src));
            }
        }
        Program { steps: self.steps.iter().filter(|s| needed.contains(&s.id)).cloned().collect(), ..self.clone() }
    }

    /// Whether nothing is wrong anywhere in the graph.
    pub fn is_clean(&self) -> bool {
        self.errors.is_empty() && self.idle.is_empty()
    }
}

/// Compiles `g`. Nodes with errors and everything downstream of them are left out (with a
/// message); so are nodes no Preview or Planet node needs. The rest still runs.
pub fn compile(g: &Graph) -> Program {
    compile_with(g, &[])
}

/// Like [`compile`], and also runs the nodes in `extra` (a node shown in the viewport).
pub fn compile_with(g: &Graph, extra: &[NodeId]) -> Program {
    let mut targets: Vec<NodeId> = g.nodes.iter().filter(|n| n.kind.meta().category.is_sink()).map(|n| n.id).collect();
    targets.extend(extra.iter().filter(|id| g.node(**id).is_some()));
    compile_for(g, &targets)
}

/// Like [`compile`], but runs only what the nodes in `targets` need (each whole: what it
/// shows too).
pub fn compile_for(g: &Graph, targets: &[NodeId]) -> Program {
    compile_outputs(g, targets, &[])
}

/// Like [`compile_for`] for the nodes `shown` (each whole: what it shows too, as a sink) and
/// the nodes `outputs`, which are needed only for their outputs: an input that only its node
/// shows ([`crate::nodes::NodeMeta::shown_only_inputs`], the Planet node's albedo) is then left
/// out with what feeds it.
pub fn compile_outputs(g: &Graph, shown: &[NodeId], outputs: &[NodeId]) -> Program {
    let mut errors: BTreeMap<NodeId, String> = BTreeMap::new();
    let mut idle: BTreeMap<NodeId, String> = BTreeMap::new();
    for e in validate(g) {
        let id = e.node.unwrap_or(NodeId(0));
        if let Some(port) = e.missing_input {
            // One required input, or one of several optional ones (the message lists them).
            let what = if e.message.starts_with("input '") { format!("input '{port}'") } else { e.message.replace("none of its inputs (", "one of its inputs (").replace(") is connected", ")") };
            idle.entry(id).and_modify(|m| m.push_str(&format!(", {what}"))).or_insert(format!("needs {what}"));
            continue;
        }
        errors
            .entry(id)
            .and_modify(|m| {
                m.push_str("; ");
                m.push_str(&e.message);
            })
            .or_insert(e.message);
    }
    // The files nodes read: resolved against the graph file's folder and probed (the header
    // checked, the content hashed, remembered while the file is unchanged); a file that cannot
    // be read is an error on its node, in `check` as in `build`.
    let mut files: std::collections::HashMap<NodeId, (Vec<std::path::PathBuf>, crate::raster::store::Hash)> = std::collections::HashMap::new();
    for node in g.nodes.iter().filter(|n| n.kind.meta().reads_files) {
        if errors.contains_key(&node.id) {
            continue;
        }
        let wanted = node.kind.files(&node.params);
        if wanted.is_empty() {
            idle.remove(&node.id);
            errors.insert(node.id, crate::raster::NO_FILE.to_string());
            continue;
        }
        match crate::raster::store::probe_all(g.folder.as_deref(), &wanted) {
            Ok(found) => {
                files.insert(node.id, found);
            }
            Err(e) => {
                idle.remove(&node.id);
                errors.insert(node.id, e.to_string());
            }
        }
    }
    let order = topological_order(g);
    // Indexes, so that compiling stays linear in nodes and links.
    let by_id: std::collections::HashMap<NodeId, &crate::graph::Node> = g.nodes.iter().map(|n| (n.id, n)).collect();
    let mut incoming: std::collections::HashMap<NodeId, Vec<&crate::graph::Link>> = std::collections::HashMap::new();
    for l in &g.links {
        incoming.entry(l.to).or_default().push(l);
    }
    let links_to = |id: NodeId| incoming.get(&id).map_or(&[][..], Vec::as_slice);
    // A node with an error is not idle.
    idle.retain(|id, _| !errors.contains_key(id));
    // Propagate "upstream error" and "upstream idle" in order (an error wins).
    for &id in &order {
        if errors.contains_key(&id) {
            continue;
        }
        let label = |n: NodeId| by_id.get(&n).map(|n| n.describe()).unwrap_or_else(|| n.to_string());
        if let Some(bad) = links_to(id).iter().map(|l| l.from).find(|f| errors.contains_key(f)) {
            errors.insert(id, format!("waiting for {}, which has an error", label(bad)));
            idle.remove(&id);
        } else if !idle.contains_key(&id) {
            if let Some(waiting) = links_to(id).iter().map(|l| l.from).find(|f| idle.contains_key(f)) {
                // Name the node that actually lacks an input, however far upstream it is.
                let why = match idle.get(&waiting) {
                    Some(m) if m.starts_with("waiting for ") => m.clone(),
                    Some(m) => format!("waiting for {}, which {m}", label(waiting)),
                    None => format!("waiting for {}", label(waiting)),
                };
                idle.insert(id, why);
            }
        }
    }
    // Nodes needed by the targets. A node needed only for its outputs does not need what
    // feeds the inputs only it shows (the Planet node's albedo, when an Export reads its
    // elevation).
    let target_set: BTreeSet<NodeId> = shown.iter().copied().collect();
    let shown_only = |id: NodeId, input: &str| !target_set.contains(&id) && by_id.get(&id).is_some_and(|n| n.kind.meta().shown_only_inputs.contains(&input));
    let mut needed = BTreeSet::new();
    let mut stack: Vec<NodeId> = shown.iter().chain(outputs).copied().collect();
    while let Some(id) = stack.pop() {
        if needed.insert(id) {
            stack.extend(links_to(id).iter().filter(|l| !shown_only(id, &l.input)).map(|l| l.from));
        }
    }
    let mut steps = Vec::new();
    for id in order {
        if errors.contains_key(&id) || idle.contains_key(&id) || !needed.contains(&id) {
            continue;
        }
        let Some(node) = by_id.get(&id).copied() else { continue };
        let meta = node.kind.meta();
        // Validation has checked every link; should a port still be missing, the node gets an
        // error instead of running with a wrong input.
        let mut inputs = Vec::new();
        let mut broken = None;
        for port in meta.inputs {
            let Some(link) = links_to(id).iter().find(|l| l.input == port.name && !shown_only(id, &l.input)) else {
                if port.optional {
                    inputs.push(None);
                } else {
                    broken = Some(port.name);
                }
                continue;
            };
            match by_id.get(&link.from).and_then(|src| src.kind.meta().outputs.iter().position(|o| o.name == link.output)) {
                Some(idx) => inputs.push(Some((link.from, idx))),
                None => broken = Some(port.name),
            }
        }
        if let Some(port) = broken {
            errors.insert(id, format!("input '{port}' has no valid source"));
            continue;
        }
        let (paths, content) = files.remove(&id).map_or((Vec::new(), None), |(p, h)| (p, Some(h)));
        steps.push(Step { id, kind: node.kind, params: node.params.clone(), inputs, bypass: node.bypass && !meta.category.is_sink(), files: paths, content });
    }
    Program { steps, errors, idle, planet: planet_of(g) }
}
