//! Graph validation: unknown ids, dangling links, unknown ports, type mismatches, duplicate
//! links, cycles, parameter types and ranges, missing inputs. Every error names its node.

use super::model::{Graph, NodeId};
use std::collections::{BTreeMap, BTreeSet};
use thiserror::Error;

/// One problem found in a graph.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("{node_label}: {message}")]
pub struct GraphError {
    /// The node the problem belongs to (`None` for graph-wide problems).
    pub node: Option<NodeId>,
    /// `Kind #id` of that node, or "graph".
    pub node_label: String,
    /// What is wrong.
    pub message: String,
    /// The required input that is not connected, when that is the problem (work in progress
    /// the editor shows as idle, not as an error).
    pub missing_input: Option<&'static str>,
}

fn err(g: &Graph, node: Option<NodeId>, message: String) -> GraphError {
    let node_label = match node.and_then(|id| g.node(id)) {
        Some(n) => n.describe(),
        None => match node {
            Some(id) => format!("node {id}"),
            None => "graph".to_string(),
        },
    };
    GraphError { node, node_label, message, missing_input: None }
}

/// Checks the whole graph. Returns every problem found, sorted by node id (empty = valid).
pub fn validate(g: &Graph) -> Vec<GraphError> {
    let mut errors = Vec::new();
    let mut ids = BTreeSet::new();
    for n in &g.nodes {
        if !ids.insert(n.id) {
            errors.push(err(g, Some(n.id), format!("the id {} is used by more than one node", n.id)));
        }
        for (name, value) in &n.params {
            match n.kind.param(name) {
                None => errors.push(err(g, Some(n.id), format!("unknown parameter '{name}' (known: {})", n.kind.params().iter().map(|p| p.name).collect::<Vec<_>>().join(", ")))),
                Some(def) => {
                    if let Err(m) = def.check(value) {
                        errors.push(err(g, Some(n.id), m));
                    }
                }
            }
        }
    }
    let mut fed: BTreeMap<(NodeId, &str), usize> = BTreeMap::new();
    for l in &g.links {
        let (Some(from), Some(to)) = (g.node(l.from), g.node(l.to)) else {
            let missing = if g.node(l.from).is_none() { l.from } else { l.to };
            errors.push(err(g, g.node(l.to).map(|n| n.id), format!("link {}.{} -> {}.{} refers to node {missing}, which does not exist", l.from, l.output, l.to, l.input)));
            continue;
        };
        let out = from.kind.meta().outputs.iter().find(|p| p.name == l.output);
        let inp = to.kind.meta().inputs.iter().find(|p| p.name == l.input);
        match (out, inp) {
            (None, _) => errors.push(err(g, Some(from.id), format!("has no output port '{}'", l.output))),
            (_, None) => errors.push(err(g, Some(to.id), format!("has no input port '{}'", l.input))),
            (Some(o), Some(i)) if o.ty != i.ty => errors.push(err(
                g,
                Some(to.id),
                format!("input '{}' takes a {} but {} output '{}' gives a {}", i.name, i.ty.name(), from.describe(), o.name, o.ty.name()),
            )),
            _ => {}
        }
        *fed.entry((l.to, l.input.as_str())).or_default() += 1;
    }
    for ((to, input), count) in &fed {
        if *count > 1 {
            errors.push(err(g, Some(*to), format!("input '{input}' has {count} links; an input takes one")));
        }
    }
    for n in &g.nodes {
        let meta = n.kind.meta();
        for p in meta.inputs.iter().filter(|p| !p.optional) {
            if !fed.contains_key(&(n.id, p.name)) {
                errors.push(GraphError { missing_input: Some(p.name), ..err(g, Some(n.id), format!("input '{}' is not connected", p.name)) });
            }
        }
        if meta.needs_one_input && !meta.inputs.iter().any(|p| fed.contains_key(&(n.id, p.name))) {
            if let Some(first) = meta.inputs.first() {
                let names: Vec<String> = meta.inputs.iter().map(|p| format!("'{}'", p.name)).collect();
                errors.push(GraphError { missing_input: Some(first.name), ..err(g, Some(n.id), format!("none of its inputs ({}) is connected", names.join(" or "))) });
            }
        }
    }
    for id in find_cycle(g) {
        errors.push(err(g, Some(id), "is part of a cycle: a node cannot depend on its own output".to_string()));
    }
    errors.extend(super::group::check_groups(g));
    errors.sort_by_key(|e| e.node);
    errors
}

/// Nodes that lie on a cycle (empty if the graph is acyclic).
pub fn find_cycle(g: &Graph) -> Vec<NodeId> {
    // Kahn's algorithm: whatever cannot be ordered lies on or downstream of a cycle; keep those
    // that can reach themselves.
    let order = topological_order(g);
    let ordered: BTreeSet<NodeId> = order.iter().copied().collect();
    let rest: Vec<NodeId> = g.nodes.iter().map(|n| n.id).filter(|id| !ordered.contains(id)).collect();
    rest.into_iter().filter(|&id| reaches(g, id, id)).collect()
}

fn reaches(g: &Graph, from: NodeId, target: NodeId) -> bool {
    let mut stack = vec![from];
    let mut seen = BTreeSet::new();
    while let Some(cur) = stack.pop() {
        for l in g.links.iter().filter(|l| l.from == cur) {
            if l.to == target {
                return true;
            }
            if seen.insert(l.to) {
                stack.push(l.to);
            }
        }
    }
    false
}

/// Node ids in dependency order (producers first, ties by id); nodes on cycles are left out.
pub fn topological_order(g: &Graph) -> Vec<NodeId> {
    let ids: BTreeSet<NodeId> = g.nodes.iter().map(|n| n.id).collect();
    let mut indeg: BTreeMap<NodeId, usize> = ids.iter().map(|&id| (id, 0)).collect();
    for l in &g.links {
        if ids.contains(&l.from) && ids.contains(&l.to) {
            *indeg.entry(l.to).or_default() += 1;
        }
    }
    let mut ready: BTreeSet<NodeId> = indeg.iter().filter(|(_, &d)| d == 0).map(|(&id, _)| id).collect();
    let mut order = Vec::new();
    while let Some(&id) = ready.iter().next() {
        ready.remove(&id);
        order.push(id);
        for l in g.links.iter().filter(|l| l.from == id && ids.contains(&l.to)) {
            if let Some(d) = indeg.get_mut(&l.to) {
                *d -= 1;
                if *d == 0 {
                    ready.insert(l.to);
                }
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::{NodeKind, ParamValue};

    fn chain() -> (Graph, NodeId, NodeId, NodeId) {
        let mut g = Graph::default();
        let a = g.add_node(NodeKind::Noise, (0.0, 0.0));
        let b = g.add_node(NodeKind::Abs, (0.0, 0.0));
        let c = g.add_node(NodeKind::Planet, (0.0, 0.0));
        g.connect(a, "out", b, "in");
        g.connect(b, "out", c, "elevation");
        (g, a, b, c)
    }

    #[test]
    fn a_good_graph_is_valid_and_ordered() {
        let (g, a, b, c) = chain();
        assert!(validate(&g).is_empty(), "{:?}", validate(&g));
        assert_eq!(topological_order(&g), vec![a, b, c]);
    }

    #[test]
    fn cycles_are_found_and_name_their_nodes() {
        let mut g = Graph::default();
        let x = g.add_node(NodeKind::Abs, (0.0, 0.0));
        let y = g.add_node(NodeKind::Invert, (0.0, 0.0));
        let z = g.add_node(NodeKind::Preview, (0.0, 0.0));
        g.connect(x, "out", y, "in");
        g.connect(y, "out", x, "in");
        g.connect(y, "out", z, "in");
        let errs = validate(&g);
        let cyc: Vec<_> = errs.iter().filter(|e| e.message.contains("cycle")).map(|e| e.node).collect();
        assert_eq!(cyc, vec![Some(x), Some(y)]);
        assert!(errs.iter().any(|e| e.to_string().starts_with("Abs #1")));
    }

    #[test]
    fn dangling_links_and_unknown_ports() {
        let (mut g, a, b, _) = chain();
        g.links.push(crate::graph::Link { from: NodeId(99), output: "out".into(), to: b, input: "in".into() });
        g.links.push(crate::graph::Link { from: a, output: "nope".into(), to: NodeId(3), input: "elevation".into() });
        let errs = validate(&g);
        assert!(errs.iter().any(|e| e.message.contains("#99") && e.message.contains("does not exist")));
        assert!(errs.iter().any(|e| e.message.contains("no output port 'nope'")));
        assert!(errs.iter().any(|e| e.message.contains("2 links")));
    }

    #[test]
    fn type_mismatch_is_reported_on_the_consumer() {
        let mut g = Graph::default();
        let n = g.add_node(NodeKind::Noise, (0.0, 0.0));
        let gr = g.add_node(NodeKind::Gradient, (0.0, 0.0));
        let p = g.add_node(NodeKind::Preview, (0.0, 0.0));
        g.connect(n, "out", gr, "in");
        g.connect(gr, "out", p, "in");
        let errs = validate(&g);
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].node, Some(p));
        assert!(errs[0].message.contains("takes a field but Gradient #2 output 'out' gives a vector"));
    }

    #[test]
    fn missing_inputs_and_bad_parameters() {
        let mut g = Graph::default();
        let a = g.add_node(NodeKind::Add, (0.0, 0.0));
        let n = g.add_node(NodeKind::Noise, (0.0, 0.0));
        g.set_param(n, "octaves", ParamValue::Int(40));
        g.set_param(n, "frequency", ParamValue::Bool(true));
        g.set_param(n, "colour", ParamValue::Float(1.0));
        let errs = validate(&g);
        assert!(errs.iter().any(|e| e.node == Some(a) && e.message == "input 'a' is not connected"));
        assert!(errs.iter().any(|e| e.node == Some(n) && e.message.contains("outside 1..12")));
        assert!(errs.iter().any(|e| e.node == Some(n) && e.message.contains("must be Float, found Bool")));
        assert!(errs.iter().any(|e| e.node == Some(n) && e.message.contains("unknown parameter 'colour'")));
    }
}
