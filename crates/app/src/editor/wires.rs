//! Whether a wire may join two ports of the editor, and why not. The editor asks while a wire
//! is dragged over a port, so a refusal shows before the button is released; the status line
//! gives the same reason when the wire is let go there.

use super::bridge::from_editor;
use super::group::domain_port;
use super::types::{EdKind, EdType, EditorState};
use egui_node_graph2::AnyParameterId;
use planetgraph_core::graph::validate::find_cycle;
use planetgraph_core::graph::{Link, NodeId as DomainId};
use std::collections::BTreeSet;

/// The title of the node that holds an editor port, the port's name, and the name of its type.
pub fn port_text(s: &EditorState, port: AnyParameterId) -> Option<(String, String, &'static str)> {
    let g = &s.graph;
    let (node, name, typ) = match port {
        AnyParameterId::Input(i) => {
            let p = g.try_get_input(i)?;
            (p.node, g[p.node].inputs.iter().find(|(_, id)| *id == i)?.0.clone(), p.typ)
        }
        AnyParameterId::Output(o) => {
            let p = g.try_get_output(o)?;
            (p.node, g[p.node].outputs.iter().find(|(_, id)| *id == o)?.0.clone(), p.typ)
        }
    };
    let type_name = match typ {
        EdType::Port(t) => t.name(),
        EdType::Param => "parameter",
    };
    Some((g[node].label.clone(), name, type_name))
}

/// Why a wire from port `a` to port `b` (either may be the output) would not be made, in a few
/// words that name what the user sees (a closed group, not the nodes inside it); `None` when it
/// may be made.
pub fn link_refusal(s: &EditorState, a: AnyParameterId, b: AnyParameterId) -> Option<String> {
    let ((AnyParameterId::Output(output), AnyParameterId::Input(input)) | (AnyParameterId::Input(input), AnyParameterId::Output(output))) = (a, b) else {
        return Some("a wire goes from an output (right side of a node) to an input (left side)".to_string());
    };
    let (out, inp) = (port_text(s, AnyParameterId::Output(output))?, port_text(s, AnyParameterId::Input(input))?);
    if s.graph.try_get_output(output)?.typ != s.graph.try_get_input(input)?.typ {
        return Some(format!("{} '{}' gives a {}, but {} '{}' takes a {}", out.0, out.1, out.2, inp.0, inp.1, inp.2));
    }
    let loop_through = closes_loop(s, output, input)?;
    (!loop_through.is_empty()).then(|| format!("{} '{}' -> {} '{}' would close a loop through {}", out.0, out.1, inp.0, inp.1, loop_through.join(", ")))
}

/// The nodes (or closed groups) on loops that a link from `output` to `input` would add to the
/// editor's graph, by the names the editor shows; empty if it adds none.
fn closes_loop(s: &EditorState, output: egui_node_graph2::OutputId, input: egui_node_graph2::InputId) -> Option<Vec<String>> {
    let (from_node, to_node) = (&s.graph[s.graph.try_get_output(output)?.node], &s.graph[s.graph.try_get_input(input)?.node]);
    let out_name = &from_node.outputs.iter().find(|(_, id)| *id == output)?.0;
    let in_name = &to_node.inputs.iter().find(|(_, id)| *id == input)?.0;
    let (from, out_port) = domain_port(&from_node.user_data, out_name, false)?;
    let (to, in_port) = domain_port(&to_node.user_data, in_name, true)?;
    let mut g = from_editor(s);
    let before: BTreeSet<DomainId> = find_cycle(&g).into_iter().collect();
    g.links.push(Link { from, output: out_port, to, input: in_port });
    let mut names: Vec<String> = Vec::new();
    for id in find_cycle(&g).into_iter().filter(|id| !before.contains(id)) {
        let name = group_of(s, id).unwrap_or_else(|| g.describe_node(id));
        if !names.contains(&name) {
            names.push(name);
        }
    }
    Some(names)
}

/// The closed group that shows domain node `id` in the editor, by name; `None` for a node drawn
/// on its own.
fn group_of(s: &EditorState, id: DomainId) -> Option<String> {
    s.graph.nodes.iter().find_map(|(_, n)| match &n.user_data.kind {
        EdKind::Group(body) if body.groups.first().is_some_and(|grp| grp.contains(id)) => Some(format!("group '{}'", n.label)),
        _ => None,
    })
}
