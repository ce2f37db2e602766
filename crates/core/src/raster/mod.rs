//! Rasters read from files, for the Import raster node: decoding PNG (8 and 16 bits), TIFF and
//! GeoTIFF (8/16/32-bit integers, 32/64-bit floats, strips and tiles, uncompressed, LZW or
//! Deflate), OpenEXR and RAW (16-bit integers or 32-bit floats with the size given), with the
//! pixel count checked before any pixel is decoded ([`MAX_PIXELS`]); GeoTIFF georeferencing
//! (geographic coordinates) and its no-data value; a process-wide store that keys every file
//! by its content ([`store`]); and sampling onto the cube-sphere ([`sample`]).
//!
//! Image conventions: the first stored row is the top (north for a map), pixel centres at
//! half-integer positions.

pub mod decode;
pub mod geotiff;
pub mod sample;
pub mod store;

use std::path::{Path, PathBuf};
use thiserror::Error;

/// The most pixels a file may have (width x height, per file): 2^28 = 268 435 456, for example
/// 16384 x 16384 or 23170 x 11585 (an equirectangular Earth at about 1.7 km per pixel). It is
/// checked from the file's header, before anything is decoded; a grey raster of this size takes
/// 1 GiB in memory (4 bytes per pixel and channel).
pub const MAX_PIXELS: u64 = 1 << 28;

/// The message of a node that reads files but names none.
pub const NO_FILE: &str = "no file chosen: set File to a heightmap, a DEM or an image (PNG, TIFF, EXR or RAW), relative to the graph file's folder";

/// Why a file could not be read as a raster: the path and the reason, in words.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("'{}': {why}", path.display())]
pub struct RasterError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub why: String,
}

impl RasterError {
    /// An error about `path`.
    pub fn new(path: &Path, why: impl Into<String>) -> RasterError {
        RasterError { path: path.to_path_buf(), why: why.into() }
    }
}

/// How a file's pixels are stored: recognised from the file's first bytes (PNG, TIFF, EXR), or
/// headerless RAW with the size given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileFormat {
    /// PNG, TIFF or EXR, recognised from the file's signature.
    Auto,
    /// Headerless samples, one per pixel, rows from the top.
    Raw {
        /// The sample type.
        sample: RawSample,
        /// Pixels per row.
        width: usize,
        /// Rows.
        height: usize,
        /// Most significant byte first (else least significant first, as on x86).
        big_endian: bool,
    },
}

/// The sample type of a RAW file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RawSample {
    /// Unsigned 16-bit integers (0..65535), as `.r16` heightmaps.
    U16,
    /// 32-bit IEEE floats, as `.r32` heightmaps.
    F32,
}

/// A geographic rectangle in degrees: longitudes west..east (east may exceed 180 for a patch
/// that crosses the date line), latitudes south..north.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Western edge, degrees east.
    pub west: f64,
    /// Eastern edge, degrees east (greater than `west`).
    pub east: f64,
    /// Southern edge, degrees north.
    pub south: f64,
    /// Northern edge, degrees north (greater than `south`).
    pub north: f64,
}

impl Bounds {
    /// The whole globe (an equirectangular map).
    pub const GLOBE: Bounds = Bounds { west: -180.0, east: 180.0, south: -90.0, north: 90.0 };

    /// Whether the rectangle goes all the way round in longitude (then columns wrap).
    pub fn wraps(&self) -> bool {
        self.east - self.west >= 359.999
    }
}

/// A decoded raster: stored values as numbers (integers as their values, floats as they are),
/// channels interleaved, rows from the top.
#[derive(Debug, Clone, PartialEq)]
pub struct Raster {
    /// Pixels per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Channels per pixel: 1 (grey) or 3 (red, green, blue; an alpha channel is dropped).
    pub channels: usize,
    /// `width * height * channels` stored values.
    pub data: Vec<f32>,
    /// The stored value that means "full" for a 0..1 reading: 255 for 8-bit, 65535 for 16-bit
    /// integers (the type's maximum for others), 1 for floats.
    pub full_scale: f32,
    /// Where a GeoTIFF says it lies, in geographic coordinates.
    pub bounds: Option<Bounds>,
    /// A GeoTIFF's no-data value: pixels holding it have no data.
    pub nodata: Option<f32>,
}

impl Raster {
    /// Pixel `(x, y)`'s value in channel `c`.
    pub fn at(&self, x: usize, y: usize, c: usize) -> f32 {
        self.data[(y * self.width + x) * self.channels + c]
    }

    /// Whether pixel `(x, y)` holds data (is not the no-data value, and is a finite number).
    pub fn has_data(&self, x: usize, y: usize) -> bool {
        let v = self.at(x, y, 0);
        v.is_finite() && self.nodata.is_none_or(|nd| v != nd)
    }
}

/// A small 16-bit grey PNG of the whole globe (64 x 32, smooth values), written once per test
/// process, for the tests that run every node kind.
#[cfg(test)]
pub(crate) fn test_globe() -> PathBuf {
    static PATH: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir").keep();
        let path = dir.join("globe.png");
        let (w, h) = (64u32, 32u32);
        let file = std::fs::File::create(&path).expect("create");
        let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
        enc.set_color(png::ColorType::Grayscale);
        enc.set_depth(png::BitDepth::Sixteen);
        let mut writer = enc.write_header().expect("header");
        let data: Vec<u8> = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).flat_map(|(x, y)| ((x * 700 + y * 1300) as u16).to_be_bytes()).collect();
        writer.write_image_data(&data).expect("data");
        path
    })
    .clone()
}
