//! Files: graph RON load/save (atomic, with migrations) and the built-in default graph.

pub mod default;
pub mod clipboard;
pub mod graph_file;
pub mod migrate;

pub use default::default_graph;
pub use graph_file::{load_graph, parse_graph, save_graph, to_ron_string, LoadError, SaveError, Strictness};
