//! Close-up figures for `planetgraph bench` (issue 25): the region evaluation of one close-up
//! tile of the default graph, its assembly for the renderer, and a viewport frame with the
//! patch drawn (lavapipe on a machine without a GPU).

use super::bench::time_ms;
use crate::eval::{compile_for, Evaluator, Progress};
use crate::inspect::CloseUp;
use crate::nodes::output::planet::PlanetSettings;
use crate::nodes::NodeKind;
use crate::planet::{Face, Grid, Tile};
use planetgraph_render::closeup::{MAX_DETAIL_LEVEL, TILE_CELLS};
use std::sync::atomic::AtomicBool;

/// Prints `closeup_tile_s` (the tile of 1024 x 1024 cells at level 16384 at the centre of the
/// front face, the whole-planet nodes cached from an evaluation at 256), `closeup_assemble_ms`
/// (its elevation, colours and normals for the renderer), `closeup_frame_1600x900_ms` (one
/// frame at 1.02 radii over it, the patch drawn) and `closeup_frame_streaming_1600x900_ms` (the
/// same frames while the next tile is evaluated on another thread).
pub fn run(quick: bool, wants: &dyn Fn(&str) -> bool, print: &dyn Fn(&str, f64, &str), median: &dyn Fn(Vec<f64>) -> f64) {
    if !["closeup_tile_s", "closeup_assemble_ms", "closeup_frame_1600x900_ms", "closeup_frame_streaming_1600x900_ms"].iter().any(|n| wants(n)) {
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
    let wants_frames = wants("closeup_frame_1600x900_ms") || wants("closeup_frame_streaming_1600x900_ms");
    if !wants_frames {
        return;
    }
    let mut frame = match frame_drawer(&field, &close, settings.radius_km) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("closeup_frame_1600x900_ms skipped: {e}");
            return;
        }
    };
    if wants("closeup_frame_1600x900_ms") {
        print("closeup_frame_1600x900_ms", median((0..reps.max(3)).map(|_| frame()).collect()), "ms");
    }
    if wants("closeup_frame_streaming_1600x900_ms") {
        // Frames drawn while the next tile (the one beside it) is evaluated on another thread,
        // as the viewport draws while its evaluation thread works on a close-up.
        let Ok(next) = Tile::new(Face::Front, MAX_DETAIL_LEVEL, start + TILE_CELLS, start, TILE_CELLS) else { return };
        let done = AtomicBool::new(false);
        let times = std::thread::scope(|s| {
            s.spawn(|| {
                drop(ev.run_region(&program, Grid::Tile(next), 256, &cancel, &Progress::default()));
                done.store(true, std::sync::atomic::Ordering::Release);
            });
            let mut times = Vec::new();
            while !done.load(std::sync::atomic::Ordering::Acquire) {
                times.push(frame());
            }
            times
        });
        if !times.is_empty() {
            print("closeup_frame_streaming_1600x900_ms", median(times), "ms");
        }
    }
}

/// Draws (and reads back) a frame at 1.02 radii over the close-up's tile, its patch drawn, and
/// returns its milliseconds, each time it is called.
fn frame_drawer<'a>(field: &crate::planet::Field, close: &'a CloseUp, radius_km: f32) -> Result<impl FnMut() -> f64 + 'a, anyhow::Error> {
    use planetgraph_render::{headless_device, view_mesh, DetailPatch, MeshOptions, OrbitCamera, PlanetRenderer, ViewSettings};
    let (device, queue) = headless_device()?;
    let mut r = PlanetRenderer::new(&device);
    // The front face's centre is +Z: yaw 0, pitch 0.
    let view = ViewSettings { camera: OrbitCamera { distance: 1.02, yaw: 0.0, pitch: 0.0, ..Default::default() }, ..Default::default() };
    let patch = DetailPatch::on_tile(close.tile, &close.elevation_m, close.albedo.as_deref(), Some(&close.normals));
    let patches = [patch];
    r.set_mesh(&device, &view_mesh(field, radius_km, &MeshOptions::default(), &view, &patches));
    r.set_patches(&device, &queue, &patches);
    Ok(move || {
        time_ms(|| {
            r.render(&device, &queue, 1600, 900, &view);
            std::hint::black_box(r.read_pixels(&device, &queue).ok());
        })
    })
}
