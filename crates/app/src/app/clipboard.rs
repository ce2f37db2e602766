//! Nodes on the clipboard: a selection is copied as the RON text of a complete graph file
//! (its nodes, the links among them and their layout), so it can be pasted into another
//! document, into a text editor and back, or saved as a file and opened.

use planetgraph_core::graph::part::{merge, subgraph};
use planetgraph_core::graph::{Graph, NodeId};
use planetgraph_core::io::graph_file::{parse_graph, to_ron_string, LoadError, Strictness};
use std::path::Path;

/// The clipboard text of the nodes `ids` of `g`.
pub fn copy_text(g: &Graph, ids: &[NodeId]) -> Result<String, ron::Error> {
    to_ron_string(&subgraph(g, ids))
}

/// Pastes clipboard text into `g` at `at`, the new nodes numbered from `first_id` up (see
/// [`merge`]). Text that is not a graph gives the parser's error with its line and column (the
/// "file" is named `clipboard`).
pub fn paste_text(g: &Graph, text: &str, at: (f32, f32), first_id: u32) -> Result<(Graph, Vec<NodeId>), LoadError> {
    let part = parse_graph(text, Path::new("clipboard"), Strictness::Editable)?;
    Ok(merge(g, &part, at, first_id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use planetgraph_core::nodes::{NodeKind, ParamValue};

    fn sample() -> (Graph, [NodeId; 3]) {
        let mut g = Graph::default();
        let a = g.add_node(NodeKind::Noise, (0.0, 0.0));
        let b = g.add_node(NodeKind::ScaleBias, (200.0, 10.0));
        let c = g.add_node(NodeKind::Planet, (400.0, 0.0));
        g.link(a, planetgraph_core::nodes::FIELD_OUT, b, planetgraph_core::nodes::FIELD_IN).expect("link");
        g.link(b, planetgraph_core::nodes::FIELD_OUT, c, planetgraph_core::nodes::output::planet::ELEVATION).expect("link");
        g.set_param(b, "scale", ParamValue::Float(2.5));
        (g, [a, b, c])
    }

    #[test]
    fn copy_then_paste_keeps_inner_links_and_renumbers() {
        let (g, [a, b, c]) = sample();
        let text = copy_text(&g, &[a, b]).expect("ron");
        assert!(text.contains("ScaleBias") && !text.contains("Planet"), "{text}");
        let (out, ids) = paste_text(&g, &text, (1000.0, 500.0), 0).expect("paste");
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
        let err = paste_text(&g, "(version: 2, nodes: [oops", (0.0, 0.0), 0).expect_err("an error");
        let msg = err.to_string();
        assert!(msg.starts_with("clipboard:1:"), "{msg}");
    }
}
