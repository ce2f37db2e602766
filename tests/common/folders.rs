//! Comparing the folders two builds wrote (for the tests of shares and tiled builds).

use std::path::Path;

/// Every file of a folder with its bytes, sorted by name; the manifest without its keys
/// `ignore` (timings differ between any two builds).
pub fn contents(dir: &Path, ignore: &[&str]) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("folder")
        .map(|e| {
            let e = e.expect("entry");
            let name = e.file_name().to_string_lossy().to_string();
            let mut bytes = std::fs::read(e.path()).expect("file");
            if name == "manifest.json" {
                let mut m: serde_json::Value = serde_json::from_slice(&bytes).expect("manifest");
                let object = m.as_object_mut().expect("object");
                for key in ignore {
                    object.remove(*key);
                }
                bytes = serde_json::to_vec(&m).expect("json");
            }
            (name, bytes)
        })
        .collect();
    files.sort();
    files
}

/// Asserts that folders `a` and `b` hold the same files with the same bytes (the manifests
/// compared without their keys `ignore`).
pub fn assert_same(a: &Path, b: &Path, ignore: &[&str]) {
    let (x, y) = (contents(a, ignore), contents(b, ignore));
    assert_eq!(x.iter().map(|f| &f.0).collect::<Vec<_>>(), y.iter().map(|f| &f.0).collect::<Vec<_>>());
    for ((name, p), (_, q)) in x.iter().zip(&y) {
        assert!(p == q, "{name} differs between {} and {}", a.display(), b.display());
    }
}
