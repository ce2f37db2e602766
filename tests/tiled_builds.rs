//! Tiled builds (`build --memory`): within the cap they write the bytes of a whole build; above
//! it, the files of a region evaluation of the whole grid; a budget too small is refused before
//! any work.

use planetgraph_core::eval::{compile_for, Evaluator, Progress, Request};
use planetgraph_core::export::tiled::TilePlan;
use planetgraph_core::export::{export_graph_planned, jobs_from_result, share, write_exports, Control, ExportContext, ExportProgress, Manifest, Share};
use planetgraph_core::graph::Graph;
use planetgraph_core::io::{load_graph, Strictness};
use planetgraph_core::nodes::output::planet::PlanetSettings;
use planetgraph_core::nodes::NodeKind;
use planetgraph_core::planet::Grid;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;

#[path = "common/folders.rs"]
mod folders;
#[path = "common/own_levels.rs"]
mod own_levels;

/// Every data layer, normal map, mesh (GLB and OBJ, textured, with the sea) and format of
/// `graphs/export_all.ron`, with an automatic value mapping and a whole-planet node (Slope)
/// between the source and an export.
fn every_export() -> Graph {
    load_graph(Path::new("graphs/export_all.ron"), Strictness::Complete).expect("loads")
}

fn build(g: &Graph, out: &Path, n: usize, plan: Option<TilePlan>) -> Manifest {
    build_share(g, out, n, plan, None)
}

fn build_share(g: &Graph, out: &Path, n: usize, plan: Option<TilePlan>, share: Option<Share>) -> Manifest {
    let cancel = AtomicBool::new(false);
    export_graph_planned(g, Path::new("test.ron"), out, n, share, plan, &cancel, &Progress::default(), &ExportProgress::default()).expect("builds")
}

/// The same files with the same bytes; the manifests without their timings and the tiled
/// build's plan.
fn same_files(a: &Path, b: &Path) {
    folders::assert_same(a, b, &["timings_ms", "whole_planet_level", "tile_cells"]);
}

#[test]
fn within_the_cap_a_tiled_build_writes_the_bytes_of_a_whole_build() {
    let dir = tempfile::tempdir().expect("tempdir");
    let n = 64;
    // A cache of four colour tiles: tiles are evicted and evaluated again as files sweep.
    let plan = TilePlan { n, cap: n, tile: 16, cache_bytes: 4 * 12 * 16 * 16, estimate_bytes: 0 };
    for (name, g) in [("exports", every_export()), ("default", planetgraph_examples::default_graph().expect("default"))] {
        let (whole, tiled) = (dir.path().join(format!("{name}_whole")), dir.path().join(format!("{name}_tiled")));
        let a = build(&g, &whole, n, None);
        let b = build(&g, &tiled, n, Some(plan));
        assert_eq!(a.whole_planet_level, None);
        assert_eq!((b.whole_planet_level, b.tile_cells), (Some(n), Some(16)));
        assert!(a.files.len() >= 9, "{name}: {} files", a.files.len());
        same_files(&whole, &tiled);
    }
}

/// Whole-planet nodes with a level of their own (a wide Blur, Precipitation) run there in a
/// tiled build, said in the manifest, and within the cap the files keep the whole build's bytes.
#[test]
fn nodes_with_their_own_level_run_there_and_keep_the_whole_build_s_bytes() {
    use planetgraph_core::nodes::climate::precipitation::PRECIPITATION;
    use planetgraph_core::nodes::output::planet::{ALBEDO, ELEVATION};
    use planetgraph_core::nodes::texture::colour_ramp::COLOUR;
    use planetgraph_core::nodes::{ParamValue, FIELD_IN, FIELD_OUT};
    let (mut g, _, blur, rain) = own_levels::noise_blur_rain();
    let ramp = g.add_node(NodeKind::ColourRamp, (2.0, 1.0));
    let planet = g.add_node(NodeKind::Planet, (3.0, 0.0));
    g.set_param(ramp, "max", ParamValue::Float(3000.0));
    g.link(rain, PRECIPITATION, ramp, FIELD_IN).expect("link");
    g.link(blur, FIELD_OUT, planet, ELEVATION).expect("link");
    g.link(ramp, COLOUR, planet, ALBEDO).expect("link");
    let dir = tempfile::tempdir().expect("tempdir");
    let n = 256;
    let (whole, tiled) = (dir.path().join("whole"), dir.path().join("tiled"));
    let a = build(&g, &whole, n, None);
    let b = build(&g, &tiled, n, Some(TilePlan { n, cap: n, tile: 64, cache_bytes: 64 << 20, estimate_bytes: 0 }));
    assert!(a.own_levels.is_empty());
    // 6 degrees: 2.1 cells of standard deviation at 32; the climate at 128.
    let expected: std::collections::BTreeMap<String, usize> = [(g.describe_node(blur), 32), (g.describe_node(rain), 128)].into_iter().collect();
    assert_eq!(b.own_levels, expected);
    folders::assert_same(&whole, &tiled, &["timings_ms", "whole_planet_level", "tile_cells", "own_levels"]);
}

#[test]
fn above_the_cap_the_files_are_the_region_evaluation_of_the_whole_grid() {
    let dir = tempfile::tempdir().expect("tempdir");
    let g = planetgraph_examples::default_graph().expect("default");
    let (n, cap) = (128, 64);
    let tiled = dir.path().join("tiled");
    let m = build(&g, &tiled, n, Some(TilePlan { n, cap, tile: 32, cache_bytes: 8 << 20, estimate_bytes: 0 }));
    assert_eq!(m.whole_planet_level, Some(cap));
    // The reference: the whole grid evaluated as one region with the same cap, written as a
    // whole build writes its result.
    let planet = g.first_of(NodeKind::Planet).expect("planet");
    let program = compile_for(&g, &[planet.id]);
    let res = Evaluator::new().run(&program, &Request::region(Grid::Whole(n), cap), &AtomicBool::new(false), &Progress::default());
    assert!(res.errors.is_empty(), "{:?}", res.errors);
    let jobs = jobs_from_result(&g, &res).expect("jobs");
    let settings: PlanetSettings = planet.settings().expect("settings");
    let ctx = ExportContext { graph: "test.ron".into(), graph_sha256: String::new(), resolution: n, planet: Some(settings), timings_ms: Default::default(), share: None, tiled: None, own_levels: Default::default() };
    let reference = dir.path().join("reference");
    write_exports(&reference, &jobs, &ctx, &Control { cancel: &AtomicBool::new(false), progress: &ExportProgress::default() }).expect("writes");
    same_files(&reference, &tiled);
}

#[test]
fn tiled_shares_merge_into_the_single_tiled_build() {
    let dir = tempfile::tempdir().expect("tempdir");
    let g = every_export();
    let n = 64;
    let plan = TilePlan { n, cap: 32, tile: 16, cache_bytes: 1 << 20, estimate_bytes: 0 };
    let single = dir.path().join("single");
    build(&g, &single, n, Some(plan));
    let shares: Vec<_> = (0..3).map(|k| dir.path().join(format!("share{k}"))).collect();
    for (k, d) in shares.iter().enumerate() {
        build_share(&g, d, n, Some(plan), Some(Share { index: k, count: 3 }));
    }
    let merged = dir.path().join("merged");
    share::merge(&shares, &merged, &Control { cancel: &AtomicBool::new(false), progress: &ExportProgress::default() }).expect("merges");
    same_files(&single, &merged);
    // The shares split the range's tiles too: beyond the tiles its files read, each share
    // evaluated only its part, so some share saw a narrower range of a value than the planet
    // holds; merge joined them into the single build's ranges (compared above).
    let records: Vec<share::ShareRecord> = (0..3).map(|k| serde_json::from_slice(&std::fs::read(shares[k].join(format!("share_{}_of_3.json", k + 1))).expect("record")).expect("parses")).collect();
    let whole: Vec<Option<[f32; 2]>> = (0..records[0].ranges.jobs.len()).map(|j| records.iter().filter_map(|r| r.ranges.jobs[j]).reduce(|a, b| [a[0].min(b[0]), a[1].max(b[1])])).collect();
    assert!(whole.iter().any(Option::is_some), "tiled scalar exports");
    let narrower = records.iter().any(|r| r.ranges.jobs.iter().zip(&whole).any(|(part, all)| part.is_some() && part != all));
    assert!(narrower, "every share evaluated every tile");
}

#[test]
fn a_tiled_build_writes_meshes_from_its_tiles() {
    // Above the cap as well: the GLB holds every face's chunks and textures, with the field's
    // range over every tile in the manifest.
    let dir = tempfile::tempdir().expect("tempdir");
    let g = every_export();
    let n = 64;
    let m = build(&g, dir.path(), n, Some(TilePlan { n, cap: 32, tile: 16, cache_bytes: 1 << 20, estimate_bytes: 0 }));
    let entry = m.files.iter().find(|f| f.path == "planet.glb").expect("the GLB is written");
    let bytes = std::fs::read(dir.path().join("planet.glb")).expect("reads");
    let glb = gltf::Gltf::from_slice(&bytes).expect("a valid GLB");
    assert_eq!(glb.images().count(), 6);
    // Two chunks per face edge and a sea per face.
    assert_eq!(glb.nodes().count(), 6 * 4 + 6);
    let range = entry.data_range.expect("range");
    assert!(range[0] < 0.0 && range[1] > 0.0, "{range:?}");
    assert!(m.files.iter().any(|f| f.path == "planet_obj.obj") && dir.path().join("planet_obj_albedo_face5_bottom.png").exists());
}

#[test]
fn a_budget_below_one_tile_is_refused_before_any_work_with_exit_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let run = |memory: &str| Command::new(env!("CARGO_BIN_EXE_planetgraph")).args(["build", "graphs/default.ron", "--resolution", "1024", "--memory", memory, "--out"]).arg(&out).output().expect("runs");
    let o = run("0.01");
    let text = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(text.contains("graphs/default.ron") && text.contains("memory budget of 10 MiB is below"), "{text}");
    assert!(!out.exists(), "nothing is written");
    for bad in ["0", "-1", "nan", "2000"] {
        let o = run(bad);
        assert_eq!(o.status.code(), Some(2), "--memory {bad}: {}", String::from_utf8_lossy(&o.stderr));
    }
}

#[test]
fn a_cancelled_tiled_build_leaves_no_manifest_and_no_partial_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let g = planetgraph_examples::default_graph().expect("default");
    let n = 256;
    let plan = TilePlan { n, cap: 128, tile: 32, cache_bytes: 8 << 20, estimate_bytes: 0 };
    let cancel = AtomicBool::new(false);
    let export = ExportProgress::default();
    let result = std::thread::scope(|s| {
        // Cancels once the first file is being written, so tiles are being evaluated.
        s.spawn(|| {
            while export.rows_done.load(std::sync::atomic::Ordering::Relaxed) == 0 {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        export_graph_planned(&g, Path::new("test.ron"), dir.path(), n, None, Some(plan), &cancel, &Progress::default(), &export)
    });
    assert!(result.as_ref().is_err_and(|e| e.is_cancelled()), "{result:?}");
    let left: Vec<String> = std::fs::read_dir(dir.path()).expect("folder").map(|e| e.expect("entry").file_name().to_string_lossy().to_string()).collect();
    assert!(left.iter().all(|name| !name.ends_with(".part") && name != "manifest.json"), "{left:?}");
}

/// The tile cache holds a ring of colour tiles, so a strip of an equirectangular image does not
/// evaluate its tiles again for every strip (a 16384 build's colour image crawled with 42 tiles
/// of cache against a ring of 64 and more).
#[test]
fn the_tile_cache_holds_a_ring_of_tiles_around_the_planet() {
    let g = planetgraph_examples::default_graph().expect("default");
    let planet = g.first_of(NodeKind::Planet).expect("planet").id;
    let program = compile_for(&g, &[planet]);
    for n in [8192, 16384] {
        let plan = planetgraph_core::export::tiled::plan(n, &program, 4 << 30).expect("plans").expect("tiled");
        eprintln!("{n}: whole-planet nodes at {}, cache {} MiB, estimate {} MiB", plan.cap, plan.cache_bytes >> 20, plan.estimate_bytes >> 20);
        let per_face = (n / plan.tile) as u64;
        assert!(plan.cache_bytes >= 6 * per_face * 12 * (plan.tile * plan.tile) as u64, "{n}: {plan:?}");
        assert!(plan.estimate_bytes <= 4 << 30, "{n}: {plan:?}");
    }
}

/// Above the cap, Warp reads its input at the build's level where its points move to, so a
/// tiled build of a warped noise writes the bytes of a whole build at that level; Curvature
/// reads the tile's own relief and the capped run's surroundings (kept for it), and builds.
#[test]
fn above_the_cap_warp_and_curvature_refine_on_the_build_s_tiles() {
    use planetgraph_core::nodes::output::planet::{ALBEDO, ELEVATION};
    use planetgraph_core::nodes::texture::colour_ramp::COLOUR;
    use planetgraph_core::nodes::{ParamValue, FIELD_IN, FIELD_OUT};
    let mut g = Graph::default();
    let noise = g.add_node(NodeKind::Noise, (0.0, 0.0));
    let warp = g.add_node(NodeKind::Warp, (1.0, 0.0));
    let planet = g.add_node(NodeKind::Planet, (2.0, 0.0));
    g.set_param(noise, "octaves", ParamValue::Int(9));
    g.link(noise, FIELD_OUT, warp, planetgraph_core::nodes::modify::warp::INPUT).expect("link");
    g.link(warp, FIELD_OUT, planet, ELEVATION).expect("link");
    // Warp reads its input on tiles only: a tiled build keeps its output (the Planet node reads
    // it), not its input.
    let kept = |g: &Graph| {
        let program = compile_for(g, &[planet]);
        planetgraph_core::eval::frontier(&program, &planetgraph_core::eval::localities(&program))
    };
    assert_eq!(kept(&g), vec![warp]);
    let dir = tempfile::tempdir().expect("tempdir");
    let (n, cap) = (128, 32);
    let plan = TilePlan { n, cap, tile: 32, cache_bytes: 8 << 20, estimate_bytes: 0 };
    let (whole, tiled) = (dir.path().join("whole"), dir.path().join("tiled"));
    build(&g, &whole, n, None);
    let m = build(&g, &tiled, n, Some(plan));
    assert_eq!(m.whole_planet_level, Some(cap));
    same_files(&whole, &tiled);

    let curvature = g.add_node(NodeKind::Curvature, (1.0, 1.0));
    let ramp = g.add_node(NodeKind::ColourRamp, (2.0, 1.0));
    g.set_param(ramp, "min", ParamValue::Float(-0.05));
    g.set_param(ramp, "max", ParamValue::Float(0.05));
    g.link(noise, FIELD_OUT, curvature, FIELD_IN).expect("link");
    g.link(curvature, planetgraph_core::nodes::masks::curvature::CURVATURE, ramp, FIELD_IN).expect("link");
    g.link(ramp, COLOUR, planet, ALBEDO).expect("link");
    // Curvature reads its input's whole-planet values: the run's noise is kept for it.
    assert_eq!(kept(&g), vec![noise, warp, curvature]);
    let m = build(&g, &dir.path().join("curvature"), n, Some(plan));
    assert_eq!(m.whole_planet_level, Some(cap));
}
