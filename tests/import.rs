//! The Import raster node (issue 50): files of known fields imported at 256 cells per face edge
//! and compared with their source (a 16-bit PNG globe, a float GeoTIFF globe whose
//! georeferencing starts at longitude 0, six cube faces as PlanetGraph exports them); a patch
//! that lands where its bounds say; the committed Earth grid's land share and mean land height;
//! an edited file read again; and every bad file refused by `check` and `build` with exit 2,
//! naming the node and the file.

mod common;

use common::correlation;
use glam::Vec3;
use planetgraph_core::eval::{EvalResult, Evaluator, Progress};
use planetgraph_core::graph::NodeId;
use planetgraph_core::io::{load_graph, Strictness};
use planetgraph_core::planet::{projection, Field};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use tiff::encoder::{colortype, TiffEncoder};
use tiff::tags::Tag;

/// A smooth test relief in metres (about -6000..6000).
fn relief(d: Vec3) -> f32 {
    3000.0 * (d.y + 0.6 * d.x * d.z + 0.4 * (3.0 * d.x).sin() * d.z)
}

/// The graph: node 1 imports with `params`, the Planet node (2) maps -1..1 to -9000..9000 m, so
/// the import's output times 9000 is metres.
fn graph_text(params: &str) -> String {
    format!(
        "(version: 3, nodes: [(id: 1, kind: ImportRaster, params: {{{params}}}), (id: 2, kind: Planet, params: {{\"max_elevation_m\": Float(9000.0), \"max_depth_m\": Float(9000.0)}})], links: [(from: 1, output: \"out\", to: 2, input: \"elevation\")])"
    )
}

fn evaluate_in(ev: &mut Evaluator, dir: &Path, params: &str, n: usize) -> EvalResult {
    let path = dir.join("import.ron");
    std::fs::write(&path, graph_text(params)).expect("write graph");
    let g = load_graph(&path, Strictness::Complete).expect("graph");
    let res = ev.evaluate(&g, n, &AtomicBool::new(false), &Progress::default());
    assert!(res.errors.is_empty(), "{:?}", res.errors);
    res
}

fn field(res: &EvalResult, port: usize) -> Field {
    match res.output(NodeId(1), port) {
        Some(planetgraph_core::nodes::Value::Field(f)) => f.as_ref().clone(),
        other => panic!("output {port}: {other:?}"),
    }
}

fn png16(path: &Path, w: usize, h: usize, f: impl Fn(usize, usize) -> u16) {
    let file = std::fs::File::create(path).expect("create");
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w as u32, h as u32);
    enc.set_color(png::ColorType::Grayscale);
    enc.set_depth(png::BitDepth::Sixteen);
    let mut writer = enc.write_header().expect("header");
    let data: Vec<u8> = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).flat_map(|(x, y)| f(x, y).to_be_bytes()).collect();
    writer.write_image_data(&data).expect("data");
}

/// A float GeoTIFF in geographic coordinates: pixel (0, 0)'s corner at `(west, north)`, `deg`
/// degrees per pixel.
#[allow(clippy::too_many_arguments)]
fn geotiff(path: &Path, w: usize, h: usize, west: f64, north: f64, deg: f64, keys: &[u16], f: impl Fn(usize, usize) -> f32) {
    let file = std::fs::File::create(path).expect("create");
    let mut enc = TiffEncoder::new(std::io::BufWriter::new(file)).expect("encoder");
    let mut img = enc.new_image::<colortype::Gray32Float>(w as u32, h as u32).expect("image");
    img.encoder().write_tag(Tag::ModelPixelScaleTag, &[deg, deg, 0.0][..]).expect("scale");
    img.encoder().write_tag(Tag::ModelTiepointTag, &[0.0, 0.0, 0.0, west, north, 0.0][..]).expect("tie");
    img.encoder().write_tag(Tag::GeoKeyDirectoryTag, keys).expect("keys");
    let data: Vec<f32> = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).map(|(x, y)| f(x, y)).collect();
    img.write_data(&data).expect("data");
}

/// GeoTIFF keys: geographic model, WGS 84.
const GEOGRAPHIC: [u16; 12] = [1, 1, 0, 2, 1024, 0, 1, 2, 2048, 0, 1, 4326];

/// The direction at the centre of pixel `(x, y)` of a map from `(west, north)` with `deg`
/// degrees per pixel.
fn map_dir(x: usize, y: usize, west: f64, north: f64, deg: f64) -> Vec3 {
    let lon = west + (x as f64 + 0.5) * deg;
    let lat = north - (y as f64 + 0.5) * deg;
    projection::lon_lat_to_dir(lon.to_radians() as f32, lat.to_radians() as f32)
}

/// The imported metres against the relief at every cell: correlation and worst difference.
fn compare(res: &EvalResult) -> (f64, f32) {
    let out = field(res, 0);
    let n = out.n();
    let got: Vec<f32> = out.data().iter().map(|v| v * 9000.0).collect();
    let want: Vec<f32> = (0..6 * n * n).map(|k| relief(planetgraph_core::planet::Cell::from_index(k, n).direction(n))).collect();
    let worst = got.iter().zip(&want).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    (correlation(&got, &want), worst)
}

#[test]
fn a_png_globe_and_a_geotiff_globe_come_back_as_their_fields() {
    let dir = tempfile::tempdir().expect("tempdir");
    // 16 bits: metres = stored x 0.25 - 8000.
    png16(&dir.path().join("globe.png"), 720, 360, |x, y| ((relief(map_dir(x, y, -180.0, 90.0, 0.5)) + 8000.0) * 4.0).round() as u16);
    let res = evaluate_in(&mut Evaluator::new(), dir.path(), "\"path\": Text(\"globe.png\"), \"scale\": Float(0.25), \"offset\": Float(-8000.0)", 256);
    let (r, worst) = compare(&res);
    assert!(r >= 0.999 && worst < 60.0, "PNG: correlation {r}, worst {worst} m");
    assert!(field(&res, 1).data().iter().all(|&m| m == 1.0), "a globe covers everything");
    // Floats, georeferenced from longitude 0 to 360 (the grid starts at Greenwich).
    geotiff(&dir.path().join("globe.tif"), 720, 360, 0.0, 90.0, 0.5, &GEOGRAPHIC, |x, y| relief(map_dir(x, y, 0.0, 90.0, 0.5)));
    let res = evaluate_in(&mut Evaluator::new(), dir.path(), "\"path\": Text(\"globe.tif\")", 256);
    let (r, worst) = compare(&res);
    assert!(r >= 0.999 && worst < 60.0, "GeoTIFF: correlation {r}, worst {worst} m");
}

#[test]
fn six_faces_come_back_without_seams_in_both_orders() {
    let dir = tempfile::tempdir().expect("tempdir");
    let m = 128;
    // PlanetGraph's faces: the cells of a level-128 field, as its exports write them.
    let cells = Field::from_fn_dir(m, relief);
    for (k, face) in planetgraph_core::planet::Face::ALL.iter().enumerate() {
        let img = projection::face_image(&cells, k);
        png16(&dir.path().join(format!("pg_{}.png", face.name())), m, m, |x, y| (img[y * m + x] + 8000.0).round() as u16);
    }
    let res = evaluate_in(&mut Evaluator::new(), dir.path(), "\"path\": Text(\"pg_{face}.png\"), \"layout\": Choice(\"faces\"), \"offset\": Float(-8000.0)", 256);
    let (r, worst) = compare(&res);
    assert!(r >= 0.999 && worst < 100.0, "PlanetGraph faces: correlation {r}, worst {worst} m");
    // OpenGL order and names, gnomonic.
    let gl = [(Vec3::X, -Vec3::Z, -Vec3::Y), (-Vec3::X, Vec3::Z, -Vec3::Y), (Vec3::Y, Vec3::X, Vec3::Z), (-Vec3::Y, Vec3::X, -Vec3::Z), (Vec3::Z, Vec3::X, -Vec3::Y), (-Vec3::Z, -Vec3::X, -Vec3::Y)];
    for (k, (normal, right, down)) in gl.iter().enumerate() {
        png16(&dir.path().join(format!("gl_{k}.png")), m, m, |x, y| {
            let (a, b) = (2.0 * (x as f32 + 0.5) / m as f32 - 1.0, 2.0 * (y as f32 + 0.5) / m as f32 - 1.0);
            (relief((*normal + a * *right + b * *down).normalize()) + 8000.0).round() as u16
        });
    }
    let res = evaluate_in(&mut Evaluator::new(), dir.path(), "\"path\": Text(\"gl_{n}.png\"), \"layout\": Choice(\"faces_gl\"), \"offset\": Float(-8000.0)", 256);
    let (r, worst) = compare(&res);
    assert!(r >= 0.999 && worst < 100.0, "OpenGL faces: correlation {r}, worst {worst} m");
}

#[test]
fn a_patch_lands_where_its_bounds_say_and_its_mask_blends() {
    let dir = tempfile::tempdir().expect("tempdir");
    // 100E..120E, 30S..10S at 0.1 degree; one marked pixel at 110.55E, 20.35S.
    let (west, north, deg) = (100.0, -10.0, 0.1);
    let mark = (105, 103);
    geotiff(&dir.path().join("patch.tif"), 200, 200, west, north, deg, &GEOGRAPHIC, |x, y| if (x, y) == mark { 5000.0 } else { 0.0 });
    let n = 256;
    let res = evaluate_in(&mut Evaluator::new(), dir.path(), "\"path\": Text(\"patch.tif\"), \"layout\": Choice(\"patch\"), \"filter\": Choice(\"linear\")", n);
    let out = field(&res, 0);
    let top = (0..out.data().len()).max_by(|&a, &b| out.data()[a].total_cmp(&out.data()[b])).expect("cells");
    let (lon, lat) = projection::dir_to_lon_lat(planetgraph_core::planet::Cell::from_index(top, n).direction(n));
    let want = map_dir(mark.0, mark.1, west, north, deg);
    let (wlon, wlat) = projection::dir_to_lon_lat(want);
    // One cell at 256 is about 0.35 degrees of arc.
    let cell_deg = 90.0 / n as f32 * 1.3;
    assert!((lon - wlon).to_degrees().abs() <= cell_deg && (lat - wlat).to_degrees().abs() <= cell_deg, "peak at {} {}, mark at {} {}", lon.to_degrees(), lat.to_degrees(), wlon.to_degrees(), wlat.to_degrees());
    let mask = field(&res, 1);
    let at = |lon: f32, lat: f32| mask.sample_dir(projection::lon_lat_to_dir(lon.to_radians(), lat.to_radians()));
    assert_eq!(at(110.0, -20.0), 1.0, "inside, beyond the feather");
    assert_eq!(at(0.0, 0.0), 0.0, "outside");
    let edge = at(100.4, -20.0);
    assert!(edge > 0.0 && edge < 1.0, "within the feather of the west edge: {edge}");
}

#[test]
fn an_edited_file_is_read_again() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("e.png");
    png16(&file, 64, 32, |_, _| 1000);
    let mut ev = Evaluator::new();
    let params = "\"path\": Text(\"e.png\")";
    let first = field(&evaluate_in(&mut ev, dir.path(), params, 16), 0);
    png16(&file, 64, 32, |_, _| 2000);
    // Another length or modification time: a file written within the same clock tick with the
    // same length is the one case the stamp cannot see, so the test moves the time on.
    std::fs::File::options().write(true).open(&file).expect("open").set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(10)).expect("touch");
    let second = field(&evaluate_in(&mut ev, dir.path(), params, 16), 0);
    assert!((first.data()[0] * 9000.0 - 1000.0).abs() < 1.0 && (second.data()[0] * 9000.0 - 2000.0).abs() < 1.0, "{} then {}", first.data()[0] * 9000.0, second.data()[0] * 9000.0);
}

/// Cell-area-weighted land share and mean land height of metres per cell (cube-sphere) or per
/// pixel of an equirectangular map.
fn land_stats(values: &[f32], weights: &[f64]) -> (f64, f64) {
    let (mut all, mut land, mut sum) = (0.0, 0.0, 0.0);
    for (v, w) in values.iter().zip(weights) {
        all += w;
        if *v > 0.0 {
            land += w;
            sum += w * *v as f64;
        }
    }
    (land / all, sum / land)
}

#[test]
fn the_committed_earth_grid_keeps_its_land_and_heights() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let png = image::open(root.join("graphs/data/earth_etopo1.png")).expect("earth grid").into_luma16();
    let (w, h) = png.dimensions();
    let file: Vec<f32> = png.pixels().map(|p| p.0[0] as f32 - 11000.0).collect();
    let file_w: Vec<f64> = (0..h).flat_map(|y| (0..w).map(move |_| ((0.5 - (y as f64 + 0.5) / h as f64) * std::f64::consts::PI).cos())).collect();
    let (file_land, file_mean) = land_stats(&file, &file_w);
    let dir = tempfile::tempdir().expect("tempdir");
    let path = root.join("graphs/data/earth_etopo1.png");
    let res = evaluate_in(&mut Evaluator::new(), dir.path(), &format!("\"path\": Text({:?}), \"offset\": Float(-11000.0)", path.display().to_string()), 256);
    let got: Vec<f32> = field(&res, 0).data().iter().map(|v| v * 9000.0).collect();
    let face = planetgraph_core::planet::coords::face_solid_angles(256);
    let weights: Vec<f64> = face.iter().cycle().take(6 * face.len()).copied().collect();
    let (land, mean) = land_stats(&got, &weights);
    eprintln!("file: land {file_land:.4}, mean land {file_mean:.0} m; imported at 256: land {land:.4}, mean land {mean:.0} m");
    assert!((land / file_land - 1.0).abs() <= 0.02, "land {land} against {file_land}");
    assert!((mean / file_mean - 1.0).abs() <= 0.02, "mean land {mean} against {file_mean}");
}

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_planetgraph")).args(args).output().expect("run");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).to_string())
}

/// CRC-32 (ISO 3309) of PNG chunks, for a header edited by the test.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for &b in bytes {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xedb8_8320 ^ (c >> 1) } else { c >> 1 };
        }
    }
    !c
}

#[test]
fn every_bad_file_is_refused_naming_the_node_and_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(d.join("notes.png"), "not an image").expect("write");
    png16(&d.join("cut.png"), 256, 128, |x, y| (x * y) as u16);
    let bytes = std::fs::read(d.join("cut.png")).expect("read");
    std::fs::write(d.join("cut.png"), &bytes[..bytes.len() / 2]).expect("write");
    // A header that claims 70 000 x 70 000 pixels (with a valid checksum): refused before any
    // pixel is decoded.
    png16(&d.join("huge.png"), 4, 4, |_, _| 0);
    let mut bytes = std::fs::read(d.join("huge.png")).expect("read");
    bytes[16..20].copy_from_slice(&70_000u32.to_be_bytes());
    bytes[20..24].copy_from_slice(&70_000u32.to_be_bytes());
    let crc = crc32(&bytes[12..29]);
    bytes[29..33].copy_from_slice(&crc.to_be_bytes());
    std::fs::write(d.join("huge.png"), &bytes).expect("write");
    std::fs::write(d.join("short.r16"), [0u8; 100]).expect("write");
    geotiff(&d.join("utm.tif"), 4, 4, 500_000.0, 5_000_000.0, 30.0, &[1, 1, 0, 2, 1024, 0, 1, 1, 3072, 0, 1, 32632], |_, _| 0.0);
    png16(&d.join("f_front.png"), 4, 4, |_, _| 0);
    let cases: [(&str, &str, &str, bool); 8] = [
        ("\"path\": Text(\"nothing.png\")", "nothing.png", "does not exist", true),
        ("\"path\": Text(\"notes.png\")", "notes.png", "is not a PNG, TIFF or EXR file", true),
        ("\"path\": Text(\"huge.png\")", "huge.png", "70000 x 70000 pixels, over the limit", true),
        ("\"path\": Text(\"short.r16\"), \"format\": Choice(\"raw16\"), \"raw_width\": Int(64), \"raw_height\": Int(32)", "short.r16", "holds 100 bytes", true),
        ("\"path\": Text(\"utm.tif\")", "utm.tif", "EPSG:32632", true),
        ("\"path\": Text(\"f_{face}.png\"), \"layout\": Choice(\"faces\")", "f_right.png", "does not exist", true),
        ("\"path\": Text(\"\")", "", "no file chosen", true),
        // Only decoding finds a file cut short: `build` refuses it, `check` cannot.
        ("\"path\": Text(\"cut.png\")", "cut.png", "not a valid PNG", false),
    ];
    for (k, (params, name, why, check_sees)) in cases.iter().enumerate() {
        let graph = d.join(format!("bad{k}.ron"));
        std::fs::write(&graph, graph_text(params)).expect("write");
        let g = graph.to_string_lossy().to_string();
        let out = d.join(format!("out{k}"));
        for (args, expected) in [(vec!["check", g.as_str()], *check_sees), (vec!["build", g.as_str(), "--resolution", "16", "--out", out.to_str().expect("utf-8")], true)] {
            let (code, err) = run(&args);
            if !expected {
                assert_eq!(code, 0, "{args:?}: {err}");
                continue;
            }
            assert_eq!(code, 2, "{args:?}: {err}");
            assert!(err.contains("Import raster #1") && err.contains(name) && err.contains(why), "{args:?}: {err}");
        }
    }
}

/// The paths a graph names stay those of the graph file's folder, wherever it is run from.
#[test]
fn paths_are_relative_to_the_graph_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("data")).expect("mkdir");
    png16(&dir.path().join("data/e.png"), 64, 32, |_, _| 1000);
    let graph: PathBuf = dir.path().join("g.ron");
    std::fs::write(&graph, graph_text("\"path\": Text(\"data/e.png\")")).expect("write");
    let (code, err) = run(&["check", graph.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{err}");
}

/// Shares built from different contents of an imported file are different builds: `merge`
/// refuses them, naming the graphs' difference (the file's hash is part of the build identity).
#[test]
fn shares_of_different_imported_files_do_not_merge() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let graph = d.join("g.ron");
    std::fs::write(&graph, graph_text("\"path\": Text(\"e.png\")")).expect("write");
    let g = graph.to_str().expect("utf-8");
    let share = |k: usize, value: u16| {
        png16(&d.join("e.png"), 64, 32, |_, _| value);
        // Another modification time too, so the stamp sees the edit.
        std::fs::File::options().write(true).open(d.join("e.png")).expect("open").set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(10 * k as u64)).expect("touch");
        let out = d.join(format!("s{k}"));
        let (code, err) = run(&["build", g, "--resolution", "16", "--out", out.to_str().expect("utf-8"), "--tiles", &format!("{k}/2")]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let (a, b) = (share(1, 1000), share(2, 2000));
    let merged = d.join("m");
    let (code, err) = run(&["merge", a.to_str().expect("utf-8"), b.to_str().expect("utf-8"), "--out", merged.to_str().expect("utf-8")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the graphs differ"), "{err}");
    // The same file for both shares: they merge.
    let c = share(1, 2000);
    let (code, err) = run(&["merge", c.to_str().expect("utf-8"), b.to_str().expect("utf-8"), "--out", merged.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{err}");
}
