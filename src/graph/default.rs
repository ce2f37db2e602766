//! The built-in default graph (the same as `graphs/default.ron`).

use super::model::Graph;
use crate::io::{parse_graph, Strictness};
use crate::ops::NodeKind;
use std::path::Path;

/// Text of the default graph.
pub const DEFAULT_GRAPH_RON: &str = include_str!("../../graphs/default.ron");

/// The built-in default graph. It is tested to parse; should it ever fail, a minimal noise
/// planet is returned instead.
pub fn default_graph() -> Graph {
    parse_graph(DEFAULT_GRAPH_RON, Path::new("default.ron"), Strictness::Complete).unwrap_or_else(|_| {
        let mut g = Graph::default();
        let n = g.add_node(NodeKind::Noise, (40.0, 80.0));
        let p = g.add_node(NodeKind::Planet, (320.0, 80.0));
        g.connect(n, "out", p, "elevation");
        g
    })
}
