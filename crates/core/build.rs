//! Fingerprints the crate's source for the node cache on disk: a cached result is reused only
//! by a program built from the same source (a changed node must not read its old results).

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            files(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

fn main() -> std::io::Result<()> {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=build.rs");
    let root = Path::new("src");
    let mut all = Vec::new();
    files(root, &mut all)?;
    all.sort();
    // FNV-1a, 64 bits: a fingerprint, not a defence against anyone.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for path in all {
        let name = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().into_owned();
        for b in name.bytes().chain([0u8]).chain(std::fs::read(&path)?).chain([0u8]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=PLANETGRAPH_CORE_FINGERPRINT={h:016x}");
    Ok(())
}
