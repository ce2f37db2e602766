//! Builds in shares: `build --tiles I/N` and `merge` give the files of a single build, byte for
//! byte, and refuse what does not belong together.

use std::path::{Path, PathBuf};

#[path = "common/folders.rs"]
mod folders;
use std::process::{Command, Output};

/// Faces in 2 x 2 tiles, an equirectangular PNG, EXR colour faces and a mesh: 24 + 1 + 6 + 1
/// units of work.
const GRAPH: &str = r#"(version: 3, nodes: [
  (id: 1, kind: Noise, params: {"octaves": Int(6), "seed": Seed(9)}),
  (id: 2, kind: Planet),
  (id: 3, kind: ColourRamp),
  (id: 10, kind: Export, params: {"name": Text("height"), "format": Choice("r32"), "projection": Choice("faces"), "tiles": Int(2)}),
  (id: 11, kind: Export, params: {"name": Text("map"), "format": Choice("png16"), "projection": Choice("equirectangular"), "width": Int(1024)}),
  (id: 12, kind: Export, params: {"name": Text("albedo"), "format": Choice("exr"), "projection": Choice("faces")}),
  (id: 13, kind: Export, params: {"name": Text("planet"), "layer": Choice("mesh"), "format": Choice("glb"), "mesh_size": Int(17), "relief": Float(20.0)}),
], links: [
  (from: 1, output: "out", to: 2, input: "elevation"),
  (from: 1, output: "out", to: 3, input: "in"),
  (from: 2, output: "out", to: 10, input: "field"),
  (from: 2, output: "out", to: 11, input: "field"),
  (from: 3, output: "colour", to: 12, input: "colour"),
  (from: 2, output: "out", to: 13, input: "field"),
  (from: 3, output: "colour", to: 13, input: "colour"),
])"#;

fn planetgraph(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_planetgraph")).args(args).output().expect("run planetgraph")
}

fn build(graph: &Path, out: &Path, resolution: &str, tiles: Option<&str>) -> Output {
    let mut args: Vec<&Path> = vec![Path::new("build"), graph, Path::new("--out"), out, Path::new("--resolution"), Path::new(resolution)];
    if let Some(t) = tiles {
        args.extend([Path::new("--tiles"), Path::new(t)]);
    }
    planetgraph(&args)
}

fn merge(shares: &[PathBuf], out: &Path) -> Output {
    let mut args: Vec<&Path> = vec![Path::new("merge")];
    args.extend(shares.iter().map(|p| p.as_path()));
    args.extend([Path::new("--out"), out]);
    planetgraph(&args)
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// The files of a folder, the manifest without its timings (which differ between any two
/// builds).
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    folders::contents(dir, &["timings_ms"])
}

#[test]
fn three_shares_merged_equal_a_single_build_at_1024() {
    let dir = tempfile::tempdir().expect("tempdir");
    let graph = dir.path().join("g.ron");
    std::fs::write(&graph, GRAPH).expect("graph");
    let single = dir.path().join("single");
    let o = build(&graph, &single, "1024", None);
    assert!(o.status.success(), "{}", text(&o));
    let shares: Vec<PathBuf> = (1..=3).map(|i| dir.path().join(format!("share{i}"))).collect();
    for (i, out) in shares.iter().enumerate() {
        let o = build(&graph, out, "1024", Some(&format!("{}/3", i + 1)));
        assert!(o.status.success(), "{}", text(&o));
        assert!(out.join(format!("share_{}_of_3.json", i + 1)).exists() && !out.join("manifest.json").exists());
    }
    // The units are dealt out: each share holds about a third of the 32 units.
    for s in &shares {
        let files = std::fs::read_dir(s).expect("share").count();
        assert!((8..=20).contains(&files), "{}: {files} files", s.display());
    }
    let merged = dir.path().join("merged");
    let o = merge(&shares, &merged);
    assert!(o.status.success(), "{}", text(&o));
    folders::assert_same(&single, &merged, &["timings_ms"]);
}

#[test]
fn shares_in_one_folder_merge_in_place() {
    let dir = tempfile::tempdir().expect("tempdir");
    let graph = dir.path().join("g.ron");
    std::fs::write(&graph, GRAPH).expect("graph");
    let single = dir.path().join("single");
    assert!(build(&graph, &single, "32", None).status.success());
    let shared = dir.path().join("shared");
    for i in 1..=2 {
        assert!(build(&graph, &shared, "32", Some(&format!("{i}/2"))).status.success());
    }
    let o = merge(std::slice::from_ref(&shared), &shared);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(contents(&single), contents(&shared), "the same files, and no share records left");
}

#[test]
fn shares_that_do_not_belong_together_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let graph = dir.path().join("g.ron");
    std::fs::write(&graph, GRAPH).expect("graph");
    for bad in ["4/3", "0/3", "3", "a/b", "1/0"] {
        let o = build(&graph, &dir.path().join("never"), "32", Some(bad));
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", text(&o));
        assert!(text(&o).contains("--tiles"), "{bad}: {}", text(&o));
    }
    assert!(!dir.path().join("never").exists(), "refused before any work");
    let s = |name: &str| dir.path().join(name);
    assert!(build(&graph, &s("a1"), "32", Some("1/3")).status.success());
    assert!(build(&graph, &s("a2"), "32", Some("2/3")).status.success());
    // A share missing.
    let o = merge(&[s("a1"), s("a2")], &s("m"));
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("share 3/3 missing"), "{}", text(&o));
    // A share of another build (another resolution).
    assert!(build(&graph, &s("b3"), "16", Some("3/3")).status.success());
    let o = merge(&[s("a1"), s("a2"), s("b3")], &s("m"));
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("of different builds: resolution 32 against 16"), "{}", text(&o));
    // The same share twice.
    assert!(build(&graph, &s("a2again"), "32", Some("2/3")).status.success());
    let o = merge(&[s("a1"), s("a2"), s("a2again")], &s("m"));
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("share 2/3 is both in"), "{}", text(&o));
    // A file of a share that changed since.
    assert!(build(&graph, &s("a3"), "32", Some("3/3")).status.success());
    let victim = std::fs::read_dir(s("a3")).expect("a3").map(|e| e.expect("entry").path()).find(|p| p.extension().is_some_and(|x| x == "r32")).expect("a RAW file");
    std::fs::write(&victim, b"short").expect("truncate");
    let o = merge(&[s("a1"), s("a2"), s("a3")], &s("m"));
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("bytes, but share 3/3 wrote"), "{}", text(&o));
    assert!(!s("m").exists(), "a refused merge leaves no folder behind");
    // No shares at all.
    std::fs::create_dir(s("empty")).expect("empty folder");
    let o = merge(&[s("empty")], &s("m2"));
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("no share records"), "{}", text(&o));
}

/// Builds the three shares of `graph` at 32 into `dir/s1`..`dir/s3`.
fn three_shares(graph: &Path, dir: &Path) -> Vec<PathBuf> {
    let shares: Vec<PathBuf> = (1..=3).map(|i| dir.join(format!("s{i}"))).collect();
    for (i, out) in shares.iter().enumerate() {
        let o = build(graph, out, "32", Some(&format!("{}/3", i + 1)));
        assert!(o.status.success(), "{}", text(&o));
    }
    shares
}

/// Edits share 1's record with `edit` (on its JSON value).
fn edit_record(share: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let path = share.join("share_1_of_3.json");
    let mut record: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).expect("record")).expect("json");
    edit(&mut record);
    std::fs::write(&path, serde_json::to_vec_pretty(&record).expect("json")).expect("write record");
}

/// A share record is input from another machine: a path that leaves `--out` (`..`, absolute,
/// a folder, the manifest's own name) is refused before anything is written, and so are links.
#[test]
fn a_share_record_cannot_make_merge_write_outside_out() {
    let dir = tempfile::tempdir().expect("tempdir");
    let graph = dir.path().join("g.ron");
    std::fs::write(&graph, GRAPH).expect("graph");
    let shares = three_shares(&graph, dir.path());
    let first = |r: &serde_json::Value| r["manifest"]["files"][0]["path"].as_str().expect("path").to_string();
    let original = first(&serde_json::from_slice(&std::fs::read(shares[0].join("share_1_of_3.json")).expect("record")).expect("json"));
    let b = dir.path().join("b");
    std::fs::create_dir(&b).expect("b");
    let out = b.join("out");
    let planted_abs = dir.path().join("ABSOLUTE.png");
    for bad in ["../PLANTED.png".to_string(), planted_abs.display().to_string(), "sub/x.png".into(), "manifest.json".into(), ".hidden".into(), "..".into(), String::new()] {
        // The file the path names exists beside the share, so only the check can refuse it.
        edit_record(&shares[0], |r| r["manifest"]["files"][0]["path"] = serde_json::Value::from(bad.clone()));
        let o = merge(&shares, &out);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", text(&o));
        assert!(text(&o).contains("is not a plain file name"), "{bad:?}: {}", text(&o));
        assert!(!b.join("PLANTED.png").exists() && !planted_abs.exists() && !out.exists(), "{bad:?}: nothing written");
    }
    edit_record(&shares[0], |r| r["manifest"]["files"][0]["path"] = serde_json::Value::from(original.clone()));
    // A share's file replaced by a link to a file elsewhere.
    #[cfg(unix)]
    {
        let file = shares[0].join(&original);
        let secret = dir.path().join("secret.bin");
        std::fs::rename(&file, &secret).expect("move");
        std::os::unix::fs::symlink(&secret, &file).expect("link");
        let o = merge(&shares, &out);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains("symbolic link"), "{}", text(&o));
        std::fs::remove_file(&file).expect("unlink");
        std::fs::rename(&secret, &file).expect("move back");
        // A share record that is a link.
        let record = shares[1].join("share_2_of_3.json");
        let elsewhere = dir.path().join("elsewhere.json");
        std::fs::rename(&record, &elsewhere).expect("move record");
        std::os::unix::fs::symlink(&elsewhere, &record).expect("link record");
        let o = merge(&shares, &out);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains("symbolic link"), "{}", text(&o));
        std::fs::remove_file(&record).expect("unlink record");
        std::fs::rename(&elsewhere, &record).expect("move record back");
    }
    assert!(!out.exists(), "refused merges leave no folder");
    let o = merge(&shares, &out);
    assert!(o.status.success(), "{}", text(&o));
}

/// A file whose bytes changed but not its size is caught by its SHA-256, and a refused merge
/// leaves an earlier merge in `--out` as it was.
#[test]
fn a_changed_file_is_refused_and_out_stays_as_it_was() {
    let dir = tempfile::tempdir().expect("tempdir");
    let graph = dir.path().join("g.ron");
    std::fs::write(&graph, GRAPH).expect("graph");
    let shares = three_shares(&graph, dir.path());
    let out = dir.path().join("out");
    assert!(merge(&shares, &out).status.success());
    let before = contents(&out);
    let victim = std::fs::read_dir(&shares[2]).expect("s3").map(|e| e.expect("entry").path()).find(|p| p.extension().is_some_and(|x| x == "r32")).expect("a RAW file");
    let mut bytes = std::fs::read(&victim).expect("read");
    bytes[100] ^= 0x55;
    std::fs::write(&victim, &bytes).expect("write");
    let o = merge(&shares, &out);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("its content is not what share 3/3 wrote"), "{}", text(&o));
    assert_eq!(contents(&out), before, "the earlier merge is untouched");
}

/// Shares of one graph file edited between shares are two builds: refused, naming both shares.
#[test]
fn shares_of_an_edited_graph_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let graph = dir.path().join("g.ron");
    std::fs::write(&graph, GRAPH).expect("graph");
    let s = |name: &str| dir.path().join(name);
    assert!(build(&graph, &s("e1"), "32", Some("1/3")).status.success());
    std::fs::write(&graph, GRAPH.replace("Seed(9)", "Seed(10)")).expect("edited graph");
    assert!(build(&graph, &s("e2"), "32", Some("2/3")).status.success());
    assert!(build(&graph, &s("e3"), "32", Some("3/3")).status.success());
    let o = merge(&[s("e1"), s("e2"), s("e3")], &s("m"));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("share 1/3 in") && t.contains("share 2/3 in") && t.contains("the graphs differ"), "{t}");
    assert!(!s("m").exists());
    // Moving a node in the editor changes no value: the shares still merge.
    std::fs::write(&graph, GRAPH.replace("Seed(9)", "Seed(10)").replace("links: [", "layout: {1: (10.0, 20.0)}, links: [")).expect("moved node");
    assert!(build(&graph, &s("e1"), "32", Some("1/3")).status.success());
    let o = merge(&[s("e1"), s("e2"), s("e3")], &s("m"));
    assert!(o.status.success(), "{}", text(&o));
}
