//! The Hillgrow node (seed 003): hills grown around random control points. Every point gets a
//! random height and a random width; each cell sums the Gaussians of all points by
//! great-circle distance, and the sum is smoothed by a blur in degrees of arc. Seed 003 draws
//! a new width at every evaluation of the Gaussian, which roughens the result until the box
//! filters smooth it; Roughness does the same, with the widths jittered per cell.

use crate::nodes::prelude::*;
use crate::planet::diffusion::blur;
use crate::planet::rng::mix64;
use crate::planet::Rng;
use glam::Vec3;

crate::settings! {
    /// Settings of the Hillgrow node.
    pub struct HillgrowSettings, keys HillgrowKeys {
        /// Number of hills.
        hills: usize = int("Hills", 60, 1, 2000, "Number of control points (hills) placed at random over the planet."),
        /// Lowest hill height.
        height_min: f32 = float("Lowest height", 0.2, -10.0, 10.0, Unit::None, 0.01, "Each hill's height is drawn between this and the highest height (output units; negative heights dig basins)."),
        /// Highest hill height.
        height_max: f32 = float("Highest height", 1.0, -10.0, 10.0, Unit::None, 0.01, "Each hill's height is drawn between the lowest height and this."),
        /// Narrowest hill, degrees of arc.
        width_min_deg: f32 = float("Narrowest", 3.0, 0.05, 90.0, Unit::Degree, 0.05, "Each hill's width (the Gaussian's standard deviation, as an arc on the planet: 1 deg is 111 km on Earth) is drawn between this and the widest width."),
        /// Widest hill, degrees of arc.
        width_max_deg: f32 = float("Widest", 12.0, 0.05, 90.0, Unit::Degree, 0.05, "Each hill's width is drawn between the narrowest width and this."),
        /// Per-cell jitter of the widths (random sigma per evaluation).
        roughness: f32 = float("Roughness", 0.3, 0.0, 1.0, Unit::None, 0.01, "A new width drawn every time a hill's Gaussian is evaluated roughens the surface until it is smoothed: 0 keeps each hill's width, 1 lets it vary from 0 to twice its value from cell to cell."),
        /// Blur after growing, degrees of arc.
        smoothing_deg: f32 = float("Smoothing", 0.7, 0.0, 20.0, Unit::Degree, 0.01, "Standard deviation of the blur that smooths the grown hills, degrees of arc; 0 turns it off."),
        /// Random seed.
        seed: u32 = seed(1),
    }
}

/// The Hillgrow node.
pub struct Hillgrow;

impl Node for Hillgrow {
    type Settings = HillgrowSettings;
    const META: NodeMeta =
        NodeMeta::new("Hillgrow", Category::Sources, "Random control points with random heights and widths (degrees of arc), the sum of their Gaussians by great-circle distance, roughened and then smoothed.", &[], OUT, file!()).costing(40);

    fn run(s: &HillgrowSettings, _: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        ctx.check()?;
        let grown = grow_hills(&hills(s), s, ctx.n);
        ctx.check()?;
        let out = if s.smoothing_deg > 0.0 { blur(&grown, s.smoothing_deg, ctx.cancel)? } else { grown };
        Ok(vec![out.into()])
    }
}

/// A control point: where (unit vector), how high (output units) and how wide (the
/// Gaussian's standard deviation, radians).
struct Hill {
    at: Vec3,
    height: f32,
    width_rad: f32,
}

fn hills(s: &HillgrowSettings) -> Vec<Hill> {
    let mut rng = Rng::new(s.seed, 0x4849_4c4c);
    let (h0, h1) = (s.height_min.min(s.height_max), s.height_min.max(s.height_max));
    let (w0, w1) = (s.width_min_deg.min(s.width_max_deg), s.width_min_deg.max(s.width_max_deg));
    (0..s.hills.max(1)).map(|_| Hill { at: rng.unit_vector(), height: rng.range(h0, h1), width_rad: rng.range(w0, w1).to_radians().max(1e-4) }).collect()
}

/// A value in [-1, 1) from a cell's position and a hill's index (the per-cell width jitter).
/// The position is rounded to a grid of about a hundredth of a degree, so a cell's jitter does
/// not depend on the rounding of its direction.
fn jitter(d: Vec3, k: usize) -> f32 {
    let q = |x: f32| (x * 8192.0).round() as i32 as u32 as u64;
    let h = mix64(q(d.x) ^ q(d.y).rotate_left(21) ^ q(d.z).rotate_left(42) ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (h >> 40) as f32 / (1u64 << 23) as f32 - 1.0
}

/// The unsmoothed sum of the Gaussians of `hills` at resolution `n`.
fn grow_hills(hills: &[Hill], s: &HillgrowSettings, n: usize) -> Field {
    let rough = s.roughness.clamp(0.0, 1.0);
    // Hills are skipped beyond 4.5 of their widest sigma (the Gaussian is below 4e-5 there).
    let reach: Vec<f32> = hills.iter().map(|h| (4.5 * h.width_rad * (1.0 + rough)).min(std::f32::consts::PI).cos()).collect();
    Field::from_fn_dir(n, |d| {
        let mut sum = 0.0;
        for (k, h) in hills.iter().enumerate() {
            let cos = d.dot(h.at);
            if cos < reach[k] {
                continue;
            }
            let a = cos.clamp(-1.0, 1.0).acos();
            let w = h.width_rad * (1.0 + rough * jitter(d, k)).max(0.05);
            sum += h.height * (-0.5 * (a / w) * (a / w)).exp();
        }
        sum
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::NodeKind;

    fn defaults() -> HillgrowSettings {
        HillgrowSettings::from_params(&NodeKind::Hillgrow.default_params()).expect("the declared defaults")
    }

    fn run(s: &HillgrowSettings, n: usize) -> Field {
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
        Hillgrow::run(s, &Inputs(&[]), &ctx).expect("runs")[0].as_field().expect("field").as_ref().clone()
    }

    #[test]
    fn one_hill_is_a_gaussian_by_great_circle_distance_mid_face_on_an_edge_and_a_corner() {
        // One hill of height 1 and width 10 deg, no roughness, no smoothing: the profile is
        // the same wherever the random point falls (we check where it fell and at 3 radii).
        for seed in [1, 2, 3, 4, 5, 6, 7, 8] {
            let s = HillgrowSettings { hills: 1, height_min: 1.0, height_max: 1.0, width_min_deg: 10.0, width_max_deg: 10.0, roughness: 0.0, smoothing_deg: 0.0, seed };
            let f = run(&s, 64);
            let at = hills(&s)[0].at;
            let side = at.any_orthogonal_vector().normalize();
            for deg in [0.0f32, 10.0, 20.0] {
                for turn in 0..6 {
                    let axis = glam::Quat::from_axis_angle(at, turn as f32) * side;
                    let p = glam::Quat::from_axis_angle(axis, deg.to_radians()) * at;
                    let want = (-0.5 * (deg / 10.0) * (deg / 10.0)).exp();
                    assert!((f.sample_dir(p) - want).abs() < 0.02, "seed {seed} at {deg} deg: {} vs {want}", f.sample_dir(p));
                }
            }
        }
    }

    #[test]
    fn a_hill_mid_face_across_an_edge_and_on_a_cube_corner_has_the_same_shape() {
        let s = HillgrowSettings { roughness: 0.0, ..defaults() };
        let profile = |at: Vec3| {
            let f = grow_hills(&[Hill { at, height: 1.0, width_rad: 8f32.to_radians() }], &s, 96);
            let side = at.any_orthogonal_vector().normalize();
            (0..12).map(|k| glam::Quat::from_axis_angle(glam::Quat::from_axis_angle(at, k as f32 * 0.5) * side, 6f32.to_radians()) * at).map(|p| f.sample_dir(p)).collect::<Vec<f32>>()
        };
        let want = (-0.5f32 * (6.0 / 8.0) * (6.0 / 8.0)).exp();
        for at in [Vec3::new(0.1, 0.2, 1.0).normalize(), Vec3::new(1.0, 0.1, 1.0).normalize(), Vec3::ONE.normalize()] {
            for v in profile(at) {
                assert!((v - want).abs() < 0.01, "{at}: {v} vs {want}");
            }
        }
    }

    #[test]
    fn the_preview_matches_the_build_and_threads_do_not_matter() {
        let s = defaults();
        let (coarse, fine) = (run(&s, 64), run(&s, 256).resample(64));
        let corr = crate::planet::field::correlation(coarse.data(), fine.data());
        assert!(corr > 0.97, "{corr}");
        let go = |t| rayon::ThreadPoolBuilder::new().num_threads(t).build().expect("pool").install(|| run(&s, 48));
        assert_eq!(go(1).data(), go(2).data());
        // Different seeds, different hills.
        assert_ne!(run(&HillgrowSettings { seed: 2, ..s }, 16).data(), run(&s, 16).data());
    }

    #[test]
    fn no_nan_at_the_ends_of_every_parameter() {
        let base = defaults();
        for s in [
            HillgrowSettings { hills: 1, width_min_deg: 0.05, width_max_deg: 0.05, roughness: 1.0, smoothing_deg: 0.0, ..base },
            HillgrowSettings { hills: 2000, width_min_deg: 90.0, width_max_deg: 90.0, height_min: -10.0, height_max: 10.0, smoothing_deg: 20.0, ..base },
            HillgrowSettings { width_min_deg: 50.0, width_max_deg: 1.0, height_min: 1.0, height_max: -1.0, ..base },
        ] {
            assert!(run(&s, 16).data().iter().all(|v| v.is_finite()), "{s:?}");
        }
    }
}
