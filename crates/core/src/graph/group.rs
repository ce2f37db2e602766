//! Groups: a set of nodes that the editor shows as one node with chosen inputs, outputs and
//! parameters (seed 004's user-defined nodes). A group changes nothing in evaluation: its
//! nodes stay in the graph and run as they are, so a grouped graph evaluates exactly like the
//! ungrouped one. A group can be opened (its nodes shown and edited in place) and closed again.

use super::model::{Graph, NodeId};
use super::validate::GraphError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use thiserror::Error;

/// A group of nodes shown as one node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// The group node's id (shares the id space of nodes: no node has it).
    pub id: NodeId,
    /// Title of the group node.
    pub label: String,
    /// The nodes inside, sorted.
    pub members: Vec<NodeId>,
    /// Inputs of the group node: member inputs fed from outside (or not fed at all).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<GroupPort>,
    /// Outputs of the group node: member outputs used outside (or the group's results).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<GroupPort>,
    /// Member parameters shown on the group node.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<GroupParam>,
    /// Drawn as its nodes (being edited) rather than as one node.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
}

/// A port of a group node: the member port it stands for, under a name unique on the group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupPort {
    /// Name on the group node.
    pub name: String,
    /// The member node.
    pub node: NodeId,
    /// The member's port.
    pub port: String,
}

/// A member parameter shown on the group node under a name unique on the group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupParam {
    /// Name on the group node.
    pub name: String,
    /// The member node.
    pub node: NodeId,
    /// The member's parameter (its saved name).
    pub param: String,
}

/// Why a selection cannot become a group.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GroupError {
    /// Nothing selected.
    #[error("select the nodes to put in the group first")]
    Empty,
    /// A selected node is already in a group (groups do not nest).
    #[error("{node} is already in group '{group}': groups cannot hold groups, ungroup it first")]
    Nested {
        /// The node, as errors name nodes.
        node: String,
        /// The group's title.
        group: String,
    },
    /// An id that is no node of the graph.
    #[error("{0} is not a node of this graph")]
    Unknown(NodeId),
}

/// `base`, or `base (title)`, or with a number, whichever is not in `taken` yet.
fn unique_name(taken: &[String], base: &str, title: &str) -> String {
    let mut name = base.to_string();
    if taken.contains(&name) {
        name = format!("{base} ({title})");
    }
    let mut k = 2;
    while taken.contains(&name) {
        name = format!("{base} ({title} {k})");
        k += 1;
    }
    name
}

impl Group {
    /// Whether `id` is a member.
    pub fn contains(&self, id: NodeId) -> bool {
        self.members.binary_search(&id).is_ok()
    }

    /// The exposed input standing for member input `node.port`.
    pub fn input_for(&self, node: NodeId, port: &str) -> Option<&GroupPort> {
        self.inputs.iter().find(|p| p.node == node && p.port == port)
    }

    /// The exposed output standing for member output `node.port`.
    pub fn output_for(&self, node: NodeId, port: &str) -> Option<&GroupPort> {
        self.outputs.iter().find(|p| p.node == node && p.port == port)
    }

    /// Shows member parameter `node.param` on the group node as `label` (no change if shown
    /// already); `title` is the member's title, added when the label is taken.
    pub fn expose_param(&mut self, node: NodeId, param: &str, label: &str, title: &str) {
        if self.params.iter().any(|p| p.node == node && p.param == param) {
            return;
        }
        let taken: Vec<String> = self.params.iter().map(|p| p.name.clone()).collect();
        self.params.push(GroupParam { name: unique_name(&taken, label, title), node, param: param.to_string() });
    }
}

impl Graph {
    /// The group with id `id`.
    pub fn group(&self, id: NodeId) -> Option<&Group> {
        self.groups.iter().find(|g| g.id == id)
    }

    /// The group with id `id`, mutable.
    pub fn group_mut(&mut self, id: NodeId) -> Option<&mut Group> {
        self.groups.iter_mut().find(|g| g.id == id)
    }

    /// The group node `id` belongs to.
    pub fn group_of(&self, id: NodeId) -> Option<&Group> {
        self.groups.iter().find(|g| g.contains(id))
    }

    /// Makes a group of the nodes `ids`, closed, at the top-left corner of their layout.
    /// Inputs fed from outside and required inputs not fed at all become the group's inputs;
    /// outputs used outside (or, when none is, the outputs no member uses) its outputs.
    /// Returns the group's id.
    pub fn make_group(&mut self, ids: &[NodeId], label: &str) -> Result<NodeId, GroupError> {
        let members: BTreeSet<NodeId> = ids.iter().copied().collect();
        if members.is_empty() {
            return Err(GroupError::Empty);
        }
        for &id in &members {
            let Some(node) = self.node(id) else { return Err(GroupError::Unknown(id)) };
            if let Some(g) = self.group_of(id) {
                return Err(GroupError::Nested { node: node.describe(), group: g.label.clone() });
            }
        }
        let id = self.next_id();
        let mut group = Group { id, label: label.to_string(), members: members.iter().copied().collect(), inputs: Vec::new(), outputs: Vec::new(), params: Vec::new(), open: false };
        // Required inputs fed by nothing; the links across the border get their ports from
        // `normalize_groups` below.
        for n in self.nodes.iter().filter(|n| members.contains(&n.id)) {
            for p in n.kind.meta().inputs.iter().filter(|p| !p.optional) {
                if !self.links.iter().any(|l| l.to == n.id && l.input == p.name) {
                    add_port(&mut group.inputs, n.id, p.name, n.title());
                }
            }
        }
        // Nothing used outside: the outputs nothing uses are the group's results.
        if !self.links.iter().any(|l| members.contains(&l.from) && !members.contains(&l.to)) {
            for n in self.nodes.iter().filter(|n| members.contains(&n.id)) {
                for p in n.kind.meta().outputs {
                    if !self.links.iter().any(|l| l.from == n.id && l.output == p.name) {
                        add_port(&mut group.outputs, n.id, p.name, n.title());
                    }
                }
            }
        }
        let pos = self.top_left_of(&group.members).unwrap_or((0.0, 0.0));
        self.layout.insert(id, pos);
        self.groups.push(group);
        self.normalize_groups();
        Ok(id)
    }

    /// Dissolves group `id`: its nodes stay, shown one by one where the group node was.
    /// Returns false when there is no such group.
    pub fn ungroup(&mut self, id: NodeId) -> bool {
        if !self.set_group_open(id, true) {
            return false;
        }
        self.groups.retain(|g| g.id != id);
        self.layout.remove(&id);
        true
    }

    /// Opens group `id` (its nodes are shown and edited in place, moved to where the group
    /// node is) or closes it (the group node goes to their top-left corner, and links made
    /// across its border while open become ports). Returns false when there is no such group.
    pub fn set_group_open(&mut self, id: NodeId, open: bool) -> bool {
        let Some(group) = self.group(id) else { return false };
        let members = group.members.clone();
        let was_open = group.open;
        if open && !was_open {
            if let (Some(at), Some(from)) = (self.layout.get(&id).copied(), self.top_left_of(&members)) {
                for m in &members {
                    if let Some(p) = self.layout.get_mut(m) {
                        *p = (p.0 + at.0 - from.0, p.1 + at.1 - from.1);
                    }
                }
            }
        } else if !open && was_open {
            if let Some(pos) = self.top_left_of(&members) {
                self.layout.insert(id, pos);
            }
        }
        if let Some(g) = self.group_mut(id) {
            g.open = open;
        }
        self.normalize_groups();
        true
    }

    /// The top-left corner of the layout of nodes `ids`.
    pub fn top_left_of(&self, ids: &[NodeId]) -> Option<(f32, f32)> {
        let pts: Vec<(f32, f32)> = ids.iter().filter_map(|id| self.layout.get(id).copied()).collect();
        Some((pts.iter().map(|p| p.0).reduce(f32::min)?, pts.iter().map(|p| p.1).reduce(f32::min)?))
    }

    /// Keeps groups consistent with the nodes and links: members that are gone leave (a group
    /// without members goes), ports and parameters of nodes or ports that are gone go, and a
    /// link across a group's border always has a port to run through.
    pub(super) fn normalize_groups(&mut self) {
        let ids: BTreeSet<NodeId> = self.nodes.iter().map(|n| n.id).collect();
        let mut groups = std::mem::take(&mut self.groups);
        for g in &mut groups {
            g.members.retain(|m| ids.contains(m));
            g.members.sort();
            g.members.dedup();
            let kind = |id: NodeId| self.node(id).map(|n| n.kind);
            let members = g.members.clone();
            let is_member = |id: NodeId| members.binary_search(&id).is_ok();
            g.inputs.retain(|p| is_member(p.node) && kind(p.node).is_some_and(|k| k.meta().inputs.iter().any(|i| i.name == p.port)));
            g.outputs.retain(|p| is_member(p.node) && kind(p.node).is_some_and(|k| k.meta().outputs.iter().any(|o| o.name == p.port)));
            g.params.retain(|p| is_member(p.node) && kind(p.node).is_some_and(|k| k.param(&p.param).is_some()));
            for l in &self.links {
                let title = |id: NodeId| self.node(id).map_or(String::new(), |n| n.title().to_string());
                if is_member(l.to) && !is_member(l.from) && g.input_for(l.to, &l.input).is_none() {
                    add_port(&mut g.inputs, l.to, &l.input, &title(l.to));
                }
                if is_member(l.from) && !is_member(l.to) && g.output_for(l.from, &l.output).is_none() {
                    add_port(&mut g.outputs, l.from, &l.output, &title(l.from));
                }
            }
        }
        for g in groups.iter().filter(|g| g.members.is_empty()) {
            self.layout.remove(&g.id);
        }
        groups.retain(|g| !g.members.is_empty());
        groups.sort_by_key(|g| g.id);
        self.groups = groups;
    }
}

/// Problems with the groups of a graph file: an id that is taken, members that are missing or
/// in two groups, ports and parameters that name no member's port or parameter, names used
/// twice. Each names its group.
pub(super) fn check_groups(g: &Graph) -> Vec<GraphError> {
    let mut errors = Vec::new();
    let mut seen = BTreeSet::new();
    for grp in &g.groups {
        let mut fail = |message: String| errors.push(GraphError { node: None, node_label: format!("group '{}' {}", grp.label, grp.id), message, missing_input: None });
        if g.node(grp.id).is_some() || g.groups.iter().filter(|o| o.id == grp.id).count() > 1 {
            fail(format!("the id {} is used by another node or group", grp.id));
        }
        for m in &grp.members {
            if g.node(*m).is_none() {
                fail(format!("member {m} does not exist"));
            } else if !seen.insert(*m) {
                fail(format!("member {m} is in another group too"));
            }
        }
        let kind = |id: NodeId| g.node(id).filter(|_| grp.members.contains(&id)).map(|n| n.kind);
        for (list, what, has) in [(&grp.inputs, "input", true), (&grp.outputs, "output", false)] {
            for p in list {
                let ok = kind(p.node).is_some_and(|k| if has { k.meta().inputs.iter().any(|i| i.name == p.port) } else { k.meta().outputs.iter().any(|o| o.name == p.port) });
                if !ok {
                    fail(format!("{what} '{}' stands for {}.{}, which is no {what} of a member", p.name, p.node, p.port));
                }
            }
            if let Some(dup) = list.iter().enumerate().find(|(k, p)| list[..*k].iter().any(|q| q.name == p.name)) {
                fail(format!("the {what} name '{}' is used twice", dup.1.name));
            }
        }
        for p in &grp.params {
            if kind(p.node).is_none_or(|k| k.param(&p.param).is_none()) {
                fail(format!("parameter '{}' stands for {}.{}, which is no parameter of a member", p.name, p.node, p.param));
            }
        }
    }
    errors
}

/// Adds member port `node.port` to a group's `ports` under a name not taken yet (`title` is
/// the member's title, added when the port's name is taken).
pub fn add_port(ports: &mut Vec<GroupPort>, node: NodeId, port: &str, title: &str) {
    if ports.iter().any(|p| p.node == node && p.port == port) {
        return;
    }
    let taken: Vec<String> = ports.iter().map(|p| p.name.clone()).collect();
    ports.push(GroupPort { name: unique_name(&taken, port, title), node, port: port.to_string() });
}

#[cfg(test)]
#[path = "group_tests.rs"]
mod tests;
