//! The manifest (`manifest.json`, version 2): every file written, with what a reader needs to
//! use it without PlanetGraph (size, sample type, byte order, channels, value mapping, units,
//! projection, face and orientation), and the conventions of all projections.

use super::context::ExportContext;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a file's numbers map to values.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Mapping {
    /// `value = low + sample / max_sample * (high - low)` (integer samples of a field).
    Linear {
        /// Value of sample 0 (in `units`).
        low: f32,
        /// Value of the largest sample.
        high: f32,
        /// The largest sample: 255 or 65535.
        max_sample: u32,
    },
    /// Float samples are the values themselves (in `units`).
    Identity,
    /// 8/16-bit sRGB-encoded colour (albedo).
    Srgb,
    /// Integer samples are linear colour components in 0..1.
    LinearColour,
    /// Normals: integer samples hold `0.5 + 0.5 n` per component, float samples `n`.
    Normal {
        /// "tangent" or "object".
        space: String,
        /// "opengl" (+Y up the image) or "directx" (down); tangent space only.
        #[serde(skip_serializing_if = "Option::is_none")]
        green: Option<String>,
    },
}

/// One written file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ManifestFile {
    /// File name relative to the output folder.
    pub path: String,
    /// The Export node's file name setting (or "elevation", "colour", "albedo" in the default
    /// set).
    pub export: String,
    /// The node whose output was exported (`Planet #5`).
    pub source: String,
    /// "data", "normals", "mesh" or "splat".
    pub layer: String,
    /// "png", "exr", "tiff", "raw", "glb", "obj" or "json" (a splat map's layer listing).
    pub format: String,
    /// "equirectangular", "cube-face" (PlanetGraph faces), "cube-map" (OpenGL, gnomonic) or
    /// "mesh".
    pub projection: String,
    /// Face name (`front` ... or `posx` ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face: Option<String>,
    /// PlanetGraph face index 0..6 of that face.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face_index: Option<usize>,
    /// Columns and rows of the image in the planet's axes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orientation: Option<String>,
    /// "cells" or "edge_sharing" (faces).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grid: Option<String>,
    /// Pixels per face edge without the border (faces).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face_size: Option<usize>,
    /// Border pixels taken from the neighbouring faces (0 or 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub border: Option<usize>,
    /// First column and row of this tile in the (bordered) face image.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tile_origin: Option<[usize; 2]>,
    /// Width in pixels (images).
    pub width: usize,
    /// Height in pixels (images).
    pub height: usize,
    /// Channel names in order ("Y" or "R", "G", "B").
    pub channels: Vec<String>,
    /// "u8", "u16" or "f32".
    pub sample: String,
    /// "little" or "big" for RAW files; PNG is big-endian by definition, EXR little.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub byte_order: Option<String>,
    /// How samples map to values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapping: Option<Mapping>,
    /// Units of the values ("m", "", ...).
    pub units: String,
    /// Smallest and largest value of the exported field (fields only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_range: Option<[f32; 2]>,
    /// Size in bytes.
    pub bytes: u64,
    /// A splat map's layer names in channel order (R, G, B, A; see [`super::splat`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub splat_layers: Option<Vec<String>>,
}

impl ManifestFile {
    /// A short description for a list of written files: `(1024 x 512, elevation data)`, or for a
    /// file without pixels (a splat map's layer listing) its format and export.
    pub fn summary(&self) -> String {
        if self.width == 0 && self.height == 0 {
            format!("({} of {} {})", self.format, self.export, self.layer)
        } else {
            format!("({} x {}, {} {})", self.width, self.height, self.export, self.layer)
        }
    }
}

/// The manifest written beside the exports.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    /// Always "planetgraph-build".
    pub format: String,
    /// Manifest format version (2).
    pub version: u32,
    /// The graph file built.
    pub graph: String,
    /// Cells per cube-face edge of the evaluation.
    pub resolution: usize,
    /// Planet radius in km (the Planet node's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub radius_km: Option<f32>,
    /// Elevation of sea level in metres (0: elevations are relative to sea level).
    pub sea_level_m: f32,
    /// Orientation conventions and formulas of the projections.
    pub conventions: BTreeMap<String, String>,
    /// Every file written, all complete.
    pub files: Vec<ManifestFile>,
    /// Milliseconds per node, by `Kind #id` (in a tiled build, the whole-planet run's nodes).
    pub timings_ms: BTreeMap<String, f64>,
    /// A tiled build (larger than its memory budget): the level (cells per face edge) the
    /// nodes that need the whole planet ran at, whose outputs the tiles sample bilinearly;
    /// absent when the build evaluated the whole planet at `resolution`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole_planet_level: Option<usize>,
    /// A tiled build: cells per edge of the tiles it evaluated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile_cells: Option<usize>,
    /// A tiled build's whole-planet nodes that ran below `whole_planet_level`, at a level of
    /// their own (cells per face edge, by `Kind #id`: a Blur at the level its blur works at,
    /// Precipitation at its climate level), sampled bilinearly as the node itself samples up.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub own_levels: BTreeMap<String, usize>,
}

/// The manifest's format version.
pub const MANIFEST_VERSION: u32 = 2;

impl Manifest {
    /// The manifest of `files`.
    pub fn new(ctx: &ExportContext, files: Vec<ManifestFile>) -> Manifest {
        Manifest {
            format: "planetgraph-build".into(),
            version: MANIFEST_VERSION,
            graph: ctx.graph.clone(),
            resolution: ctx.resolution,
            radius_km: ctx.planet.as_ref().map(|p| p.radius_km),
            sea_level_m: 0.0,
            conventions: conventions(),
            files,
            timings_ms: ctx.timings_ms.clone(),
            whole_planet_level: ctx.tiled.map(|p| p.cap),
            tile_cells: ctx.tiled.map(|p| p.tile),
            own_levels: ctx.own_levels.clone(),
        }
    }
}

/// The conventions written into every manifest (also in the README).
pub fn conventions() -> BTreeMap<String, String> {
    let mut c = BTreeMap::new();
    let mut put = |k: &str, v: &str| c.insert(k.to_string(), v.to_string());
    put("axes", "right-handed, Y up (north); planet centre at the origin");
    put("faces", "PlanetGraph faces: 0 front (+Z), 1 right (+X), 2 back (-Z), 3 left (-X), 4 top (+Y), 5 bottom (-Y)");
    put("face_frames", "face (normal; column direction; row direction): front (+Z; +X; -Y), right (+X; -Z; -Y), back (-Z; -X; -Y), left (-X; +Z; -Y), top (+Y; +X; +Z), bottom (-Y; +X; -Z); pixels row-major, first row at the top of the image");
    put("cube_face_pixels", "projection cube-face: pixel (i, j) of an m-pixel face has face coordinates a = (i + 0.5) / m, b = (j + 0.5) / m (grid cells) or a = i / (m - 1), b = j / (m - 1) (grid edge_sharing); direction = normalize(normal + warp(2a - 1) column + warp(2b - 1) row) with the tangent warp warp(x) = tan(0.86873 x) / tan(0.86873); at m = resolution with grid cells the pixels are the evaluation's cells exactly");
    put("cube_map_pixels", "projection cube-map: faces posx, negx, posy, negy, posz, negz in the OpenGL cube-map orientation (the same frames as the PlanetGraph faces right, left, top, bottom, front, back); gnomonic: direction = normalize(normal + (2a - 1) column + (2b - 1) row) with a, b as for cube faces (no warp)");
    put(
        "border",
        "border 1: the image is m + 2 pixels wide; pixel (i + 1, j + 1) is face pixel (i, j); the border pixels are copies of the edge pixels of the neighbouring face across that edge (over a cube corner, the nearest pixel of the face itself)",
    );
    put("tiles", "tile_origin (x, y): the tile's first column and row in the bordered face image; neighbouring tiles share one row or column");
    put(
        "equirectangular",
        "longitude = atan2(x, z), 0 at +Z, increasing to the right towards +X; latitude = asin(y), north up; pixel (col, row) of a W x H image samples longitude ((col + 0.5) / W - 0.5) * 360 deg, latitude (0.5 - (row + 0.5) / H) * 180 deg",
    );
    put("sampling", "pixels not on the evaluation's cells are bilinear samples of the cells, seamless across face edges");
    put("normal_maps", "tangent space: x along the image's columns (east on equirectangular images), y towards the top of the image for green opengl (towards the bottom for directx), z away from the planet; object space: the planet's axes. Computed from elevation in metres with the true cell spacing and the planet radius, relief exaggerated as the export says");
    put(
        "meshes",
        "GLB: one node per face chunk, translated to the chunk centre, vertices in metres relative to it (Y up, planet centre at the origin); TEXCOORD_0 = face coordinates (a, b) into the face's albedo texture; OBJ: absolute positions in metres",
    );
    c
}
