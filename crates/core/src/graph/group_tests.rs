use super::*;
use crate::graph::validate;
use crate::nodes::NodeKind;

/// Noise -> Scale -> Blur -> Planet, with a Latitude feeding nothing.
fn chain() -> (Graph, [NodeId; 4]) {
    let mut g = Graph::default();
    let n = g.add_node(NodeKind::Noise, (0.0, 0.0));
    let s = g.add_node(NodeKind::ScaleBias, (260.0, 20.0));
    let b = g.add_node(NodeKind::Blur, (520.0, 40.0));
    let p = g.add_node(NodeKind::Planet, (780.0, 0.0));
    g.link(n, crate::nodes::FIELD_OUT, s, crate::nodes::FIELD_IN).expect("link");
    g.link(s, crate::nodes::FIELD_OUT, b, crate::nodes::FIELD_IN).expect("link");
    g.link(b, crate::nodes::FIELD_OUT, p, crate::nodes::output::planet::ELEVATION).expect("link");
    (g, [n, s, b, p])
}

#[test]
fn a_group_exposes_what_crosses_its_border() {
    let (mut g, [n, s, b, p]) = chain();
    let id = g.make_group(&[s, b], "Shape").expect("group");
    assert!(g.node(id).is_none() && g.next_id().0 > id.0, "the group's id is its own");
    let grp = g.group(id).expect("made");
    assert_eq!(grp.members, vec![s, b]);
    assert_eq!(grp.inputs, vec![GroupPort { name: "in".into(), node: s, port: "in".into() }]);
    assert_eq!(grp.outputs, vec![GroupPort { name: "out".into(), node: b, port: "out".into() }]);
    assert_eq!(g.layout[&id], (260.0, 20.0), "at the members' top-left corner");
    assert!(validate(&g).is_empty(), "{:?}", validate(&g));
    // Not twice, not empty, not unknown.
    assert!(matches!(g.make_group(&[b, p], "x"), Err(GroupError::Nested { .. })));
    assert_eq!(g.make_group(&[], "x"), Err(GroupError::Empty));
    assert_eq!(g.make_group(&[NodeId(77)], "x"), Err(GroupError::Unknown(NodeId(77))));
    // A group of a node with nothing linked: its required input and its output are the ports.
    let lone = g.add_node(NodeKind::Add, (0.0, 400.0));
    let g2 = g.make_group(&[lone, n], "Two").expect("group");
    let grp = g.group(g2).expect("made");
    assert_eq!(grp.inputs.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), vec!["a", "b"]);
    assert_eq!(grp.outputs.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), vec!["out"], "Noise's out is used outside");
}

#[test]
fn names_on_a_group_are_unique() {
    let mut g = Graph::default();
    let a = g.add_node(NodeKind::Noise, (0.0, 0.0));
    let b = g.add_node(NodeKind::Noise, (0.0, 100.0));
    let add = g.add_node(NodeKind::Add, (300.0, 0.0));
    g.link(a, crate::nodes::FIELD_OUT, add, crate::nodes::FIELD_A).expect("link");
    g.link(b, crate::nodes::FIELD_OUT, add, crate::nodes::FIELD_B).expect("link");
    let id = g.make_group(&[a, b], "Two noises").expect("group");
    let grp = g.group_mut(id).expect("made");
    assert_eq!(grp.outputs.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), vec!["out", "out (Noise)"]);
    grp.expose_param(a, "seed", "Seed", "Noise");
    grp.expose_param(b, "seed", "Seed", "Noise");
    grp.expose_param(b, "seed", "Seed", "Noise");
    assert_eq!(grp.params.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), vec!["Seed", "Seed (Noise)"]);
}

#[test]
fn opening_closing_and_ungrouping_move_the_nodes_with_the_group() {
    let (mut g, [_, s, b, _]) = chain();
    let id = g.make_group(&[s, b], "Shape").expect("group");
    g.layout.insert(id, (1000.0, 1000.0));
    assert!(g.set_group_open(id, true));
    assert_eq!((g.layout[&s], g.layout[&b]), ((1000.0, 1000.0), (1260.0, 1020.0)), "opened where the group node was");
    g.layout.insert(b, (1300.0, 900.0));
    assert!(g.set_group_open(id, false));
    assert_eq!(g.layout[&id], (1000.0, 900.0), "closed at the nodes' corner");
    assert!(g.ungroup(id));
    assert!(g.groups.is_empty() && !g.layout.contains_key(&id));
    assert!(!g.ungroup(id), "no such group");
}

#[test]
fn links_made_across_an_open_group_become_ports_and_deleting_a_group_deletes_its_nodes() {
    let (mut g, [n, s, b, p]) = chain();
    let id = g.make_group(&[s, b], "Shape").expect("group");
    g.set_group_open(id, true);
    let extra = g.add_node(NodeKind::Preview, (0.0, 300.0));
    g.link(s, crate::nodes::FIELD_OUT, extra, crate::nodes::FIELD_IN).expect("link");
    g.set_group_open(id, false);
    let names: Vec<&str> = g.group(id).map(|grp| grp.outputs.iter().map(|p| p.name.as_str()).collect()).unwrap_or_default();
    assert_eq!(names, vec!["out", "out (Scale and bias)"]);
    // A member deleted leaves the group; its ports go with it.
    g.remove_node(s);
    assert_eq!(g.group(id).map(|grp| (grp.members.clone(), grp.inputs.len())), Some((vec![b], 0)));
    g.remove_node(id);
    assert!(g.groups.is_empty() && g.node(b).is_none() && g.node(n).is_some() && g.node(p).is_some());
}

#[test]
fn broken_groups_in_a_file_are_errors_that_name_the_group() {
    let (mut g, [n, s, b, _]) = chain();
    let id = g.make_group(&[s, b], "Shape").expect("group");
    let good = g.clone();
    let grp = g.group_mut(id).expect("made");
    grp.id = n;
    grp.members.push(NodeId(50));
    grp.inputs.push(GroupPort { name: "in".into(), node: s, port: "nope".into() });
    grp.params.push(GroupParam { name: "k".into(), node: b, param: "colour".into() });
    let msgs: Vec<String> = validate(&g).iter().map(|e| e.to_string()).collect();
    for want in ["used by another node", "member #50 does not exist", "no input of a member", "input name 'in' is used twice", "no parameter of a member"] {
        assert!(msgs.iter().any(|m| m.starts_with("group 'Shape'") && m.contains(want)), "{want}: {msgs:?}");
    }
    assert!(validate(&good).is_empty());
}
