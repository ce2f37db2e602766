//! Node results on disk, kept between runs: reopening a graph, undo, redo and going back to
//! an earlier value of a parameter read the results instead of computing them again.
//!
//! An entry is one node's outputs at one level, named by its key: a SHA-256 over the node's
//! kind, settings, level, the planet's settings it reads, the keys of its inputs and the
//! program's source fingerprint, so a result is found again only for the same work by the same
//! program. The file holds a header, the key, the outputs (whole-planet fields, colour fields
//! and vector fields; nodes with other outputs are not stored) and a SHA-256 of all of it: an entry cut
//! short by a crash, changed on disk or written for another key is detected, dropped and
//! written again, never used. Entries are written under a temporary name and renamed, and the
//! least recently used go once the folder passes its cap ([`DEFAULT_CAP_BYTES`]).
//!
//! Every file in the folder is treated as planted by someone else: entries are opened without
//! following symbolic links, only as regular files no larger than the cap, and checked as
//! above. The folder itself must belong to the user running the program and must not be
//! writable by everyone (a folder this program makes is private to its user): anyone who can
//! write there could hand it results with sound checksums.
//!
//! A folder that cannot be created or written (read-only, full) or that is not the user's
//! turns the cache off for the run: [`DiskCache::notice`] says so once, and evaluation goes on
//! without.

use crate::nodes::Value;
use crate::planet::{ColourField, Field, VectorField};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Default size cap of the cache folder, bytes (2 GiB).
pub const DEFAULT_CAP_BYTES: u64 = 2 << 30;
/// Nodes faster than this are not stored (reading them back would take about as long), ms.
pub const MIN_STORE_MS: f64 = 5.0;
/// The file name ending of an entry.
const ENTRY: &str = "pgnc";
/// The start of the name of an entry being written (renamed to its key's name when whole).
const PARTIAL: &str = ".partial-";
/// The first bytes of an entry, with its format's version.
const MAGIC: &[u8; 8] = b"PGNCACH1";
/// The fingerprint of the source this program was built from (see `build.rs`).
pub const PROGRAM_FINGERPRINT: &str = env!("PLANETGRAPH_CORE_FINGERPRINT");

/// A node result's key: the SHA-256 of what decides it.
pub type Key = [u8; 32];

/// The cache folder the editor uses: `PLANETGRAPH_CACHE_DIR` if set, else
/// `$XDG_CACHE_HOME/planetgraph/nodes`, else `~/.cache/planetgraph/nodes`; `None` without a
/// home folder.
pub fn default_dir() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = var("PLANETGRAPH_CACHE_DIR") {
        return Some(dir);
    }
    var("XDG_CACHE_HOME").or_else(|| var("HOME").map(|h| h.join(".cache"))).map(|c| c.join("planetgraph").join("nodes"))
}

/// The cap the editor uses: `PLANETGRAPH_CACHE_MAX_MB` (MiB) if set to a number, else
/// [`DEFAULT_CAP_BYTES`].
pub fn default_cap_bytes() -> u64 {
    std::env::var("PLANETGRAPH_CACHE_MAX_MB").ok().and_then(|v| v.trim().parse::<u64>().ok()).map_or(DEFAULT_CAP_BYTES, |mb| mb << 20)
}

/// The node cache in one folder. Shared between threads.
pub struct DiskCache {
    dir: PathBuf,
    cap_bytes: u64,
    /// Why the cache is off (set once, on the first failure).
    off: Mutex<Option<String>>,
    /// Whether [`DiskCache::notice`] has handed out the reason.
    told: AtomicBool,
    /// Entries read back and written in this run.
    hits: AtomicU64,
    stores: AtomicU64,
    /// Entries found damaged or foreign and dropped.
    dropped: AtomicU64,
    /// Whether the folder has been made (if missing) and found to be the user's own.
    checked: std::sync::OnceLock<()>,
    /// Bytes the entries take, as last counted plus what was written since (`None` until the
    /// first count): the folder is scanned again only when this passes the cap.
    total: Mutex<Option<u64>>,
}

/// Size and entries of a cache folder.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheUsage {
    /// Entries.
    pub entries: usize,
    /// Bytes in all.
    pub bytes: u64,
}

impl DiskCache {
    /// The cache in `dir` (made when first written) holding at most `cap_bytes`.
    pub fn new(dir: impl Into<PathBuf>, cap_bytes: u64) -> Arc<DiskCache> {
        Arc::new(DiskCache {
            dir: dir.into(),
            cap_bytes,
            off: Mutex::new(None),
            told: AtomicBool::new(false),
            hits: AtomicU64::new(0),
            stores: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            checked: std::sync::OnceLock::new(),
            total: Mutex::new(None),
        })
    }

    /// The user's cache ([`default_dir`], [`default_cap_bytes`]) that the editor and
    /// `build --cache` share, or `None` without a home folder.
    pub fn user_default() -> Option<Arc<DiskCache>> {
        default_dir().map(|d| DiskCache::new(d, default_cap_bytes()))
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Entries read back, written and dropped (damaged or foreign) so far.
    pub fn counts(&self) -> (u64, u64, u64) {
        (self.hits.load(Ordering::Relaxed), self.stores.load(Ordering::Relaxed), self.dropped.load(Ordering::Relaxed))
    }

    /// Why the cache is off, once: the first call after it turned off says why, later calls
    /// say nothing.
    pub fn notice(&self) -> Option<String> {
        let why = self.off.lock().ok()?.clone()?;
        (!self.told.swap(true, Ordering::Relaxed)).then_some(why)
    }

    /// Whether the cache is off; the first call makes the folder if it is missing and checks
    /// that it is the user's own (turning the cache off if not).
    fn is_off(&self) -> bool {
        self.checked.get_or_init(|| {
            if let Err(why) = own_folder(&self.dir) {
                self.turn_off(why);
            }
        });
        self.off.lock().map_or(true, |o| o.is_some())
    }

    fn turn_off(&self, why: String) {
        if let Ok(mut off) = self.off.lock() {
            if off.is_none() {
                *off = Some(format!("the node cache in {} is off for this run: {why}", self.dir.display()));
            }
        }
    }

    fn path(&self, key: &Key) -> PathBuf {
        let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
        self.dir.join(format!("{hex}.{ENTRY}"))
    }

    /// The outputs stored under `key`, if an entry is there and sound (`outputs` of them);
    /// a damaged or foreign entry is removed.
    pub fn load(&self, key: &Key, outputs: usize) -> Option<Vec<Option<Value>>> {
        if self.is_off() {
            return None;
        }
        let path = self.path(key);
        // Not a link, not a special file, not larger than the cap: else dropped like damage.
        let bytes = match crate::io::regular::open_regular(&path) {
            Ok((mut file, len)) if len <= self.cap_bytes => {
                let mut bytes = Vec::with_capacity(len as usize);
                std::io::Read::read_to_end(&mut file, &mut bytes).ok().map(|_| bytes)
            }
            Err(crate::io::regular::RegularFileError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => return None,
            _ => None,
        };
        match bytes.as_deref().and_then(|b| decode(b, key, outputs)) {
            Some(v) => {
                // Recently used: the eviction keeps it longest. A failure only ages it.
                if let Ok((f, _)) = crate::io::regular::open_regular(&path) {
                    let _ = f.set_modified(std::time::SystemTime::now());
                }
                self.hits.fetch_add(1, Ordering::Relaxed);
                Some(v)
            }
            None => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
                // Written again after the node runs; a failure to remove it shows then.
                let _ = std::fs::remove_file(&path);
                None
            }
        }
    }

    /// Stores `outputs` under `key` when every output is a whole-planet field, colour field or
    /// vector field (others are not stored) and the entry is at most half the cap, then trims
    /// the folder to its cap.
    pub fn store(&self, key: &Key, outputs: &[Option<Value>]) {
        if self.is_off() {
            return;
        }
        let Some(bytes) = encode(key, outputs) else { return };
        // An entry of more than half the cap would push out most of what the cache holds.
        if bytes.len() as u64 > self.cap_bytes / 2 {
            return;
        }
        if let Err(e) = self.write(key, &bytes) {
            self.turn_off(e.to_string());
            return;
        }
        self.stores.fetch_add(1, Ordering::Relaxed);
        if let Err(e) = self.trim(bytes.len() as u64) {
            self.turn_off(format!("cannot trim it to its cap: {e}"));
        }
    }

    /// Counts `written` more bytes and, when the count passes the cap, removes the least
    /// recently used entries until the folder holds at most the cap (counting it afresh).
    fn trim(&self, written: u64) -> std::io::Result<()> {
        let Ok(mut total) = self.total.lock() else { return Ok(()) };
        if let Some(t) = total.as_mut() {
            *t += written;
            if *t <= self.cap_bytes {
                return Ok(());
            }
        }
        *total = Some(trim(&self.dir, self.cap_bytes)?);
        Ok(())
    }

    fn write(&self, key: &Key, bytes: &[u8]) -> std::io::Result<()> {
        use std::io::Write;
        let path = self.path(key);
        let mut tmp = tempfile::Builder::new().prefix(PARTIAL).tempfile_in(&self.dir)?;
        tmp.write_all(bytes)?;
        tmp.persist(&path).map_err(|e| e.error)?;
        Ok(())
    }
}

/// Entries and bytes in the cache folder `dir` (nothing for a folder that is not there).
pub fn usage(dir: &Path) -> std::io::Result<CacheUsage> {
    Ok(entries(dir)?.iter().fold(CacheUsage::default(), |u, e| CacheUsage { entries: u.entries + 1, bytes: u.bytes + e.1 }))
}

/// Removes every entry in `dir`, and what a crash left half written; what was removed (the
/// entries).
pub fn clear(dir: &Path) -> std::io::Result<CacheUsage> {
    let found = entries(dir)?;
    for (path, _, _) in &found {
        std::fs::remove_file(path)?;
    }
    if let Ok(read) = std::fs::read_dir(dir) {
        for entry in read.flatten().filter(|e| e.file_name().to_string_lossy().starts_with(PARTIAL)) {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(CacheUsage { entries: found.len(), bytes: found.iter().map(|e| e.1).sum() })
}

/// Makes `dir` if it is missing (private to the user) and checks that it belongs to the user
/// and that not everyone can write in it; why not, if not.
fn own_folder(dir: &Path) -> Result<(), String> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).map_err(|e| e.to_string())?;
    let meta = std::fs::symlink_metadata(dir).map_err(|e| e.to_string())?;
    if !meta.is_dir() {
        return Err("it is not a folder".into());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me {
            return Err(format!("it belongs to another user (uid {}, this program runs as {me})", meta.uid()));
        }
        if meta.mode() & 0o002 != 0 {
            return Err("everyone can write in it".into());
        }
    }
    Ok(())
}

/// The entries in `dir`: path, size and last use.
fn entries(dir: &Path) -> std::io::Result<Vec<(PathBuf, u64, std::time::SystemTime)>> {
    let read = match std::fs::read_dir(dir) {
        Ok(r) => r,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut out = Vec::new();
    for entry in read {
        let entry = entry?;
        let path = entry.path();
        if path.extension().is_some_and(|x| x == ENTRY) {
            let meta = entry.metadata()?;
            out.push((path, meta.len(), meta.modified()?));
        }
    }
    Ok(out)
}

/// Removes the least recently used entries of `dir` until it holds at most `cap` bytes; the
/// bytes left.
fn trim(dir: &Path, cap: u64) -> std::io::Result<u64> {
    let mut all = entries(dir)?;
    let mut total: u64 = all.iter().map(|e| e.1).sum();
    if total <= cap {
        return Ok(total);
    }
    all.sort_by(|a, b| a.2.cmp(&b.2).then_with(|| a.0.cmp(&b.0)));
    for (path, size, _) in all {
        if total <= cap {
            break;
        }
        std::fs::remove_file(&path)?;
        total -= size;
    }
    Ok(total)
}

/// The bytes of an entry, or `None` when an output is not storable.
fn encode(key: &Key, outputs: &[Option<Value>]) -> Option<Vec<u8>> {
    let mut b = Vec::new();
    b.extend(MAGIC);
    b.extend(key);
    b.extend((outputs.len() as u32).to_le_bytes());
    for o in outputs {
        match o {
            None => b.push(0),
            Some(Value::Field(f)) if matches!(f.grid(), crate::planet::Grid::Whole(_)) => {
                b.push(1);
                b.extend((f.n() as u32).to_le_bytes());
                b.extend(bytemuck::cast_slice::<f32, u8>(f.data()));
            }
            Some(Value::Colour(c)) if c.tile.is_none() => {
                b.push(2);
                b.extend((c.n as u32).to_le_bytes());
                b.extend(bytemuck::cast_slice::<[f32; 3], u8>(&c.data));
            }
            Some(Value::Vector(v)) if v.tile.is_none() => {
                b.push(3);
                b.extend((v.n as u32).to_le_bytes());
                b.extend(bytemuck::cast_slice::<[f32; 3], u8>(&v.data));
            }
            Some(_) => return None,
        }
    }
    let digest = Sha256::digest(&b);
    b.extend(digest);
    Some(b)
}

/// The outputs of an entry's bytes, if they are sound and are `key`'s with `outputs` of them.
fn decode(bytes: &[u8], key: &Key, outputs: usize) -> Option<Vec<Option<Value>>> {
    let body = bytes.len().checked_sub(32).map(|n| &bytes[..n])?;
    if Sha256::digest(body).as_slice() != &bytes[body.len()..] {
        return None;
    }
    let mut r = Reader(body);
    if r.take(MAGIC.len())? != MAGIC || r.take(32)? != key || r.u32()? as usize != outputs {
        return None;
    }
    let mut out = Vec::with_capacity(outputs);
    for _ in 0..outputs {
        let tag = r.take(1)?[0];
        if tag == 0 {
            out.push(None);
            continue;
        }
        let n = r.u32()? as usize;
        let cells = 6usize.checked_mul(n)?.checked_mul(n)?;
        match tag {
            1 => {
                let data: Vec<f32> = r.take(cells.checked_mul(4)?)?.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
                out.push(Some(Value::Field(Arc::new(Field::from_vec(n, data).ok()?))));
            }
            2 | 3 => {
                let data: Vec<[f32; 3]> = r.take(cells.checked_mul(12)?)?.chunks_exact(12).map(|c| [0, 4, 8].map(|k| f32::from_le_bytes([c[k], c[k + 1], c[k + 2], c[k + 3]]))).collect();
                out.push(Some(if tag == 2 { Value::Colour(Arc::new(ColourField { n, tile: None, data })) } else { Value::Vector(Arc::new(VectorField { n, tile: None, data })) }));
            }
            _ => return None,
        }
    }
    r.0.is_empty().then_some(out)
}

/// Reads an entry's body front to back.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, k: usize) -> Option<&'a [u8]> {
        if self.0.len() < k {
            return None;
        }
        let (head, rest) = self.0.split_at(k);
        self.0 = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        self.take(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

#[cfg(test)]
#[path = "disk_cache_tests.rs"]
mod tests;
