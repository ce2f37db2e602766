//! Exports: the files that `planetgraph build` and the editor's File > Export write for the
//! graph's Export nodes (or, in a graph without any, the Planet node's default set), and the
//! manifest (JSON, version 2) that lists every file with its projection, face, orientation,
//! value mapping, units, byte order and size.
//!
//! Every file is written to a temporary name in the output folder and renamed when complete;
//! the manifest is written last, so a manifest never lists a file that was not completely
//! written (an old manifest is removed when an export starts).

pub mod build;
pub mod encode;
mod entries;
pub mod images;
pub mod jobs;
pub mod manifest;
pub mod mesh;
pub mod names;
pub mod presets;
pub mod share;
pub mod source;
pub mod splat;
pub mod tiled;
pub mod tiled_build;

pub use build::{build_targets, evaluate_exports, export_graph, export_graph_planned, BuildError, NodeFailure};
pub use jobs::{default_jobs, jobs_from_result, planned_files, ExportJob};
pub use manifest::{conventions, Manifest, ManifestFile};
pub use share::Share;

use crate::nodes::output::planet::PlanetSettings;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use thiserror::Error;

/// An export could not be written.
#[derive(Debug, Error)]
pub enum ExportError {
    /// File system error (unwritable folder, full disk...).
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// OS error.
        source: std::io::Error,
    },
    /// An encoder refused the data.
    #[error("{path}: {message}")]
    Encode {
        /// The file.
        path: PathBuf,
        /// Encoder message.
        message: String,
    },
    /// An Export node's settings or inputs do not allow the export.
    #[error("{export}: {message}")]
    Invalid {
        /// The Export node (`Export #12 'elevation'`).
        export: String,
        /// What is wrong.
        message: String,
    },
    /// The export was cancelled; files already complete stay, no manifest is written.
    #[error("export cancelled; no manifest was written")]
    Cancelled,
}

/// What every export of one build shares.
#[derive(Debug, Clone)]
pub struct ExportContext {
    /// The graph file (for the manifest).
    pub graph: String,
    /// SHA-256 (hex) of what the build evaluates, for a share's build identity (empty outside
    /// a share).
    pub graph_sha256: String,
    /// Cells per face edge of the evaluation.
    pub resolution: usize,
    /// The Planet node's settings (radius, metres range), if the graph has one.
    pub planet: Option<PlanetSettings>,
    /// Milliseconds per node of the evaluation, by `Kind #id`.
    pub timings_ms: BTreeMap<String, f64>,
    /// Only this share of the files, with a share record instead of the manifest (see
    /// [`share`]); None for the whole build.
    pub share: Option<Share>,
    /// A tiled build's plan; None for a build that evaluated the whole planet.
    pub tiled: Option<tiled::TilePlan>,
    /// A tiled build's whole-planet nodes that ran below the plan's level, at a level of their
    /// own (cells per face edge, by `Kind #id`; [`crate::eval::whole_levels`]).
    pub own_levels: BTreeMap<String, usize>,
}

/// Progress of an export: files done of files planned, and rows of the current file.
#[derive(Debug, Default)]
pub struct ExportProgress {
    /// Files finished.
    pub files_done: AtomicUsize,
    /// Files planned.
    pub files_total: AtomicUsize,
    /// Rows of the current file written.
    pub rows_done: AtomicUsize,
    /// Rows of the current file.
    pub rows_total: AtomicUsize,
    /// Tiles evaluated so far for a tiled value's range over the planet (after a file, the
    /// tiles no file read; before one with an automatic mapping, every tile it lacks).
    pub tiles_scanned: AtomicUsize,
    /// Tiles the running range scan evaluates (0: none is running).
    pub tiles_to_scan: AtomicUsize,
}

impl ExportProgress {
    /// Share done, 0..1.
    pub fn fraction(&self) -> f32 {
        let total = self.files_total.load(Ordering::Relaxed).max(1) as f32;
        let rows = self.rows_total.load(Ordering::Relaxed);
        let inner = if rows > 0 { self.rows_done.load(Ordering::Relaxed) as f32 / rows as f32 } else { 0.0 };
        ((self.files_done.load(Ordering::Relaxed) as f32 + inner.min(1.0)) / total).min(1.0)
    }
}

/// Cancel flag and progress counters of one export.
pub struct Control<'a> {
    /// Set to stop; checked between strips of rows.
    pub cancel: &'a AtomicBool,
    /// Counters for a progress bar.
    pub progress: &'a ExportProgress,
}

impl Control<'_> {
    /// `Err(Cancelled)` once the cancel flag is set.
    pub fn check(&self) -> Result<(), ExportError> {
        if self.cancel.load(Ordering::Relaxed) {
            Err(ExportError::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// A file being written under a temporary name in its folder; [`AtomicFile::commit`] renames
/// it into place, and dropping it uncommitted removes it.
pub struct AtomicFile {
    tmp: PathBuf,
    path: PathBuf,
    committed: bool,
}

impl AtomicFile {
    /// Creates the temporary file beside `path`, exclusively and under an unpredictable name
    /// ([`crate::io::atomic::create_temporary_beside`]), and returns it with a buffered writer.
    pub fn create(path: &Path) -> Result<(AtomicFile, std::io::BufWriter<std::fs::File>), ExportError> {
        let (tmp, file) = crate::io::atomic::create_temporary_beside(path).map_err(|source| ExportError::Io { path: path.to_path_buf(), source })?;
        Ok((AtomicFile { tmp, path: path.to_path_buf(), committed: false }, std::io::BufWriter::with_capacity(1 << 20, file)))
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes and syncs `writer`, then renames the file into place; returns its size in
    /// bytes.
    pub fn commit(mut self, writer: std::io::BufWriter<std::fs::File>) -> Result<u64, ExportError> {
        let io = |source| ExportError::Io { path: self.path.clone(), source };
        let file = writer.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)?;
        let bytes = file.metadata().map_err(io)?.len();
        drop(file);
        std::fs::rename(&self.tmp, &self.path).map_err(io)?;
        self.committed = true;
        Ok(bytes)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.committed {
            // Cleaning up after a failure: the failure itself is what gets reported.
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Makes the output folder ready for a build or a merge: creates it, removes the temporaries a
/// killed build left there and any old manifest (which must not outlive a failed or cancelled
/// build); returns the manifest's path.
fn prepare_folder(out: &Path) -> Result<PathBuf, ExportError> {
    std::fs::create_dir_all(out).map_err(|source| ExportError::Io { path: out.to_path_buf(), source })?;
    crate::io::atomic::remove_stale_temporaries(out).map_err(|source| ExportError::Io { path: out.to_path_buf(), source })?;
    let manifest_path = out.join("manifest.json");
    match std::fs::remove_file(&manifest_path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(ExportError::Io { path: manifest_path, source: e }),
        _ => Ok(manifest_path),
    }
}

/// Writes every job into `out` and then `out/manifest.json`; returns the manifest.
pub fn write_exports(out: &Path, jobs: &[ExportJob], ctx: &ExportContext, control: &Control) -> Result<Manifest, ExportError> {
    let manifest_path = prepare_folder(out)?;
    if let Some(share) = ctx.share {
        let record = out.join(share.record_name());
        match std::fs::remove_file(&record) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(ExportError::Io { path: record, source: e }),
            _ => {}
        }
    }
    // Files of the units this build writes (all of them without a share), for progress.
    let mut planned = 0;
    let mut unit = 0;
    for job in jobs {
        let units = job.units();
        let owned = (unit..unit + units).filter(|&u| ctx.share.is_none_or(|s| s.owns(u))).count();
        planned += if units == 1 { owned * job.file_count() } else { owned };
        unit += units;
    }
    control.progress.files_total.store(planned, Ordering::Relaxed);
    control.progress.files_done.store(0, Ordering::Relaxed);
    let mut files = Vec::new();
    let mut file_jobs = Vec::new();
    let mut first_unit = 0;
    for (j, job) in jobs.iter().enumerate() {
        control.check()?;
        let written = job.write(out, ctx, control, first_unit)?;
        file_jobs.extend(std::iter::repeat_n(j, written.len()));
        files.extend(written);
        first_unit += job.units();
    }
    if let Some(share) = ctx.share {
        let ranges = share::Ranges { jobs: jobs.iter().map(ExportJob::tiled_range).collect(), files: file_jobs };
        let identity = share::BuildIdentity {
            graph_sha256: ctx.graph_sha256.clone(),
            resolution: ctx.resolution,
            whole_planet_level: ctx.tiled.map(|p| p.cap),
            tile_cells: ctx.tiled.map(|p| p.tile),
            own_levels: ctx.own_levels.clone(),
            program: share::program_version(),
        };
        return share::write_record(out, share, identity, first_unit, files, ranges, |files| Manifest::new(ctx, files));
    }
    let manifest = Manifest::new(ctx, files.into_iter().map(|(_, f)| f).collect());
    write_json(&manifest_path, &manifest)?;
    Ok(manifest)
}

/// Writes `value` as pretty-printed JSON to `path` under a temporary name, renamed into place
/// when complete; returns the file's size in bytes.
fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<u64, ExportError> {
    let text = serde_json::to_vec_pretty(value).map_err(|e| ExportError::Encode { path: path.to_path_buf(), message: e.to_string() })?;
    let (file, mut w) = AtomicFile::create(path)?;
    std::io::Write::write_all(&mut w, &text).map_err(|source| ExportError::Io { path: path.to_path_buf(), source })?;
    file.commit(w)
}
