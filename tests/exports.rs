//! Exports checked by the programs that read them: `planetgraph build graphs/export_all.ron`
//! is read from its manifest alone by Python (Pillow, pypng, numpy, OpenEXR) and every GLB by
//! the Khronos glTF validator (`.ci/run` installs them: tests/clients/requirements.txt and
//! tests/clients/package.json). Failures: unwritable folder, full disk, cancel half-way and
//! invalid settings give a clear message and never a manifest listing an incomplete file.

use planetgraph_cli::build::build_graph;
use planetgraph_core::eval::Progress;
use planetgraph_core::export::evaluate_exports;
use planetgraph_core::export::{jobs_from_result, planned_files, write_exports, Control, ExportContext, ExportError, ExportProgress};
use planetgraph_core::io::{load_graph, Strictness};
use planetgraph_core::nodes::output::planet::PlanetSettings;
use planetgraph_core::nodes::NodeKind;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};

#[path = "common/needs.rs"]
mod needs;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn planetgraph(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_planetgraph")).args(args).output().expect("run planetgraph")
}

fn text(o: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// The marker of graphs/export_all.ron: the Volcanic island's centre (latitude, longitude).
const MARKER: (&str, &str) = ("30", "60");

#[test]
fn export_all_is_read_correctly_by_python_openexr_and_the_gltf_validator() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let graph = root().join("graphs/export_all.ron");
    let o = planetgraph(&["build", graph.to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", "64"]);
    assert!(o.status.success(), "{}", text(&o));

    let py = Command::new("python3").arg(root().join("tests/clients/check_exports.py")).arg(&out).args([MARKER.0, MARKER.1]).output();
    let py = py.expect("python3 (install: pip install -r tests/clients/requirements.txt, as .ci/run does)");
    assert!(py.status.success(), "Python readers (pip install -r tests/clients/requirements.txt if a module is missing):\n{}", text(&py));
    println!("{}", text(&py));

    let validator = root().join("tests/clients/node_modules/gltf-validator");
    assert!(validator.exists(), "the glTF validator is missing: npm ci --prefix tests/clients (as .ci/run does)");
    let glbs: Vec<PathBuf> = std::fs::read_dir(&out).expect("out").map(|e| e.expect("entry").path()).filter(|p| p.extension().is_some_and(|x| x == "glb")).collect();
    assert!(!glbs.is_empty());
    let node = Command::new("node").arg(root().join("tests/clients/validate_glb.cjs")).args(&glbs).output().expect("node");
    assert!(node.status.success(), "glTF validator:\n{}", text(&node));
    println!("{}", text(&node));
}

/// Blender, from the command line, imports the GLB and the OBJ (every vertex at the radius plus
/// the manifest's range, the sea on the radius) and reads the float EXR heights equal to the
/// RAW float faces (tests/clients/blender_import.py; `.ci/run` installs Debian's blender).
#[test]
fn blender_imports_the_meshes_and_reads_the_float_heights() {
    if needs::skip_without_blender("blender_imports_the_meshes_and_reads_the_float_heights") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let graph = root().join("graphs/export_all.ron");
    let o = planetgraph(&["build", graph.to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", "32"]);
    assert!(o.status.success(), "{}", text(&o));
    let script = root().join("tests/clients/blender_import.py");
    let b = Command::new("blender").args(["-b", "--factory-startup", "--python"]).arg(&script).arg("--").arg(&out).output();
    let b = b.expect("blender (install: apt-get install blender python3-numpy, as .ci/run does)");
    let log = text(&b);
    assert!(b.status.success() && log.contains("Blender checks"), "Blender import:\n{log}");
    println!("{}", log.lines().filter(|l| l.contains("objects") || l.contains("checks")).collect::<Vec<_>>().join("\n"));
}

/// The editor's list of files an export would replace is known before evaluating: it equals
/// what the build writes, for Export nodes and for the Planet node's default set.
#[test]
fn planned_files_are_exactly_the_files_a_build_writes() {
    for (file, n) in [("export_all.ron", 16), ("default.ron", 16), ("rivers.ron", 8)] {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("out");
        let graph = root().join("graphs").join(file);
        let o = planetgraph(&["build", graph.to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", &n.to_string()]);
        assert!(o.status.success(), "{}", text(&o));
        let mut written: Vec<String> = std::fs::read_dir(&out).expect("out").map(|e| e.expect("entry").file_name().to_string_lossy().to_string()).collect();
        written.sort();
        let g = load_graph(&graph, Strictness::Complete).expect("graph");
        let mut planned = planned_files(&g, n);
        planned.sort();
        assert_eq!(planned, written, "{file}");
    }
}

#[test]
fn an_unwritable_folder_is_exit_2_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("not_a_folder");
    std::fs::write(&file, "x").expect("write");
    let out = file.join("out");
    let o = planetgraph(&["build", root().join("graphs/export_all.ron").to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", "8"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("not_a_folder"), "{}", text(&o));
}

fn write_graph(dir: &Path, export_params: &str) -> PathBuf {
    let g = format!(
        "(version: 2, nodes: [(id: 1, kind: Constant), (id: 2, kind: Planet), (id: 3, kind: Export, params: {{{export_params}}})], links: [(from: 1, output: \"out\", to: 2, input: \"elevation\"), (from: 2, output: \"out\", to: 3, input: \"field\")])"
    );
    let path = dir.join("g.ron");
    std::fs::write(&path, g).expect("write graph");
    path
}

#[test]
fn invalid_export_settings_are_exit_2_naming_the_node_or_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let bad_name = write_graph(dir.path(), "\"name\": Text(\"../escape\")");
    let o = planetgraph(&["build", bad_name.to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", "8"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("Export #3") && text(&o).contains("file name"), "{}", text(&o));
    assert!(!out.join("manifest.json").exists());
    let bad_format = write_graph(dir.path(), "\"format\": Choice(\"tiff\")");
    let o = planetgraph(&["build", bad_format.to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", "8"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("g.ron") && text(&o).contains("tiff"), "{}", text(&o));
    let raw_colour = dir.path().join("c.ron");
    std::fs::write(&raw_colour, "(version: 2, nodes: [(id: 1, kind: Constant), (id: 2, kind: ColourRamp), (id: 3, kind: Export, params: {\"format\": Choice(\"r16\")})], links: [(from: 1, output: \"out\", to: 2, input: \"in\"), (from: 2, output: \"colour\", to: 3, input: \"colour\")])").expect("write");
    let o = planetgraph(&["build", raw_colour.to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", "8"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("RAW files hold one channel"), "{}", text(&o));
}

/// A write that fails half-way (here the file-size limit, `ulimit -f`, as a full disk would)
/// leaves no file and no manifest, and the old manifest is gone.
#[cfg(unix)]
#[test]
fn a_failed_write_leaves_no_file_and_no_manifest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let graph = dir.path().join("g.ron");
    std::fs::write(&graph, "(version: 3, nodes: [(id: 1, kind: Noise), (id: 2, kind: Planet), (id: 3, kind: Export, params: {\"name\": Text(\"height\")})], links: [(from: 1, output: \"out\", to: 2, input: \"elevation\"), (from: 2, output: \"out\", to: 3, input: \"field\")])").expect("graph");
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).expect("out");
    std::fs::write(out.join("manifest.json"), "{\"an\": \"old manifest\"}").expect("old manifest");
    // Writes beyond 8 blocks fail with EFBIG (the signal that would kill the process is ignored).
    let script = format!("trap '' XFSZ; ulimit -f 8; exec '{}' build '{}' --out '{}' --resolution 64", env!("CARGO_BIN_EXE_planetgraph"), graph.display(), out.display());
    let o = Command::new("sh").args(["-c", &script]).output().expect("sh");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("height_equirect.png") && text(&o).contains("too large"), "{}", text(&o));
    let names: Vec<String> = std::fs::read_dir(&out).expect("out").map(|e| e.expect("entry").file_name().to_string_lossy().to_string()).collect();
    assert!(names.is_empty(), "no file, no temporary, no manifest: {names:?}");
}

/// A symbolic link planted where an older PlanetGraph put its temporary files is never
/// followed (temporaries are created exclusively under unpredictable names).
#[cfg(unix)]
#[test]
fn a_link_planted_at_a_temporary_name_is_never_followed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write_graph(dir.path(), "\"name\": Text(\"height\")");
    let g = load_graph(&path, Strictness::Complete).expect("graph");
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).expect("out");
    let victim = dir.path().join("victim");
    std::fs::write(&victim, b"precious").expect("victim");
    std::os::unix::fs::symlink(&victim, out.join(format!(".height_equirect.png.{}.part", std::process::id()))).expect("link");
    build_graph(&g, &path, &out, 16, &AtomicBool::new(false)).map_err(|e| e.error).expect("builds");
    assert_eq!(std::fs::read(&victim).expect("victim"), b"precious");
    assert!(out.join("height_equirect.png").exists());
}

/// A build killed by SIGTERM while it writes leaves its temporary file; the next build of that
/// folder removes it.
#[cfg(target_os = "linux")]
#[test]
fn a_temporary_left_by_sigterm_is_removed_by_the_next_build() {
    let dir = tempfile::tempdir().expect("tempdir");
    let graph = write_graph(dir.path(), "\"name\": Text(\"height\"), \"format\": Choice(\"exr\"), \"projection\": Choice(\"faces\")");
    let out = dir.path().join("out");
    let temporaries = || -> Vec<PathBuf> { std::fs::read_dir(&out).map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "part")).collect()).unwrap_or_default() };
    let mut child =
        Command::new(env!("CARGO_BIN_EXE_planetgraph")).args(["build", graph.to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", "1024", "--threads", "1"]).stderr(std::process::Stdio::null()).spawn().expect("spawn");
    let start = std::time::Instant::now();
    while temporaries().is_empty() && start.elapsed().as_secs() < 120 && child.try_wait().expect("wait").is_none() {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill");
    assert!(status.success());
    child.wait().expect("wait");
    let left = temporaries();
    assert!(!left.is_empty(), "the build was stopped while it wrote a file");
    let g = load_graph(&graph, Strictness::Complete).expect("graph");
    build_graph(&g, &graph, &out, 16, &AtomicBool::new(false)).map_err(|e| e.error).expect("builds");
    assert!(temporaries().is_empty(), "{left:?} removed");
    assert!(out.join("manifest.json").exists());
}

#[test]
fn a_cancel_half_way_keeps_only_complete_files_and_writes_no_manifest() {
    let path = root().join("graphs/export_all.ron");
    let g = load_graph(&path, Strictness::Complete).expect("graph");
    let cancel = AtomicBool::new(false);
    let res = evaluate_exports(&g, &path, 32, &cancel, &Progress::default()).expect("evaluates");
    let jobs = jobs_from_result(&g, &res).expect("jobs");
    let dir = tempfile::tempdir().expect("tempdir");
    let planet: PlanetSettings = g.first_of(NodeKind::Planet).expect("planet").settings().expect("settings");
    let ctx = ExportContext { graph: "export_all".into(), graph_sha256: String::new(), resolution: 32, planet: Some(planet), timings_ms: Default::default(), share: None, tiled: None, own_levels: Default::default() };
    let progress = ExportProgress::default();
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            while progress.files_done.load(Ordering::Relaxed) < 5 {
                std::thread::yield_now();
            }
            cancel.store(true, Ordering::Relaxed);
        });
        write_exports(dir.path(), &jobs, &ctx, &Control { cancel: &cancel, progress: &progress })
    });
    assert!(matches!(result, Err(ExportError::Cancelled)), "{result:?}");
    let names: Vec<String> = std::fs::read_dir(dir.path()).expect("dir").map(|e| e.expect("entry").file_name().to_string_lossy().to_string()).collect();
    assert!(!names.iter().any(|n| n == "manifest.json" || n.ends_with(".part")), "{names:?}");
    assert!(names.len() >= 5, "{names:?}");
    // Every file left is complete: the PNGs decode.
    for n in names.iter().filter(|n| n.ends_with(".png")) {
        image::open(dir.path().join(n)).unwrap_or_else(|e| panic!("{n}: {e}"));
    }
}

/// Every file a build writes, EXR included, has the same bytes whatever the thread count
/// (the EXR encoder compresses blocks in parallel; they are written in order). The manifest
/// differs only in its node timings.
#[test]
fn exports_are_byte_identical_for_any_thread_count() {
    let dir = tempfile::tempdir().expect("tempdir");
    let graph = root().join("graphs/export_all.ron");
    let files = |threads: &str| -> Vec<(String, Vec<u8>)> {
        let out = dir.path().join(format!("t{threads}"));
        let o = planetgraph(&["build", graph.to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", "64", "--threads", threads]);
        assert!(o.status.success(), "{}", text(&o));
        let mut v: Vec<(String, Vec<u8>)> =
            std::fs::read_dir(&out).expect("out").map(|e| e.expect("entry").path()).filter(|p| !p.ends_with("manifest.json")).map(|p| (p.file_name().expect("name").to_string_lossy().to_string(), std::fs::read(&p).expect("read"))).collect();
        v.sort();
        v
    };
    let (one, four) = (files("1"), files("4"));
    assert!(one.iter().filter(|(n, _)| n.ends_with(".exr")).count() >= 4, "{:?}", one.iter().map(|(n, _)| n).collect::<Vec<_>>());
    assert_eq!(one.len(), four.len());
    for ((a, x), (b, y)) in one.iter().zip(&four) {
        assert_eq!(a, b);
        assert!(x == y, "{a} differs between 1 and 4 threads");
    }
}

/// An Export of the Planet node's elevation evaluates what the elevation needs and not the
/// chain that only colours the planet (climate, biomes, materials), in the one build path the
/// CLI, the editor's File > Export and Python share; the manifest's timings list the nodes run.
#[test]
fn an_elevation_export_evaluates_only_the_nodes_it_reads() {
    use planetgraph_core::graph::NodeId;
    let mut g = planetgraph_examples::default_graph().expect("default graph");
    let planet = g.first_of(NodeKind::Planet).expect("Planet").id;
    let export = g.add_node(NodeKind::Export, (0.0, 0.0));
    g.set_param(export, "format", planetgraph_core::nodes::ParamValue::Choice("r32".into()));
    g.set_param(export, "projection", planetgraph_core::nodes::ParamValue::Choice("faces".into()));
    g.link(planet, planetgraph_core::nodes::FIELD_OUT, export, planetgraph_core::nodes::output::export::FIELD).expect("link");
    // The nodes upstream of each of the Planet node's inputs.
    let upstream = |input: &str| {
        let mut seen = std::collections::BTreeSet::new();
        let mut stack: Vec<NodeId> = g.links.iter().filter(|l| l.to == planet && l.input == input).map(|l| l.from).collect();
        while let Some(id) = stack.pop() {
            if seen.insert(id) {
                stack.extend(g.links.iter().filter(|l| l.to == id).map(|l| l.from));
            }
        }
        seen
    };
    let (elevation, albedo) = (upstream("elevation"), upstream("albedo"));
    let colour_only: Vec<NodeId> = albedo.difference(&elevation).copied().collect();
    assert!(colour_only.len() >= 4, "the default graph colours its planet with a chain of nodes: {colour_only:?}");
    let dir = tempfile::tempdir().expect("tempdir");
    let cancel = AtomicBool::new(false);
    let manifest = planetgraph_core::export::export_graph(&g, Path::new("default.ron"), dir.path(), 32, None, planetgraph_core::export::tiled::DEFAULT_BUDGET, None, &cancel, &Progress::default(), &ExportProgress::default()).expect("build");
    let ran = |id: NodeId| manifest.timings_ms.keys().any(|k| k.ends_with(&format!(" {id}")) || k.ends_with(&format!(" {id})")));
    for id in &colour_only {
        assert!(!ran(*id), "{} ran for an elevation export: {:?}", g.describe_node(*id), manifest.timings_ms.keys().collect::<Vec<_>>());
    }
    for id in &elevation {
        assert!(ran(*id), "{} did not run: {:?}", g.describe_node(*id), manifest.timings_ms.keys().collect::<Vec<_>>());
    }
    assert_eq!(manifest.files.len(), 6, "six RAW faces");
}

/// Engines' size rules (issue 50): Godot's 16384-pixel limit is exit 2 on the node before any
/// work, naming the tiles that fit; an Unreal World Partition face is written as tiles of one of
/// Unreal's sizes, named `_x{tx}_y{ty}`, each readable at that size.
#[test]
fn engine_sizes_are_refused_on_the_node_and_tiled_as_documented() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let godot = write_graph(dir.path(), "\"engine\": Choice(\"godot\"), \"projection\": Choice(\"faces\"), \"grid\": Choice(\"edge_sharing\"), \"face_size\": Int(16385), \"format\": Choice(\"exr\")");
    let start = std::time::Instant::now();
    let o = planetgraph(&["build", godot.to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", "8"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("Export #3") && text(&o).contains("16384") && text(&o).contains("Tiles 2"), "{}", text(&o));
    assert!(!out.exists() || !out.join("manifest.json").exists());
    assert!(start.elapsed().as_secs() < 20, "refused before any work");
    // Unreal: a face of 253 pixels in 2 x 2 tiles of 127 (Unreal's smallest size).
    let unreal = write_graph(dir.path(), "\"engine\": Choice(\"unreal\"), \"projection\": Choice(\"faces\"), \"grid\": Choice(\"edge_sharing\"), \"face_size\": Int(253), \"tiles\": Int(2), \"name\": Text(\"land\")");
    let o = planetgraph(&["build", unreal.to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", "32"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    for (tx, ty) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        let file = out.join(format!("land_face0_front_x{tx}_y{ty}.png"));
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))));
        let info = decoder.read_info().expect("png").info().clone();
        assert_eq!((info.width, info.height), (127, 127), "{}", file.display());
    }
    let o = planetgraph(&[
        "build",
        write_graph(dir.path(), "\"engine\": Choice(\"unreal\"), \"projection\": Choice(\"faces\"), \"grid\": Choice(\"edge_sharing\"), \"face_size\": Int(1000)").to_str().expect("path"),
        "--out",
        out.to_str().expect("path"),
        "--resolution",
        "8",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("1009") && text(&o).contains("not 1000"), "{}", text(&o));
}

/// A splat map in a build tiled to fit its memory budget is written from the tiles: the same
/// files as a whole build, its samples summing to 255 (read back by Pillow).
#[test]
fn a_tiled_build_writes_the_splat_maps_of_a_whole_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let graph = dir.path().join("splat.ron");
    let g = "(version: 3, nodes: [(id: 1, kind: Constant, params: {\"value\": Float(0.3)}), (id: 2, kind: Latitude), (id: 3, kind: SplatMap, params: {\"name\": Text(\"layers\"), \"projection\": Choice(\"faces\"), \"face_size\": Int(64)})], links: [(from: 1, output: \"out\", to: 3, input: \"weight_1\"), (from: 2, output: \"out\", to: 3, input: \"weight_2\")])";
    std::fs::write(&graph, g).expect("write graph");
    let build = |out: &str, memory: &str| {
        let out = dir.path().join(out);
        let o = planetgraph(&["build", graph.to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", "4096", "--memory", memory]);
        assert!(o.status.success(), "{}", text(&o));
        let manifest: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("manifest.json")).expect("manifest")).expect("json");
        (out, manifest)
    };
    let (whole, m_whole) = build("whole", "8");
    let (tiled, m_tiled) = build("tiled", "0.5");
    assert!(m_whole["whole_planet_level"].is_null() && m_tiled["whole_planet_level"].is_u64(), "{m_tiled}");
    for f in m_whole["files"].as_array().expect("files") {
        let name = f["path"].as_str().expect("path");
        assert_eq!(std::fs::read(whole.join(name)).expect("whole"), std::fs::read(tiled.join(name)).expect("tiled"), "{name}");
    }
    let py = "import sys, numpy as np; from PIL import Image; a = np.array(Image.open(sys.argv[1])).astype(int); assert a.shape == (64, 64, 4) and (a.sum(-1) == 255).all(), a.sum(-1)";
    let o = Command::new("python3").args(["-c", py]).arg(tiled.join("layers_0_face4_top.png")).output().expect("python3");
    assert!(o.status.success(), "{}", text(&o));
}
