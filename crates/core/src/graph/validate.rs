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
    let linked: std::collections::HashSet<(NodeId, &str)> = g.links.iter().map(|l| (l.to, l.input.as_str())).collect();
    for n in &g.nodes {
        if !ids.insert(n.id) {
            errors.push(err(g, Some(n.id), format!("the id {} is used by more than one node", n.id)));
        }
        let mut params_ok = true;
        for (name, value) in &n.params {
            match n.kind.param(name) {
                None => {
                    params_ok = false;
                    errors.push(err(g, Some(n.id), format!("unknown parameter '{name}' (known: {})", n.kind.params().iter().map(|p| p.name).collect::<Vec<_>>().join(", "))));
                }
                Some(def) => {
                    if let Err(m) = def.check(value) {
                        params_ok = false;
                        errors.push(err(g, Some(n.id), m));
                    }
                }
            }
        }
        // The node's own checks (a formula, an export's options), on values that passed the
        // parameter checks: `check`, `build` and the editor refuse the same graphs.
        if params_ok {
            let connected: Vec<bool> = n.kind.meta().inputs.iter().map(|p| linked.contains(&(n.id, p.name))).collect();
            if let Err(m) = n.kind.check(&n.params, &connected) {
                errors.push(err(g, Some(n.id), m));
            }
        }
    }
    let mut fed: BTreeMap<(NodeId, &str), usize> = BTreeMap::new();
    let by_id: std::collections::HashMap<NodeId, &super::Node> = g.nodes.iter().map(|n| (n.id, n)).collect();
    for l in &g.links {
        let (Some(from), Some(to)) = (by_id.get(&l.from).copied(), by_id.get(&l.to).copied()) else {
            let missing = if !by_id.contains_key(&l.from) { l.from } else { l.to };
            errors.push(err(g, by_id.get(&l.to).map(|n| n.id), format!("link {}.{} -> {}.{} refers to node {missing}, which does not exist", l.from, l.output, l.to, l.input)));
            continue;
        };
        let out = from.kind.meta().outputs.iter().find(|p| p.name == l.output);
        let inp = to.kind.meta().inputs.iter().find(|p| p.name == l.input);
        match (out, inp) {
            (None, _) => errors.push(err(g, Some(from.id), format!("has no output port '{}'", l.output))),
            (_, None) => errors.push(err(g, Some(to.id), format!("has no input port '{}'", l.input))),
            (Some(o), Some(i)) if o.ty != i.ty => errors.push(err(g, Some(to.id), format!("input '{}' takes a {} but {} output '{}' gives a {}", i.name, i.ty.name(), from.describe(), o.name, o.ty.name()))),
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
    // Rules between nodes that no resolution changes, so that `check` refuses what `build`
    // would: plates against the regions they grow over.
    for l in g.links.iter().filter(|l| l.input == "regions") {
        let (Some(to), Some(from)) = (by_id.get(&l.to), by_id.get(&l.from)) else { continue };
        if to.kind != crate::nodes::NodeKind::TectonicPlates || from.kind != crate::nodes::NodeKind::Regions {
            continue;
        }
        if let (Ok(p), Ok(r)) = (to.settings(), from.settings()) {
            if let Err(m) = crate::nodes::tectonics::plates::check_against_regions(&p, &r) {
                errors.push(err(g, Some(to.id), m));
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

/// Nodes that lie on a cycle (empty if the graph is acyclic): the members of strongly
/// connected components of more than one node, and nodes linked to themselves. Linear in
/// nodes and links (Kosaraju's two depth-first passes, without recursion).
pub fn find_cycle(g: &Graph) -> Vec<NodeId> {
    let (ids, out, inn) = adjacency(g);
    let n = ids.len();
    // First pass: nodes in order of finishing on the forward links.
    let mut seen = vec![false; n];
    let mut finished = Vec::with_capacity(n);
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![(start, 0usize)];
        while let Some((v, k)) = stack.pop() {
            if let Some(&w) = out[v].get(k) {
                stack.push((v, k + 1));
                if !seen[w] {
                    seen[w] = true;
                    stack.push((w, 0));
                }
            } else {
                finished.push(v);
            }
        }
    }
    // Second pass, on the reversed links in reverse finishing order: one component per tree.
    let mut component = vec![usize::MAX; n];
    let mut sizes = Vec::new();
    for &root in finished.iter().rev() {
        if component[root] != usize::MAX {
            continue;
        }
        let c = sizes.len();
        sizes.push(0usize);
        component[root] = c;
        let mut stack = vec![root];
        while let Some(v) = stack.pop() {
            sizes[c] += 1;
            for &w in &inn[v] {
                if component[w] == usize::MAX {
                    component[w] = c;
                    stack.push(w);
                }
            }
        }
    }
    (0..n).filter(|&v| sizes[component[v]] > 1 || out[v].contains(&v)).map(|v| ids[v]).collect()
}

/// The graph's node ids (sorted) and, per node index, the indices its links lead to and come
/// from (links to or from missing nodes are left out).
fn adjacency(g: &Graph) -> (Vec<NodeId>, Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let ids: Vec<NodeId> = g.nodes.iter().map(|n| n.id).collect::<BTreeSet<_>>().into_iter().collect();
    let index: std::collections::HashMap<NodeId, usize> = ids.iter().enumerate().map(|(k, id)| (*id, k)).collect();
    let mut out = vec![Vec::new(); ids.len()];
    let mut inn = vec![Vec::new(); ids.len()];
    for l in &g.links {
        if let (Some(&a), Some(&b)) = (index.get(&l.from), index.get(&l.to)) {
            out[a].push(b);
            inn[b].push(a);
        }
    }
    (ids, out, inn)
}

/// Node ids in dependency order (producers first, ties by id); nodes on cycles are left out.
/// Linear in links, times the logarithm of the nodes.
pub fn topological_order(g: &Graph) -> Vec<NodeId> {
    let (ids, out, inn) = adjacency(g);
    let mut indeg: Vec<usize> = inn.iter().map(Vec::len).collect();
    // Node indices follow the sorted ids, so the smallest ready index is the smallest id.
    let mut ready: BTreeSet<usize> = (0..ids.len()).filter(|&v| indeg[v] == 0).collect();
    let mut order = Vec::with_capacity(ids.len());
    while let Some(v) = ready.pop_first() {
        order.push(ids[v]);
        for &w in &out[v] {
            indeg[w] -= 1;
            if indeg[w] == 0 {
                ready.insert(w);
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
        g.link(a, crate::nodes::FIELD_OUT, b, crate::nodes::FIELD_IN).expect("link");
        g.link(b, crate::nodes::FIELD_OUT, c, crate::nodes::output::planet::ELEVATION).expect("link");
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
        g.link(x, crate::nodes::FIELD_OUT, y, crate::nodes::FIELD_IN).expect("link");
        g.link(y, crate::nodes::FIELD_OUT, x, crate::nodes::FIELD_IN).expect("link");
        g.link(y, crate::nodes::FIELD_OUT, z, crate::nodes::FIELD_IN).expect("link");
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
        g.link(n, crate::nodes::FIELD_OUT, gr, crate::nodes::FIELD_IN).expect("link");
        // Gradient's "out" is a vector: a typed link refuses it, so the mismatch comes by name,
        // as it would from a file.
        assert!(g.link(gr, crate::nodes::FIELD_OUT, p, crate::nodes::FIELD_IN).is_err());
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

    /// A ring of 5 000 nodes (issue 26: 40 s to check before the linear cycle search): every
    /// node is on the cycle, and a node hanging off the ring is not.
    #[test]
    fn a_long_ring_is_one_cycle_and_what_hangs_off_it_is_not() {
        let mut g = Graph::default();
        let ids: Vec<NodeId> = (0..5000).map(|k| g.add_node(NodeKind::Abs, (k as f32, 0.0))).collect();
        for k in 0..ids.len() {
            g.link(ids[k], crate::nodes::FIELD_OUT, ids[(k + 1) % ids.len()], crate::nodes::FIELD_IN).expect("link");
        }
        let tail = g.add_node(NodeKind::Invert, (0.0, 100.0));
        g.link(ids[17], crate::nodes::FIELD_OUT, tail, crate::nodes::FIELD_IN).expect("link");
        let on = find_cycle(&g);
        assert_eq!(on.len(), 5000);
        assert!(!on.contains(&tail));
        assert!(topological_order(&g).is_empty(), "nothing on the ring or after it can be ordered");
        let errs = validate(&g);
        assert_eq!(errs.iter().filter(|e| e.message.contains("cycle")).count(), 5000);
    }
}
