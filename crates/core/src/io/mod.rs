//! Files: graph RON load/save (atomic, with migrations) and opening files that may have been
//! planted (`regular`). The built-in example graphs live in `planetgraph-examples`.

pub mod atomic;
pub mod graph_file;
pub mod migrate;
pub mod regular;

pub use graph_file::{load_graph, load_graph_noting, open_for_editing, parse_for_editing, parse_graph, parse_graph_noting, save_graph, to_ron_string, LoadError, Opened, SaveError, Strictness};
