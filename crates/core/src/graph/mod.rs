//! The saved model: nodes, links, parameters, editor layout, and validation.

pub mod change;
pub mod group;
pub mod model;
pub mod part;
pub mod repair;
pub mod validate;

pub use change::describe_change;
pub use group::{add_port, Group, GroupError, GroupParam, GroupPort};
pub use model::{Frame, Graph, Link, LinkError, Node, NodeId, Reroute, FORMAT_VERSION};
pub use validate::{topological_order, validate, GraphError};
