//! Image encoders: PNG (8/16-bit grey or RGB, through the `png` crate, streamed in strips of
//! rows), OpenEXR (32-bit float, through the `exr` crate, pixels computed as it asks for them),
//! TIFF (16-bit unsigned or 32-bit float grey or RGB, uncompressed strips, through the `tiff`
//! crate) and headerless RAW (16-bit unsigned or 32-bit float, either byte order). No encoder holds
//! the whole image: strips of [`STRIP_ROWS`] rows are computed and written in turn.

use super::base::{AtomicFile, Control, ExportError, STRIP_ROWS};
use super::images::Pixels;
use crate::nodes::output::export::{ByteOrder, ExportFormat};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::Ordering;

/// Writes the image of `pixels` to `path` in `format` (an image format); returns the file's
/// size in bytes.
pub fn write_image(path: &Path, pixels: &Pixels, format: ExportFormat, order: ByteOrder, control: &Control) -> Result<u64, ExportError> {
    let h = pixels.grid.size().1;
    write_file(path, h, control, |out| write_format(out, path, pixels, format, order, control))
}

/// Writes the file `path` of an image of `h` rows under a temporary name, its content written
/// by `body`, and renames it into place when complete (not after a cancel); counts the rows
/// for progress from 0. Returns the file's size in bytes.
pub fn write_file(path: &Path, h: usize, control: &Control, body: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> Result<(), ExportError>) -> Result<u64, ExportError> {
    control.progress.rows_total.store(h, Ordering::Relaxed);
    control.progress.rows_done.store(0, Ordering::Relaxed);
    let (file, mut out) = AtomicFile::create(path)?;
    body(&mut out)?;
    control.check()?;
    file.commit(out)
}

/// Writes the image of `pixels` to `out` in `format` (`path` names the file in errors).
fn write_format(out: &mut std::io::BufWriter<std::fs::File>, path: &Path, pixels: &Pixels, format: ExportFormat, order: ByteOrder, control: &Control) -> Result<(), ExportError> {
    let h = pixels.grid.size().1;
    let io = |source| ExportError::Io { path: path.to_path_buf(), source };
    match format {
        ExportFormat::Png8 | ExportFormat::Png16 => write_png(out, path, pixels, format == ExportFormat::Png16, control)?,
        ExportFormat::Raw16 | ExportFormat::Raw32 => {
            strips(h, control, |y0, y1| {
                let rows = pixels.rows(y0, y1, control)?;
                let bytes: Vec<u8> = match (format, order) {
                    (ExportFormat::Raw16, ByteOrder::Little) => rows.iter().flat_map(|&v| quantise16(v).to_le_bytes()).collect(),
                    (ExportFormat::Raw16, ByteOrder::Big) => rows.iter().flat_map(|&v| quantise16(v).to_be_bytes()).collect(),
                    (_, ByteOrder::Little) => rows.iter().flat_map(|v| v.to_le_bytes()).collect(),
                    (_, ByteOrder::Big) => rows.iter().flat_map(|v| v.to_be_bytes()).collect(),
                };
                out.write_all(&bytes).map_err(io)
            })?;
        }
        ExportFormat::Exr => write_exr(out, path, pixels, control)?,
        ExportFormat::Tiff16 | ExportFormat::Tiff32 => write_tiff(out, path, pixels, format, control)?,
        ExportFormat::Glb | ExportFormat::Obj => return Err(ExportError::Encode { path: path.to_path_buf(), message: "a mesh format is not an image format".into() }),
    }
    Ok(())
}

/// Writes the PNG of `pixels` (8 or, with `sixteen`, 16 bits per sample; grey or RGB) to
/// `out`, computed in strips of rows; `path` names the file in errors.
pub fn write_png(out: impl Write, path: &Path, pixels: &Pixels, sixteen: bool, control: &Control) -> Result<(), ExportError> {
    let (w, h) = pixels.grid.size();
    let colour = if pixels.channels() == 1 { png::ColorType::Grayscale } else { png::ColorType::Rgb };
    let depth = if sixteen { png::BitDepth::Sixteen } else { png::BitDepth::Eight };
    png_strips(out, path, (w, h), colour, depth, control, |y0, y1| {
        let rows = pixels.rows(y0, y1, control)?;
        // PNG stores 16-bit samples big-endian.
        Ok(if sixteen { rows.iter().flat_map(|&v| quantise16(v).to_be_bytes()).collect() } else { rows.iter().map(|&v| (v * 255.0).round() as u8).collect() })
    })
}

/// Writes a PNG of `w` x `h` pixels of `colour` samples at `depth` to `out` (fast deflate),
/// the samples of rows `y0..y1` given by `rows(y0, y1)` in strips of [`STRIP_ROWS`] (16-bit
/// samples big-endian); `path` names the file in errors.
pub fn png_strips(out: impl Write, path: &Path, (w, h): (usize, usize), colour: png::ColorType, depth: png::BitDepth, control: &Control, mut rows: impl FnMut(usize, usize) -> Result<Vec<u8>, ExportError>) -> Result<(), ExportError> {
    let io = |source| ExportError::Io { path: path.to_path_buf(), source };
    let enc_err = |e: png::EncodingError| match e {
        png::EncodingError::IoError(source) => ExportError::Io { path: path.to_path_buf(), source },
        e => ExportError::Encode { path: path.to_path_buf(), message: e.to_string() },
    };
    let mut enc = png::Encoder::new(out, w as u32, h as u32);
    enc.set_color(colour);
    enc.set_depth(depth);
    enc.set_compression(png::Compression::Fast);
    let mut writer = enc.write_header().map_err(enc_err)?;
    let mut stream = writer.stream_writer().map_err(enc_err)?;
    strips(h, control, |y0, y1| stream.write_all(&rows(y0, y1)?).map_err(io))?;
    stream.finish().map_err(enc_err)
}

/// A 0..1 value as a 16-bit sample.
pub fn quantise16(v: f32) -> u16 {
    (v * 65535.0).round().clamp(0.0, 65535.0) as u16
}

/// Calls `f(y0, y1)` for strips of rows, counting progress and stopping on cancel.
fn strips(h: usize, control: &Control, mut f: impl FnMut(usize, usize) -> Result<(), ExportError>) -> Result<(), ExportError> {
    let mut y = 0;
    while y < h {
        control.check()?;
        let y1 = (y + STRIP_ROWS).min(h);
        f(y, y1)?;
        control.progress.rows_done.store(y1, Ordering::Relaxed);
        y = y1;
    }
    Ok(())
}

/// Bytes of samples from which a TIFF is written as BigTIFF: a classic TIFF's offsets are 32-bit,
/// so its samples and directory must stay under 4 GiB (a 65536 x 32768 equirect of 16-bit grey
/// is 4 GiB). 16 MiB are left for the directory and the strip tables.
pub const BIGTIFF_FROM_BYTES: u64 = (1 << 32) - (16 << 20);

/// Whether an image of `w` x `h` pixels of `channels` samples of `bytes_per_sample` bytes is
/// written as BigTIFF (64-bit offsets; read by libtiff 4, GDAL and tifffile): from
/// [`BIGTIFF_FROM_BYTES`] of samples.
pub fn tiff_is_big(w: usize, h: usize, channels: usize, bytes_per_sample: usize) -> bool {
    (w as u64) * (h as u64) * (channels as u64) * (bytes_per_sample as u64) >= BIGTIFF_FROM_BYTES
}

/// TIFF with one grey or three RGB channels of 16-bit unsigned or 32-bit float samples, one
/// uncompressed strip per [`STRIP_ROWS`] rows (the encoder seeks back only to its directory);
/// BigTIFF when the samples reach [`BIGTIFF_FROM_BYTES`] ([`tiff_is_big`]).
fn write_tiff(out: &mut std::io::BufWriter<std::fs::File>, path: &Path, pixels: &Pixels, format: ExportFormat, control: &Control) -> Result<(), ExportError> {
    let (w, h) = pixels.grid.size();
    let bytes_per_sample = if format == ExportFormat::Tiff16 { 2 } else { 4 };
    write_tiff_as(out, path, pixels, format, control, tiff_is_big(w, h, pixels.channels(), bytes_per_sample))
}

/// [`write_tiff`] as a classic TIFF, or as a BigTIFF when `big`.
fn write_tiff_as(out: impl std::io::Write + std::io::Seek, path: &Path, pixels: &Pixels, format: ExportFormat, control: &Control, big: bool) -> Result<(), ExportError> {
    use tiff::encoder::colortype::{self, ColorType};
    use tiff::encoder::{TiffEncoder, TiffKind};
    let err = |e: tiff::TiffError| match e {
        tiff::TiffError::IoError(source) => ExportError::Io { path: path.to_path_buf(), source },
        e => ExportError::Encode { path: path.to_path_buf(), message: e.to_string() },
    };
    let (w, h) = pixels.grid.size();
    let size = |v: usize| u32::try_from(v).map_err(|_| ExportError::Encode { path: path.to_path_buf(), message: format!("{v} pixels is too large for TIFF") });
    let (w32, h32) = (size(w)?, size(h)?);
    // Writes the image of colour type C, converting each strip of 0..1 or float values with
    // `sample`.
    fn strips_of<C: ColorType, W: std::io::Write + std::io::Seek, K: TiffKind>(
        enc: &mut TiffEncoder<W, K>,
        (w, h): (u32, u32),
        pixels: &Pixels,
        control: &Control,
        err: &dyn Fn(tiff::TiffError) -> ExportError,
        sample: impl Fn(f32) -> C::Inner,
    ) -> Result<(), ExportError>
    where
        [C::Inner]: tiff::encoder::TiffValue,
    {
        let mut image = enc.new_image::<C>(w, h).map_err(err)?;
        image.rows_per_strip(STRIP_ROWS as u32).map_err(err)?;
        strips(h as usize, control, |y0, y1| {
            let rows: Vec<C::Inner> = pixels.rows(y0, y1, control)?.iter().map(|&v| sample(v)).collect();
            image.write_strip(&rows).map_err(err)
        })?;
        image.finish().map_err(err)
    }
    // The image in the colour type of `format` and the channels.
    fn image<W: std::io::Write + std::io::Seek, K: TiffKind>(enc: &mut TiffEncoder<W, K>, size: (u32, u32), pixels: &Pixels, format: ExportFormat, control: &Control, err: &dyn Fn(tiff::TiffError) -> ExportError) -> Result<(), ExportError> {
        match (format, pixels.channels()) {
            (ExportFormat::Tiff16, 1) => strips_of::<colortype::Gray16, _, _>(enc, size, pixels, control, err, quantise16),
            (ExportFormat::Tiff16, _) => strips_of::<colortype::RGB16, _, _>(enc, size, pixels, control, err, quantise16),
            (_, 1) => strips_of::<colortype::Gray32Float, _, _>(enc, size, pixels, control, err, |v| v),
            _ => strips_of::<colortype::RGB32Float, _, _>(enc, size, pixels, control, err, |v| v),
        }
    }
    if big {
        image(&mut TiffEncoder::new_big(out).map_err(err)?, (w32, h32), pixels, format, control, &err)
    } else {
        image(&mut TiffEncoder::new(out).map_err(err)?, (w32, h32), pixels, format, control, &err)
    }
}

/// EXR with one float channel `Y` or three `R`, `G`, `B`; the encoder asks for pixels block by
/// block (after a cancel they come back as zeros and the file is discarded).
fn write_exr(out: &mut std::io::BufWriter<std::fs::File>, path: &Path, pixels: &Pixels, control: &Control) -> Result<(), ExportError> {
    use exr::prelude::*;
    let (w, h) = pixels.grid.size();
    // The encoder asks for pixels one by one, in increasing rows on this thread: they come from
    // strips of rows computed as for the other formats (a tiled source's tiles evaluated per
    // strip). A failure stops the strips; its error is reported after the encoder returns.
    let strip: std::sync::Mutex<(usize, Vec<f32>)> = std::sync::Mutex::new((usize::MAX, Vec::new()));
    let failed: std::sync::Mutex<Option<ExportError>> = std::sync::Mutex::new(None);
    let ch = pixels.channels();
    let px = |pos: Vec2<usize>| -> [f32; 3] {
        let (Ok(mut strip), Ok(mut failed)) = (strip.lock(), failed.lock()) else { return [0.0; 3] };
        if failed.is_some() || control.cancel.load(Ordering::Relaxed) {
            return [0.0; 3];
        }
        let first = pos.1 / STRIP_ROWS * STRIP_ROWS;
        if strip.0 != first {
            match pixels.rows(first, (first + STRIP_ROWS).min(h), control) {
                Ok(rows) => *strip = (first, rows),
                Err(e) => {
                    *failed = Some(e);
                    return [0.0; 3];
                }
            }
        }
        let k = ((pos.1 - first) * w + pos.0) * ch;
        let mut out = [0.0; 3];
        out[..ch].copy_from_slice(&strip.1[k..k + ch]);
        out
    };
    let progress = |p: f64| control.progress.rows_done.store((p * h as f64) as usize, Ordering::Relaxed);
    let err = |e: exr::error::Error| match e {
        exr::error::Error::Io(source) => ExportError::Io { path: path.to_path_buf(), source },
        e => ExportError::Encode { path: path.to_path_buf(), message: e.to_string() },
    };
    // Chunks in increasing order: the encoder compresses blocks in parallel, and with the
    // default (unspecified) order it writes them as they finish, so the bytes would depend on
    // the thread count and timing.
    let encoding = Encoding { line_order: LineOrder::Increasing, ..Encoding::FAST_LOSSLESS };
    let written = if ch == 1 {
        let channels = SpecificChannels::build().with_channel("Y").with_pixel_fn(|pos| (px(pos)[0],));
        Image::from_encoded_channels((w, h), encoding, channels).write().on_progress(progress).to_buffered(out).map_err(err)
    } else {
        let channels = SpecificChannels::build().with_channel("R").with_channel("G").with_channel("B").with_pixel_fn(|pos| {
            let p = px(pos);
            (p[0], p[1], p[2])
        });
        Image::from_encoded_channels((w, h), encoding, channels).write().on_progress(progress).to_buffered(out).map_err(err)
    };
    match failed.into_inner().ok().flatten() {
        Some(e) => Err(e),
        None => written,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::images::{Encoding, FaceTile, Frame, Grid};
    use crate::export::source::Source;
    use crate::export::ExportProgress;
    use crate::nodes::output::export::FaceGrid;
    use crate::planet::{Face, Field};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    #[test]
    fn bigtiff_from_four_gib_of_samples() {
        // A 65536 x 32768 equirect: 16-bit grey is 4 GiB, so BigTIFF; 8192 x 4096 RGB float is not.
        assert!(tiff_is_big(65536, 32768, 1, 2));
        assert!(!tiff_is_big(32768, 16384, 1, 4));
        assert!(!tiff_is_big(8192, 4096, 3, 4));
    }

    #[test]
    fn a_bigtiff_holds_the_same_samples_as_a_classic_tiff() {
        let n = 40;
        let src = Source::Scalar(Arc::new(Field::from_fn_cell(n, |c| (c % 997) as f32 / 997.0)));
        let grid = Grid::Face(FaceTile { face: Face::Front, m: n, grid: FaceGrid::Cells, gnomonic: false, border: 0, x0: 0, y0: 0, w: n, h: n });
        let pixels = Pixels { source: &src, grid, encoding: Encoding::Identity, frame: Frame::Object };
        let (cancel, progress) = (AtomicBool::new(false), ExportProgress::default());
        let control = Control { cancel: &cancel, progress: &progress };
        let path = Path::new("test.tif");
        for format in [ExportFormat::Tiff16, ExportFormat::Tiff32] {
            let write = |big: bool| {
                let mut out = std::io::Cursor::new(Vec::new());
                write_tiff_as(&mut out, path, &pixels, format, &control, big).expect("tiff");
                out.into_inner()
            };
            let (classic, big) = (write(false), write(true));
            // The header: byte order "II", then 42 for TIFF and 43 for BigTIFF.
            assert_eq!((classic[2], big[2]), (42, 43), "{format:?}");
            let decode = |bytes: Vec<u8>| {
                let mut d = tiff::decoder::Decoder::new(std::io::Cursor::new(bytes)).expect("decoder");
                assert_eq!(d.dimensions().expect("dimensions"), (n as u32, n as u32));
                match d.read_image().expect("image") {
                    tiff::decoder::DecodingResult::U16(v) => v.into_iter().map(f32::from).collect::<Vec<_>>(),
                    tiff::decoder::DecodingResult::F32(v) => v,
                    other => panic!("unexpected samples {:?}", std::mem::discriminant(&other)),
                }
            };
            let (a, b) = (decode(classic), decode(big));
            assert_eq!(a.len(), n * n);
            assert_eq!(a, b, "{format:?}: the BigTIFF's samples differ");
        }
    }
}
