//! An export's job: one Export node's (or Splat map node's, or the Planet node's default set's)
//! settings and the values on its inputs, whole fields or a tiled build's tiles, and the files
//! it writes.

use super::base::ExportError;
use super::mesh::TiledMesh;
use super::plan::file_names;
use super::source::TiledSource;
use super::splat::SplatJob;
use crate::nodes::output::export::{ExportLayer, ExportSettings};
use crate::planet::{ColourField, Field};
use std::sync::Arc;

/// One Export node's work: its settings and the values on its inputs.
#[derive(Debug, Clone)]
pub struct ExportJob {
    /// The Export node, for messages (`Export #12 'elevation'`).
    pub label: String,
    /// The node whose output is exported (`Planet #5`), for the manifest.
    pub source: String,
    /// Settings.
    pub settings: ExportSettings,
    /// Units of single-channel values for the manifest (the settings' custom units or the
    /// source's, see [`super::jobs::source_units`]).
    pub units: String,
    /// The field input.
    pub field: Option<Arc<Field>>,
    /// The colour input.
    pub colour: Option<Arc<ColourField>>,
    /// In a tiled build, the input evaluated tile by tile (instead of `field` or `colour`).
    pub tiled: Option<TiledSource>,
    /// In a tiled build, what a mesh reads besides its field (`tiled`).
    pub tiled_mesh: Option<TiledMesh>,
    /// A Splat map node's layers: the job writes its splat files (`settings` are those of its
    /// first file's images).
    pub splat: Option<Arc<SplatJob>>,
}

impl ExportJob {
    pub(super) fn invalid(&self, message: impl Into<String>) -> ExportError {
        ExportError::Invalid { export: self.label.clone(), message: message.into() }
    }

    /// Files this job writes at resolution `n` (names relative to the output folder).
    pub fn file_names(&self, n: usize) -> Vec<String> {
        match &self.splat {
            Some(splat) => splat.file_names(n),
            None => file_names(&self.settings, n, self.has_colour()),
        }
    }

    /// Whether the colour input is connected (or, in a tiled build, the value has colours).
    pub(super) fn has_colour(&self) -> bool {
        self.colour.is_some() || self.tiled.as_ref().is_some_and(|t| !t.is_field()) || self.tiled_mesh.as_ref().is_some_and(|m| m.colour.is_some())
    }

    /// Whether the field input is connected (or, in a tiled build, the value is a field or the
    /// normals of one).
    pub(super) fn has_field(&self) -> bool {
        self.field.is_some() || self.tiled.as_ref().is_some_and(TiledSource::is_field)
    }

    /// How many files this job writes (for progress).
    pub fn file_count(&self) -> usize {
        self.file_names(self.n()).len()
    }

    /// How many units of work the job is for [`super::Share`]s: each image file is one, a mesh
    /// with its textures one.
    pub fn units(&self) -> usize {
        if self.settings.layer == ExportLayer::Mesh {
            1
        } else {
            self.file_count()
        }
    }

    fn n(&self) -> usize {
        self.field.as_ref().map(|f| f.n()).or(self.splat.as_ref().map(|s| s.layers[0].weights.n())).or(self.colour.as_ref().map(|c| c.n)).or(self.tiled.as_ref().map(|t| t.store.plan().n)).unwrap_or(1)
    }

    /// A tiled build's range of this job's value over the tiles evaluated so far (`None`: not
    /// a tiled scalar value); a share records it for `merge`.
    pub fn tiled_range(&self) -> Option<[f32; 2]> {
        let scalar = self.tiled.as_ref().filter(|t| self.settings.layer != ExportLayer::Mesh && t.store.channels(t.value) == 1);
        scalar.and_then(|t| t.store.range(t.value)).map(|(a, b)| [a, b])
    }
}
