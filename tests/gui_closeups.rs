//! Close-ups in the editor's viewport (issue 25, item 3): a camera near the ground gets the
//! tiles under the picture evaluated in the background at a finer level, nearest the centre
//! first, without holding the editor; a camera that moves on gets its own; an edit of the graph
//! drops them.

#[path = "common/driver.rs"]
mod driver;

use driver::{wait_until, Driver};
use planetgraph_core::nodes::NodeKind;
use planetgraph_renderer::quadtree::tiles_for_view;

/// The tiles the viewport's camera wants now.
fn wanted(d: &Driver, n: usize) -> Vec<planetgraph_core::planet::Tile> {
    let rect = d.app.viewport.picture_rect();
    let ppp = d.ctx.pixels_per_point();
    tiles_for_view(&d.app.viewport.view.camera, (rect.width() * ppp) as u32, (rect.height() * ppp) as u32, n)
}

/// Whether every tile the camera wants is on screen and nothing is being evaluated.
fn settled(d: &Driver, n: usize) -> bool {
    let shown: Vec<_> = d.app.viewport.closeups.current().iter().map(|c| c.tile).collect();
    !d.app.is_evaluating() && wanted(d, n).iter().all(|t| shown.contains(t))
}

/// The noise planet evaluated for a viewport of 64 cells per face edge and on screen.
fn planet_on_screen() -> Driver {
    let mut d = Driver::new();
    d.app.pipeline.res.viewport = 64;
    d.app.run_again();
    d.wait_for_evaluation();
    d
}

#[test]
fn a_near_camera_gets_finer_tiles_in_the_background() {
    let mut d = planet_on_screen();
    let n = d.app.viewport.field_n().expect("a planet on screen");
    assert!(d.app.viewport.closeups.current().is_empty(), "far away: no close-up");
    d.app.viewport.view.camera.distance = 1.03;
    wait_until(&mut d, "the close-ups", |d| settled(d, n));
    let close = d.app.viewport.closeups.current()[0].clone();
    assert!(close.tile.n > n && close.tile.n.is_power_of_two(), "level {} over a planet at {n}", close.tile.n);
    assert_eq!(close.elevation_m.len(), close.tile.cells());
    assert_eq!(close.normals.len(), 4 * close.tile.cells());
    assert!(close.elevation_m.iter().all(|v| v.is_finite()));
    // The camera moves on while a close-up is on its way: what lands is the new view's (the
    // request for the old tile is cancelled or its answer dropped).
    d.app.viewport.view.camera.yaw += 0.4;
    d.frames(1);
    d.app.viewport.view.camera.yaw += 0.4;
    wait_until(&mut d, "the moved camera's close-ups", |d| settled(d, n));
    let shown: Vec<_> = d.app.viewport.closeups.current().iter().map(|c| c.tile).collect();
    assert!(!shown.contains(&close.tile), "the old view's tile is gone: {shown:?}");
    // Over a cube edge (the front and right faces meet at yaw 45 degrees) both sides get tiles.
    d.app.viewport.view.camera.yaw = std::f32::consts::FRAC_PI_4;
    d.app.viewport.view.camera.pitch = 0.0;
    wait_until(&mut d, "the close-ups over the edge", |d| settled(d, n));
    let faces: std::collections::BTreeSet<usize> = d.app.viewport.closeups.current().iter().map(|c| c.tile.face.index()).collect();
    assert!(faces.len() >= 2, "{faces:?}");
    // A graph edit evaluates again, and the old close-ups go with the old planet.
    let before: Vec<f32> = d.app.viewport.closeups.current()[0].elevation_m.clone();
    let noise = d.app.doc.graph.first_of(NodeKind::Noise).expect("a Noise node").id;
    let mut g = d.app.doc.graph.clone();
    g.set_param(noise, "frequency", planetgraph_core::nodes::ParamValue::Float(3.0));
    assert!(d.app.apply_edit(g));
    d.wait_for_evaluation();
    wait_until(&mut d, "the close-ups of the new planet", |d| settled(d, n) && d.app.viewport.closeups.current()[0].elevation_m != before);
}

/// A camera zoomed into the relief, or a relief raised under it, is lifted above the ground as
/// drawn: never inside a mountain, whose inside showed skirts and back faces.
#[test]
fn the_camera_is_kept_above_the_exaggerated_relief() {
    let mut d = planet_on_screen();
    // Straight down at the middle of the land, as low as the zoom goes, on a flat planet, the
    // whole Relief drawn at any altitude.
    d.app.viewport.reset_view();
    d.app.viewport.auto_relief = false;
    d.app.viewport.mesh.exaggeration = 0.0;
    d.app.viewport.view.camera.distance = 1.0 + planetgraph_renderer::camera::MIN_ALTITUDE;
    d.frames(2);
    assert!((d.app.viewport.view.camera.distance - 1.004).abs() < 1e-6, "flat: the zoom's own floor");
    // The relief exaggerated 200 times rises under the camera, which rises with it.
    d.app.viewport.mesh.exaggeration = 200.0;
    d.frames(2);
    let lifted = d.app.viewport.view.camera.distance;
    assert!(lifted > 1.01, "lifted to {lifted}");
    // Zooming in again does not take it back into the ground.
    d.app.viewport.view.camera.zoom(2000.0);
    d.frames(2);
    assert!(d.app.viewport.view.camera.distance >= lifted - 1e-4, "{} after zooming in", d.app.viewport.view.camera.distance);
}

/// Near the ground the viewport draws less of the Relief (the mesh as built, its heights and
/// slopes scaled in the shaders); far away all of it; off, all of it everywhere.
#[test]
fn the_relief_drawn_follows_the_altitude() {
    use planetgraph_renderer::camera::relief_at;
    let mut d = planet_on_screen();
    d.app.viewport.reset_view();
    d.frames(2);
    assert_eq!(d.app.viewport.view.relief_ratio, 1.0, "a planet seen whole");
    d.app.viewport.view.camera.distance = 1.02;
    d.frames(2);
    let camera = d.app.viewport.view.camera;
    let ratio = d.app.viewport.view.relief_ratio;
    assert!((ratio - relief_at(20.0, camera.altitude()) / 20.0).abs() < 1e-6 && ratio < 0.2, "{ratio} at {}", camera.altitude());
    d.app.viewport.auto_relief = false;
    d.frames(2);
    assert_eq!(d.app.viewport.view.relief_ratio, 1.0, "off: the whole Relief");
}

#[test]
fn the_toolbar_reads_the_altitude_and_cell_size_and_reset_view_keeps_the_sun() {
    let mut d = planet_on_screen();
    let n = d.app.viewport.field_n().expect("a planet on screen");
    let km = |s: &str| -> f32 {
        let number: String = s.chars().filter(|c| c.is_ascii_digit() || *c == '.').collect();
        let v: f32 = number.parse().expect("a number");
        if s.ends_with(" m") {
            v / 1000.0
        } else {
            v
        }
    };
    let (alt, cells) = d.app.viewport.readout().expect("readouts with a planet on screen");
    // The camera starts 3.9 radii from the centre: 2.9 radii above sea level, less the ground.
    let want = 2.9 * 6371.0;
    assert!((km(&alt) - want).abs() < 0.002 * want, "{alt} against about {want} km");
    let cell = std::f32::consts::FRAC_PI_2 * 6371.0 / n as f32;
    assert!((km(&cells) - cell).abs() < 0.01 * cell, "{cells} against {cell} km at {n}");
    d.app.viewport.view.camera.distance = 1.01;
    let (alt, _) = d.app.viewport.readout().expect("readouts");
    assert!(km(&alt) < 0.011 * 6371.0, "near the ground: {alt}");

    // The sun is set over a place of the planet; Reset view moves the camera, not the sun.
    d.app.viewport.view.sun_azimuth_deg = 50.0;
    d.app.viewport.view.sun_elevation_deg = -10.0;
    d.app.viewport.reset_view();
    assert_eq!((d.app.viewport.view.sun_azimuth_deg, d.app.viewport.view.sun_elevation_deg), (50.0, -10.0));
    assert!(d.app.viewport.view.camera.distance > 3.0, "the camera went back out");
}
