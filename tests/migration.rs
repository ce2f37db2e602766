//! Older formats keep loading: every example graph as it was saved in version 1
//! (`tests/fixtures/v1/`) builds byte-identically to its migrated form and equals the same
//! example converted to version 2 when the format changed (`tests/fixtures/v2/`; the examples
//! in `graphs/` have moved on since); saving writes the current version with stable
//! identifiers. Version 2's per-node copies of the planet's settings go to the Planet node's
//! (version 3), and a copy that differed is reported on its node.

use planetgraph_cli::build::build_graph;
use planetgraph_core::graph::{Graph, FORMAT_VERSION};
use planetgraph_core::io::{load_graph, parse_graph, to_ron_string, Strictness};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v1");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir).expect("fixtures").map(|e| e.expect("entry").path()).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect();
    v.sort();
    v
}

/// The bytes of every 16-bit elevation PNG a build at resolution 64 writes.
fn elevation_pngs(g: &Graph, name: &Path) -> Vec<(String, Vec<u8>)> {
    let dir = tempfile::tempdir().expect("tempdir");
    let manifest = build_graph(g, name, dir.path(), 64, &AtomicBool::new(false)).unwrap_or_else(|e| panic!("{}: {:#}", name.display(), e.error));
    let mut files: Vec<(String, Vec<u8>)> = manifest.files.iter().filter(|f| f.export == "elevation").map(|f| (f.path.clone(), std::fs::read(dir.path().join(&f.path)).expect("png"))).collect();
    files.sort();
    assert_eq!(files.len(), 7, "equirectangular and six faces");
    files
}

#[test]
fn version_1_files_build_byte_identically_to_their_version_2_form() {
    let files = fixtures();
    assert!(files.len() >= 9, "{files:?}");
    for v1_path in files {
        let v1_text = std::fs::read_to_string(&v1_path).expect("read");
        assert!(v1_text.contains("version: 1,"), "{} is a version-1 file", v1_path.display());
        let migrated = load_graph(&v1_path, Strictness::Complete).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(migrated.version, FORMAT_VERSION);
        // Saved again, the file is version 2 and holds no display labels.
        let v2_text = to_ron_string(&migrated).expect("serialise");
        assert!(v2_text.contains(&format!("version: {FORMAT_VERSION},")));
        for label in ["Random inner point", "Through centre", "Land fraction", "Hypsometric", "Donor cell", "\"fBm\"", "\"Map\""] {
            assert!(!v2_text.contains(label), "{}: saved text still has {label}", v1_path.display());
        }
        let reparsed = parse_graph(&v2_text, &v1_path, Strictness::Complete).expect("re-parse");
        assert_eq!(reparsed, migrated);
        let v2_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v2").join(v1_path.file_name().expect("name"));
        let shipped = load_graph(&v2_path, Strictness::Complete).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(shipped.version, FORMAT_VERSION);
        assert_eq!(shipped, migrated, "{}: the version-2 conversion holds the same graph", v1_path.display());
        let (a, b) = (elevation_pngs(&migrated, &v1_path), elevation_pngs(&shipped, &v2_path));
        assert!(a == b, "{}: the 16-bit exports differ", v1_path.display());
    }
}

#[test]
fn an_unknown_version_1_label_is_an_error_on_its_node() {
    let text = "(version: 1, nodes: [(id: 3, kind: FaultPlanet, params: {\"variant\": Choice(\"Sideways\")})])";
    let e = parse_graph(text, Path::new("old.ron"), Strictness::Editable).expect_err("unknown label");
    let s = e.to_string();
    assert!(s.contains("Fault planet #3") && s.contains("Sideways") && s.contains("random_inner_point"), "{s}");
}

/// Version 2 kept the planet's radius, sea level and heights on many nodes; version 3 reads
/// them from the Planet node. A copy equal to the planet's goes silently; one that differed is
/// reported naming its node, and a group parameter that showed it goes too.
#[test]
fn version_2_planet_copies_move_to_the_planet_node_and_differences_are_reported() {
    let text = r#"(version: 2, nodes: [
        (id: 1, kind: Noise),
        (id: 2, kind: ToMetres, params: {"max_elevation_m": Float(9000.0)}),
        (id: 3, kind: Slope, params: {"radius_km": Float(3390.0), "metres_per_unit": Float(1.0)}),
        (id: 4, kind: Planet, params: {"radius_km": Float(6371.0), "max_elevation_m": Float(9000.0)}),
        (id: 5, kind: Preview),
    ], links: [
        (from: 1, output: "out", to: 2, input: "in"), (from: 2, output: "out", to: 3, input: "in"),
        (from: 1, output: "out", to: 4, input: "elevation"), (from: 3, output: "out", to: 5, input: "in"),
    ], groups: [(id: 10, label: "Terrain", members: [2, 3], params: [(name: "Radius", node: 3, param: "radius_km"), (name: "Metres", node: 3, param: "metres_per_unit")])])"#;
    let (g, notes) = planetgraph_core::io::parse_graph_noting(text, Path::new("old.ron"), Strictness::Complete).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.version, FORMAT_VERSION);
    assert!(g.nodes.iter().filter(|n| n.kind != planetgraph_core::nodes::NodeKind::Planet).all(|n| !n.params.contains_key("radius_km") && !n.params.contains_key("max_elevation_m")), "{g:?}");
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].contains("Slope #3") && notes[0].contains("3390") && notes[0].contains("6371"), "{notes:?}");
    assert!(notes[1].contains("Terrain"), "{notes:?}");
    let grp = g.groups.first().expect("group");
    assert_eq!(grp.params.iter().map(|p| p.param.as_str()).collect::<Vec<_>>(), ["metres_per_unit"]);
    // The editor shows the same sentences when it opens the file.
    let opened = planetgraph_core::io::parse_for_editing(text, Path::new("old.ron")).expect("opens");
    assert_eq!(opened.updated, notes);
    // A graph without a Planet node says whose settings the copies now follow.
    let bare = r#"(version: 2, nodes: [(id: 1, kind: Noise), (id: 2, kind: Slope, params: {"radius_km": Float(100.0)}), (id: 3, kind: Preview)], links: [(from: 1, output: "out", to: 2, input: "in"), (from: 2, output: "out", to: 3, input: "in")])"#;
    let (_, notes) = planetgraph_core::io::parse_graph_noting(bare, Path::new("bare.ron"), Strictness::Complete).expect("loads");
    assert!(notes.len() == 1 && notes[0].contains("no Planet node"), "{notes:?}");
}

/// Set once, read everywhere: the Planet node's sea level reaches the biomes (through To
/// metres) and its radius the slope, and a node that reads them is not served a stale cache.
#[test]
fn the_planet_node_s_settings_reach_every_node_that_reads_them() {
    use planetgraph_core::eval::{Evaluator, Progress};
    use planetgraph_core::nodes::{NodeKind, ParamValue};
    let g = planetgraph_examples::default_graph().expect("default");
    let planet = g.first_of(NodeKind::Planet).expect("planet").id;
    let biomes = g.first_of(NodeKind::Biomes).expect("biomes").id;
    let slope = g.first_of(NodeKind::Slope).expect("slope").id;
    let mut ev = Evaluator::new();
    let cancel = AtomicBool::new(false);
    let run = |ev: &mut Evaluator, g: &Graph| {
        let r = ev.evaluate(g, 32, &cancel, &Progress::default());
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        (r.field(biomes).expect("biome ids").as_ref().clone(), r.field(slope).expect("slope").as_ref().clone())
    };
    let (biomes_before, slope_before) = run(&mut ev, &g);
    let mut wetter = g.clone();
    wetter.set_param(planet, "sea_level", ParamValue::Float(0.15));
    let (biomes_after, _) = run(&mut ev, &wetter);
    assert_ne!(biomes_before, biomes_after, "a higher sea level changes the biomes");
    let mut small = g.clone();
    small.set_param(planet, "radius_km", ParamValue::Float(3185.5));
    let (_, slope_small) = run(&mut ev, &small);
    let mean = |f: &planetgraph_core::planet::Field| f.data().iter().map(|&v| f64::from(v)).sum::<f64>() / f.data().len() as f64;
    assert!(mean(&slope_small) > mean(&slope_before) * 1.3, "half the radius, steeper slopes: {} vs {}", mean(&slope_small), mean(&slope_before));
}
