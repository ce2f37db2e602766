//! Builds in shares: `build --tiles I/N` writes the I-th of N shares of a build's files and a
//! share record (`share_I_of_N.json`) instead of the manifest; `merge` checks that the shares
//! belong to one build and cover it exactly once, gathers their files into one folder and writes
//! the manifest a single build writes. The unit of a share is one image file (a face, a face's
//! tile or a whole equirectangular image) or one mesh with its textures, numbered over the whole
//! build in manifest order and dealt out in turn (unit `k` to share `k mod N`).
//!
//! A build that fits its memory is evaluated whole by every share: the shares split the
//! writing. A tiled build's shares evaluate the tiles their files read and their part of the
//! rest, for the data ranges ([`Ranges`]), which `merge` joins.

use super::base::{write_json, Control, ExportError, Share, MAX_SHARES};
use super::manifest::{Manifest, ManifestFile};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// What a share writes instead of the manifest.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ShareRecord {
    /// Always "planetgraph-share".
    pub format: String,
    /// Which share, 1-based.
    pub share: usize,
    /// Of how many.
    pub shares: usize,
    /// What build this is a share of.
    pub identity: BuildIdentity,
    /// Units of the whole build.
    pub units: usize,
    /// The unit of each of `manifest.files`.
    pub file_units: Vec<usize>,
    /// SHA-256 (hex) of each of `manifest.files`, as the share wrote it.
    pub sha256: Vec<String>,
    /// The manifest of this share's files (everything else as the whole build's; a tiled
    /// build's data ranges over the tiles this share evaluated).
    pub manifest: Manifest,
    /// A tiled build's ranges over the tiles this share evaluated, for `merge` to join.
    #[serde(default)]
    pub ranges: Ranges,
}

/// A share's part of a tiled build's data ranges: each share evaluates its part of every
/// exported value's tiles ([`super::tiled::TileStore::scan_share`]), so that together the
/// shares' ranges cover the planet.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Ranges {
    /// Per export job of the build, in order: the smallest and largest value over the tiles
    /// the share evaluated (`None`: not a tiled scalar value).
    pub jobs: Vec<Option<[f32; 2]>>,
    /// The job of each of the manifest's files.
    pub files: Vec<usize>,
}

impl Ranges {
    /// Sets the data range of each of `files` (those with one) to its job's in `jobs`.
    fn apply(jobs: &[Option<[f32; 2]>], file_jobs: &[usize], files: &mut [ManifestFile]) {
        for (f, &j) in files.iter_mut().zip(file_jobs) {
            if let (Some(_), Some(Some(range))) = (f.data_range, jobs.get(j)) {
                f.data_range = Some(*range);
            }
        }
    }
}

/// What makes shares parts of one build: the graph's content, the resolution, the evaluation
/// plan (a tiled build's whole-planet level, tile edge and own levels) and the program. Every
/// share records it and `merge` refuses shares whose identities differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildIdentity {
    /// SHA-256 (hex) of the graph as saved (its RON text): any edit gives another build.
    pub graph_sha256: String,
    /// Cells per cube-face edge.
    pub resolution: usize,
    /// A tiled build's whole-planet level (cells per face edge); None for a whole build.
    pub whole_planet_level: Option<usize>,
    /// A tiled build's tile edge (cells); None for a whole build.
    pub tile_cells: Option<usize>,
    /// A tiled build's whole-planet nodes that ran at a level of their own, by `Kind #id`.
    pub own_levels: BTreeMap<String, usize>,
    /// The program that built the share (`planetgraph VERSION`).
    pub program: String,
}

impl BuildIdentity {
    /// The first difference between `self` and `other`, in words, or None when they are one
    /// build.
    fn difference(&self, other: &BuildIdentity) -> Option<String> {
        let lvl = |l: Option<usize>| l.map_or("whole".to_string(), |l| l.to_string());
        if self.graph_sha256 != other.graph_sha256 {
            Some(format!("the graphs differ (SHA-256 {} against {})", short(&self.graph_sha256), short(&other.graph_sha256)))
        } else if self.resolution != other.resolution {
            Some(format!("resolution {} against {}", self.resolution, other.resolution))
        } else if self.whole_planet_level != other.whole_planet_level || self.tile_cells != other.tile_cells || self.own_levels != other.own_levels {
            Some(format!(
                "the evaluation plans differ (whole-planet level {} against {}, tiles {} against {}; build every share with the same --memory)",
                lvl(self.whole_planet_level),
                lvl(other.whole_planet_level),
                lvl(self.tile_cells),
                lvl(other.tile_cells)
            ))
        } else if self.program != other.program {
            Some(format!("built by {} against {}", self.program, other.program))
        } else {
            None
        }
    }
}

/// The first 12 hex digits of a hash, for messages.
fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

/// The program's name and version as build identities record it.
pub fn program_version() -> String {
    format!("planetgraph {}", env!("CARGO_PKG_VERSION"))
}

/// SHA-256 of `bytes`, as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}
/// The format tag of share records.
const RECORD_FORMAT: &str = "planetgraph-share";

/// The largest share record read, bytes (a record of 10 000 files is about 10 MB).
const MAX_RECORD_BYTES: u64 = 256 << 20;

/// Writes the record of `share` into `out`, with the SHA-256 of each of its files (read back
/// from `out`). `ranges`: the share's part of a tiled build's data ranges, which its files'
/// entries take.
pub fn write_record(out: &Path, share: Share, identity: BuildIdentity, units: usize, files: Vec<(usize, ManifestFile)>, ranges: Ranges, manifest: impl FnOnce(Vec<ManifestFile>) -> Manifest) -> Result<Manifest, ExportError> {
    let (file_units, mut files): (Vec<usize>, Vec<ManifestFile>) = files.into_iter().unzip();
    Ranges::apply(&ranges.jobs, &ranges.files, &mut files);
    let sha256 = files.iter().map(|f| file_sha256(&out.join(&f.path)).map(|(hash, _)| hash)).collect::<Result<Vec<_>, _>>()?;
    let record = ShareRecord { format: RECORD_FORMAT.into(), share: share.index + 1, shares: share.count, identity, units, file_units, sha256, manifest: manifest(files), ranges };
    let path = out.join(share.record_name());
    write_json(&path, &record)?;
    Ok(record.manifest)
}

fn invalid(message: String) -> ExportError {
    ExportError::Invalid { export: "merge".into(), message }
}

/// The SHA-256 (hex) and length of the regular file at `path`, which is opened without
/// following a symbolic link (a link, a folder or a device is refused).
fn file_sha256(path: &Path) -> Result<(String, u64), ExportError> {
    let mut file = open_regular(path)?;
    let mut hasher = Sha256::new();
    let bytes = std::io::copy(&mut file, &mut hasher).map_err(|source| ExportError::Io { path: path.to_path_buf(), source })?;
    Ok((hex(&hasher.finalize()), bytes))
}

/// Opens `path` for reading if it is a regular file and not a symbolic link
/// ([`crate::io::regular::open_regular`]), with merge's messages.
fn open_regular(path: &Path) -> Result<std::fs::File, ExportError> {
    use crate::io::regular::RegularFileError;
    crate::io::regular::open_regular(path).map(|(file, _)| file).map_err(|e| match e {
        RegularFileError::Link => invalid(format!("{}: a symbolic link; merge reads only regular files", path.display())),
        RegularFileError::NotRegular => invalid(format!("{}: not a regular file", path.display())),
        RegularFileError::Io(source) => ExportError::Io { path: path.to_path_buf(), source },
    })
}

/// Whether `name` is a file name a build writes: one plain component (no folder, no `..`, not
/// absolute), of letters, digits and `_ - . +` only, not hidden, and not a name `merge` itself
/// writes or reads (the manifest, share records).
pub fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= 255 && !name.starts_with('.') && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '+')) && name != "manifest.json" && !(name.starts_with("share_") && name.ends_with(".json"))
}

/// Reads every share record in the folders `inputs`, each validated as untrusted input: a
/// regular file (no link followed), of the format, with one unit, hash and plain file name per
/// file.
fn read_records(inputs: &[PathBuf]) -> Result<Vec<(PathBuf, ShareRecord)>, ExportError> {
    let mut records = Vec::new();
    for dir in inputs {
        let entries = std::fs::read_dir(dir).map_err(|source| ExportError::Io { path: dir.clone(), source })?;
        let mut names: Vec<PathBuf> = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|source| ExportError::Io { path: dir.clone(), source })?;
            let name = entry.file_name().to_string_lossy().to_string();
            if name.starts_with("share_") && name.ends_with(".json") {
                names.push(entry.path());
            }
        }
        names.sort();
        for path in names {
            let file = open_regular(&path)?;
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::Read::take(file, MAX_RECORD_BYTES), &mut text).map_err(|source| ExportError::Io { path: path.clone(), source })?;
            let record: ShareRecord = serde_json::from_str(&text).map_err(|e| invalid(format!("{}:{}:{}: not a share record of this PlanetGraph: {e}", path.display(), e.line(), e.column())))?;
            check_record(&path, &record)?;
            records.push((dir.clone(), record));
        }
    }
    Ok(records)
}

/// Checks one record's own consistency: its format, one unit and hash per file, every file a
/// plain name (see [`is_plain_file_name`]).
fn check_record(path: &Path, r: &ShareRecord) -> Result<(), ExportError> {
    let n = r.manifest.files.len();
    let ranges_fit = r.ranges.jobs.is_empty() || r.ranges.files.len() == n;
    if r.format != RECORD_FORMAT || r.file_units.len() != n || r.sha256.len() != n || !ranges_fit {
        return Err(invalid(format!("{}: not a share record of this PlanetGraph", path.display())));
    }
    if r.share == 0 || r.share > r.shares || r.shares > MAX_SHARES {
        return Err(invalid(format!("{}: share {}/{} is not a share of 1 to {MAX_SHARES}", path.display(), r.share, r.shares)));
    }
    for (f, hash) in r.manifest.files.iter().zip(&r.sha256) {
        if !is_plain_file_name(&f.path) {
            return Err(invalid(format!("{}: file {:?} is not a plain file name of a build (no folders, no '..', no absolute path, no manifest or share record)", path.display(), f.path)));
        }
        if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(invalid(format!("{}: file {:?} has no SHA-256", path.display(), f.path)));
        }
    }
    Ok(())
}

/// Checks that `records` are the shares of one build, each once and all of them, covering
/// every unit exactly once, no two files of one name.
fn check_records(records: &[(PathBuf, ShareRecord)], inputs: &[PathBuf]) -> Result<(), ExportError> {
    let Some((first_dir, first)) = records.first() else {
        return Err(invalid(format!("no share records (share_I_of_N.json) in {}", inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "))));
    };
    let n = first.shares;
    let key = |r: &ShareRecord| (r.shares, r.units, r.manifest.resolution, r.manifest.radius_km.map(f32::to_bits), r.manifest.conventions.clone(), r.ranges.jobs.len());
    let mut seen: BTreeMap<usize, &Path> = BTreeMap::new();
    for (dir, r) in records {
        let named = |dir: &Path, r: &ShareRecord| format!("share {}/{} in {}", r.share, r.shares, dir.display());
        if let Some(why) = first.identity.difference(&r.identity) {
            return Err(invalid(format!("{} and {} are of different builds: {why}", named(first_dir, first), named(dir, r))));
        }
        if key(r) != key(first) {
            return Err(invalid(format!("{} and {} disagree on the build (shares, units, resolution, radius, conventions or exports)", named(first_dir, first), named(dir, r))));
        }
        if let Some(other) = seen.insert(r.share, dir) {
            return Err(invalid(format!("share {}/{n} is both in {} and in {}", r.share, other.display(), dir.display())));
        }
    }
    let missing: Vec<String> = (1..=n).filter(|i| !seen.contains_key(i)).map(|i| format!("{i}/{n}")).collect();
    if !missing.is_empty() {
        return Err(invalid(format!("share {} missing (build it with --tiles)", missing.join(", "))));
    }
    let mut owner = vec![None; first.units];
    let mut names: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, r) in records {
        for &u in &r.file_units {
            let slot = owner.get_mut(u).ok_or_else(|| invalid(format!("share {}/{n} names unit {u} of a build of {}", r.share, first.units)))?;
            match *slot {
                Some(s) if s != r.share => return Err(invalid(format!("unit {u} is in shares {s}/{n} and {}/{n}", r.share))),
                _ => *slot = Some(r.share),
            }
        }
        for f in &r.manifest.files {
            if let Some(other) = names.insert(&f.path, r.share) {
                return Err(invalid(format!("file {} is listed by share {other}/{n} and by share {}/{n}", f.path, r.share)));
            }
        }
    }
    Ok(())
}

/// Files written into `out` under temporary names, renamed into place by [`Staged::commit`]
/// and removed if dropped before (a refused or cancelled merge leaves `out` as it was).
struct Staged {
    /// (temporary, final) paths.
    files: Vec<(PathBuf, PathBuf)>,
    /// `out`, if this merge created it (removed again when the merge fails).
    created: Option<PathBuf>,
}

impl Staged {
    fn commit(mut self) -> Result<(), ExportError> {
        for (tmp, to) in std::mem::take(&mut self.files) {
            std::fs::rename(&tmp, &to).map_err(|source| ExportError::Io { path: to.clone(), source })?;
        }
        self.created = None;
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        for (tmp, _) in &self.files {
            // Best effort: a temporary left behind is removed by the next export into `out`.
            let _ = std::fs::remove_file(tmp);
        }
        if let Some(dir) = &self.created {
            // Only if empty: nothing else of the user's is touched.
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// Joins the shares found in the folders `inputs` into `out`: checks them (every record as
/// untrusted input: plain file names, one build identity, every unit once), checks every file's
/// size and SHA-256 before anything is written, copies the files (unless already there) to
/// temporary names in `out` (checking the hash of what was copied) and renames them into place
/// once all are copied, then writes the manifest of the whole build, with its files in the
/// order a single build lists them, the timings of share 1 and a tiled build's data ranges
/// joined over the shares (each evaluated its part of the tiles); the share records in `out`
/// are then removed. A refused or cancelled merge leaves `out` as it was. Returns the manifest.
pub fn merge(inputs: &[PathBuf], out: &Path, control: &Control) -> Result<Manifest, ExportError> {
    let mut records = read_records(inputs)?;
    check_records(&records, inputs)?;
    records.sort_by_key(|(_, r)| r.share);
    let total: usize = records.iter().map(|(_, r)| r.manifest.files.len()).sum();
    control.progress.files_total.store(total, Ordering::Relaxed);
    control.progress.files_done.store(0, Ordering::Relaxed);
    // Every file checked before anything is written.
    for (dir, r) in &records {
        for (f, hash) in r.manifest.files.iter().zip(&r.sha256) {
            control.check()?;
            let from = dir.join(&f.path);
            let (found, size) = file_sha256(&from)?;
            if size != f.bytes {
                return Err(invalid(format!("{}: {size} bytes, but share {}/{} wrote {}", from.display(), r.share, r.shares, f.bytes)));
            }
            if found != *hash {
                return Err(invalid(format!("{}: its content is not what share {}/{} wrote (SHA-256 {} against {})", from.display(), r.share, r.shares, short(&found), short(hash))));
            }
        }
    }
    let created = (!out.exists()).then(|| out.to_path_buf());
    std::fs::create_dir_all(out).map_err(|source| ExportError::Io { path: out.to_path_buf(), source })?;
    let mut staged = Staged { files: Vec::new(), created };
    crate::io::atomic::remove_stale_temporaries(out).map_err(|source| ExportError::Io { path: out.to_path_buf(), source })?;
    let out_real = out.canonicalize().map_err(|source| ExportError::Io { path: out.to_path_buf(), source })?;
    // Each job's range over the planet: the shares' parts of the tiles cover it.
    let mut joined: Vec<Option<[f32; 2]>> = vec![None; records[0].1.ranges.jobs.len()];
    for (_, r) in &records {
        for (j, range) in joined.iter_mut().zip(&r.ranges.jobs) {
            *j = match (*j, *range) {
                (Some([a, b]), Some([c, d])) => Some([a.min(c), b.max(d)]),
                (a, b) => a.or(b),
            };
        }
    }
    let mut files: Vec<(usize, usize, ManifestFile)> = Vec::new();
    for (dir, r) in &records {
        let mut entries = r.manifest.files.clone();
        Ranges::apply(&joined, &r.ranges.files, &mut entries);
        let in_place = dir.canonicalize().map_err(|source| ExportError::Io { path: dir.clone(), source })? == out_real;
        for (k, ((f, &unit), hash)) in entries.iter().zip(&r.file_units).zip(&r.sha256).enumerate() {
            control.check()?;
            if !in_place {
                stage_copy(&dir.join(&f.path), &out_real.join(&f.path), hash, &mut staged)?;
            }
            control.progress.files_done.fetch_add(1, Ordering::Relaxed);
            files.push((unit, k, f.clone()));
        }
    }
    files.sort_by_key(|(unit, k, _)| (*unit, *k));
    let first = &records[0].1.manifest;
    let manifest = Manifest { files: files.into_iter().map(|(_, _, f)| f).collect(), ..first.clone() };
    let manifest_path = out_real.join("manifest.json");
    // The old manifest goes before the files change, so no manifest lists files it does not
    // describe; the new one is written last.
    match std::fs::remove_file(&manifest_path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(ExportError::Io { path: manifest_path, source: e }),
        _ => {}
    }
    staged.commit()?;
    write_json(&manifest_path, &manifest)?;
    for (dir, r) in &records {
        let record = dir.join(Share { index: r.share - 1, count: r.shares }.record_name());
        if dir.canonicalize().is_ok_and(|d| d == out_real) {
            std::fs::remove_file(&record).map_err(|source| ExportError::Io { path: record.clone(), source })?;
        }
    }
    Ok(manifest)
}

/// Copies `from` to a new temporary beside `to` (registered in `staged`) and checks that what
/// was copied has the SHA-256 `hash`.
fn stage_copy(from: &Path, to: &Path, hash: &str, staged: &mut Staged) -> Result<(), ExportError> {
    let mut src = open_regular(from)?;
    let (tmp, file) = crate::io::atomic::create_temporary_beside(to).map_err(|source| ExportError::Io { path: to.to_path_buf(), source })?;
    staged.files.push((tmp.clone(), to.to_path_buf()));
    let mut hasher = Sha256::new();
    let mut w = std::io::BufWriter::new(file);
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let k = std::io::Read::read(&mut src, &mut buf).map_err(|source| ExportError::Io { path: from.to_path_buf(), source })?;
        if k == 0 {
            break;
        }
        hasher.update(&buf[..k]);
        std::io::Write::write_all(&mut w, &buf[..k]).map_err(|source| ExportError::Io { path: tmp.clone(), source })?;
    }
    let file = w.into_inner().map_err(|e| ExportError::Io { path: tmp.clone(), source: e.into_error() })?;
    file.sync_all().map_err(|source| ExportError::Io { path: tmp.clone(), source })?;
    let found = hex(&hasher.finalize());
    if found != hash {
        return Err(invalid(format!("{}: changed while it was copied (SHA-256 {} against {})", from.display(), short(&found), short(hash))));
    }
    Ok(())
}

#[cfg(test)]
#[path = "share_tests.rs"]
mod tests;
