//! The minimap driven through egui input events: it shows while part of the graph is out of
//! view, a click on it centres the view there, and it hides once everything is in view.

#[path = "common/driver.rs"]
mod driver;

use driver::Driver;
use egui::{Key, Modifiers, PointerButton};
use planetgraph::graph::NodeId;

#[test]
fn the_minimap_shows_the_hidden_part_and_a_click_moves_the_view_there() {
    let mut d = Driver::new();
    d.key(Key::Home, Modifiers::NONE);
    d.frames(2);
    assert!(d.app.minimap_layout().is_none(), "everything in view: no minimap");
    // Pan far away: nothing is in view, the minimap appears.
    d.app.editor.pan_zoom.pan = egui::vec2(-3000.0, -2000.0);
    d.frames(2);
    let map = d.app.minimap_layout().expect("part of the graph out of view: a minimap");
    let node = d.app.editor.graph.iter_nodes().find(|n| d.app.editor.graph[*n].user_data.id == NodeId(5)).expect("Add #5");
    let rect = d.app.editor.node_rects[&node];
    let on_map = map.to_screen(rect.center());
    assert!(map.rect.contains(on_map));
    d.click(on_map, PointerButton::Primary);
    d.frames(2);
    // Add #5 is now at the canvas centre (within a minimap pixel's worth of graph points).
    let centre = d.app.editor.pan_zoom.to_graph() * d.app.editor.pan_zoom.clip_rect.center();
    assert!(centre.distance(rect.center()) < 30.0, "{centre:?} vs {:?}", rect.center());
    assert!(!d.app.doc.is_dirty(), "moving the view is not an edit");
}
