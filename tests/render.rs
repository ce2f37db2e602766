//! The renderer: every shader validates with naga; an offscreen render shows a planet disc
//! (runs on lavapipe where there is no GPU; fails where no adapter exists, unless
//! `PLANETGRAPH_SKIP_GPU=1`: see `common/needs.rs`).

#[path = "common/needs.rs"]
mod needs;

use planetgraph_core::planet::Field;
use planetgraph_renderer::{headless_device, render_offscreen, ColourMode, Layers, MeshOptions, OverlayTexture, ViewSettings, SHADER_SOURCE};

#[test]
fn every_shader_validates_with_naga() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut count = 0;
    for e in std::fs::read_dir(dir).expect("shaders folder") {
        let path = e.expect("entry").path();
        if path.extension().is_some_and(|x| x == "wgsl") {
            let src = std::fs::read_to_string(&path).expect("read");
            let module = naga::front::wgsl::parse_str(&src).unwrap_or_else(|e| panic!("{}: {}", path.display(), e.emit_to_string(&src)));
            naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all()).validate(&module).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
            count += 1;
        }
    }
    assert!(count >= 1);
    let file = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders/planet.wgsl")).expect("planet.wgsl");
    assert_eq!(SHADER_SOURCE, file, "the renderer embeds shaders/planet.wgsl");
}

#[test]
fn offscreen_render_shows_a_planet_disc() {
    if needs::skip_without_adapter("offscreen_render_shows_a_planet_disc") {
        return;
    }
    let field = Field::from_fn_dir(32, |d| if d.x > 0.2 { 2000.0 } else { -3000.0 });
    let (w, h, px) = render_offscreen(&field, 6371.0, Layers::default(), &MeshOptions { resolution: 32, ..Default::default() }, &ViewSettings::default(), 96, 96).expect("render");
    assert_eq!((w, h, px.len()), (96, 96, 96 * 96 * 4));
    let at = |x: usize, y: usize| {
        let o = (y * 96 + x) * 4;
        [px[o], px[o + 1], px[o + 2]]
    };
    let background = at(1, 1);
    let centre = at(48, 48);
    assert!(background.iter().all(|&c| c < 40), "dark space around the planet: {background:?}");
    assert!(centre.iter().any(|&c| c > 50), "the planet in the middle: {centre:?}");
    // The disc is round: the four edge midpoints just inside the disc are lit, the corners not.
    let lit = |p: [u8; 3]| p.iter().any(|&c| c > 50);
    let inside = [(48, 24), (48, 72), (24, 48), (72, 48)].iter().filter(|&&(x, y)| lit(at(x, y))).count();
    assert!(inside >= 3, "disc covers the middle region");
    assert!(![(2, 2), (93, 2), (2, 93), (93, 93)].iter().any(|&(x, y)| lit(at(x, y))), "corners are space");
    // Both land (green/brown) and sea (blue) are visible.
    let mut blue = 0;
    let mut land = 0;
    for y in 0..96 {
        for x in 0..96 {
            let p = at(x, y);
            if p[2] > p[0] + 20 && p[2] > 40 {
                blue += 1;
            } else if p[1] > 40 && p[1] >= p[2] {
                land += 1;
            }
        }
    }
    assert!(blue > 100 && land > 100, "blue {blue}, land {land}");
}

#[test]
fn plates_mode_shows_many_plate_colours_with_borders_and_arrows() {
    if needs::skip_without_adapter("plates_mode_shows_many_plate_colours_with_borders_and_arrows") {
        return;
    }
    use planetgraph_core::eval::{Evaluator, Progress};
    use planetgraph_core::inspect::{motion_arrows, tectonic_values, OverlayColours};
    use planetgraph_core::nodes::NodeKind;
    let g = planetgraph_examples::default_graph().expect("default graph");
    let res = Evaluator::new().evaluate(&g, 48, &std::sync::atomic::AtomicBool::new(false), &Progress::default());
    let t = tectonic_values(&g, &res);
    assert!(t.regions.is_some() && t.plates.is_some() && t.motion.is_some());
    let planet = g.first_of(NodeKind::Planet).expect("planet").id;
    let field = res.field(planet).expect("planet field");
    let size = 128;
    let render = |mode, borders, arrows| {
        let view = ViewSettings { mode, borders, arrows, ..Default::default() };
        let mesh = MeshOptions { resolution: 48, ..Default::default() };
        // What the viewport and `planetgraph render` hand the renderer: plain images and lines.
        let colours = if mode == ColourMode::Plates { OverlayColours::Plates } else { OverlayColours::Regions };
        let overlay = (mode.uses_overlay() || borders).then(|| t.overlay(colours, borders)).flatten();
        let texture = overlay.as_ref().map(|o| OverlayTexture::new(o.size, &o.rgba).expect("six square layers"));
        let lines = if arrows { motion_arrows(t.motion.as_ref().expect("motion"), field, 6371.0, mesh.exaggeration, mesh.ocean_surface, 600) } else { Vec::new() };
        render_offscreen(field, 6371.0, Layers { overlay: texture, normals: None, arrows: &lines, patches: &[] }, &mesh, &view, size, size).expect("render").2
    };
    let distinct = |px: &[u8]| px.chunks(4).map(|p| [p[0] / 16, p[1] / 16, p[2] / 16]).collect::<std::collections::HashSet<_>>().len();
    let plates = render(ColourMode::Plates, false, false);
    let elevation = render(ColourMode::Elevation, false, false);
    assert_ne!(plates, elevation);
    assert!(distinct(&plates) > 20, "many plate colours: {}", distinct(&plates));
    // Borders darken pixels, arrows add bright yellow ones.
    let with_borders = render(ColourMode::Plates, true, false);
    let luminance = |px: &[u8]| px.chunks(4).map(|p| p[0] as u64 + p[1] as u64 + p[2] as u64).sum::<u64>();
    assert!(luminance(&with_borders) < luminance(&plates));
    let with_arrows = render(ColourMode::Elevation, false, true);
    let yellow = |px: &[u8]| px.chunks(4).filter(|p| p[0] > 230 && p[1] > 215 && p[2] < 200).count();
    assert!(yellow(&with_arrows) > yellow(&elevation) + 50, "arrows drawn");
}

/// A planet with fine colour detail: fBm heights and the same noise through a colour ramp as
/// its albedo.
fn detailed_planet(n: usize) -> (planetgraph_core::planet::Field, planetgraph_core::planet::ColourField) {
    use planetgraph_core::eval::{Evaluator, Progress};
    use planetgraph_core::graph::Graph;
    use planetgraph_core::nodes::{NodeKind, ParamValue};
    let mut g = Graph::default();
    let noise = g.add_node(NodeKind::Noise, (0.0, 0.0));
    g.set_param(noise, "frequency", ParamValue::Float(60.0));
    g.set_param(noise, "octaves", ParamValue::Int(9));
    let ramp = g.add_node(NodeKind::ColourRamp, (0.0, 0.0));
    g.set_param(ramp, "min", ParamValue::Float(-0.5));
    g.set_param(ramp, "max", ParamValue::Float(0.5));
    let planet = g.add_node(NodeKind::Planet, (0.0, 0.0));
    g.link(noise, planetgraph_core::nodes::FIELD_OUT, planet, planetgraph_core::nodes::output::planet::ELEVATION).expect("link");
    g.link(noise, planetgraph_core::nodes::FIELD_OUT, ramp, planetgraph_core::nodes::FIELD_IN).expect("link");
    g.link(ramp, planetgraph_core::nodes::texture::colour_ramp::COLOUR, planet, planetgraph_core::nodes::output::planet::ALBEDO).expect("link");
    let r = Evaluator::new().evaluate(&g, n, &std::sync::atomic::AtomicBool::new(false), &Progress::default());
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    let field = (**r.field(planet).expect("elevation")).clone();
    let albedo = (**r.input(planet, planetgraph_core::nodes::output::planet::ALBEDO).expect("albedo")).clone();
    (field, albedo)
}

/// Mean absolute difference of horizontally adjacent pixels: how much detail a picture shows.
fn detail(px: &[u8], w: usize) -> f64 {
    let mut sum = 0u64;
    let mut count = 0u64;
    for row in px.chunks(4 * w) {
        for x in 1..w {
            let (a, b) = (&row[4 * (x - 1)..4 * x], &row[4 * x..4 * x + 4]);
            sum += (0..3).map(|k| (a[k] as i64 - b[k] as i64).unsigned_abs()).sum::<u64>();
            count += 1;
        }
    }
    sum as f64 / count as f64
}

#[test]
fn the_albedo_shows_per_pixel_detail_beyond_the_mesh_and_differs_from_the_height_tint() {
    use planetgraph_core::inspect::albedo_image;
    use planetgraph_core::planet::{ColourField, Field};
    use planetgraph_renderer::OrbitCamera;
    if needs::skip_without_adapter("the_albedo_shows_per_pixel_detail_beyond_the_mesh_and_differs_from_the_height_tint") {
        return;
    }
    let (field, albedo) = detailed_planet(512);
    // What vertex shading on a 32 mesh can show: the albedo at 32 cells per face edge.
    let coarse = {
        let ch: Vec<Field> = (0..3).map(|k| Field::from_vec(512, albedo.data.iter().map(|c| c[k]).collect()).expect("colours").resample(32)).collect();
        ColourField { n: 32, tile: None, data: (0..6 * 32 * 32).map(|c| [ch[0].data()[c], ch[1].data()[c], ch[2].data()[c]]).collect() }
    };
    let mesh = MeshOptions { resolution: 32, refine: false, ..Default::default() };
    let close = ViewSettings { camera: OrbitCamera { distance: 1.4, ..Default::default() }, ..Default::default() };
    let size = 160;
    let draw = |a: Option<&ColourField>, view: &ViewSettings| {
        let img = a.map(albedo_image);
        let tex = img.as_ref().map(|i| OverlayTexture::new(i.size, &i.rgba).expect("six layers"));
        render_offscreen(&field, 6371.0, Layers { overlay: tex, ..Default::default() }, &mesh, view, size, size).expect("render").2
    };
    let fine = draw(Some(&albedo), &close);
    let vertex_like = draw(Some(&coarse), &close);
    let (d_fine, d_coarse) = (detail(&fine, size as usize), detail(&vertex_like, size as usize));
    eprintln!("close-up detail: albedo texture of a 512 evaluation {d_fine:.2}, at the mesh's 32 {d_coarse:.2}");
    assert!(d_fine > 1.5 * d_coarse, "{d_fine} vs {d_coarse}");
    // The albedo mode is not the height tint.
    let tint = draw(None, &ViewSettings { mode: ColourMode::Elevation, ..close });
    assert_ne!(fine, tint);
    // Relief: a plain grey planet lit by the 512 field's normals shows far more than the same
    // lit by the 32 mesh's vertex normals.
    let grey = albedo_image(&ColourField::filled(512, [0.5, 0.5, 0.5]));
    let normals = planetgraph_core::inspect::normal_image(&field, 6371.0, mesh.exaggeration, mesh.ocean_surface);
    let grazing = ViewSettings { sun_azimuth_deg: 110.0, sun_elevation_deg: 10.0, atmosphere: false, ..close };
    let lit = |with_normals: bool| {
        let layers = Layers { overlay: Some(OverlayTexture::new(grey.size, &grey.rgba).expect("six layers")), normals: with_normals.then(|| OverlayTexture::new(normals.size, &normals.rgba).expect("six layers")), arrows: &[], patches: &[] };
        render_offscreen(&field, 6371.0, layers, &mesh, &grazing, size, size).expect("render").2
    };
    let (per_pixel, per_vertex) = (detail(&lit(true), size as usize), detail(&lit(false), size as usize));
    eprintln!("close-up light detail: normal map of a 512 evaluation {per_pixel:.2}, vertex normals of the 32 mesh {per_vertex:.2}");
    assert!(per_pixel > 1.5 * per_vertex, "{per_pixel} vs {per_vertex}");
    // Geometry: with the mesh refined near the camera, the close-up's relief (vertex normals
    // only) shows more than on the uniform 32 mesh.
    let geometry = |refine: bool| {
        let layers = Layers { overlay: Some(OverlayTexture::new(grey.size, &grey.rgba).expect("six layers")), ..Default::default() };
        render_offscreen(&field, 6371.0, layers, &MeshOptions { refine, ..mesh }, &grazing, size, size).expect("render").2
    };
    let (refined, uniform) = (detail(&geometry(true), size as usize), detail(&geometry(false), size as usize));
    eprintln!("close-up geometry detail: refined mesh {refined:.2}, uniform 32 mesh {uniform:.2}");
    assert!(refined > 1.5 * uniform, "{refined} vs {uniform}");
}

/// Sums of the red, green and blue values of a square picture `size` pixels wide over its
/// middle third of rows, columns `x0..x1`.
fn channel_sums(px: &[u8], size: u32, x0: u32, x1: u32) -> [u64; 3] {
    let mut sum = [0u64; 3];
    for y in size / 3..2 * size / 3 {
        for x in x0..x1 {
            let o = ((y * size + x) * 4) as usize;
            for (c, s) in sum.iter_mut().enumerate() {
                *s += u64::from(px[o + c]);
            }
        }
    }
    sum
}

#[test]
fn shallow_sea_is_lighter_than_deep_sea_and_the_sun_control_moves_the_day_side() {
    use planetgraph_core::inspect::albedo_image;
    use planetgraph_core::planet::ColourField;
    if needs::skip_without_adapter("shallow_sea_is_lighter_than_deep_sea_and_the_sun_control_moves_the_day_side") {
        return;
    }
    // Sea everywhere: 20 m deep where x > 0, 5000 m where x < 0, over a light sandy floor.
    let n = 32;
    let field = Field::from_fn_dir(n, |d| if d.x > 0.0 { -20.0 } else { -5000.0 });
    let floor = albedo_image(&ColourField::filled(n, [0.6, 0.55, 0.4]));
    let mesh = MeshOptions { resolution: 32, ..Default::default() };
    let size = 96u32;
    let draw = |view: &ViewSettings| {
        let tex = OverlayTexture::new(floor.size, &floor.rgba).expect("six layers");
        render_offscreen(&field, 6371.0, Layers { overlay: Some(tex), ..Default::default() }, &mesh, view, size, size).expect("render").2
    };
    // Looking at +Z from the equator with the sun behind the camera: +X is on the right.
    let camera = planetgraph_renderer::OrbitCamera { yaw: 0.0, pitch: 0.0, ..Default::default() };
    let front_lit = ViewSettings { camera, sun_azimuth_deg: 0.0, sun_elevation_deg: 0.0, atmosphere: false, ..Default::default() };
    let px = draw(&front_lit);
    let luminance = |px: &[u8], x0: u32, x1: u32| channel_sums(px, size, x0, x1).iter().sum::<u64>();
    let (left, right) = (luminance(&px, size / 4, size / 2 - 4), luminance(&px, size / 2 + 4, 3 * size / 4));
    assert!(right > left + left / 4, "shallow (right, {right}) is lighter than deep (left, {left})");
    // The sun from -X lights the left half more than the sun from +X does.
    let from = |az: f32| draw(&ViewSettings { camera, sun_azimuth_deg: az, sun_elevation_deg: 0.0, atmosphere: false, ..Default::default() });
    let (west, east) = (from(-80.0), from(80.0));
    assert!(luminance(&west, size / 4, size / 2 - 4) > luminance(&east, size / 4, size / 2 - 4));
    assert!(luminance(&east, size / 2 + 4, 3 * size / 4) > luminance(&west, size / 2 + 4, 3 * size / 4));
}

/// A mesh built for 20x drawn with a quarter of its relief (`relief_ratio`, scaled in the
/// shaders: heights and the slopes of its normal map) looks like a mesh built for 5x, and
/// unlike the same mesh drawn whole.
#[test]
fn a_share_of_the_relief_drawn_matches_a_mesh_built_for_it() {
    use planetgraph_core::inspect::{albedo_image, normal_image};
    use planetgraph_core::planet::ColourField;
    use planetgraph_renderer::OrbitCamera;
    if needs::skip_without_adapter("a_share_of_the_relief_drawn_matches_a_mesh_built_for_it") {
        return;
    }
    let (field, _) = detailed_planet(256);
    let grey = albedo_image(&ColourField::filled(256, [0.5, 0.5, 0.5]));
    let camera = OrbitCamera { distance: 1.15, tilt: 0.9, ..Default::default() };
    let size = 160u32;
    let draw = |exaggeration: f32, relief_ratio: f32| {
        let mesh = MeshOptions { resolution: 64, exaggeration, ocean_surface: false, ..Default::default() };
        let normals = normal_image(&field, 6371.0, exaggeration, false);
        let layers = Layers { overlay: Some(OverlayTexture::new(grey.size, &grey.rgba).expect("six layers")), normals: Some(OverlayTexture::new(normals.size, &normals.rgba).expect("six layers")), ..Default::default() };
        let view = ViewSettings { camera, sun_azimuth_deg: 110.0, sun_elevation_deg: 15.0, atmosphere: false, relief_ratio, ..Default::default() };
        render_offscreen(&field, 6371.0, layers, &mesh, &view, size, size).expect("render").2
    };
    let diff = |a: &[u8], b: &[u8]| a.iter().zip(b).map(|(x, y)| (*x as f64 - *y as f64).abs()).sum::<f64>() / a.len() as f64;
    let (quarter, five, whole) = (draw(20.0, 0.25), draw(5.0, 1.0), draw(20.0, 1.0));
    let (same, other) = (diff(&quarter, &five), diff(&whole, &five));
    eprintln!("a quarter of 20x against 5x: {same:.3} grey levels; 20x whole against 5x: {other:.3}");
    assert!(same < 1.0 && other > 5.0 * same, "{same} {other}");
}

/// Sea water takes red light within a few metres and blue over tens: sand under 3 m of water
/// is turquoise (green and blue above red), the same sand on a beach 2 m above the sea is not.
#[test]
fn sand_under_shallow_water_is_turquoise_and_on_the_beach_sand_coloured() {
    use planetgraph_core::inspect::albedo_image;
    use planetgraph_core::planet::ColourField;
    if needs::skip_without_adapter("sand_under_shallow_water_is_turquoise_and_on_the_beach_sand_coloured") {
        return;
    }
    // 3 m of water where x > 0 (the right half), a beach 2 m high where x < 0, all sand.
    let n = 32;
    let field = Field::from_fn_dir(n, |d| if d.x > 0.0 { -3.0 } else { 2.0 });
    let sand = albedo_image(&ColourField::filled(n, [0.86, 0.8, 0.62]));
    let mesh = MeshOptions { resolution: 32, ..Default::default() };
    let size = 96u32;
    let tex = OverlayTexture::new(sand.size, &sand.rgba).expect("six layers");
    let camera = planetgraph_renderer::OrbitCamera { yaw: 0.0, pitch: 0.0, ..Default::default() };
    let view = ViewSettings { camera, sun_azimuth_deg: 0.0, sun_elevation_deg: 30.0, atmosphere: false, ..Default::default() };
    let px = render_offscreen(&field, 6371.0, Layers { overlay: Some(tex), ..Default::default() }, &mesh, &view, size, size).expect("render").2;
    let mean = |x0: u32, x1: u32| channel_sums(&px, size, x0, x1).map(|c| c as f64);
    let (beach, shallows) = (mean(size / 4, size / 2 - 4), mean(size / 2 + 4, 3 * size / 4));
    eprintln!("beach {beach:?}, shallows {shallows:?}");
    assert!(beach[0] > beach[2] * 1.1, "the beach is sand-coloured: {beach:?}");
    assert!(shallows[1] > shallows[0] * 1.3 && shallows[2] > shallows[0], "the shallows are turquoise: {shallows:?}");
}

#[test]
fn the_texture_inspection_modes_show_their_layers() {
    use planetgraph_core::eval::{Evaluator, Progress};
    use planetgraph_core::inspect::{albedo_image, precipitation_image, slope_image, temperature_image, texture_values};
    use planetgraph_core::nodes::NodeKind;
    if needs::skip_without_adapter("the_texture_inspection_modes_show_their_layers") {
        return;
    }
    let g = planetgraph_examples::default_graph().expect("default graph");
    let res = Evaluator::new().evaluate(&g, 32, &std::sync::atomic::AtomicBool::new(false), &Progress::default());
    let t = texture_values(&g, &res);
    let field = res.field(g.first_of(NodeKind::Planet).expect("planet").id).expect("planet field");
    let images =
        [slope_image(t.slope.as_deref().expect("slope")), albedo_image(t.biome.as_deref().expect("biomes")), temperature_image(t.temperature.as_deref().expect("temperature")), precipitation_image(t.precipitation.as_deref().expect("precipitation"))];
    let mesh = MeshOptions { resolution: 32, ..Default::default() };
    let modes = [ColourMode::Slope, ColourMode::Biome, ColourMode::Temperature, ColourMode::Precipitation];
    let mut pictures: Vec<Vec<u8>> = modes
        .iter()
        .zip(&images)
        .map(|(&mode, img)| {
            let layers = Layers { overlay: Some(OverlayTexture::new(img.size, &img.rgba).expect("six layers")), ..Default::default() };
            render_offscreen(field, 6371.0, layers, &mesh, &ViewSettings { mode, ..Default::default() }, 64, 64).expect("render").2
        })
        .collect();
    pictures.push(render_offscreen(field, 6371.0, Layers::default(), &mesh, &ViewSettings { mode: ColourMode::Elevation, ..Default::default() }, 64, 64).expect("render").2);
    for a in 0..pictures.len() {
        for b in a + 1..pictures.len() {
            assert_ne!(pictures[a], pictures[b], "modes {a} and {b} look the same");
        }
    }
}

/// A tile's relief grows in instead of popping: a mesh built with a new detail patch (a
/// plateau 8 km high over the face in view) and the relief before it, drawn at the start of
/// the morph, looks like the planet without the patch; at its end, like the patch's relief.
#[test]
fn a_landing_tile_s_relief_morphs_in_from_the_relief_before() {
    use planetgraph_core::planet::{Face, Tile};
    use planetgraph_renderer::{view_mesh, DetailPatch, PlanetRenderer};
    if needs::skip_without_adapter("a_landing_tile_s_relief_morphs_in_from_the_relief_before") {
        return;
    }
    let (device, queue) = headless_device().expect("graphics device");
    let field = Field::filled(64, 500.0);
    let view = ViewSettings::default();
    let face = Face::from_normal(view.camera.eye());
    let plateau = vec![8000.0; 128 * 128];
    let patches = [DetailPatch::on_tile(Tile { face, n: 128, i0: 0, j0: 0, size: 128, halo: 0 }, &plateau, None, None)];
    let opts = MeshOptions { resolution: 32, ..Default::default() };
    let picture = |patches: &[DetailPatch], previous: Option<&[DetailPatch]>, morph: f32| {
        let mut r = PlanetRenderer::new(&device);
        r.set_mesh(&device, &view_mesh(&field, 6371.0, &opts, &view, patches, previous));
        r.set_relief_morph(morph);
        r.render(&device, &queue, 96, 96, &view);
        r.read_pixels(&device, &queue).expect("pixels").2
    };
    let differ = |a: &[u8], b: &[u8]| a.iter().zip(b).filter(|(x, y)| x.abs_diff(**y) > 8).count();
    let before = picture(&[], None, 1.0);
    let after = picture(&patches, None, 1.0);
    let start = picture(&patches, Some(&[]), 0.0);
    let end = picture(&patches, Some(&[]), 1.0);
    let popped = differ(&before, &after);
    eprintln!("pixels changed by the plateau: {popped}; at the start of the morph: {}", differ(&start, &before));
    assert!(popped > 200, "the plateau changes the picture: {popped}");
    assert!(differ(&start, &before) * 5 < popped, "the morph starts at the relief before: {} of {popped}", differ(&start, &before));
    assert_eq!(end, after, "and ends at the new relief");
}

/// `planetgraph render --mode slope|biome|temperature|precipitation` on the default graph
/// draws that layer: each picture differs from the height tint's and from the others (the
/// build used to free the outputs these modes read, and drew the height tint for all).
#[test]
fn the_render_command_s_inspection_modes_show_their_layers() {
    if needs::skip_without_adapter("the_render_command_s_inspection_modes_show_their_layers") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let graph = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("graphs/default.ron");
    let picture = |mode: &str| {
        let out = dir.path().join(format!("{mode}.png"));
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_planetgraph"))
            .args(["render".as_ref(), graph.as_os_str(), "--out".as_ref(), out.as_os_str(), "--resolution".as_ref(), "32".as_ref(), "--width".as_ref(), "96".as_ref(), "--height".as_ref(), "96".as_ref(), "--mode".as_ref(), mode.as_ref()])
            .output()
            .expect("run planetgraph");
        assert!(o.status.success(), "{mode}: {}", String::from_utf8_lossy(&o.stderr));
        image::open(&out).expect("png").to_rgba8().into_raw()
    };
    let modes = ["elevation", "slope", "biome", "temperature", "precipitation"];
    let pictures: Vec<Vec<u8>> = modes.iter().map(|m| picture(m)).collect();
    for a in 0..pictures.len() {
        for b in a + 1..pictures.len() {
            assert_ne!(pictures[a], pictures[b], "render --mode {} and --mode {} draw the same picture", modes[a], modes[b]);
        }
    }
}

#[test]
fn the_atmosphere_glows_above_the_horizon_and_space_stays_dark() {
    if needs::skip_without_adapter("the_atmosphere_glows_above_the_horizon_and_space_stays_dark") {
        return;
    }
    let field = Field::from_fn_dir(32, |_| 100.0);
    let size = 128;
    let shot = |atmosphere: bool| {
        let view = ViewSettings { atmosphere, ..Default::default() };
        let (_, _, px) = render_offscreen(&field, 6371.0, Layers::default(), &MeshOptions { resolution: 32, ..Default::default() }, &view, size, size).expect("render");
        px
    };
    let (with, without) = (shot(true), shot(false));
    let at = |px: &[u8], x: usize, y: usize| {
        let o = (y * size as usize + x) * 4;
        [px[o], px[o + 1], px[o + 2]]
    };
    // Along the middle row, the first pixel of space beyond the disc without the atmosphere.
    let mid = size as usize / 2;
    let edge = (mid..size as usize).find(|&x| at(&without, x, mid).iter().all(|&c| c < 40)).expect("space beyond the disc");
    let (glow, dark) = (at(&with, edge, mid), at(&without, edge, mid));
    assert!(glow[2] > dark[2] + 10 && glow[2] > glow[0], "a blue glow just above the horizon: {glow:?} against {dark:?}");
    for (x, y) in [(1, 1), (size as usize - 2, 1), (1, size as usize - 2)] {
        assert!(at(&with, x, y).iter().all(|&c| c < 40), "space far from the planet stays dark: {:?}", at(&with, x, y));
    }
}

/// Where a finer leaf meets a coarser one, with the leaf's underlay (its ancestor at the
/// coarser level) under it, the leaf blends into the underlay: the colour runs on across the
/// border from the coarser leaf and changes gradually. Without the underlay the finer leaf
/// keeps its own colour up to the border (a straight edge). Red coarse leaf and underlay, blue
/// finer leaves: the sharp red-to-blue steps along that border go with the underlay.
#[test]
fn a_finer_leaf_blends_into_its_underlay_without_an_edge() {
    use planetgraph_core::planet::{Face, Tile};
    use planetgraph_renderer::{view_mesh, DetailPatch, PlanetRenderer};
    if needs::skip_without_adapter("a_finer_leaf_blends_into_its_underlay_without_an_edge") {
        return;
    }
    let (device, queue) = headless_device().expect("graphics device");
    let field = Field::filled(64, 500.0);
    let view = ViewSettings::default();
    let face = Face::from_normal(view.camera.eye());
    let tile = |n: usize, i: usize, j: usize| Tile { face, n, i0: i, j0: j, size: 64, halo: 0 };
    let elevation = vec![500.0; 64 * 64];
    let colour = |rgb: [u8; 3]| -> Vec<u8> { (0..64 * 64).flat_map(|_| [rgb[0], rgb[1], rgb[2], 0]).collect() };
    let (red, blue) = (colour([220, 30, 30]), colour([30, 30, 220]));
    let up: Vec<u8> = (0..64 * 64).flat_map(|_| [128, 128, 255, 255]).collect();
    // Level 128 (half a face per tile): the coarse leaf on the left half of the face's upper
    // half, its neighbour's four children at 256 on the right half, and that neighbour itself.
    let coarse = tile(128, 0, 0);
    let under = tile(128, 64, 0);
    let fine = [tile(256, 128, 0), tile(256, 192, 0), tile(256, 128, 64), tile(256, 192, 64)];
    let patches = |with_under: bool| {
        let mut p = vec![DetailPatch::on_tile(coarse, &elevation, Some(&red), Some(&up))];
        if with_under {
            p.push(DetailPatch::on_tile(under, &elevation, Some(&red), Some(&up)));
        }
        p.extend(fine.iter().map(|&t| DetailPatch::on_tile(t, &elevation, Some(&blue), Some(&up))));
        DetailPatch::layered(p)
    };
    let grey: Vec<u8> = (0..6 * 4 * 4).flat_map(|_| [128, 128, 128, 0]).collect();
    let opts = MeshOptions { resolution: 32, ..Default::default() };
    let size = 256u32;
    let picture = |patches: &[DetailPatch]| {
        let mut r = PlanetRenderer::new(&device);
        r.set_mesh(&device, &view_mesh(&field, 6371.0, &opts, &view, patches, None));
        r.set_overlay(&device, &queue, Some(OverlayTexture::new(4, &grey).expect("overlay")));
        r.set_patches(&device, &queue, patches);
        r.render(&device, &queue, size, size, &view);
        r.read_pixels(&device, &queue).expect("pixels").2
    };
    // Steps from red to blue (or back) between neighbouring pixels: from clearly red (blue
    // minus red below -90) to clearly blue (above 90), not to or from the grey planet.
    let sharp = |px: &[u8]| {
        let w = size as usize;
        let tone = |x: usize, y: usize| i32::from(px[(y * w + x) * 4 + 2]) - i32::from(px[(y * w + x) * 4]);
        let step = |a: i32, b: i32| a.min(b) < -90 && a.max(b) > 90;
        (0..w - 1).flat_map(|y| (0..w - 1).map(move |x| (x, y))).filter(|&(x, y)| step(tone(x + 1, y), tone(x, y)) || step(tone(x, y + 1), tone(x, y))).count()
    };
    let (blended, softened) = (sharp(&picture(&patches(true))), sharp(&picture(&patches(false))));
    eprintln!("sharp red-blue steps: {blended} with the underlay, {softened} without");
    assert!(softened >= 20, "without an underlay the border is an edge: {softened}");
    assert!(blended * 4 <= softened, "with the underlay it is gone: {blended} against {softened}");
}
