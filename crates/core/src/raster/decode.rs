//! Decoding one file into a [`Raster`]: the format from the file's signature (or RAW from the
//! settings), the size from its header and checked against [`MAX_PIXELS`] before any pixel is
//! decoded, then the pixels.

use super::{FileFormat, Raster, RasterError, RawSample, MAX_PIXELS};
use std::io::{BufReader, Read};
use std::path::Path;

/// A file's size in pixels, read from its header (or, for RAW, from the settings and checked
/// against the file's length).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Pixels per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

/// The formats recognised from a file's first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Signature {
    Png,
    Tiff,
    Exr,
}

/// Opens `path` for reading if it is a regular file (a folder, a FIFO or a device is refused),
/// with its length in bytes.
pub fn open(path: &Path) -> Result<(std::fs::File, u64), RasterError> {
    let meta = std::fs::metadata(path).map_err(|e| RasterError::new(path, io_why(&e)))?;
    if !meta.is_file() {
        return Err(RasterError::new(path, "is not a regular file"));
    }
    let file = std::fs::File::open(path).map_err(|e| RasterError::new(path, io_why(&e)))?;
    Ok((file, meta.len()))
}

/// An I/O error in words ("does not exist", "cannot be read: permission denied").
pub fn io_why(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "does not exist (the path is relative to the graph file's folder)".to_string(),
        std::io::ErrorKind::PermissionDenied => "cannot be read: permission denied".to_string(),
        _ => format!("cannot be read: {e}"),
    }
}

fn signature(path: &Path) -> Result<Signature, RasterError> {
    let (mut file, len) = open(path)?;
    let mut head = [0u8; 8];
    let got = file.read(&mut head).map_err(|e| RasterError::new(path, io_why(&e)))?;
    let head = &head[..got];
    if head.starts_with(b"\x89PNG\r\n\x1a\n") {
        Ok(Signature::Png)
    } else if head.starts_with(b"II*\0") || head.starts_with(b"MM\0*") || head.starts_with(b"II+\0") || head.starts_with(b"MM\0+") {
        Ok(Signature::Tiff)
    } else if head.starts_with(&[0x76, 0x2f, 0x31, 0x01]) {
        Ok(Signature::Exr)
    } else if len == 0 {
        Err(RasterError::new(path, "is empty"))
    } else {
        Err(RasterError::new(path, "is not a PNG, TIFF or EXR file (its first bytes say none of them; a headerless RAW file needs the RAW format and its size in the node's settings)"))
    }
}

/// Refuses a size without pixels or over [`MAX_PIXELS`].
pub fn check_size(path: &Path, width: usize, height: usize) -> Result<Header, RasterError> {
    if width == 0 || height == 0 {
        return Err(RasterError::new(path, format!("has no pixels ({width} x {height})")));
    }
    if width as u64 * height as u64 > MAX_PIXELS {
        return Err(RasterError::new(path, format!("has {width} x {height} pixels, over the limit of {MAX_PIXELS} (2^28) pixels per file; downsample it or split it into patches")));
    }
    Ok(Header { width, height })
}

/// The file's size in pixels from its header, checked against [`MAX_PIXELS`]; for RAW, the
/// settings' size checked against the file's length. Nothing is decoded.
pub fn header(path: &Path, format: FileFormat) -> Result<Header, RasterError> {
    match format {
        FileFormat::Raw { sample, width, height, .. } => raw_header(path, sample, width, height),
        FileFormat::Auto => match signature(path)? {
            Signature::Png => png_header(path),
            Signature::Tiff => super::geotiff::header(path),
            Signature::Exr => exr_header(path),
        },
    }
}

/// Decodes the file (the size checked first, as [`header`] does).
pub fn decode(path: &Path, format: FileFormat) -> Result<Raster, RasterError> {
    match format {
        FileFormat::Raw { sample, width, height, big_endian } => raw_decode(path, sample, width, height, big_endian),
        FileFormat::Auto => match signature(path)? {
            Signature::Png => png_decode(path),
            Signature::Tiff => super::geotiff::decode(path),
            Signature::Exr => exr_decode(path),
        },
    }
}

fn malformed(path: &Path, what: &str, e: impl std::fmt::Display) -> RasterError {
    RasterError::new(path, format!("is not a valid {what} file: {e}"))
}

fn png_decoder(path: &Path) -> Result<png::Decoder<BufReader<std::fs::File>>, RasterError> {
    let (file, _) = open(path)?;
    // The size is checked against MAX_PIXELS before decoding; the crate's own 64 MiB limit
    // would refuse large heightmaps below it.
    Ok(png::Decoder::new_with_limits(BufReader::new(file), png::Limits { bytes: usize::MAX }))
}

fn png_header(path: &Path) -> Result<Header, RasterError> {
    let mut dec = png_decoder(path)?;
    let info = dec.read_header_info().map_err(|e| malformed(path, "PNG", e))?;
    check_size(path, info.width as usize, info.height as usize)
}

fn png_decode(path: &Path) -> Result<Raster, RasterError> {
    let mut dec = png_decoder(path)?;
    let info = dec.read_header_info().map_err(|e| malformed(path, "PNG", e))?;
    let Header { width, height } = check_size(path, info.width as usize, info.height as usize)?;
    // Palettes become RGB, grey of 1, 2 or 4 bits becomes 8 bits; 16 bits stay 16 bits.
    dec.set_transformations(png::Transformations::EXPAND);
    let mut reader = dec.read_info().map_err(|e| malformed(path, "PNG", e))?;
    let size = reader.output_buffer_size().ok_or_else(|| RasterError::new(path, "is too large to decode on this machine"))?;
    let mut buf = vec![0u8; size];
    let frame = reader.next_frame(&mut buf).map_err(|e| malformed(path, "PNG", e))?;
    let samples = frame.color_type.samples();
    let wide = frame.bit_depth == png::BitDepth::Sixteen;
    let channels = if samples >= 3 { 3 } else { 1 };
    let bytes = if wide { 2 } else { 1 };
    let mut data = Vec::with_capacity(width * height * channels);
    for row in buf.chunks(frame.line_size).take(height) {
        for px in row.chunks(samples * bytes).take(width) {
            for c in 0..channels {
                let k = c * bytes;
                data.push(if wide { u16::from_be_bytes([px[k], px[k + 1]]) as f32 } else { px[k] as f32 });
            }
        }
    }
    if data.len() != width * height * channels {
        return Err(RasterError::new(path, "is not a valid PNG file: its image data is shorter than its size"));
    }
    Ok(Raster { width, height, channels, data, full_scale: if wide { 65535.0 } else { 255.0 }, bounds: None, nodata: None })
}

fn exr_header(path: &Path) -> Result<Header, RasterError> {
    open(path)?;
    let meta = exr::meta::MetaData::read_from_file(path, false).map_err(|e| malformed(path, "EXR", e))?;
    let first = meta.headers.first().ok_or_else(|| RasterError::new(path, "is not a valid EXR file: it has no layer"))?;
    check_size(path, first.layer_size.width(), first.layer_size.height())
}

fn exr_decode(path: &Path) -> Result<Raster, RasterError> {
    let Header { width, height } = exr_header(path)?;
    let image = exr::prelude::read_first_flat_layer_from_file(path).map_err(|e| malformed(path, "EXR", e))?;
    let list = &image.layer_data.channel_data.list;
    let (w, h) = (image.layer_data.size.width(), image.layer_data.size.height());
    if (w, h) != (width, height) {
        return Err(RasterError::new(path, format!("is not a valid EXR file: its header says {width} x {height} pixels, its layer {w} x {h}")));
    }
    let named = |n: &str| list.iter().find(|c| c.name.eq(n));
    // Colour from R, G and B; grey from Y, else from the first channel (alphabetical).
    let chosen: Vec<_> = match (named("R"), named("G"), named("B")) {
        (Some(r), Some(g), Some(b)) => vec![r, g, b],
        _ => named("Y").or_else(|| list.first()).into_iter().collect(),
    };
    if chosen.is_empty() {
        return Err(RasterError::new(path, "is not a valid EXR file: its first layer has no channel"));
    }
    if chosen.iter().any(|c| c.sample_data.len() != w * h) {
        return Err(RasterError::new(path, "holds subsampled channels, which the importer does not read"));
    }
    let channels = chosen.len();
    let mut data = Vec::with_capacity(w * h * channels);
    for k in 0..w * h {
        for c in &chosen {
            data.push(c.sample_data.value_by_flat_index(k).to_f32());
        }
    }
    Ok(Raster { width, height, channels, data, full_scale: 1.0, bounds: None, nodata: None })
}

fn raw_header(path: &Path, sample: RawSample, width: usize, height: usize) -> Result<Header, RasterError> {
    let (_, len) = open(path)?;
    let header = check_size(path, width, height)?;
    let bytes = match sample {
        RawSample::U16 => 2,
        RawSample::F32 => 4,
    };
    let want = (width * height * bytes) as u64;
    if len != want {
        let kind = match sample {
            RawSample::U16 => "16-bit integers",
            RawSample::F32 => "32-bit floats",
        };
        return Err(RasterError::new(path, format!("holds {len} bytes, but {width} x {height} RAW pixels of {kind} take {want}: check the width, the height and the sample type")));
    }
    Ok(header)
}

fn raw_decode(path: &Path, sample: RawSample, width: usize, height: usize, big_endian: bool) -> Result<Raster, RasterError> {
    raw_header(path, sample, width, height)?;
    let (mut file, len) = open(path)?;
    let mut bytes = Vec::with_capacity(len as usize);
    file.read_to_end(&mut bytes).map_err(|e| RasterError::new(path, io_why(&e)))?;
    if bytes.len() as u64 != len {
        return Err(RasterError::new(path, "changed while it was read"));
    }
    let (data, full_scale): (Vec<f32>, f32) = match sample {
        RawSample::U16 => (bytes.chunks_exact(2).map(|b| if big_endian { u16::from_be_bytes([b[0], b[1]]) } else { u16::from_le_bytes([b[0], b[1]]) } as f32).collect(), 65535.0),
        RawSample::F32 => (
            bytes
                .chunks_exact(4)
                .map(|b| {
                    let a = [b[0], b[1], b[2], b[3]];
                    if big_endian {
                        f32::from_be_bytes(a)
                    } else {
                        f32::from_le_bytes(a)
                    }
                })
                .collect(),
            1.0,
        ),
    };
    Ok(Raster { width, height, channels: 1, data, full_scale, bounds: None, nodata: None })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, bytes).expect("write");
        p
    }

    fn png16(path: &Path, w: u32, h: u32, f: impl Fn(u32, u32) -> u16) {
        let file = std::fs::File::create(path).expect("create");
        let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
        enc.set_color(png::ColorType::Grayscale);
        enc.set_depth(png::BitDepth::Sixteen);
        let mut writer = enc.write_header().expect("header");
        let data: Vec<u8> = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).flat_map(|(x, y)| f(x, y).to_be_bytes()).collect();
        writer.write_image_data(&data).expect("data");
    }

    #[test]
    fn png_16_bits_reads_every_value_in_place() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("a.png");
        png16(&p, 5, 3, |x, y| (x * 1000 + y) as u16);
        assert_eq!(header(&p, FileFormat::Auto), Ok(Header { width: 5, height: 3 }));
        let r = decode(&p, FileFormat::Auto).expect("decodes");
        assert_eq!((r.width, r.height, r.channels, r.full_scale), (5, 3, 1, 65535.0));
        assert_eq!(r.at(4, 2, 0), 4002.0);
        assert_eq!(r.at(1, 0, 0), 1000.0);
    }

    #[test]
    fn raw_files_need_the_length_their_size_says() {
        let dir = tempfile::tempdir().expect("tempdir");
        let values: Vec<u8> = [1.5f32, -2.0, 3.25, 4.0, 5.0, 6.0].iter().flat_map(|v| v.to_le_bytes()).collect();
        let p = write(dir.path(), "h.r32", &values);
        let raw = |w, h| FileFormat::Raw { sample: RawSample::F32, width: w, height: h, big_endian: false };
        let r = decode(&p, raw(3, 2)).expect("decodes");
        assert_eq!(r.at(2, 0, 0), 3.25);
        assert_eq!(r.at(0, 1, 0), 4.0);
        let err = decode(&p, raw(4, 2)).expect_err("short");
        assert!(err.to_string().contains("holds 24 bytes") && err.to_string().contains("h.r32"), "{err}");
        let be: Vec<u8> = [258u16, 1].iter().flat_map(|v| v.to_be_bytes()).collect();
        let p = write(dir.path(), "h.r16", &be);
        let r = decode(&p, FileFormat::Raw { sample: RawSample::U16, width: 2, height: 1, big_endian: true }).expect("decodes");
        assert_eq!((r.at(0, 0, 0), r.at(1, 0, 0), r.full_scale), (258.0, 1.0, 65535.0));
    }

    #[test]
    fn bad_files_are_named_with_the_reason() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("nothing.png");
        assert!(header(&missing, FileFormat::Auto).expect_err("missing").to_string().contains("does not exist"));
        let text = write(dir.path(), "notes.png", b"hello world");
        assert!(header(&text, FileFormat::Auto).expect_err("text").to_string().contains("is not a PNG, TIFF or EXR file"));
        assert!(header(dir.path(), FileFormat::Auto).expect_err("folder").to_string().contains("not a regular file"));
        let empty = write(dir.path(), "empty.tif", b"");
        assert!(header(&empty, FileFormat::Auto).expect_err("empty").to_string().contains("is empty"));
        // A size over the limit is refused before decoding (tests/import.rs reads it from a
        // PNG's header); one without pixels too.
        let err = check_size(&text, 70_000, 70_000).expect_err("too large");
        assert!(err.to_string().contains("70000 x 70000 pixels, over the limit") && err.to_string().contains("notes.png"), "{err}");
        assert!(check_size(&text, 0, 5).expect_err("empty").to_string().contains("no pixels"));
        // Cut short after the header: the decoder says so, naming the file.
        let cut = dir.path().join("cut.png");
        png16(&cut, 64, 64, |x, y| (x * y) as u16);
        let bytes = std::fs::read(&cut).expect("read");
        std::fs::write(&cut, &bytes[..bytes.len() / 2]).expect("write");
        let err = decode(&cut, FileFormat::Auto).expect_err("cut");
        assert!(err.to_string().contains("cut.png") && err.to_string().contains("not a valid PNG"), "{err}");
    }
}
