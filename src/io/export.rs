//! Exports: 16-bit elevation PNGs (equirectangular and six cube faces), an equirectangular
//! colour texture, and `manifest.json` describing every file.

use crate::appearance::hypsometric;
use crate::planet::colour::to_srgb8;
use crate::planet::ColourField;
use crate::nodes::output::planet::PlanetSettings;
use crate::planet::projection::{equirectangular, face_image};
use crate::planet::{Face, Field};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// An export could not be written.
#[derive(Debug, Error)]
pub enum ExportError {
    /// File system error.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// OS error.
        source: std::io::Error,
    },
    /// The manifest could not be serialised.
    #[error("{path}: {message}")]
    Manifest {
        /// The manifest file.
        path: PathBuf,
        /// Serialiser message.
        message: String,
    },
    /// PNG encoding error.
    #[error("{path}: {message}")]
    Encode {
        /// The file.
        path: PathBuf,
        /// Encoder message.
        message: String,
    },
}

/// One written file, as listed in the manifest.
#[derive(Debug, Clone, Serialize)]
pub struct ManifestFile {
    /// File name relative to the output folder.
    pub path: String,
    /// "elevation", "colour" (the height tint) or "albedo" (the Planet node's albedo input).
    pub kind: String,
    /// "equirectangular" or "cube-face".
    pub projection: String,
    /// Face name for cube faces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face: Option<String>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Pixel format.
    pub format: String,
    /// Values (metres) that map to 0 and 65535 of 16-bit files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_range_m: Option<[f32; 2]>,
    /// Smallest and largest elevation actually present, in metres.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_range_m: Option<[f32; 2]>,
}

/// The manifest written beside the exports.
#[derive(Debug, Clone, Serialize)]
pub struct Manifest {
    /// Always "planetgraph-build".
    pub format: String,
    /// Manifest format version.
    pub version: u32,
    /// The graph file built.
    pub graph: String,
    /// Cells per cube-face edge.
    pub resolution: usize,
    /// Planet radius in km.
    pub radius_km: f32,
    /// Elevation of sea level in metres (always 0: elevations are relative to sea level).
    pub sea_level_m: f32,
    /// Orientation conventions of the files.
    pub conventions: BTreeMap<String, String>,
    /// Every file written.
    pub files: Vec<ManifestFile>,
    /// Milliseconds per node, by `Kind #id`.
    pub timings_ms: BTreeMap<String, f64>,
}

/// The orientation conventions written into every manifest (also in the README).
pub fn conventions() -> BTreeMap<String, String> {
    let mut c = BTreeMap::new();
    c.insert("axes".into(), "right-handed, Y up; planet centre at the origin".into());
    c.insert("faces".into(), "0 front (+Z), 1 right (+X), 2 back (-Z), 3 left (-X), 4 top (+Y), 5 bottom (-Y)".into());
    c.insert("face_pixels".into(), "row-major; seen from outside the planet; column (a) to the right, row (b) down; front/right/back/left: a along the face's right, b along -Y".into());
    c.insert("top_face".into(), "column along +X, row along +Z (its last row touches the front face's first row)".into());
    c.insert("bottom_face".into(), "column along +X, row along -Z (its first row touches the front face's last row)".into());
    c.insert("equirectangular".into(), "longitude = atan2(x, z), 0 at +Z (image centre), increasing to the right towards +X; latitude = asin(y), north up; pixel centres sampled".into());
    c.insert("elevation_png16".into(), "value = value_range_m[0] + pixel / 65535 * (value_range_m[1] - value_range_m[0]) metres relative to sea level".into());
    c
}

fn png_err(path: &Path, e: image::ImageError) -> ExportError {
    ExportError::Encode { path: path.to_path_buf(), message: e.to_string() }
}

/// Writes a 16-bit greyscale PNG of `values` (row-major) mapping `[lo, hi]` to 0..65535.
pub fn write_png16(path: &Path, values: &[f32], width: u32, height: u32, lo: f32, hi: f32) -> Result<(), ExportError> {
    let scale = if hi > lo { 65535.0 / (hi - lo) } else { 0.0 };
    let px: Vec<u16> = values.iter().map(|&v| ((v - lo) * scale).round().clamp(0.0, 65535.0) as u16).collect();
    let img = image::ImageBuffer::<image::Luma<u16>, Vec<u16>>::from_raw(width, height, px)
        .ok_or_else(|| ExportError::Encode { path: path.to_path_buf(), message: "wrong pixel count".into() })?;
    img.save(path).map_err(|e| png_err(path, e))
}

/// Writes an 8-bit RGB PNG.
pub fn write_rgb(path: &Path, rgb: Vec<u8>, width: u32, height: u32) -> Result<(), ExportError> {
    let img = image::RgbImage::from_raw(width, height, rgb).ok_or_else(|| ExportError::Encode { path: path.to_path_buf(), message: "wrong pixel count".into() })?;
    img.save(path).map_err(|e| png_err(path, e))
}

/// Writes the default export set of `build` for an elevation field in metres (and the albedo
/// when the Planet node has one). Returns the manifest (also written to `out/manifest.json`).
pub fn export_default(out: &Path, graph_name: &str, elevation_m: &Field, albedo: Option<&ColourField>, planet: &PlanetSettings, timings_ms: BTreeMap<String, f64>) -> Result<Manifest, ExportError> {
    std::fs::create_dir_all(out).map_err(|source| ExportError::Io { path: out.to_path_buf(), source })?;
    let n = elevation_m.n();
    let (lo, hi) = (-planet.max_depth_m, planet.max_elevation_m);
    let data_range = elevation_m.min_max();
    let mut files = Vec::new();
    let (w, h) = (4 * n, 2 * n);
    let eq = equirectangular(elevation_m, w, h);
    let name = "elevation_equirect.png";
    write_png16(&out.join(name), &eq, w as u32, h as u32, lo, hi)?;
    files.push(ManifestFile {
        path: name.into(),
        kind: "elevation".into(),
        projection: "equirectangular".into(),
        face: None,
        width: w as u32,
        height: h as u32,
        format: "png-grey-16".into(),
        value_range_m: Some([lo, hi]),
        data_range_m: Some([data_range.0, data_range.1]),
    });
    for face in Face::ALL {
        let name = format!("elevation_face{}_{}.png", face.index(), face.name());
        write_png16(&out.join(&name), &face_image(elevation_m, face.index()), n as u32, n as u32, lo, hi)?;
        files.push(ManifestFile {
            path: name,
            kind: "elevation".into(),
            projection: "cube-face".into(),
            face: Some(face.name().into()),
            width: n as u32,
            height: n as u32,
            format: "png-grey-16".into(),
            value_range_m: Some([lo, hi]),
            data_range_m: None,
        });
    }
    // An 8-bit sRGB equirectangular image and its manifest entry.
    let mut write_colour = |name: &str, kind: &str, rgb: Vec<u8>| -> Result<(), ExportError> {
        write_rgb(&out.join(name), rgb, w as u32, h as u32)?;
        files.push(ManifestFile {
            path: name.into(),
            kind: kind.into(),
            projection: "equirectangular".into(),
            face: None,
            width: w as u32,
            height: h as u32,
            format: "png-rgb-8".into(),
            value_range_m: None,
            data_range_m: None,
        });
        Ok(())
    };
    write_colour("colour_equirect.png", "colour", eq.iter().flat_map(|&v| hypsometric(v, planet.max_depth_m, planet.max_elevation_m)).collect())?;
    if let Some(albedo) = albedo {
        let channels: Option<Vec<Vec<f32>>> = (0..3).map(|k| Field::from_vec(albedo.n, albedo.data.iter().map(|c| c[k]).collect()).map(|f| equirectangular(&f, w, h))).collect();
        let channels = channels.ok_or_else(|| ExportError::Manifest { path: out.join("albedo_equirect.png"), message: format!("the albedo holds {} colours, not 6 x {}²", albedo.data.len(), albedo.n) })?;
        write_colour("albedo_equirect.png", "albedo", (0..w * h).flat_map(|p| to_srgb8([channels[0][p], channels[1][p], channels[2][p]])).collect())?;
    }
    let manifest = Manifest {
        format: "planetgraph-build".into(),
        version: 1,
        graph: graph_name.into(),
        resolution: n,
        radius_km: planet.radius_km,
        sea_level_m: 0.0,
        conventions: conventions(),
        files,
        timings_ms,
    };
    let path = out.join("manifest.json");
    let text = serde_json::to_string_pretty(&manifest).map_err(|e| ExportError::Manifest { path: path.clone(), message: e.to_string() })?;
    super::graph_file::write_atomic(&path, text.as_bytes()).map_err(|e| ExportError::Io { path, source: e.source })?;
    Ok(manifest)
}
