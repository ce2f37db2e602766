//! Format version 1 keeps loading: every example graph as it was saved in version 1
//! (`tests/fixtures/v1/`) builds byte-identically to its migrated version-2 form and equals the
//! same example converted to version 2 when the format changed (`tests/fixtures/v2/`; the
//! examples in `graphs/` have moved on since); saving writes version 2 with stable identifiers.

use planetgraph::cli::build::build_graph;
use planetgraph::graph::{Graph, FORMAT_VERSION};
use planetgraph::io::{load_graph, parse_graph, to_ron_string, Strictness};
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
