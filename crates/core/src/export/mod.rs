//! Exports: the files that `planetgraph build` and the editor's File > Export write for the
//! graph's Export nodes (or, in a graph without any, the Planet node's default set), and the
//! manifest (JSON, version 2) that lists every file with its projection, face, orientation,
//! value mapping, units, byte order and size.
//!
//! Every file is written to a temporary name in the output folder and renamed when complete;
//! the manifest is written last, so a manifest never lists a file that was not completely
//! written (an old manifest is removed when an export starts).

// The pipeline, each module importing only those above it in this list (tests/layers.rs
// checks the order): what everything shares; the tiled build's plan and its store of tiles; the
// values an image samples; the images' grids and pixels; their encoders; the build's context
// and manifest; the files planned; the mesh and splat data; a job; its manifest entries; the
// shares' records and merge; writing jobs (meshes, splat maps, images and the manifest); the
// jobs of a graph; the names they write; a build's errors; a tiled build; a build.
mod base;
pub mod build;
pub mod build_error;
pub mod context;
pub mod encode;
mod entries;
pub mod images;
pub mod job;
pub mod jobs;
pub mod manifest;
pub mod mesh;
pub mod names;
pub mod plan;
pub mod presets;
pub mod share;
pub mod source;
pub mod splat;
mod splat_write;
pub mod tiled;
pub mod tiled_build;
pub mod write;

pub use base::{AtomicFile, Control, ExportError, ExportProgress, Share, MAX_SHARES, STRIP_ROWS};
pub use build::{build_targets, evaluate_exports, export_graph, export_graph_planned};
pub use build_error::{BuildError, NodeFailure};
pub use context::ExportContext;
pub use job::ExportJob;
pub use jobs::{default_jobs, jobs_from_result, planned_files};
pub use manifest::{conventions, Manifest, ManifestFile};
pub use write::write_exports;
