//! Parts of a graph: the part made of some nodes (what is copied, duplicated, or kept in a
//! closed group's editor node), renumbering a part, and merging one into a graph.

use super::{Graph, Group, Link, Node, NodeId, Reroute};
use std::collections::{BTreeMap, BTreeSet};

/// The part of `g` made of the nodes `ids`: those nodes, the links between two of them and
/// their positions. A group's id stands for the group with its nodes; a group whose nodes are
/// all taken comes along. Links from or to other nodes are left out.
pub fn subgraph(g: &Graph, ids: &[NodeId]) -> Graph {
    let mut set: BTreeSet<NodeId> = ids.iter().copied().collect();
    let members: Vec<NodeId> = g.groups.iter().filter(|grp| set.contains(&grp.id)).flat_map(|grp| grp.members.iter().copied()).collect();
    set.extend(members);
    let groups: Vec<Group> = g.groups.iter().filter(|grp| grp.members.iter().all(|m| set.contains(m))).cloned().collect();
    set.extend(groups.iter().map(|grp| grp.id));
    let mut out = Graph { nodes: g.nodes.iter().filter(|n| set.contains(&n.id)).cloned().collect(), groups, ..Graph::default() };
    out.links = g.links.iter().filter(|l| set.contains(&l.from) && set.contains(&l.to)).cloned().collect();
    out.layout = g.layout.iter().filter(|(id, _)| set.contains(id)).map(|(id, p)| (*id, *p)).collect();
    out.reroutes = g.reroutes.iter().filter(|r| out.links.iter().any(|l| l.to == r.to && l.input == r.input)).cloned().collect();
    out.normalize();
    out
}

/// The top-left corner of a graph's layout (`None` without positions).
pub fn top_left(g: &Graph) -> Option<(f32, f32)> {
    let x = g.layout.values().map(|p| p.0).reduce(f32::min)?;
    let y = g.layout.values().map(|p| p.1).reduce(f32::min)?;
    Some((x, y))
}

/// `part` with its nodes and groups numbered from `first` on (in that order), its links,
/// reroute points, groups and layout following, moved by `shift` graph points.
pub fn renumber(part: &Graph, first: u32, shift: (f32, f32)) -> Graph {
    let old_ids = part.nodes.iter().map(|n| n.id).chain(part.groups.iter().map(|grp| grp.id));
    let map: BTreeMap<NodeId, NodeId> = old_ids.enumerate().map(|(k, id)| (id, NodeId(first + k as u32))).collect();
    let new = |id: &NodeId| map.get(id).copied().unwrap_or(*id);
    let mut out = Graph { version: part.version, ..Graph::default() };
    for (k, n) in part.nodes.iter().enumerate() {
        out.nodes.push(Node { id: new(&n.id), ..n.clone() });
        // A node without a position gets one on a diagonal.
        let p = part.layout.get(&n.id).map_or((30.0 * k as f32, 30.0 * k as f32), |p| *p);
        out.layout.insert(new(&n.id), p);
    }
    out.links = part.links.iter().filter(|l| map.contains_key(&l.from) && map.contains_key(&l.to)).map(|l| Link { from: new(&l.from), to: new(&l.to), ..l.clone() }).collect();
    out.reroutes = part.reroutes.iter().map(|r| Reroute { to: new(&r.to), input: r.input.clone(), points: r.points.clone() }).collect();
    for grp in &part.groups {
        let mut grp = grp.clone();
        if let Some(p) = part.layout.get(&grp.id) {
            out.layout.insert(new(&grp.id), *p);
        }
        grp.id = new(&grp.id);
        grp.members = grp.members.iter().map(new).collect();
        grp.inputs.iter_mut().chain(grp.outputs.iter_mut()).for_each(|p| p.node = new(&p.node));
        grp.params.iter_mut().for_each(|p| p.node = new(&p.node));
        out.groups.push(grp);
    }
    for p in out.layout.values_mut() {
        *p = (p.0 + shift.0, p.1 + shift.1);
    }
    for r in &mut out.reroutes {
        r.points.iter_mut().for_each(|p| *p = (p.0 + shift.0, p.1 + shift.1));
    }
    out.normalize();
    out
}

/// Adds the nodes and groups of `part` to `g` with fresh ids (from `first_id` up, or above
/// `g`'s ids if those are higher), keeping the links, reroute points and groups among them;
/// their layout is moved so that its top-left corner lands at `at` (graph points). Returns the
/// new graph and the new ids of what the editor shows: the nodes outside closed groups, and
/// the groups.
pub fn merge(g: &Graph, part: &Graph, at: (f32, f32), first_id: u32) -> (Graph, Vec<NodeId>) {
    let shift = top_left(part).map_or(at, |(x, y)| (at.0 - x, at.1 - y));
    let part = renumber(part, g.next_id().0.max(first_id), shift);
    let hidden: BTreeSet<NodeId> = part.groups.iter().filter(|grp| !grp.open).flat_map(|grp| grp.members.iter().copied()).collect();
    let ids = part.nodes.iter().map(|n| n.id).filter(|id| !hidden.contains(id)).chain(part.groups.iter().map(|grp| grp.id)).collect();
    let mut out = g.clone();
    out.nodes.extend(part.nodes);
    out.links.extend(part.links);
    out.layout.extend(part.layout);
    out.reroutes.extend(part.reroutes);
    out.groups.extend(part.groups);
    out.normalize();
    (out, ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::validate;
    use crate::nodes::NodeKind;

    #[test]
    fn a_group_copies_with_its_nodes_and_pastes_with_fresh_ids() {
        let mut g = Graph::default();
        let a = g.add_node(NodeKind::Noise, (0.0, 0.0));
        let b = g.add_node(NodeKind::Blur, (260.0, 0.0));
        let p = g.add_node(NodeKind::Planet, (520.0, 0.0));
        g.link(a, crate::nodes::FIELD_OUT, b, crate::nodes::FIELD_IN).expect("link");
        g.link(b, crate::nodes::FIELD_OUT, p, crate::nodes::output::planet::ELEVATION).expect("link");
        g.reroutes.push(Reroute { to: b, input: "in".into(), points: vec![(130.0, 50.0)] });
        let id = g.make_group(&[a, b], "Soft noise").expect("group");
        let part = subgraph(&g, &[id]);
        assert_eq!((part.nodes.len(), part.links.len(), part.groups.len(), part.reroutes.len()), (2, 1, 1, 1));
        let (out, ids) = merge(&g, &part, (0.0, 300.0), 0);
        assert_eq!(ids.len(), 1, "only the group node is shown: {ids:?}");
        assert_eq!((out.nodes.len(), out.groups.len(), out.reroutes.len()), (5, 2, 2));
        let copy = out.group(ids[0]).expect("the copy");
        assert!(copy.members.iter().all(|m| ![a, b, p, id].contains(m)), "fresh ids");
        assert_eq!(out.layout[&copy.id], (0.0, 300.0));
        assert!(validate(&out).is_empty(), "{:?}", validate(&out));
        // Selecting every member of a group takes the group along.
        assert_eq!(subgraph(&g, &[a, b]).groups.len(), 1);
        assert!(subgraph(&g, &[a]).groups.is_empty());
    }
}
