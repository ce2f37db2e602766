//! The default graph reads at 1600 x 900 (issue 49): it opens, and Home shows it, at a zoom
//! where node text is at least 11 px high; its nodes sit in frames named for the stages of the
//! planet (tectonics, landscape, climate, surface, planet), each node inside exactly one frame
//! and no frame over another.

#[path = "common/driver.rs"]
mod driver;

use driver::Driver;
use egui::{Key, Modifiers};
use planetgraph_app::app::planet_app::LEGIBLE_ZOOM;

#[test]
fn the_default_graph_opens_legible_in_frames() {
    let mut d = Driver::with(planetgraph_examples::default_graph().expect("the default graph"));
    d.app.pipeline.res.preview = 32;
    d.app.pipeline.res.viewport = 32;
    d.wait_for_evaluation();
    d.frames(3);
    // egui's body text is 14 px: 11 px or more on screen.
    const { assert!(14.0 * LEGIBLE_ZOOM >= 11.0) };
    assert!(d.app.canvas.editor.pan_zoom.zoom >= LEGIBLE_ZOOM - 1e-4, "opened at zoom {}", d.app.canvas.editor.pan_zoom.zoom);
    d.key(Key::Home, Modifiers::NONE);
    d.frames(2);
    assert!(d.app.canvas.editor.pan_zoom.zoom >= LEGIBLE_ZOOM - 1e-4, "Home zoomed to {}", d.app.canvas.editor.pan_zoom.zoom);

    let g = &d.app.doc.graph;
    let labels: Vec<&str> = g.frames.iter().map(|f| f.label.as_str()).collect();
    assert_eq!(labels, ["Tectonics", "Landscape", "Climate", "Surface", "Planet"]);
    let frame_rect = |f: &planetgraph_core::graph::Frame| egui::Rect::from_min_size(egui::pos2(f.rect.0, f.rect.1), egui::vec2(f.rect.2, f.rect.3));
    for (i, a) in g.frames.iter().enumerate() {
        for b in &g.frames[i + 1..] {
            assert!(!frame_rect(a).shrink(0.5).intersects(frame_rect(b)), "frames {} and {} overlap", a.label, b.label);
        }
    }
    for (node, r) in d.app.canvas.editor.node_rects.iter() {
        let id = d.app.canvas.editor.graph[*node].user_data.id;
        let holders: Vec<&str> = g.frames.iter().filter(|f| frame_rect(f).contains_rect(*r)).map(|f| f.label.as_str()).collect();
        assert_eq!(holders.len(), 1, "{} at {r:?} lies inside {holders:?}", g.describe_node(id));
    }
    // No node covers another.
    let rects: Vec<_> = d.app.canvas.editor.node_rects.iter().map(|(node, r)| (d.app.canvas.editor.graph[*node].user_data.id, *r)).collect();
    let overlapping: Vec<String> = driver::overlaps(&rects).iter().map(|&(a, b)| format!("{} and {}", g.describe_node(a), g.describe_node(b))).collect();
    assert!(overlapping.is_empty(), "overlapping nodes: {overlapping:?}");
}
