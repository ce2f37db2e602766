use super::*;
use crate::nodes::{NodeKind, OpContext, ParamSpec, ParamValue, PortType};
use crate::planet::{Face, RegionSurface, Tile};

/// Inputs with detail everywhere (no two neighbouring cells alike), whole at level `n`.
fn whole_inputs(k: NodeKind, n: usize) -> Vec<Option<Value>> {
    let regions = Arc::new(RegionSurface::new(3, 0.5, 1));
    k.meta()
        .inputs
        .iter()
        .enumerate()
        // An Export takes a field or a colour, not both.
        .map(|(p, port)| {
            if k == NodeKind::Export && port.ty == PortType::Colour {
                return None;
            }
            let wave = move |d: glam::Vec3| (7.0 * d.x + 3.0 * p as f32).sin() * (5.0 * d.y).cos() + 0.4 * d.z;
            Some(match port.ty {
                // Wide enough to reach sea, snow and every biome of the defaults.
                PortType::Field => Field::from_fn_dir(n, move |d| 3000.0 * wave(d)).into(),
                PortType::Colour => ColourField::from_fn(n, |c| [(c % 7) as f32 / 7.0, 0.3, (c % 3) as f32 / 3.0]).into(),
                PortType::Vector => VectorField { n, tile: None, data: (0..6 * n * n).map(|c| [c as f32 % 5.0, 1.0, -0.5]).collect() }.into(),
                PortType::Regions => Value::Regions(regions.clone()),
                PortType::Plates => {
                    let cancel = AtomicBool::new(false);
                    let ctx = OpContext { n, tile: None, cancel: &cancel, steps: None, planet: None, files: &[] };
                    let kind = NodeKind::TectonicPlates;
                    let plates = kind.run(&kind.default_params(), &[Some(Value::Regions(regions.clone()))], &ctx).expect("plates");
                    plates.into_iter().next().expect("the plates")
                }
            })
        })
        .collect()
}

/// Every kind at its defaults and with each option of each of its choices in turn.
fn variants(k: NodeKind) -> Vec<crate::nodes::ParamMap> {
    let mut out = vec![k.default_params()];
    for p in k.params() {
        if let ParamSpec::Choice { options, .. } = p.spec {
            for o in options {
                let mut v = k.default_params();
                v.insert(p.name.to_string(), ParamValue::Choice(o.id.to_string()));
                out.push(v);
            }
        }
    }
    out
}

/// What the issue asks of region evaluation for local nodes: a node that declares itself
/// cellwise gives, on a tile, exactly the values the whole planet has at those cells; a node
/// that declares a halo does the same given its inputs on the tile with that halo. Tiles on a
/// polar face and an equatorial one, away from and along face edges, and at cube corners.
#[test]
fn every_cellwise_and_halo_node_gives_on_a_tile_exactly_the_whole_planet_s_values() {
    let cancel = AtomicBool::new(false);
    let n = 24;
    let tiles = [Tile::new(Face::Top, n, 0, 5, 7).expect("tile"), Tile::new(Face::Left, n, 17, 17, 7).expect("tile"), Tile::new(Face::Front, n, 3, 9, 12).expect("tile"), Tile::new(Face::Bottom, n, 0, 0, 5).expect("tile")];
    let (mut cellwise, mut halo) = (BTreeSet::new(), BTreeSet::new());
    for &k in NodeKind::ALL {
        let inputs = whole_inputs(k, n);
        let connected: Vec<bool> = inputs.iter().map(Option::is_some).collect();
        for params in variants(k) {
            let reach = match k.locality(&params, &connected) {
                Locality::Cellwise => 0,
                Locality::Halo(h) => h,
                Locality::Whole => continue,
            };
            if reach == 0 {
                cellwise.insert(k);
            } else {
                halo.insert(k);
            }
            let planet = k.meta().reads_planet.then_some(&crate::nodes::output::planet::EARTH);
            let files: Vec<std::path::PathBuf> = k.meta().reads_files.then(crate::raster::test_globe).into_iter().collect();
            let ctx = OpContext { n, tile: None, cancel: &cancel, steps: None, planet, files: &files };
            let whole = k.run(&params, &inputs, &ctx);
            for tile in tiles {
                let grid = Grid::Tile(tile);
                let on_tile: Vec<Option<Value>> = inputs.iter().map(|v| v.as_ref().map(|v| sample_on(v, Grid::Tile(tile.with_halo(reach))))).collect();
                let ctx = OpContext { n, tile: Some(tile), cancel: &cancel, steps: None, planet, files: &files };
                let out = k.run(&params, &on_tile, &ctx);
                // Settings a node refuses (an Export's mesh format for a colour) are refused on
                // tiles alike.
                let (out, whole) = match (out, &whole) {
                    (Ok(out), Ok(whole)) => (out, whole),
                    (Err(a), Err(b)) if a == *b => continue,
                    (out, whole) => panic!("{k:?} with {params:?} on {tile:?}: {:?} against the whole planet's {:?}", out.err(), whole.as_ref().err()),
                };
                assert_eq!(out.len(), whole.len());
                for (port, (got, want)) in out.iter().zip(whole).enumerate() {
                    assert_eq!(got.grid(), Some(grid), "{k:?} output {port} lies on the tile");
                    let want = sample_on(want, grid);
                    let same = match (got, &want) {
                        (Value::Field(a), Value::Field(b)) => a.data() == b.data(),
                        (Value::Colour(a), Value::Colour(b)) => a.data == b.data,
                        (Value::Vector(a), Value::Vector(b)) => a.data == b.data,
                        _ => false,
                    };
                    assert!(same, "{k:?} with {params:?}: output {port} on {tile:?} differs from the whole planet's");
                }
            }
        }
    }
    // The kinds the README lists as cellwise (a kind that stops being one fails here).
    let expected = [
        "Constant",
        "Noise",
        "FaultPlanet",
        "Latitude",
        "Island",
        "ImportRaster",
        "Add",
        "Subtract",
        "Multiply",
        "Divide",
        "Min",
        "Max",
        "Blend",
        "Power",
        "Expression",
        "ScaleBias",
        "Abs",
        "Invert",
        "Clamp",
        "Curve",
        "Detail",
        "VectorLength",
        "ToMetres",
        "HeightBand",
        "Falloff",
        "Wetness",
        "Temperature",
        "ColourRamp",
        "BlendColours",
        "Biomes",
        "Materials",
        "Vegetation",
        "Preview",
        "ColourPreview",
        "Planet",
        "Export",
        "SplatMap",
    ];
    let got: Vec<String> = cellwise.iter().map(|k| format!("{k:?}")).collect();
    assert_eq!(got.len(), expected.len(), "cellwise kinds: {got:?}");
    assert!(expected.iter().all(|e| got.contains(&e.to_string())), "cellwise kinds: {got:?}");
    // And those it lists as running on a tile with a halo.
    let mut got: Vec<String> = halo.iter().map(|k| format!("{k:?}")).collect();
    got.sort();
    assert_eq!(got, ["ErosionFilter", "Gradient", "Slope"], "halo kinds");
}

/// Sampling a whole value onto a tile of a finer level is continuous across the face edge the
/// tile touches, and exact at the value's own level.
#[test]
fn sampling_onto_tiles_is_exact_at_the_same_level_and_smooth_above_it() {
    let smooth = |d: glam::Vec3| (2.0 * d.x).sin() + d.y * d.z;
    let coarse: Value = Field::from_fn_dir(16, smooth).into();
    let same = Tile::new(Face::Right, 16, 0, 0, 16).expect("tile");
    let Value::Field(f) = sample_on(&coarse, Grid::Tile(same)) else { panic!("a field") };
    let Value::Field(whole) = &coarse else { panic!("a field") };
    for k in 0..same.cells() {
        assert_eq!(f.data()[k], whole.data()[same.cell(k).index(16)]);
    }
    // Level 64 from 16: close to the function everywhere on the tile, edge cells included.
    let fine = Tile::new(Face::Right, 64, 0, 0, 64).expect("tile");
    let Value::Field(f) = sample_on(&coarse, Grid::Tile(fine)) else { panic!("a field") };
    let worst = (0..fine.cells()).map(|k| (f.data()[k] - smooth(Grid::Tile(fine).direction(k))).abs()).fold(0.0f32, f32::max);
    assert!(worst < 0.03, "largest error of the sampled field: {worst}");
}
