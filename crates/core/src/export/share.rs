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

use super::{AtomicFile, Control, ExportError, Manifest, ManifestFile};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// Share `index` (0-based) of `count` shares of a build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    /// Which share, 0-based.
    pub index: usize,
    /// How many shares the build is split into.
    pub count: usize,
}

/// The most shares a build can be split into.
pub const MAX_SHARES: usize = 10_000;

impl Share {
    /// Reads `I/N` (1-based, as the command line writes it: `2/3` is the second of three).
    pub fn parse(text: &str) -> Result<Share, String> {
        let bad = || format!("'{text}' is not a share I/N (for example 2/3: the second of three shares)");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if n == 0 || n > MAX_SHARES {
            return Err(format!("'{text}': the number of shares must be 1 to {MAX_SHARES}"));
        }
        if i == 0 || i > n {
            return Err(format!("'{text}': the share must be 1 to {n}"));
        }
        Ok(Share { index: i - 1, count: n })
    }

    /// Whether unit `unit` of the build is this share's.
    pub fn owns(&self, unit: usize) -> bool {
        unit % self.count == self.index
    }

    /// The name of the share's record: `share_I_of_N.json`.
    pub fn record_name(&self) -> String {
        format!("share_{}_of_{}.json", self.index + 1, self.count)
    }
}

impl std::fmt::Display for Share {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// What a share writes instead of the manifest.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ShareRecord {
    /// Always "planetgraph-share".
    pub format: String,
    /// Which share, 1-based.
    pub share: usize,
    /// Of how many.
    pub shares: usize,
    /// Units of the whole build.
    pub units: usize,
    /// The unit of each of `manifest.files`.
    pub file_units: Vec<usize>,
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

/// The format tag of share records.
const RECORD_FORMAT: &str = "planetgraph-share";

/// Writes the record of `share` into `out`.
/// `ranges`: the share's part of a tiled build's data ranges, which its files' entries take.
pub fn write_record(out: &Path, share: Share, units: usize, files: Vec<(usize, ManifestFile)>, ranges: Ranges, manifest: impl FnOnce(Vec<ManifestFile>) -> Manifest) -> Result<Manifest, ExportError> {
    let (file_units, mut files): (Vec<usize>, Vec<ManifestFile>) = files.into_iter().unzip();
    Ranges::apply(&ranges.jobs, &ranges.files, &mut files);
    let record = ShareRecord { format: RECORD_FORMAT.into(), share: share.index + 1, shares: share.count, units, file_units, manifest: manifest(files), ranges };
    let path = out.join(share.record_name());
    write_json(&path, &record)?;
    Ok(record.manifest)
}

fn write_json(path: &Path, value: &impl Serialize) -> Result<(), ExportError> {
    let text = serde_json::to_vec_pretty(value).map_err(|e| ExportError::Encode { path: path.to_path_buf(), message: e.to_string() })?;
    let (file, mut w) = AtomicFile::create(path)?;
    std::io::Write::write_all(&mut w, &text).map_err(|source| ExportError::Io { path: path.to_path_buf(), source })?;
    file.commit(w)?;
    Ok(())
}

fn invalid(message: String) -> ExportError {
    ExportError::Invalid { export: "merge".into(), message }
}

/// Reads every share record in the folders `inputs`.
fn read_records(inputs: &[PathBuf]) -> Result<Vec<(PathBuf, ShareRecord)>, ExportError> {
    let mut records = Vec::new();
    for dir in inputs {
        let entries = std::fs::read_dir(dir).map_err(|source| ExportError::Io { path: dir.clone(), source })?;
        for entry in entries {
            let entry = entry.map_err(|source| ExportError::Io { path: dir.clone(), source })?;
            let name = entry.file_name().to_string_lossy().to_string();
            if !(name.starts_with("share_") && name.ends_with(".json")) {
                continue;
            }
            let path = entry.path();
            let text = std::fs::read_to_string(&path).map_err(|source| ExportError::Io { path: path.clone(), source })?;
            let record: ShareRecord = serde_json::from_str(&text).map_err(|e| invalid(format!("{}: not a share record: {e}", path.display())))?;
            let ranges_fit = record.ranges.jobs.is_empty() || record.ranges.files.len() == record.manifest.files.len();
            if record.format != RECORD_FORMAT || record.file_units.len() != record.manifest.files.len() || !ranges_fit {
                return Err(invalid(format!("{}: not a share record of this PlanetGraph", path.display())));
            }
            records.push((dir.clone(), record));
        }
    }
    Ok(records)
}

/// Checks that `records` are the shares of one build, each once and all of them, covering
/// every unit exactly once.
fn check_records(records: &[(PathBuf, ShareRecord)], inputs: &[PathBuf]) -> Result<(), ExportError> {
    let Some((_, first)) = records.first() else {
        return Err(invalid(format!("no share records (share_I_of_N.json) in {}", inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "))));
    };
    let n = first.shares;
    let key = |r: &ShareRecord| (r.shares, r.units, r.manifest.graph.clone(), r.manifest.resolution, r.manifest.radius_km.map(f32::to_bits), r.manifest.conventions.clone());
    let mut seen: BTreeMap<usize, &Path> = BTreeMap::new();
    for (dir, r) in records {
        if key(r) != key(first) {
            return Err(invalid(format!("{}: share {}/{} is of another build than share {}/{} (graph {}, resolution {}, {} shares)", dir.display(), r.share, r.shares, first.share, n, first.manifest.graph, first.manifest.resolution, n)));
        }
        if let Some(other) = seen.insert(r.share, dir) {
            return Err(invalid(format!("share {}/{n} is both in {} and in {}", r.share, other.display(), dir.display())));
        }
    }
    let missing: Vec<String> = (1..=n).filter(|i| !seen.contains_key(i)).map(|i| format!("{i}/{n}")).collect();
    if !missing.is_empty() {
        return Err(invalid(format!("share {} missing (build it with --tiles)", missing.join(", "))));
    }
    if records.iter().any(|(_, r)| r.ranges.jobs.len() != first.ranges.jobs.len()) {
        return Err(invalid(format!("the shares' records disagree on the build's exports ({} shares)", n)));
    }
    let mut owner = vec![None; first.units];
    for (_, r) in records {
        for &u in &r.file_units {
            let slot = owner.get_mut(u).ok_or_else(|| invalid(format!("share {}/{n} names unit {u} of a build of {}", r.share, first.units)))?;
            match *slot {
                Some(s) if s != r.share => return Err(invalid(format!("unit {u} is in shares {s}/{n} and {}/{n}", r.share))),
                _ => *slot = Some(r.share),
            }
        }
    }
    Ok(())
}

/// Joins the shares found in the folders `inputs` into `out`: checks them, copies their files
/// (unless already there) and writes the manifest of the whole build, with its files in the
/// order a single build lists them, the timings of share 1 and a tiled build's data ranges
/// joined over the shares (each evaluated its part of the tiles); the share records in `out`
/// are then removed. Returns the manifest.
pub fn merge(inputs: &[PathBuf], out: &Path, control: &Control) -> Result<Manifest, ExportError> {
    let mut records = read_records(inputs)?;
    check_records(&records, inputs)?;
    records.sort_by_key(|(_, r)| r.share);
    let manifest_path = super::prepare_folder(out)?;
    let out_real = out.canonicalize().map_err(|source| ExportError::Io { path: out.to_path_buf(), source })?;
    let total: usize = records.iter().map(|(_, r)| r.manifest.files.len()).sum();
    control.progress.files_total.store(total, Ordering::Relaxed);
    control.progress.files_done.store(0, Ordering::Relaxed);
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
        for (k, (f, &unit)) in entries.iter().zip(&r.file_units).enumerate() {
            control.check()?;
            let from = dir.join(&f.path);
            let size = std::fs::metadata(&from).map_err(|source| ExportError::Io { path: from.clone(), source })?.len();
            if size != f.bytes {
                return Err(invalid(format!("{}: {size} bytes, but share {}/{} wrote {}", from.display(), r.share, r.shares, f.bytes)));
            }
            if !in_place {
                copy_atomically(&from, &out.join(&f.path))?;
            }
            control.progress.files_done.fetch_add(1, Ordering::Relaxed);
            files.push((unit, k, f.clone()));
        }
    }
    files.sort_by_key(|(unit, k, _)| (*unit, *k));
    let first = &records[0].1.manifest;
    let manifest = Manifest { files: files.into_iter().map(|(_, _, f)| f).collect(), ..first.clone() };
    write_json(&manifest_path, &manifest)?;
    for (dir, r) in &records {
        let record = dir.join(Share { index: r.share - 1, count: r.shares }.record_name());
        if dir.canonicalize().is_ok_and(|d| d == out_real) {
            std::fs::remove_file(&record).map_err(|source| ExportError::Io { path: record.clone(), source })?;
        }
    }
    Ok(manifest)
}

/// Copies `from` to `to` through a temporary beside `to`.
fn copy_atomically(from: &Path, to: &Path) -> Result<(), ExportError> {
    let mut src = std::fs::File::open(from).map_err(|source| ExportError::Io { path: from.to_path_buf(), source })?;
    let (file, mut w) = AtomicFile::create(to)?;
    std::io::copy(&mut src, &mut w).map_err(|source| ExportError::Io { path: to.to_path_buf(), source })?;
    file.commit(w)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Share;

    #[test]
    fn shares_parse_and_deal_units_in_turn() {
        let s = Share::parse("2/3").expect("2/3");
        assert_eq!(s, Share { index: 1, count: 3 });
        assert_eq!((0..7).filter(|&u| s.owns(u)).collect::<Vec<_>>(), vec![1, 4]);
        assert_eq!(s.record_name(), "share_2_of_3.json");
        assert_eq!(s.to_string(), "2/3");
        for bad in ["4/3", "0/3", "1/0", "x", "1/", "-1/3", "3"] {
            assert!(Share::parse(bad).is_err(), "{bad}");
        }
        assert!(Share::parse("4/3").err().is_some_and(|e| e.contains("1 to 3")));
    }
}
