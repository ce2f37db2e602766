//! Files: graph RON load/save (atomic, with migrations), the built-in default graph, and
//! opening files that may have been planted (`regular`).

pub mod atomic;
pub mod default;
pub mod graph_file;
pub mod migrate;
pub mod regular;
pub mod templates;

pub use default::default_graph;
pub use graph_file::{load_graph, load_graph_noting, open_for_editing, parse_for_editing, parse_graph, parse_graph_noting, save_graph, to_ron_string, LoadError, Opened, SaveError, Strictness};
