//! The example graphs of the repository's `graphs/` folder, built into the program: the default
//! planet (what a new graph, `bench` and many tests start from) and the templates of File > New
//! from template, each with its thumbnail and the files its nodes read.
//!
//! They live in a crate of their own so that the domain (`planetgraph-core`) holds nothing
//! from outside its folder and packages alone; the editor, the command line and the tests
//! depend on this crate for them.

pub mod templates;

use planetgraph_core::graph::Graph;
use planetgraph_core::io::{parse_graph, LoadError, Strictness};
use std::path::Path;

/// Text of the default graph (`graphs/default.ron`).
pub const DEFAULT_GRAPH_RON: &str = include_str!("../../../graphs/default.ron");

/// The built-in default graph (tested to load; an error names the embedded file).
pub fn default_graph() -> Result<Graph, LoadError> {
    parse_graph(DEFAULT_GRAPH_RON, Path::new("graphs/default.ron (built in)"), Strictness::Complete)
}
