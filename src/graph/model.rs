//! The saved graph: nodes with stable ids, parameter values, links and the editor layout.

use crate::nodes::{NodeKind, ParamError, ParamMap, ParamValue, Settings};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Current graph file format version (2: choices saved by stable identifiers; version 1
/// saved their labels and is migrated on load, see `io::migrate`).
pub const FORMAT_VERSION: u32 = 2;

/// Stable node id, unique within a graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NodeId(pub u32);

impl std::fmt::Display for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// One node: its kind and parameter values (missing ones take the kind's default).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Stable id.
    pub id: NodeId,
    /// What the node does.
    pub kind: NodeKind,
    /// Parameter values by name.
    #[serde(default)]
    pub params: ParamMap,
}

impl Node {
    /// A node with every parameter at its default.
    pub fn new(id: NodeId, kind: NodeKind) -> Node {
        Node { id, kind, params: kind.default_params() }
    }

    /// The node's typed settings (`S` must be its kind's settings type).
    pub fn settings<S: Settings>(&self) -> Result<S, ParamError> {
        S::from_params(&self.params)
    }

    /// `Kind #id`, how errors name a node.
    pub fn describe(&self) -> String {
        format!("{} {}", self.kind.meta().label, self.id)
    }
}

/// A link from an output port to an input port.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Link {
    /// Producing node.
    pub from: NodeId,
    /// Output port name on `from`.
    pub output: String,
    /// Consuming node.
    pub to: NodeId,
    /// Input port name on `to`.
    pub input: String,
}

/// A node graph as saved in `.ron` files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Graph {
    /// File format version ([`FORMAT_VERSION`]).
    pub version: u32,
    /// Nodes, sorted by id when saved.
    pub nodes: Vec<Node>,
    /// Links, sorted when saved.
    #[serde(default)]
    pub links: Vec<Link>,
    /// Editor positions of the nodes in points (kept beside the model).
    #[serde(default)]
    pub layout: BTreeMap<NodeId, (f32, f32)>,
}

impl Default for Graph {
    fn default() -> Self {
        Graph { version: FORMAT_VERSION, nodes: Vec::new(), links: Vec::new(), layout: BTreeMap::new() }
    }
}

impl Graph {
    /// The node with id `id`.
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// The node with id `id`, mutable.
    pub fn node_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.nodes.iter_mut().find(|n| n.id == id)
    }

    /// An id not used by any node.
    pub fn next_id(&self) -> NodeId {
        NodeId(self.nodes.iter().map(|n| n.id.0 + 1).max().unwrap_or(1))
    }

    /// Adds a node with default parameters at `pos`; returns its id.
    pub fn add_node(&mut self, kind: NodeKind, pos: (f32, f32)) -> NodeId {
        let id = self.next_id();
        self.nodes.push(Node::new(id, kind));
        self.layout.insert(id, pos);
        id
    }

    /// Links `from.output` to `to.input`, replacing any link into that input.
    pub fn connect(&mut self, from: NodeId, output: &str, to: NodeId, input: &str) {
        self.links.retain(|l| !(l.to == to && l.input == input));
        self.links.push(Link { from, output: output.into(), to, input: input.into() });
    }

    /// Sets a parameter.
    pub fn set_param(&mut self, id: NodeId, name: &str, value: ParamValue) {
        if let Some(n) = self.node_mut(id) {
            n.params.insert(name.to_string(), value);
        }
    }

    /// Replaces a node's parameters with typed settings.
    pub fn set_settings<S: Settings>(&mut self, id: NodeId, settings: &S) {
        if let Some(n) = self.node_mut(id) {
            n.params = settings.to_params();
        }
    }

    /// Removes a node with its links and layout.
    pub fn remove_node(&mut self, id: NodeId) {
        self.nodes.retain(|n| n.id != id);
        self.links.retain(|l| l.from != id && l.to != id);
        self.layout.remove(&id);
    }

    /// Sorts nodes and links so saved files diff cleanly.
    pub fn normalize(&mut self) {
        self.nodes.sort_by_key(|n| n.id);
        self.links.sort();
    }

    /// The first node of a kind, by id.
    pub fn first_of(&self, kind: NodeKind) -> Option<&Node> {
        self.nodes.iter().filter(|n| n.kind == kind).min_by_key(|n| n.id)
    }
}
