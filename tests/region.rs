//! Region evaluation of whole graphs (issue 25, item 1): the default planet evaluated tile by
//! tile against the same planet evaluated whole.

use planetgraph_core::eval::{compile, Evaluator, Program, Progress, Request};
use planetgraph_core::graph::NodeId;
use planetgraph_core::nodes::output::planet::{ALBEDO, ELEVATION};
use planetgraph_core::nodes::NodeKind;
use planetgraph_core::planet::field::correlation;
use planetgraph_core::planet::{Grid, Tile};
use planetgraph_examples::default_graph;
use std::sync::atomic::AtomicBool;

#[path = "common/own_levels.rs"]
mod own_levels;

/// The Planet node's elevation and albedo (red channel) of one evaluation.
fn planet_inputs(res: &planetgraph_core::eval::EvalResult, planet: NodeId) -> (Vec<f32>, Vec<f32>) {
    assert!(res.errors.is_empty(), "{:?}", res.errors);
    let h = res.input(planet, ELEVATION).expect("elevation");
    let albedo = res.input(planet, ALBEDO).expect("albedo");
    (h.data().to_vec(), albedo.data.iter().map(|c| c[0]).collect())
}

/// Evaluates `program` tile by tile at level `n` (tiles of `size`) with whole-planet nodes at
/// `cap`, and lays the tiles' Planet inputs out as whole fields.
fn stitched(ev: &mut Evaluator, program: &Program, planet: NodeId, n: usize, size: usize, cap: usize) -> (Vec<f32>, Vec<f32>) {
    let cancel = AtomicBool::new(false);
    let (mut h, mut a) = (vec![f32::NAN; 6 * n * n], vec![f32::NAN; 6 * n * n]);
    for tile in Tile::cover(n, size).expect("tiles") {
        let res = ev.run(program, &Request::region(Grid::Tile(tile), cap), &cancel, &Progress::default());
        let (th, ta) = planet_inputs(&res, planet);
        assert_eq!(th.len(), tile.cells());
        for k in 0..tile.cells() {
            let c = tile.cell(k).index(n);
            h[c] = th[k];
            a[c] = ta[k];
        }
    }
    (h, a)
}

fn default_program() -> (Program, NodeId) {
    let g = default_graph().expect("default graph");
    let planet = g.first_of(NodeKind::Planet).expect("a Planet node").id;
    (compile(&g), planet)
}

/// Within the cap, tiles hold exactly the whole evaluation's values, whatever the node: the
/// default graph's plates, landscape evolution and climate are sampled at their own cells, its
/// colour nodes run on the tiles.
#[test]
fn tiles_within_the_cap_are_exactly_the_whole_planet() {
    let (program, planet) = default_program();
    let n = 32;
    let mut ev = Evaluator::new();
    let whole = ev.run(&program, &Request::whole(n), &AtomicBool::new(false), &Progress::default());
    let (wh, wa) = planet_inputs(&whole, planet);
    let (th, ta) = stitched(&mut ev, &program, planet, n, 16, 64);
    assert!(wh == th, "elevation differs");
    assert!(wa == ta, "albedo differs");
}

/// Above the cap, the tiles of a planet together are exactly the region evaluation of the whole
/// grid at that cap, so tile borders and face edges add nothing; and that evaluation stays close
/// to the uncapped one (the stated tolerance).
#[test]
fn tiles_above_the_cap_stitch_into_the_capped_planet_without_seams() {
    let (program, planet) = default_program();
    let (n, cap) = (64, 32);
    let cancel = AtomicBool::new(false);
    let mut ev = Evaluator::new();
    let capped = ev.run(&program, &Request::region(Grid::Whole(n), cap), &cancel, &Progress::default());
    let (ch, ca) = planet_inputs(&capped, planet);
    let (th, ta) = stitched(&mut ev, &program, planet, n, 16, cap);
    assert!(ch == th, "elevation differs between the tiles and the capped whole");
    assert!(ca == ta, "albedo differs between the tiles and the capped whole");
    let full = ev.run(&program, &Request::whole(n), &cancel, &Progress::default());
    let (fh, _) = planet_inputs(&full, planet);
    let r = correlation(&fh, &ch);
    let spread = (fh.iter().map(|v| f64::from(*v).powi(2)).sum::<f64>() / fh.len() as f64).sqrt();
    let mean_abs = fh.iter().zip(&ch).map(|(a, b)| f64::from((a - b).abs())).sum::<f64>() / fh.len() as f64;
    // The Planet node's elevation input is unitless (-1..1 around sea level).
    let relative = mean_abs / spread;
    eprintln!("capped at {cap} against whole at {n}: correlation {r:.4}, mean |difference| {relative:.3} of the rms elevation");
    assert!(r > 0.95 && relative < 0.15, "correlation {r}, relative difference {relative}");
}

/// Above the cap, Landscape evolution's rivers are lines from each river cell of its run to
/// the cell it drains into (`erosion::landscape::refine`), not the run's cells blown up: far
/// fewer cells, all next to the run's rivers.
#[test]
fn rivers_above_the_cap_are_thin_lines_along_the_run_s_rivers() {
    let g = default_graph().expect("default graph");
    let le = g.first_of(NodeKind::LandscapeEvolution).expect("landscape evolution").id;
    let program = planetgraph_core::eval::compile_for(&g, &[le]);
    let cancel = AtomicBool::new(false);
    let (n, cap) = (512, 128);
    let fine = Evaluator::new().run(&program, &Request::region(Grid::Whole(n), cap), &cancel, &Progress::default());
    assert!(fine.errors.is_empty(), "{:?}", fine.errors);
    use planetgraph_core::nodes::erosion::landscape::RIVERS;
    let refined = fine.port_value(le, RIVERS).expect("rivers").clone();
    let coarse = Evaluator::new().run(&program, &Request::whole(cap), &cancel, &Progress::default());
    // The run's river cells (1, else 0): the mask's values vary (large rivers are painted as
    // lines at least River lines wide), and the smooth sampling's lobes beside a strong river
    // would hide the cells next to it.
    let cells = coarse.port_value(le, RIVERS).expect("rivers at the cap").map(|v| if v > 0.0 { 1.0 } else { 0.0 });
    let rivers = &planetgraph_core::nodes::Value::Field(std::sync::Arc::new(cells));
    let sampled = planetgraph_core::eval::sample_on(rivers, Grid::Whole(n));
    let sampled = sampled.as_field().expect("field");
    // The run's river cells are where their indicator samples above 0; the lines are the
    // refined cells over one half.
    let share = |f: &[f32], above: f32| f.iter().filter(|&&v| v > above).count() as f64 / f.len() as f64;
    let (thin, blown) = (share(refined.data(), 0.5), share(sampled.data(), 0.0));
    eprintln!("refined cells over one half {thin:.4}, sampled river cells {blown:.4}");
    assert!(thin > 0.0 && thin < 0.6 * blown, "refined {thin} sampled {blown}");
    // The lines follow the run's rivers: almost every line cell lies where the run's rivers
    // sample above 0 (the rest at the ends of courses that reach a lake or the sea).
    let lines = refined.data().iter().filter(|&&r| r > 0.0).count();
    let off = refined.data().iter().zip(sampled.data()).filter(|(&r, &s)| r > 0.0 && s == 0.0).count();
    eprintln!("line cells {lines}, away from the run's rivers {off}");
    assert!((off as f64) < 0.03 * lines as f64, "{off} of {lines}");
}

/// Nodes that read their neighbours (Slope, Gradient) run on tiles with a halo, so a tiled
/// evaluation gives the whole planet's values at every cell, along face edges too. A chain of
/// them needs a halo of halos; only there, within two cells of a cube corner, where the halo's
/// corner square has no cells of its own, may the second node differ.
#[test]
fn neighbourhood_nodes_on_tiles_with_halos_give_the_whole_planet_s_values() {
    use planetgraph_core::nodes::{FIELD_IN, FIELD_OUT};
    let mut g = planetgraph_core::graph::Graph::default();
    let noise = g.add_node(NodeKind::Noise, (0.0, 0.0));
    let slope = g.add_node(NodeKind::Slope, (1.0, 0.0));
    let gradient = g.add_node(NodeKind::Gradient, (2.0, 0.0));
    let length = g.add_node(NodeKind::VectorLength, (3.0, 0.0));
    let planet = g.add_node(NodeKind::Planet, (3.0, 1.0));
    g.link(noise, FIELD_OUT, slope, FIELD_IN).expect("link");
    g.link(slope, FIELD_OUT, gradient, FIELD_IN).expect("link");
    g.link(gradient, planetgraph_core::nodes::modify::gradient::VECTOR, length, planetgraph_core::nodes::modify::vector_length::VECTOR).expect("link");
    g.link(noise, FIELD_OUT, planet, ELEVATION).expect("link");
    let program = planetgraph_core::eval::compile_for(&g, &[length]);
    let n = 32;
    let cancel = AtomicBool::new(false);
    let mut ev = Evaluator::new();
    let whole = ev.run(&program, &Request::whole(n), &cancel, &Progress::default());
    assert!(whole.errors.is_empty(), "{:?}", whole.errors);
    let (ws, wl) = (whole.output(slope, 0).and_then(|v| v.as_field()).expect("slope").clone(), whole.output(length, 0).and_then(|v| v.as_field()).expect("length").clone());
    assert!(ws.data().iter().any(|&v| v > 0.0), "the noise has slopes");
    let near_corner = |c: planetgraph_core::planet::Cell| c.i.min(n - 1 - c.i) < 2 && c.j.min(n - 1 - c.j) < 2;
    let (mut differ, mut far) = (0, 0);
    for tile in Tile::cover(n, 8).expect("tiles") {
        let res = ev.run(&program, &Request::region(Grid::Tile(tile), n), &cancel, &Progress::default());
        assert!(res.errors.is_empty(), "{:?}", res.errors);
        let (ts, tl) = (res.output(slope, 0).and_then(|v| v.as_field()).expect("slope"), res.output(length, 0).and_then(|v| v.as_field()).expect("length"));
        assert_eq!(ts.grid(), Grid::Tile(tile), "the result keeps only the tile's cells");
        for k in 0..tile.cells() {
            let cell = tile.cell(k);
            assert_eq!(ts.data()[k], ws.data()[cell.index(n)], "slope at {cell:?}");
            if tl.data()[k] != wl.data()[cell.index(n)] {
                differ += 1;
                far += usize::from(!near_corner(cell));
            }
        }
    }
    eprintln!("gradient of the slope: {differ} cells differ, {far} of them away from the cube corners");
    assert_eq!(far, 0);
}

/// Nodes that make their outputs at a level of their own (a Blur of a large radius, the
/// climate) run there in a region evaluation where they feed only the tiles, given their inputs
/// averaged down as they would average them, and the tiles sample them bilinearly as the nodes
/// would sample them up: within the cap a tile still holds exactly the whole evaluation's
/// values; above it they stay within a small tolerance of the uncapped evaluation. A Blur that
/// another whole-planet node reads runs at the level of the rest.
#[test]
fn nodes_with_a_level_of_their_own_run_there_and_tiles_still_match() {
    use planetgraph_core::eval::{localities, whole_levels, whole_part};
    use planetgraph_core::nodes::climate::precipitation::{PRECIPITATION, WIND};
    use planetgraph_core::nodes::{ParamValue, FIELD_IN, FIELD_OUT};
    let (mut g, noise, blur, rain) = own_levels::noise_blur_rain();
    let inner = g.add_node(NodeKind::Blur, (1.0, 2.0));
    let coast = g.add_node(NodeKind::CoastDistance, (2.0, 2.0));
    g.set_param(inner, "radius", ParamValue::Float(6.0));
    g.link(noise, FIELD_OUT, inner, FIELD_IN).expect("link");
    g.link(inner, FIELD_OUT, coast, FIELD_IN).expect("link");
    let program = planetgraph_core::eval::compile_for(&g, &[blur, rain, coast]);
    let whole = whole_part(&program, &localities(&program));
    // 6 degrees: 4.3 cells of standard deviation at 64, 2.1 at 32.
    let levels = whole_levels(&whole, 256, 256);
    assert_eq!((levels[&noise], levels[&blur], levels[&rain], levels[&inner], levels[&coast]), (256, 32, 128, 256, 256));
    assert_eq!(whole_levels(&whole, 1024, 256)[&blur], 32, "above the cap too");
    assert_eq!(whole_levels(&whole, 16, 256)[&blur], 16, "never finer than the region");
    // A level of its own only where it is coarser: none for a Blur of radius 0.
    let mut still = NodeKind::Blur.default_params();
    still.insert("radius".into(), ParamValue::Float(0.0));
    assert_eq!((NodeKind::Blur.own_level(&still, 1024), NodeKind::Blur.own_level(&g.node(blur).expect("blur").params, 1024)), (None, Some(32)));
    assert_eq!(NodeKind::Precipitation.own_level(&NodeKind::Precipitation.default_params(), 128), None);

    let cancel = AtomicBool::new(false);
    let mut ev = Evaluator::new();
    let field = |res: &planetgraph_core::eval::EvalResult, id: NodeId, port: usize| res.output(id, port).and_then(|v| v.as_field()).expect("field").data().to_vec();
    let wind = |res: &planetgraph_core::eval::EvalResult| match res.output(rain, WIND.index()) {
        Some(planetgraph_core::nodes::Value::Vector(v)) => v.data.clone(),
        _ => panic!("no wind"),
    };
    // Within the cap: exactly the whole evaluation, tile by tile.
    let n = 256;
    let full = ev.run(&program, &Request::whole(n), &cancel, &Progress::default());
    assert!(full.errors.is_empty(), "{:?}", full.errors);
    let reference = [field(&full, blur, 0), field(&full, rain, PRECIPITATION.index()), field(&full, coast, 0)];
    let full_wind = wind(&full);
    for tile in Tile::cover(n, 64).expect("tiles") {
        let res = ev.run(&program, &Request::region(Grid::Tile(tile), n), &cancel, &Progress::default());
        assert!(res.errors.is_empty(), "{:?}", res.errors);
        let got = [field(&res, blur, 0), field(&res, rain, PRECIPITATION.index()), field(&res, coast, 0)];
        let got_wind = wind(&res);
        for k in 0..tile.cells() {
            let c = tile.cell(k).index(n);
            for (r, t) in reference.iter().zip(&got) {
                assert_eq!(t[k], r[c], "at {:?}", tile.cell(k));
            }
            assert_eq!(got_wind[k], full_wind[c], "wind at {:?}", tile.cell(k));
        }
    }
    // Above the cap: the blur and the rain from the noise at the cap, averaged down, against
    // the whole evaluation from the noise at 512. The blur differs by a hair everywhere; the
    // rain's coastline (where the noise crosses 0) moves by a cell here and there, which
    // changes the rain of those cells a lot, so its figure is the mean difference.
    let (n, cap) = (512, 256);
    let capped = ev.run(&program, &Request::region(Grid::Whole(n), cap), &cancel, &Progress::default());
    let full = ev.run(&program, &Request::whole(n), &cancel, &Progress::default());
    for (id, port, worst_at_most, mean_at_most) in [(blur, 0, 0.001, 0.001), (rain, PRECIPITATION.index(), 2.0, 0.001)] {
        let (a, b) = (field(&full, id, port), field(&capped, id, port));
        let rms = (a.iter().map(|v| f64::from(*v).powi(2)).sum::<f64>() / a.len() as f64).sqrt();
        let worst = a.iter().zip(&b).map(|(x, y)| f64::from((x - y).abs())).fold(0.0, f64::max) / rms;
        let mean = a.iter().zip(&b).map(|(x, y)| f64::from((x - y).abs())).sum::<f64>() / a.len() as f64 / rms;
        eprintln!("node {id} capped at {cap} against whole at {n}: largest difference {worst:.5}, mean {mean:.5} of the rms value");
        assert!(worst < worst_at_most && mean < mean_at_most, "node {id}: largest {worst}, mean {mean}");
    }
}

/// Above the cap, Warp, Curvature, Terrace and Normalize refine on the tile from their inputs
/// there (issue 25):
/// Warp reads its input, evaluated at the tile's level where its points move to, so over
/// cellwise nodes a tile holds exactly the whole evaluation's warp at its level (by noise, and
/// by a Gradient's vectors made on the tile); Curvature takes the tile's own relief less the
/// capped run's surroundings, and Terrace and Normalize map the tile's own input by the run's
/// input range, so they follow the uncapped evaluation closer than the capped run sampled
/// (Normalize's remaining difference is the run's range: the tile's detail is exact). Tiles
/// together are the region evaluation of the whole grid, so their borders add no seam.
#[test]
fn warp_curvature_terrace_and_normalize_above_the_cap_refine_on_the_tile() {
    use planetgraph_core::nodes::masks::curvature::CURVATURE;
    use planetgraph_core::nodes::modify::warp::{INPUT, VECTOR};
    use planetgraph_core::nodes::{ParamValue, FIELD_IN, FIELD_OUT};
    let mut g = planetgraph_core::graph::Graph::default();
    let noise = g.add_node(NodeKind::Noise, (0.0, 0.0));
    let hills = g.add_node(NodeKind::Noise, (0.0, 1.0));
    let warp = g.add_node(NodeKind::Warp, (1.0, 0.0));
    let gradient = g.add_node(NodeKind::Gradient, (1.0, 1.0));
    let along = g.add_node(NodeKind::Warp, (2.0, 1.0));
    let curvature = g.add_node(NodeKind::Curvature, (1.0, 2.0));
    let terrace = g.add_node(NodeKind::Terrace, (1.0, 3.0));
    let normalize = g.add_node(NodeKind::Normalize, (1.0, 4.0));
    g.set_param(terrace, "smoothness", ParamValue::Float(0.0));
    g.link(noise, FIELD_OUT, terrace, FIELD_IN).expect("link");
    g.link(noise, FIELD_OUT, normalize, FIELD_IN).expect("link");
    for (id, octaves, frequency) in [(noise, 8, 6.0), (hills, 6, 3.0)] {
        g.set_param(id, "octaves", ParamValue::Int(octaves));
        g.set_param(id, "frequency", ParamValue::Float(frequency));
    }
    g.set_param(along, "by", ParamValue::Choice("vector".into()));
    g.set_param(along, "distance_km", ParamValue::Float(3000.0));
    g.set_param(curvature, "radius_deg", ParamValue::Float(3.0));
    g.link(noise, FIELD_OUT, warp, INPUT).expect("link");
    g.link(hills, FIELD_OUT, gradient, FIELD_IN).expect("link");
    g.link(noise, FIELD_OUT, along, INPUT).expect("link");
    g.link(gradient, planetgraph_core::nodes::modify::gradient::VECTOR, along, VECTOR).expect("link");
    g.link(noise, FIELD_OUT, curvature, FIELD_IN).expect("link");
    let program = planetgraph_core::eval::compile_for(&g, &[warp, along, curvature, terrace, normalize]);
    let (n, cap, size) = (256, 64, 64);
    let cancel = AtomicBool::new(false);
    let mut ev = Evaluator::new();
    let field = |res: &planetgraph_core::eval::EvalResult, id: NodeId, port: usize| res.output(id, port).and_then(|v| v.as_field()).unwrap_or_else(|| panic!("node {id} port {port}: {:?}", res.errors)).data().to_vec();
    let full = ev.run(&program, &Request::whole(n), &cancel, &Progress::default());
    let region = ev.run(&program, &Request::region(Grid::Whole(n), cap), &cancel, &Progress::default());
    let capped = ev.run(&program, &Request::whole(cap), &cancel, &Progress::default());
    for res in [&full, &region, &capped] {
        assert!(res.errors.is_empty(), "{:?}", res.errors);
    }
    let refined = [(curvature, CURVATURE.index()), (terrace, 0), (normalize, 0)];
    let (whole_warp, whole_along) = (field(&full, warp, 0), field(&full, along, 0));
    let mut tiled = vec![vec![f32::NAN; 6 * n * n]; refined.len()];
    for tile in Tile::cover(n, size).expect("tiles") {
        let res = ev.run(&program, &Request::region(Grid::Tile(tile), cap), &cancel, &Progress::default());
        assert!(res.errors.is_empty(), "{:?}", res.errors);
        let (w, a) = (field(&res, warp, 0), field(&res, along, 0));
        let r: Vec<Vec<f32>> = refined.iter().map(|&(id, port)| field(&res, id, port)).collect();
        for k in 0..tile.cells() {
            let cell = tile.cell(k).index(n);
            assert_eq!(w[k], whole_warp[cell], "warp by noise at {:?}", tile.cell(k));
            assert_eq!(a[k], whole_along[cell], "warp by vector at {:?}", tile.cell(k));
            for (t, v) in tiled.iter_mut().zip(&r) {
                t[cell] = v[k];
            }
        }
    }
    // A warp that tears the ground apart (20000 km at 40 features a planet) scatters a tile's
    // points over the planet: its input is evaluated on thousands of blocks of 8 cells, and the
    // tile still holds the whole evaluation's values.
    let torn = g.add_node(NodeKind::Warp, (2.0, 3.0));
    g.set_param(torn, "distance_km", ParamValue::Float(20000.0));
    g.set_param(torn, "frequency", ParamValue::Float(40.0));
    g.link(noise, FIELD_OUT, torn, INPUT).expect("link");
    let tearing = planetgraph_core::eval::compile_for(&g, &[torn]);
    let whole_torn = field(&ev.run(&tearing, &Request::whole(n), &cancel, &Progress::default()), torn, 0);
    for tile in [Tile::new(planetgraph_core::planet::Face::Front, n, 96, 96, 64).expect("tile"), Tile::new(planetgraph_core::planet::Face::Top, n, 0, 192, 64).expect("tile")] {
        let got = field(&ev.run(&tearing, &Request::region(Grid::Tile(tile), cap), &cancel, &Progress::default()), torn, 0);
        for (k, v) in got.iter().enumerate() {
            assert_eq!(*v, whole_torn[tile.cell(k).index(n)], "torn warp at {:?}", tile.cell(k));
        }
    }

    let rms = |a: &[f32], b: &[f32]| (a.iter().zip(b).map(|(x, y)| f64::from(x - y).powi(2)).sum::<f64>() / a.len() as f64).sqrt();
    for (&(id, port), tiles) in refined.iter().zip(&tiled) {
        let whole = field(&full, id, port);
        assert_eq!(tiles, &field(&region, id, port), "node {id}: the tiles are the region evaluation of the whole grid");
        // The capped run's output sampled onto the level, as before the refinement.
        let sampled = planetgraph_core::eval::sample_on(capped.output(id, port).expect("output"), Grid::Whole(n));
        let sampled = sampled.as_field().expect("field").data().to_vec();
        let size_of = rms(&whole, &vec![0.0; whole.len()]);
        let (err_refined, err_sampled) = (rms(tiles, &whole), rms(&sampled, &whole));
        let (c_refined, c_sampled) = (correlation(tiles, &whole), correlation(&sampled, &whole));
        eprintln!("node {id} at {n} (rms {size_of:.4}): refined from a run at {cap} differs by rms {err_refined:.4} (correlation {c_refined:.4}), the run sampled by {err_sampled:.4} ({c_sampled:.4})");
        assert!(err_refined < 0.6 * err_sampled && c_refined > c_sampled && c_refined > 0.99, "node {id}: refined {err_refined} ({c_refined}), sampled {err_sampled} ({c_sampled})");
    }
}
