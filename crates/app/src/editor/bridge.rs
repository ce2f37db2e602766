//! The two pure functions between the saved graph and the editor state (tested to round-trip
//! on every file in `graphs/`; reroute points included), and the helpers they share.

use super::group::{add_group_ports, domain_port, unpack};
use super::types::{EdGraph, EdKind, EdNode, EdType, EdValue, EditorState};
use egui_node_graph2::{InputParamKind, NodeId};
use planetgraph_core::graph::part::{renumber, subgraph};
use planetgraph_core::graph::{Graph, Group, Link, Node, NodeId as DomainId, Reroute};
use planetgraph_core::nodes::{NodeKind, ParamMap, ParamValue};
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

/// Builds the editor state of a graph (positions from its layout). A closed group is one
/// editor node carrying its nodes; wires to and from them attach to the group's ports.
pub fn to_editor(g: &Graph) -> EditorState {
    let mut s = EditorState::new(1.0);
    s.link_check = Some(super::wires::link_refusal);
    let mut ids: BTreeMap<DomainId, NodeId> = BTreeMap::new();
    let closed: Vec<&Group> = g.groups.iter().filter(|grp| !grp.open).collect();
    let hidden = |id: DomainId| closed.iter().any(|grp| grp.contains(id));
    let mut nodes: Vec<&Node> = g.nodes.iter().filter(|n| !hidden(n.id)).collect();
    nodes.sort_by_key(|n| n.id);
    let mut place = |s: &mut EditorState, id: NodeId, domain: DomainId| {
        let (x, y) = g.layout.get(&domain).copied().unwrap_or((40.0, 40.0 + 60.0 * domain.0 as f32));
        s.node_positions.insert(id, egui::pos2(x, y));
        s.node_order.push(id);
        ids.insert(domain, id);
    };
    for n in nodes {
        let kind = n.kind;
        let data = EdNode { id: n.id, kind: EdKind::Node(kind), label: n.label.clone(), bypass: n.bypass, collapsed: n.collapsed, thumbnail: n.thumbnail };
        let id = s.graph.add_node(n.title().to_string(), data, |graph, nid| add_ports(graph, nid, kind, Some(&n.params)));
        place(&mut s, id, n.id);
    }
    for grp in &closed {
        let body = subgraph(g, &[grp.id]);
        let data = EdNode { id: grp.id, kind: EdKind::Group(Box::new(body.clone())), label: None, bypass: false, collapsed: false, thumbnail: None };
        let id = s.graph.add_node(grp.label.clone(), data, |graph, nid| add_group_ports(graph, nid, &body));
        place(&mut s, id, grp.id);
    }
    // Where each end of a link is drawn: the node, or the closed group's port standing for it.
    let end = |id: DomainId, port: &str, input: bool| -> Option<(DomainId, String)> {
        match closed.iter().find(|grp| grp.contains(id)) {
            None => Some((id, port.to_string())),
            Some(grp) => {
                let p = if input { grp.input_for(id, port) } else { grp.output_for(id, port) };
                p.map(|p| (grp.id, p.name.clone()))
            }
        }
    };
    for l in &g.links {
        if closed.iter().any(|grp| grp.contains(l.from) && grp.contains(l.to)) {
            continue;
        }
        let (Some((from_id, out_name)), Some((to_id, in_name))) = (end(l.from, &l.output, false), end(l.to, &l.input, true)) else { continue };
        let (Some(&from), Some(&to)) = (ids.get(&from_id), ids.get(&to_id)) else { continue };
        let out = s.graph[from].outputs.iter().find(|(name, _)| *name == out_name).map(|(_, id)| *id);
        let inp = s.graph[to].inputs.iter().find(|(name, id)| *name == in_name && s.graph[*id].typ != EdType::Param).map(|(_, id)| *id);
        if let (Some(o), Some(i)) = (out, inp) {
            s.graph.add_connection(o, i, 0);
            if let Some(r) = g.reroutes.iter().find(|r| r.to == l.to && r.input == l.input) {
                s.reroutes.insert((i, o), r.points.iter().map(|&(x, y)| egui::pos2(x, y)).collect());
            }
        }
    }
    s
}

/// Gives editor nodes created from the finder (id 0) fresh domain ids, none below `floor`
/// (the document's next id: ids are not reused); a group from the library gets fresh ids for
/// itself and its nodes.
pub fn assign_new_ids(s: &mut EditorState, floor: u32) {
    // The first id above every node and group already placed (a group's own and its nodes').
    let next_free = |n: &EdNode| match &n.kind {
        EdKind::Node(_) => n.id.0 + 1,
        EdKind::Group(body) => body.next_id().0,
    };
    let mut next = s.graph.nodes.values().map(|n| &n.user_data).filter(|d| d.id.0 != 0).map(next_free).max().unwrap_or(1).max(floor);
    let fresh: Vec<NodeId> = s.graph.nodes.iter().filter(|(_, n)| n.user_data.id.0 == 0).map(|(id, _)| id).collect();
    for id in fresh {
        let data = &mut s.graph[id].user_data;
        match &mut data.kind {
            EdKind::Node(_) => {
                data.id = DomainId(next);
                next += 1;
            }
            EdKind::Group(body) => {
                let renumbered = renumber(body, next, (0.0, 0.0));
                next = renumbered.next_id().0;
                data.id = renumbered.groups.first().map_or(DomainId(0), |g| g.id);
                **body = renumbered;
            }
        }
    }
}

/// Reads the saved graph back from the editor state (sorted, layout included). Open groups
/// are not in the editor state: the caller keeps them (see [`keep_open_groups`]).
pub fn from_editor(s: &EditorState) -> Graph {
    let mut g = Graph::default();
    for (nid, n) in s.graph.nodes.iter() {
        let mut params = BTreeMap::new();
        for (name, input) in &n.inputs {
            if let Some(v) = &s.graph[*input].value.0 {
                params.insert(name.clone(), v.clone());
            }
        }
        let pos = s.node_positions.get(nid).map(|p| (p.x, p.y));
        let d = &n.user_data;
        match &d.kind {
            EdKind::Node(kind) => {
                g.nodes.push(Node { id: d.id, kind: *kind, params, label: d.label.clone(), bypass: d.bypass, collapsed: d.collapsed, thumbnail: d.thumbnail });
                if let Some(p) = pos {
                    g.layout.insert(d.id, p);
                }
            }
            EdKind::Group(body) => {
                let values: Vec<(String, Option<ParamValue>)> = params.into_iter().map(|(k, v)| (k, Some(v))).collect();
                unpack(body, &values, pos, &mut g);
            }
        }
    }
    for (input, outputs) in s.graph.iter_connection_groups() {
        let Some(inp) = s.graph.try_get_input(input) else { continue };
        let to = &s.graph[inp.node];
        let Some((in_name, _)) = to.inputs.iter().find(|(_, id)| *id == input) else { continue };
        let Some((to_id, in_port)) = domain_port(&to.user_data, in_name, true) else { continue };
        for output in outputs {
            let Some(out) = s.graph.try_get_output(output) else { continue };
            let from = &s.graph[out.node];
            let Some((out_name, _)) = from.outputs.iter().find(|(_, id)| *id == output) else { continue };
            let Some((from_id, out_port)) = domain_port(&from.user_data, out_name, false) else { continue };
            g.links.push(Link { from: from_id, output: out_port, to: to_id, input: in_port.clone() });
            if let Some(points) = s.reroutes.get(&(input, output)).filter(|p| !p.is_empty()) {
                g.reroutes.push(Reroute { to: to_id, input: in_port.clone(), points: points.iter().map(|p| (p.x, p.y)).collect() });
            }
        }
    }
    g.normalize();
    g
}

/// Adds to `g` (read back from the editor) the open groups of `doc` whose nodes are still there:
/// open groups are drawn as their nodes, so the editor state does not hold them.
pub fn keep_open_groups(g: &mut Graph, doc: &Graph) {
    let open: Vec<&Group> = doc.groups.iter().filter(|grp| grp.open && g.group(grp.id).is_none()).collect();
    for grp in open {
        g.groups.push(grp.clone());
        if let Some(p) = doc.layout.get(&grp.id) {
            g.layout.insert(grp.id, *p);
        }
    }
    g.normalize();
}

/// Shows only the parameters that apply to each node's current values (hidden ones keep
/// their values and are still saved).
pub fn update_visibility(s: &mut EditorState) {
    let nodes: Vec<NodeId> = s.graph.nodes.keys().collect();
    for nid in nodes {
        // A group shows every parameter it was given.
        let Some(kind) = s.graph[nid].user_data.node_kind() else { continue };
        let inputs = s.graph[nid].inputs.clone();
        let values: ParamMap = inputs.iter().filter_map(|(name, id)| Some((name.clone(), s.graph[*id].value.0.clone()?))).collect();
        let shown: Vec<(egui_node_graph2::InputId, bool)> = inputs.iter().map(|(name, id)| (*id, kind.shows(&values, name))).collect();
        for (id, show) in shown {
            s.graph[id].shown_inline = show;
        }
    }
}
