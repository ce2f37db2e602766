//! Exports: the files that `planetgraph build` and the editor's File > Export write for the
//! graph's Export nodes (or, in a graph without any, the Planet node's default set), and the
//! manifest (JSON, version 2) that lists every file with its projection, face, orientation,
//! value mapping, units, byte order and size.
//!
//! Every file is written to a temporary name in the output folder and renamed when complete;
//! the manifest is written last, so a manifest never lists a file that was not completely
//! written (an old manifest is removed when an export starts).

// The pipeline, in order: each module imports only those declared before it
// (tests/layers.rs, the_export_modules_run_one_way, reads this order; a blank line between
// declarations keeps rustfmt from sorting them).

// What every part shares: errors, progress and cancel, atomic files, JSON, a share, strip rows.
mod base;

// A tiled build's plan and its store of tiles.
pub mod tiled;

// The values an image samples: a field, a colour, normals, whole or tiled.
pub mod source;

// Pixel grids and encodings.
pub mod images;

// The image writers.
pub mod encode;

// What every export of one build shares.
pub mod context;

// The manifest.
pub mod manifest;

// The files an export writes, known before evaluating.
pub mod plan;

// Meshes: geometry, GLB and OBJ.
pub mod mesh;

// Splat maps: layers and file names.
pub mod splat;

// One Export node's job.
pub mod job;

// The image files' manifest entries.
mod entries;

// Builds in shares: records and merge.
pub mod share;

// Writing a splat map.
mod splat_write;

// Writing jobs, then the manifest or a share's record.
pub mod write;

// The jobs of an evaluated graph.
pub mod jobs;

// Two exports of one file.
pub mod names;

// A build's errors.
pub mod build_error;

// A tiled build's whole-planet run and jobs.
pub mod tiled_build;

// A build.
pub mod build;

// Consumer presets.
pub mod presets;

pub use base::{AtomicFile, Control, ExportError, ExportProgress, Share, MAX_SHARES, STRIP_ROWS};
pub use build::{build_targets, evaluate_exports, export_graph, export_graph_planned};
pub use build_error::{BuildError, NodeFailure};
pub use context::ExportContext;
pub use job::ExportJob;
pub use jobs::{default_jobs, jobs_from_result, planned_files};
pub use manifest::{conventions, Manifest, ManifestFile};
pub use write::write_exports;
