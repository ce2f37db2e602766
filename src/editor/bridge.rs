//! The two pure functions between the saved graph and the editor state (tested to round-trip
//! on every file in `graphs/`; reroute points included), and the helpers they share.

use super::types::{EdGraph, EdNode, EdType, EdValue, EditorState};
use crate::graph::{Graph, Link, Node, NodeId as DomainId, Reroute};
use crate::nodes::{NodeKind, ParamMap};
use egui_node_graph2::{InputParamKind, NodeId};
use std::collections::BTreeMap;

/// Adds the ports and parameter inputs of `kind` to an editor node (parameters from `params`
/// or the defaults).
pub fn add_ports(graph: &mut EdGraph, node: NodeId, kind: NodeKind, params: Option<&ParamMap>) {
    let meta = kind.meta();
    for p in meta.inputs {
        graph.add_input_param(node, p.name.to_string(), EdType::Port(p.ty), EdValue(None), InputParamKind::ConnectionOnly, true);
    }
    for d in kind.params() {
        let v = params.and_then(|m| m.get(d.name)).cloned().unwrap_or_else(|| d.default_value());
        graph.add_input_param(node, d.name.to_string(), EdType::Param, EdValue(Some(v)), InputParamKind::ConstantOnly, true);
    }
    for p in meta.outputs {
        graph.add_output_param(node, p.name.to_string(), EdType::Port(p.ty));
    }
}

/// Builds the editor state of a graph (positions from its layout).
pub fn to_editor(g: &Graph) -> EditorState {
    let mut s = EditorState::new(1.0);
    let mut ids: BTreeMap<DomainId, NodeId> = BTreeMap::new();
    let mut nodes: Vec<&Node> = g.nodes.iter().collect();
    nodes.sort_by_key(|n| n.id);
    for n in nodes {
        let kind = n.kind;
        let data = EdNode { id: n.id, kind, label: n.label.clone(), bypass: n.bypass, collapsed: n.collapsed };
        let id = s.graph.add_node(n.title().to_string(), data, |graph, nid| add_ports(graph, nid, kind, Some(&n.params)));
        let (x, y) = g.layout.get(&n.id).copied().unwrap_or((40.0, 40.0 + 60.0 * n.id.0 as f32));
        s.node_positions.insert(id, egui::pos2(x, y));
        s.node_order.push(id);
        ids.insert(n.id, id);
    }
    for l in &g.links {
        let (Some(&from), Some(&to)) = (ids.get(&l.from), ids.get(&l.to)) else { continue };
        let out = s.graph[from].outputs.iter().find(|(name, _)| *name == l.output).map(|(_, id)| *id);
        let inp = s.graph[to].inputs.iter().find(|(name, _)| *name == l.input).map(|(_, id)| *id);
        if let (Some(o), Some(i)) = (out, inp) {
            s.graph.add_connection(o, i, 0);
            if let Some(r) = g.reroutes.iter().find(|r| r.to == l.to && r.input == l.input) {
                s.reroutes.insert((i, o), r.points.iter().map(|&(x, y)| egui::pos2(x, y)).collect());
            }
        }
    }
    s
}

/// Gives editor nodes created from the finder (id 0) a fresh domain id.
pub fn assign_new_ids(s: &mut EditorState) {
    let first = s.graph.nodes.values().map(|n| n.user_data.id.0 + 1).max().unwrap_or(1);
    let fresh: Vec<NodeId> = s.graph.nodes.iter().filter(|(_, n)| n.user_data.id.0 == 0).map(|(id, _)| id).collect();
    for (next, id) in (first..).zip(fresh) {
        s.graph[id].user_data.id = DomainId(next);
    }
}

/// Reads the saved graph back from the editor state (sorted, layout included).
pub fn from_editor(s: &EditorState) -> Graph {
    let mut g = Graph::default();
    for (nid, n) in s.graph.nodes.iter() {
        let mut params = BTreeMap::new();
        for (name, input) in &n.inputs {
            if let Some(v) = &s.graph[*input].value.0 {
                params.insert(name.clone(), v.clone());
            }
        }
        g.nodes.push(Node { id: n.user_data.id, kind: n.user_data.kind, params, label: n.user_data.label.clone(), bypass: n.user_data.bypass, collapsed: n.user_data.collapsed });
        if let Some(p) = s.node_positions.get(nid) {
            g.layout.insert(n.user_data.id, (p.x, p.y));
        }
    }
    for (input, outputs) in s.graph.iter_connection_groups() {
        let Some(inp) = s.graph.try_get_input(input) else { continue };
        let to = &s.graph[inp.node];
        let Some((in_name, _)) = to.inputs.iter().find(|(_, id)| *id == input) else { continue };
        for output in outputs {
            let Some(out) = s.graph.try_get_output(output) else { continue };
            let from = &s.graph[out.node];
            let Some((out_name, _)) = from.outputs.iter().find(|(_, id)| *id == output) else { continue };
            g.links.push(Link { from: from.user_data.id, output: out_name.clone(), to: to.user_data.id, input: in_name.clone() });
            if let Some(points) = s.reroutes.get(&(input, output)).filter(|p| !p.is_empty()) {
                g.reroutes.push(Reroute { to: to.user_data.id, input: in_name.clone(), points: points.iter().map(|p| (p.x, p.y)).collect() });
            }
        }
    }
    g.normalize();
    g
}

/// Shows only the parameters that apply to each node's current values (hidden ones keep
/// their values and are still saved).
pub fn update_visibility(s: &mut EditorState) {
    let nodes: Vec<NodeId> = s.graph.nodes.keys().collect();
    for nid in nodes {
        let kind = s.graph[nid].user_data.kind;
        let inputs = s.graph[nid].inputs.clone();
        let values: ParamMap = inputs.iter().filter_map(|(name, id)| Some((name.clone(), s.graph[*id].value.0.clone()?))).collect();
        let shown: Vec<(egui_node_graph2::InputId, bool)> = inputs.iter().map(|(name, id)| (*id, kind.shows(&values, name))).collect();
        for (id, show) in shown {
            s.graph[id].shown_inline = show;
        }
    }
}
