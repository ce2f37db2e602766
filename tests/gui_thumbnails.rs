//! Thumbnails on nodes (issue 49): sources show a thumbnail of their output with its value
//! range by default, any node's can be switched on or off from its menu (one undo step, saved
//! with the graph), and Preview nodes keep their larger picture.

#[path = "common/driver.rs"]
mod driver;

use driver::{wait_until, Driver};
use planetgraph_core::graph::Graph;
use planetgraph_core::nodes::NodeKind;

#[test]
fn sources_show_a_thumbnail_with_its_range_and_any_node_can_be_switched() {
    let mut g = Graph::default();
    let noise = g.add_node(NodeKind::Noise, (20.0, 20.0));
    let abs = g.add_node(NodeKind::Abs, (300.0, 20.0));
    let planet = g.add_node(NodeKind::Planet, (560.0, 20.0));
    let preview = g.add_node(NodeKind::Preview, (560.0, 400.0));
    g.link(noise, planetgraph_core::nodes::FIELD_OUT, abs, planetgraph_core::nodes::FIELD_IN).expect("link");
    g.link(abs, planetgraph_core::nodes::FIELD_OUT, planet, planetgraph_core::nodes::output::planet::ELEVATION).expect("link");
    g.link(abs, planetgraph_core::nodes::FIELD_OUT, preview, planetgraph_core::nodes::FIELD_IN).expect("link");
    let mut d = Driver::with(g);
    d.wait_for_evaluation();
    wait_until(&mut d, "the preview stage", |d| d.app.canvas.ed_state.previews.contains_key(&preview));
    assert!(d.app.canvas.ed_state.previews.contains_key(&noise), "a source shows its thumbnail");
    let (lo, hi) = *d.app.canvas.ed_state.thumbnail_ranges.get(&noise).expect("with its range");
    assert!(lo < 0.0 && hi > 0.0 && lo < hi, "noise spans both signs: {lo} to {hi}");
    assert!(!d.app.canvas.ed_state.previews.contains_key(&abs), "a modifier shows none by default");
    assert!(!d.app.canvas.ed_state.thumbnail_ranges.contains_key(&preview), "a Preview keeps its own picture");

    // Switched on for Abs (its range starts at 0), off for Noise; one undo step each.
    d.app.toggle_thumbnail(&[abs]);
    d.app.toggle_thumbnail(&[noise]);
    wait_until(&mut d, "the thumbnails to follow", |d| d.app.canvas.ed_state.thumbnail_ranges.contains_key(&abs) && !d.app.canvas.ed_state.previews.contains_key(&noise));
    let (lo, hi) = d.app.canvas.ed_state.thumbnail_ranges[&abs];
    assert!(lo >= 0.0 && hi > lo, "|noise| is not negative: {lo} to {hi}");
    let text = planetgraph_core::io::to_ron_string(&d.app.doc.graph).expect("ron");
    assert!(text.contains("thumbnail: Some(true)") && text.contains("thumbnail: Some(false)"), "the choices are saved:\n{text}");
    d.app.undo();
    assert_eq!(d.app.doc.graph.node(noise).and_then(|n| n.thumbnail), None, "undo takes back the last switch");
}
