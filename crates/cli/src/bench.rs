//! `planetgraph bench`: the figures the issues ask for, as `NAME VALUE UNIT` lines (medians).

use super::build::build_graph;
use super::CliError;
use noise::{Fbm, MultiFractal, NoiseFn, Perlin};
use planetgraph_core::eval::{Evaluator, Progress, Request};
use planetgraph_core::nodes::{NodeKind, ParamValue};
use planetgraph_core::planet::fbm::{fbm_field, noise_radius, FastFbm};
use planetgraph_core::planet::{Cell, RegionSurface};
use planetgraph_core::tectonics::{plate_elevation, ElevationSettings, PlateSettings, Plates};
use planetgraph_examples::default_graph;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Milliseconds `f` takes.
pub(super) fn time_ms(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() * 1e3
}

fn print(name: &str, value: f64, unit: &str) {
    println!("{name} {value:.2} {unit}");
}

/// Runs the benchmarks whose figure names contain `only` (all when `None`); `quick` uses
/// fewer repetitions.
pub fn run(quick: bool, only: Option<&str>) -> Result<(), CliError> {
    let wants = |name: &str| only.is_none_or(|o| name.contains(o));
    let reps = if quick { 1 } else { 5 };
    let cancel = AtomicBool::new(false);
    let progress = Progress::default();
    let g = default_graph().map_err(CliError::internal)?;

    if wants("eval_cold_default_n128") {
        let cold: Vec<f64> = (0..reps).map(|_| time_ms(|| drop(Evaluator::new().evaluate(&g, 128, &cancel, &progress)))).collect();
        print("eval_cold_default_n128", median(cold), "ms");
    }

    let planet = g.first_of(NodeKind::Planet).map(|n| n.id);
    // The first node without inputs and its first real-valued parameter.
    let source = g.nodes.iter().find(|n| n.kind.meta().inputs.is_empty()).and_then(|n| {
        let p = n.kind.params().iter().find(|p| matches!(p.spec, planetgraph_core::nodes::ParamSpec::Float { .. }))?;
        Some((n.id, p.name))
    });
    let cases = [("eval_after_output_param_n128", planet.map(|p| (p, "sea_level"))), ("eval_after_source_param_n128", source)];
    for (name, (id, param)) in cases.into_iter().filter(|(name, _)| wants(name)).filter_map(|(name, case)| Some((name, case?))) {
        let mut ev = Evaluator::new();
        let mut g2 = g.clone();
        ev.evaluate(&g2, 128, &cancel, &progress);
        let base = match g2.node(id).and_then(|n| n.params.get(param)) {
            Some(ParamValue::Float(v)) => *v,
            _ => 0.0,
        };
        let times: Vec<f64> = (0..reps.max(3))
            .map(|k| {
                g2.set_param(id, param, ParamValue::Float(base + 0.001 * (k + 1) as f32));
                time_ms(|| drop(ev.evaluate(&g2, 128, &cancel, &progress)))
            })
            .collect();
        print(name, median(times), "ms");
    }

    // The design loop: an edit of the plates' seed to the planet at preview resolution (the
    // evaluator's memory cache warm, as in the editor), and reopening the default graph with
    // the node cache on disk warm (a fresh evaluator each time: its memory cache empty, as in
    // a fresh process).
    if wants("edit_preview_ms") || wants("edit_first_picture_ms") {
        use planetgraph_core::nodes::tectonics::plates::TectonicPlatesSettings;
        if let Some((plates, settings)) = g.first_of(NodeKind::TectonicPlates).and_then(|n| Some((n.id, n.settings::<TectonicPlatesSettings>().ok()?))) {
            // As the editor's evaluation thread does: the coarse stage, then the preview.
            let coarse = 32;
            let mut ev = Evaluator::new();
            let mut g2 = g.clone();
            ev.evaluate(&g2, coarse, &cancel, &progress);
            ev.evaluate(&g2, 128, &cancel, &progress);
            let times: Vec<(f64, f64)> = (0..reps.max(3))
                .map(|k| {
                    g2.set_settings(plates, &TectonicPlatesSettings { seed: 1000 + k as u32, ..settings.clone() });
                    let mut failed = 0;
                    let first = time_ms(|| failed += ev.evaluate(&g2, coarse, &cancel, &progress).errors.len());
                    let then = time_ms(|| failed += ev.evaluate(&g2, 128, &cancel, &progress).errors.len());
                    if failed > 0 {
                        eprintln!("edit_preview_ms: {failed} nodes failed");
                    }
                    (first, first + then)
                })
                .collect();
            print("edit_first_picture_ms", median(times.iter().map(|t| t.0).collect()), "ms");
            print("edit_preview_ms", median(times.iter().map(|t| t.1).collect()), "ms");
        }
    }
    if wants("reopen_default_ms") {
        let cache_dir = std::env::temp_dir().join(format!("planetgraph-bench-cache-{}", std::process::id()));
        let disk = Some(planetgraph_core::eval::DiskCache::new(&cache_dir, planetgraph_core::eval::disk_cache::DEFAULT_CAP_BYTES));
        // The built-in copy of graphs/default.ron, parsed each time as a file would be.
        let reopen = |disk: Option<std::sync::Arc<planetgraph_core::eval::DiskCache>>| {
            time_ms(|| match default_graph() {
                Ok(g) => drop(Evaluator::new().with_disk_cache(disk).evaluate(&g, 128, &cancel, &progress)),
                Err(e) => eprintln!("reopen_default_ms: {e}"),
            })
        };
        let cold = reopen(disk.clone());
        let warm: Vec<f64> = (0..reps.max(3)).map(|_| reopen(disk.clone())).collect();
        // A scratch folder of the benchmark: leaving it behind is harmless.
        let _ = planetgraph_core::eval::disk_cache::clear(&cache_dir);
        let _ = std::fs::remove_dir(&cache_dir);
        print("reopen_default_cold_ms", cold, "ms");
        print("reopen_default_ms", median(warm), "ms");
    }

    let dir = std::env::temp_dir().join(format!("planetgraph-bench-{}", std::process::id()));
    if wants("build_default_n512") {
        let builds: Vec<f64> = (0..if quick { 1 } else { 3 }).map(|_| time_ms(|| drop(build_graph(&g, Path::new("default.ron"), &dir, 512, &cancel)))).collect();
        // A scratch folder of the benchmark: leaving it behind is harmless.
        let _ = std::fs::remove_dir_all(&dir);
        print("build_default_n512", median(builds), "ms");
    }

    if wants("noise_fbm8") {
        let n = 256;
        let cells = (6 * n * n) as f64;
        let r = noise_radius(4.0);
        let fast = FastFbm::new(3, 8, 0.5, 2.0);
        let ours: Vec<f64> = (0..reps.max(3)).map(|_| time_ms(|| drop(fbm_field(&fast, planetgraph_core::planet::Grid::Whole(n), r, 1.0)))).collect();
        print("noise_fbm8_ns_per_cell", median(ours) * 1e6 / cells, "ns");
        let reference = Fbm::<Perlin>::new(3).set_octaves(8).set_persistence(0.5).set_lacunarity(2.0).set_frequency(1.0);
        let dirs: Vec<glam::Vec3> = (0..6 * n * n).map(|c| Cell::from_index(c, n).direction(n)).collect();
        let base: Vec<f64> = (0..if quick { 1 } else { 3 })
            .map(|_| {
                time_ms(|| {
                    let mut out = vec![0.0f32; dirs.len()];
                    for (o, d) in out.iter_mut().zip(&dirs) {
                        *o = reference.get([d.x as f64 * r, d.y as f64 * r, d.z as f64 * r]) as f32;
                    }
                    std::hint::black_box(out);
                })
            })
            .collect();
        print("noise_fbm8_baseline_ns_per_cell", median(base) * 1e6 / cells, "ns");
    }

    // Tectonics: regions + plates + elevation, at 2.56 cells per region edge (n = 128 for
    // R = 50, n = 512 for R = 200).
    if wants("plates_r") {
        for (name, r, plates, n) in [("plates_r50_p50", 50usize, 50usize, 128usize), ("plates_r200_p200", 200, 200, 512)] {
            let times: Vec<f64> = (0..reps.max(3))
                .map(|_| {
                    time_ms(|| {
                        let regions = std::sync::Arc::new(RegionSurface::new(r, 0.9, 3));
                        let settings = PlateSettings { count: plates, expansion_range: 0.5, random_driven: true, max_cycles: None, seed: 11 };
                        if let Ok(p) = Plates::grow(regions, &settings) {
                            match plate_elevation(&p, &ElevationSettings::default(), n, &cancel) {
                                Ok(surface) => drop(std::hint::black_box(surface)),
                                Err(e) => eprintln!("{name}: {e}"),
                            }
                        }
                    })
                })
                .collect();
            print(name, median(times), "ms");
        }
    }
    // The default graph's Earth-like relief node alone at 512.
    if wants("earth_relief") {
        match node_seconds(&g, NodeKind::EarthRelief, 512, if quick { 1 } else { 3 }, &cancel) {
            Some(s) => print("earth_relief_n512", s * 1e3, "ms"),
            None => eprintln!("earth_relief_n512: the default graph has no Earth-like relief node with its inputs"),
        }
    }
    if wants("regions_rasterize") {
        let regions = RegionSurface::new(50, 0.9, 3);
        let values: Vec<f32> = (0..regions.len()).map(|i| (i % 7) as f32).collect();
        let times: Vec<f64> = (0..reps.max(3)).map(|_| time_ms(|| drop(regions.rasterize_hard(&values, 1024)))).collect();
        print("regions_rasterize_n1024", median(times), "ms");
        let times: Vec<f64> = (0..reps.max(3)).map(|_| time_ms(|| drop(regions.rasterize_smooth(&values, 1024)))).collect();
        print("regions_rasterize_smooth_n1024", median(times), "ms");
    }

    // Erosion on a 6 x 256^2 field (all threads): million cell-iterations (or droplet steps)
    // per second.
    let n = 256;
    let terrain = planetgraph_core::planet::Field::from_fn_dir(n, |d| 0.3 + 0.3 * (d.x * 7.0).sin() * (d.y * 5.0).cos() + 0.1 * (d.z * 17.0).sin());
    let cells = (6 * n * n) as f64;
    let none = std::sync::atomic::AtomicUsize::new(0);
    if wants("hydraulic_mcells_per_s") {
        let hs = planetgraph_core::erosion::hydraulic::HydraulicSettings { iterations: 20, ..Default::default() };
        let steps = planetgraph_core::erosion::hydraulic::steps_at(hs.iterations, n) as f64;
        let times: Vec<f64> = (0..reps.max(3)).map(|_| time_ms(|| drop(planetgraph_core::erosion::hydraulic::hydraulic(&terrain, &hs, &cancel, &none)))).collect();
        print("hydraulic_mcells_per_s", cells * steps / (median(times) * 1e3), "Mcells/s");
    }
    if wants("thermal_mcells_per_s") {
        let ts = planetgraph_core::erosion::thermal::ThermalSettings { iterations: 20, ..Default::default() };
        let steps = planetgraph_core::erosion::hydraulic::steps_at(ts.iterations, n) as f64;
        let times: Vec<f64> = (0..reps.max(3)).map(|_| time_ms(|| drop(planetgraph_core::erosion::thermal::thermal(&terrain, &ts, &cancel, &none)))).collect();
        print("thermal_mcells_per_s", cells * steps / (median(times) * 1e3), "Mcells/s");
    }
    if wants("droplet_msteps_per_s") {
        let ds = planetgraph_core::erosion::droplet::DropletSettings { density: 0.25, ..Default::default() };
        let runs: Vec<(f64, u64)> = (0..reps.max(3))
            .map(|_| {
                let mut taken = 0;
                let ms = time_ms(|| taken = planetgraph_core::erosion::droplet::droplets(&terrain, &ds, &cancel, &none).map(|r| r.steps).unwrap_or(0));
                (ms, taken)
            })
            .collect();
        let rates: Vec<f64> = runs.iter().map(|(ms, k)| *k as f64 / (ms * 1e3)).collect();
        print("droplet_msteps_per_s", median(rates), "Msteps/s");
    }
    for (name, n) in [("texture_chain_n256", 256usize), ("texture_chain_n1024", 1024)] {
        if wants(name) {
            match texture_chain_ms(&g, n, if quick { 1 } else { 3 }, &cancel) {
                Ok(ms) => print(name, ms, "ms"),
                Err(why) => eprintln!("{name}: {why}"),
            }
        }
    }
    if wants("viewport_frame_1600x900") {
        match viewport_frame_ms(&g, reps.max(3), &cancel) {
            Ok(ms) => print("viewport_frame_1600x900_ms", ms, "ms"),
            Err(e) => eprintln!("viewport_frame_1600x900_ms skipped: {e}"),
        }
    }
    super::bench_export::run(quick, &wants, &print, &median);
    super::bench_toolbox::run(quick, &wants, &print, &median);
    super::bench_closeup::run(quick, &wants, &print, &median);
    if wants("landscape_n1024_s") || wants("landscape_msteps_per_s") {
        match node_seconds(&g, NodeKind::LandscapeEvolution, 1024, if quick { 1 } else { 3 }, &cancel) {
            Some(s) => {
                print("landscape_n1024_s", s, "s");
                match landscape_cell_steps(&g, 1024) {
                    Some(steps) => print("landscape_msteps_per_s", steps as f64 / s / 1e6, "Msteps/s"),
                    None => eprintln!("landscape_msteps_per_s: the Landscape evolution node's settings do not read"),
                }
            }
            None => eprintln!("landscape_n1024_s: the default graph has no Landscape evolution node with its inputs"),
        }
    }
    if wants("landscape_n128_ms") {
        // What the editor's preview pays for the Landscape evolution after an upstream edit.
        match node_seconds(&g, NodeKind::LandscapeEvolution, 128, if quick { 1 } else { 5 }, &cancel) {
            Some(s) => print("landscape_n128_ms", s * 1e3, "ms"),
            None => eprintln!("landscape_n128_ms: the default graph has no Landscape evolution node with its inputs"),
        }
    }
    if wants("export_heights_n1024_s") {
        match export_heights_s(&g, &cancel) {
            Ok((export, upstream)) => {
                print("export_heights_n1024_s", export, "s");
                print("export_heights_upstream_n1024_s", upstream, "s");
                print("export_heights_over_upstream", export / upstream, "x");
            }
            Err(why) => eprintln!("export_heights_n1024_s: {why}"),
        }
    }
    if wants("erosion_default_n512") {
        let eroded = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("graphs/eroded_tectonic.ron");
        if let Ok(g) = planetgraph_core::io::load_graph(&eroded, planetgraph_core::io::Strictness::Complete) {
            let times: Vec<f64> = (0..if quick { 1 } else { 3 }).map(|_| time_ms(|| drop(build_graph(&g, &eroded, &dir, 512, &cancel)))).collect();
            // A scratch folder of the benchmark: leaving it behind is harmless.
            let _ = std::fs::remove_dir_all(&dir);
            print("erosion_default_n512", median(times), "ms");
        }
    }
    Ok(())
}

/// Seconds of an export of the default graph with one Export node writing the Planet's
/// elevation as six RAW 32 faces at 1024, and of evaluating what that export reads alone (one
/// run each: about half a minute apiece on 2 cores).
fn export_heights_s(g: &planetgraph_core::graph::Graph, cancel: &AtomicBool) -> Result<(f64, f64), String> {
    use planetgraph_core::export::{evaluate_exports, export_graph, tiled::DEFAULT_BUDGET, ExportProgress};
    use planetgraph_core::nodes::output::export::{ExportFormat, ExportProjection, ExportSettings, FIELD};
    let mut g2 = g.clone();
    let planet = g2.first_of(NodeKind::Planet).ok_or("the default graph has no Planet node")?.id;
    let export = g2.add_node(NodeKind::Export, (0.0, 0.0));
    let defaults: ExportSettings = g2.node(export).and_then(|n| n.settings().ok()).ok_or("the Export node's settings")?;
    g2.set_settings(export, &ExportSettings { name: "heights".into(), format: ExportFormat::Raw32, projection: ExportProjection::Faces, ..defaults });
    g2.link(planet, planetgraph_core::nodes::FIELD_OUT, export, FIELD).map_err(|e| e.to_string())?;
    let path = Path::new("default.ron");
    let mut failed = None;
    let upstream = time_ms(|| failed = evaluate_exports(&g2, path, 1024, cancel, &Progress::default()).err().map(|e| e.to_string())) / 1e3;
    // A private scratch folder, removed when it goes out of scope.
    let dir = tempfile::tempdir().map_err(|e| format!("a scratch folder: {e}"))?;
    let export = time_ms(|| {
        if let Err(e) = export_graph(&g2, path, dir.path(), 1024, None, DEFAULT_BUDGET, None, cancel, &Progress::default(), &ExportProgress::default()) {
            failed = Some(e.to_string());
        }
    }) / 1e3;
    match failed {
        Some(why) => Err(why),
        None => Ok((export, upstream)),
    }
}

/// Cell-steps of the default graph's Landscape evolution at `n` cells per face edge, all
/// levels (each level's cells times its steps).
fn landscape_cell_steps(g: &planetgraph_core::graph::Graph, n: usize) -> Option<usize> {
    use planetgraph_core::erosion::landscape::{base_steps, fine_steps, levels};
    use planetgraph_core::nodes::erosion::landscape::LandscapeEvolutionSettings;
    use planetgraph_core::nodes::params::Settings;
    let settings = LandscapeEvolutionSettings::from_params(&g.first_of(NodeKind::LandscapeEvolution)?.params).ok()?;
    let base = base_steps(f64::from(settings.time_myr));
    let fine = fine_steps(f64::from(settings.level_myr));
    Some(levels(n).iter().enumerate().map(|(k, &ln)| 6 * ln * ln * if k == 0 { base } else { fine }).sum())
}

/// Seconds of the first node of `kind` in `g` alone at `n` cells per face edge (its inputs
/// evaluated first and not counted; median of `reps` runs).
fn node_seconds(g: &planetgraph_core::graph::Graph, kind: NodeKind, n: usize, reps: usize, cancel: &AtomicBool) -> Option<f64> {
    let node = g.first_of(kind)?;
    let step = planetgraph_core::eval::compile_for(g, &[node.id]).steps.into_iter().find(|s| s.id == node.id)?;
    let feeders: Vec<planetgraph_core::graph::NodeId> = step.inputs.iter().flatten().map(|(id, _)| *id).collect();
    let res = Evaluator::new().run(&planetgraph_core::eval::compile_for(g, &feeders), &Request::whole(n), cancel, &Progress::default());
    let inputs: Vec<Option<planetgraph_core::nodes::Value>> = step.inputs.iter().map(|i| i.and_then(|(id, k)| res.output(id, k).cloned())).collect();
    let times: Vec<f64> = (0..reps.max(1))
        .map(|_| {
            let planet = planetgraph_core::eval::planet_of(g);
            let ctx = planetgraph_core::nodes::OpContext { tile: None, n, cancel, steps: None, planet: planet.as_ref(), files: &[] };
            time_ms(|| drop(std::hint::black_box(node.kind.run(&node.params, &inputs, &ctx)))) / 1e3
        })
        .collect();
    Some(median(times))
}

/// Milliseconds of the default graph's texture chain (To metres, slope, distance to coast,
/// climate, biomes, materials) at resolution `n`, fed by a noise field instead of the erosion
/// above it (median of `reps` cold runs; the noise itself not counted).
fn texture_chain_ms(g: &planetgraph_core::graph::Graph, n: usize, reps: usize, cancel: &AtomicBool) -> Result<f64, String> {
    use planetgraph_core::nodes::Category;
    let (Some(to_metres), Some(materials)) = (g.first_of(NodeKind::ToMetres), g.first_of(NodeKind::Materials)) else {
        return Err("the default graph has no To metres and Materials nodes".into());
    };
    let (to_metres, materials) = (to_metres.id, materials.id);
    let mut g2 = g.clone();
    let source = g2.add_node(NodeKind::Noise, (0.0, 0.0));
    g2.link(source, planetgraph_core::nodes::FIELD_OUT, to_metres, planetgraph_core::nodes::FIELD_IN).map_err(|e| e.to_string())?;
    g2.unlink(materials, planetgraph_core::nodes::texture::materials::WATER);
    let program = planetgraph_core::eval::compile_for(&g2, &[materials]);
    let chain = |id: &planetgraph_core::graph::NodeId| g2.node(*id).is_some_and(|node| matches!(node.kind.meta().category, Category::Masks | Category::Climate | Category::Texture) || matches!(node.kind, NodeKind::ToMetres | NodeKind::Slope));
    let times: Vec<f64> = (0..reps.max(1))
        .map(|_| {
            let r = Evaluator::new().run(&program, &Request::whole(n), cancel, &Progress::default());
            r.timings_ms.iter().filter(|(id, _)| chain(id)).map(|(_, ms)| *ms).sum()
        })
        .collect();
    Ok(median(times))
}

/// Milliseconds to draw and read back one 1600 x 900 frame of the default planet (evaluated at
/// 256, mesh 128, albedo texture) with the viewport's renderer (lavapipe on a machine without
/// a GPU: a figure to watch, not a target).
fn viewport_frame_ms(g: &planetgraph_core::graph::Graph, reps: usize, cancel: &AtomicBool) -> Result<f64, anyhow::Error> {
    use planetgraph_renderer::{build_mesh, headless_device, MeshOptions, OverlayTexture, PlanetRenderer, ViewSettings};
    let planet = g.first_of(NodeKind::Planet).ok_or_else(|| anyhow::anyhow!("no Planet node"))?.id;
    let res = Evaluator::new().evaluate(g, 256, cancel, &Progress::default());
    let field = res.field(planet).ok_or_else(|| anyhow::anyhow!("the planet did not evaluate"))?;
    let (device, queue) = headless_device()?;
    let mut r = PlanetRenderer::new(&device);
    r.set_mesh(&device, &build_mesh(field, 6371.0, &MeshOptions { resolution: 128, refine: false, ..Default::default() }));
    let albedo = res.input(planet, planetgraph_core::nodes::output::planet::ALBEDO).map(|a| planetgraph_core::inspect::albedo_image(a));
    if let Some(img) = &albedo {
        r.set_overlay(&device, &queue, Some(OverlayTexture::new(img.size, &img.rgba)?));
    }
    let view = ViewSettings::default();
    let times: Vec<f64> = (0..reps.max(1))
        .map(|_| {
            time_ms(|| {
                r.render(&device, &queue, 1600, 900, &view);
                std::hint::black_box(r.read_pixels(&device, &queue).ok());
            })
        })
        .collect();
    Ok(median(times))
}
