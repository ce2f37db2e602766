//! The built-in default graph (the same as `graphs/default.ron`).

use super::graph_file::{parse_graph, LoadError, Strictness};
use crate::graph::Graph;
use std::path::Path;

/// Text of the default graph.
pub const DEFAULT_GRAPH_RON: &str = include_str!("../../../../graphs/default.ron");

/// The built-in default graph (tested to load; an error names the embedded file).
pub fn default_graph() -> Result<Graph, LoadError> {
    parse_graph(DEFAULT_GRAPH_RON, Path::new("graphs/default.ron (built in)"), Strictness::Complete)
}
