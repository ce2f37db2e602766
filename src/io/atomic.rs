//! Writing a file by a temporary beside it: the temporary is created exclusively (`O_EXCL`:
//! never an existing file, never through a symbolic link) under a name nobody can predict, and
//! renamed into place when complete. Graph saves, recovery copies and every export use it.

use std::fs::{File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};

/// Creates a new, empty temporary file in `path`'s folder, named after `path` with a random
/// part (`.NAME.RANDOM.part`), and returns its path and the open file. The name is new: an
/// existing file or link at a candidate name is never opened, another name is drawn instead.
pub fn create_temporary_beside(path: &Path) -> std::io::Result<(PathBuf, File)> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_else(|| "file".into());
    let mut last = None;
    for attempt in 0..64u64 {
        // A random 64-bit number from the standard library's randomly keyed hasher.
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(attempt);
        h.write_u32(std::process::id());
        let tmp = dir.join(format!(".{name}.{:016x}.part", h.finish()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A link planted at a temporary name is never followed, and names are not predictable.
    #[cfg(unix)]
    #[test]
    fn temporaries_are_new_files_with_unpredictable_names() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("out.png");
        let (a, _) = create_temporary_beside(&target).expect("first");
        let (b, _) = create_temporary_beside(&target).expect("second");
        assert_ne!(a, b);
        assert!(a.file_name().is_some_and(|n| n.to_string_lossy().starts_with(".out.png.")));
        // A link at a name made like the old, predictable ones is left alone.
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"keep").expect("victim");
        std::os::unix::fs::symlink(&victim, dir.path().join(format!(".out.png.{}.part", std::process::id()))).expect("link");
        let (c, mut f) = create_temporary_beside(&target).expect("third");
        std::io::Write::write_all(&mut f, b"new").expect("write");
        assert_ne!(std::fs::read_link(dir.path().join(format!(".out.png.{}.part", std::process::id()))).ok(), None);
        assert_eq!(std::fs::read(&victim).expect("victim"), b"keep");
        assert_eq!(std::fs::read(&c).expect("temporary"), b"new");
    }
}
