//! The Warp node: the domain warp of Gaea and World Machine on the sphere. Every cell takes
//! the input's value from a point moved along the surface by a vector field or by fBm noise;
//! sampling goes by direction, so it crosses face seams like any other point.

use crate::nodes::prelude::*;
use crate::planet::fbm::{fbm_field, noise_radius, FastFbm};
use glam::Vec3;

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
            .reading_planet();

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
        let n = input.n();
        let scale = s.distance_km / ctx.planet()?.radius_km.max(1e-3);
        let out = match s.by {
            WarpBy::Noise => {
                let r = noise_radius(s.frequency);
                let octaves = s.octaves.clamp(1, 12);
                let axis = |k: u32| fbm_field(&FastFbm::new(s.seed.wrapping_mul(3).wrapping_add(k), octaves, 0.5, 2.0), crate::planet::Grid::Whole(n), r, 1.0);
                let (x, y, z) = (axis(0), axis(1), axis(2));
                ctx.check()?;
                Field::from_fn_index(n, |c, d| input.sample_dir(moved(d, Vec3::new(x.data()[c], y.data()[c], z.data()[c]), scale)))
            }
            WarpBy::Vector => {
                let v = inputs.port_opt(VECTOR)?.ok_or_else(|| OpError::Invalid("Warp by vector needs the 'vector' input connected".into()))?;
                Field::from_fn_index(n, |c, d| input.sample_dir(moved(d, Vec3::from_array(v.data[c]), scale)))
            }
        };
        Ok(vec![out.into()])
    }
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
        let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: Some(planet) };
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
