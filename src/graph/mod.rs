//! The saved model: nodes, links, parameters, editor layout, and validation.

pub mod model;
pub mod validate;
pub mod default;

pub use default::default_graph;

pub use model::{Graph, Link, Node, NodeId, FORMAT_VERSION};
pub use validate::{topological_order, validate, GraphError};
