//! The saved model: nodes, links, parameters, editor layout, and validation.

pub mod model;
pub mod validate;

pub use model::{Frame, Graph, Link, Node, NodeId, Reroute, FORMAT_VERSION};
pub use validate::{topological_order, validate, GraphError};
