//! The Import raster node: a heightmap, a DEM or an image read from a file onto the
//! cube-sphere ([`crate::raster`]): an equirectangular globe, a geographic patch or six cube
//! faces; values in metres, a 0..1 range or plain numbers; a coverage mask to blend a patch
//! with procedural ground.

use crate::nodes::prelude::*;
use crate::raster::sample::{CubeOrder, Filter, Layout, Sample, Sampler};
use crate::raster::{store, Bounds, FileFormat, RawSample};
use rayon::prelude::*;

crate::choices! {
    /// How the file is stored.
    pub enum ImportFormat {
        /// PNG, TIFF/GeoTIFF or EXR, recognised from the file's first bytes.
        Auto = ("auto", "PNG, TIFF or EXR"),
        /// Headerless unsigned 16-bit samples.
        Raw16 = ("raw16", "RAW 16-bit"),
        /// Headerless 32-bit float samples.
        Raw32 = ("raw32", "RAW 32-bit float"),
    }
}

crate::choices! {
    /// Where the file lies on the planet.
    pub enum ImportLayout {
        /// One equirectangular map of the whole globe.
        Globe = ("globe", "Whole globe (equirectangular)"),
        /// One map of a longitude/latitude rectangle.
        Patch = ("patch", "Regional patch"),
        /// Six files, PlanetGraph's face order and projection.
        Faces = ("faces", "Six cube faces (PlanetGraph)"),
        /// Six files, OpenGL cube-map order, gnomonic.
        FacesGl = ("faces_gl", "Six cube faces (OpenGL order)"),
    }
}

crate::choices! {
    /// What the stored numbers mean.
    pub enum ImportValues {
        /// Metres: stored value x scale + offset.
        Metres = ("metres", "Metres (scale, offset)"),
        /// 0..1 (integers over their maximum) mapped to low..high metres.
        Range = ("range", "0..1 to low..high metres"),
        /// Plain numbers: 0..1 (integers over their maximum) x scale + offset.
        Plain = ("plain", "Plain numbers"),
    }
}

crate::choices! {
    /// How pixels are filtered.
    pub enum ImportFilter {
        /// Catmull-Rom cubic.
        Cubic = ("cubic", "Cubic"),
        /// Bilinear.
        Linear = ("linear", "Linear"),
        /// Nearest pixel.
        Nearest = ("nearest", "Nearest"),
    }
}

crate::settings! {
    /// Settings of the Import raster node.
    pub struct ImportRasterSettings, keys ImportRasterKeys {
        /// The file, relative to the graph file's folder.
        path: String = file("File", "", 1024, "The file to read, relative to the graph file's folder (or absolute). PNG (8 or 16 bits), TIFF or GeoTIFF (8/16/32-bit integers or floats), EXR, or RAW. Six face files: write {face} where the face's name goes (front, right, back, left, top, bottom; px, nx, py, ny, pz, nz in OpenGL order) or {n} for its number 0..5."),
        /// How the file is stored.
        format: ImportFormat = ImportFormat::Auto.param("Format", "PNG, TIFF and EXR are recognised from the file itself; headerless RAW files need their sample type and size."),
        /// RAW pixels per row.
        raw_width: usize = int("RAW width", 1024, 1, 65536, "Pixels per row of a RAW file."),
        /// RAW rows.
        raw_height: usize = int("RAW height", 512, 1, 65536, "Rows of a RAW file."),
        /// RAW byte order.
        big_endian: bool = boolean("Big-endian", false, "RAW samples with the most significant byte first; off: least significant first (the usual order of .r16 and .r32 files)."),
        /// Where the file lies.
        layout: ImportLayout = ImportLayout::Globe.param("Layout", "Whole globe: an equirectangular map, longitude -180..180 from the left edge (or a GeoTIFF's own bounds), north up. Regional patch: a longitude/latitude rectangle (a GeoTIFF's own, or the bounds below), blended in with the mask output. Six cube faces: one file per face."),
        /// Bounds from a GeoTIFF.
        georeferenced: bool = boolean("Bounds from the file", true, "Use a GeoTIFF's own longitude/latitude bounds (geographic coordinates, EPSG:4326) where it has them; off, or for other files: the bounds below."),
        /// West edge, degrees.
        west_deg: f32 = float("West", -10.0, -180.0, 180.0, Unit::Degree, 0.1, "Longitude of the patch's western edge, degrees east (negative: west)."),
        /// East edge, degrees.
        east_deg: f32 = float("East", 10.0, -180.0, 540.0, Unit::Degree, 0.1, "Longitude of the patch's eastern edge, degrees east; above 180 for a patch across the date line (170 to 190)."),
        /// South edge, degrees.
        south_deg: f32 = float("South", -10.0, -90.0, 90.0, Unit::Degree, 0.1, "Latitude of the patch's southern edge, degrees north."),
        /// North edge, degrees.
        north_deg: f32 = float("North", 10.0, -90.0, 90.0, Unit::Degree, 0.1, "Latitude of the patch's northern edge, degrees north."),
        /// Mask ramp width, degrees.
        feather_deg: f32 = float("Feather", 1.0, 0.0, 90.0, Unit::Degree, 0.05, "Width of the mask's ramp inside the patch's edges, degrees of arc: the mask is 0 at an edge and 1 this far inside it (0: a hard edge)."),
        /// What the numbers mean.
        values: ImportValues = ImportValues::Metres.param("Values", "Metres: stored value x scale + offset, given out as elevation for the Planet node (its sea level, highest peak and deepest ocean). 0..1 to low..high: integers over their maximum (255, 65535), floats as stored, mapped to metres. Plain numbers: 0..1 (as before) x scale + offset, for masks and other data."),
        /// Metres per stored unit, or the factor of plain numbers.
        scale: f32 = float("Scale", 1.0, -100000.0, 100000.0, Unit::None, 0.01, "Metres per stored unit (Metres), or the factor of the 0..1 value (Plain numbers)."),
        /// Added after the scale.
        offset: f32 = float("Offset", 0.0, -100000.0, 100000.0, Unit::None, 1.0, "Added after the scale: metres (Metres), or a plain number (Plain numbers)."),
        /// Metres of 0.
        low_m: f32 = float("Low", -7000.0, -100000.0, 100000.0, Unit::Metre, 10.0, "Metres of a stored 0 (0..1 to low..high)."),
        /// Metres of 1.
        high_m: f32 = float("High", 6000.0, -100000.0, 100000.0, Unit::Metre, 10.0, "Metres of a stored 1 or an integer's maximum (0..1 to low..high)."),
        /// Filter between pixel centres.
        filter: ImportFilter = ImportFilter::Cubic.param("Filter", "Cubic (Catmull-Rom): sharp and smooth, for heights and images. Linear: bilinear. Nearest: the nearest pixel, for class maps."),
    }
}

crate::ports! {
    /// Outputs: the values, the coverage mask and the colour.
    const OUTPUTS: Out = [
        /// Elevation (unitless, the Planet node's mapping of the metres) or plain numbers.
        OUT: Field = PortDef::field("out"),
        /// 1 where the file has data, 0 outside a patch and over no-data pixels.
        MASK: Field = PortDef::field("mask"),
        /// The file's colour, linear RGB (grey files give grey).
        COLOUR: ColourField = PortDef::of("colour", PortType::Colour),
    ];
}

/// The Import raster node.
pub struct ImportRaster;

/// How the node's settings store the file.
fn file_format(s: &ImportRasterSettings) -> FileFormat {
    let raw = |sample| FileFormat::Raw { sample, width: s.raw_width, height: s.raw_height, big_endian: s.big_endian };
    match s.format {
        ImportFormat::Auto => FileFormat::Auto,
        ImportFormat::Raw16 => raw(RawSample::U16),
        ImportFormat::Raw32 => raw(RawSample::F32),
    }
}

fn cube_order(layout: ImportLayout) -> Option<CubeOrder> {
    match layout {
        ImportLayout::Faces => Some(CubeOrder::PlanetGraph),
        ImportLayout::FacesGl => Some(CubeOrder::OpenGl),
        ImportLayout::Globe | ImportLayout::Patch => None,
    }
}

impl Node for ImportRaster {
    type Settings = ImportRasterSettings;
    const META: NodeMeta = NodeMeta::new(
        "Import raster",
        Category::Sources,
        "A heightmap, a DEM or an image read from a file: a whole globe (equirectangular), a regional patch (longitude/latitude bounds, from a GeoTIFF or set here) or six cube faces. Heights in metres become elevation for the Planet node; the mask is 1 where the file has data, to blend a patch with procedural ground; the colour output carries an image's colours. Sampled with a cubic filter, seamless across the date line, the poles and the cube's edges. An edited file is read again.",
        &[],
        OUTPUTS,
        file!(),
    )
    .reading_planet()
    .reading_files().costing(52);

    fn run(s: &ImportRasterSettings, _: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        if ctx.files.is_empty() {
            return Err(OpError::Invalid(crate::raster::NO_FILE.to_string()));
        }
        let format = file_format(s);
        let rasters = ctx.files.iter().map(|p| store::load(p, format).map_err(|e| OpError::Invalid(e.to_string()))).collect::<Result<Vec<_>, _>>()?;
        ctx.check()?;
        let own = rasters[0].bounds.filter(|_| s.georeferenced);
        let typed = Bounds { west: s.west_deg as f64, east: s.east_deg as f64, south: s.south_deg as f64, north: s.north_deg as f64 };
        let layout = match (s.layout, cube_order(s.layout)) {
            (_, Some(order)) => Layout::Cube(order),
            (ImportLayout::Patch, None) => Layout::Map(own.unwrap_or(typed)),
            _ => Layout::Map(own.unwrap_or(Bounds::GLOBE)),
        };
        let filter = match s.filter {
            ImportFilter::Cubic => Filter::Cubic,
            ImportFilter::Linear => Filter::Linear,
            ImportFilter::Nearest => Filter::Nearest,
        };
        let full_scale = rasters[0].full_scale;
        let sampler = Sampler::new(layout, rasters, filter).map_err(OpError::Invalid)?;
        let planet = ctx.planet()?;
        let grid = ctx.grid();
        // A sample and its mask: the coverage, ramped over the feather inside a patch's edges.
        let patch = s.layout == ImportLayout::Patch;
        let samples: Vec<(Sample, f32)> = (0..grid.cells())
            .into_par_iter()
            .map(|k| {
                let d = grid.direction(k);
                let sample = sampler.at(d);
                let ramp = if patch { crate::nodes::masks::smoothstep(0.0, s.feather_deg, sampler.inside_deg(d)) } else { 1.0 };
                (sample, sample.coverage * ramp)
            })
            .collect();
        ctx.check()?;
        let out = samples.iter().map(|(sample, _)| {
            let (stored, unit) = (sample.value[0], sample.value[0] / full_scale);
            if !sample.found {
                // No data under the filter: sea level, or 0 for plain numbers.
                return if s.values == ImportValues::Plain { 0.0 } else { planet.from_metres(0.0) };
            }
            match s.values {
                ImportValues::Metres => planet.from_metres(stored * s.scale + s.offset),
                ImportValues::Range => planet.from_metres(s.low_m + unit * (s.high_m - s.low_m)),
                ImportValues::Plain => unit * s.scale + s.offset,
            }
        });
        let out = Field::from_vec_on(grid, out.collect())?;
        let mask = Field::from_vec_on(grid, samples.iter().map(|(_, m)| *m).collect())?;
        // Integer files hold sRGB; float files (EXR) linear values.
        let linear = |v: f32| if full_scale == 1.0 { v.max(0.0) } else { crate::planet::colour::srgb_to_linear((v / full_scale).clamp(0.0, 1.0)) };
        let colour = ColourField { n: grid.n(), tile: grid.tile(), data: samples.iter().map(|(sample, _)| sample.value.map(linear)).collect() };
        Ok(vec![out.into(), mask.into(), colour.into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }

    fn files(s: &ImportRasterSettings) -> Vec<(String, FileFormat)> {
        let path = s.path.trim();
        if path.is_empty() {
            return Vec::new();
        }
        let format = file_format(s);
        match cube_order(s.layout) {
            Some(order) => (0..6).map(|k| (path.replace("{face}", order.name(k)).replace("{n}", &k.to_string()), format)).collect(),
            None => vec![(path.to_string(), format)],
        }
    }

    fn moved(s: &ImportRasterSettings, from: &std::path::Path, to: &std::path::Path) -> Option<ImportRasterSettings> {
        let path = store::moved(s.path.trim(), from, to);
        (!s.path.trim().is_empty() && path != s.path).then(|| ImportRasterSettings { path, ..s.clone() })
    }

    fn shows(s: &ImportRasterSettings, key: &str) -> bool {
        let k = ImportRasterSettings::KEYS;
        let raw = s.format != ImportFormat::Auto;
        let patch = s.layout == ImportLayout::Patch;
        if key == k.raw_width || key == k.raw_height || key == k.big_endian {
            raw
        } else if [k.georeferenced, k.feather_deg, k.west_deg, k.east_deg, k.south_deg, k.north_deg].contains(&key) {
            patch
        } else if key == k.scale || key == k.offset {
            s.values != ImportValues::Range
        } else if key == k.low_m || key == k.high_m {
            s.values == ImportValues::Range
        } else {
            true
        }
    }

    /// A node without a file loads (to be given one, in the editor or by Python's
    /// `set_raster`); the compiler refuses to run it, naming what to set.
    fn check(s: &ImportRasterSettings, _: &[bool]) -> Result<(), String> {
        if cube_order(s.layout).is_some() && !s.path.contains("{face}") && !s.path.contains("{n}") {
            return Err(format!("six face files need {{face}} or {{n}} in the file's path where each face's name or number goes (as in heights_{{face}}.png); '{}' names one file", s.path));
        }
        if s.layout == ImportLayout::Patch {
            if s.east_deg <= s.west_deg || s.east_deg - s.west_deg > 360.0 {
                return Err(format!("the patch's East ({}°) must lie east of its West ({}°) by at most 360° (above 180° to cross the date line)", s.east_deg, s.west_deg));
            }
            if s.north_deg <= s.south_deg {
                return Err(format!("the patch's North ({}°) must lie north of its South ({}°)", s.north_deg, s.south_deg));
            }
        }
        Ok(())
    }
}
