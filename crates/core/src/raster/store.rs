//! The process-wide store of imported files. [`probe`] gives a file's identity, the SHA-256 of
//! its bytes, after checking its header; it is remembered while the file's length and
//! modification time stay the same, so compiling a graph again costs a `stat`. [`load`] gives the
//! decoded raster, shared by every evaluation and tile that reads the same content: the last
//! [`KEPT`] decoded files stay in memory, and threads that ask for one file at once wait for one
//! decoding instead of decoding it each.

use super::decode::{decode, header, io_why, open};
use super::{FileFormat, Raster, RasterError};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

/// A SHA-256 of a file's bytes.
pub type Hash = [u8; 32];

/// Decoded files kept in memory (six: the faces of a cube import).
pub const KEPT: usize = 6;

/// What says that a file has not changed since it was hashed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
}

type Identities = HashMap<(PathBuf, FileFormat), (Stamp, Hash)>;
type Decoded = Arc<OnceLock<Result<Arc<Raster>, RasterError>>>;
/// Decoded files by content and format, the most recently used last.
type DecodedList = Vec<((Hash, FileFormat), Decoded)>;

fn identities() -> &'static Mutex<Identities> {
    static IDENTITIES: OnceLock<Mutex<Identities>> = OnceLock::new();
    IDENTITIES.get_or_init(|| Mutex::new(HashMap::new()))
}

fn decoded() -> &'static Mutex<DecodedList> {
    static DECODED: OnceLock<Mutex<DecodedList>> = OnceLock::new();
    DECODED.get_or_init(|| Mutex::new(Vec::new()))
}

fn stamp(path: &Path) -> Result<Stamp, RasterError> {
    let meta = std::fs::metadata(path).map_err(|e| RasterError::new(path, io_why(&e)))?;
    if !meta.is_file() {
        return Err(RasterError::new(path, "is not a regular file"));
    }
    Ok(Stamp { len: meta.len(), modified: meta.modified().ok() })
}

fn hash_file(path: &Path) -> Result<Hash, RasterError> {
    let (mut file, _) = open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let got = file.read(&mut buf).map_err(|e| RasterError::new(path, io_why(&e)))?;
        if got == 0 {
            break;
        }
        hasher.update(&buf[..got]);
    }
    Ok(hasher.finalize().into())
}

/// The identity of the file at `path` read as `format`: its header checked (the format
/// recognised, the size within [`super::MAX_PIXELS`], a RAW file's length matching its size),
/// then the SHA-256 of its bytes. Remembered while its length and modification time stay
/// the same.
pub fn probe(path: &Path, format: FileFormat) -> Result<Hash, RasterError> {
    let now = stamp(path)?;
    let key = (path.to_path_buf(), format);
    if let Some((s, h)) = identities().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        if *s == now {
            return Ok(*h);
        }
    }
    header(path, format)?;
    let hash = hash_file(path)?;
    identities().lock().unwrap_or_else(|e| e.into_inner()).insert(key, (now, hash));
    Ok(hash)
}

/// `path` as a graph names it, resolved against the graph file's folder (`None`: the working
/// folder); an absolute path stays as it is.
pub fn resolve(folder: Option<&Path>, path: &str) -> PathBuf {
    match folder {
        Some(f) if Path::new(path).is_relative() => f.join(path),
        _ => PathBuf::from(path),
    }
}

/// `path` as a graph in folder `from` names it, named for a graph in folder `to`: relative
/// again where both folders are absolute (with `..` where needed), absolute otherwise; an
/// absolute path stays as it is.
pub fn moved(path: &str, from: &Path, to: &Path) -> String {
    if Path::new(path).is_absolute() || !from.is_absolute() || !to.is_absolute() {
        return if Path::new(path).is_absolute() { path.to_string() } else { from.join(path).to_string_lossy().to_string() };
    }
    relative(&from.join(path), to)
}

/// The absolute path `target` relative to the absolute folder `base` (with `..` where needed,
/// forward slashes), as a graph in `base` names it.
pub fn relative(target: &Path, base: &Path) -> String {
    let target: Vec<_> = target.components().collect();
    let base: Vec<_> = base.components().collect();
    let common = target.iter().zip(&base).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..base.len() {
        out.push("..");
    }
    for c in &target[common..] {
        out.push(c.as_os_str());
    }
    out.to_string_lossy().replace('\\', "/")
}

/// The files a node reads ([`crate::nodes::Node::files`]'s list) resolved against `folder`,
/// each probed, and one identity for all: the SHA-256 of their hashes in order.
pub fn probe_all(folder: Option<&Path>, files: &[(String, FileFormat)]) -> Result<(Vec<PathBuf>, Hash), RasterError> {
    let mut all = Sha256::new();
    let mut paths = Vec::with_capacity(files.len());
    for (name, format) in files {
        let path = resolve(folder, name);
        all.update(probe(&path, *format)?);
        paths.push(path);
    }
    Ok((paths, all.finalize().into()))
}

/// The decoded raster of the file at `path` read as `format`, from memory when the same
/// content was decoded lately.
pub fn load(path: &Path, format: FileFormat) -> Result<Arc<Raster>, RasterError> {
    let hash = probe(path, format)?;
    let cell: Decoded = {
        let mut list = decoded().lock().unwrap_or_else(|e| e.into_inner());
        let cell = match list.iter().position(|(k, _)| *k == (hash, format)) {
            Some(i) => list.remove(i).1,
            None => Arc::new(OnceLock::new()),
        };
        list.push(((hash, format), cell.clone()));
        if list.len() > KEPT {
            list.remove(0);
        }
        cell
    };
    let result = cell.get_or_init(|| decode(path, format).map(Arc::new)).clone();
    if result.is_err() {
        // A failed decoding is not kept: the next evaluation tries the file again.
        decoded().lock().unwrap_or_else(|e| e.into_inner()).retain(|(_, c)| !Arc::ptr_eq(c, &cell));
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moved_graph_names_the_same_files() {
        assert_eq!(moved("data/e.png", Path::new("/a/b"), Path::new("/a/c")), "../b/data/e.png");
        assert_eq!(moved("data/e.png", Path::new("/a/b"), Path::new("/a/b/d")), "../data/e.png");
        assert_eq!(moved("e_{face}.png", Path::new("/a"), Path::new("/a")), "e_{face}.png");
        assert_eq!(moved("/x/e.png", Path::new("/a"), Path::new("/b")), "/x/e.png");
    }

    #[test]
    fn the_identity_follows_the_content_not_the_name() {
        let dir = tempfile::tempdir().expect("tempdir");
        let raw = FileFormat::Raw { sample: super::super::RawSample::U16, width: 2, height: 1, big_endian: false };
        let (a, b) = (dir.path().join("a.r16"), dir.path().join("b.r16"));
        std::fs::write(&a, [1, 0, 2, 0]).expect("write");
        std::fs::write(&b, [1, 0, 2, 0]).expect("write");
        assert_eq!(probe(&a, raw), probe(&b, raw));
        let first = probe(&a, raw).expect("probe");
        // Same length, another content, and another modification time.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&a, [1, 0, 3, 0]).expect("write");
        let file = std::fs::File::options().write(true).open(&a).expect("open");
        file.set_modified(SystemTime::now() + std::time::Duration::from_secs(5)).expect("touch");
        assert_ne!(probe(&a, raw).expect("probe"), first);
        assert_eq!(load(&a, raw).expect("load").at(1, 0, 0), 3.0);
        std::fs::write(&a, [1, 0]).expect("write");
        assert!(load(&a, raw).is_err(), "a file cut short is refused, not served from memory");
    }
}
