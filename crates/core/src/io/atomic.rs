//! Writing a file by a temporary beside it: the temporary is created exclusively (`O_EXCL`:
//! never an existing file, never through a symbolic link) under a name nobody can predict, and
//! renamed into place when complete. Graph saves, recovery copies and every export use it.

use std::fs::{File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};

/// Creates a new, empty temporary file in `path`'s folder, named after `path`, this process's id
/// and a random part (`.NAME.PID-RANDOM.part`), and returns its path and the open file. The name is new: an
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
        let tmp = dir.join(format!(".{name}.{}-{:016x}.part", std::process::id(), h.finish()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

/// The id of the process that made the temporary file named `name` (`.NAME.PID-RANDOM.part`),
/// or None for any other name.
fn temporary_owner(name: &str) -> Option<u32> {
    let stem = name.strip_prefix('.')?.strip_suffix(".part")?;
    let (pid, random) = stem.rsplit_once('.')?.1.split_once('-')?;
    (random.len() == 16 && random.bytes().all(|b| b.is_ascii_hexdigit())).then_some(())?;
    pid.parse().ok()
}

/// Removes the temporaries in `dir` that a process which no longer runs left behind (killed by
/// SIGTERM or SIGKILL half-way through a write): regular files named as
/// [`create_temporary_beside`] names them whose process id is not running. Links, other files
/// and the temporaries of running processes are left alone; where `/proc` cannot tell which
/// processes run, nothing is removed. Returns the files removed.
pub fn remove_stale_temporaries(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return Ok(Vec::new());
    }
    let mut removed = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let Some(pid) = temporary_owner(&entry.file_name().to_string_lossy()) else { continue };
        if entry.file_type()?.is_file() && !proc.join(pid.to_string()).exists() {
            std::fs::remove_file(entry.path())?;
            removed.push(entry.path());
        }
    }
    Ok(removed)
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

    /// Temporaries of processes that no longer run are removed; those of running processes,
    /// links and other files stay.
    #[cfg(target_os = "linux")]
    #[test]
    fn stale_temporaries_are_removed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("out.png");
        let (mine, _) = create_temporary_beside(&target).expect("mine");
        // Process ids never exceed 2^22 on Linux, so this one cannot be running.
        let stale = dir.path().join(".out.png.999999999-0123456789abcdef.part");
        std::fs::write(&stale, b"half").expect("stale");
        let link = dir.path().join(".x.png.999999999-0123456789abcdef.part");
        std::os::unix::fs::symlink(&target, &link).expect("link");
        let other = dir.path().join(".notes.999999999.part");
        std::fs::write(&other, b"user's").expect("other");
        assert_eq!(remove_stale_temporaries(dir.path()).expect("clean"), vec![stale.clone()]);
        assert!(!stale.exists() && mine.exists() && other.exists() && link.symlink_metadata().is_ok());
        assert_eq!(temporary_owner(".a.b.png.12-0123456789abcdef.part"), Some(12));
        assert_eq!(temporary_owner(".a.png.12-0123.part"), None);
    }
}
