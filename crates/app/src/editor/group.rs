//! Closed groups in the editor: one editor node per group with the group's ports and shown
//! parameters; its nodes travel inside it (see [`EdKind::Group`]) and come back out when the
//! editor state is read back.

use super::types::{EdGraph, EdKind, EdNode, EdType, EdValue};
use egui_node_graph2::{InputParamKind, NodeId};
use planetgraph_core::graph::{Graph, NodeId as DomainId};
use planetgraph_core::nodes::PortType;

/// The type of member port `node.port` in a group body (`input` picks inputs or outputs).
fn port_type(body: &Graph, node: DomainId, port: &str, input: bool) -> Option<PortType> {
    let meta = body.node(node)?.kind.meta();
    let ports = if input { meta.inputs } else { meta.outputs };
    ports.iter().find(|p| p.name == port).map(|p| p.ty)
}

/// Adds a group's inputs, shown parameters (with the members' values) and outputs to an
/// editor node. `body` holds the group and its nodes.
pub fn add_group_ports(graph: &mut EdGraph, node: NodeId, body: &Graph) {
    let Some(group) = body.groups.first() else { return };
    for p in &group.inputs {
        if let Some(ty) = port_type(body, p.node, &p.port, true) {
            graph.add_input_param(node, p.name.clone(), EdType::Port(ty), EdValue(None), InputParamKind::ConnectionOnly, true);
        }
    }
    for p in &group.params {
        let Some(member) = body.node(p.node) else { continue };
        let Some(def) = member.kind.param(&p.param) else { continue };
        let value = member.params.get(&p.param).cloned().unwrap_or_else(|| def.default_value());
        graph.add_input_param(node, p.name.clone(), EdType::Param, EdValue(Some(value)), InputParamKind::ConstantOnly, true);
    }
    for p in &group.outputs {
        if let Some(ty) = port_type(body, p.node, &p.port, false) {
            graph.add_output_param(node, p.name.clone(), EdType::Port(ty));
        }
    }
}

/// Where a wire end on an editor node lands in the graph: the node itself, or for a group the
/// member port the group's port `name` stands for (`input` picks inputs or outputs).
pub fn domain_port(node: &EdNode, name: &str, input: bool) -> Option<(DomainId, String)> {
    match &node.kind {
        EdKind::Node(_) => Some((node.id, name.to_string())),
        EdKind::Group(body) => {
            let g = body.groups.first()?;
            let ports = if input { &g.inputs } else { &g.outputs };
            ports.iter().find(|p| p.name == name).map(|p| (p.node, p.port.clone()))
        }
    }
}

/// Puts a group editor node's body back into `out`: its nodes with the values of the shown
/// parameters from the editor node, the links among them, their layout, the group at `pos`.
pub fn unpack(body: &Graph, params: &[(String, Option<planetgraph_core::nodes::ParamValue>)], pos: Option<(f32, f32)>, out: &mut Graph) {
    let Some(group) = body.groups.first() else { return };
    let mut nodes = body.nodes.clone();
    for (name, value) in params {
        let (Some(p), Some(v)) = (group.params.iter().find(|p| &p.name == name), value) else { continue };
        if let Some(n) = nodes.iter_mut().find(|n| n.id == p.node) {
            n.params.insert(p.param.clone(), v.clone());
        }
    }
    out.nodes.extend(nodes);
    out.links.extend(body.links.iter().cloned());
    out.reroutes.extend(body.reroutes.iter().cloned());
    out.layout.extend(body.layout.iter().filter(|(id, _)| **id != group.id).map(|(id, p)| (*id, *p)));
    if let Some(p) = pos.or_else(|| body.layout.get(&group.id).copied()) {
        out.layout.insert(group.id, p);
    }
    out.groups.push(group.clone());
}
