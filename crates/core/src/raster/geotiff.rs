//! TIFF and GeoTIFF: the pixels (8/16/32-bit integers, signed or not, 16/32/64-bit floats,
//! strips or tiles, uncompressed, LZW or Deflate), GeoTIFF's georeferencing in geographic
//! coordinates (a tie point and pixel scale, or a transformation without rotation; pixel is
//! area or pixel is point) and GDAL's no-data value.

use super::decode::{check_size, io_why, open, Header};
use super::{Bounds, Raster, RasterError};
use std::io::BufReader;
use std::path::Path;
use tiff::decoder::{Decoder, DecodingResult, Limits};
use tiff::tags::Tag;
use tiff::ColorType;

type TiffDecoder = Decoder<BufReader<std::fs::File>>;

fn malformed(path: &Path, e: impl std::fmt::Display) -> RasterError {
    RasterError::new(path, format!("is not a valid TIFF file: {e}"))
}

fn decoder(path: &Path) -> Result<TiffDecoder, RasterError> {
    let (file, _) = open(path)?;
    Decoder::new(BufReader::new(file)).map_err(|e| match e {
        tiff::TiffError::IoError(io) => RasterError::new(path, io_why(&io)),
        e => malformed(path, e),
    })
}

/// Samples per pixel of a colour type, and how many of them the raster keeps (grey: 1; RGB: 3).
fn samples(path: &Path, ct: ColorType) -> Result<(usize, usize), RasterError> {
    match ct {
        ColorType::Gray(_) => Ok((1, 1)),
        ColorType::GrayA(_) => Ok((2, 1)),
        ColorType::RGB(_) => Ok((3, 3)),
        ColorType::RGBA(_) => Ok((4, 3)),
        ColorType::Multiband { num_samples, .. } => Ok((num_samples.max(1) as usize, 1)),
        other => Err(RasterError::new(path, format!("has pixels of type {other:?}, which the importer does not read (grey, grey with alpha, RGB, RGBA or several bands, of which the first is read)"))),
    }
}

/// The size from the first image's directory, checked against the pixel limit.
pub fn header(path: &Path) -> Result<Header, RasterError> {
    let mut dec = decoder(path)?;
    let (w, h) = dec.dimensions().map_err(|e| malformed(path, e))?;
    let header = check_size(path, w as usize, h as usize)?;
    samples(path, dec.colortype().map_err(|e| malformed(path, e))?)?;
    georeference(path, &mut dec, header)?;
    Ok(header)
}

/// Decodes the first image, with its georeferencing and no-data value.
pub fn decode(path: &Path) -> Result<Raster, RasterError> {
    let mut dec = decoder(path)?;
    let (w, h) = dec.dimensions().map_err(|e| malformed(path, e))?;
    let header = check_size(path, w as usize, h as usize)?;
    let (per_pixel, channels) = samples(path, dec.colortype().map_err(|e| malformed(path, e))?)?;
    let bounds = georeference(path, &mut dec, header)?;
    let nodata = match dec.find_tag(Tag::GdalNodata) {
        Ok(Some(v)) => v.into_string().ok().and_then(|s| s.trim_matches(char::from(0)).trim().parse::<f32>().ok()),
        _ => None,
    };
    // The pixel count is within MAX_PIXELS: allow the decoder that much (8 bytes a sample at
    // most), and no more.
    let mut limits = Limits::default();
    let need = header.width * header.height * per_pixel * 8;
    limits.decoding_buffer_size = need.max(limits.decoding_buffer_size);
    limits.intermediate_buffer_size = need.max(limits.intermediate_buffer_size);
    let mut dec = dec.with_limits(limits);
    let image = dec.read_image().map_err(|e| malformed(path, e))?;
    let (values, full_scale): (Vec<f32>, f32) = match image {
        DecodingResult::U8(v) => (v.into_iter().map(f32::from).collect(), u8::MAX as f32),
        DecodingResult::U16(v) => (v.into_iter().map(f32::from).collect(), u16::MAX as f32),
        DecodingResult::U32(v) => (v.into_iter().map(|x| x as f32).collect(), u32::MAX as f32),
        DecodingResult::U64(v) => (v.into_iter().map(|x| x as f32).collect(), u64::MAX as f32),
        DecodingResult::I8(v) => (v.into_iter().map(f32::from).collect(), i8::MAX as f32),
        DecodingResult::I16(v) => (v.into_iter().map(f32::from).collect(), i16::MAX as f32),
        DecodingResult::I32(v) => (v.into_iter().map(|x| x as f32).collect(), i32::MAX as f32),
        DecodingResult::I64(v) => (v.into_iter().map(|x| x as f32).collect(), i64::MAX as f32),
        DecodingResult::F16(v) => (v.into_iter().map(|x| x.to_f32()).collect(), 1.0),
        DecodingResult::F32(v) => (v, 1.0),
        DecodingResult::F64(v) => (v.into_iter().map(|x| x as f32).collect(), 1.0),
    };
    let pixels = header.width * header.height;
    if values.len() < pixels * per_pixel {
        return Err(RasterError::new(path, format!("is not a valid TIFF file: {} samples for {} x {} pixels of {per_pixel}", values.len(), header.width, header.height)));
    }
    let data = if per_pixel == channels { values } else { values.chunks(per_pixel).take(pixels).flat_map(|px| px[..channels].iter().copied()).collect() };
    Ok(Raster { width: header.width, height: header.height, channels, data, full_scale, bounds, nodata })
}

/// GeoTIFF keys read here (GeoTIFF 1.0, section 6.3).
const MODEL_TYPE: u16 = 1024;
const RASTER_TYPE: u16 = 1025;
const GEOGRAPHIC_TYPE: u16 = 2048;
const PROJECTED_TYPE: u16 = 3072;
/// `GTModelTypeGeoKey` of a projected coordinate system.
const MODEL_PROJECTED: u16 = 1;
/// `GTRasterTypeGeoKey`: pixel is point (the tie point is a pixel's centre).
const PIXEL_IS_POINT: u16 = 2;

/// A key's short value in the GeoKey directory (values stored in the directory itself).
fn geokey(dir: &[u16], key: u16) -> Option<u16> {
    let count = *dir.get(3)? as usize;
    (0..count).filter_map(|k| dir.get(4 + 4 * k..8 + 4 * k)).find(|e| e[0] == key && e[1] == 0).map(|e| e[3])
}

/// The geographic rectangle the image covers, from its GeoTIFF tags; `None` without them.
/// Projected coordinates and rotated transformations are refused with what to do.
fn georeference(path: &Path, dec: &mut TiffDecoder, size: Header) -> Result<Option<Bounds>, RasterError> {
    let f64s = |dec: &mut TiffDecoder, tag: Tag| -> Result<Option<Vec<f64>>, RasterError> {
        match dec.find_tag(tag).map_err(|e| malformed(path, e))? {
            Some(v) => v.into_f64_vec().map(Some).map_err(|e| malformed(path, e)),
            None => Ok(None),
        }
    };
    let keys = match dec.find_tag(Tag::GeoKeyDirectoryTag).map_err(|e| malformed(path, e))? {
        Some(v) => v.into_u16_vec().map_err(|e| malformed(path, e))?,
        None => Vec::new(),
    };
    if geokey(&keys, MODEL_TYPE) == Some(MODEL_PROJECTED) {
        let code = geokey(&keys, PROJECTED_TYPE).map_or("a projected system".to_string(), |c| format!("EPSG:{c}"));
        return Err(RasterError::new(path, format!("is in projected coordinates ({code}); the importer reads geographic longitude and latitude (EPSG:4326): reproject it, for example `gdalwarp -t_srs EPSG:4326 in.tif out.tif`")));
    }
    let point = geokey(&keys, RASTER_TYPE) == Some(PIXEL_IS_POINT);
    let scale = f64s(dec, Tag::ModelPixelScaleTag)?;
    let tie = f64s(dec, Tag::ModelTiepointTag)?;
    let transform = f64s(dec, Tag::ModelTransformationTag)?;
    // The longitude and latitude of pixel corner (0, 0), and degrees per pixel.
    let (x0, y0, sx, sy) = match (scale, tie, transform) {
        (Some(s), Some(t), _) if s.len() >= 2 && t.len() >= 6 => (t[3] - t[0] * s[0], t[4] + t[1] * s[1], s[0], s[1]),
        (_, _, Some(m)) if m.len() >= 16 => {
            if m[1] != 0.0 || m[4] != 0.0 {
                return Err(RasterError::new(path, "has a rotated georeferencing transformation, which the importer does not read: warp it north-up first"));
            }
            (m[3], m[7], m[0], -m[5])
        }
        _ => return Ok(None),
    };
    if !(sx > 0.0 && sy > 0.0 && x0.is_finite() && y0.is_finite()) {
        return Err(RasterError::new(path, format!("has a georeferencing the importer cannot use (pixel size {sx} x {sy} degrees): it needs north-up pixels of positive size")));
    }
    // Pixel is point: the tie point is the centre of its pixel, so the corner lies half a pixel
    // further west and north.
    let (x0, y0) = if point { (x0 - 0.5 * sx, y0 + 0.5 * sy) } else { (x0, y0) };
    let b = Bounds { west: x0, east: x0 + sx * size.width as f64, south: y0 - sy * size.height as f64, north: y0 };
    // A thousandth of a degree of rounding is forgiven at the poles and round the globe.
    let slack = 1e-3;
    if b.south < -90.0 - slack || b.north > 90.0 + slack || b.east - b.west > 360.0 + slack || b.west < -540.0 || b.east > 540.0 {
        let system = geokey(&keys, GEOGRAPHIC_TYPE).map_or(String::new(), |c| format!(" (EPSG:{c})"));
        return Err(RasterError::new(path, format!("says it covers longitudes {:.4}..{:.4} and latitudes {:.4}..{:.4}{system}, which are not geographic coordinates: reproject it to EPSG:4326", b.west, b.east, b.south, b.north)));
    }
    Ok(Some(Bounds { south: b.south.max(-90.0), north: b.north.min(90.0), east: b.east.min(b.west + 360.0), ..b }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiff::encoder::{colortype, TiffEncoder};

    /// Writes a grey float GeoTIFF whose pixel (0, 0)'s corner lies at `(west, north)` with
    /// `deg` degrees per pixel, and GDAL's no-data value -9999.
    #[allow(clippy::too_many_arguments)]
    fn geotiff(path: &Path, w: u32, h: u32, west: f64, north: f64, deg: f64, keys: &[u16], f: impl Fn(u32, u32) -> f32) {
        let file = std::fs::File::create(path).expect("create");
        let mut enc = TiffEncoder::new(std::io::BufWriter::new(file)).expect("encoder");
        let mut img = enc.new_image::<colortype::Gray32Float>(w, h).expect("image");
        img.encoder().write_tag(Tag::ModelPixelScaleTag, &[deg, deg, 0.0][..]).expect("scale");
        img.encoder().write_tag(Tag::ModelTiepointTag, &[0.0, 0.0, 0.0, west, north, 0.0][..]).expect("tie");
        img.encoder().write_tag(Tag::GeoKeyDirectoryTag, keys).expect("keys");
        img.encoder().write_tag(Tag::GdalNodata, "-9999").expect("nodata");
        let data: Vec<f32> = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).map(|(x, y)| f(x, y)).collect();
        img.write_data(&data).expect("data");
    }

    const GEOGRAPHIC: [u16; 12] = [1, 1, 0, 2, MODEL_TYPE, 0, 1, 2, GEOGRAPHIC_TYPE, 0, 1, 4326];

    #[test]
    fn a_geotiff_reads_its_bounds_and_no_data_value() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("patch.tif");
        geotiff(&p, 40, 20, 10.0, 50.0, 0.5, &GEOGRAPHIC, |x, y| if x == 0 { -9999.0 } else { (x + 100 * y) as f32 });
        let r = decode(&p).expect("decodes");
        assert_eq!((r.width, r.height, r.channels, r.full_scale), (40, 20, 1, 1.0));
        assert_eq!(r.bounds, Some(Bounds { west: 10.0, east: 30.0, south: 40.0, north: 50.0 }));
        assert_eq!(r.nodata, Some(-9999.0));
        assert_eq!(r.at(3, 2, 0), 203.0);
        assert!(!r.has_data(0, 5) && r.has_data(1, 5));
    }

    #[test]
    fn projected_and_impossible_coordinates_are_refused_with_what_to_do() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("utm.tif");
        geotiff(&p, 4, 4, 500_000.0, 5_000_000.0, 30.0, &[1, 1, 0, 2, MODEL_TYPE, 0, 1, MODEL_PROJECTED, PROJECTED_TYPE, 0, 1, 32632], |_, _| 0.0);
        let err = header(&p).expect_err("projected");
        assert!(err.to_string().contains("EPSG:32632") && err.to_string().contains("gdalwarp"), "{err}");
        // Metres without keys: no geographic rectangle.
        let q = dir.path().join("metres.tif");
        geotiff(&q, 4, 4, 500_000.0, 5_000_000.0, 30.0, &[1, 1, 0, 0], |_, _| 0.0);
        assert!(decode(&q).expect_err("not degrees").to_string().contains("not geographic coordinates"));
    }
}
