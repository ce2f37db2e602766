//! Close-ups in the editor's viewport (issue 25, item 3): a camera near the ground gets the tile
//! under the picture's centre evaluated in the background at a finer level, the answer lands
//! without holding the editor, and an edit of the graph drops it.

#[path = "common/driver.rs"]
mod driver;

use driver::{wait_until, Driver};
use planetgraph::nodes::NodeKind;

#[test]
fn a_near_camera_gets_a_finer_tile_in_the_background() {
    let mut d = Driver::new();
    d.app.res.viewport = 64;
    d.app.run_again();
    d.wait_for_evaluation();
    let n = d.app.viewport.field_n().expect("a planet on screen");
    assert!(d.app.viewport.closeups.current().is_none(), "far away: no close-up");
    d.app.viewport.view.camera.distance = 1.03;
    wait_until(&mut d, "a close-up", |d| d.app.viewport.closeups.current().is_some());
    let close = d.app.viewport.closeups.current().expect("a close-up").clone();
    assert!(close.tile.n > n && close.tile.n.is_power_of_two(), "level {} over a planet at {n}", close.tile.n);
    assert_eq!(close.elevation_m.len(), close.tile.cells());
    assert_eq!(close.normals.len(), 4 * close.tile.cells());
    assert!(close.elevation_m.iter().all(|v| v.is_finite()));
    assert!(!d.app.is_evaluating(), "the close-up's evaluation has ended");
    // The camera moves on while a close-up is on its way: the close-up that lands is the new
    // view's (the request for the old one is cancelled or its answer dropped).
    d.app.viewport.view.camera.yaw += 0.4;
    d.frames(1);
    d.app.viewport.view.camera.yaw += 0.4;
    wait_until(&mut d, "the moved camera's close-up", |d| d.app.viewport.closeups.current().is_some_and(|c| c.tile != close.tile) && !d.app.is_evaluating());
    let moved = d.app.viewport.closeups.current().expect("a close-up").tile;
    let rect = d.app.viewport.picture_rect();
    let ppp = d.ctx.pixels_per_point();
    let wanted = d.app.viewport.closeups.wanted(&d.app.viewport.view.camera, (rect.width() * ppp) as u32, (rect.height() * ppp) as u32, n);
    assert_eq!(Some(moved), wanted, "the close-up on screen is the one the camera wants now");
    // A graph edit evaluates again, and the old close-up goes with the old planet.
    let noise = d.app.doc.graph.first_of(NodeKind::Noise).expect("a Noise node").id;
    let mut g = d.app.doc.graph.clone();
    g.set_param(noise, "frequency", planetgraph::nodes::ParamValue::Float(3.0));
    assert!(d.app.apply_edit(g));
    d.wait_for_evaluation();
    wait_until(&mut d, "the close-up of the new planet", |d| d.app.viewport.closeups.current().is_some_and(|c| c.elevation_m != close.elevation_m));
}
