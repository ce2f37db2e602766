//! Groups driven through egui input events: make a group from a selection, name it and choose
//! a parameter in its settings, edit that parameter on the group node, open and close it,
//! ungroup, undo and redo each step, save and reopen the file and evaluate it equal to the
//! ungrouped graph, save it to the library and add it again from the finder.

#[path = "common/driver.rs"]
mod driver;

use driver::Driver;
use egui::{Event, Key, Modifiers, PointerButton, Pos2};
use planetgraph_core::eval::{Evaluator, Progress};
use planetgraph_core::graph::{Graph, NodeId};
use planetgraph_core::io::{load_graph, Strictness};
use planetgraph_core::nodes::{NodeKind, ParamValue};
use std::sync::atomic::AtomicBool;

fn select(d: &mut Driver, ids: &[NodeId]) {
    d.app.canvas.editor.selected_nodes = d.app.canvas.editor.graph.iter_nodes().filter(|n| ids.contains(&d.app.canvas.editor.graph[*n].user_data.id)).collect();
    d.frames(1);
}

/// Domain ids of the editor's nodes.
fn shown(d: &Driver) -> Vec<NodeId> {
    let mut v: Vec<NodeId> = d.app.canvas.editor.graph.iter_nodes().map(|n| d.app.canvas.editor.graph[n].user_data.id).collect();
    v.sort();
    v
}

fn planet(g: &Graph, n: usize) -> Vec<f32> {
    let id = g.first_of(NodeKind::Planet).expect("planet").id;
    let r = Evaluator::new().evaluate(g, n, &AtomicBool::new(false), &Progress::default());
    assert!(r.errors.is_empty() && r.idle.is_empty(), "{:?} {:?}", r.errors, r.idle);
    r.field(id).expect("planet output").data().to_vec()
}

#[test]
fn group_edit_save_reopen_and_evaluate_like_the_ungrouped_graph() {
    let mut d = Driver::new();
    let ungrouped = d.app.doc.graph.clone();
    // Clamp #3 and Multiply #4: fed by both noises, feeding Add #5.
    let (clamp, mul) = (NodeId(3), NodeId(4));
    select(&mut d, &[clamp, mul]);
    d.key(Key::G, Modifiers::COMMAND);
    let grp = d.app.doc.graph.groups.first().cloned().unwrap_or_else(|| panic!("Ctrl+G made no group: {}", d.app.status()));
    assert_eq!(grp.members, vec![clamp, mul]);
    assert_eq!(grp.inputs.iter().map(|p| (p.node, p.port.as_str())).collect::<Vec<_>>(), vec![(clamp, "in"), (mul, "a")]);
    assert_eq!(grp.outputs.iter().map(|p| (p.node, p.port.as_str())).collect::<Vec<_>>(), vec![(mul, "out")]);
    assert!(!shown(&d).contains(&clamp) && shown(&d).contains(&grp.id), "one node stands for the group");

    // The settings window: type a name, tick Clamp's "max", OK.
    d.frame_with(vec![Event::Text("Ridge mask".into())], Modifiers::NONE);
    let boxes = d.clickables(egui::Order::Middle);
    let mut boxes: Vec<_> = boxes.into_iter().filter(|r| r.height() < 30.0).collect();
    boxes.sort_by(|a, b| a.top().total_cmp(&b.top()));
    // From the bottom: Cancel, OK, Multiply's three ports (out, b, a), then Clamp's "max".
    d.click(boxes[boxes.len() - 6].center(), PointerButton::Primary);
    d.frames(1);
    let ok = *d.clickables(egui::Order::Middle).iter().filter(|r| r.height() < 30.0).max_by(|a, b| a.top().total_cmp(&b.top()).then(b.left().total_cmp(&a.left()))).expect("OK");
    d.click(ok.center(), PointerButton::Primary);
    d.frames(1);
    let grp = d.app.doc.graph.group(grp.id).cloned().expect("group");
    assert_eq!(grp.label, "Ridge mask");
    assert_eq!(grp.params.iter().map(|p| (p.node, p.param.as_str(), p.name.as_str())).collect::<Vec<_>>(), vec![(clamp, "max", "Max")]);

    // The group node shows "Max": setting it there sets Clamp's parameter (one undo step).
    let node = d.app.canvas.editor.graph.iter_nodes().find(|n| d.app.canvas.editor.graph[*n].user_data.id == grp.id).expect("group node");
    let input = d.app.canvas.editor.graph[node].inputs.iter().find(|(name, _)| name == "Max").map(|(_, id)| *id).expect("Max on the group node");
    d.app.canvas.editor.graph[input].value.0 = Some(ParamValue::Float(0.35));
    d.frames(2);
    let set = |d: &Driver| d.app.doc.graph.node(clamp).and_then(|n| n.params.get("max").cloned());
    assert_eq!(set(&d), Some(ParamValue::Float(0.35)));
    d.key(Key::Z, Modifiers::COMMAND);
    assert_eq!(set(&d), Some(ParamValue::Float(0.5)));
    d.key(Key::Z, Modifiers::SHIFT | Modifiers::COMMAND);
    assert_eq!(set(&d), Some(ParamValue::Float(0.35)));

    // Tab opens the group (its nodes are shown and editable), Tab on one of them closes it.
    select(&mut d, &[grp.id]);
    d.key(Key::Tab, Modifiers::NONE);
    assert!(d.app.doc.graph.group(grp.id).is_some_and(|g| g.open));
    assert!(shown(&d).contains(&clamp) && !shown(&d).contains(&grp.id));
    d.key(Key::Tab, Modifiers::NONE);
    assert!(d.app.doc.graph.group(grp.id).is_some_and(|g| !g.open));
    assert!(!shown(&d).contains(&clamp) && shown(&d).contains(&grp.id));
    d.key(Key::Z, Modifiers::COMMAND);
    assert!(d.app.doc.graph.group(grp.id).is_some_and(|g| g.open), "undo reopens");
    d.key(Key::Z, Modifiers::SHIFT | Modifiers::COMMAND);

    // Save, reopen: the group is there, and the planet is exactly the ungrouped one with the
    // same parameter.
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("grouped.ron");
    assert!(d.app.save_to(&path));
    let reopened = load_graph(&path, Strictness::Complete).expect("reopens");
    assert_eq!(reopened.groups, d.app.doc.graph.groups);
    let mut same = ungrouped.clone();
    same.set_param(clamp, "max", ParamValue::Float(0.35));
    assert_eq!(planet(&reopened, 24), planet(&same, 24));
    let mut other = Driver::with(reopened.clone());
    other.wait_for_evaluation();
    assert!(shown(&other).contains(&grp.id) && !shown(&other).contains(&mul));
    assert!(!other.app.canvas.ed_state.errors.contains_key(&grp.id), "{:?}", other.app.canvas.ed_state.errors);

    // Ungroup (Ctrl+Shift+G): the nodes are back, the graph is the ungrouped one; undo, redo.
    select(&mut d, &[grp.id]);
    d.key(Key::G, Modifiers::SHIFT | Modifiers::COMMAND);
    assert!(d.app.doc.graph.groups.is_empty() && shown(&d).contains(&clamp));
    assert_eq!((&d.app.doc.graph.nodes, &d.app.doc.graph.links), (&same.nodes, &same.links));
    d.key(Key::Z, Modifiers::COMMAND);
    assert_eq!(d.app.doc.graph.groups.len(), 1);
    d.key(Key::Z, Modifiers::SHIFT | Modifiers::COMMAND);
    assert!(d.app.doc.graph.groups.is_empty());
    // Undo back to before grouping.
    for _ in 0..8 {
        d.key(Key::Z, Modifiers::COMMAND);
    }
    assert_eq!(d.app.doc.graph, ungrouped);
}

#[test]
fn a_group_saved_to_the_library_is_added_from_the_finder_with_fresh_ids() {
    let mut d = Driver::new();
    let lib = tempfile::tempdir().expect("tempdir");
    d.app.set_library_dir(Some(lib.path().to_path_buf()));
    d.app.wait_for_background_loads();
    select(&mut d, &[NodeId(3), NodeId(4)]);
    d.key(Key::G, Modifiers::COMMAND);
    d.frame_with(vec![Event::Text("Ridge mask".into())], Modifiers::NONE);
    d.key(Key::Enter, Modifiers::NONE);
    let gid = d.app.doc.graph.groups[0].id;
    assert_eq!(d.app.doc.graph.groups[0].label, "Ridge mask");
    // Right click on the group node, "Save to my groups…".
    d.frames(2);
    let t = d.app.canvas.editor.pan_zoom.to_screen();
    let node = d.app.canvas.editor.graph.iter_nodes().find(|n| d.app.canvas.editor.graph[*n].user_data.id == gid).expect("group node");
    let rect = t * d.app.canvas.editor.node_rects[&node];
    d.click(rect.center_top() + egui::vec2(0.0, 8.0), PointerButton::Secondary);
    d.frames(1);
    let mut items = d.clickables(egui::Order::Foreground);
    items.sort_by(|a, b| a.top().total_cmp(&b.top()));
    // View, Rename, Open, Settings, Ungroup, Save, Duplicate, Copy, Delete.
    assert_eq!(items.len(), 9, "{items:?}");
    d.click(items[5].center(), PointerButton::Primary);
    d.frames(1);
    assert!(lib.path().join("Ridge mask.ron").exists(), "{}", d.app.status());

    // Another document adds it from the finder: two nodes and the group, with their own ids.
    let mut e = Driver::with(Graph::default());
    e.app.set_library_dir(Some(lib.path().to_path_buf()));
    e.app.wait_for_background_loads();
    e.add_with_finder(Pos2::new(500.0, 400.0), "Ridge");
    let g = &e.app.doc.graph;
    assert_eq!((g.nodes.len(), g.groups.len()), (2, 1), "{g:?}");
    assert_eq!(g.links.len(), 1, "the link inside the group");
    assert!(planetgraph_core::graph::validate(g).iter().all(|e| e.missing_input.is_some()), "{:?}", planetgraph_core::graph::validate(g));
    let ids: Vec<NodeId> = g.nodes.iter().map(|n| n.id).chain([g.groups[0].id]).collect();
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(unique.len(), 3);
    assert_eq!(shown(&e), vec![g.groups[0].id], "it arrives closed");
    // Added twice: fresh ids again.
    e.add_with_finder(Pos2::new(500.0, 600.0), "Ridge");
    let g = &e.app.doc.graph;
    assert_eq!((g.nodes.len(), g.groups.len()), (4, 2));
    assert!(planetgraph_core::graph::validate(g).iter().all(|e| e.missing_input.is_some()));
}
