//! Close-up figures for `planetgraph bench` (issue 25): the region evaluation of one close-up
//! tile of the default graph, its assembly for the renderer, a viewport frame with the patch
//! drawn (lavapipe on a machine without a GPU), and the same for every tile of a tilted view's
//! quadtree.

use super::bench::time_ms;
use planetgraph_core::eval::{compile_for, Evaluator, Progress, Request};
use planetgraph_core::inspect::CloseUp;
use planetgraph_core::nodes::output::planet::PlanetSettings;
use planetgraph_core::nodes::NodeKind;
use planetgraph_core::planet::{Face, Tile};
use planetgraph_renderer::quadtree::{tiles_for_view, TILE_CELLS};
use planetgraph_renderer::OrbitCamera;
use std::sync::atomic::AtomicBool;

/// The level of the tiles `closeup_tile_s` and the frames measure (kept at 16384, the finest
/// level close-ups had when these figures started, so they stay comparable).
const LEVEL: usize = 16384;

/// The figures this module prints.
const NAMES: [&str; 11] = [
    "closeup_first_tile_ms",
    "closeup_tile_s",
    "closeup_assemble_ms",
    "closeup_frame_1600x900_ms",
    "closeup_frame_streaming_1600x900_ms",
    "closeup_view_tiles",
    "closeup_view_s",
    "closeup_frame_view_1600x900_ms",
    "closeup_mesh_view_ms",
    "closeup_mesh_view_morph_ms",
    "closeup_mesh_view_triangles",
];

/// The figures of the tilted view.
const VIEW_NAMES: [&str; 6] = ["closeup_view_tiles", "closeup_view_s", "closeup_frame_view_1600x900_ms", "closeup_mesh_view_ms", "closeup_mesh_view_morph_ms", "closeup_mesh_view_triangles"];

/// The tilted view whose whole quadtree `closeup_view_s` evaluates: 1.05 radii over the front
/// face's centre, tilted 60 degrees towards the horizon.
fn tilted_view() -> OrbitCamera {
    OrbitCamera { distance: 1.05, yaw: 0.0, pitch: 0.0, tilt: 60f32.to_radians(), ..Default::default() }
}

/// Prints `closeup_tile_s` (the tile of 512 x 512 cells at level 16384 at the centre of the
/// front face, the whole-planet nodes cached from an evaluation at 256), `closeup_assemble_ms`
/// (its elevation, colours and normals for the renderer), `closeup_frame_1600x900_ms` (one
/// frame at 1.02 radii over it, the patch drawn), `closeup_frame_streaming_1600x900_ms` (the
/// same frames while the next tile is evaluated on another thread), and for the tilted view
/// ([`tilted_view`]) at 1600 x 900: `closeup_view_tiles` (its quadtree's tiles),
/// `closeup_view_s` (all of them evaluated and assembled, one after another),
/// `closeup_frame_view_1600x900_ms` (a frame with all of them drawn), `closeup_mesh_view_ms`
/// (the viewport's mesh over all of them) and `closeup_mesh_view_morph_ms` (the same mesh as
/// it is built when the last of them lands: noting the relief without it, for the morph), and
/// `closeup_mesh_view_triangles` (that mesh's triangles, skirts included).
pub fn run(quick: bool, wants: &dyn Fn(&str) -> bool, print: &dyn Fn(&str, f64, &str), median: &dyn Fn(Vec<f64>) -> f64) {
    if !NAMES.iter().any(|n| wants(n)) {
        return;
    }
    let reps = if quick { 1 } else { 3 };
    let cancel = AtomicBool::new(false);
    let Ok(g) = planetgraph_examples::default_graph() else { return };
    let Some(planet) = g.first_of(NodeKind::Planet) else { return };
    let Ok(settings) = planet.settings::<PlanetSettings>() else { return };
    let program = compile_for(&g, &[planet.id]);
    let mut ev = Evaluator::new();
    let whole = ev.run(&program, &Request::whole(256), &cancel, &Progress::default());
    let Some(field) = whole.field(planet.id).cloned() else { return };
    if wants("closeup_first_tile_ms") {
        first_tile(&field, &program, planet.id, &settings, reps, print, median);
    }
    let start = (LEVEL - TILE_CELLS) / 2;
    let Ok(tile) = Tile::new(Face::Front, LEVEL, start, start, TILE_CELLS) else { return };
    let mut last = None;
    let times: Vec<f64> = (0..reps).map(|_| time_ms(|| last = Some(ev.run(&program, &Request::region(CloseUp::grid(tile), 256), &cancel, &Progress::default())))).collect();
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
    let near = OrbitCamera { distance: 1.02, yaw: 0.0, pitch: 0.0, ..Default::default() };
    if wants("closeup_frame_1600x900_ms") || wants("closeup_frame_streaming_1600x900_ms") {
        let mut frame = match frame_drawer(&field, std::slice::from_ref(&close), settings.radius_km, near) {
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
            // Frames drawn while the next tile (the one beside it) is evaluated on another
            // thread, as the viewport draws while its evaluation thread works on a close-up.
            let Ok(next) = Tile::new(Face::Front, LEVEL, start + TILE_CELLS, start, TILE_CELLS) else { return };
            let done = AtomicBool::new(false);
            let times = std::thread::scope(|s| {
                s.spawn(|| {
                    drop(ev.run(&program, &Request::region(CloseUp::grid(next), 256), &cancel, &Progress::default()));
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
    if !VIEW_NAMES.iter().any(|n| wants(n)) {
        return;
    }
    let view = tilted_view();
    let tiles = tiles_for_view(&view, 1600, 900, 256);
    if wants("closeup_view_tiles") {
        print("closeup_view_tiles", tiles.len() as f64, "tiles");
    }
    let mut all = Vec::new();
    let ms = time_ms(|| {
        all = tiles.iter().filter_map(|&t| CloseUp::from_result(&ev.run(&program, &Request::region(CloseUp::grid(t), 256), &cancel, &Progress::default()), planet.id, &settings, 20.0, true).ok()).collect();
    });
    if wants("closeup_view_s") {
        print("closeup_view_s", ms / 1e3, "s");
    }
    if wants("closeup_frame_view_1600x900_ms") {
        match frame_drawer(&field, &all, settings.radius_km, view) {
            Ok(mut frame) => print("closeup_frame_view_1600x900_ms", median((0..reps.max(3)).map(|_| frame()).collect()), "ms"),
            Err(e) => eprintln!("closeup_frame_view_1600x900_ms skipped: {e}"),
        }
    }
    if wants("closeup_mesh_view_ms") || wants("closeup_mesh_view_morph_ms") || wants("closeup_mesh_view_triangles") {
        use planetgraph_renderer::{view_mesh, DetailPatch, MeshOptions, ViewSettings};
        fn layered(close: &[CloseUp]) -> Vec<DetailPatch<'_>> {
            DetailPatch::layered(close.iter().map(|c| DetailPatch::on_tile(c.tile, &c.elevation_m, None, None)).collect())
        }
        let (patches, before) = (layered(&all), layered(&all[..all.len().saturating_sub(1)]));
        let settings_view = ViewSettings { camera: view, ..Default::default() };
        let mesh_ms = |previous: Option<&[DetailPatch]>| median((0..reps.max(3)).map(|_| time_ms(|| drop(std::hint::black_box(view_mesh(&field, settings.radius_km, &MeshOptions::default(), &settings_view, &patches, previous))))).collect());
        print("closeup_mesh_view_ms", mesh_ms(None), "ms");
        print("closeup_mesh_view_morph_ms", mesh_ms(Some(&before)), "ms");
        let triangles = view_mesh(&field, settings.radius_km, &MeshOptions::default(), &settings_view, &patches, None).triangles.len() / 3;
        print("closeup_mesh_view_triangles", triangles as f64, "triangles");
    }
}

/// Draws (and reads back) a frame from `camera` with the close-ups' patches drawn, and
/// returns its milliseconds, each time it is called.
fn frame_drawer<'a>(field: &planetgraph_core::planet::Field, close: &'a [CloseUp], radius_km: f32, camera: OrbitCamera) -> Result<impl FnMut() -> f64 + 'a, anyhow::Error> {
    use planetgraph_renderer::{headless_device, view_mesh, DetailPatch, MeshOptions, PlanetRenderer, ViewSettings};
    let (device, queue) = headless_device()?;
    let mut r = PlanetRenderer::new(&device);
    let view = ViewSettings { camera, ..Default::default() };
    let patches = DetailPatch::layered(close.iter().map(|c| DetailPatch::on_tile(c.tile, &c.elevation_m, c.albedo.as_deref(), Some(&c.normals))).collect());
    r.set_mesh(&device, &view_mesh(field, radius_km, &MeshOptions::default(), &view, &patches, None));
    r.set_patches(&device, &queue, &patches);
    Ok(move || {
        time_ms(|| {
            r.render(&device, &queue, 1600, 900, &view);
            std::hint::black_box(r.read_pixels(&device, &queue).ok());
        })
    })
}

/// Prints `closeup_first_tile_ms`: from a camera move to 1.05 radii over land (straight down
/// over the land cell of median height of the viewport's evaluation at 256) to the first tile
/// on screen, as the editor makes it: the first of the view's quadtree (nearest the picture's
/// centre), its region evaluated with the whole-planet nodes cached at 256 (a fresh evaluator
/// holding only that evaluation, as the editor's thread holds its last one), then assembled
/// for the renderer.
fn first_tile(field: &planetgraph_core::planet::Field, program: &planetgraph_core::eval::Program, planet: planetgraph_core::graph::NodeId, settings: &PlanetSettings, reps: usize, print: &dyn Fn(&str, f64, &str), median: &dyn Fn(Vec<f64>) -> f64) {
    let n = field.n();
    let mut land: Vec<(f32, usize)> = field.data().iter().enumerate().filter(|(_, h)| **h > 0.0).map(|(c, h)| (*h, c)).collect();
    land.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let Some(&(_, cell)) = land.get(land.len() / 2) else {
        eprintln!("closeup_first_tile_ms skipped: the default planet has no land");
        return;
    };
    let mut camera = OrbitCamera { distance: 1.05, ..Default::default() };
    camera.face(planetgraph_core::planet::Cell::from_index(cell, n).direction(n));
    let cancel = AtomicBool::new(false);
    let mut times = Vec::new();
    for _ in 0..reps {
        let mut ev = Evaluator::new();
        drop(ev.run(program, &Request::whole(n), &cancel, &Progress::default()));
        times.push(time_ms(|| {
            let tiles = tiles_for_view(&camera, 1600, 900, n);
            if let Some(&tile) = tiles.first() {
                let res = ev.run(program, &Request::region(CloseUp::grid(tile), n), &cancel, &Progress::default());
                drop(CloseUp::from_result(&res, planet, settings, 20.0, true));
            }
        }));
    }
    print("closeup_first_tile_ms", median(times), "ms");
}
