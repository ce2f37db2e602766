//! Nodes on the clipboard: a selection is copied as the RON text of a complete graph file
//! (its nodes, the links among them and their layout), so it can be pasted into another
//! document, into a text editor and back, or saved as a file and opened.

use super::graph_file::{parse_graph, to_ron_string, LoadError, Strictness};
use crate::graph::{Graph, NodeId};
use std::collections::BTreeMap;
use std::path::Path;

/// The part of `g` made of the nodes `ids`: those nodes, the links between two of them and
/// their positions. Links from or to other nodes are left out.
pub fn subgraph(g: &Graph, ids: &[NodeId]) -> Graph {
    let mut out = Graph { nodes: g.nodes.iter().filter(|n| ids.contains(&n.id)).cloned().collect(), ..Graph::default() };
    out.links = g.links.iter().filter(|l| ids.contains(&l.from) && ids.contains(&l.to)).cloned().collect();
    out.layout = g.layout.iter().filter(|(id, _)| ids.contains(id)).map(|(id, p)| (*id, *p)).collect();
    out.normalize();
    out
}

/// The top-left corner of a graph's layout (`None` without positions).
pub fn top_left(g: &Graph) -> Option<(f32, f32)> {
    let x = g.layout.values().map(|p| p.0).reduce(f32::min)?;
    let y = g.layout.values().map(|p| p.1).reduce(f32::min)?;
    Some((x, y))
}

/// The clipboard text of the nodes `ids` of `g`.
pub fn copy_text(g: &Graph, ids: &[NodeId]) -> Result<String, ron::Error> {
    to_ron_string(&subgraph(g, ids))
}

/// Adds the nodes of `part` to `g` with fresh ids, keeping the links among them; their
/// layout is moved so that its top-left corner lands at `at` (graph points). Returns the new
/// graph and the new ids.
pub fn merge(g: &Graph, part: &Graph, at: (f32, f32)) -> (Graph, Vec<NodeId>) {
    let mut out = g.clone();
    let first = g.next_id().0;
    let renumber: BTreeMap<NodeId, NodeId> = part.nodes.iter().enumerate().map(|(k, n)| (n.id, NodeId(first + k as u32))).collect();
    let (dx, dy) = top_left(part).map_or((0.0, 0.0), |(x, y)| (at.0 - x, at.1 - y));
    let mut ids = Vec::new();
    for (k, n) in part.nodes.iter().enumerate() {
        let id = renumber[&n.id];
        let mut node = n.clone();
        node.id = id;
        out.nodes.push(node);
        let p = part.layout.get(&n.id).map(|p| (p.0 + dx, p.1 + dy)).unwrap_or((at.0 + 30.0 * k as f32, at.1 + 30.0 * k as f32));
        out.layout.insert(id, p);
        ids.push(id);
    }
    for l in &part.links {
        if let (Some(&from), Some(&to)) = (renumber.get(&l.from), renumber.get(&l.to)) {
            out.connect(from, &l.output, to, &l.input);
        }
    }
    out.normalize();
    (out, ids)
}

/// Pastes clipboard text into `g` at `at`. Text that is not a graph gives the parser's error
/// with its line and column (the "file" is named `clipboard`).
pub fn paste_text(g: &Graph, text: &str, at: (f32, f32)) -> Result<(Graph, Vec<NodeId>), LoadError> {
    let part = parse_graph(text, Path::new("clipboard"), Strictness::Editable)?;
    Ok(merge(g, &part, at))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::{NodeKind, ParamValue};

    fn sample() -> (Graph, [NodeId; 3]) {
        let mut g = Graph::default();
        let a = g.add_node(NodeKind::Noise, (0.0, 0.0));
        let b = g.add_node(NodeKind::ScaleBias, (200.0, 10.0));
        let c = g.add_node(NodeKind::Planet, (400.0, 0.0));
        g.connect(a, "out", b, "in");
        g.connect(b, "out", c, "elevation");
        g.set_param(b, "scale", ParamValue::Float(2.5));
        (g, [a, b, c])
    }

    #[test]
    fn copy_then_paste_keeps_inner_links_and_renumbers() {
        let (g, [a, b, c]) = sample();
        let text = copy_text(&g, &[a, b]).expect("ron");
        assert!(text.contains("ScaleBias") && !text.contains("Planet"), "{text}");
        let (out, ids) = paste_text(&g, &text, (1000.0, 500.0)).expect("paste");
        assert_eq!(ids.len(), 2);
        assert!(ids.iter().all(|id| ![a, b, c].contains(id)), "fresh ids");
        assert_eq!(out.nodes.len(), 5);
        let inner = out.links.iter().filter(|l| ids.contains(&l.from) && ids.contains(&l.to)).count();
        assert_eq!(inner, 1, "the Noise -> Scale link is kept, the link to Planet is not");
        assert_eq!(out.layout[&ids[0]], (1000.0, 500.0), "top-left lands at the cursor");
        assert_eq!(out.layout[&ids[1]], (1200.0, 510.0));
        assert_eq!(out.node(ids[1]).and_then(|n| n.params.get("scale")), Some(&ParamValue::Float(2.5)));
    }

    #[test]
    fn pasting_text_that_is_not_a_graph_names_the_position() {
        let (g, _) = sample();
        let err = paste_text(&g, "(version: 2, nodes: [oops", (0.0, 0.0)).expect_err("an error");
        let msg = err.to_string();
        assert!(msg.starts_with("clipboard:1:"), "{msg}");
    }
}
