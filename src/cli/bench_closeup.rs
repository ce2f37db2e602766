//! Close-up figures for `planetgraph bench` (issue 25): the region evaluation of one close-up
//! tile of the default graph, its assembly for the renderer, and a viewport frame with the
//! patch drawn (lavapipe on a machine without a GPU).

use crate::eval::{compile_for, Evaluator, Progress};
use crate::inspect::CloseUp;
use crate::nodes::output::planet::PlanetSettings;
use crate::nodes::NodeKind;
use crate::planet::{Face, Grid, Tile};
use crate::render::closeup::{MAX_DETAIL_LEVEL, TILE_CELLS};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn time_ms(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() * 1e3
}

/// Prints `closeup_tile_s` (the tile of 1024 x 1024 cells at level 16384 at the centre of the
/// front face, the whole-planet nodes cached from an evaluation at 256), `closeup_assemble_ms`
/// (its elevation, colours and normals for the renderer) and `closeup_frame_1600x900_ms` (one
/// frame at 1.02 radii over it, the patch drawn).
pub fn run(quick: bool, wants: &dyn Fn(&str) -> bool, print: &dyn Fn(&str, f64, &str), median: &dyn Fn(Vec<f64>) -> f64) {
    if !(wants("closeup_tile_s") || wants("closeup_assemble_ms") || wants("closeup_frame_1600x900_ms")) {
        return;
    }
    let reps = if quick { 1 } else { 3 };
    let cancel = AtomicBool::new(false);
    let Ok(g) = crate::io::default_graph() else { return };
    let Some(planet) = g.first_of(NodeKind::Planet) else { return };
    let Ok(settings) = planet.settings::<PlanetSettings>() else { return };
    let program = compile_for(&g, &[planet.id]);
    let mut ev = Evaluator::new();
    let whole = ev.run_program(&program, 256, &cancel, &Progress::default());
    let Some(field) = whole.field(planet.id).cloned() else { return };
    let start = (MAX_DETAIL_LEVEL - TILE_CELLS) / 2;
    let Ok(tile) = Tile::new(Face::Front, MAX_DETAIL_LEVEL, start, start, TILE_CELLS) else { return };
    let mut last = None;
    let times: Vec<f64> = (0..reps).map(|_| time_ms(|| last = Some(ev.run_region(&program, Grid::Tile(tile), 256, &cancel, &Progress::default())))).collect();
    if wants("closeup_tile_s") {
        print("closeup_tile_s", median(times) / 1e3, "s");
    }
    let Some(res) = last else { return };
    let mut close = None;
    let times: Vec<f64> = (0..reps).map(|_| time_ms(|| close = CloseUp::from_result(&res, planet.id, &settings, 20.0, true).ok())).collect();
    if wants("closeup_assemble_ms") {
        print("closeup_assemble_ms", median(times), "ms");
    }
    let Some(close) = close else { return };
    if wants("closeup_frame_1600x900_ms") {
        match frame_ms(&field, &close, settings.radius_km, reps.max(3)) {
            Ok(ms) => print("closeup_frame_1600x900_ms", median(ms), "ms"),
            Err(e) => eprintln!("closeup_frame_1600x900_ms skipped: {e}"),
        }
    }
}

/// Frame times at 1.02 radii over the close-up's tile, its patch drawn.
fn frame_ms(field: &crate::planet::Field, close: &CloseUp, radius_km: f32, reps: usize) -> Result<Vec<f64>, anyhow::Error> {
    use crate::render::{headless_device, view_mesh, DetailPatch, MeshOptions, OrbitCamera, PlanetRenderer, ViewSettings};
    let (device, queue) = headless_device()?;
    let mut r = PlanetRenderer::new(&device);
    // The front face's centre is +Z: yaw 0, pitch 0.
    let view = ViewSettings { camera: OrbitCamera { distance: 1.02, yaw: 0.0, pitch: 0.0, ..Default::default() }, ..Default::default() };
    let patch = DetailPatch::on_tile(close.tile, &close.elevation_m, close.albedo.as_deref(), Some(&close.normals));
    let patches = [patch];
    r.set_mesh(&device, &view_mesh(field, radius_km, &MeshOptions::default(), &view, &patches));
    r.set_patches(&device, &queue, &patches);
    Ok((0..reps)
        .map(|_| {
            time_ms(|| {
                r.render(&device, &queue, 1600, 900, &view);
                std::hint::black_box(r.read_pixels(&device, &queue).ok());
            })
        })
        .collect())
}
