//! What every part of an export shares: its error, progress and cancel flag, files written
//! under a temporary name and renamed when complete, JSON files, the share of a build a run
//! writes and the rows of an image strip. The bottom of the export pipeline: it imports no
//! other export module.

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
pub(super) fn prepare_folder(out: &Path) -> Result<PathBuf, ExportError> {
    std::fs::create_dir_all(out).map_err(|source| ExportError::Io { path: out.to_path_buf(), source })?;
    crate::io::atomic::remove_stale_temporaries(out).map_err(|source| ExportError::Io { path: out.to_path_buf(), source })?;
    let manifest_path = out.join("manifest.json");
    match std::fs::remove_file(&manifest_path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(ExportError::Io { path: manifest_path, source: e }),
        _ => Ok(manifest_path),
    }
}

/// Writes `value` as pretty-printed JSON to `path` under a temporary name, renamed into place
/// when complete; returns the file's size in bytes.
pub(super) fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<u64, ExportError> {
    let text = serde_json::to_vec_pretty(value).map_err(|e| ExportError::Encode { path: path.to_path_buf(), message: e.to_string() })?;
    let (file, mut w) = AtomicFile::create(path)?;
    std::io::Write::write_all(&mut w, &text).map_err(|source| ExportError::Io { path: path.to_path_buf(), source })?;
    file.commit(w)
}
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

/// Rows computed and written at a time.
pub const STRIP_ROWS: usize = 64;
