//! The Warp node: the domain warp of Gaea and World Machine on the sphere. Every cell takes
//! the input's value from a point moved along the surface by a vector field or by fBm noise;
//! sampling goes by direction, so it crosses face seams like any other point.

use crate::nodes::prelude::*;
use crate::planet::blocks::Blocks;
use crate::planet::coords::dir_to_face_ab;
use crate::planet::fbm::{fbm_field, noise_radius, FastFbm};
use crate::planet::Cell;
use glam::Vec3;
use rayon::prelude::*;

crate::choices! {
    /// What moves the sampling points of the Warp node.
    pub enum WarpBy {
        /// Three fBm noises, one per axis, made tangent to the sphere.
        Noise = ("noise", "Noise"),
        /// The 'vector' input, made tangent to the sphere.
        Vector = ("vector", "Vector input"),
    }
}

crate::settings! {
    /// Settings of the Warp node.
    pub struct WarpSettings, keys WarpKeys {
        /// What moves the sampling points.
        by: WarpBy = WarpBy::Noise.param("Warp by", "Noise: fBm noise moves the points (swirls and folds). Vector input: the 'vector' input does, for example a Gradient (points move uphill) or the Precipitation node's wind."),
        /// Displacement for a noise value or vector length of 1, km.
        distance_km: f32 = float("Distance", 300.0, 0.0, 20000.0, Unit::Kilometre, 1.0, "How far a point moves, along the surface, for a noise value of 1 (the noise lies in about -1..1) or a vector of length 1. Independent of resolution."),
        /// Noise features per planet.
        frequency: f32 = float("Frequency", 6.0, 0.1, 512.0, Unit::Named("/planet"), 0.05, "Features of the warping noise per planet (about how many fit around the equator)."),
        /// Octaves of the warping noise.
        octaves: usize = int("Octaves", 4, 1, 12, "Octaves of the warping noise: more add finer wiggles."),
        /// Random seed.
        seed: u32 = seed(1),
    }
}

/// The Warp node.
pub struct Warp;

crate::ports! {
    const INPUTS: In = [
        /// The field warped.
        INPUT: Field = FIELD_IN.def(),
        /// Optional displacement vectors (Warp by vector).
        VECTOR: VectorField = PortDef::optional("vector", PortType::Vector),
    ];
}

impl Node for Warp {
    type Settings = WarpSettings;
    const META: NodeMeta =
        NodeMeta::new("Warp", Category::Modify, "Domain warp: each cell takes the input's value from a point moved along the surface by fBm noise or by the 'vector' input (tangent part), a distance in km; seamless.", INPUTS, OUT_AS_INPUT, file!())
            .reading_planet()
            .costing(25);

    /// Warp by vector needs its vectors, checked before any run (so `check` refuses what a
    /// build would).
    fn check(s: &WarpSettings, connected: &[bool]) -> Result<(), String> {
        if s.by == WarpBy::Vector && !connected.get(VECTOR.index()).copied().unwrap_or(false) {
            return Err("Warp by vector needs the 'vector' input connected".into());
        }
        Ok(())
    }

    fn shows(s: &WarpSettings, key: &str) -> bool {
        let k = WarpSettings::KEYS;
        if key == k.frequency || key == k.octaves || key == k.seed {
            s.by == WarpBy::Noise
        } else {
            true
        }
    }

    fn run(s: &WarpSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        ctx.check()?;
        let input = inputs.port(INPUT)?;
        let grid = input.grid();
        let points = moved_points(s, grid, inputs.port_opt(VECTOR)?.map(|v| v.as_ref()), ctx.planet()?)?;
        ctx.check()?;
        Ok(vec![Field::from_fn_cell_on(grid, |k| input.sample_dir(points[k])).into()])
    }

    /// On a tile finer than the whole-planet run, each cell reads the input where its point
    /// moves to, at the tile's level, as the whole evaluation at that level does: the moved
    /// points are made on the tile (the noise, or the 'vector' input on the tile), and the input
    /// is evaluated, one block after another, on the blocks of the face grids that hold the
    /// cells those points read ([`Blocks`]: half the tile's edge, halved down to 8 cells while
    /// they would hold more than [`MAX_READ`] times the tile's cells, where a strong warp
    /// scatters the points). So a close-up of a warped field has the detail of its level
    /// instead of the run's, over nodes that run on tiles it holds exactly the whole
    /// evaluation's values at that level, and only one block's input is held at a time.
    fn refine(s: &WarpSettings, r: &Refine) -> Result<Vec<Option<Value>>, OpError> {
        if !r.wanted.first().copied().unwrap_or(false) {
            return Ok(Vec::new());
        }
        let grid = r.grid;
        let n = grid.n();
        let vector = match s.by {
            WarpBy::Vector => Some((r.input_on)(VECTOR.index(), grid)?),
            WarpBy::Noise => None,
        };
        let planet = r.planet.ok_or_else(|| OpError::Invalid("internal error: Warp refines without the planet's settings".to_string()))?;
        let points = moved_points(s, grid, vector.as_ref().and_then(Value::as_vector).map(|v| v.as_ref()), planet)?;
        // The four cells each point's sample reads, and its fractions between them.
        let reads: Vec<([Cell; 4], f32, f32)> = points
            .par_iter()
            .map(|&d| {
                let (face, a, b) = dir_to_face_ab(d);
                Field::bilinear_cells_ab(n, face, a, b)
            })
            .collect();
        drop(points);
        let cells = || reads.iter().flat_map(|(c, _, _)| c.iter().copied());
        // Which of the reads (point * 4 + tap) each block serves, in blocks made smaller while
        // they would hold too many cells.
        let budget = MAX_READ * grid.cells().max(64 * 64);
        let mut blocks = Blocks::new(n, (grid.row() / 2).next_power_of_two().clamp(8, 256));
        let mut served = blocks.group(cells());
        while served.len() * blocks.size * blocks.size > budget && blocks.size > 8 {
            blocks = Blocks::new(n, blocks.size / 2);
            served = blocks.group(cells());
        }
        let mut values = vec![0f32; 4 * reads.len()];
        for (key, taps) in served {
            let tile = blocks.tile(key);
            let input = (r.input_on)(INPUT.index(), Grid::Tile(tile))?;
            let field = input.as_field().ok_or_else(|| OpError::Invalid("internal error: Warp's input on a tile is not a field".to_string()))?;
            for t in taps {
                let t = t as usize;
                let k = tile.index_of(reads[t / 4].0[t % 4]).ok_or_else(|| OpError::Invalid("internal error: Warp read a cell outside its block".to_string()))?;
                values[t] = field.data()[k];
            }
        }
        let out = Field::from_fn_cell_on(grid, |k| {
            let (_, tx, ty) = reads[k];
            Field::bilinear_mix([values[4 * k], values[4 * k + 1], values[4 * k + 2], values[4 * k + 3]], tx, ty)
        });
        Ok(vec![Some(out.into())])
    }

    fn refines_from(_s: &WarpSettings) -> RefineFrom {
        RefineFrom::TileInputs
    }
}

/// The most cells, as a multiple of the tile's (at least 64 x 64), that Warp's refinement
/// evaluates its input on before it makes its blocks smaller (down to 8 cells a side).
pub const MAX_READ: usize = 16;

/// Where each cell of `grid` reads the input: its centre moved along the sphere by the noise
/// or by `vector` (on `grid`), `s.distance_km` for a length of 1 on a planet of `planet`'s
/// radius.
fn moved_points(s: &WarpSettings, grid: Grid, vector: Option<&VectorField>, planet: &crate::nodes::output::planet::PlanetSettings) -> Result<Vec<Vec3>, OpError> {
    let scale = s.distance_km / planet.radius_km.max(1e-3);
    let cells = 0..grid.cells();
    Ok(match s.by {
        WarpBy::Noise => {
            let r = noise_radius(s.frequency);
            let octaves = s.octaves.clamp(1, 12);
            let axis = |k: u32| fbm_field(&FastFbm::new(s.seed.wrapping_mul(3).wrapping_add(k), octaves, 0.5, 2.0), grid, r, 1.0);
            let (x, y, z) = (axis(0), axis(1), axis(2));
            cells.into_par_iter().map(|c| moved(grid.direction(c), Vec3::new(x.data()[c], y.data()[c], z.data()[c]), scale)).collect()
        }
        WarpBy::Vector => {
            let v = vector.ok_or_else(|| OpError::Invalid("Warp by vector needs the 'vector' input connected".into()))?;
            if v.data.len() != grid.cells() {
                return Err(OpError::Invalid(format!("internal error: Warp's vectors ({} values) do not lie on its input's grid ({grid})", v.data.len())));
            }
            cells.into_par_iter().map(|c| moved(grid.direction(c), Vec3::from_array(v.data[c]), scale)).collect()
        }
    })
}

/// The point `d` moved along the sphere by the tangent part of `v` times `scale` (in radians
/// for a unit vector).
#[inline]
fn moved(d: Vec3, v: Vec3, scale: f32) -> Vec3 {
    let t = (v - d * d.dot(v)) * scale;
    let len = t.length();
    if len < 1e-9 || !len.is_finite() {
        return d;
    }
    // Along the great circle through d in the direction of t, by the angle len.
    d * len.cos() + t / len * len.sin()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::NodeKind;
    use crate::planet::VectorField;
    use std::sync::Arc;

    fn defaults() -> WarpSettings {
        WarpSettings::from_params(&NodeKind::Warp.default_params()).expect("the declared defaults")
    }

    fn run(s: &WarpSettings, inputs: Vec<Option<Value>>) -> Result<Field, OpError> {
        run_on(s, inputs, &crate::nodes::output::planet::EARTH)
    }

    fn run_on(s: &WarpSettings, inputs: Vec<Option<Value>>, planet: &crate::nodes::output::planet::PlanetSettings) -> Result<Field, OpError> {
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let n = inputs[0].as_ref().and_then(|v| v.as_field()).map_or(8, |f| f.n());
        let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: Some(planet), files: &[] };
        Ok(Warp::run(s, &Inputs(&inputs), &ctx)?[0].as_field().expect("field").as_ref().clone())
    }

    /// A smooth bump around `centre` (1 there, 0 from 0.4 rad away).
    fn bump(n: usize, centre: Vec3) -> Field {
        Field::from_fn_dir(n, |d| (1.0 - d.dot(centre).clamp(-1.0, 1.0).acos() / 0.4).max(0.0))
    }

    #[test]
    fn a_vector_field_moves_a_bump_the_same_mid_face_across_an_edge_and_on_a_corner() {
        let n = 64;
        let s = WarpSettings { by: WarpBy::Vector, distance_km: 0.2 * 6371.0, ..defaults() };
        for centre in [Vec3::new(0.1, 0.1, 1.0).normalize(), Vec3::new(1.0, 0.1, 1.0).normalize(), Vec3::ONE.normalize()] {
            // Every point samples 0.2 rad towards the north pole: the bump moves 0.2 rad south.
            let north = |d: Vec3| (Vec3::Y - d * d.y).normalize_or_zero();
            let towards_north = VectorField { n, tile: None, data: (0..6 * n * n).map(|c| north(crate::planet::Cell::from_index(c, n).direction(n)).to_array()).collect() };
            let out = run(&s, vec![Some(bump(n, centre).into()), Some(Value::Vector(Arc::new(towards_north)))]).expect("runs");
            let east = Vec3::Y.cross(centre).normalize();
            let south = east.cross(centre).normalize();
            let moved = (centre * 0.2f32.cos() + south * 0.2f32.sin()).normalize();
            assert!((out.sample_dir(moved) - 1.0).abs() < 0.06, "{centre}: {} at the moved centre", out.sample_dir(moved));
            assert!(out.sample_dir(centre) < 0.6, "{centre}: {} at the old centre", out.sample_dir(centre));
            assert!(out.data().iter().all(|v| v.is_finite()));
        }
    }

    #[test]
    fn noise_warp_is_seamless_resolution_independent_and_deterministic() {
        let s = defaults();
        let input = |n| Field::from_fn_dir(n, |d| (d.x * 5.0).sin() + (d.y * 4.0).cos() * (d.z * 3.0).sin());
        let fine = run(&s, vec![Some(input(256).into()), None]).expect("runs");
        let coarse = run(&s, vec![Some(input(64).into()), None]).expect("runs");
        let corr = crate::planet::field::correlation(coarse.data(), fine.resample(64).data());
        assert!(corr > 0.97, "{corr}");
        // Seamless: no jump across the cube edges larger than inside the faces.
        let (inside, across) = crate::planet::pipes::neighbour_steps(&fine);
        let max = |v: &[f32]| v.iter().copied().fold(0.0, f32::max);
        let (inner, seam) = (max(&inside), max(&across));
        assert!(seam <= inner * 1.2, "largest step across a seam {seam}, inside faces {inner}");
        let go = |t| rayon::ThreadPoolBuilder::new().num_threads(t).build().expect("pool").install(|| run(&s, vec![Some(input(48).into()), None]).expect("runs"));
        assert_eq!(go(1).data(), go(2).data());
    }

    #[test]
    fn no_nan_at_the_ends_of_the_parameters_and_a_missing_vector_is_named() {
        let input = Field::from_fn_dir(16, |d| d.x);
        for (distance_km, frequency, octaves) in [(0.0, 0.1, 1), (20000.0, 512.0, 12), (20000.0, 0.1, 12)] {
            for radius_km in [100.0, 100000.0] {
                let s = WarpSettings { distance_km, frequency, octaves, ..defaults() };
                let planet = crate::nodes::output::planet::PlanetSettings { radius_km, ..crate::nodes::output::planet::EARTH };
                let out = run_on(&s, vec![Some(input.clone().into()), None], &planet).expect("runs");
                assert!(out.data().iter().all(|v| v.is_finite()), "{s:?}");
            }
        }
        let err = run(&WarpSettings { by: WarpBy::Vector, ..defaults() }, vec![Some(input.into()), None]).expect_err("no vector");
        assert!(err.to_string().contains("'vector'"), "{err}");
    }
}
