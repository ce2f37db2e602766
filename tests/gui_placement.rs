//! Where pasted and duplicated nodes land, and what undo and redo say (issue 49): driven
//! through egui input events like the other GUI tests.

#[path = "common/driver.rs"]
mod driver;

use driver::{overlaps, Driver};
use egui::{Event, Key, Modifiers};
use planetgraph_core::graph::NodeId;

/// A paste with the pointer over other nodes, and a duplicate beside its originals, land clear
/// of every node on the canvas (issue 49: a paste stacked on the originals).
#[test]
fn pasted_and_duplicated_nodes_land_clear_of_the_others() {
    let mut d = Driver::new();
    d.frames(2);
    let first = NodeId(1);
    let fed = d.app.doc.graph.links.iter().find(|l| l.from == first).expect("Noise #1 feeds a node").to;
    d.app.canvas.editor.selected_nodes = d.app.canvas.editor.graph.iter_nodes().filter(|n| [first, fed].contains(&d.app.canvas.editor.graph[*n].user_data.id)).collect();
    d.frame_with(vec![Event::Copy], Modifiers::COMMAND);
    let text = d.copied.clone();
    let over = d.node_screen_rects().into_iter().find(|(id, _)| *id == first).expect("Noise #1 on screen").1.center();
    let clear_of_others = |d: &Driver, new: &[NodeId], what: &str| {
        let clash: Vec<(NodeId, NodeId)> = overlaps(&d.node_screen_rects()).into_iter().filter(|(a, b)| new.contains(a) != new.contains(b)).collect();
        assert!(clash.is_empty(), "{what}: {clash:?}");
    };
    let before = d.app.doc.graph.clone();
    d.move_to(over);
    d.frame_with(vec![Event::Paste(text)], Modifiers::COMMAND);
    d.frames(2);
    let pasted: Vec<NodeId> = d.app.doc.graph.nodes.iter().map(|n| n.id).filter(|id| before.node(*id).is_none()).collect();
    assert_eq!(pasted.len(), 2);
    clear_of_others(&d, &pasted, "pasted over Noise #1");
    let before = d.app.doc.graph.clone();
    d.key(Key::D, Modifiers::COMMAND);
    d.frames(2);
    let duplicated: Vec<NodeId> = d.app.doc.graph.nodes.iter().map(|n| n.id).filter(|id| before.node(*id).is_none()).collect();
    assert_eq!(duplicated.len(), 2);
    clear_of_others(&d, &duplicated, "duplicated");
    // Undo and redo say what they took back and brought back (issue 49, item 9).
    d.key(Key::Z, Modifiers::COMMAND);
    assert!(d.app.status().starts_with("Undid: added 2 nodes"), "{}", d.app.status());
    d.key(Key::Z, Modifiers::SHIFT | Modifiers::COMMAND);
    assert!(d.app.status().starts_with("Redid: added 2 nodes"), "{}", d.app.status());
}
