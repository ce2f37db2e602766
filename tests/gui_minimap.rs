//! The minimap driven through egui input events: it shows while part of the graph is out of
//! view, a click on it centres the view there, and it hides once everything is in view.

#[path = "common/driver.rs"]
mod driver;

use driver::{wait_until, Driver};
use egui::{Key, Modifiers, PointerButton};
use planetgraph_core::graph::NodeId;

#[test]
fn the_minimap_shows_the_hidden_part_and_a_click_moves_the_view_there() {
    let mut d = Driver::new();
    // Node sizes change when the first evaluation's previews arrive: wait for them, so the
    // minimap the click aims at is the one the click lands on.
    wait_until(&mut d, "the first evaluation", |d| !d.app.is_evaluating());
    d.frames(2);
    // Zoomed out to show everything (below the zoom Home keeps for legible text).
    let all = d.app.canvas.editor.node_rects.values().copied().reduce(|a, b| a.union(b)).expect("nodes");
    d.app.canvas.editor.pan_zoom.frame(all, 30.0);
    d.frames(2);
    assert!(d.app.minimap_layout().is_none(), "everything in view: no minimap");
    // Pan far away: nothing is in view, the minimap appears.
    d.app.canvas.editor.pan_zoom.pan = egui::vec2(-3000.0, -2000.0);
    d.frames(2);
    let map = d.app.minimap_layout().expect("part of the graph out of view: a minimap");
    let node = d.app.canvas.editor.graph.iter_nodes().find(|n| d.app.canvas.editor.graph[*n].user_data.id == NodeId(5)).expect("Add #5");
    let rect = d.app.canvas.editor.node_rects[&node];
    let on_map = map.to_screen(rect.center());
    assert!(map.rect.contains(on_map));
    d.click(on_map, PointerButton::Primary);
    d.frames(2);
    // Add #5 is now at the canvas centre (within a minimap pixel's worth of graph points).
    let centre = d.app.canvas.editor.pan_zoom.to_graph() * d.app.canvas.editor.pan_zoom.clip_rect.center();
    assert!(centre.distance(rect.center()) < 30.0, "{centre:?} vs {:?}", rect.center());
    assert!(!d.app.doc.is_dirty(), "moving the view is not an edit");
}

/// The on-screen rectangles of the drawn nodes.
fn node_screen_rects(d: &Driver) -> Vec<egui::Rect> {
    let t = d.app.canvas.editor.pan_zoom.to_screen();
    d.app.canvas.editor.node_rects.values().map(|r| t * *r).collect()
}

#[test]
fn the_minimap_takes_a_corner_free_of_nodes_and_folds_to_a_tab() {
    let mut d = Driver::new();
    d.key(Key::Home, Modifiers::NONE);
    d.frames(2);
    // Pan so that the graph's first node sits in the canvas's bottom-right corner: part of the
    // graph is out of view, and the default corner is covered.
    let clip = d.app.canvas.editor.pan_zoom.clip_rect;
    let first = d.app.canvas.editor.node_rects.values().map(|r| r.min).fold(egui::pos2(f32::MAX, f32::MAX), |a, b| egui::pos2(a.x.min(b.x), a.y.min(b.y)));
    let zoom = d.app.canvas.editor.pan_zoom.zoom;
    d.app.canvas.editor.pan_zoom.pan = (clip.right_bottom() - egui::vec2(150.0, 100.0)) - clip.min - first.to_vec2() * zoom;
    d.frames(3);
    let map = d.app.minimap_layout().expect("part of the graph out of view: a minimap");
    let covered: Vec<egui::Rect> = node_screen_rects(&d).into_iter().filter(|r| r.intersects(map.rect)).collect();
    assert!(covered.is_empty(), "the minimap {:?} covers nodes {covered:?}", map.rect);
    assert!(map.rect.right() < clip.right() - 100.0 || map.rect.bottom() < clip.bottom() - 100.0, "it left the covered corner: {:?}", map.rect);

    // The fold button in its top-right corner folds it to a tab; the tab opens it again.
    d.click(map.rect.right_top() + egui::vec2(-11.0, 11.0), PointerButton::Primary);
    d.frames(2);
    let tab = d.app.minimap_layout().expect("still shown, folded");
    assert!(tab.folded && tab.rect.width() < 100.0, "{:?}", tab.rect);
    d.click(tab.rect.center(), PointerButton::Primary);
    d.frames(2);
    assert!(!d.app.minimap_layout().expect("shown").folded);
}

#[test]
fn where_every_corner_has_nodes_the_minimap_starts_folded_and_opens_on_request() {
    let mut d = Driver::with(planetgraph_examples::default_graph().expect("the default graph"));
    d.frames(3);
    let map = d.app.minimap_layout().expect("the default graph does not fit at a legible zoom");
    let t = d.app.canvas.editor.pan_zoom.to_screen();
    let covered = d.app.canvas.editor.node_rects.values().filter(|r| (t * **r).intersects(map.rect)).count();
    assert!(map.folded, "every corner of the opening view has nodes: the minimap waits as a tab");
    assert_eq!(covered, 0, "the tab {:?} covers no node", map.rect);
    d.click(map.rect.center(), PointerButton::Primary);
    d.frames(2);
    assert!(!d.app.minimap_layout().expect("shown").folded, "opened on request, it stays open");
}
