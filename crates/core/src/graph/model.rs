//! The saved graph: nodes with stable ids, parameter values, links and the editor layout.

use super::group::Group;
use crate::nodes::{InPort, NodeKind, OutPort, ParamError, ParamMap, ParamValue, PortValue, Settings};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Current graph file format version (3: the planet's settings live on the Planet node
/// alone; 2: choices saved by stable identifiers; older versions are migrated on load, see
/// `io::migrate`).
pub const FORMAT_VERSION: u32 = 3;

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
    /// A name given by the user, shown instead of the kind's label (saved only when set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Bypassed (muted): the node passes its first input of each output's type through
    /// unchanged (saved only when set).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bypass: bool,
    /// Drawn collapsed to its title bar in the editor (saved only when set).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub collapsed: bool,
    /// Whether the editor draws a thumbnail of its output on it; `None` takes the kind's
    /// default ([`Node::shows_thumbnail`]; saved only when set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thumbnail: Option<bool>,
}

impl Node {
    /// A node with every parameter at its default.
    pub fn new(id: NodeId, kind: NodeKind) -> Node {
        Node { id, kind, params: kind.default_params(), label: None, bypass: false, collapsed: false, thumbnail: None }
    }

    /// Whether the editor draws a thumbnail of the node's output on it: as set, else for
    /// sources (where a graph's look begins) and not for the others.
    pub fn shows_thumbnail(&self) -> bool {
        self.thumbnail.unwrap_or(self.kind.meta().category == crate::nodes::Category::Sources)
    }

    /// The node's typed settings (`S` must be its kind's settings type).
    pub fn settings<S: Settings>(&self) -> Result<S, ParamError> {
        S::from_params(&self.params)
    }

    /// `Kind #id` (or `Name (Kind #id)` when renamed), how errors name a node.
    pub fn describe(&self) -> String {
        match &self.label {
            Some(l) => format!("{l} ({} {})", self.kind.meta().label, self.id),
            None => format!("{} {}", self.kind.meta().label, self.id),
        }
    }

    /// The title shown on the node: its name, or its kind's label.
    pub fn title(&self) -> &str {
        self.label.as_deref().unwrap_or(self.kind.meta().label)
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

/// A typed link that [`Graph::link`] refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LinkError {
    /// No node has this id.
    #[error("there is no node {0}")]
    NoNode(NodeId),
    /// A handle names a port its node's kind does not have at that place with that type.
    #[error("node {node} ({kind}) has no {what} '{port}' of the handle's type at the handle's place")]
    NotAPort {
        /// The node.
        node: NodeId,
        /// Its kind's name.
        kind: &'static str,
        /// The handle's port name.
        port: &'static str,
        /// "input" or "output".
        what: &'static str,
    },
}

/// A node graph as saved in `.ron` files. Two graphs are equal when what they save is equal
/// (their [`Graph::folder`] aside).
#[derive(Debug, Clone, Serialize, Deserialize)]
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
    /// Frames: named, coloured boxes that organise the canvas (no effect on evaluation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frames: Vec<Frame>,
    /// Reroute points of wires (no effect on evaluation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reroutes: Vec<Reroute>,
    /// Groups: sets of nodes the editor shows as one node (no effect on evaluation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Group>,
    /// The folder that the files the graph's nodes read (Import raster) are relative to: the
    /// graph file's folder once loaded or saved; `None` (the working folder) for a graph that
    /// has no file yet. Not saved.
    #[serde(skip)]
    pub folder: Option<std::path::PathBuf>,
}

impl PartialEq for Graph {
    fn eq(&self, other: &Graph) -> bool {
        // Every saved field; the folder is where the file lies, not what it holds.
        let Graph { version, nodes, links, layout, frames, reroutes, groups, folder: _ } = self;
        *version == other.version && *nodes == other.nodes && *links == other.links && *layout == other.layout && *frames == other.frames && *reroutes == other.reroutes && *groups == other.groups
    }
}

/// The reroute points a wire passes through on the canvas, from its source to its target. The
/// wire is the link into input `input` of node `to` (an input takes one link).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reroute {
    /// Node whose input the wire ends at.
    pub to: NodeId,
    /// That input's name.
    pub input: String,
    /// Points in editor points, in order from the source.
    pub points: Vec<(f32, f32)>,
}

/// A named, coloured box on the canvas with an optional comment. The nodes whose position
/// lies inside it move with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// Title shown on the frame's bar.
    pub label: String,
    /// Free text shown under the title.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub comment: String,
    /// Colour as sRGB bytes.
    pub colour: [u8; 3],
    /// Left, top, width and height in editor points.
    pub rect: (f32, f32, f32, f32),
}

impl Frame {
    /// Whether the editor position `p` lies inside the frame.
    pub fn contains(&self, p: (f32, f32)) -> bool {
        let (x, y, w, h) = self.rect;
        p.0 >= x && p.0 <= x + w && p.1 >= y && p.1 <= y + h
    }
}

impl Default for Graph {
    fn default() -> Self {
        Graph { version: FORMAT_VERSION, nodes: Vec::new(), links: Vec::new(), layout: BTreeMap::new(), frames: Vec::new(), reroutes: Vec::new(), groups: Vec::new(), folder: None }
    }
}

impl Graph {
    /// The node with id `id`.
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// Makes the graph one saved into folder `to`: relative paths of the files its nodes read
    /// (Import raster, [`crate::nodes::NodeKind::moved`]) are rewritten so they name the same
    /// files as from its current folder (the working folder when it has none), and `to`
    /// becomes its [`Graph::folder`]. Whether a node's settings changed.
    pub fn move_files_to(&mut self, to: &std::path::Path) -> bool {
        let from = self.folder.clone().or_else(|| std::env::current_dir().ok()).filter(|f| f != to);
        let mut changed = false;
        if let Some(from) = from {
            for node in &mut self.nodes {
                if let Some(params) = node.kind.moved(&node.params, &from, to) {
                    node.params = params;
                    changed = true;
                }
            }
        }
        self.folder = Some(to.to_path_buf());
        changed
    }

    /// How messages name node `id`: [`Node::describe`], or the bare id of a node not in the graph.
    pub fn describe_node(&self, id: NodeId) -> String {
        self.node(id).map(|n| n.describe()).unwrap_or_else(|| id.to_string())
    }

    /// The node with id `id`, mutable.
    pub fn node_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.nodes.iter_mut().find(|n| n.id == id)
    }

    /// An id not used by any node or group.
    pub fn next_id(&self) -> NodeId {
        NodeId(self.nodes.iter().map(|n| n.id).chain(self.groups.iter().map(|g| g.id)).map(|id| id.0 + 1).max().unwrap_or(1))
    }

    /// Adds a node with default parameters at `pos`; returns its id.
    pub fn add_node(&mut self, kind: NodeKind, pos: (f32, f32)) -> NodeId {
        let id = self.next_id();
        self.nodes.push(Node::new(id, kind));
        self.layout.insert(id, pos);
        id
    }

    /// Links output `output` of `from` to input `input` of `to` by typed handles, replacing
    /// any link into that input: the compiler checks that both carry the same type of value,
    /// and this checks that each handle is a port of its node's kind. Fails, changing nothing,
    /// when a node is missing or a handle is not one of its kind's ports.
    pub fn link<T: PortValue>(&mut self, from: NodeId, output: OutPort<T>, to: NodeId, input: InPort<T>) -> Result<(), LinkError> {
        let kind = |id: NodeId| self.node(id).map(|n| n.kind).ok_or(LinkError::NoNode(id));
        let (a, b) = (kind(from)?, kind(to)?);
        if !output.is_port_of(&a.meta()) {
            return Err(LinkError::NotAPort { node: from, kind: a.meta().label, port: output.name(), what: "output" });
        }
        if !input.is_port_of(&b.meta()) {
            return Err(LinkError::NotAPort { node: to, kind: b.meta().label, port: input.name(), what: "input" });
        }
        self.connect(from, output.name(), to, input.name());
        Ok(())
    }

    /// The link into input `input` of node `to`, if any.
    pub fn link_into<T: PortValue>(&self, to: NodeId, input: InPort<T>) -> Option<&Link> {
        self.links.iter().find(|l| l.to == to && l.input == input.name())
    }

    /// Removes the link into input `input` of node `to`, if any.
    pub fn unlink<T: PortValue>(&mut self, to: NodeId, input: InPort<T>) {
        self.links.retain(|l| !(l.to == to && l.input == input.name()));
    }

    /// Links `from.output` to `to.input` by name, replacing any link into that input: for
    /// links whose ports come as data (a file, the editor). Code that knows its ports uses
    /// [`Self::link`].
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

    /// Removes a node with its links and layout; a group's id removes the group with its
    /// nodes.
    pub fn remove_node(&mut self, id: NodeId) {
        if let Some(group) = self.group(id) {
            let members = group.members.clone();
            self.groups.retain(|g| g.id != id);
            self.layout.remove(&id);
            members.into_iter().for_each(|m| self.remove_node(m));
            return;
        }
        self.nodes.retain(|n| n.id != id);
        self.links.retain(|l| l.from != id && l.to != id);
        self.layout.remove(&id);
        self.normalize_groups();
    }

    /// Sorts nodes and links so saved files diff cleanly.
    pub fn normalize(&mut self) {
        self.nodes.sort_by_key(|n| n.id);
        self.links.sort();
        // Reroute points go with their wire.
        let links = &self.links;
        self.reroutes.retain(|r| !r.points.is_empty() && links.iter().any(|l| l.to == r.to && l.input == r.input));
        self.reroutes.sort_by(|a, b| (a.to, &a.input).cmp(&(b.to, &b.input)));
        self.reroutes.dedup_by(|a, b| a.to == b.to && a.input == b.input);
        self.normalize_groups();
    }

    /// Puts node `id` into `link`: the link's source feeds the node's first input of the link's
    /// type, and the node's first output of that type feeds the link's target. Only a node with
    /// no links of its own can be inserted. Returns false (and changes nothing) when it does not
    /// fit.
    pub fn insert_on_link(&mut self, id: NodeId, link: &Link) -> bool {
        if link.from == id || link.to == id || self.links.iter().any(|l| l.from == id || l.to == id) || !self.links.contains(link) {
            return false;
        }
        let (Some(node), Some(src)) = (self.node(id), self.node(link.from)) else { return false };
        let Some(ty) = src.kind.meta().outputs.iter().find(|p| p.name == link.output).map(|p| p.ty) else { return false };
        let meta = node.kind.meta();
        let (Some(input), Some(output)) = (meta.inputs.iter().find(|p| p.ty == ty), meta.outputs.iter().find(|p| p.ty == ty)) else { return false };
        let (input, output) = (input.name.to_string(), output.name.to_string());
        self.links.retain(|l| l != link);
        self.connect(link.from, &link.output, id, &input);
        self.connect(id, &output, link.to, &link.input);
        self.normalize();
        true
    }

    /// The first node of a kind, by id.
    pub fn first_of(&self, kind: NodeKind) -> Option<&Node> {
        self.nodes.iter().filter(|n| n.kind == kind).min_by_key(|n| n.id)
    }
}

#[cfg(test)]
mod insert_tests {
    use super::*;

    #[test]
    fn a_node_dropped_on_a_link_goes_between_its_ends() {
        let mut g = Graph::default();
        let a = g.add_node(NodeKind::Noise, (0.0, 0.0));
        let p = g.add_node(NodeKind::Planet, (400.0, 0.0));
        g.link(a, crate::nodes::FIELD_OUT, p, crate::nodes::output::planet::ELEVATION).expect("link");
        let link = g.links[0].clone();
        let s = g.add_node(NodeKind::ScaleBias, (200.0, 0.0));
        assert!(g.insert_on_link(s, &link));
        assert!(!g.links.contains(&link));
        assert!(g.links.contains(&Link { from: a, output: "out".into(), to: s, input: "in".into() }));
        assert!(g.links.contains(&Link { from: s, output: "out".into(), to: p, input: "elevation".into() }));
        // A linked node, or one without a port of the link's type, is refused.
        let before = g.clone();
        let l2 = g.links[0].clone();
        assert!(!g.insert_on_link(s, &l2));
        let r = g.add_node(NodeKind::Regions, (0.0, 0.0));
        assert!(!g.insert_on_link(r, &l2));
        assert_eq!(g.links, before.links);
    }

    #[test]
    fn a_typed_link_refuses_a_handle_its_node_does_not_have() {
        use crate::nodes::{FIELD_IN, FIELD_OUT};
        let mut g = Graph::default();
        let (a, b) = (g.add_node(NodeKind::Noise, (0.0, 0.0)), g.add_node(NodeKind::Noise, (200.0, 0.0)));
        let p = g.add_node(NodeKind::Planet, (400.0, 0.0));
        // A Noise node has no input, a Planet node no input "in", and node 99 does not exist.
        assert!(matches!(g.link(a, FIELD_OUT, b, FIELD_IN), Err(LinkError::NotAPort { what: "input", .. })));
        assert!(matches!(g.link(a, FIELD_OUT, p, FIELD_IN), Err(LinkError::NotAPort { port: "in", .. })));
        assert_eq!(g.link(NodeId(99), FIELD_OUT, p, crate::nodes::output::planet::ELEVATION), Err(LinkError::NoNode(NodeId(99))));
        assert!(g.links.is_empty(), "a refused link changes nothing");
        g.link(a, FIELD_OUT, p, crate::nodes::output::planet::ELEVATION).expect("noise to planet");
        assert_eq!(g.links, vec![Link { from: a, output: "out".into(), to: p, input: "elevation".into() }]);
    }
}
