//! The node cache on disk: a build with a cold cache, a warm one and a damaged one writes the
//! same bytes; the warm build reads its results back; `cache info` and `cache clear` report and
//! empty the folder; an evaluator with the cache reads back every slow node bit for bit.

use planetgraph_core::eval::{DiskCache, Evaluator, Progress};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

fn run(cache: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_planetgraph")).env("PLANETGRAPH_CACHE_DIR", cache).args(args).output().expect("run planetgraph")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// The files a build wrote (the manifest, which holds timings, left out), name and bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("out")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().is_some_and(|n| n != "manifest.json"))
        .map(|p| (p.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default(), std::fs::read(&p).expect("file")))
        .collect();
    all.sort();
    all
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir).map(|r| r.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "pgnc")).collect()).unwrap_or_default()
}

#[test]
fn builds_with_a_cold_a_warm_and_a_damaged_cache_write_the_same_bytes() {
    let dir = tempfile::tempdir().expect("tmp");
    let cache = dir.path().join("cache");
    let graph = Path::new(env!("CARGO_MANIFEST_DIR")).join("graphs").join("default.ron");
    let build = |out: &str| {
        let out = dir.path().join(out);
        let o = run(&cache, &["build", graph.to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", "64", "--cache"]);
        assert!(o.status.success(), "{}", stderr(&o));
        (files(&out), stderr(&o))
    };
    let plain = {
        let out = dir.path().join("plain");
        let o = run(&cache, &["build", graph.to_str().expect("path"), "--out", out.to_str().expect("path"), "--resolution", "64"]);
        assert!(o.status.success(), "{}", stderr(&o));
        files(&out)
    };
    assert!(entries(&cache).is_empty(), "a build without --cache leaves the cache alone");
    let (cold, said) = build("cold");
    assert!(said.contains("0 node results read"), "{said}");
    let stored = entries(&cache).len();
    assert!(stored >= 1, "the slow nodes are stored: {stored}");
    let (warm, said) = build("warm");
    assert!(!said.contains(" 0 node results read"), "the warm build reads results back: {said}");
    // Damage every entry: one flipped byte in the middle, or cut in half. (Counted again: the
    // warm build may store a node that ran just under the storing threshold the first time.)
    let stored = entries(&cache).len();
    for (k, path) in entries(&cache).iter().enumerate() {
        let mut bytes = std::fs::read(path).expect("entry");
        if k % 2 == 0 {
            let mid = bytes.len() / 2;
            bytes[mid] ^= 0x40;
        } else {
            bytes.truncate(bytes.len() / 2);
        }
        std::fs::write(path, bytes).expect("damage");
    }
    let (damaged, said) = build("damaged");
    assert!(said.contains(&format!("{stored} damaged or foreign entries dropped")), "{said}");
    assert!(!plain.is_empty());
    for (name, other) in [("cold", &cold), ("warm", &warm), ("damaged", &damaged)] {
        assert!(plain == *other, "the {name} cache changed a file's bytes");
    }
    // The damaged entries were written again (a node near the storing threshold may not be).
    let now = entries(&cache).len();
    assert!(now >= 1);
    let info = run(&cache, &["cache", "info"]);
    assert!(info.status.success() && String::from_utf8_lossy(&info.stdout).contains(&format!("{now} entries")), "{}", String::from_utf8_lossy(&info.stdout));
    let cleared = run(&cache, &["cache", "clear"]);
    assert!(cleared.status.success() && String::from_utf8_lossy(&cleared.stdout).contains(&format!("removed {now} entries")), "{}", String::from_utf8_lossy(&cleared.stdout));
    assert!(entries(&cache).is_empty());
}

#[test]
fn a_fresh_evaluator_reads_the_slow_nodes_back_bit_for_bit() {
    let dir = tempfile::tempdir().expect("tmp");
    let g = planetgraph_examples::default_graph().expect("default graph");
    let cancel = AtomicBool::new(false);
    let disk = Some(DiskCache::new(dir.path(), 1 << 30));
    let first = Evaluator::new().with_disk_cache(disk.clone()).evaluate(&g, 32, &cancel, &Progress::default());
    assert_eq!(first.from_disk, 0);
    let second = Evaluator::new().with_disk_cache(disk).evaluate(&g, 32, &cancel, &Progress::default());
    assert!(second.from_disk > 0, "nothing read back");
    assert!(first.errors.is_empty() && second.errors.is_empty());
    let planet = g.first_of(planetgraph_core::nodes::NodeKind::Planet).expect("planet").id;
    let (a, b) = (first.field(planet).expect("planet"), second.field(planet).expect("planet"));
    assert!(a.data().iter().zip(b.data()).all(|(x, y)| x.to_bits() == y.to_bits()));
    for (id, outputs) in &first.outputs {
        for (k, v) in outputs.iter().enumerate() {
            if let (Some(planetgraph_core::nodes::Value::Field(x)), Some(planetgraph_core::nodes::Value::Field(y))) = (v, second.output(*id, k)) {
                assert!(x.data().iter().zip(y.data()).all(|(p, q)| p.to_bits() == q.to_bits()), "node {} output {k}", id.0);
            }
        }
    }
}
