//! The manifest entries of an Export job's image files: size, channels, sample type, face
//! and orientation, value mapping and units.

use super::images::Grid;
use super::job::ExportJob;
use super::manifest::{ManifestFile, Mapping};
use super::plan::Planned;
use crate::nodes::output::export::{ByteOrder, ExportFormat, ExportProjection};

/// The manifest's name of an image format (RAW files of either sample type are `raw`).
pub(super) fn manifest_format(format: ExportFormat) -> &'static str {
    match format {
        ExportFormat::Png8 | ExportFormat::Png16 => "png",
        ExportFormat::Exr => "exr",
        ExportFormat::Tiff16 | ExportFormat::Tiff32 => "tiff",
        ExportFormat::Raw16 | ExportFormat::Raw32 => "raw",
        ExportFormat::Glb => "glb",
        ExportFormat::Obj => "obj",
    }
}

impl ExportJob {
    /// The manifest entry of the planned image `p`: `channels` per pixel, the field's `range`,
    /// the file's size in `bytes` and its value `mapping`.
    pub(super) fn entry(&self, p: &Planned, channels: usize, range: Option<(f32, f32)>, bytes: u64, mapping: Mapping) -> ManifestFile {
        let s = &self.settings;
        let (width, height) = p.grid.size();
        let units = if channels == 1 { self.units.clone() } else { String::new() };
        let channels = if channels == 1 { vec!["Y".to_string()] } else { ["R", "G", "B"].map(String::from).to_vec() };
        let sample = match s.format {
            ExportFormat::Png8 => "u8",
            ExportFormat::Png16 | ExportFormat::Tiff16 | ExportFormat::Raw16 => "u16",
            _ => "f32",
        };
        let (orientation, grid, face_size, border, tile_origin) = match p.grid {
            Grid::Face(t) => {
                let axis = |v: glam::Vec3| {
                    format!(
                        "{}{}",
                        if v.x + v.y + v.z > 0.0 { "+" } else { "-" },
                        if v.x != 0.0 {
                            "X"
                        } else if v.y != 0.0 {
                            "Y"
                        } else {
                            "Z"
                        }
                    )
                };
                let o = format!("outward normal {}, columns towards {}, rows towards {}", axis(t.face.normal()), axis(t.face.right()), axis(t.face.down()));
                (Some(o), Some(s.grid.id().to_string()), Some(t.m), Some(t.border), (s.tiles > 1).then_some([t.x0, t.y0]))
            }
            Grid::Equirect { .. } => (Some("longitude 0 (+Z) at the centre column, east to the right, north up".into()), None, None, None, None),
        };
        ManifestFile {
            path: p.name.clone(),
            export: s.name.clone(),
            source: self.source.clone(),
            layer: s.layer.id().into(),
            format: manifest_format(s.format).into(),
            projection: match s.projection {
                ExportProjection::Equirect => "equirectangular",
                ExportProjection::Faces => "cube-face",
                ExportProjection::CubeMap => "cube-map",
            }
            .into(),
            face: p.face.as_ref().map(|f| f.0.clone()),
            face_index: p.face.as_ref().map(|f| f.1.index()),
            orientation,
            grid,
            face_size,
            border,
            tile_origin,
            width,
            height,
            channels,
            sample: sample.into(),
            byte_order: matches!(s.format, ExportFormat::Raw16 | ExportFormat::Raw32).then(|| if s.byte_order == ByteOrder::Big { "big" } else { "little" }.into()),
            mapping: Some(mapping),
            units,
            data_range: range.map(|(a, b)| [a, b]),
            bytes,
            splat_layers: None,
        }
    }
}
