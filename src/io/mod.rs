//! Files: graph RON load/save (atomic, with migrations) and exports.

pub mod export;
pub mod graph_file;

pub use graph_file::{load_graph, parse_graph, save_graph, to_ron_string, LoadError, SaveError, Strictness};
